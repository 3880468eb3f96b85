//! The library's error type. Every variant is a refusal with a complete message (one line, or
//! a list whose lines are each made terminal-safe) that the command line prints as
//! `error: <message>`.

use thiserror::Error;

/// A refusal: bad input, an invalid manifest, or a capture that could not be completed.
/// Nothing the user owns was changed when one of these is returned. Each concern has its own
/// variant (and, where it has several ways to fail, its own error type with the underlying
/// error as its source); what a refusal means for the process (an exit code) is the command
/// line's business.
#[derive(Debug, Error)]
pub enum Error {
    /// The manifest cannot be read or is not valid (`invalid manifest: outputs[2].path: ...`).
    #[error("{0}")]
    Manifest(String),
    /// A capture was refused or failed; no evidence was written.
    #[error("{0}")]
    Capture(String),
    /// A verification cannot be done as asked (its rerun options).
    #[error("{0}")]
    Verify(String),
    /// A policy file cannot be used.
    #[error(transparent)]
    Policy(#[from] crate::policy::PolicyError),
    /// A key, a signature or an allowed-signers file cannot be used.
    #[error(transparent)]
    Signing(#[from] crate::signing::SigningError),
    /// A claim graph refused an operation.
    #[error(transparent)]
    Graph(#[from] crate::graph::GraphError),
    /// A claim-graph file cannot be read.
    #[error(transparent)]
    GraphFile(#[from] crate::graph::error::GraphFileError),
    /// A command could not be traced.
    #[error(transparent)]
    Trace(#[from] crate::trace::TraceError),
    /// A claim-check crate cannot be read or written.
    #[error(transparent)]
    Crate(#[from] crate::checkcrate::CrateError),
    /// An export cannot be made as asked.
    #[error("{0}")]
    Export(String),
    /// A folder cannot be used (listed, recovered, or made the demo's).
    #[error("{0}")]
    Folder(String),
    /// A rerun needs a confirmation that could not be obtained.
    #[error("{0}")]
    ConfirmationRequired(String),
    /// A file the user named could not be written.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// The file.
        path: String,
        /// Why, as the operating system says it.
        reason: String,
        /// The error of the operating system, when there is one.
        #[source]
        source: Option<std::io::Error>,
    },
    /// A termination signal stopped the operation; `detail` says what was restored, or that
    /// nothing was changed. The CLI exits with 128 + the signal's number.
    #[error("{signal}; {detail}")]
    Interrupted {
        /// The signal.
        signal: crate::interrupt::Interrupted,
        /// What was done about the work in progress.
        detail: String,
    },
    /// Another sciproof process holds the lock of what this one would change (`--no-wait`).
    #[error("{0}")]
    Busy(String),
}

impl Error {
    /// Writing `path` failed with `e`.
    pub fn write(path: impl std::fmt::Display, e: std::io::Error) -> Error {
        Error::Write {
            path: path.to_string(),
            reason: strerror(&e),
            source: Some(e),
        }
    }

    /// An interruption before anything was changed.
    pub fn interrupted(signal: crate::interrupt::Interrupted) -> Error {
        Error::Interrupted {
            signal,
            detail: "nothing was changed".into(),
        }
    }
}

/// `Result` with [`enum@Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// The operating system's text for an I/O error, without Rust's `(os error N)` suffix, as the
/// reference prints `strerror`.
pub fn strerror(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}
