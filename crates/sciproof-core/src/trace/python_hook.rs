//! The fallback where `ptrace` is not permitted: the reference's way, a Python audit hook.
//!
//! A `sitecustomize.py` in a temporary folder, put first on `PYTHONPATH`, adds an audit hook to
//! every Python interpreter the command starts (they inherit the environment). The hook writes
//! a first line `#hook-loaded`, then the hexadecimal bytes of the absolute path of every file
//! opened for reading (not for writing: `O_WRONLY`, `O_RDWR`, `O_APPEND`, `O_CREAT`, `O_TRUNC`,
//! or a mode with `w`, `a`, `x` or `+`), one per line, to the file named by
//! `SCIPROOF_AUDIT_LOG`. It sees only what Python code opens: not C extensions, other programs,
//! nor interpreters started with `-I` or `-S` (which ignore `PYTHONPATH`); when it never loaded,
//! nothing can be said, and the trace says so.

use super::{Access, Trace, TraceError, TraceRequest};
use crate::runner::{RunError, run_command};
use std::collections::BTreeMap;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

/// The hook (written for sciproof; the format of its log is the reference's).
const SITECUSTOMIZE: &str = r##"import os as _os
import sys as _sys

_log_path = _os.environ.get("SCIPROOF_AUDIT_LOG")
if _log_path:
    _log = open(_log_path, "a", buffering=1, encoding="ascii")
    _log.write("#hook-loaded\n")
    _writing = _os.O_WRONLY | _os.O_RDWR | _os.O_APPEND | _os.O_CREAT | _os.O_TRUNC

    def _sciproof_audit(event, args):
        if event != "open" or not args or args[0] is None or isinstance(args[0], int):
            return
        mode = args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 else 0
        if isinstance(mode, str) and any(c in mode for c in "wax+"):
            return
        if isinstance(flags, int) and flags & _writing:
            return
        try:
            path = _os.path.abspath(_os.fsencode(args[0]))
            _log.write(path.hex() + "\n")
        except Exception:
            pass

    _sys.addaudithook(_sciproof_audit)
"##;

/// What the command is told when the hook never loaded.
pub const NOT_LOADED: &str = "the audit hook never started, so no file reads were observed. The command is probably not Python, or Python ran with -I or -S (which ignore PYTHONPATH). Nothing can be said about undeclared inputs.";

/// Runs the command once with the hook; the files Python opened for reading.
pub fn run(request: &TraceRequest) -> Result<Trace, TraceError> {
    let failed = |e: std::io::Error| TraceError::Failed(crate::error::strerror(&e));
    let dir = tempfile::Builder::new()
        .prefix("sciproof-audit-")
        .tempdir()
        .map_err(failed)?;
    std::fs::write(dir.path().join("sitecustomize.py"), SITECUSTOMIZE).map_err(failed)?;
    let log = dir.path().join("reads.log");
    let mut env: BTreeMap<String, String> = match request.env {
        Some(env) => env.clone(),
        None => std::env::vars().collect(),
    };
    let path = match env.get("PYTHONPATH") {
        Some(p) if !p.is_empty() => format!("{}:{p}", dir.path().display()),
        _ => dir.path().display().to_string(),
    };
    env.insert("PYTHONPATH".into(), path);
    env.insert("SCIPROOF_AUDIT_LOG".into(), log.display().to_string());
    let keep = request.capture_output.unwrap_or(64 * 1024);
    let run =
        run_command(request.argv, request.cwd, request.timeout, Some(&env), keep).map_err(|e| {
            match e {
                RunError::NotRunnable(m) => TraceError::NotRunnable(m),
                RunError::Untraceable(m) => TraceError::Failed(m),
                RunError::Timeout(_) => {
                    TraceError::Timeout(crate::pyfmt::float_repr(request.timeout.unwrap_or(0.0)))
                }
                RunError::Interrupted(s) => TraceError::Interrupted(s),
            }
        })?;
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let mut trace = Trace {
        stderr_tail: run.stderr.text.clone().into_bytes(),
        output: Some((run.stdout.clone(), run.stderr.clone())),
        exit_code: run.exit_code,
        processes: 1,
        method: super::Method::PythonAuditHook,
        ..Trace::default()
    };
    if !text.lines().any(|l| l == "#hook-loaded") {
        trace.incomplete.push(NOT_LOADED.into());
    }
    let scratch = std::fs::canonicalize(dir.path()).unwrap_or_else(|_| dir.path().to_path_buf());
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Ok(bytes) = hex::decode(line) else {
            continue;
        };
        let path = PathBuf::from(std::ffi::OsString::from_vec(bytes));
        if path.starts_with(dir.path()) || path.starts_with(&scratch) {
            continue;
        }
        trace.record(
            path,
            Access {
                read: true,
                ..Access::default()
            },
        );
    }
    Ok(trace)
}
