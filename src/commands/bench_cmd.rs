//! `moulin bench`: search fixed positions to a fixed depth; the node count is the search's
//! signature.

use super::failure::Failure;
use super::output::{outln, Report};

/// Runs `moulin bench` (its depth and threads are within their bounds, checked by clap).
pub(super) fn run(depth: Option<u32>, threads: usize) -> Result<(), Failure> {
    use moulin::search::bench::{self, BenchTotal};
    let report = Report::default();
    let control = moulin::search::Control::new();
    let lines = bench::run(depth, threads, bench::default_network(), &control, |l| {
        report.line(format_args!("{l}"));
        report.go_on()
    });
    report.finish()?;
    outln!("{}", BenchTotal::of(&lines))
}
