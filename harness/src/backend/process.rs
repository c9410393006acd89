//! Validator processes: spawned in a process group of their own, fed through
//! a writer thread, read line by line with a size cap, their stderr kept as a
//! bounded tail, and killed as a whole group so that no grandchild outlives
//! them or keeps their pipes open.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::backend::external::CommandError;
use crate::backend::lock;
use process_wrap::std::{ChildWrapper, CommandWrap, ProcessGroup};

/// How much of a validator's stderr is kept for reports.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// How often a wait for output also checks whether the validator exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// How long output may still arrive after the validator exited while its
/// stdout stays open (held by a process it started).
const EXIT_GRACE: Duration = Duration::from_millis(100);

/// How long, once the validator is gone, the harness waits for the rest of
/// its stderr before quoting the tail.
const STDERR_SETTLE: Duration = Duration::from_millis(250);

/// The most bytes of queued requests written to a validator's stdin in one
/// go.
const WRITE_BATCH: usize = 1 << 20;

/// Splits a command line into words, the way a POSIX shell would for plain
/// words, single quotes, double quotes, backslashes and `#` comments (no
/// expansion: `$HOME` stays as written). Needs the `external` feature.
///
/// # Errors
///
/// [`CommandError`] for an empty command or an unclosed quote.
pub fn split_command(line: &str) -> Result<Vec<String>, CommandError> {
    let words = shlex::split(line).ok_or_else(|| CommandError::Unbalanced(line.to_owned()))?;
    if words.is_empty() {
        return Err(CommandError::Empty);
    }
    Ok(words)
}

/// What the stdout reader saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A complete line, without its line break.
    Line(String),
    /// A line longer than the cap; reading stopped.
    TooLong,
    /// Output that ended without a line break, then end of output.
    Partial(String),
    /// End of output.
    End,
    /// Reading failed.
    Failed(String),
}

/// A running validator process. It is `Sync`: in session mode one caller
/// reads its output while others send their requests.
pub struct Process {
    /// Locked only for a non-blocking status check or for the final kill.
    child: Mutex<Box<dyn ChildWrapper>>,
    /// The process group's ID (the validator's process ID).
    group: u32,
    /// The longest line read from stdout, in bytes.
    max_line: usize,
    /// `None` once stdin is closed.
    input: Mutex<Option<Sender<Vec<u8>>>>,
    /// Locked by the one caller reading at a time.
    output: Mutex<Receiver<Output>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Disconnects when the stderr reader has seen the end of stderr.
    stderr_end: Mutex<Receiver<()>>,
    /// Set once the validator is known to be gone: its stdout reached its
    /// end, or it exited, or it was killed.
    gone: AtomicBool,
    /// Set once the group is killed.
    done: AtomicBool,
    /// The bytes of stdout lines read and not yet taken.
    budget: Arc<Budget>,
}

/// How many bytes of stdout lines may wait to be taken, in all: `max_line`.
/// With several requests in flight several replies may wait, but their
/// bytes together stay within one line's limit (a line of any accepted
/// length always fits when nothing waits), so a hostile validator at any
/// depth makes the harness hold at most twice `--max-line-bytes`: the lines
/// waiting, and the one being read.
#[derive(Debug)]
struct Budget {
    limit: usize,
    state: Mutex<BudgetState>,
    freed: Condvar,
}

#[derive(Debug, Default)]
struct BudgetState {
    /// The bytes waiting.
    waiting: usize,
    /// Whether the process is killed: then nothing waits for room any more.
    closed: bool,
    /// Whether the reader waits for room. Giving room back wakes it only
    /// then: a wake is a system call, and in a session that keeps many
    /// requests in flight room is given back for every reply.
    blocked: bool,
}

impl Budget {
    fn new(limit: usize) -> Budget {
        Budget {
            limit,
            state: Mutex::new(BudgetState::default()),
            freed: Condvar::new(),
        }
    }

    /// Waits for room for `bytes`; false once closed.
    fn take(&self, bytes: usize) -> bool {
        let mut state = lock(&self.state);
        while !state.closed && state.waiting > 0 && state.waiting.saturating_add(bytes) > self.limit
        {
            state.blocked = true;
            state = self
                .freed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.blocked = false;
        if state.closed {
            return false;
        }
        state.waiting += bytes;
        true
    }

    /// Gives back the room of a line that was taken.
    fn give(&self, bytes: usize) {
        let mut state = lock(&self.state);
        state.waiting = state.waiting.saturating_sub(bytes);
        if state.blocked {
            self.freed.notify_all();
        }
    }

    /// Lets every waiting reader go: the process is gone.
    fn close(&self) {
        lock(&self.state).closed = true;
        self.freed.notify_all();
    }
}

/// Gives back the budget of `output` when it is a line.
fn taken(budget: &Budget, output: Output) -> Output {
    if let Output::Line(text) = &output {
        budget.give(text.len());
    }
    output
}

impl std::fmt::Debug for Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Process")
            .field("pid", &self.child().id())
            .finish()
    }
}

impl Process {
    /// Starts `argv` with `env` applied to the harness's environment (a
    /// variable with a value is set, one with `None` removed), in a new
    /// process group, with piped standard streams; stdout is read in lines
    /// of at most `max_line` bytes, of which at most `buffered` (at least
    /// one) wait to be read.
    ///
    /// # Errors
    ///
    /// The error of spawning the program.
    pub fn spawn(
        argv: &[String],
        env: &[(&str, Option<String>)],
        max_line: usize,
        buffered: usize,
    ) -> io::Result<Process> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mut command = CommandWrap::with_new(program, |command| {
            command.args(args);
            for (key, value) in env {
                match value {
                    Some(value) => command.env(key, value),
                    None => command.env_remove(key),
                };
            }
            command
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
        });
        command.wrap(ProcessGroup::leader());
        let mut child = command.spawn()?;
        let group = child.id();
        if !crate::backend::interrupt::register(group) {
            // Interrupted while starting: the handler's sweep may have
            // missed this group.
            let _ = child.start_kill();
        }
        let stdin = child.stdin().take();
        let stdout = child.stdout().take();
        let stderr_pipe = child.stderr().take();

        let (input, to_write) = mpsc::channel::<Vec<u8>>();
        if let Some(mut stdin) = stdin {
            // A validator that stops reading must not block the harness: the
            // writer blocks instead, and dies with the pipe when the group is
            // killed.
            thread::spawn(move || {
                for mut bytes in to_write.iter() {
                    // Requests queued meanwhile (several in flight) go out
                    // in one write: a system call per batch, not per line.
                    while bytes.len() < WRITE_BATCH
                        && let Ok(more) = to_write.try_recv()
                    {
                        bytes.extend_from_slice(&more);
                    }
                    if stdin
                        .write_all(&bytes)
                        .and_then(|()| stdin.flush())
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }

        // At most `buffered` lines wait to be read (one per request in
        // flight): a validator that writes more than it is asked for blocks
        // on its own stdout instead of filling the harness's memory. With
        // several requests in flight, room for their replies lets the reader
        // go on without waiting for each line to be taken.
        let (lines, output) = mpsc::sync_channel(buffered.max(1));
        let budget = Arc::new(Budget::new(max_line));
        if let Some(stdout) = stdout {
            let budget = Arc::clone(&budget);
            thread::spawn(move || read_lines(stdout, max_line, &lines, &budget));
        }

        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL_BYTES)));
        let (stderr_open, stderr_end) = mpsc::channel::<()>();
        if let Some(mut pipe) = stderr_pipe {
            let tail = Arc::clone(&stderr);
            thread::spawn(move || {
                // Dropped at the end of stderr, which disconnects `stderr_end`.
                let _open = stderr_open;
                let mut buffer = [0u8; 4096];
                while let Ok(read) = pipe.read(&mut buffer) {
                    if read == 0 {
                        break;
                    }
                    if let Ok(mut tail) = tail.lock() {
                        tail.extend(&buffer[..read]);
                        let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                        tail.drain(..excess);
                    }
                }
            });
        }

        Ok(Process {
            child: Mutex::new(child),
            group,
            max_line,
            input: Mutex::new(Some(input)),
            output: Mutex::new(output),
            stderr,
            stderr_end: Mutex::new(stderr_end),
            gone: AtomicBool::new(false),
            done: AtomicBool::new(false),
            budget,
        })
    }

    fn child(&self) -> MutexGuard<'_, Box<dyn ChildWrapper>> {
        // A panic while the lock was held cannot leave the child in a state
        // worse than unknown; keep using it.
        lock(&self.child)
    }

    /// The validator's own exit status, when it has exited; reaps it.
    ///
    /// This asks about the validator alone (the process the harness
    /// started), not its process group: a process it started may outlive it.
    fn exit_status(&self) -> Option<ExitStatus> {
        self.child().inner_mut().try_wait().ok().flatten()
    }

    /// The longest line read from its stdout, in bytes.
    pub fn max_line(&self) -> usize {
        self.max_line
    }

    /// Queues `bytes` for the validator's stdin.
    pub fn send(&self, bytes: Vec<u8>) {
        if let Some(input) = &*lock(&self.input) {
            // A failed send means the writer is gone because the pipe broke;
            // the reader will see the end of output.
            let _ = input.send(bytes);
        }
    }

    /// Closes the validator's stdin once everything queued is written.
    pub fn close_input(&self) {
        *lock(&self.input) = None;
    }

    /// Something the validator wrote on stdout that nobody has read yet, if
    /// there is anything; never waits.
    pub fn unread_output(&self) -> Option<Output> {
        let output = lock(&self.output).try_recv().ok()?;
        Some(taken(&self.budget, output))
    }

    /// The next thing the validator wrote on stdout, waiting until
    /// `deadline` at most (`None` when it passes first).
    ///
    /// When the validator exits while something it started keeps its stdout
    /// open, the output still counts as ended: once the validator is gone
    /// and nothing more arrives for a moment, this gives [`Output::End`]
    /// rather than waiting for the deadline.
    pub fn next_output(&self, deadline: Instant) -> Option<Output> {
        let output = lock(&self.output);
        let mut exited_at: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let until = match exited_at {
                Some(at) => deadline.min(at + EXIT_GRACE),
                None => deadline.min(now + EXIT_POLL),
            };
            match output.recv_timeout(until.saturating_duration_since(now)) {
                Ok(output) => {
                    let output = taken(&self.budget, output);
                    if matches!(output, Output::End | Output::Partial(_)) {
                        self.gone.store(true, Ordering::SeqCst);
                    }
                    return Some(output);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.gone.store(true, Ordering::SeqCst);
                    return Some(Output::End);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            match exited_at {
                Some(at) if now >= at + EXIT_GRACE => {
                    self.gone.store(true, Ordering::SeqCst);
                    return Some(Output::End);
                }
                Some(_) => {}
                None => {
                    if self.exit_status().is_some() {
                        exited_at = Some(now);
                    }
                }
            }
        }
    }

    /// The last bytes the validator wrote on stderr, as text. Once the
    /// validator is gone (its output ended, or it exited or was killed),
    /// this first waits a moment for the rest of its stderr, so that the
    /// tail ends with its last words.
    pub fn stderr_tail(&self) -> String {
        if self.gone.load(Ordering::SeqCst) {
            // Returns at the end of stderr, or after the settling time when
            // something the validator started still holds stderr open.
            let _ = lock(&self.stderr_end).recv_timeout(STDERR_SETTLE);
        }
        match self.stderr.lock() {
            Ok(tail) => {
                let bytes: Vec<u8> = tail.iter().copied().collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            Err(_) => String::new(),
        }
    }

    /// Waits until `deadline` for the validator to exit by itself; then, or
    /// if it has not, kills its whole process group. Returns its exit status
    /// when it exited by itself.
    pub fn finish(&self, deadline: Instant) -> Option<ExitStatus> {
        self.close_input();
        let mut status = None;
        // A validator told to stop usually exits within a millisecond: look
        // again soon at first, then less and less often, so that ending a
        // short run costs no fixed pause.
        let mut pause = Duration::from_micros(100);
        while Instant::now() < deadline {
            // The validator's own status: its group may still hold processes
            // it started, which the kill below ends.
            match self.child().inner_mut().try_wait() {
                Ok(Some(exit)) => {
                    status = Some(exit);
                    break;
                }
                Ok(None) => {
                    thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                Err(_) => break,
            }
        }
        self.kill();
        status
    }

    /// Kills the whole process group and reaps the validator.
    pub fn kill(&self) {
        if self.done.swap(true, Ordering::SeqCst) {
            return;
        }
        self.close_input();
        self.gone.store(true, Ordering::SeqCst);
        self.budget.close();
        let mut child = self.child();
        // The group may be gone already; either way nothing is left to kill.
        let _ = child.start_kill();
        // The validator itself too, in case it left its group: otherwise the
        // wait below could block for ever. Only while it is not reaped, so
        // that its process ID cannot have been reused.
        if matches!(child.inner_mut().try_wait(), Ok(None)) {
            let _ = child.inner_mut().start_kill();
        }
        // Before the reaping wait: the group's ID may be reused after it.
        crate::backend::interrupt::unregister(self.group);
        let _ = child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

fn read_lines(stdout: impl Read, max_line: usize, lines: &SyncSender<Output>, budget: &Budget) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let limit = u64::try_from(max_line)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        let read = match (&mut reader).take(limit).read_until(b'\n', &mut line) {
            Ok(read) => read,
            Err(error) => {
                let _ = lines.send(Output::Failed(error.to_string()));
                return;
            }
        };
        let event = if read == 0 {
            Output::End
        } else if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            Output::Line(text_of(line))
        } else if line.len() > max_line {
            Output::TooLong
        } else {
            Output::Partial(text_of(line))
        };
        let last = !matches!(event, Output::Line(_));
        if let Output::Line(text) = &event
            && !budget.take(text.len())
        {
            return;
        }
        if lines.send(event).is_err() || last {
            return;
        }
    }
}

/// A line as text; valid UTF-8 (every reply) is taken as it is, without a
/// copy of what may be many megabytes.
fn text_of(line: Vec<u8>) -> String {
    String::from_utf8(line)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::{Budget, CommandError, split_command};

    #[test]
    fn lines_waiting_stay_within_one_line_of_bytes() {
        let budget = std::sync::Arc::new(Budget::new(10));
        assert!(budget.take(10), "a full-size line fits when nothing waits");
        let (sent, got) = std::sync::mpsc::channel();
        let waiting = {
            let budget = std::sync::Arc::clone(&budget);
            std::thread::spawn(move || {
                let fitted = budget.take(1);
                sent.send(()).unwrap();
                fitted
            })
        };
        // The second line has no room until the first is taken.
        assert!(
            got.recv_timeout(std::time::Duration::from_millis(200))
                .is_err()
        );
        budget.give(10);
        got.recv_timeout(std::time::Duration::from_secs(60))
            .unwrap();
        assert!(waiting.join().unwrap());
        assert!(budget.take(9));
        budget.close();
        assert!(!budget.take(5), "a closed budget lets readers go");
    }

    #[test]
    fn splits_like_a_shell_without_expansion() {
        assert_eq!(
            split_command("python3 -u  a.py").unwrap(),
            ["python3", "-u", "a.py"]
        );
        assert_eq!(
            split_command(r#"run 'a b' "c \"d\"" e\ f '' $HOME"#).unwrap(),
            ["run", "a b", "c \"d\"", "e f", "", "$HOME"]
        );
        assert_eq!(split_command("  "), Err(CommandError::Empty));
        assert_eq!(split_command("# only a comment"), Err(CommandError::Empty));
        assert!(matches!(
            split_command("a 'b"),
            Err(CommandError::Unbalanced(_))
        ));
        assert!(matches!(
            split_command("a \"b"),
            Err(CommandError::Unbalanced(_))
        ));
        assert!(matches!(
            split_command("a b\\"),
            Err(CommandError::Unbalanced(_))
        ));
    }
}
