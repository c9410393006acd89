//! What a baseline says about one finished case: known, or stale.

/// What a baseline says about one finished case.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mark {
    /// A listed case that fails: known, and it does not fail the run.
    Known {
        /// The entry's reason, when it gives one.
        reason: Option<String>,
        /// The entry's link.
        link: Option<String>,
    },
    /// A listed case that passes: the entry is stale, and fails the run.
    Stale {
        /// The entry's reason, when it gives one.
        reason: Option<String>,
    },
}
