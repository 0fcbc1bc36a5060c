//! `BoxError`: an error of any type, boxed, that can cross threads: the one name of the source
//! an error keeps when that source can be of several types (a lower room's error, an I/O error,
//! a parser's), and of the cause the command line's edge holds. A ground-floor file: it imports
//! nothing of the project.

/// An error of any type that can cross threads, kept whole with its `source()` chain.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
