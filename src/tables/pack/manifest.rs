//! A packed set's manifest, `manifest.txt`: what the set is: the format's version, the rules
//! (every option that changes a value, and their fingerprints), what it covers, and each file's
//! size and checksum (`Listed`) or, for a table the set does not store, its slots (`Derived`),
//! the whole closed by a checksum of its own lines; and where a set is looked for.

use crate::rules::Rules;
use crate::tables::checksum::checksum;
use crate::tables::groups::Group;
use crate::tables::packed_flaw::PackedFlaw;
use crate::tables::packed_table as table;
use crate::tables::table_key::Key;
use crate::tables::tables_error::TablesError;
use crate::tables::{fingerprint, placing, scope};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use super::folder::MANIFEST;
use super::folder::TITLE;

/// Whether `dir` holds a packed set (its manifest).
pub fn is_set(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
}

/// One file of a set, as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The table it holds.
    pub key: Key,
    /// Its bytes.
    pub size: u64,
    /// The checksum of all its bytes (`tables::checksum::checksum`).
    pub checksum: u64,
}

/// What a manifest says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The rule options that change a value (`scope::moving_options`) and the pieces a side.
    pub rules: String,
    /// The moving tables' fingerprint.
    pub moving_print: u64,
    /// The placing solution's fingerprint.
    pub placing_print: u64,
    /// The pieces a side of the game.
    pub pieces: u8,
    /// Every file, moving tables first.
    pub files: Vec<Listed>,
    /// The tables the set does not store: their values are found from their successors.
    pub derived: Vec<Derived>,
}

/// A table a set does not store (each of its values is found from its successors, which lie in
/// stored tables), as the manifest lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derived {
    /// The table.
    pub key: Key,
    /// Its slots.
    pub slots: u64,
    /// Bytes a value of the table it stands for (0: a placing group).
    pub width: u8,
    /// The longest distance of the table it stands for.
    pub longest: u16,
}

/// The rules as a manifest names them.
fn rules_line(rules: &Rules) -> String {
    format!("{}Pieces={}", scope::moving_options(rules), rules.pieces)
}

impl Manifest {
    /// The manifest of a set of `files` for `rules`.
    pub fn new(rules: &Rules, files: Vec<Listed>, derived: Vec<Derived>) -> Manifest {
        Manifest {
            rules: rules_line(rules),
            moving_print: fingerprint(rules),
            placing_print: placing::fingerprint(rules),
            pieces: rules.pieces,
            files,
            derived,
        }
    }

    /// Every key it covers, stored or derived.
    pub fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.files
            .iter()
            .map(|f| f.key)
            .chain(self.derived.iter().map(|d| d.key))
    }

    /// The moving tables it covers (stored or derived).
    pub fn pairs(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.keys().filter_map(|k| match k {
            Key::Moving(m, o) => Some((m, o)),
            Key::Placing(_) => None,
        })
    }

    /// The placing groups it covers (stored or derived).
    pub fn groups(&self) -> impl Iterator<Item = Group> + '_ {
        self.keys().filter_map(|k| match k {
            Key::Placing(g) => Some(g),
            Key::Moving(..) => None,
        })
    }

    /// The manifest as its file holds it.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "{TITLE}");
        let _ = writeln!(t, "format {}", table::VERSION);
        let _ = writeln!(t, "rules {}", self.rules);
        let _ = writeln!(
            t,
            "fingerprint moving {:016x} placing {:016x}",
            self.moving_print, self.placing_print
        );
        let _ = writeln!(t, "pieces {}", self.pieces);
        let _ = writeln!(
            t,
            "covers {} moving tables, {} placing groups ({} derived)",
            self.pairs().count(),
            self.groups().count(),
            self.derived.len()
        );
        for f in &self.files {
            let _ = writeln!(
                t,
                "file {} {} {:016x}",
                f.key.file_name(),
                f.size,
                f.checksum
            );
        }
        for d in &self.derived {
            let name = d.key.file_name();
            let _ = writeln!(t, "derived {name} {} {} {}", d.slots, d.width, d.longest);
        }
        let _ = writeln!(t, "end {:016x}", checksum(t.as_bytes()));
        t
    }

    /// Reads a manifest's text (`path` names it in errors).
    pub fn parse(path: &Path, text: &str) -> Result<Manifest, TablesError> {
        let bad = |flaw: PackedFlaw| TablesError::Packed {
            path: path.to_path_buf(),
            flaw,
        };
        let Some(end_at) = text.rfind("end ") else {
            return Err(bad(PackedFlaw::ManifestCut));
        };
        let (body, end) = text.split_at(end_at);
        let sum = end.trim_start_matches("end ").trim();
        if u64::from_str_radix(sum, 16).ok() != Some(checksum(body.as_bytes())) {
            return Err(bad(PackedFlaw::ManifestChecksum));
        }
        let mut lines = body.lines();
        if lines.next() != Some(TITLE) {
            return Err(bad(PackedFlaw::NotManifest));
        }
        let mut field = |name: &'static str| -> Result<String, TablesError> {
            let line = lines.next().unwrap_or_default();
            line.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(str::to_string)
                .ok_or_else(|| {
                    bad(PackedFlaw::ExpectedLine {
                        name,
                        found: line.to_string(),
                    })
                })
        };
        let format = field("format")?;
        // A set of format 2 is read as well: its files are (`packed_table`).
        let known = [table::VERSION, table::VERSION_2].map(|v| v.to_string());
        if !known.contains(&format) {
            return Err(bad(PackedFlaw::ManifestFormat {
                found: format,
                reads: table::VERSION,
            }));
        }
        let rules = field("rules")?;
        let prints = field("fingerprint")?;
        let words: Vec<&str> = prints.split_whitespace().collect();
        let hex = |w: Option<&&str>| w.and_then(|w| u64::from_str_radix(w, 16).ok());
        let (Some(moving_print), Some(placing_print)) = (hex(words.get(1)), hex(words.get(3)))
        else {
            return Err(bad(PackedFlaw::FingerprintLine { line: prints }));
        };
        let pieces = field("pieces")?
            .parse()
            .map_err(|_| bad(PackedFlaw::PiecesLine))?;
        field("covers")?;
        let damaged = |line: &str| {
            bad(PackedFlaw::DamagedLine {
                line: line.to_string(),
            })
        };
        let mut files = Vec::new();
        let mut derived = Vec::new();
        for line in lines {
            if let Some(rest) = line.strip_prefix("derived ") {
                let parse = || {
                    let mut w = rest.split_whitespace();
                    let key = Key::from_file_name(w.next()?)?;
                    Some(Derived {
                        key,
                        slots: w.next()?.parse().ok()?,
                        width: w.next()?.parse().ok()?,
                        longest: w.next()?.parse().ok()?,
                    })
                };
                derived.push(parse().ok_or_else(|| damaged(line))?);
                continue;
            }
            let parse = || {
                let rest = line.strip_prefix("file ")?;
                let mut w = rest.split_whitespace();
                let name = w.next()?;
                let size = w.next()?.parse().ok()?;
                let sum = u64::from_str_radix(w.next()?, 16).ok()?;
                let key = Key::from_file_name(name)?;
                Some(Listed {
                    key,
                    size,
                    checksum: sum,
                })
            };
            files.push(parse().ok_or_else(|| damaged(line))?);
        }
        Ok(Manifest {
            rules,
            moving_print,
            placing_print,
            pieces,
            files,
            derived,
        })
    }

    /// Reads the manifest of the set `dir`.
    pub fn read(dir: &Path) -> Result<Manifest, TablesError> {
        Manifest::read_file(&dir.join(MANIFEST))
    }

    /// The manifest in the file `path` (a set's, or the set before's that a pack keeps,
    /// `folder::MANIFEST_BEFORE`), checked as `read` checks it.
    pub fn read_file(path: &Path) -> Result<Manifest, TablesError> {
        let path = path.to_path_buf();
        let file = crate::tables::mapped::open_regular(&path)?;
        let bytes = crate::input_file::read_file_capped(file, 1 << 20).map_err(|e| {
            TablesError::Packed {
                path: path.clone(),
                flaw: PackedFlaw::Unreadable(e),
            }
        })?;
        let text = String::from_utf8(bytes).map_err(|_| TablesError::Packed {
            path: path.clone(),
            flaw: PackedFlaw::NotText,
        })?;
        Manifest::parse(&path, &text)
    }

    /// Whether the set's moving tables serve `rules` (the same moving phase; its placing
    /// serves only the same game, `placing_serves`): an error naming the manifest and the rules
    /// it was made for, if not.
    pub fn check_rules(&self, dir: &Path, rules: &Rules) -> Result<(), TablesError> {
        if self.moving_print == fingerprint(rules) {
            return Ok(());
        }
        Err(TablesError::Packed {
            path: dir.join(MANIFEST),
            flaw: PackedFlaw::OtherRules {
                made_for: self.rules.clone(),
                in_force: rules_line(rules),
            },
        })
    }

    /// The fingerprint the packed table of `key` was made under.
    pub fn print_of(&self, key: Key) -> u64 {
        match key {
            Key::Moving(..) => self.moving_print,
            Key::Placing(_) => self.placing_print,
        }
    }

    /// Whether the set's placing solution serves `rules`: the same game, pieces included.
    pub fn placing_serves(&self, rules: &Rules) -> bool {
        self.placing_print == placing::fingerprint(rules)
    }
}

/// The word of a setting naming tables (`TablesPath`, `--tables`) for the set installed for the
/// rules in force: the setting's default, as `uci` shows it (an empty value means the same).
pub const INSTALLED: &str = "installed";

/// Whether a tables setting asks for the set installed for the rules in force: `installed`,
/// empty, or `built-in` (the word of the other shipped-data settings), any case.
pub fn is_installed_word(setting: &str) -> bool {
    setting.eq_ignore_ascii_case(INSTALLED) || crate::shipped::is_default(setting.as_ref())
}

/// Where a set is installed for a variant when no folder is named: `packed` in the variant's
/// tables directory.
pub fn default_dir(variant: &str) -> PathBuf {
    default_dir_in(&crate::tables::default_dir(variant))
}

/// The packed set's folder in the tables directory `dir`: `packed`.
pub fn default_dir_in(dir: &Path) -> PathBuf {
    dir.join("packed")
}
