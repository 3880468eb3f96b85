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

impl State {
    const NEW: State = State {
        pending: None,
        depth: 0,
        cleanup: Vec::new(),
    };

    /// Records `signal` (the first one stays); outside a section, removes the registered files
    /// and returns the signal the process must end with.
    fn deliver(&mut self, signal: i32) -> Option<Interrupted> {
        if self.pending.is_none() {
            self.pending = Some(signal);
        }
        if self.depth > 0 {
            return None;
        }
        for path in self.cleanup.drain(..) {
            let _ = std::fs::remove_file(path);
        }
        Some(Interrupted(self.pending.unwrap_or(signal)))
    }

    /// Starts a section unless a signal is pending.
    fn enter(&mut self) -> Result<(), Interrupted> {
        if let Some(signal) = self.pending {
            return Err(Interrupted(signal));
        }
        self.depth += 1;
        Ok(())
    }

    /// Starts a section whatever is pending.
    fn enter_anyway(&mut self) {
        self.depth += 1;
    }

    /// Ends a section.
    fn leave(&mut self) {
        self.depth -= 1;
    }
}

static STATE: Mutex<State> = Mutex::new(State::NEW);

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Records `signal`. Outside a critical section the registered files are removed and `exit`
/// is called (with the lock held, so no section can start meanwhile); it must not return.
/// Inside one, the signal is only recorded.
pub fn deliver(signal: i32, exit: impl FnOnce(Interrupted)) {
    let mut s = state();
    let ends = s.deliver(signal);
    ANY.store(true, Ordering::SeqCst);
    if let Some(interrupted) = ends {
        exit(interrupted);
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
        state().enter().map(|()| Critical(()))
    }

    /// Starts a section whatever is pending: for work that must finish once begun (restoring
    /// originals, completing a commit).
    pub fn enter_anyway() -> Critical {
        state().enter_anyway();
        Critical(())
    }
}

impl Drop for Critical {
    fn drop(&mut self) {
        state().leave();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // On a state of its own: the process's state is shared by every test running beside this
    // one (a signal recorded there interrupted them).
    #[test]
    fn a_signal_inside_a_section_is_recorded_and_blocks_new_sections() {
        let mut s = State::NEW;
        s.enter().unwrap();
        assert_eq!(
            s.deliver(libc::SIGTERM),
            None,
            "a section must not be cut short"
        );
        assert_eq!(s.pending, Some(libc::SIGTERM));
        assert_eq!(s.enter().err(), Some(Interrupted(libc::SIGTERM)));
        s.enter_anyway();
        s.leave();
        s.leave();
        assert_eq!(
            s.deliver(libc::SIGINT),
            Some(Interrupted(libc::SIGTERM)),
            "outside a section the process ends, with the first signal"
        );
        assert_eq!(Interrupted(libc::SIGTERM).exit_code(), 143);
        assert_eq!(
            Interrupted(libc::SIGINT).to_string(),
            "interrupted by SIGINT"
        );
    }

    #[test]
    fn the_registered_files_are_removed_only_when_the_process_ends() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("x.lock");
        std::fs::write(&lock, "").unwrap();
        let mut s = State::NEW;
        s.cleanup.push(lock.clone());
        s.enter().unwrap();
        assert_eq!(s.deliver(libc::SIGHUP), None);
        assert!(lock.exists());
        s.leave();
        assert_eq!(s.deliver(libc::SIGHUP), Some(Interrupted(libc::SIGHUP)));
        assert!(!lock.exists());
    }
}
