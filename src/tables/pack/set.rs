//! A packed set: a folder with one packed table a moving table and a placing group
//! (`moving/<m>-<o>.pk`, `placing/<l>-<m>-<o>.pk`) and the manifest, `manifest.txt`, that says
//! what the set is: the format's version, the rules (every option that changes a value, and
//! their fingerprints), what it covers, and each file's size and checksum, the whole closed by
//! a checksum of its own lines.
//!
//! A set is made from a built solution (`pack`), opened for probing from its manifest with every
//! table's header and index checked and each block checked as it is unpacked (`open`), and
//! checked whole: every file's size and checksum, every block, and every table's values against
//! the checksum of the file it was made from (`verify`).

use super::table::{self, Key, Meta, PackedTable};
use crate::rules::Rules;
use crate::tables::checksum::checksum;
use crate::tables::placing::groups::{self, Group};
use crate::tables::placing::solution::Solution;
use crate::tables::tables_error::TablesError;
use crate::tables::{fingerprint, Tables, Values};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use super::folder::MANIFEST;
use super::folder::{SetError, SetLock, TITLE};

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
    format!(
        "{}Pieces={}",
        crate::tables::scope::moving_options(rules),
        rules.pieces
    )
}

impl Manifest {
    /// The manifest of a set of `files` for `rules`.
    pub fn new(rules: &Rules, files: Vec<Listed>, derived: Vec<Derived>) -> Manifest {
        Manifest {
            rules: rules_line(rules),
            moving_print: fingerprint(rules),
            placing_print: crate::tables::placing::fingerprint(rules),
            pieces: rules.pieces,
            files,
            derived,
        }
    }

    /// Every key it covers, stored or derived.
    fn keys(&self) -> impl Iterator<Item = Key> + '_ {
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
        let bad = |what: String| TablesError::Packed {
            path: path.to_path_buf(),
            what,
        };
        let Some(end_at) = text.rfind("end ") else {
            return Err(bad(
                "not a whole manifest (no end line): the file is cut".into()
            ));
        };
        let (body, end) = text.split_at(end_at);
        let sum = end.trim_start_matches("end ").trim();
        if u64::from_str_radix(sum, 16).ok() != Some(checksum(body.as_bytes())) {
            return Err(bad("checksum mismatch: the manifest is damaged".into()));
        }
        let mut lines = body.lines();
        if lines.next() != Some(TITLE) {
            return Err(bad("not the manifest of a moulin packed set".into()));
        }
        let mut field = |name: &str| -> Result<String, TablesError> {
            let line = lines.next().unwrap_or_default();
            line.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(' '))
                .map(str::to_string)
                .ok_or_else(|| bad(format!("expected a '{name}' line, found '{line}'")))
        };
        let format = field("format")?;
        if format != table::VERSION.to_string() {
            return Err(bad(format!(
                "format {format}; this moulin reads format {}",
                table::VERSION
            )));
        }
        let rules = field("rules")?;
        let prints = field("fingerprint")?;
        let words: Vec<&str> = prints.split_whitespace().collect();
        let hex = |w: Option<&&str>| w.and_then(|w| u64::from_str_radix(w, 16).ok());
        let (Some(moving_print), Some(placing_print)) = (hex(words.get(1)), hex(words.get(3)))
        else {
            return Err(bad(format!("a damaged fingerprint line: '{prints}'")));
        };
        let pieces = field("pieces")?
            .parse()
            .map_err(|_| bad("a damaged pieces line".into()))?;
        field("covers")?;
        let mut files = Vec::new();
        let mut derived = Vec::new();
        for line in lines {
            if let Some(rest) = line.strip_prefix("derived ") {
                let parse = || {
                    let mut w = rest.split_whitespace();
                    let key = key_of_name(w.next()?)?;
                    Some(Derived {
                        key,
                        slots: w.next()?.parse().ok()?,
                        width: w.next()?.parse().ok()?,
                        longest: w.next()?.parse().ok()?,
                    })
                };
                derived.push(parse().ok_or_else(|| bad(format!("a damaged line: '{line}'")))?);
                continue;
            }
            let parse = || {
                let rest = line.strip_prefix("file ")?;
                let mut w = rest.split_whitespace();
                let name = w.next()?;
                let size = w.next()?.parse().ok()?;
                let sum = u64::from_str_radix(w.next()?, 16).ok()?;
                let key = key_of_name(name)?;
                Some(Listed {
                    key,
                    size,
                    checksum: sum,
                })
            };
            files.push(parse().ok_or_else(|| bad(format!("a damaged line: '{line}'")))?);
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
        let path = dir.join(MANIFEST);
        let file = crate::tables::mapped::open_regular(&path)?;
        let bytes = crate::input_file::read_file_capped(file, 1 << 20).map_err(|e| {
            TablesError::Packed {
                path: path.clone(),
                what: e.to_string(),
            }
        })?;
        let text = String::from_utf8(bytes).map_err(|_| TablesError::Packed {
            path: path.clone(),
            what: "not text: not a manifest".into(),
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
            what: format!(
                "made for other rules ({}; the rules in force: {})",
                self.rules,
                rules_line(rules)
            ),
        })
    }
}

impl Manifest {
    /// Whether the set's placing solution serves `rules`: the same game, pieces included.
    pub fn placing_serves(&self, rules: &Rules) -> bool {
        self.placing_print == crate::tables::placing::fingerprint(rules)
    }
}

/// The key of a file name as the manifest lists it (`Key::file_name`).
fn key_of_name(name: &str) -> Option<Key> {
    let stem = |prefix: &str| name.strip_prefix(prefix)?.strip_suffix(".pk");
    if let Some(pair) = stem("moving/") {
        let (m, o) = pair.split_once('-')?;
        return Some(Key::Moving(m.parse().ok()?, o.parse().ok()?));
    }
    Some(Key::Placing(Group::parse(stem("placing/")?)?))
}

/// The checksum of a whole file (`tables::checksum::checksum` of its bytes), read a piece at a time.
pub fn file_checksum(path: &Path, progress: &dyn Fn(u64)) -> Result<(u64, u64), TablesError> {
    use std::io::Read;
    let open = |source| TablesError::Open {
        path: path.to_path_buf(),
        source,
    };
    let mut f = crate::tables::mapped::open_regular(path)?;
    let len = f.metadata().map_err(open)?.len();
    let mut h = len;
    let mut buf = vec![0u8; 1 << 20];
    let mut read = 0u64;
    loop {
        // Whole multiples of 8 bytes but at the end, so that the pieces mix as the whole would.
        let mut n = 0;
        while n < buf.len() {
            let k = f.read(&mut buf[n..]).map_err(open)?;
            if k == 0 {
                break;
            }
            n += k;
        }
        if n == 0 {
            break;
        }
        h = crate::tables::checksum::mix_words(h, &buf[..n]);
        read += n as u64;
        progress(n as u64);
        if n < buf.len() {
            break;
        }
    }
    if read != len {
        return Err(TablesError::Packed {
            path: path.to_path_buf(),
            what: format!("changed while read ({read} bytes of {len})"),
        });
    }
    Ok((len, h))
}

/// What `pack` did.
#[derive(Clone, Debug, Default)]
pub struct Packed {
    /// Tables packed now, and those found packed already (a resumed run).
    pub made: usize,
    /// Tables already packed and sound.
    pub kept: usize,
    /// Tables not stored: found from their successors.
    pub derived: usize,
    /// Bytes of values stored.
    pub raw: u64,
    /// Bytes of the set's files.
    pub packed: u64,
}

/// The fewest pieces on the board of a table of one piece apart that is stored though it could
/// be derived (8-9 in the standard game): the moving phase of a game without a removal in the
/// placing begins there and in its mirror, so a search from the late placing probes it more than
/// any other, and a derived position costs a probe of each successor. Storing it (187 MB) made
/// such a search with memory short 1.2 times faster; storing 7-8 as well (176 MB more) gained
/// little and took the set past 2 GB (docs/results.md, 2026-11-29).
const HOT_PIECES: usize = 17;

/// How many pieces fewer the mover of a table must have for it to be stored though it could be
/// derived, in tables of at most `BEHIND_PIECES` pieces: a side far behind (flying, in the
/// standard game, at three pieces) has many moves, and a search from the placing reaches such
/// tables through its lines of captures, each derived position a probe of every successor.
/// They pack small (3-6 to 4-9 and 5-8: 84 MB of the standard game's set; 5-9 and 6-9, 70 MB
/// more, would take it past 2 GB): storing them made a search from the late placing probe the
/// tables 2.5 times less often (every successor of a derived position a probe) and run about
/// 1.1 times faster (docs/results.md, 2026-11-29).
const BEHIND: usize = 3;
/// The most pieces of a table stored because its mover is `BEHIND`.
const BEHIND_PIECES: usize = 13;

/// Whether the moving table `(m, o)` need not be stored: its mover has fewer pieces, so each of
/// its positions' successors lies in a stored table: the mirror `(o, m)` after a step that
/// removes nothing, `(o - 1, m)` after a removal (`(o - 2, m)` after two, where the rules allow
/// them), or the game is over.
fn pair_derivable(tables: &Tables, rules: &Rules, m: usize, o: usize) -> bool {
    // A move removes one piece, or one a mill closed (two at most) where the rules say so; the
    // successors after each count of removals must be stored, and so not derived themselves.
    let most = if rules.multi_mill == crate::rules::MultiMill::OnePerMill {
        2
    } else {
        1
    };
    let stored = |a: usize, b: usize| {
        tables.has(a, b) && !matches!(tables.values(a, b), Some(Values::Derived(..)))
    };
    m < o && stored(o, m) && (1..=most).all(|k| o < 3 + k || (o - k >= m && stored(o - k, m)))
}

/// Whether the placing group `g` need not be stored: an even count of placements left, where
/// every move places a piece (so each successor lies in the group after it, stored).
fn group_derivable(rules: &Rules, g: Group) -> bool {
    rules.placing_moves == crate::rules::PlacingMoves::PlaceOnly && g.left.is_multiple_of(2)
}

/// One table to pack: its key, its values' bytes, its width and extra (`Meta`).
struct Source<'a> {
    key: Key,
    bytes: std::borrow::Cow<'a, [u8]>,
    width: u8,
    extra: u64,
    print: u64,
}

/// Packs the moving tables and the placing solution in `tables` (opened from a directory for
/// `rules`; the placing only if whole) into the set folder held by `out`
/// (`folder::prepare_pack`), in blocks of `block` bytes (a power of two, `table::MIN_BLOCK` to
/// `table::MAX_BLOCK`), every table or only those whose values cannot be found from stored
/// successors (`store_all`), resuming where a stopped run left it (a table already packed whole
/// from the same values and blocks is kept). A manifest there before is removed (and the removal
/// flushed to disk) before any table is written, and the new one written last: a pack stopped
/// partway leaves a folder without a manifest, which nothing takes for a set.
/// `progress` is told each table's bytes of values.
pub fn pack(
    tables: &Tables,
    rules: &Rules,
    out: &SetLock,
    store_all: bool,
    block: usize,
    progress: &dyn Fn(Key, u64, u64),
) -> Result<Packed, SetError> {
    let out = out.dir();
    let mut sources = Vec::new();
    let mut derived = Vec::new();
    let whole_placing = tables.placing().is_some_and(Solution::is_whole);
    for (m, o) in tables.pairs() {
        let values = tables.values(m, o).expect("a listed pair");
        let hot =
            (o == m + 1 && m + o >= HOT_PIECES) || (o >= m + BEHIND && m + o <= BEHIND_PIECES);
        if !store_all && !hot && pair_derivable(tables, rules, m, o) {
            derived.push(Derived {
                key: Key::Moving(m as u8, o as u8),
                slots: values.len() as u64,
                width: values.width(),
                longest: values.longest(),
            });
            continue;
        }
        sources.push(Source {
            key: Key::Moving(m as u8, o as u8),
            bytes: values.to_bytes(),
            width: values.width(),
            extra: u64::from(values.longest()),
            print: fingerprint(rules),
        });
    }
    if let Some(solution) = tables.placing().filter(|_| whole_placing) {
        for g in groups::all(rules) {
            if !store_all && group_derivable(rules, g) {
                derived.push(Derived {
                    key: Key::Placing(g),
                    slots: crate::tables::index::pair_len(g.mover as usize, g.other as usize),
                    width: 0,
                    longest: 0,
                });
                continue;
            }
            let bytes = solution
                .group_bytes(g)
                .ok_or_else(|| TablesError::PlacingMissing {
                    group: g.to_string(),
                })?;
            sources.push(Source {
                key: Key::Placing(g),
                bytes,
                width: 0,
                extra: crate::tables::index::pair_len(g.mover as usize, g.other as usize),
                print: crate::tables::placing::fingerprint(rules),
            });
        }
    }
    super::folder::begin_pack(out)?;
    let mut report = Packed::default();
    let mut files = Vec::new();
    for s in &sources {
        let meta = Meta {
            key: s.key,
            fingerprint: s.print,
            width: s.width,
            len: s.bytes.len() as u64,
            extra: s.extra,
            checksum: checksum(&s.bytes),
        };
        let path = table::path(out, s.key);
        // A file left by a stopped run is kept only when it unpacks, block by block, to these
        // very values (its header and index alone could hide a damaged block).
        let sound = PackedTable::open(&path, s.key, s.print).is_ok_and(|p| {
            if *p.meta() != meta || p.block_size() != block {
                return false;
            }
            let (mut at, mut same) = (0usize, true);
            let checked = p.check_all(
                |b| {
                    same &= s.bytes.get(at..at + b.len()) == Some(b);
                    at += b.len();
                },
                &|_| {},
            );
            checked.is_ok() && same && at == s.bytes.len()
        });
        if sound {
            report.kept += 1;
        } else {
            table::write(&path, &meta, &s.bytes, block)?;
            report.made += 1;
        }
        let (size, sum) = file_checksum(&path, &|_| {})?;
        files.push(Listed {
            key: s.key,
            size,
            checksum: sum,
        });
        report.raw += meta.len;
        report.packed += size;
        progress(s.key, meta.len, size);
    }
    report.derived = derived.len();
    let manifest = Manifest::new(rules, files, derived);
    crate::durable::write_atomic(&out.join(MANIFEST), manifest.to_text().as_bytes())?;
    Ok(report)
}

/// Opens the set `dir` for `rules`: the manifest read and checked against the rules, each file
/// there with its size, each table's header and index checked (the blocks are checked as they
/// are unpacked; `verify` checks everything). Tables of the moving phase and, when the set
/// holds every group, the placing solution.
pub fn open(dir: &Path, rules: &Rules) -> Result<Tables, TablesError> {
    let manifest = Manifest::read(dir)?;
    manifest.check_rules(dir, rules)?;
    let largest = manifest
        .pairs()
        .map(|(m, o)| m.max(o))
        .max()
        .unwrap_or(3)
        .min(crate::tables::MAX_PIECES) as usize;
    let mut tables = Tables::empty(rules, largest);
    let mut placing = std::collections::HashMap::new();
    let placing_serves = manifest.placing_serves(rules);
    let refuse = |what: String| TablesError::Packed {
        path: dir.join(MANIFEST),
        what,
    };
    if manifest.keys().any(|k| !key_fits(k, manifest.pieces)) {
        return Err(refuse(
            "lists a table this game has not: the manifest is damaged".into(),
        ));
    }
    for f in &manifest.files {
        if matches!(f.key, Key::Placing(_)) && !placing_serves {
            continue;
        }
        let t = Arc::new(open_listed(dir, &manifest, f)?);
        match f.key {
            Key::Moving(m, o) => tables.insert(m as usize, o as usize, Values::Packed(t)),
            Key::Placing(g) => {
                placing.insert(g, t);
            }
        }
    }
    let mut derived_groups = Vec::new();
    for d in &manifest.derived {
        let slots = match d.key {
            Key::Moving(m, o) => crate::tables::index::pair_len(m as usize, o as usize),
            Key::Placing(g) => crate::tables::index::pair_len(g.mover as usize, g.other as usize),
        };
        if d.slots != slots {
            return Err(refuse(format!(
                "says {} has {} slots, not {slots}",
                d.key, d.slots
            )));
        }
        match d.key {
            Key::Moving(m, o) => {
                let (m, o) = (m as usize, o as usize);
                if !(d.width == 1 || d.width == 2) || !pair_derivable(&tables, rules, m, o) {
                    return Err(refuse(format!(
                        "derives {} without the tables it needs",
                        d.key
                    )));
                }
                tables.insert(m, o, Values::Derived(d.slots as usize, d.width, d.longest));
            }
            Key::Placing(g) if placing_serves => {
                if !group_derivable(rules, g) {
                    return Err(refuse(format!(
                        "derives {} without the group after it",
                        d.key
                    )));
                }
                derived_groups.push(g);
            }
            Key::Placing(_) => {}
        }
    }
    let covered = placing.len() + derived_groups.len();
    if covered > 0 {
        let all = groups::all(rules);
        let whole = all
            .iter()
            .all(|g| placing.contains_key(g) || derived_groups.contains(g));
        if whole && covered == all.len() {
            tables.set_placing(Arc::new(Solution::from_packed_set(
                rules,
                placing,
                &derived_groups,
            )));
        } else {
            log::warn!(
                "{}: the set holds {} of the {} placing groups: its placing is not used",
                dir.display(),
                covered,
                all.len()
            );
        }
    }
    Ok(tables)
}

/// The packed table the manifest lists as `f`, opened: its size as listed, its header, index
/// and length as its key's.
fn open_listed(dir: &Path, manifest: &Manifest, f: &Listed) -> Result<PackedTable, TablesError> {
    let path = table::path(dir, f.key);
    let meta = std::fs::metadata(&path).map_err(|source| TablesError::Open {
        path: path.clone(),
        source,
    })?;
    if let Some(kind) = crate::input_file::not_regular(&meta) {
        // A named pipe or a folder is no table cut short: say what it is.
        return Err(TablesError::NotAFile { path, kind });
    }
    let len = meta.len();
    if len != f.size {
        return Err(TablesError::Packed {
            path,
            what: format!(
                "{len} bytes, the manifest says {}: the file is cut or altered",
                f.size
            ),
        });
    }
    let print = match f.key {
        Key::Moving(..) => manifest.moving_print,
        Key::Placing(_) => manifest.placing_print,
    };
    let t = PackedTable::open(&path, f.key, print)?;
    check_length(&t, f.key)?;
    Ok(t)
}

/// Whether a manifest's `key` is a table of the game of `pieces` a side.
fn key_fits(key: Key, pieces: u8) -> bool {
    let fits = |n: u8| (3..=crate::tables::MAX_PIECES).contains(&n) && n <= pieces.max(3);
    match key {
        Key::Moving(m, o) => fits(m) && fits(o),
        Key::Placing(g) => {
            (1..=2 * pieces).contains(&g.left) && g.mover <= pieces && g.other <= pieces
        }
    }
}

/// A packed table whose values are not as long as its key's table: refused, naming it.
fn check_length(t: &PackedTable, key: Key) -> Result<(), TablesError> {
    let m = t.meta();
    let want = match key {
        Key::Moving(a, b) => {
            crate::tables::index::pair_len(a as usize, b as usize) * u64::from(m.width)
        }
        Key::Placing(g) => {
            let slots = crate::tables::index::pair_len(g.mover as usize, g.other as usize);
            if m.extra != slots {
                return Err(TablesError::Packed {
                    path: t.path().to_path_buf(),
                    what: format!("says {} slots; {key} has {slots}", m.extra),
                });
            }
            crate::tables::placing::packed::bytes_for(slots) as u64
        }
    };
    if m.len == want {
        return Ok(());
    }
    Err(TablesError::Packed {
        path: t.path().to_path_buf(),
        what: format!("{} bytes of values; {key} has {want}", m.len),
    })
}

/// What `verify` found: the files and bytes checked.
#[derive(Clone, Debug, Default)]
pub struct Verified {
    /// Files checked.
    pub files: usize,
    /// Bytes of the files, and bytes of values unpacked.
    pub bytes: u64,
    /// Bytes of values unpacked and checked.
    pub values: u64,
}

/// Checks the set `dir` whole for `rules`: the manifest, every file's size and checksum, every
/// block of every table unpacked against its checksum and every table's values against the
/// checksum of the file it was made from. The first fault is the error, naming its file.
pub fn verify(dir: &Path, rules: &Rules, progress: &dyn Fn(u64)) -> Result<Verified, TablesError> {
    let manifest = Manifest::read(dir)?;
    manifest.check_rules(dir, rules)?;
    let mut out = Verified::default();
    for f in &manifest.files {
        let path = table::path(dir, f.key);
        let (size, sum) = file_checksum(&path, progress)?;
        if size != f.size || sum != f.checksum {
            return Err(TablesError::Packed {
                path,
                what: format!(
                    "{size} bytes, checksum {sum:016x}; the manifest says {} bytes, {:016x}: the file is cut or altered",
                    f.size, f.checksum
                ),
            });
        }
        let print = match f.key {
            Key::Moving(..) => manifest.moving_print,
            Key::Placing(_) => manifest.placing_print,
        };
        let t = PackedTable::open(&path, f.key, print)?;
        // A moving table's longest distance bounds what the no-capture rule decides: the
        // header's must be its values'.
        let width = t.meta().width;
        let mut longest = 0u16;
        t.check_all(
            |bytes| {
                if let Key::Moving(..) = f.key {
                    longest = longest.max(crate::tables::file::longest_distance(bytes, width));
                }
            },
            &|_| {},
        )?;
        if matches!(f.key, Key::Moving(..)) && u64::from(longest) != t.meta().extra {
            return Err(TablesError::Packed {
                path,
                what: format!(
                    "says its longest distance is {}; its values hold {longest}",
                    t.meta().extra
                ),
            });
        }
        out.files += 1;
        out.bytes += size;
        out.values += t.meta().len;
    }
    Ok(out)
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
