//! `moulin bench`: search fixed positions to a fixed depth; the node count is the search's
//! signature.

use super::output::{outln, Failure, Report};

/// Runs `moulin bench`.
pub(super) fn run(depth: Option<u32>, threads: usize) -> Result<(), Failure> {
    let mut index = 0;
    let report = Report::default();
    let lines = crate::search::bench::run(depth, threads.clamp(1, 256), |l| {
        index += 1;
        report.line(format_args!(
            "{index:>2} depth {:>2} nodes {:>10} time {:>6} ms best {:<10} {}",
            l.depth,
            l.nodes,
            l.time.as_millis(),
            l.best,
            l.fen
        ));
        report.go_on()
    });
    report.finish()?;
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.time.as_secs_f64()).sum();
    outln!("{nodes} nodes {:.0} nps", nodes as f64 / secs.max(1e-9))
}
