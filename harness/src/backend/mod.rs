//! Run: reaching a validator and asking it about cases. A [`schedule`]
//! runs cases on worker threads against any [`schedule::Backend`]: the
//! in-process one, or an [`external`] validator's processes (session or
//! one-shot), which speak the stdio contract through a process module of
//! the crate's own and [`wire`]. How a validator fails is [`crate::outcome::failure`] data; [`interrupt`] stops
//! a run on a signal and kills every validator it started.
//!
//! Starting, signalling and killing processes needs the `external` feature
//! (on by default); without it only the in-process backend runs, and the
//! data that reports carry about external validators (failures, the wire
//! format's errors, interruptions) stays.

pub mod external;
pub mod interrupt;
#[cfg(feature = "external")]
pub(crate) mod process;
pub mod schedule;
pub mod wire;

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, whatever a panicking holder left: every value the
/// backends keep behind a lock (a channel end, a child process, a
/// session's state changed whole under its lock) stays usable.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
