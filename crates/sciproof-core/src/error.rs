//! The library's error type. Every variant is a refusal with a complete, one-line message that
//! the CLI prints as `error: <message>` and turns into exit code 3.

use thiserror::Error;

/// A refusal: bad input, an invalid manifest, or a capture that could not be completed.
/// Nothing the user owns was changed when one of these is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// The manifest cannot be read or is not valid (`invalid manifest: outputs[2].path: ...`).
    #[error("{0}")]
    Manifest(String),
    /// The command line asks for something impossible.
    #[error("{0}")]
    Usage(String),
    /// A capture was refused or failed; no evidence was written.
    #[error("{0}")]
    Capture(String),
    /// A rerun needs a confirmation that could not be obtained.
    #[error("{0}")]
    ConfirmationRequired(String),
    /// A file the user named could not be written.
    #[error("cannot write {path}: {reason}")]
    Write { path: String, reason: String },
    /// A termination signal stopped the operation; `detail` says what was restored, or that
    /// nothing was changed. The CLI exits with 128 + the signal's number.
    #[error("{signal}; {detail}")]
    Interrupted {
        signal: crate::interrupt::Interrupted,
        detail: String,
    },
    /// Another sciproof process holds the lock of what this one would change (`--no-wait`).
    #[error("{0}")]
    Busy(String),
}

impl Error {
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
