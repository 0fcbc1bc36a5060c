//! `moulin book bench`: loads a book and times its lookups (`book::lookup_ns`).

use crate::commands::failure::Failure;
use crate::commands::output::outln;
use moulin::book::{self, format, Book};
use moulin::shipped::Source;
use std::path::PathBuf;

/// The flags of `moulin book bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The book file (default: the book of the standard game).
    pub file: Option<PathBuf>,
}

/// `moulin book bench`: loads a book and prints its load time and the cost of a lookup.
pub fn run_bench(args: BenchArgs) -> Result<(), Failure> {
    let source = match args.file {
        Some(p) => Source::File(p),
        None => book::default_book("nine").ok_or("no book of the standard game built in")?,
    };
    // Read once: a named pipe gives its text once, and the load is timed on what was read.
    let started = std::time::Instant::now();
    let text = match &source {
        Source::File(path) => book::read_text(path)?,
        Source::BuiltIn(b) => String::from_utf8_lossy(b.bytes).into_owned(),
    };
    let origin = source.origin();
    let book = Book::parse(&text).map_err(|e| e.in_origin(&origin))?;
    let load = started.elapsed();
    let (_, lines) = format::parse(&text).map_err(|e| e.in_origin(&origin))?;
    let ns = book::lookup_ns(&book, &lines, 5);
    outln!(
        "{source}: {} positions loaded in {} ms; {ns:.0} ns per lookup",
        book.len(),
        load.as_millis()
    )
}
