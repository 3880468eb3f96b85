//! Termination signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT), handled alike.
//!
//! The library never installs a handler; the binary forwards every signal it receives to
//! [`deliver`]. What happens then depends on whether a *critical section* is running:
//!
//! - Outside one (nothing on disk is being changed: reading, hashing, rendering), the process
//!   may end at once; [`deliver`] calls the exit function the binary gave it.
//! - Inside one (a command is running, outputs are moved aside, a commit is under way), the
//!   signal is only recorded. The section polls [`pending`] at its safe points, stops the
//!   command, rolls back or finishes what it started, and returns [`Interrupted`]; the exit code
//!   then says which of the two happened.
//!
//! Invariant: [`deliver`] decides "exit now" and a section starts under one mutex, so a process
//! can never be ended by a signal between the moment a section began and the moment it ended.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// A termination signal that stopped, or arrived during, an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted(pub i32);

impl Interrupted {
    /// The signal's name: `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`.
    pub fn name(self) -> String {
        signal_name(self.0)
    }
    /// The conventional exit code of a process ended by this signal: 128 + its number.
    pub fn exit_code(self) -> u8 {
        (128 + self.0).clamp(0, 255) as u8
    }
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "interrupted by {}", self.name())
    }
}

/// The name of a signal number (`SIG` + its usual name), or `signal N`.
pub fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        libc::SIGQUIT => "SIGQUIT".into(),
        libc::SIGKILL => "SIGKILL".into(),
        libc::SIGPIPE => "SIGPIPE".into(),
        other => format!("signal {other}"),
    }
}

/// The signals handled alike.
pub const SIGNALS: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

struct State {
    /// The first signal received, if any.
    pending: Option<i32>,
    /// How many critical sections are running.
    depth: usize,
    /// Files to remove if a signal ends the process (lock files this process holds).
    cleanup: Vec<PathBuf>,
}

/// Set once a signal was recorded: lets [`pending`] answer without the mutex in the common case
/// (it is polled per chunk of every file hashed).
static ANY: AtomicBool = AtomicBool::new(false);

static STATE: Mutex<State> = Mutex::new(State {
    pending: None,
    depth: 0,
    cleanup: Vec::new(),
});

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Records `signal`. Outside a critical section the registered files are removed and `exit`
/// is called (with the lock held, so no section can start meanwhile); it must not return.
/// Inside one, the signal is only recorded.
pub fn deliver(signal: i32, exit: impl FnOnce(Interrupted)) {
    let mut s = state();
    if s.pending.is_none() {
        s.pending = Some(signal);
        ANY.store(true, Ordering::SeqCst);
    }
    if s.depth == 0 {
        for path in s.cleanup.drain(..) {
            let _ = std::fs::remove_file(path);
        }
        exit(Interrupted(s.pending.unwrap_or(signal)));
    }
}

/// Removes `path` if a signal ends the process before [`forget_on_exit`] (for a lock file,
/// which only its holder may remove).
pub fn remove_on_exit(path: &Path) {
    state().cleanup.push(path.to_path_buf());
}

/// Undoes [`remove_on_exit`].
pub fn forget_on_exit(path: &Path) {
    let mut s = state();
    if let Some(i) = s.cleanup.iter().position(|p| p == path) {
        s.cleanup.remove(i);
    }
}

/// The signal received so far, if any. Cheap enough to poll in a loop.
pub fn pending() -> Option<Interrupted> {
    if !ANY.load(Ordering::SeqCst) {
        return None;
    }
    state().pending.map(Interrupted)
}

/// `Err` when a signal is pending: the form of [`pending`] for `?`.
pub fn check() -> Result<(), Interrupted> {
    pending().map_or(Ok(()), Err)
}

/// A running critical section: while one lives, signals are recorded instead of ending the
/// process. Sections nest.
#[must_use = "the section ends when this is dropped"]
pub struct Critical(());

impl Critical {
    /// Starts a section, unless a signal already arrived (then nothing may start).
    pub fn enter() -> Result<Critical, Interrupted> {
        let mut s = state();
        if let Some(signal) = s.pending {
            return Err(Interrupted(signal));
        }
        s.depth += 1;
        Ok(Critical(()))
    }

    /// Starts a section whatever is pending: for work that must finish once begun (restoring
    /// originals, completing a commit).
    pub fn enter_anyway() -> Critical {
        state().depth += 1;
        Critical(())
    }
}

impl Drop for Critical {
    fn drop(&mut self) {
        state().depth -= 1;
    }
}

/// Clears the recorded signal (tests only: a process normally ends after one).
#[doc(hidden)]
pub fn reset_for_tests() {
    state().pending = None;
    ANY.store(false, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test touches the global state, so the cases run in order.
    #[test]
    fn a_signal_inside_a_section_is_recorded_and_blocks_new_sections() {
        reset_for_tests();
        let section = Critical::enter().unwrap();
        let mut exited = false;
        deliver(libc::SIGTERM, |_| exited = true);
        assert!(!exited, "a section must not be cut short");
        assert_eq!(pending(), Some(Interrupted(libc::SIGTERM)));
        assert_eq!(Critical::enter().err(), Some(Interrupted(libc::SIGTERM)));
        let nested = Critical::enter_anyway();
        drop(nested);
        drop(section);
        deliver(libc::SIGINT, |i| {
            exited = true;
            assert_eq!(
                i,
                Interrupted(libc::SIGTERM),
                "the first signal is the one reported"
            );
        });
        assert!(exited, "outside a section the process ends");
        assert_eq!(Interrupted(libc::SIGTERM).exit_code(), 143);
        assert_eq!(
            Interrupted(libc::SIGINT).to_string(),
            "interrupted by SIGINT"
        );
        reset_for_tests();
    }
}
