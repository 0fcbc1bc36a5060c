//! Tests of the engine's options: their names, values, defaults and `uci` lines.

use super::*;

#[test]
fn uci_elo_holds_only_with_uci_limit_strength() {
    let mut s = Settings::default();
    assert_eq!(s.strength(), None);
    s.set("Level", Some("7")).unwrap();
    assert_eq!(s.strength().map(Strength::value), Some(7.0));
    s.set("UCI_Elo", Some(&strength::ELO_MIN.to_string()))
        .unwrap();
    s.set("UCI_LimitStrength", Some("true")).unwrap();
    assert_eq!(s.strength().map(Strength::value), Some(1.0));
    s.set("UCI_Elo", Some(&strength::ELO_MAX.to_string()))
        .unwrap();
    assert_eq!(s.strength(), None);
    assert!(s.set("UCI_Elo", Some("0")).is_err());
}

#[test]
fn every_rule_option_is_listed_and_round_trips() {
    let lines = Settings::uci_lines();
    for o in &RULE_OPTIONS {
        let listed = format!("option name {} ", o.name);
        assert!(lines.iter().any(|l| l.starts_with(&listed)), "{}", o.name);
    }
    for preset in PRESETS {
        let rules = Rules::preset(preset).unwrap();
        let mut s = Settings::default();
        for (name, value) in rules.options() {
            s.set(name, Some(&value)).unwrap();
        }
        assert_eq!(s.rules, rules, "{preset}");
        assert_eq!(s.value("Variant"), preset);
    }
}

#[test]
fn names_ignore_case_and_spaces() {
    let mut s = Settings::default();
    assert_eq!(s.set("move overhead", Some("50")), Ok(Changed::Search));
    assert_eq!(s.move_overhead, 50);
    assert_eq!(s.set("HASH", Some("64")), Ok(Changed::Hash));
    assert_eq!(s.hash_mb, 64);
    s.set("variant", Some("Lasker")).unwrap();
    assert_eq!(s.rules, Rules::preset("lasker").unwrap());
}

#[test]
fn book_options() {
    let mut s = Settings::default();
    assert_eq!(
        s.set("BookFile", Some("/Some/Path.book")),
        Ok(Changed::Book)
    );
    assert_eq!(s.book_file, "/Some/Path.book");
    assert_eq!(s.set("bookfile", Some("<empty>")), Ok(Changed::Book));
    assert_eq!(s.book_file, "");
    assert_eq!(s.set("OwnBook", Some("false")), Ok(Changed::Book));
    assert!(!s.own_book);
    assert_eq!(
        s.set("BookVariety", Some("Weighted")),
        Ok(Changed::Protocol)
    );
    assert_eq!(s.book_variety, Variety::Weighted);
    assert!(s.set("BookVariety", Some("random")).is_err());
}

#[test]
fn refused_values_change_nothing() {
    let mut s = Settings::default();
    let before = s.clone();
    for (name, value) in [
        ("Hash", Some("1000000000000")),
        ("Hash", Some("0")),
        ("Hash", Some("-3")),
        ("Threads", Some("x")),
        ("Ponder", Some("maybe")),
        ("Pieces", Some("13")),
        ("Flying", Some("2")),
        ("Variant", Some("chess")),
        ("Colour", Some("red")),
        ("Hash", None),
    ] {
        assert!(s.set(name, value).is_err(), "{name} {value:?}");
        assert_eq!(s, before);
    }
}

#[test]
fn every_engine_option_reads_what_it_writes() {
    let mut s = Settings::default();
    for o in &ENGINE_OPTIONS {
        // A value other than the default where the option has one, in the form given.
        let given = match o.kind {
            Kind::Check if (o.write)(&s) == "true" => "False".to_string(),
            Kind::Check => "TRUE".to_string(),
            Kind::Spin { max, .. } => max.to_string(),
            Kind::Combo(vars) => vars[vars.len() - 1].to_uppercase(),
            Kind::Text => "/Some/Path".to_string(),
        };
        s.set(o.name, Some(&given)).unwrap();
        // Text keeps its case (a file name); the other kinds are read in any case.
        let shown = match o.kind {
            Kind::Text => given,
            _ => given.to_lowercase(),
        };
        assert_eq!(s.value(o.name), shown, "{}", o.name);
        let before = s.clone();
        s.set(o.name, Some(&s.value(o.name))).unwrap();
        assert_eq!(s, before, "{}", o.name);
    }
}

#[test]
fn uci_lines_name_every_option() {
    let lines = Settings::uci_lines();
    assert_eq!(lines.len(), ENGINE_OPTIONS.len() + RULE_OPTIONS.len());
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 1024".into()));
    assert!(lines.contains(&"option name NoCapture type spin default 100 min 0 max 10000".into()));
    assert!(lines.contains(&"option name Diagonals type check default false".into()));
    assert!(lines.contains(&"option name OwnBook type check default true".into()));
    for (name, default) in [
        ("BookFile", "built-in"),
        ("EvalFile", "built-in"),
        ("OpeningSolution", "built-in"),
        ("TablesPath", "installed"),
    ] {
        let line = format!("option name {name} type string default {default}");
        assert!(lines.contains(&line), "{line}");
    }
    assert!(lines
        .contains(&"option name BookVariety type combo default best var best var weighted".into()));
}
