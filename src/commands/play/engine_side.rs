//! moulin's side of `moulin play`: the engine every front end drives (`moulin::engine::Engine`,
//! with its move policy: the book at full strength, the placing solution, the tables, the
//! search) thinks on its own threads, the prompt staying open meanwhile; its answer plays its
//! move (or gives the person a hint) unless the game changed meanwhile. The engine's reports
//! come through `Ears`: the ends of its threads are handed back to it on a thread of their own,
//! a file it cannot use is said above the prompt.

use super::board_paint::picture;
use super::play_table::{lock, Table};
use moulin::engine::{BookAnswer, Done, Engine, Go, Listener, Note, SearchAnswer, Settings};
use moulin::rules::notation::Convention;
use moulin::rules::position::Position;
use moulin::search::exact;
use moulin::search::{Score, SearchResult, TABLE_BOUND};
use moulin::tables::Value as TableValue;
use rustyline::ExternalPrinter;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The printer that writes above the prompt, shared with the engine's threads.
pub(super) type Printer = Arc<Mutex<Box<dyn ExternalPrinter + Send>>>;

/// moulin at the table: the engine and what it was asked.
pub(super) struct Moulin {
    engine: Mutex<Engine>,
    ears: Arc<Ears>,
    /// moulin's time a move without a clock, in milliseconds.
    movetime: u64,
}

/// What the engine was asked: for which game (its generation) and whether for a hint.
struct Asked {
    generation: u64,
    hint: bool,
    root: Position,
}

/// The engine's listener at the table.
struct Ears {
    /// The engine's threads' ends, for the thread that hands them back.
    done: Mutex<Sender<Done>>,
    /// What the engine was asked last, until it answers.
    asked: Mutex<Option<Asked>>,
    /// The book's answer to it, when the book answered.
    book: Mutex<Option<Box<BookAnswer>>>,
    /// Where a file the engine cannot use is said (none before the prompt is open: stderr).
    printer: Mutex<Option<Printer>>,
}

impl Listener for Ears {
    fn note(&self, note: Note) {
        match note {
            Note::BookMove { answer, .. } => *lock(&self.book) = Some(answer),
            _ if note.is_error() => self.note_text(&format!("moulin: {note}")),
            _ => log::info!("{note}"),
        }
    }

    fn done(&self, done: Done) {
        let _ = lock(&self.done).send(done);
    }
}

impl Moulin {
    /// moulin with `settings`, the files they name read before it returns (a few seconds at
    /// most: the book, the opening's solution, the network; a packed set's manifest), its
    /// answers played on `table`.
    pub(super) fn new(settings: Settings, movetime: u64, table: &Arc<Mutex<Table>>) -> Arc<Moulin> {
        let (tx, rx) = mpsc::channel();
        let ears = Arc::new(Ears {
            done: Mutex::new(tx),
            asked: Mutex::new(None),
            book: Mutex::new(None),
            printer: Mutex::new(None),
        });
        let mut engine = Engine::with_settings(settings, ears.clone());
        engine.load();
        let moulin = Arc::new(Moulin {
            engine: Mutex::new(engine),
            ears,
            movetime,
        });
        let (me, table) = (Arc::clone(&moulin), Arc::clone(table));
        thread::spawn(move || {
            for done in rx {
                let answer = lock(&me.engine).done(done);
                if let Some(answer) = answer {
                    me.answered(&table, answer);
                }
            }
        });
        let until = Instant::now() + Duration::from_secs(30);
        while Instant::now() < until && moulin.is_reading() {
            thread::sleep(Duration::from_millis(5));
        }
        moulin
    }

    /// Whether the book or tables are still being read.
    fn is_reading(&self) -> bool {
        let engine = lock(&self.engine);
        engine.book_is_loading() || engine.tables_are_reading()
    }

    /// Says what the engine cannot use above the prompt from now on.
    pub(super) fn print_to(&self, printer: &Printer) {
        *lock(&self.ears.printer) = Some(Arc::clone(printer));
    }

    /// What the engine knows besides its search, a line a part (for the banner).
    pub(super) fn inventory(&self) -> [String; 4] {
        let flags = moulin::engine::inventory::Settings::FLAGS;
        lock(&self.engine).inventory().lines_naming(flags)
    }

    /// Whether the engine has endgame tables for its moving phase.
    pub(super) fn has_tables(&self) -> bool {
        lock(&self.engine).tables().is_some_and(|t| t.has_moving())
    }

    /// Asks a thinking engine to move now; its move is played if the game is still the one
    /// it thinks about.
    pub(super) fn stop(&self) {
        let _ = lock(&self.engine).stop();
    }

    /// Asks a thinking engine to stop and waits for its answer (played, if it still fits the
    /// game), then makes any later answer stale.
    pub(super) fn stop_and_wait(&self, table: &Mutex<Table>) {
        self.stop();
        let until = Instant::now() + Duration::from_secs(10);
        while lock(table).thinking.is_some() && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        let mut t = lock(table);
        t.thinking = None;
        t.generation += 1;
    }

    /// Starts the engine when it is moulin's turn (or for a hint): it plays its move (or gives
    /// the hint) when done, unless the game changed meanwhile. A hint is the full engine's.
    pub(super) fn start_thinking(&self, table: &Arc<Mutex<Table>>, hint: bool) {
        let mut t = lock(table);
        if !t.engine_starts(hint) {
            return;
        }
        let mut engine = lock(&self.engine);
        if !engine.is_idle() {
            return;
        }
        let level = if hint { 20 } else { t.level };
        // A hint takes the book's best move; moulin's own moves vary by the weights.
        let variety = if hint { "best" } else { "weighted" };
        for (name, value) in [
            ("Level", level.to_string()),
            ("BookVariety", variety.into()),
        ] {
            if let Err(e) = engine.set_option(name, Some(&value)) {
                log::warn!("play: {name}={value}: {e}");
            }
        }
        // A game loaded under other rules: the engine follows (its book, tables and network
        // too).
        engine.set_rules(t.rules);
        engine.set_game(t.game.clone());
        let go = match (t.clocks, hint) {
            (Some(c), false) => Go {
                wtime: Some(c.left.white),
                btime: Some(c.left.black),
                winc: Some(c.inc),
                binc: Some(c.inc),
                ..Go::default()
            },
            _ => Go {
                movetime: Some(self.movetime),
                ..Go::default()
            },
        };
        *lock(&self.ears.book) = None;
        *lock(&self.ears.asked) = Some(Asked {
            generation: t.generation,
            hint,
            root: *t.game.position(),
        });
        t.thinking = Some(Instant::now());
        let started = engine
            .plan_search(&go, 0)
            .and_then(|plan| engine.start_search(plan));
        drop(engine);
        match started {
            Ok(None) => {}
            Ok(Some(answer)) => {
                drop(t);
                self.answered(table, answer);
            }
            Err(e) => {
                t.thinking = None;
                *lock(&self.ears.asked) = None;
                self.ears.note_text(&format!("cannot think: {e}"));
            }
        }
    }

    /// The engine's answer: played (or given as a hint) if it answers the game on the table.
    fn answered(&self, table: &Mutex<Table>, answer: SearchAnswer) {
        let Some(asked) = lock(&self.ears.asked).take() else {
            return;
        };
        let book = lock(&self.ears.book).take();
        let result = answer.result;
        let said = match &book {
            Some(b) if b.result.best == result.best => book_value(b),
            _ => hint_value(&result),
        };
        // `thinking` is cleared under the table's lock, with the move played: whoever waits
        // for the engine (`stop_and_wait`) finds the table ready for what comes next.
        let message = {
            let mut t = lock(table);
            t.thinking = None;
            match result.best {
                Some(mv) if t.generation == asked.generation => {
                    let text = mv.written_at(&asked.root, Convention::Turn);
                    if asked.hint {
                        Some(format!("hint: {text} ({said})"))
                    } else if t.play(mv) {
                        Some(format!("moulin plays {text}\n{}", picture(&t)))
                    } else {
                        Some(format!("moulin ran out of time.\n{}", picture(&t)))
                    }
                }
                _ => None,
            }
        };
        if let Some(m) = message {
            self.ears.note_text(&m);
        }
    }
}

impl Ears {
    /// Writes `text` above the prompt (or on stderr before it is open).
    fn note_text(&self, text: &str) {
        match lock(&self.printer).as_ref() {
            Some(p) => {
                let _ = lock(p).print(text.to_string());
            }
            None => eprintln!("{text}"),
        }
    }
}

/// What a hint says of its move's value for the side to move: exact where the placing solution
/// or the endgame tables decide it, else the search's score in pieces.
fn hint_value(result: &SearchResult) -> String {
    if let Some(v) = result.solved {
        return format!("{}, exact by the placing solution", exact::name(v));
    }
    if let Some(v) = result.table {
        return match v {
            TableValue::Draw => "draw, exact by the endgame tables".into(),
            _ => format!(
                "{v} in {} to the next removal, exact by the endgame tables",
                moulin::text::count(v.distance(), "ply", "plies")
            ),
        };
    }
    score_words(result.score, "by search")
}

/// What the opening book knows of its move's value for the side to move.
fn book_value(answer: &BookAnswer) -> String {
    match answer.proven {
        Some(v) => format!(
            "at least a {}, proved by the exact solver, from the opening book",
            exact::name(v)
        ),
        None => score_words(answer.result.score, "by the opening book's search"),
    }
}

/// A search's score for the side to move, in words; a score in pieces says `by` whom.
fn score_words(score: Score, by: &str) -> String {
    match score {
        Score::Mate(n) if n > 0 => format!("a win in {}", moulin::text::count(n, "turn", "turns")),
        Score::Mate(n) => format!("a loss in {}", moulin::text::count(-n, "turn", "turns")),
        Score::Cp(x) if x >= TABLE_BOUND => "a win, by the endgame tables".into(),
        Score::Cp(x) if x <= -TABLE_BOUND => "a loss, by the endgame tables".into(),
        Score::Cp(x) => format!("{:+.2} pieces {by}", f64::from(x) / 100.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_says_its_value_exactly_where_it_is_known() {
        let result = |score, table, solved| SearchResult {
            score,
            table,
            solved,
            ..SearchResult::nothing(None)
        };
        let said = |r: SearchResult| hint_value(&r);
        assert_eq!(
            said(result(Score::solved(0), None, Some(0))),
            "draw, exact by the placing solution"
        );
        assert_eq!(
            said(result(Score::Cp(28_990), Some(TableValue::Win(9)), None)),
            "win in 9 plies to the next removal, exact by the endgame tables"
        );
        assert_eq!(
            said(result(Score::Cp(0), Some(TableValue::Draw), None)),
            "draw, exact by the endgame tables"
        );
        assert_eq!(
            said(result(Score::Cp(-28_500), None, None)),
            "a loss, by the endgame tables"
        );
        assert_eq!(said(result(Score::Mate(3), None, None)), "a win in 3 turns");
        assert_eq!(
            said(result(Score::Cp(-45), None, None)),
            "-0.45 pieces by search"
        );
    }
}
