//! Judge: each reply [`compare`]d with its expectation into a case's
//! [`crate::outcome::Outcome`], and the outcomes tallied into a [`summary`] per
//! level, revision and rule.

pub mod compare;
pub mod runner;
pub mod summary;
