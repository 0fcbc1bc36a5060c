//! moulin's side of `moulin play`: the engine thinks on a thread of its own, the prompt staying
//! open meanwhile, and plays its move (or gives the person a hint) when done, unless the game
//! changed meanwhile.

use super::board_paint::picture;
use super::play_table::{lock, Table};
use crate::book::{Book, BookMove, Variety};
use crate::rng::Rng;
use crate::rules::board::ByColor;
use crate::rules::movegen;
use crate::rules::notation::Convention;
use crate::search::exact::{self, solved};
use crate::search::{Control, Limits, Score, SearchResult, Searcher, Strength, TABLE_BOUND};
use crate::tables::Value as TableValue;
use rustyline::ExternalPrinter;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The searcher and what it plays from, passed to the thinking thread and back.
pub(super) struct Engine {
    pub(super) searcher: Searcher,
    pub(super) book: Option<Arc<Book>>,
    pub(super) movetime: u64,
    pub(super) rng: Rng,
}

/// The printer that writes above the prompt, shared with the thinking thread.
pub(super) type Printer = Arc<Mutex<Box<dyn ExternalPrinter + Send>>>;

/// Asks a thinking engine to stop and waits for its thread to give the searcher back.
pub(super) fn stop_and_wait(table: &Mutex<Table>, engine: &Mutex<Option<Engine>>) {
    if let Some(c) = lock(table).thinking.clone() {
        c.stop();
    }
    let until = Instant::now() + Duration::from_secs(10);
    while lock(engine).is_none() && Instant::now() < until {
        thread::sleep(Duration::from_millis(5));
    }
    lock(table).generation += 1;
}

/// Starts the engine on its thread when it is moulin's turn (or for a hint): it plays its move
/// (or gives the hint) when done, unless the game changed meanwhile.
pub(super) fn start_thinking(
    table: &Arc<Mutex<Table>>,
    engine: &Arc<Mutex<Option<Engine>>>,
    printer: &Printer,
    hint: bool,
) {
    let mut t = lock(table);
    if !t.engine_starts(hint) {
        return;
    }
    let Some(mut e) = lock(engine).take() else {
        return;
    };
    let control = Arc::new(Control::new());
    t.thinking = Some(Arc::clone(&control));
    let game = t.game.clone();
    let generation = t.generation;
    let level = if hint { 20 } else { t.level };
    let limits = match (t.clocks, hint) {
        (Some(c), false) => Limits {
            time: ByColor::new(Some(c.left.white), Some(c.left.black)),
            inc: ByColor::new(c.inc, c.inc),
            ..Limits::default()
        },
        _ => Limits {
            movetime: Some(e.movetime),
            ..Limits::default()
        },
    };
    drop(t);
    let (table, engine, printer) = (Arc::clone(table), Arc::clone(engine), Arc::clone(printer));
    thread::spawn(move || {
        e.searcher.options.strength = Strength::level(f64::from(level));
        // A hint takes the book's best move; moulin's own moves vary by the weights.
        let variety = if hint {
            Variety::Best
        } else {
            Variety::Weighted
        };
        // Where the placing solution (a whole one, or the opening's) values every move, it
        // decides, as in the engine's protocol: a book move may miss a win.
        let solved = e.searcher.options.tables.as_ref().is_some_and(|t| {
            let moves = movegen::legal_moves(game.position(), Convention::Turn);
            solved::move_values(t, game.position(), &moves).is_some()
        });
        let from_book = if level == 20 && !solved {
            e.book
                .as_ref()
                .and_then(|b| b.choose(game.position(), variety, e.rng.unit()))
        } else {
            None
        };
        let (best, said) = if let Some(bm) = from_book {
            (Some(bm.mv), book_value(&bm))
        } else {
            let result = e.searcher.search(&game, &limits, &control, &mut |_| {});
            (result.best, hint_value(&result))
        };
        // `thinking` is cleared before the engine is given back, so that whoever waits for the
        // engine (`stop_and_wait`) finds the table ready for the next search.
        let message = {
            let mut t = lock(&table);
            t.thinking = None;
            match best {
                Some(mv) if t.generation == generation => {
                    let text = mv.written_at(game.position(), Convention::Turn);
                    if hint {
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
        *lock(&engine) = Some(e);
        if let Some(m) = message {
            let _ = lock(&printer).print(m);
        }
    });
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
                crate::text::count(v.distance(), "ply", "plies")
            ),
        };
    }
    score_words(result.score, "by search")
}

/// What the opening book knows of its move's value for the side to move.
fn book_value(bm: &BookMove) -> String {
    match bm.exact {
        Some(v) => format!(
            "at least a {}, proved by the exact solver, from the opening book",
            exact::name(v)
        ),
        None => score_words(bm.score, "by the opening book's search"),
    }
}

/// A search's score for the side to move, in words; a score in pieces says `by` whom.
fn score_words(score: Score, by: &str) -> String {
    match score {
        Score::Mate(n) if n > 0 => format!("a win in {}", crate::text::count(n, "turn", "turns")),
        Score::Mate(n) => format!("a loss in {}", crate::text::count(-n, "turn", "turns")),
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
