//! `suggest-inputs`: run a command once under the system-call tracer and list the files it read
//! that are not declared (see [`crate::trace`] and [`crate::trace::project`]).

use crate::error::{Error, Result};
use crate::trace::project::{Undeclared, undeclared};
use crate::trace::{Method, TraceError, TraceRequest, Tracer, trace};
use std::path::PathBuf;

/// What to run and what is declared already.
pub struct SuggestInputsRequest {
    /// The command (never run through a shell).
    pub argv: Vec<String>,
    /// Its working directory: the project.
    pub cwd: PathBuf,
    /// Declared inputs and outputs (relative to `cwd`); files at or below them are not
    /// suggested.
    pub declared: Vec<PathBuf>,
    /// Stop the command after this many seconds.
    pub timeout: Option<f64>,
    /// Refuse `io_uring` with `ENOSYS` rather than report the trace incomplete.
    pub deny_io_uring: bool,
    /// Which observer to use.
    pub tracer: Tracer,
    /// Also report every path any process touched, with what it did (probes included).
    pub all: bool,
}

/// What the command read beyond its declarations, and how completely that is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestions {
    /// The files.
    pub undeclared: Undeclared,
    /// The command's exit code (or minus the signal that ended it).
    pub exit_code: i64,
    /// How many processes were traced.
    pub processes: usize,
    /// Why the trace may have missed reads (empty: complete), each a sentence.
    pub incomplete: Vec<String>,
    /// How the reads were observed.
    pub method: Method,
    /// Why the system-call tracer could not be used, when the Python audit hook stood in.
    pub fell_back: Option<String>,
    /// Every path touched, with what was done to it (with `all`).
    pub accesses: Option<Vec<(std::path::PathBuf, crate::trace::Access)>>,
}

/// Runs the command under the tracer and reads the trace against the project.
pub fn suggest_inputs(request: &SuggestInputsRequest) -> Result<Suggestions> {
    let traced = trace(&TraceRequest {
        argv: &request.argv,
        cwd: &request.cwd,
        env: None,
        timeout: request.timeout,
        deny_io_uring: request.deny_io_uring,
        tracer: request.tracer,
        probes: request.all,
        capture_output: None,
    })
    .map_err(|e| match e {
        TraceError::Interrupted(signal) => Error::Interrupted {
            signal,
            detail: "the command and everything it started were stopped; nothing was changed"
                .into(),
        },
        // The reference's words: suggest-inputs records nothing, and says so.
        TraceError::Timeout(s) => Error::Capture(format!(
            "command did not finish within {s} seconds; nothing was recorded"
        )),
        e => Error::Trace(e),
    })?;
    Ok(Suggestions {
        undeclared: undeclared(&traced, &request.cwd, &request.declared),
        exit_code: traced.exit_code,
        processes: traced.processes,
        incomplete: traced.incomplete,
        method: traced.method,
        fell_back: traced.fell_back,
        accesses: request.all.then(|| traced.files.into_iter().collect()),
    })
}
