//! The progress bar of every long command (table builds, book builds, matches, training): one
//! look on stderr, `<what> [bar] done/total <unit>  <message>  [elapsed < eta]`. indicatif hides
//! it when stderr is not a terminal, so logs and pipes get no bar lines.

use indicatif::{ProgressBar, ProgressStyle};

/// The one template: a prefix naming the part of the job, the bar, the count, the unit and a
/// message the job updates.
const TEMPLATE: &str = "{prefix}{bar:30} {pos}/{len} {msg} [{elapsed} < {eta}]";

/// A bar over `len` items counted in `unit` (`"positions"`, `"games"`...), with `prefix` before
/// it (empty, or such as `"ply 3/8 "`, ending with a space) and `done` items already counted (a
/// resumed job). The job's own words go in `set_message`, after the unit.
pub fn bar(len: u64, done: u64, prefix: &str, unit: &str) -> ProgressBar {
    let style =
        ProgressStyle::with_template(&TEMPLATE.replace("{msg}", &format!("{unit} {{msg}}")))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    let bar = ProgressBar::new(len)
        .with_style(style)
        .with_prefix(prefix.to_string());
    bar.set_position(done.min(len));
    bar
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bar_counts_from_what_is_done() {
        let bar = super::bar(10, 4, "ply 1 ", "positions");
        assert_eq!(bar.position(), 4);
        assert_eq!(bar.length(), Some(10));
        bar.inc(2);
        assert_eq!(bar.position(), 6);
        assert_eq!(super::bar(3, 9, "", "games").position(), 3);
    }
}
