//! Interruption: what SIGINT, SIGTERM and SIGHUP do to a run.
//!
//! Every validator runs in a process group of its own, so a signal sent to
//! the harness (Ctrl-C reaches only the terminal's foreground group) would
//! otherwise leave every validator and its children running. Once
//! [`install`] has been called, the first of these signals marks the run as
//! interrupted and kills every live validator group at once; the runner
//! stops scheduling, and the harness reports what finished and exits with
//! 128 + the signal's number, as cargo-nextest does. A second signal ends
//! the harness at once (after killing the groups again), unless it is the
//! first one again within [`REPEAT_WINDOW`]: that is the same interruption
//! delivered twice, as GNU `timeout` delivers it.
//!
//! Every validator process the harness starts registers its group here while it
//! lives, whether or not a handler is installed.
//!
//! Handling signals ([`install`], [`SIGNALS`]) needs the `external` feature
//! (on by default). Without it no handler can be installed, so
//! [`received`] stays `None`; [`Interruption`] is there all the same, since
//! reports written by a harness that had it carry one.

use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

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

/// How long after the first interrupting signal the same signal again is
/// the same interruption, not a demand to end at once. GNU `timeout`
/// signals its child and then the child's whole process group, so the
/// harness receives one `SIGTERM` twice within microseconds; ending at once
/// on the second lost the summary and the report about one run in twenty.
/// A person who presses Ctrl-C again because the harness seems stuck has
/// waited longer than this, and a different signal ends it at once anyway.
pub const REPEAT_WINDOW: Duration = Duration::from_secs(1);

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
    use std::time::Instant;

    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use super::{RECEIVED, REPEAT_WINDOW, received};

    /// The signals that interrupt a run. Needs the `external` feature.
    pub const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

    /// The process groups of the validators alive now.
    static GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

    /// Whether [`install`] has installed the handler: a second handler
    /// thread would take the one signal for a second one.
    static INSTALLED: Mutex<bool> = Mutex::new(false);

    /// What a signal does to the harness.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) enum Effect {
        /// The first signal: the run is interrupted.
        Interrupts,
        /// The first signal again within [`REPEAT_WINDOW`] of it: the same
        /// interruption, delivered twice.
        Repeats,
        /// Another signal, or the first one again later: the harness ends
        /// at once.
        EndsAtOnce,
    }

    /// What `signal`, arriving at `now`, does when `first` is the first
    /// signal and when it arrived (`None` before any).
    pub(super) fn effect(first: Option<(i32, Instant)>, signal: i32, now: Instant) -> Effect {
        match first {
            None => Effect::Interrupts,
            Some((first, at))
                if first == signal && now.saturating_duration_since(at) < REPEAT_WINDOW =>
            {
                Effect::Repeats
            }
            Some(_) => Effect::EndsAtOnce,
        }
    }

    /// Handles [`SIGNALS`] from now on, on a thread of its own; a second
    /// call does nothing. Needs the `external` feature.
    ///
    /// # Errors
    ///
    /// The error of registering the handlers.
    pub fn install() -> io::Result<()> {
        let mut installed = INSTALLED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *installed {
            return Ok(());
        }
        let mut signals = Signals::new(SIGNALS)?;
        std::thread::Builder::new()
            .name("signals".to_owned())
            .spawn(move || {
                let mut first = None;
                for signal in signals.forever() {
                    let now = Instant::now();
                    let effect = effect(first, signal, now);
                    if effect == Effect::Interrupts {
                        first = Some((signal, now));
                        RECEIVED.store(signal, Ordering::SeqCst);
                    }
                    kill_all();
                    if effect == Effect::EndsAtOnce {
                        // Asked twice: the user wants out now, report or not;
                        // only a half-written output file is cleaned up.
                        #[cfg(feature = "reports")]
                        crate::file::remove_temporaries();
                        std::process::exit(128 + signal);
                    }
                }
            })?;
        *installed = true;
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
    use std::time::{Duration, Instant};

    use super::signals::{Effect, effect};
    use super::{Interruption, REPEAT_WINDOW, SIGNALS};

    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;

    /// GNU `timeout` delivers one SIGTERM twice; Ctrl-C pressed again
    /// later, or another signal, means "out now".
    #[test]
    fn only_the_first_signal_again_soon_after_it_is_the_same_interruption() {
        let at = Instant::now();
        let soon = at + Duration::from_millis(5);
        let later = at + REPEAT_WINDOW;
        assert_eq!(effect(None, SIGTERM, at), Effect::Interrupts);
        assert_eq!(effect(Some((SIGTERM, at)), SIGTERM, at), Effect::Repeats);
        assert_eq!(effect(Some((SIGTERM, at)), SIGTERM, soon), Effect::Repeats);
        assert_eq!(
            effect(Some((SIGTERM, at)), SIGINT, soon),
            Effect::EndsAtOnce
        );
        assert_eq!(
            effect(Some((SIGINT, at)), SIGINT, later),
            Effect::EndsAtOnce
        );
        assert_eq!(
            effect(Some((SIGINT, at)), SIGINT, later + REPEAT_WINDOW),
            Effect::EndsAtOnce
        );
    }

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
