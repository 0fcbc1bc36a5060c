//! The dialect a session speaks.

/// The dialect a session speaks: UCI, or GBGP when its first line is `gbgp`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Dialect {
    /// The UCI dialect of protocol.md (the default).
    Uci,
    /// The GBGP dialect of the Nine Morris 3D GUI.
    Gbgp,
}
