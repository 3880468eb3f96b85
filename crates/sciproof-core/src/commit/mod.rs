//! The commit protocol: how every sciproof command changes files so that nothing is lost,
//! whatever happens (a crash, SIGKILL, power loss, a signal, a full disk, a second writer).
//!
//! ## Files
//!
//! For a manifest `DIR/NAME.sciproof.json` ("the evidence"):
//!
//! | path | what |
//! | --- | --- |
//! | `NAME.sciproof.json`, `NAME.sciproof.d/`, `NAME.sciproof.json.sig` | the live evidence |
//! | `.sciproof-lock-NAME.sciproof.json` | the lock file ([`lock`]); exists only while held, or after a writer was killed |
//! | `.sciproof-work-NAME.sciproof.json/` | the work folder of the one operation under way ([`evidence`]) |
//! | `… /journal.json` | what the operation has done, so that it can be completed or undone ([`journal`]) |
//! | `… /aside/<i>` | whatever stood at declared output `i` before a rerun or update, moved aside as it was |
//! | `… /NAME.sciproof.json`, `… /NAME.sciproof.d/` | the new evidence, staged |
//! | `… /old.d`, `… /old.json` | the previous snapshot folder and manifest during a commit |
//! | `.sciproof-tmp-FILE-…` | a file being written by [`atomic::write_file`] |
//! | `.sciproof-rerun-STAMP/` | what a rerun produced (named in the report, kept) |
//!
//! Everything is on the manifest's file system (renames are atomic); nothing is written
//! anywhere else (no `/tmp`).
//!
//! ## Invariants
//!
//! 1. **One writer per evidence.** Every operation that changes an evidence (capture, update,
//!    rerun, sign) holds its [`lock::Lock`], an advisory `flock` the kernel releases when the
//!    process dies. Graph documents and other single files are locked the same way.
//! 2. **Single files are replaced, never rewritten.** [`atomic::write_file`] writes a new file
//!    beside the target, `fsync`s it, renames it over the target and `fsync`s the folder: a
//!    reader sees the old bytes or the new bytes, never a mix, and a full disk leaves the old
//!    file as it was.
//! 3. **The journal comes first.** Before an original is moved aside, the journal that lists it
//!    is durable; before the live evidence is touched by a commit, the journal in state
//!    `commit` is durable and so is everything it will install (staged manifest and snapshots,
//!    each file and folder `fsync`ed).
//! 4. **Undo before the commit point, redo after it.** A work folder found without a journal,
//!    or with a journal in state `aside`, is rolled back: every original is put back where it
//!    stood, what the interrupted run produced is kept in a named `.sciproof-rerun-…` folder,
//!    staged files are removed. A journal in state `commit` is rolled forward: the new evidence
//!    is installed (each step is idempotent, decided from what exists), then the work folder is
//!    removed. So after any crash the evidence is the complete old state or the complete new
//!    state.
//! 5. **The next command completes it.** Every command that touches a manifest first settles
//!    ([`evidence::settle`]) a work folder left by an earlier process, saying what it did in one
//!    line; `sciproof recover [DIR]` does the same for a whole folder.
//! 6. **Signals never cut a step short.** Changes happen inside [`crate::interrupt::Critical`]
//!    sections: a signal before the commit point rolls back (exit code 128+signal, "nothing was
//!    changed"); a signal after it lets the commit finish, and the command says so.
//! 7. **Readers need no lock.** A manifest is replaced by one rename, so a reader always reads
//!    a whole manifest. A reader whose snapshot or output checks fail while an operation is
//!    under way (a work folder exists) or that finds the manifest replaced meanwhile settles the
//!    operation (waiting for its lock) and reads again.

pub mod atomic;
pub mod evidence;
pub mod journal;
pub mod lock;

pub mod evicting;
mod failpoint;
mod steps;
mod write_behind;

pub use failpoint::failpoint;

/// The prefix of every temporary name sciproof creates (work folders, locks, files being
/// written); such names are never declared evidence.
pub const PREFIX: &str = ".sciproof-";
