//! What a long job tells whoever shows its progress. The library's jobs (book builds and checks,
//! training, analysis) report through a `Progress`, and the command line turns it into its bars
//! and lines (`commands::progress::Bars`); a test or another front end passes `Silent`, or its
//! own. So the library never draws nor prints.

/// The progress of a long job, told as it goes: stages of counted items, and notes. The job's
/// threads share it, hence `Sync`.
pub trait Progress: Sync {
    /// A stage of `len` items counted in `unit` (`"positions"`) begins, `done` of them already
    /// done (a resumed job), named by `prefix` (empty, or such as `"ply 3/8 "`, ending with a
    /// space).
    fn stage(&self, len: u64, done: u64, prefix: &str, unit: &str);
    /// `n` more items of the stage are done.
    fn advance(&self, n: u64);
    /// The job's own words on the stage, shown after its count.
    fn message(&self, text: &str);
    /// The stage is over.
    fn finish(&self);
    /// A line for the person running the job (a resumed journal, a replaced file).
    fn note(&self, line: &str);
}

/// Progress told to no one.
pub struct Silent;

impl Progress for Silent {
    fn stage(&self, _: u64, _: u64, _: &str, _: &str) {}
    fn advance(&self, _: u64) {}
    fn message(&self, _: &str) {}
    fn finish(&self) {}
    fn note(&self, _: &str) {}
}
