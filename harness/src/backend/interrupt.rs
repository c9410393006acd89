//! Interruption: what SIGINT, SIGTERM and SIGHUP do to a run.
//!
//! Every validator runs in a process group of its own, so a signal sent to
//! the harness (Ctrl-C reaches only the terminal's foreground group) would
//! otherwise leave every validator and its children running. Once
//! [`install`] has been called, the first of these signals marks the run as
//! interrupted and kills every live validator group at once; the runner
//! stops scheduling, and the harness reports what finished and exits with
//! 128 + the signal's number, as cargo-nextest does. A second signal ends
//! the harness at once (after killing the groups again).
//!
//! Every validator process the harness starts registers its group here while it
//! lives, whether or not a handler is installed.
//!
//! Handling signals ([`install`], [`SIGNALS`]) needs the `external` feature
//! (on by default). Without it no handler can be installed, so
//! [`received`] stays `None`; [`Interruption`] is there all the same, since
//! reports written by a harness that had it carry one.

use std::sync::atomic::{AtomicI32, Ordering};

#[cfg(feature = "external")]
pub use signals::{SIGNALS, install};
#[cfg(feature = "external")]
pub(crate) use signals::{register, unregister};

/// The first interrupting signal received, or 0.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The names of the signals that interrupt a run, by number. POSIX gives
/// these three the same numbers everywhere, so they are named here without
/// asking the platform through `nix`, which only running external
/// validators needs.
const NAMES: [(i32, &str); 3] = [(1, "SIGHUP"), (2, "SIGINT"), (15, "SIGTERM")];

/// An interrupting signal, by number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interruption {
    /// The signal's number (2 for SIGINT).
    pub signal: i32,
}

impl Interruption {
    /// Whether `signal` is one of the signals that interrupt a run: the
    /// only ones a run records (a report that names another was not
    /// written by a run).
    pub fn handled(signal: i32) -> bool {
        NAMES.iter().any(|(number, _)| *number == signal)
    }

    /// The signal's name, such as `SIGINT`: one of the signals that
    /// interrupt a run, or `signal N` for any other number (which only a
    /// report written by hand can hold).
    pub fn name(self) -> String {
        NAMES
            .iter()
            .find(|(signal, _)| *signal == self.signal)
            .map_or_else(
                || format!("signal {}", self.signal),
                |(_, name)| (*name).to_owned(),
            )
    }

    /// The exit status of an interrupted harness: 128 + the signal number.
    pub fn exit_code(self) -> u8 {
        u8::try_from(128 + self.signal).unwrap_or(u8::MAX)
    }
}

/// The interruption, once a signal has arrived.
pub fn received() -> Option<Interruption> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(Interruption { signal }),
    }
}

/// The handler, and the validators' process groups it kills.
#[cfg(feature = "external")]
mod signals {
    use std::collections::BTreeSet;
    use std::io;
    use std::sync::Mutex;
    use std::sync::atomic::Ordering;

    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use super::{RECEIVED, received};

    /// The signals that interrupt a run. Needs the `external` feature.
    pub const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

    /// The process groups of the validators alive now.
    static GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

    /// Handles [`SIGNALS`] from now on, on a thread of its own. Needs the
    /// `external` feature.
    ///
    /// # Errors
    ///
    /// The error of registering the handlers.
    pub fn install() -> io::Result<()> {
        let mut signals = Signals::new(SIGNALS)?;
        std::thread::Builder::new()
            .name("signals".to_owned())
            .spawn(move || {
                for signal in signals.forever() {
                    let first = RECEIVED
                        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                        .is_ok();
                    kill_all();
                    if !first {
                        // Asked twice: the user wants out now, report or not.
                        std::process::exit(128 + signal);
                    }
                }
            })?;
        Ok(())
    }

    /// Records a live validator's process group. Returns `false` when the run
    /// is already interrupted: the caller must kill the group itself, since the
    /// handler may have finished its sweep before the group was recorded.
    pub(crate) fn register(group: u32) -> bool {
        let Ok(group) = i32::try_from(group) else {
            return received().is_none();
        };
        let mut groups = GROUPS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        groups.insert(group);
        // Checked under the lock: the handler sets the flag before it takes the
        // lock, so either it sees this group or this sees its flag.
        received().is_none()
    }

    /// Forgets a validator's process group; called before the group leader is
    /// reaped, so that a recorded ID never names someone else's group.
    pub(crate) fn unregister(group: u32) {
        if let Ok(group) = i32::try_from(group) {
            GROUPS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&group);
        }
    }

    fn kill_all() {
        let groups = GROUPS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for &group in groups.iter() {
            // The group may have ended already; there is nothing else to do.
            let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
        }
    }
}

#[cfg(all(test, feature = "external"))]
mod tests {
    use super::{Interruption, SIGNALS};

    /// The names written without the platform's help are the platform's.
    #[test]
    fn the_interrupting_signals_are_named_as_the_platform_names_them() {
        for signal in SIGNALS {
            let platform = nix::sys::signal::Signal::try_from(signal).unwrap();
            assert_eq!(Interruption { signal }.name(), platform.to_string());
        }
        assert_eq!(Interruption { signal: 9 }.name(), "signal 9");
    }
}
