//! What a command really reads and writes, in any language: every process it starts is traced
//! at the system-call level.
//!
//! The command runs under `ptrace` with a seccomp-BPF filter ([`filter`]) that stops it only at
//! the file-related system calls of [`syscalls`] (`SECCOMP_RET_TRACE`), so a command that
//! computes runs at full speed between them. Forks, vforks, clones and execs are followed (the
//! filter is inherited); each call is decoded at its entry (paths read from the tracee's memory,
//! relative ones resolved through `/proc/TID/cwd` (remembered per thread, forgotten at every
//! `chdir`/`fchdir`) or `/proc/TID/fd/N` at that moment) and classified at its exit, once its result is
//! known: a file created is `created`, a rename that failed did nothing. An open for reading
//! only is decided at its entry by looking at the file (it is `read` where the file exists,
//! else only `probed`): one stop per file instead of two.
//!
//! What is not seen, and said so: reads through `io_uring` (its use marks the trace
//! incomplete, or is refused with `ENOSYS` on request), files mapped into memory before the
//! trace began, the network and the environment. 32-bit system calls of a 64-bit x86 process are
//! not decoded: they mark the trace incomplete, never silently pass. Where `ptrace` is not
//! permitted (a container without `CAP_SYS_PTRACE`, Yama's mode 3, a seccomp policy that forbids
//! it) [`TraceError::NotPermitted`] says so, so the caller can fall back to weaker means.
//!
//! Crates: only `libc`. The seccomp filter is ours (a dozen BPF instructions, [`filter`]) because
//! the filter crates (`seccompiler`) kill a process whose system calls are of another
//! architecture, where we must see them to report them; ptrace is called through `libc`
//! because `PTRACE_GET_SYSCALL_INFO`, which gives the architecture, number and arguments of a
//! stop the same way on x86_64 and aarch64, is not wrapped by `nix`.

pub mod filter;
pub mod project;
pub mod python_hook;
pub mod syscalls;
mod tracer;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the command's processes did to one path. A path can be several of these (read, then
/// removed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Access {
    /// Opened for reading (`O_RDONLY` or `O_RDWR`), successfully.
    pub read: bool,
    /// Opened for writing (`O_WRONLY`, `O_RDWR`, `O_CREAT`, `O_TRUNC`, `O_APPEND`) or truncated, or the
    /// target of a rename.
    pub written: bool,
    /// Made by the command: created by `open` with `O_CREAT` where it did not exist, `creat`,
    /// `mkdir`, `link`, `symlink`, or renamed into place.
    pub created: bool,
    /// Removed: `unlink`, `rmdir`, or renamed away.
    pub removed: bool,
    /// Executed (`execve`, `execveat`): a program or script the command ran.
    pub executed: bool,
    /// Looked at without being read: `stat`, `access`, `readlink`, or an open that failed.
    pub probed: bool,
}

impl Access {
    /// Whether the command took content from the file: it read or executed it.
    pub fn is_input(&self) -> bool {
        self.read || self.executed
    }

    /// Whether the command changed the file: wrote, created, or removed it.
    pub fn is_change(&self) -> bool {
        self.written || self.created || self.removed
    }

    fn merge(&mut self, other: Access) {
        self.read |= other.read;
        self.written |= other.written;
        self.created |= other.created;
        self.removed |= other.removed;
        self.executed |= other.executed;
        self.probed |= other.probed;
    }
}

/// What a traced command did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// Every absolute path a process of the command touched, as the process named it (symbolic
    /// links in it are not resolved: the caller decides), with what it did.
    pub files: BTreeMap<PathBuf, Access>,
    /// The command's exit code, or minus the signal that ended it.
    pub exit_code: i64,
    /// The processes traced (the command and every process it started).
    pub processes: usize,
    /// Why the trace may have missed file accesses (empty when it is complete), each a
    /// sentence.
    pub incomplete: Vec<String>,
    /// How the accesses were observed.
    pub method: Method,
    /// Why the system-call tracer could not be used, when the Python audit hook stood in.
    pub fell_back: Option<String>,
    /// The command's standard output and error as a manifest records them, when captured.
    pub output: Option<(crate::manifest::Stream, crate::manifest::Stream)>,
    /// The end of its standard error (the last 64 KiB), when captured.
    pub stderr_tail: Vec<u8>,
}

/// How file accesses are observed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Method {
    /// Every system call of every process (this module's tracer).
    #[default]
    Ptrace,
    /// Python's audit hook: only files Python code opens ([`python_hook`]).
    PythonAuditHook,
}

impl Method {
    /// The name the command line and JSON use.
    pub fn name(self) -> &'static str {
        match self {
            Method::Ptrace => "ptrace",
            Method::PythonAuditHook => "python-audit-hook",
        }
    }
}

/// Which observer to use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Tracer {
    /// The system-call tracer, or the Python audit hook where ptrace is not permitted.
    #[default]
    Auto,
    /// The system-call tracer only.
    Ptrace,
    /// The Python audit hook only.
    PythonAuditHook,
}

impl Trace {
    fn record(&mut self, path: PathBuf, access: Access) {
        self.files.entry(path).or_default().merge(access);
    }
}

/// How to trace a command.
#[derive(Debug, Clone)]
pub struct TraceRequest<'a> {
    /// The command and its arguments (never run through a shell).
    pub argv: &'a [String],
    /// Its working directory.
    pub cwd: &'a Path,
    /// Its complete environment, or `None` for this process's.
    pub env: Option<&'a std::collections::BTreeMap<String, String>>,
    /// Stop it (and everything it started) after this many seconds.
    pub timeout: Option<f64>,
    /// Refuse `io_uring_setup` with `ENOSYS` (programs then fall back to ordinary system calls,
    /// which are seen) instead of marking the trace incomplete.
    pub deny_io_uring: bool,
    /// Which observer to use.
    pub tracer: Tracer,
    /// Also stop at the calls that only look at a file (`stat`, `access`, `readlink`), to
    /// record them as probed. Opens that fail are probes too and are always recorded.
    pub probes: bool,
    /// Capture the command's standard output and error, keeping this many bytes of each from
    /// the start (with the digest and size of all, as a manifest records them) and the end of
    /// its errors, instead of passing them on to sciproof's standard error.
    pub capture_output: Option<usize>,
}

/// Why a command could not be traced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// This system does not let sciproof trace its own child.
    #[error(
        "cannot trace the command: {0} (ptrace is not permitted here: a container without CAP_SYS_PTRACE, Yama's ptrace_scope 3, or a seccomp policy that forbids ptrace)"
    )]
    NotPermitted(String),
    /// The command could not be started (`cannot start 'x': No such file or directory`).
    #[error("{0}")]
    NotRunnable(String),
    /// The command ran out of time; it and everything it started were stopped.
    #[error("command did not finish within {0} seconds")]
    Timeout(String),
    /// A termination signal arrived; the command and everything it started were stopped.
    #[error("{0}; the command and everything it started were stopped")]
    Interrupted(crate::interrupt::Interrupted),
    /// The tracer itself failed (a system call of its own).
    #[error("tracing failed: {0}")]
    Failed(String),
}

/// Runs `request.argv` to completion under the tracer and says what every process of it did to
/// files. Its standard input is closed and its standard output goes to sciproof's standard
/// error, so the caller's output stays its own (or both are captured, on request). With [`Tracer::Auto`], where ptrace is not
/// permitted the Python audit hook runs the command instead ([`Trace::fell_back`] says why).
///
/// The tracer runs on a thread of its own and waits only for children of that thread, so it
/// never reaps a child another thread of the caller started.
pub fn trace(request: &TraceRequest) -> Result<Trace, TraceError> {
    match request.tracer {
        Tracer::Ptrace => tracer::run(request),
        Tracer::PythonAuditHook => python_hook::run(request),
        Tracer::Auto => match tracer::run(request) {
            Err(refused @ TraceError::NotPermitted(_)) => {
                let mut trace = python_hook::run(request)?;
                trace.fell_back = Some(refused.to_string());
                Ok(trace)
            }
            other => other,
        },
    }
}

/// Runs a command as [`crate::runner::run_command`] does (the same result and the same
/// errors, the output kept as a manifest records it) under the tracer: what `capture --trace`
/// and `verify --rerun --trace` run instead of the untraced command.
pub fn run_traced(
    request: &TraceRequest,
) -> Result<(crate::runner::ExecResult, Trace), crate::runner::RunError> {
    use crate::runner::RunError;
    let started = std::time::Instant::now();
    let mut traced = trace(request).map_err(|e| match e {
        TraceError::Timeout(s) => {
            RunError::Timeout(format!("command did not finish within {s} seconds"))
        }
        TraceError::Interrupted(signal) => RunError::Interrupted(signal),
        TraceError::NotRunnable(m) => RunError::NotRunnable(m),
        e => RunError::Untraceable(e.to_string()),
    })?;
    let (stdout, stderr) = traced
        .output
        .take()
        .ok_or_else(|| RunError::Untraceable("the traced run's output was not captured".into()))?;
    let result = crate::runner::ExecResult {
        exit_code: traced.exit_code,
        stdout,
        stderr,
        duration_seconds: started.elapsed().as_secs_f64(),
    };
    Ok((result, traced))
}

/// Whether `path` (absolute) is a system location whose reads say nothing about a project:
/// the programs and libraries of the system, the kernel's pseudo-files, the loader's cache.
pub fn is_system_path(path: &Path) -> bool {
    const PREFIXES: [&str; 12] = [
        "/usr",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/bin",
        "/sbin",
        "/proc",
        "/sys",
        "/dev",
        "/run",
        "/opt/conda/pkgs",
    ];
    const FILES: [&str; 5] = [
        "/etc/ld.so.cache",
        "/etc/ld.so.preload",
        "/etc/localtime",
        "/etc/nsswitch.conf",
        "/etc/passwd",
    ];
    PREFIXES.iter().any(|p| path.starts_with(p)) || FILES.iter().any(|f| path == Path::new(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tracer in the library, on a thread of the test process (others run their own
    /// children meanwhile): what a shell reads and writes, and the exit code.
    #[test]
    fn a_shell_command_is_traced_in_process() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(root.join("in.txt"), "x\n").unwrap();
        // A child of another thread that ends while the trace runs must not be reaped by it.
        let mut other = std::process::Command::new("true").spawn().unwrap();
        let argv: Vec<String> = [
            "sh",
            "-c",
            "sleep 0.5; cat in.txt > out.txt; test -e nothing; exit 3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let trace = trace(&TraceRequest {
            argv: &argv,
            cwd: &root,
            env: None,
            timeout: Some(60.0),
            deny_io_uring: false,
            tracer: Tracer::Ptrace,
            probes: true,
            capture_output: Some(1024),
        })
        .unwrap();
        assert_eq!(trace.exit_code, 3);
        assert!(trace.incomplete.is_empty(), "{:?}", trace.incomplete);
        let access = |name: &str| {
            trace
                .files
                .get(&root.join(name))
                .copied()
                .unwrap_or_default()
        };
        assert!(access("in.txt").read && !access("in.txt").is_change());
        assert!(access("out.txt").written && access("out.txt").created);
        assert!(access("nothing").probed && !access("nothing").read);
        assert!(trace.processes >= 2);
        assert!(
            other.wait().unwrap().success(),
            "the other child is still ours to wait for"
        );
    }
}
