//! The endgame tables as the engine plays with them, as `books` is the opening book: the
//! directory `TablesPath` names and the opening's solution `OpeningSolution` names (the placing
//! part where the directory has no whole placing solution, or alone) read on a thread of its own, each request numbered so that only
//! the last one's answer is taken; the files watched while in force, a changed one dropped at
//! once (no search probes it) and read again (and checked) on a thread of its own, to come back
//! into force if it is whole.

use super::inventory::{Absent, OpeningKnown, TablesKnown};
use super::options::Settings;
use super::report::{panic_message, Done, Listener, LoadError, Note, Part, TablesRead};
use crate::rules::Rules;
use crate::shipped::Source;
use crate::tables::placing::opening;
use crate::tables::{TableChange, Tables, Values};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;

/// The opening's solution the settings name: `OpeningSolution`, `none` for none, or when empty
/// the default of the variant in force, built in (`shipped::chosen`; custom rules have none).
pub(super) fn opening_source(settings: &Settings) -> Option<Source> {
    let default = settings.rules.preset_name().map(opening::file_name);
    crate::shipped::chosen(settings.opening_solution.as_ref(), default.as_deref())
}

/// The tables directory the settings name: `TablesPath`, `none` for none, or when empty the
/// packed set installed (`moulin tables install`: `packed` in a variant's tables directory)
/// for the first preset whose moving phase is the rules' own (the draw rules, who starts, the
/// pieces and the placing do not matter to the moving tables; the set's placing serves only
/// its own game), when there is one.
pub(super) fn tables_dir(settings: &Settings) -> Option<PathBuf> {
    use crate::tables::pack;
    match settings.tables_path.as_str() {
        installed if pack::is_installed_word(installed) => {
            let moving = crate::tables::fingerprint(&settings.rules);
            crate::rules::PRESETS
                .iter()
                .filter(|p| {
                    Rules::preset(p).is_some_and(|r| crate::tables::fingerprint(&r) == moving)
                })
                .map(|p| pack::default_dir(p))
                .find(|d| pack::is_set(d))
        }
        none if crate::shipped::is_none(none.as_ref()) => None,
        path => Some(PathBuf::from(path)),
    }
}

/// The engine's endgame tables: those in force, and the reads under way.
pub(super) struct LoadedTables {
    /// The tables in force (`TablesPath`), shared with the searcher.
    in_force: Option<Arc<Tables>>,
    /// The tables directory being read on a thread of its own.
    loading: bool,
    /// The number of the last request: a read answers only if it is the last one.
    request: u64,
    /// Changed table files being read again on threads of their own (`check`).
    rereading: usize,
    /// What the tables and the opening's solution in force are, or why none is.
    known: Known,
    /// The opening's solution the last request asked for (`OpeningSolution` and the placing's
    /// rules), and whether it was refused (missing or unusable, said once): the same setting is
    /// then not read again when only the tables change, so its error is not said again.
    opening_asked: Option<(String, u64)>,
    opening_refused: bool,
}

/// What the tables and the opening's solution in force are, or why none is.
pub(super) type Known = (TablesKnown, OpeningKnown);

impl Default for LoadedTables {
    fn default() -> LoadedTables {
        LoadedTables {
            in_force: None,
            loading: false,
            request: 0,
            rereading: 0,
            known: (
                TablesKnown::Absent(Absent::Reading),
                OpeningKnown::Absent(Absent::Reading),
            ),
            opening_asked: None,
            opening_refused: false,
        }
    }
}

impl LoadedTables {
    /// The tables in force.
    pub(super) fn in_force(&self) -> Option<&Arc<Tables>> {
        self.in_force.as_ref()
    }

    /// Forgets that the opening's solution was refused: the next request reads it again.
    pub(super) fn forget_refused_opening(&mut self) {
        self.opening_refused = false;
    }

    /// What the tables and the opening's solution in force are, or why none is.
    pub(super) fn known(&self) -> &Known {
        &self.known
    }

    /// Whether tables are being read, or changed files read again.
    pub(super) fn is_reading(&self) -> bool {
        self.loading || self.rereading > 0
    }

    /// Reads the tables `TablesPath` names and the opening's solution `OpeningSolution` names
    /// (`opening_source`) on a thread of its own (none when neither names anything), which reports
    /// with `Done::TablesLoaded`; the tables in force are dropped meanwhile. Each request has a
    /// number; only the last one's answer is taken.
    pub(super) fn request(&mut self, settings: &Settings, listener: &Arc<dyn Listener>) {
        self.in_force = None;
        self.request += 1;
        self.rereading = 0;
        // A path that is not there is said at once, before the next line is read: in GBGP
        // `readyok` does not wait for the tables, and a GUI or a match runner must see the error
        // before it.
        let asked = (
            settings.opening_solution.clone(),
            crate::tables::placing::fingerprint(&settings.rules),
        );
        let refused_before = self.opening_refused && self.opening_asked.as_ref() == Some(&asked);
        self.opening_asked = Some(asked);
        self.opening_refused = refused_before;
        let wanted = wanted(settings, &**listener, refused_before);
        if wanted.opening == Err(Absent::Unusable) {
            self.opening_refused = true;
        }
        if wanted.nothing() {
            self.loading = false;
            self.known = (
                wanted
                    .dir
                    .err()
                    .map_or(TablesKnown::Absent(Absent::Reading), TablesKnown::Absent),
                wanted
                    .opening
                    .err()
                    .map_or(OpeningKnown::Absent(Absent::Reading), OpeningKnown::Absent),
            );
            return;
        }
        self.known = (
            TablesKnown::Absent(Absent::Reading),
            OpeningKnown::Absent(Absent::Reading),
        );
        let rules = settings.rules;
        let to = Arc::clone(listener);
        let request = self.request;
        let spawned = thread::Builder::new()
            .name("moulin-tables".into())
            .spawn(move || {
                let read = read(wanted, &rules);
                to.done(Done::TablesLoaded(request, Box::new(read)));
            });
        match spawned {
            Ok(_) => self.loading = true,
            Err(error) => listener.note(Note::NoLoader {
                part: Part::Tables,
                error,
            }),
        }
    }

    /// Tables read on their thread (from `path`, for the log): in force if they answer the last
    /// request, with the opening's solution as their placing part (or alone). A part that
    /// cannot be used is noted (`Note::Unusable`), and the engine plays on without it (a read
    /// for an older request is dropped unseen).
    pub(super) fn loaded(
        &mut self,
        request: u64,
        read: Box<TablesRead>,
        settings: &Settings,
        listener: &dyn Listener,
    ) {
        if !self.loading || request != self.request {
            return;
        }
        self.loading = false;
        let (tables, known) = assemble(*read, settings, listener);
        self.in_force = tables.map(Arc::new);
        self.opening_refused = known.1 == OpeningKnown::Absent(Absent::Unusable);
        self.known = known;
    }

    /// Looks for table files changed since they were read (one `stat` a file;
    /// `Tables::changes`): each is reported, dropped at once, so that no search probes it, and
    /// read again (and checked) on a thread of its own that reports with
    /// `Done::TablesReread`.
    pub(super) fn check(&mut self, listener: &Arc<dyn Listener>) {
        let Some(tables) = &self.in_force else {
            return;
        };
        let changed = tables.changes();
        if changed.is_empty() {
            return;
        }
        let mut kept = Tables::clone(tables);
        for c in &changed {
            // A search running with these tables stops reading the file at once.
            if let Some(mapping) = tables.values(c.mover, c.other).and_then(Values::mapping) {
                mapping.withdraw();
            }
            log::warn!(
                "endgame table {} changed: {}; dropped, reading it again",
                c.path.display(),
                c.change
            );
            listener.note(Note::TableChanged {
                path: c.path.clone(),
                change: c.change.clone(),
            });
            kept.remove(c.mover, c.other);
        }
        let kept = Arc::new(kept);
        self.in_force = Some(Arc::clone(&kept));
        let to = Arc::clone(listener);
        let request = self.request;
        let spawned = thread::Builder::new()
            .name("moulin-tables".into())
            .spawn(move || {
                let read = changed
                    .into_iter()
                    .map(|c| {
                        let values = panic::catch_unwind(AssertUnwindSafe(|| {
                            kept.read_again(&c).map_err(|e| LoadError::Failed(e.into()))
                        }))
                        .unwrap_or_else(|p| Err(LoadError::Panicked(panic_message(&*p))));
                        (c, values)
                    })
                    .collect();
                to.done(Done::TablesReread(request, read));
            });
        match spawned {
            Ok(_) => self.rereading += 1,
            Err(error) => listener.note(Note::NoLoader {
                part: Part::Tables,
                error,
            }),
        }
    }

    /// Changed table files read again: each that is whole again is back in force, if the read
    /// answers the last request (an older one's is dropped unseen).
    pub(super) fn reread(
        &mut self,
        request: u64,
        read: Vec<(TableChange, Result<Values, LoadError>)>,
        listener: &dyn Listener,
    ) {
        if request != self.request {
            return;
        }
        self.rereading = self.rereading.saturating_sub(1);
        if let Some(current) = &self.in_force {
            let mut tables = Tables::clone(current);
            for (c, values) in read {
                match values {
                    Ok(values) => {
                        log::info!("endgame table {} read again and checked", c.path.display());
                        listener.note(Note::TableBack {
                            path: c.path.clone(),
                        });
                        tables.insert(c.mover, c.other, values);
                    }
                    Err(error) => {
                        log::warn!(
                            "endgame tables: {error}; playing without {}-{}",
                            c.mover,
                            c.other
                        );
                        listener.note(Note::TableLost {
                            mover: c.mover,
                            other: c.other,
                            error,
                        });
                    }
                }
            }
            self.in_force = Some(Arc::new(tables));
        }
    }
}

/// The tables directory and the opening's solution the settings name, where they are there (or
/// why none is wanted); one that is not there is noted (before anything is read: in GBGP
/// `readyok` does not wait for the tables, and a GUI or a match runner must see the error before
/// it).
fn wanted(settings: &Settings, listener: &dyn Listener, opening_refused: bool) -> Wanted {
    let there = |part: Part, path: &Path| {
        let there = path.exists();
        if !there {
            listener.note(Note::Missing {
                part,
                path: path.to_path_buf(),
            });
        }
        there
    };
    let opening = match opening_source(settings) {
        // Refused already (its error said): not read, nor said, again.
        Some(_) if opening_refused => Err(Absent::Unusable),
        Some(Source::File(path)) if !there(Part::OpeningSolution, &path) => Err(Absent::Unusable),
        Some(source) => Ok(source),
        None if crate::shipped::is_none(settings.opening_solution.as_ref()) => {
            Err(Absent::TurnedOff)
        }
        None => Err(Absent::NoneForTheseRules),
    };
    let dir = match tables_dir(settings) {
        Some(dir) if !there(Part::Tables, &dir) => Err(Absent::Unusable),
        Some(dir) => Ok(dir),
        None if crate::shipped::is_none(settings.tables_path.as_ref()) => Err(Absent::TurnedOff),
        None => Err(Absent::NoneForTheseRules),
    };
    Wanted { dir, opening }
}

/// The tables directory and the opening's solution to read, or why none.
struct Wanted {
    dir: Result<PathBuf, Absent>,
    opening: Result<Source, Absent>,
}

impl Wanted {
    /// Whether nothing is to be read.
    fn nothing(&self) -> bool {
        self.dir.is_err() && self.opening.is_err()
    }
}

/// Reads the tables directory and the opening's solution `wanted` under `rules`, each part's
/// error kept; a whole placing solution in the directory wins over the opening's (not read
/// then). A panic while reading (a bug) is an error, so that the engine still answers.
fn read(wanted: Wanted, rules: &Rules) -> TablesRead {
    let caught = |p: Box<dyn std::any::Any + Send>| LoadError::Panicked(panic_message(&*p));
    let tables = wanted.dir.map(|dir| {
        let read = panic::catch_unwind(|| {
            Tables::open(&dir, rules)
                .map(Box::new)
                .map_err(|e| LoadError::Failed(e.into()))
        })
        .unwrap_or_else(|p| Err(caught(p)));
        (dir, read)
    });
    let whole = matches!(&tables, Ok((_, Ok(t))) if t.placing_is_whole());
    let opening = match wanted.opening {
        Ok(_) if whole => Err(OpeningKnown::InTables),
        Ok(source) => {
            let read = panic::catch_unwind(|| {
                opening::load(&source, rules).map_err(|e| LoadError::Failed(e.into()))
            })
            .unwrap_or_else(|p| Err(caught(p)));
            Ok((source, read))
        }
        Err(why) => Err(OpeningKnown::Absent(why)),
    };
    TablesRead { tables, opening }
}

/// The tables that were read, with the opening's solution as their placing part (or alone), and
/// what each part is; a part that cannot be used is noted (`Note::Unusable`) and left out.
fn assemble(
    read: TablesRead,
    settings: &Settings,
    listener: &dyn Listener,
) -> (Option<Tables>, Known) {
    let (mut tables, tables_known) = match read.tables {
        Ok((dir, Ok(t))) => {
            log::info!("endgame tables {}: {t:?}", dir.display());
            let known = TablesKnown::of(dir, &t);
            (Some(*t), known)
        }
        Ok((_, Err(error))) => {
            listener.note(Note::Unusable {
                part: Part::Tables,
                error,
            });
            (None, TablesKnown::Absent(Absent::Unusable))
        }
        Err(why) => (None, TablesKnown::Absent(why)),
    };
    let opening_known = match read.opening {
        Ok((source, Ok(o))) => {
            log::info!(
                "opening solution {source}: plies 0 to {} exact, {} groups, {} bytes read and \
                 checked in {:.3} s (each group decompressed when first probed)",
                o.plies,
                o.solution.groups().count(),
                o.file_bytes,
                o.secs
            );
            let known = OpeningKnown::Loaded {
                loaded: o.loaded().clone(),
                last_ply: o.plies,
            };
            let solution = Arc::new(o.solution);
            match tables.as_mut() {
                Some(t) => t.attach_opening(solution),
                None => tables = Some(Tables::of_opening(&settings.rules, solution)),
            }
            known
        }
        Ok((_, Err(error))) => {
            listener.note(Note::Unusable {
                part: Part::OpeningSolution,
                error,
            });
            OpeningKnown::Absent(Absent::Unusable)
        }
        Err(known) => known,
    };
    // The cache of the tables' blocks is theirs: it takes the size `TablesCache` asked for.
    if let Some(t) = tables
        .as_ref()
        .filter(|_| settings.tables_cache_mb != crate::tables::block_cache::default_bytes() >> 20)
    {
        t.set_cache_bytes(settings.tables_cache_mb << 20);
    }
    (tables, (tables_known, opening_known))
}

/// The tables and the opening's solution the settings name, read at once on the caller's
/// thread (for a front end that analyses rather than converses); what cannot be used is noted
/// and left out.
pub(super) fn read_now(settings: &Settings, listener: &dyn Listener) -> (Option<Tables>, Known) {
    assemble(
        read(wanted(settings, listener, false), &settings.rules),
        settings,
        listener,
    )
}
