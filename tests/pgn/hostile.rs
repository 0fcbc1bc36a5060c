//! Hostile record files: each gives one clear error line (or is read), in bounded time and
//! memory, through `moulin replay`, `moulin analyse` and the protocol.

use super::harness::{file, head, run, tags, Run};

fn replay(name: &str, bytes: &[u8]) -> Run {
    let path = file(name, bytes);
    run(&["replay", path.to_str().unwrap()], b"")
}

fn analyse(name: &str, bytes: &[u8]) -> Run {
    let path = file(name, bytes);
    run(&["analyse", path.to_str().unwrap(), "--depth", "1"], b"")
}

/// `run` failed with one error line holding every one of `words`.
fn refused(run: &Run, what: &str, words: &[&str]) {
    run.sane(what, 10.0, 100);
    let err = run.err();
    assert_eq!(run.code, Some(1), "{what}: {}", head(&err));
    assert_eq!(err.lines().count(), 1, "{what}: {}", head(&err));
    for w in words {
        assert!(err.contains(w), "{what}: no {w:?} in {}", head(&err));
    }
}

/// `run` read the file within `secs`, and said it read `said` (`replayed 1 game, 2 moves`).
fn read(run: &Run, what: &str, secs: f64, said: &str) {
    run.sane(what, secs, 100);
    assert!(
        run.stdout.contains(said),
        "{what}: {} {}",
        run.stdout,
        run.err()
    );
}

/// `1. d6` and `depth` variations each inside the one before.
fn nested(depth: usize) -> Vec<u8> {
    format!("1. d6 {}{} *\n", "(d6 ".repeat(depth), ")".repeat(depth)).into_bytes()
}

#[test]
fn variations_nested_beyond_the_limit_are_one_error_with_their_place() {
    // 100,000 nested variations (500 KB) overflowed the stack of replay and analyse.
    let deep = nested(100_000);
    let error = [
        "deep.pgn: line 1, column 407: ",
        "variations nest deeper than the 100 levels",
    ];
    refused(&replay("deep.pgn", &deep), "replay", &error);
    refused(&analyse("deep.pgn", &deep), "analyse", &error);
    // At the limit, the record reads.
    let run = replay("deep-100.pgn", &nested(100));
    read(&run, "100 nested", 10.0, "replayed 1 game, 1 move");
}

#[test]
fn reading_time_grows_as_the_input() {
    // 60,000 tags (750 KB) took 8 s, a move with 1,000,000 glyphs 4 s.
    let run = replay("tags.pgn", format!("{}\n*\n", tags(60_000)).as_bytes());
    read(&run, "60,000 tags", 2.0, "replayed 1 game");
    let glyphs = format!("1. d6{} *\n", "!".repeat(1_000_000));
    let run = replay("glyphs.pgn", glyphs.as_bytes());
    read(&run, "1,000,000 glyphs", 2.0, "replayed 1 game, 1 move");
}

#[test]
fn memory_is_that_of_one_game() {
    // 8 MB of short games used 330 MB: they are read one at a time.
    let game = "[Event \"e\"]\n[Result \"*\"]\n\n1. d6 f4 2. d2 *\n\n";
    let count = 8_000_000 / game.len();
    let run = replay("short.pgn", game.repeat(count).as_bytes());
    run.sane("8 MB of short games", 20.0, 40);
    let said = format!("replayed {count} games, {} moves", 3 * count);
    assert!(run.stdout.contains(&said), "{} {}", run.stdout, run.err());
}

#[test]
fn a_game_over_the_size_limit_is_refused_with_its_place() {
    // An 8 MB comment was read whole (and 50 MB took 737 MB).
    let text = format!("1. d6 *\n\n1. d6 {{{}}} *\n", "a".repeat(8_000_000));
    let run = replay("comment.pgn", text.as_bytes());
    refused(
        &run,
        "an 8 MB comment",
        &[
            "line 3, column 1048577: ",
            "the game begun at line 3, column 1 is longer than the 1 MB a game may be",
        ],
    );
    assert!(run.peak_kb < 40 << 10, "{} KB", run.peak_kb);
}

#[test]
fn errors_quote_a_long_word_cut_and_control_bytes_escaped() {
    // A 900 KB move was echoed twice in the error (1.8 MB).
    let word = format!("1. {} *\n", "d".repeat(900_000));
    let run = replay("word.pgn", word.as_bytes());
    refused(&run, "a long word", &["(900000 characters)"]);
    assert!(run.stderr.len() < 600, "{} bytes", run.stderr.len());
    // BEL, ESC and NUL reached the terminal raw.
    for (name, text, shown) in [
        ("bel.pgn", "1. d6\u{7} *\n", "d6\\u{7}"),
        ("esc.pgn", "1. d6 d\u{1b}c *\n", "d\\u{1b}c"),
        ("nul.pgn", "1. d6 f4\0 *\n", "f4\\0"),
        ("variant.pgn", "[Variant \"nine\u{7}\"]\n*\n", "nine\\u{7}"),
        (
            "fen-field.pgn",
            "[FEN \"********/********/******** \u{7} p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1\"]\n*\n",
            "'\\u{7}'",
        ),
    ] {
        let run = replay(name, text.as_bytes());
        refused(&run, name, &[shown]);
        let raw = run.stderr.iter().find(|&&b| b < 0x20 && b != b'\n');
        assert_eq!(raw, None, "{name}: {}", run.err());
    }
}

#[test]
fn a_move_error_of_the_protocol_quotes_the_move_cut() {
    let word = "d".repeat(500);
    let input =
        format!("position startpos moves d6 {word}\nposition startpos moves d\u{7}6\nquit\n");
    let run = run(&[], input.as_bytes());
    run.sane("protocol", 10.0, 100);
    let long = run
        .stdout
        .lines()
        .find(|l| l.contains("move 2"))
        .unwrap_or("");
    assert!(long.contains("(500 characters)"), "{}", run.stdout);
    assert!(long.len() < 300, "{long}");
    assert!(run.stdout.contains("'d\\u{7}6'"), "{}", run.stdout);
}

#[test]
fn records_starting_with_a_bom_a_result_a_variation_or_a_glyph_are_pgn() {
    let bom = b"\xef\xbb\xbf[Event \"e\"]\n\n1. d6 f4 *\n";
    read(
        &replay("bom.pgn", bom),
        "bom",
        10.0,
        "replayed 1 game, 2 moves",
    );
    let run = analyse("bom.pgn", bom);
    run.sane("analyse bom", 20.0, 200);
    assert_eq!(run.code, Some(0), "{}", run.err());
    read(
        &replay("star.pgn", b"*\n"),
        "*",
        10.0,
        "replayed 1 game, 0 moves",
    );
    let bare = replay("bare.pgn", b"d6 f4 *\n");
    read(&bare, "no number", 10.0, "replayed 1 game, 2 moves");
    refused(
        &replay("paren.pgn", b"(1. d6) *\n"),
        "(",
        &["line 1, column 1: a variation before any move"],
    );
    refused(
        &replay("nag.pgn", b"$1 1. d6 *\n"),
        "$",
        &["line 1, column 1: an annotation glyph before any move"],
    );
}

#[test]
fn replay_says_it_reads_pgn() {
    // Its help named match records only, though it reads PGN-shaped records too.
    let help = run(&["replay", "--help"], b"");
    assert_eq!(help.code, Some(0), "{}", help.err());
    assert!(
        help.stdout.contains("PGN-shaped records"),
        "{}",
        help.stdout
    );
}

#[test]
fn a_tag_name_holding_another_character_is_named_as_such() {
    // `[White-Elo "2000"]` was "the tag 'White' needs a quoted value".
    let run = replay("dash.pgn", b"[White-Elo \"2000\"]\n\n1. d6 *\n");
    refused(
        &run,
        "a dash in a tag name",
        &["line 1, column 7", "'White'", "'-'", "a tag name"],
    );
    assert!(!run.err().contains("quoted value"), "{}", run.err());
    // A tag with no value is still said as such.
    refused(
        &replay("bare-tag.pgn", b"[White]\n\n1. d6 *\n"),
        "a tag without a value",
        &["the tag 'White' needs a quoted value"],
    );
}

#[test]
fn a_named_pipe_as_the_record_is_refused_at_once() {
    // `replay` and `analyse` waited for a writer forever (as `load` froze `moulin play`).
    let pipe = super::harness::temp("pipe.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", pipe.display());
    let path = pipe.to_str().unwrap();
    for args in [vec!["replay", path], vec!["analyse", path, "--depth", "1"]] {
        let run = run(&args, b"");
        refused(
            &run,
            args[0],
            &["pipe.pgn", "a named pipe, not a regular file"],
        );
    }
}

#[test]
fn endless_or_huge_records_and_openings_are_refused_at_once_in_bounded_memory() {
    let dir = super::harness::temp("hostile-inputs");
    let openings = file("drawn.txt", b"d6 d2\n");
    let records = file(
        "records.txt",
        b"game=1 white=a black=b variant=nine start=startpos opening=\"d2 d6 b4\" moves=\"\" \
          result=0-1 end=rules reason=x\n",
    );
    let (openings, records) = (openings.to_str().unwrap(), records.to_str().unwrap());
    // A comment then no line break is a PGN error at its first word for `analyse`.
    let runs: [(&[&str], &str); 4] = [
        (&["replay", "INPUT"], "longer than the 1 MB"),
        (&["analyse", "INPUT", "--depth", "1"], "line 1"),
        (
            &["replay", "--drawn", openings, "INPUT"],
            "longer than the 1 MB",
        ),
        (
            &["replay", "--drawn", "INPUT", records],
            "larger than the 64 MB",
        ),
    ];
    for (args, said) in runs {
        crate::shared::bounded::hostile_inputs_refused(args, &dir, &[said]);
    }
}
