//! Running a command without a shell, with a timeout, and capturing its output.
//!
//! The command runs in its own process group with standard input closed, so it can never wait
//! for terminal input, and a timeout or Ctrl+C stops everything it started. Output is hashed as
//! it streams and only the first `max_log_bytes` are kept, so memory stays bounded whatever the
//! command prints.

use crate::error::strerror;
use crate::manifest::Stream;
use crate::pyfmt::{float_repr, str_repr};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Set by the CLI's Ctrl+C handler; a running command is then stopped.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How many sections are running that must not be cut short by Ctrl+C (a command being run,
/// outputs moved aside for a rerun). While it is above zero, a Ctrl+C handler should only set
/// [`INTERRUPTED`] and let the section stop and clean up.
pub static DEFERRING: AtomicUsize = AtomicUsize::new(0);

/// Defers Ctrl+C while it lives (see [`DEFERRING`]).
pub struct DeferInterrupts;

impl DeferInterrupts {
    /// Starts a section during which Ctrl+C only sets [`INTERRUPTED`].
    pub fn new() -> Self {
        DEFERRING.fetch_add(1, Ordering::SeqCst);
        DeferInterrupts
    }
}

impl Default for DeferInterrupts {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for DeferInterrupts {
    fn drop(&mut self) {
        DEFERRING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether Ctrl+C was pressed during a deferred section.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Why a command did not run to completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// It could not be started: `cannot start 'x': No such file or directory`.
    NotRunnable(String),
    /// It was stopped after the timeout: `command did not finish within 0.5 seconds`.
    Timeout(String),
    /// The user pressed Ctrl+C; it was stopped.
    Interrupted,
}

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecResult {
    /// The exit status, or the negative number of the signal that ended it.
    pub exit_code: i64,
    pub stdout: Stream,
    pub stderr: Stream,
    pub duration_seconds: f64,
}

fn capture_stream(mut reader: impl Read, max_bytes: usize) -> Stream {
    let mut hasher = Sha256::new();
    let mut kept = Vec::new();
    let mut size = 0u64;
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                hasher.update(&buffer[..n]);
                if kept.len() < max_bytes {
                    let room = max_bytes - kept.len();
                    kept.extend_from_slice(&buffer[..n.min(room)]);
                }
                size += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    Stream {
        sha256: hex::encode(hasher.finalize()),
        size,
        truncated: size > max_bytes as u64,
        text: String::from_utf8_lossy(&kept).into_owned(),
    }
}

/// The exit code as the reference records it: the status, or minus the signal number.
pub fn exit_code(status: ExitStatus) -> i64 {
    match (status.code(), status.signal()) {
        (Some(code), _) => i64::from(code),
        (None, Some(signal)) => -i64::from(signal),
        (None, None) => -1,
    }
}

fn kill_group(child: &mut Child) {
    // SAFETY: killpg only sends a signal; the group id is the child's pid (process_group(0)).
    unsafe {
        libc::killpg(child.id() as libc::pid_t, libc::SIGKILL);
    }
    let _ = child.kill();
}

/// Runs `argv` in `cwd` (never through a shell). `env` is the complete environment, or `None`
/// for this process's. Returns when the command and its output streams are done.
pub fn run_command(
    argv: &[String],
    cwd: &Path,
    timeout: Option<f64>,
    env: Option<&BTreeMap<String, String>>,
    max_log_bytes: usize,
) -> Result<ExecResult, RunError> {
    let _defer = DeferInterrupts::new();
    if interrupted() {
        return Err(RunError::Interrupted);
    }
    let started = Instant::now();
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    if let Some(env) = env {
        command.env_clear().envs(env);
    }
    let mut child = command.spawn().map_err(|e| {
        RunError::NotRunnable(format!(
            "cannot start {}: {}",
            str_repr(&argv[0]),
            strerror(&e)
        ))
    })?;
    let (tx, rx) = mpsc::channel();
    for (index, pipe) in [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .enumerate()
    {
        let tx = tx.clone();
        let pipe = pipe.expect("piped");
        std::thread::spawn(move || {
            let _ = tx.send((index, capture_stream(pipe, max_log_bytes)));
        });
    }
    drop(tx);
    let deadline = timeout.map(|t| started + Duration::from_secs_f64(t));
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break Ok(status);
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            break Err(RunError::Interrupted);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break Err(RunError::Timeout(format!(
                "command did not finish within {} seconds",
                float_repr(timeout.unwrap_or(0.0))
            )));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    let drain_until = |limit: Option<Duration>| {
        let mut streams = [None, None];
        let end = limit.map(|l| Instant::now() + l);
        while streams.iter().any(Option::is_none) {
            let received = match end {
                Some(end) => rx
                    .recv_timeout(end.saturating_duration_since(Instant::now()))
                    .ok(),
                None => rx.recv().ok(),
            };
            match received {
                Some((i, s)) => streams[i] = Some(s),
                None => break,
            }
        }
        streams
    };
    match status {
        Ok(status) => {
            // Children that inherited the pipes may keep them open; wait for them to finish
            // writing like the reference (which reads until EOF).
            let [out, err] = drain_until(None);
            let empty = || capture_stream(std::io::empty(), 0);
            Ok(ExecResult {
                exit_code: exit_code(status),
                stdout: out.unwrap_or_else(empty),
                stderr: err.unwrap_or_else(empty),
                duration_seconds: started.elapsed().as_secs_f64(),
            })
        }
        Err(e) => {
            kill_group(&mut child);
            let _ = child.wait();
            drain_until(Some(Duration::from_secs(5)));
            Err(e)
        }
    }
}

/// Runs a helper (git, a probe) and collects its output, killing it after `timeout`. `None`
/// when it cannot start or times out.
pub fn output_with_timeout(mut command: Command, timeout: Duration) -> Option<Output> {
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = command.spawn().ok()?;
    let (tx, rx) = mpsc::channel();
    let mut stdout = child.stdout.take()?;
    let mut stderr = child.stderr.take()?;
    let tx2 = tx.clone();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        let _ = tx.send((0, buf));
    });
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        let _ = tx2.send((1, buf));
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                kill_group(&mut child);
                let _ = child.wait();
                return None;
            }
        }
    };
    let mut out = [Vec::new(), Vec::new()];
    for _ in 0..2 {
        let (i, buf) = rx
            .recv_timeout(
                deadline
                    .saturating_duration_since(Instant::now())
                    .max(Duration::from_millis(100)),
            )
            .ok()?;
        out[i] = buf;
    }
    let [stdout, stderr] = out;
    Some(Output {
        status,
        stdout,
        stderr,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn captures_streams_hashes_everything_keeps_the_head() {
        let r = run_command(
            &argv(&["sh", "-c", "printf 'hello'; printf 'err' >&2; exit 3"]),
            Path::new("."),
            None,
            None,
            3,
        )
        .unwrap();
        assert_eq!(r.exit_code, 3);
        assert_eq!(r.stdout.text, "hel");
        assert!(r.stdout.truncated);
        assert_eq!(r.stdout.size, 5);
        assert_eq!(r.stdout.sha256, crate::hash::sha256_bytes(b"hello"));
        assert_eq!(r.stderr.text, "err");
        assert!(!r.stderr.truncated);
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let started = Instant::now();
        let r = run_command(
            &argv(&["sh", "-c", "sleep 30 & sleep 30"]),
            Path::new("."),
            Some(0.3),
            None,
            10,
        );
        assert_eq!(
            r.unwrap_err(),
            RunError::Timeout("command did not finish within 0.3 seconds".into())
        );
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn signals_are_negative_exit_codes_and_missing_commands_are_errors() {
        let r = run_command(
            &argv(&["sh", "-c", "kill -9 $$"]),
            Path::new("."),
            None,
            None,
            10,
        )
        .unwrap();
        assert_eq!(r.exit_code, -9);
        let e = run_command(
            &argv(&["no-such-command-xyz"]),
            Path::new("."),
            None,
            None,
            10,
        )
        .unwrap_err();
        assert_eq!(
            e,
            RunError::NotRunnable(
                "cannot start 'no-such-command-xyz': No such file or directory".into()
            )
        );
    }
}
