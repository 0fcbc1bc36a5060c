//! The schedule of a build: the groups of pairs in the order they are solved, the pairs each
//! needs first (those its removals lead to), and solving a group into the tables: in memory
//! (`solve_in_memory`), or into a tables directory (`Store`, as `moulin tables build` does,
//! resuming where a stopped build was). Also the cost estimates a cluster plan is made from.

use super::file;
use super::index::{Classes, PairIndex};
use super::resume_point::{self, ResumePoint};
use super::retrograde;
use super::scope::{fingerprint, unsupported};
use super::table_set::Tables;
use super::tables_error::TablesError;
use super::values::Values;
use crate::job_progress::Progress;
use crate::rules::Rules;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A group of pairs solved together: `(a, b)` and `(b, a)`, `a <= b`.
pub fn groups(pieces: usize) -> Vec<(usize, usize)> {
    let mut g: Vec<(usize, usize)> = (3..=pieces)
        .flat_map(|a| (a..=pieces).map(move |b| (a, b)))
        .collect();
    g.sort_by_key(|&(a, b)| (a + b, a));
    g
}

/// The groups of up to `pieces` a side by level (pieces on the board, both sides), in order:
/// the groups of a level need only those of the levels before it.
pub fn levels(pieces: usize) -> Vec<(usize, Vec<(usize, usize)>)> {
    let mut levels: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
    for (a, b) in groups(pieces) {
        match levels.last_mut() {
            Some((l, g)) if *l == a + b => g.push((a, b)),
            _ => levels.push((a + b, vec![(a, b)])),
        }
    }
    levels
}

/// The pairs a group's removals lead to (one to `most` pieces removed), as (mover, other).
fn dependencies(a: usize, b: usize, most: usize) -> Vec<(usize, usize)> {
    let mut d = Vec::new();
    for (m, o) in [(a, b), (b, a)] {
        for k in 1..=most {
            if o >= 3 + k {
                d.push((o - k, m));
            }
        }
    }
    d.sort_unstable();
    d.dedup();
    d
}

/// The positions (slots) of the tables of group `(a, b)`.
pub fn group_size(classes: &Classes, a: usize, b: usize) -> u64 {
    retrograde::group(a, b)
        .iter()
        .map(|&(m, o)| PairIndex::new(m, o, classes).len())
        .sum()
}

/// Solves the group of `(a, b)` into `tables`, which hold the pairs its removals lead to.
pub fn solve_into(
    tables: &mut Tables,
    rules: &Rules,
    a: usize,
    b: usize,
) -> Result<(), TablesError> {
    let solved = {
        let exit = |ours: u32, theirs: u32| tables.value(ours, theirs);
        retrograde::solve_group(rules, tables.classes(), a, b, &exit, &|_| {})?
    };
    for (&(m, o), codes) in retrograde::group(a, b).iter().zip(solved) {
        tables.insert(m, o, Values::from_codes(codes));
    }
    Ok(())
}

/// Solves every pair of up to `pieces` a side in memory (no files): for tests and small uses.
pub fn solve_in_memory(rules: &Rules, pieces: usize) -> Result<Tables, TablesError> {
    if let Some(why) = unsupported(rules) {
        return Err(why);
    }
    let rules = rules.without_draw_rules();
    let mut tables = Tables::empty(&rules, pieces);
    for (a, b) in groups(pieces) {
        solve_into(&mut tables, &rules, a, b)?;
    }
    Ok(tables)
}

/// The tables of a directory as a build or a check goes through them: read from their files
/// when first needed (mapped, so the build keeps no copy of its own), written there when solved.
pub struct Store {
    dir: PathBuf,
    rules: Rules,
    print: u64,
    most: usize,
    tables: Tables,
    /// Whether finished tables are kept packed (`file::compact`) instead of in their files.
    packed: bool,
}

impl Store {
    /// The tables of `dir` for `rules` (without draw rules), up to `largest` pieces a side; none
    /// loaded yet.
    pub fn new(dir: &Path, rules: &Rules, largest: usize) -> Store {
        Store {
            dir: dir.to_path_buf(),
            rules: *rules,
            print: fingerprint(rules),
            most: rules.most_removals() as usize,
            tables: Tables::empty(rules, largest),
            packed: false,
        }
    }

    /// Keeps each finished table packed in the directory's `compact` folder (`file::compact`,
    /// about a fifth of its file's bytes) instead of in its file: the disk of a build of the
    /// standard game then stays under a third of the files' 11.9 GB. The groups still to build
    /// read such tables unpacked in memory.
    pub fn keep_packed(mut self, packed: bool) -> Store {
        self.packed = packed;
        self
    }

    /// The tables loaded.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The pairs the removals of group `(a, b)` lead to.
    fn dependencies(&self, a: usize, b: usize) -> Vec<(usize, usize)> {
        dependencies(a, b, self.most)
    }

    /// Loads the table of `pair` from its file, if it is not loaded; a table not in the
    /// directory is an error that says to build it first.
    pub fn ensure(&mut self, pair: (usize, usize)) -> Result<(), TablesError> {
        if !self.tables.has(pair.0, pair.1) {
            let cache = std::sync::Arc::clone(self.tables.block_cache());
            let v = file::open(&self.dir, self.print, pair.0, pair.1, &cache)?;
            // A table kept packed is probed everywhere by the build: unpacked whole.
            self.tables.insert(pair.0, pair.1, v.resident()?);
        }
        Ok(())
    }

    /// Checks that both tables of group `(a, b)` are on disk, whole and for these rules: the
    /// header, the size and the checksum of every byte (`file::read`). `NotBuilt` when a file is
    /// missing; any other error names what is wrong with the file (damaged, cut short, made for
    /// other rules), which a build then makes again.
    fn check_built(&self, a: usize, b: usize) -> Result<(), TablesError> {
        for (mover, other) in retrograde::group(a, b) {
            let cache = self.tables.block_cache();
            if let Values::Packed(p) = file::open(&self.dir, self.print, mover, other, cache)? {
                p.check_all(|_| ())?;
            }
        }
        Ok(())
    }

    /// Loads the tables group `(a, b)`'s removals lead to (all must be built).
    pub fn load_dependencies(&mut self, a: usize, b: usize) -> Result<(), TablesError> {
        for dep in self.dependencies(a, b) {
            self.ensure(dep)?;
        }
        Ok(())
    }

    /// The bytes of disk the groups of `todo` not on disk yet will take (`MOVING_BYTES`).
    pub fn disk_needed(&self, todo: &[(usize, usize)]) -> u64 {
        let missing = |&&(a, b): &&(usize, usize)| {
            retrograde::group(a, b)
                .iter()
                .any(|&(m, o)| !file::exists(&self.dir, m, o))
        };
        todo.iter()
            .filter(missing)
            .map(|&(a, b)| {
                let per = if self.packed {
                    PACKED_BYTES
                } else {
                    MOVING_BYTES
                };
                group_size(self.tables.classes(), a, b) * per / 100
            })
            .sum()
    }

    /// Where group `(a, b)`'s build keeps its state between levels (`resume_point`).
    fn resume_point(&self, a: usize, b: usize) -> ResumePoint {
        ResumePoint::new(&self.dir, self.print, (a, b), resume_point::EVERY)
    }

    /// Writes the solved codes of group `(a, b)`, one table at a time: to their files, read
    /// back mapped (the groups still to build read them through the file cache, as the engine
    /// does); or, when the store keeps its tables packed (`keep_packed`), packed into the
    /// `compact` folder and kept in memory for the groups still to build.
    fn write(&mut self, a: usize, b: usize, solved: Vec<Vec<u16>>) -> Result<(), TablesError> {
        for (&(m, o), codes) in retrograde::group(a, b).iter().zip(solved) {
            let values = Values::from_codes(codes);
            if self.packed {
                file::compact(&self.dir, self.print, m, o, &values)?;
                // A file left by an earlier build (one found damaged) would be read first.
                let raw = file::path(&self.dir, m, o);
                if raw.exists() {
                    std::fs::remove_file(&raw)
                        .map_err(|source| TablesError::Open { path: raw, source })?;
                }
                self.tables.insert(m, o, values);
            } else {
                file::write(&self.dir, self.print, m, o, &values)?;
                drop(values);
                let mapped = file::read(&file::path(&self.dir, m, o), self.print, m, o)?;
                self.tables.insert(m, o, mapped);
            }
        }
        Ok(())
    }

    /// Keeps loaded only what the groups still to build (`rest`) need.
    fn keep_for(&mut self, rest: &[(usize, usize)]) {
        let keep: Vec<(usize, usize)> = rest
            .iter()
            .flat_map(|&(x, y)| self.dependencies(x, y))
            .collect();
        self.tables.retain(&keep);
    }

    /// Builds the groups `todo` in order into the directory, each group found built and sound
    /// left as it is (a resumed build). Each group is a stage of `progress` (`"a-b "`, counted
    /// in positions; one found built begins done); a line a group says what became of it.
    /// Between groups only what the groups still to build need stays loaded. Run it in the
    /// thread pool the solving should use.
    pub fn build(
        &mut self,
        todo: &[(usize, usize)],
        progress: &dyn Progress,
    ) -> Result<(), TablesError> {
        for (i, &(a, b)) in todo.iter().enumerate() {
            let size = group_size(self.tables.classes(), a, b);
            let prefix = format!("{a}-{b} ");
            match self.check_built(a, b) {
                Ok(()) => {
                    // Built already: a resume point left by a stop after the write goes.
                    self.resume_point(a, b).remove();
                    progress.stage(size, size, &prefix, "positions");
                    progress.finish();
                    progress.note(&format!("{a}-{b}: already built (checked)"));
                    continue;
                }
                Err(TablesError::NotBuilt { .. }) => {}
                Err(e) => progress.note(&format!("{a}-{b}: {e} (building it again now)")),
            }
            progress.stage(size, 0, &prefix, "positions");
            if let Some(level) = self.resume_point(a, b).level_there() {
                progress.note(&format!(
                    "{a}-{b}: resuming where it was kept, at level {level}"
                ));
            }
            let secs = self.build_group(a, b, progress)?;
            progress.finish();
            progress.note(&format!("{a}-{b}: {size} positions in {secs:.1} s"));
            self.keep_for(&todo[i + 1..]);
        }
        Ok(())
    }

    /// Solves group `(a, b)` (loading what it needs), writes it, logs its cost and loads it
    /// back, mapped: the build keeps no copy of its own (the groups still to build read it
    /// through the file cache, as the engine does). Its seconds.
    fn build_group(
        &mut self,
        a: usize,
        b: usize,
        progress: &dyn Progress,
    ) -> Result<f64, TablesError> {
        self.load_dependencies(a, b)?;
        let t = Instant::now();
        let levels = AtomicU64::new(0);
        let count = |n: u64| {
            if n > 0 {
                progress.advance(n);
            } else if levels.fetch_add(1, Ordering::Relaxed).is_multiple_of(64) {
                progress.message("(proving)");
            }
        };
        let kept = self.resume_point(a, b);
        let solved = {
            let exit = |ours: u32, theirs: u32| self.tables.value(ours, theirs);
            let classes = self.tables.classes();
            retrograde::solve_group_kept(&self.rules, classes, (a, b), &exit, &count, &kept)?
        };
        self.write(a, b, solved)?;
        kept.remove();
        let secs = t.elapsed().as_secs_f64();
        self.log_cost(a, b, group_size(self.tables.classes(), a, b), secs);
        Ok(secs)
    }

    /// Appends a group's cost to `costs.txt` in the tables directory (for planning); a failure
    /// to write it is ignored, and so is a symbolic link there (never written through). Never
    /// waits: a named pipe there without a reader is not opened.
    fn log_cost(&self, a: usize, b: usize, slots: u64, secs: f64) {
        log_cost(
            &self.dir,
            &format!("{a}-{b} positions {slots} seconds {secs:.1}"),
        );
    }
}

/// Appends `line` to `costs.txt` in `dir` (for planning); a failure to write it is ignored, and
/// so is a symbolic link there (never written through). Never waits: a named pipe there without a
/// reader is not opened.
pub fn log_cost(dir: &Path, line: &str) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(dir.join("costs.txt"))
        .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
}

/// Whether `free` bytes in `dir` hold the `needed` bytes of a build (`Store::disk_needed`,
/// `placing_build::Build::disk_needed`); `DiskShort` when they do not.
pub fn enough_disk(dir: &Path, needed: u64, free: u64) -> Result<(), TablesError> {
    if free < needed {
        return Err(TablesError::DiskShort {
            dir: dir.to_path_buf(),
            needed,
            free,
        });
    }
    Ok(())
}

/// Hundredths of a byte a position of a moving table takes on disk, about: a byte, two in a
/// table whose distances do not fit in one (measured on the standard game's tables of 3 to 9
/// a side: 11.9 GB for 9.19 billion positions; 130 leaves some room).
pub const MOVING_BYTES: u64 = 130;

/// Hundredths of a byte a position of a moving table takes kept packed (`file::compact`), about:
/// the tables up to 6 a side took 55 MB for 454 million positions (0.12 byte); the larger
/// tables' values, with more distances, pack less; 40 leaves room.
pub const PACKED_BYTES: u64 = 40;

/// Seconds per position and thread when the directory has no measured costs (measured here:
/// 5-5, 32.9 million positions, 16.4 s on 2 threads).
pub const DEFAULT_SECONDS_PER_POSITION: f64 = 1.0e-6;

/// The seconds per position of the slowest group measured in `costs.txt` (times its threads,
/// taken as 2), if any. Never waits: a named pipe there is not read; read a line at a time, up
/// to the first line that cannot be read (longer than `input_file::MAX_LINE`, not text).
pub fn measured_rate(dir: &Path) -> Option<f64> {
    let file = super::mapped::open_regular(&dir.join("costs.txt")).ok()?;
    let lines =
        crate::input_file::lines(std::io::BufReader::new(file), crate::input_file::MAX_LINE);
    lines
        .map_while(Result::ok)
        .filter_map(|(_, l)| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let positions: f64 = w.get(2)?.parse().ok()?;
            let secs: f64 = w.get(4)?.parse().ok()?;
            (positions >= 1e6).then_some(secs * 2.0 / positions)
        })
        .reduce(f64::max)
}

/// The memory in MB a node needs to build group `(a, b)`: per position of the group, the value
/// and count being solved (3 bytes), the positions of a level (at most half a byte,
/// `retrograde`), slack; the tables its removals reach, mapped (a byte a position, two for a
/// wide table). Measured: the 6-6 group (163 million positions) peaked at 625 MB with its 5-6
/// tables.
pub fn memory_mb(classes: &Classes, a: usize, b: usize, most: usize) -> u64 {
    let own = group_size(classes, a, b);
    let deps: u64 = dependencies(a, b, most)
        .iter()
        .map(|&(m, o)| PairIndex::new(m, o, classes).len())
        .sum();
    (4 * own + 2 * deps) / (1 << 20) + 512
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_the_disk_cannot_hold_is_refused_with_both_figures() {
        let dir = Path::new("/t");
        assert!(enough_disk(dir, 5_000_000_000, 5_000_000_000).is_ok());
        let short = enough_disk(dir, 16_600_000_000, 9_000_000_000).unwrap_err();
        assert_eq!(
            short.to_string(),
            "/t: about 16.6 GB are needed for what is left to build and 9.0 GB are free: free \
             some space, give --dir on a larger disk, or --skip-disk-check to start anyway"
        );
    }

    #[test]
    fn the_disk_a_build_needs_counts_only_the_groups_not_on_disk() {
        let dir = std::env::temp_dir().join(format!("moulin-disk-needed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::nine().without_draw_rules();
        let store = Store::new(&dir, &rules, 4);
        let todo = groups(4);
        let all = store.disk_needed(&todo);
        let sizes: u64 = todo
            .iter()
            .map(|&(a, b)| group_size(store.tables().classes(), a, b))
            .sum();
        assert_eq!(
            all,
            todo.iter()
                .map(|&(a, b)| group_size(store.tables().classes(), a, b) * MOVING_BYTES / 100)
                .sum::<u64>()
        );
        assert!(all >= sizes);
        // 3-3 on disk: not counted.
        std::fs::write(file::path(&dir, 3, 3), b"x").unwrap();
        let three = group_size(store.tables().classes(), 3, 3) * MOVING_BYTES / 100;
        assert_eq!(store.disk_needed(&todo), all - three);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Notes a progress's lines.
    #[derive(Default)]
    struct Lines(std::sync::Mutex<Vec<String>>);

    impl Progress for Lines {
        fn stage(&self, _: u64, _: u64, _: &str, _: &str) {}
        fn advance(&self, _: u64) {}
        fn message(&self, _: &str) {}
        fn finish(&self) {}
        fn note(&self, line: &str) {
            self.0.lock().unwrap().push(line.to_string());
        }
    }

    /// A build stopped inside a group resumes from the state it kept there, and builds the
    /// same tables as one that was never stopped; the kept state goes once they are written.
    #[test]
    fn a_build_stopped_inside_a_group_resumes_where_it_was_kept() {
        let dir = std::env::temp_dir().join(format!("moulin-resumed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::nine().without_draw_rules();
        let todo = [(3, 3), (3, 4)];
        let mut whole = Store::new(&dir, &rules, 4);
        whole.build(&todo, &Lines::default()).unwrap();
        let read = |m, o| std::fs::read(file::path(&dir, m, o)).unwrap();
        let built = [read(3, 4), read(4, 3)];
        // The state of 3-4 kept at its last level, as a stop just before its write leaves it.
        std::fs::remove_file(file::path(&dir, 3, 4)).unwrap();
        std::fs::remove_file(file::path(&dir, 4, 3)).unwrap();
        let print = fingerprint(&rules);
        let point = ResumePoint::new(&dir, print, (3, 4), std::time::Duration::ZERO);
        whole.load_dependencies(3, 4).unwrap();
        {
            let exit = |ours: u32, theirs: u32| whole.tables.value(ours, theirs);
            let classes = whole.tables.classes();
            retrograde::solve_group_kept(&rules, classes, (3, 4), &exit, &|_| {}, &point).unwrap();
        }
        let level = point.level_there().unwrap();
        assert!(level > 5, "{level}");
        let lines = Lines::default();
        Store::new(&dir, &rules, 4).build(&todo, &lines).unwrap();
        let said = lines.0.into_inner().unwrap();
        assert!(
            said.contains(&format!(
                "3-4: resuming where it was kept, at level {level}"
            )),
            "{said:?}"
        );
        assert_eq!([read(3, 4), read(4, 3)], built);
        assert!(!point.path().exists(), "the kept state is gone");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
