//! Running a command without a shell, with a timeout, and capturing its output.
//!
//! The command runs in its own process group with standard input closed, so it can never wait
//! for terminal input. Output is hashed as it streams and only the first `max_log_bytes` are
//! kept, so memory stays bounded whatever the command prints.
//!
//! ## The command never outlives sciproof
//!
//! Before the command starts, a *watchdog* is forked: a tiny process that leads a new process
//! group, holds nothing but the read end of a pipe whose only writer is sciproof, and blocks
//! reading it. The command is started in the watchdog's group, so everything it starts joins
//! that group too. When the pipe reaches end-of-file — sciproof finished, failed, was
//! interrupted, or was killed with SIGKILL — the watchdog kills its whole group (itself last).
//! sciproof also kills the group itself on every path out of [`run_command`], including
//! success (a background process the command left behind would change files after the
//! evidence was taken). Because the watchdog leads the group until the group is killed, the
//! group ID can never be reused by an unrelated process while sciproof signals it. The command
//! itself also asks the kernel for SIGKILL when its parent dies (`PR_SET_PDEATHSIG`). A process
//! that left the group (`setsid`, a daemon) is caught as an orphan and killed with it
//! ([`crate::orphans`]).

use crate::error::strerror;
use crate::interrupt::{self, Critical, Interrupted};
use crate::manifest::Stream;
use crate::pyfmt::{float_repr, str_repr};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Why a command did not run to completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// It could not be started: `cannot start 'x': No such file or directory`.
    NotRunnable(String),
    /// It was stopped after the timeout: `command did not finish within 0.5 seconds`.
    Timeout(String),
    /// A termination signal arrived; the command and everything it started were stopped.
    Interrupted(Interrupted),
    /// It was to be traced and could not be (`--trace`): why, as a sentence.
    Untraceable(String),
}

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecResult {
    /// The exit status, or the negative number of the signal that ended it.
    pub exit_code: i64,
    /// Standard output (bounded).
    pub stdout: Stream,
    /// Standard error (bounded).
    pub stderr: Stream,
    /// Wall-clock seconds.
    pub duration_seconds: f64,
}

fn capture_stream(reader: impl Read, max_bytes: usize) -> Stream {
    capture_stream_and_tail(reader, max_bytes, 0).0
}

/// Reads `reader` to its end: its SHA-256, size and first `max_bytes` (the manifest's
/// [`Stream`]), and its last `tail` bytes (the end of a failed command's errors).
pub(crate) fn capture_stream_and_tail(
    mut reader: impl Read,
    max_bytes: usize,
    tail: usize,
) -> (Stream, Vec<u8>) {
    let mut hasher = Sha256::new();
    let mut kept = Vec::new();
    let mut last: std::collections::VecDeque<u8> = std::collections::VecDeque::new();
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
                if tail > 0 {
                    last.extend(&buffer[..n]);
                    let excess = last.len().saturating_sub(tail);
                    last.drain(..excess);
                }
                size += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    (
        Stream {
            sha256: hex::encode(hasher.finalize()),
            size,
            truncated: size > max_bytes as u64,
            text: String::from_utf8_lossy(&kept).into_owned(),
        },
        last.into(),
    )
}

/// The exit code as the reference records it: the status, or minus the signal number.
pub fn exit_code(status: ExitStatus) -> i64 {
    match (status.code(), status.signal()) {
        (Some(code), _) => i64::from(code),
        (None, Some(signal)) => -i64::from(signal),
        (None, None) => -1,
    }
}

/// The leader of a process group that is killed whole when sciproof ends (see the module
/// documentation). Dropping it kills the group and reaps the watchdog.
pub struct ProcessGroup {
    watchdog: libc::pid_t,
    /// The only write end of the watchdog's pipe; closing it (or dying) releases the watchdog.
    alive: Option<OwnedFd>,
}

impl ProcessGroup {
    /// Forks the watchdog. Its group is empty until a command is started in it.
    pub fn new() -> std::io::Result<ProcessGroup> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe2 fills two descriptors, which are owned from here on.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just created and are not owned elsewhere.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: the child runs only async-signal-safe system calls (sigaction, setpgid,
        // close_range/close, read, kill, _exit) and never returns into Rust code.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if pid == 0 {
            // SAFETY: see above; `watchdog` never returns.
            unsafe { watchdog(read.as_raw_fd()) }
        }
        // Both sides set the group, so it exists before a command is started in it.
        // SAFETY: setpgid on our own child.
        unsafe { libc::setpgid(pid, pid) };
        drop(read);
        crate::orphans::catch(pid);
        Ok(ProcessGroup {
            watchdog: pid,
            alive: Some(write),
        })
    }

    /// The group's ID (the watchdog's process ID).
    pub fn id(&self) -> libc::pid_t {
        self.watchdog
    }

    /// Prepares `command` to start in this group and to be killed when its parent dies.
    pub fn adopt(&self, command: &mut Command) {
        let parent = std::process::id() as libc::pid_t;
        command.process_group(self.watchdog);
        // SAFETY: prctl and getppid are async-signal-safe system calls.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died before prctl took effect.
                if libc::getppid() != parent {
                    libc::_exit(127);
                }
                Ok(())
            });
        }
    }

    /// Kills every process of the group (the watchdog included) and reaps the watchdog.
    pub fn kill(&mut self) {
        if self.alive.take().is_some() {
            // SAFETY: the group is led by our own unreaped child, so its ID is ours to signal.
            unsafe {
                libc::killpg(self.watchdog, libc::SIGKILL);
                let mut status = 0;
                while libc::waitpid(self.watchdog, &mut status, 0) < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                }
            }
            // What left the group before it was killed.
            crate::orphans::release(self.watchdog);
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The watchdog's whole life: ignore termination signals, lead a new group, close every
/// descriptor but `fd`, wait for end-of-file on it, kill the group.
///
/// # Safety
/// Only for the child of `fork`; never returns.
unsafe fn watchdog(fd: libc::c_int) -> ! {
    unsafe {
        for signal in [
            libc::SIGINT,
            libc::SIGTERM,
            libc::SIGHUP,
            libc::SIGQUIT,
            libc::SIGPIPE,
            libc::SIGTSTP,
            libc::SIGTTIN,
            libc::SIGTTOU,
        ] {
            libc::signal(signal, libc::SIG_IGN);
        }
        libc::setpgid(0, 0);
        // Hold nothing but the pipe: an inherited pipe end would keep another reader waiting.
        let max = libc::c_uint::MAX;
        let fd_u = fd as libc::c_uint;
        let closed = (fd_u == 0 || libc::syscall(libc::SYS_close_range, 0u32, fd_u - 1, 0u32) == 0)
            && libc::syscall(libc::SYS_close_range, fd_u + 1, max, 0u32) == 0;
        if !closed {
            for other in 0..4096 {
                if other != fd {
                    libc::close(other);
                }
            }
        }
        let mut byte = 0u8;
        loop {
            let n = libc::read(fd, (&mut byte as *mut u8).cast(), 1);
            if n == 0 || (n < 0 && *libc::__errno_location() != libc::EINTR) {
                break;
            }
        }
        libc::killpg(0, libc::SIGKILL);
        libc::_exit(0)
    }
}

/// Runs `argv` in `cwd` (never through a shell). `env` is the complete environment, or `None`
/// for this process's. Returns when the command and its output streams are done; the command's
/// whole process group is gone by then, whatever happened.
pub fn run_command(
    argv: &[String],
    cwd: &Path,
    timeout: Option<f64>,
    env: Option<&BTreeMap<String, String>>,
    max_log_bytes: usize,
) -> Result<ExecResult, RunError> {
    let _section = Critical::enter().map_err(RunError::Interrupted)?;
    let started = Instant::now();
    let not_runnable = |e: &std::io::Error| {
        RunError::NotRunnable(format!(
            "cannot start {}: {}",
            str_repr(&argv[0]),
            strerror(e)
        ))
    };
    let mut group = ProcessGroup::new().map_err(|e| not_runnable(&e))?;
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    group.adopt(&mut command);
    if let Some(env) = env {
        command.env_clear().envs(env);
    }
    crate::commit::failpoint("run.before_spawn");
    let mut child = command.spawn().map_err(|e| not_runnable(&e))?;
    crate::commit::failpoint("run.spawned");
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
        if let Some(signal) = interrupt::pending() {
            break Err(RunError::Interrupted(signal));
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
    match status {
        Ok(status) => {
            // A process the command left running may hold its output open: waited for like
            // the reference, but within the timeout.
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let [out, err] = drain(&rx, &mut group, left);
            if out.is_none() || err.is_none() {
                group.kill();
                drain(&rx, &mut group, Some(Duration::from_secs(5)));
                return Err(RunError::Timeout(format!(
                    "the command finished, but a process it left running still held its output open after {} seconds; everything it started was stopped",
                    float_repr(timeout.unwrap_or(0.0))
                )));
            }
            group.kill();
            if let Some(signal) = interrupt::pending() {
                return Err(RunError::Interrupted(signal));
            }
            let empty = || capture_stream(std::io::empty(), 0);
            Ok(ExecResult {
                exit_code: exit_code(status),
                stdout: out.unwrap_or_else(empty),
                stderr: err.unwrap_or_else(empty),
                duration_seconds: started.elapsed().as_secs_f64(),
            })
        }
        Err(e) => {
            group.kill();
            let _ = child.wait();
            drain(&rx, &mut group, Some(Duration::from_secs(5)));
            Err(e)
        }
    }
}

type Received = (usize, Stream);

/// Collects both captured streams. Children that inherited the pipes may keep them open; they
/// are waited for like the reference (which reads until EOF), unless a signal arrives (then the
/// group is killed, which closes the pipes) or `limit` passes.
fn drain(
    rx: &mpsc::Receiver<Received>,
    group: &mut ProcessGroup,
    limit: Option<Duration>,
) -> [Option<Stream>; 2] {
    let mut streams = [None, None];
    let end = limit.map(|l| Instant::now() + l);
    while streams.iter().any(Option::is_none) {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok((i, s)) => streams[i] = Some(s),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if end.is_some_and(|e| Instant::now() >= e) {
                    break;
                }
                if interrupt::pending().is_some() {
                    group.kill();
                }
            }
        }
    }
    streams
}

/// Runs a helper (git, a probe) and collects its output, killing its whole group after
/// `timeout`. `None` when it cannot start or times out.
pub fn output_with_timeout(mut command: Command, timeout: Duration) -> Option<Output> {
    let mut group = ProcessGroup::new().ok()?;
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    group.adopt(&mut command);
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
                group.kill();
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
    group.kill();
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
    fn a_process_that_left_the_group_is_killed_with_it_and_no_other_child_is() {
        let dir = tempfile::tempdir().unwrap();
        // A child of this process that is nothing to do with the command.
        let mut bystander = Command::new("sleep").arg("30").spawn().unwrap();
        // The command starts a process in a session of its own that writes a file later (and
        // waits until it is in that session).
        let r = run_command(
            &argv(&[
                "sh",
                "-c",
                "python3 -c 'import os, time; os.setsid(); open(\"ready\", \"w\"); time.sleep(0.5); open(\"late\", \"w\")' </dev/null >/dev/null 2>&1 & while [ ! -e ready ]; do sleep 0.01; done",
            ]),
            dir.path(),
            None,
            None,
            10,
        )
        .unwrap();
        assert_eq!(r.exit_code, 0);
        std::thread::sleep(Duration::from_millis(1500));
        assert!(
            !dir.path().join("late").exists(),
            "the orphan outlived the run"
        );
        assert!(
            bystander.try_wait().unwrap().is_none(),
            "a bystander was killed"
        );
        bystander.kill().unwrap();
        bystander.wait().unwrap();
    }

    #[test]
    fn a_process_left_holding_the_output_open_is_stopped_at_the_timeout() {
        let started = Instant::now();
        let r = run_command(
            &argv(&["sh", "-c", "echo done; sleep 30 &"]),
            Path::new("."),
            Some(0.5),
            None,
            10,
        );
        assert_eq!(
            r.unwrap_err(),
            RunError::Timeout("the command finished, but a process it left running still held its output open after 0.5 seconds; everything it started was stopped".into())
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        // Without a timeout it is waited for, as the reference waits.
        let r = run_command(
            &argv(&["sh", "-c", "echo done; (sleep 0.3; echo later) &"]),
            Path::new("."),
            None,
            None,
            100,
        )
        .unwrap();
        assert_eq!(r.stdout.text, "done\nlater\n");
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
