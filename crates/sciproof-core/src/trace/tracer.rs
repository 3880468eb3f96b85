//! The tracer: starts the command as a traced child, then follows every process it starts,
//! stopping only where the seccomp filter says, until the last one is gone.
//!
//! The child asks to be traced (`PTRACE_TRACEME`) and stops itself before it installs the
//! filter and execs, so the tracer can set its options (`PTRACE_O_TRACESECCOMP` first of all:
//! without it a traced system call would fail with `ENOSYS`) before the command's first system
//! call. Every ptrace request is made from the thread that forked the child, as ptrace requires.
//!
//! The child joins a [`ProcessGroup`] whose watchdog kills it if sciproof dies, and each traced
//! process is killed with the tracer (`PTRACE_O_EXITKILL`), so nothing outlives a timeout, a
//! signal or a crash of sciproof.

use super::filter;
use super::syscalls::{Flags, Kind, NATIVE_ARCH, X32_BIT, table};
use super::{Access, Trace, TraceError, TraceRequest};
use crate::error::strerror;
use crate::interrupt;
use crate::runner::{ProcessGroup, capture_stream_and_tail};
use std::collections::{HashMap, HashSet};
use std::ffi::{CString, OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `struct ptrace_syscall_info`, read as plain words: `op`, `arch`, then for a seccomp or entry
/// stop `nr` and six arguments, for an exit stop the return value and the error flag.
#[repr(C)]
#[derive(Default)]
struct SyscallInfo {
    op: u8,
    _pad: u8,
    _flags: u16,
    arch: u32,
    _ip: u64,
    _sp: u64,
    data: [u64; 8],
}

const OP_EXIT: u8 = 2;
const OP_SECCOMP: u8 = 3;

/// Where the child stopped trying, reported through the error pipe before it exits.
const STAGE_CHDIR: u8 = 1;
const STAGE_PTRACE: u8 = 2;
const STAGE_SECCOMP: u8 = 3;
const STAGE_EXEC: u8 = 4;
const STAGE_SETUP: u8 = 5;

/// A call seen at its entry whose outcome decides what it did.
enum Pending {
    Open {
        path: PathBuf,
        flags: i32,
        existed: bool,
    },
    Exec(PathBuf),
    Rename(PathBuf, PathBuf),
    Create(PathBuf),
    Remove(PathBuf),
    Truncate(PathBuf),
    Chdir,
}

/// Why the watchdog thread stopped the command.
const STOP_NONE: u8 = 0;
const STOP_TIMEOUT: u8 = 1;
const STOP_SIGNAL: u8 = 2;

/// Traces on a thread of its own: the loop waits for any child of *that* thread
/// (`__WNOTHREAD`), which are only the command, the processes it starts (the tracer's tracees)
/// and the group's watchdog, so children other threads of the process started are never
/// reaped by the tracer.
pub(super) fn run(request: &TraceRequest) -> Result<Trace, TraceError> {
    std::thread::scope(|scope| {
        scope
            .spawn(|| run_here(request))
            .join()
            .unwrap_or_else(|_| Err(TraceError::Failed("the tracer thread panicked".into())))
    })
}

fn run_here(request: &TraceRequest) -> Result<Trace, TraceError> {
    let argv = request.argv;
    let program = argv
        .first()
        .ok_or_else(|| TraceError::NotRunnable("no command given".into()))?;
    let not_runnable = |reason: String| {
        TraceError::NotRunnable(format!(
            "cannot start {}: {reason}",
            crate::pyfmt::str_repr(program)
        ))
    };
    let path = crate::probe::which_from(program, request.cwd)
        .ok_or_else(|| not_runnable("No such file or directory".into()))?;
    let c = |s: &OsStr| {
        CString::new(s.as_bytes()).map_err(|_| not_runnable("a NUL byte in the command".into()))
    };
    let c_path = c(path.as_os_str())?;
    let c_args: Vec<CString> = argv
        .iter()
        .map(|a| c(OsStr::new(a)))
        .collect::<Result<_, _>>()?;
    let environment: Vec<(OsString, OsString)> = match request.env {
        Some(env) => env
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect(),
        None => std::env::vars_os().collect(),
    };
    let c_env: Vec<CString> = environment
        .into_iter()
        .map(|(k, v)| {
            let mut kv = k.into_vec();
            kv.push(b'=');
            kv.extend(v.into_vec());
            CString::new(kv).unwrap_or_default()
        })
        .collect();
    let c_cwd = c(request.cwd.as_os_str())?;
    let dev_null = CString::new("/dev/null").expect("no NUL");
    // The command's standard output and error: pipes read by two threads (the last
    // `OUTPUT_TAIL` bytes of each kept), or standard output sent to sciproof's standard error.
    let keep = request.capture_output.unwrap_or(0);
    let pipes = if request.capture_output.is_some() {
        let mut out = [[0 as libc::c_int; 2]; 2];
        for p in &mut out {
            // SAFETY: pipe2 fills two descriptors that are closed below.
            if unsafe { libc::pipe2(p.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
                return Err(TraceError::Failed(strerror(
                    &std::io::Error::last_os_error(),
                )));
            }
        }
        Some(out)
    } else {
        None
    };
    let mut argv_ptrs: Vec<*const libc::c_char> = c_args.iter().map(|a| a.as_ptr()).collect();
    argv_ptrs.push(std::ptr::null());
    let mut env_ptrs: Vec<*const libc::c_char> = c_env.iter().map(|a| a.as_ptr()).collect();
    env_ptrs.push(std::ptr::null());
    let program_bpf = filter::program(request.deny_io_uring, request.probes);
    let failed = |what: &str| {
        TraceError::Failed(format!(
            "{what}: {}",
            strerror(&std::io::Error::last_os_error())
        ))
    };

    let _section = interrupt::Critical::enter().map_err(TraceError::Interrupted)?;
    let mut group = ProcessGroup::new().map_err(|e| TraceError::Failed(strerror(&e)))?;
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 fills two descriptors that are closed below.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(failed("pipe"));
    }
    let (report_read, report_write) = (fds[0], fds[1]);
    let parent = std::process::id() as libc::pid_t;
    let group_id = group.id();
    let started = Instant::now();
    // SAFETY: the child makes only async-signal-safe system calls on memory prepared above,
    // then execs or exits; it never returns into Rust code.
    let root = unsafe { libc::fork() };
    if root < 0 {
        // SAFETY: closing our own descriptors.
        unsafe {
            libc::close(report_read);
            libc::close(report_write);
        }
        return Err(failed("fork"));
    }
    if root == 0 {
        // SAFETY: see above.
        unsafe {
            let fail = |stage: u8| -> ! {
                let errno = *libc::__errno_location();
                let mut msg = [0u8; 5];
                msg[0] = stage;
                msg[1..].copy_from_slice(&errno.to_ne_bytes());
                libc::write(report_write, msg.as_ptr().cast(), 5);
                libc::_exit(127)
            };
            if libc::setpgid(0, group_id) != 0
                || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0
            {
                fail(STAGE_SETUP);
            }
            if libc::getppid() != parent {
                libc::_exit(127);
            }
            let null = libc::open(dev_null.as_ptr(), libc::O_RDONLY);
            let redirected = match pipes {
                Some([out, err]) => libc::dup2(out[1], 1) >= 0 && libc::dup2(err[1], 2) >= 0,
                None => libc::dup2(2, 1) >= 0,
            };
            if null < 0 || libc::dup2(null, 0) < 0 || !redirected {
                fail(STAGE_SETUP);
            }
            if libc::chdir(c_cwd.as_ptr()) != 0 {
                fail(STAGE_CHDIR);
            }
            if libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) != 0 {
                fail(STAGE_PTRACE);
            }
            libc::raise(libc::SIGSTOP);
            if filter::install(&program_bpf).is_err() {
                fail(STAGE_SECCOMP);
            }
            libc::execve(c_path.as_ptr(), argv_ptrs.as_ptr(), env_ptrs.as_ptr());
            fail(STAGE_EXEC);
        }
    }
    // SAFETY: our copy of the write end; the child holds its own until exec or exit.
    unsafe { libc::close(report_write) };
    let readers = pipes.map(|both| {
        both.map(|[read, write]| {
            // SAFETY: our copy of the write end is closed (the child has its own); the read
            // end is owned by the reader thread from here on.
            unsafe { libc::close(write) };
            let file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(read) };
            std::thread::spawn(move || capture_stream_and_tail(file, keep, OUTPUT_TAIL))
        })
    });
    // SAFETY: setpgid on our own child (both sides set it, as for the runner).
    unsafe { libc::setpgid(root, group_id) };
    let report = || {
        let mut msg = [0u8; 5];
        // SAFETY: reading into a local buffer from our own descriptor.
        let n = unsafe { libc::read(report_read, msg.as_mut_ptr().cast(), 5) };
        (n == 5).then(|| {
            let errno = i32::from_ne_bytes([msg[1], msg[2], msg[3], msg[4]]);
            (msg[0], std::io::Error::from_raw_os_error(errno))
        })
    };
    let close_report = || {
        // SAFETY: our read end, closed once.
        unsafe { libc::close(report_read) };
    };

    // The child's own stop, before its filter: set the options, let it go.
    let status = wait(root);
    if !libc::WIFSTOPPED(status) {
        let why = report();
        close_report();
        group.kill();
        return Err(match why {
            Some((STAGE_PTRACE, e)) => TraceError::NotPermitted(strerror(&e)),
            Some((STAGE_CHDIR, e)) => not_runnable(format!(
                "cannot enter {}: {}",
                request.cwd.display(),
                strerror(&e)
            )),
            Some((_, e)) => TraceError::Failed(strerror(&e)),
            None => TraceError::Failed("the command ended before it could be traced".into()),
        });
    }
    let options = libc::PTRACE_O_TRACESECCOMP
        | libc::PTRACE_O_TRACESYSGOOD
        | libc::PTRACE_O_TRACEFORK
        | libc::PTRACE_O_TRACEVFORK
        | libc::PTRACE_O_TRACECLONE
        | libc::PTRACE_O_TRACEEXEC
        | libc::PTRACE_O_EXITKILL;
    // SAFETY: ptrace requests on our stopped child.
    unsafe {
        if libc::ptrace(libc::PTRACE_SETOPTIONS, root, 0, options as libc::c_long) != 0 {
            let e = failed("PTRACE_SETOPTIONS");
            libc::kill(root, libc::SIGKILL);
            close_report();
            group.kill();
            return Err(e);
        }
        libc::ptrace(libc::PTRACE_CONT, root, 0, 0);
    }

    // Every traced thread, shared with the thread that stops them on a timeout or a signal.
    let live: Arc<Mutex<HashSet<libc::pid_t>>> = Arc::new(Mutex::new(HashSet::from([root])));
    let stop = Arc::new(AtomicU8::new(STOP_NONE));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let guard = {
        let (live, stop, done) = (live.clone(), stop.clone(), done.clone());
        let deadline = request
            .timeout
            .map(|t| started + Duration::from_secs_f64(t));
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                let why = if deadline.is_some_and(|d| Instant::now() >= d) {
                    STOP_TIMEOUT
                } else if interrupt::pending().is_some() {
                    STOP_SIGNAL
                } else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                stop.store(why, Ordering::SeqCst);
                // SAFETY: signalling our traced processes (and the group) to end them.
                unsafe {
                    libc::killpg(group_id, libc::SIGKILL);
                    for &pid in live.lock().unwrap_or_else(|e| e.into_inner()).iter() {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };

    let calls: HashMap<i64, Kind> = table(request.probes).into_iter().collect();
    let mut state = State {
        trace: Trace {
            processes: 1,
            ..Trace::default()
        },
        pending: HashMap::new(),
        fresh: HashSet::new(),
        calls,
        noted: HashSet::new(),
        cwd: HashMap::new(),
        known: HashSet::from([root]),
        gone: HashSet::new(),
    };
    let mut exit_code = None;
    loop {
        let mut status = 0;
        // SAFETY: waiting for any child; the tracees are ours.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::__WALL | libc::__WNOTHREAD) };
        if pid < 0 {
            match std::io::Error::last_os_error().raw_os_error() {
                Some(libc::EINTR) => continue,
                _ => break,
            }
        }
        if pid == group_id {
            continue;
        }
        if libc::WIFEXITED(status) || libc::WIFSIGNALED(status) {
            let mut set = live.lock().unwrap_or_else(|e| e.into_inner());
            set.remove(&pid);
            state.known.remove(&pid);
            state.gone.insert(pid);
            state.fresh.remove(&pid);
            state.pending.remove(&pid);
            state.cwd.remove(&pid);
            if pid == root {
                exit_code = Some(if libc::WIFEXITED(status) {
                    i64::from(libc::WEXITSTATUS(status))
                } else {
                    -i64::from(libc::WTERMSIG(status))
                });
            }
            if set.is_empty() {
                break;
            }
            continue;
        }
        if !libc::WIFSTOPPED(status) {
            continue;
        }
        state.gone.remove(&pid);
        if state.known.insert(pid) {
            live.lock().unwrap_or_else(|e| e.into_inner()).insert(pid);
            state.trace.processes += 1;
            state.fresh.insert(pid);
        }
        let signal = libc::WSTOPSIG(status);
        let event = status >> 16;
        let mut resume = libc::PTRACE_CONT;
        let mut deliver = 0;
        if signal == libc::SIGTRAP && event == libc::PTRACE_EVENT_SECCOMP {
            if state.entry(pid) {
                resume = libc::PTRACE_SYSCALL;
            }
        } else if signal == libc::SIGTRAP | 0x80 {
            state.exit(pid);
        } else if signal == libc::SIGTRAP
            && [
                libc::PTRACE_EVENT_FORK,
                libc::PTRACE_EVENT_VFORK,
                libc::PTRACE_EVENT_CLONE,
            ]
            .contains(&event)
        {
            let mut child: libc::c_ulong = 0;
            // SAFETY: the event's message is the new thread's ID.
            unsafe { libc::ptrace(libc::PTRACE_GETEVENTMSG, pid, 0, &mut child) };
            let child = child as libc::pid_t;
            // The new process may have stopped, run and ended before this event was reported
            // (waitpid reports in any order): then it is not waited for again.
            if !state.gone.remove(&child) && state.known.insert(child) {
                live.lock().unwrap_or_else(|e| e.into_inner()).insert(child);
                state.trace.processes += 1;
                state.fresh.insert(child);
            }
        } else if signal == libc::SIGTRAP && event == libc::PTRACE_EVENT_EXEC {
            // The exec succeeded. From a thread other than the leader, the thread's ID became
            // the leader's: the call is found under the former ID.
            let mut former: libc::c_ulong = 0;
            // SAFETY: the event's message is the former thread ID.
            unsafe { libc::ptrace(libc::PTRACE_GETEVENTMSG, pid, 0, &mut former) };
            let former = former as libc::pid_t;
            if former != pid {
                live.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&former);
                state.known.remove(&former);
                state.cwd.remove(&former);
            }
            if let Some(Pending::Exec(path)) = state
                .pending
                .remove(&former)
                .or_else(|| state.pending.remove(&pid))
            {
                state.trace.record(
                    path,
                    Access {
                        executed: true,
                        ..Access::default()
                    },
                );
            }
        } else if state.fresh.remove(&pid) && signal == libc::SIGSTOP {
            // A new process's first stop: swallowed.
        } else if event == 0 {
            // A signal for the process, or (for the stop signals, when the kernel has no
            // signal information) a group stop: deliver the one, resume the other.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: reading the stop's signal information into a local.
            let is_signal =
                unsafe { libc::ptrace(libc::PTRACE_GETSIGINFO, pid, 0, &mut info) } == 0;
            if is_signal {
                deliver = signal;
            }
        }
        // SAFETY: resuming a stopped tracee of ours (it may have been killed meanwhile: ESRCH).
        unsafe { libc::ptrace(resume, pid, 0, deliver as libc::c_long) };
    }
    done.store(true, Ordering::SeqCst);
    let _ = guard.join();
    close_report();
    group.kill();
    if let Some([out, err]) = readers
        && let (Ok((out, _)), Ok((err, tail))) = (out.join(), err.join())
    {
        state.trace.output = Some((out, err));
        state.trace.stderr_tail = tail;
    }
    match stop.load(Ordering::SeqCst) {
        STOP_TIMEOUT => {
            return Err(TraceError::Timeout(crate::pyfmt::float_repr(
                request.timeout.unwrap_or(0.0),
            )));
        }
        STOP_SIGNAL => {
            return Err(TraceError::Interrupted(
                interrupt::pending().unwrap_or(interrupt::Interrupted(libc::SIGTERM)),
            ));
        }
        _ => {}
    }
    state.trace.exit_code = exit_code.unwrap_or(-1);
    Ok(state.trace)
}

/// What the loop keeps between stops.
struct State {
    trace: Trace,
    /// Calls seen at entry, by thread, waiting for their exit.
    pending: HashMap<libc::pid_t, Pending>,
    /// Threads whose first (SIGSTOP) stop is still to come.
    fresh: HashSet<libc::pid_t>,
    calls: HashMap<i64, Kind>,
    /// Incompleteness notes already made.
    noted: HashSet<&'static str>,
    /// Each thread's working directory as last read from `/proc`, forgotten for every thread
    /// at each `chdir`/`fchdir` (threads may share one), entry and exit.
    cwd: HashMap<libc::pid_t, PathBuf>,
    /// The threads being traced (the shared set is for the thread that stops them).
    known: HashSet<libc::pid_t>,
    /// Threads that ended, until their ID is seen alive again.
    gone: HashSet<libc::pid_t>,
}

impl State {
    fn incomplete(&mut self, key: &'static str, text: &str) {
        if self.noted.insert(key) {
            self.trace.incomplete.push(text.to_string());
        }
    }

    /// A seccomp stop: decodes the call. Returns whether its exit must be seen.
    fn entry(&mut self, pid: libc::pid_t) -> bool {
        let Some(info) = syscall_info(pid) else {
            return false;
        };
        if info.op != OP_SECCOMP {
            return false;
        }
        let nr = info.data[0];
        let args = &info.data[1..7];
        if info.arch != NATIVE_ARCH || (cfg!(target_arch = "x86_64") && nr as u32 & X32_BIT != 0) {
            self.incomplete(
                "abi",
                "the trace is incomplete: a process made system calls of another ABI (32-bit x86 or x32), which sciproof does not decode, so files they touched are not listed",
            );
            return false;
        }
        let Some(kind) = self.calls.get(&(nr as i64)).copied() else {
            return false;
        };
        if kind == Kind::Chdir {
            self.cwd.clear();
            self.pending.insert(pid, Pending::Chdir);
            return true;
        }
        let cwd = &mut self.cwd;
        let mut path = |dirfd: Option<usize>, at: usize| -> Option<PathBuf> {
            let raw = read_string(pid, args[at])?;
            resolve(pid, dirfd.map(|d| args[d] as i32), raw, cwd)
        };
        let pending = match kind {
            Kind::Open {
                dirfd,
                path: at,
                flags,
            } => {
                let Some(p) = path(dirfd, at) else {
                    return false;
                };
                let flags = match flags {
                    Flags::Arg(i) => args[i] as i32,
                    Flags::How(i) => read_u64(pid, args[i]).unwrap_or(0) as i32,
                    Flags::Creat => libc::O_CREAT | libc::O_WRONLY | libc::O_TRUNC,
                };
                let writing = libc::O_WRONLY
                    | libc::O_RDWR
                    | libc::O_CREAT
                    | libc::O_TRUNC
                    | libc::O_APPEND
                    | libc::O_PATH;
                if flags & writing == 0 {
                    // An open for reading is decided here, by looking at the file, which saves
                    // a second stop per file (most of the cost of a file-heavy command): it
                    // succeeds where the file exists. One that fails anyway (too many open
                    // files, a security module) counts as read: that can only add a
                    // suggestion, never hide a read.
                    let exists = if flags & libc::O_NOFOLLOW != 0 {
                        std::fs::symlink_metadata(&p).is_ok_and(|m| !m.file_type().is_symlink())
                    } else {
                        std::fs::metadata(&p)
                            .is_ok_and(|m| flags & libc::O_DIRECTORY == 0 || m.is_dir())
                    };
                    let mut a = Access::default();
                    if exists {
                        a.read = true;
                    } else {
                        a.probed = true;
                    }
                    self.trace.record(p, a);
                    return false;
                }
                let existed = flags & libc::O_CREAT == 0 || std::fs::symlink_metadata(&p).is_ok();
                Pending::Open {
                    path: p,
                    flags,
                    existed,
                }
            }
            Kind::Exec { dirfd, path: at } => match path(dirfd, at) {
                Some(p) => Pending::Exec(p),
                None => return false,
            },
            Kind::Probe { dirfd, path: at } => {
                if let Some(p) = path(dirfd, at) {
                    self.trace.record(
                        p,
                        Access {
                            probed: true,
                            ..Access::default()
                        },
                    );
                }
                return false;
            }
            Kind::Rename {
                old_dirfd,
                old,
                new_dirfd,
                new,
            } => match (path(old_dirfd, old), path(new_dirfd, new)) {
                (Some(a), Some(b)) => Pending::Rename(a, b),
                _ => return false,
            },
            Kind::Create { dirfd, path: at } => match path(dirfd, at) {
                Some(p) => Pending::Create(p),
                None => return false,
            },
            Kind::Remove { dirfd, path: at } => match path(dirfd, at) {
                Some(p) => Pending::Remove(p),
                None => return false,
            },
            Kind::Truncate { path: at } => match path(None, at) {
                Some(p) => Pending::Truncate(p),
                None => return false,
            },
            Kind::Chdir => return false,
            Kind::IoUring => {
                self.incomplete(
                    "io_uring",
                    "the trace is incomplete: a process set up io_uring, whose file accesses the tracer cannot see (--deny-io-uring makes it fall back to ordinary system calls)",
                );
                return false;
            }
        };
        self.pending.insert(pid, pending);
        true
    }

    /// A syscall-exit stop: the call's outcome decides what it did.
    fn exit(&mut self, pid: libc::pid_t) {
        let Some(pending) = self.pending.remove(&pid) else {
            return;
        };
        if let Pending::Chdir = pending {
            self.cwd.clear();
            return;
        }
        let ok = match syscall_info(pid) {
            Some(info) if info.op == OP_EXIT => info.data[1] as u8 == 0,
            _ => return,
        };
        let access = |f: fn(&mut Access)| {
            let mut a = Access::default();
            f(&mut a);
            a
        };
        let probed = access(|a| a.probed = true);
        match pending {
            Pending::Open {
                path,
                flags,
                existed,
            } => {
                let mut a = Access::default();
                if !ok || flags & libc::O_PATH != 0 {
                    a.probed = true;
                } else {
                    let mode = flags & libc::O_ACCMODE;
                    a.read = mode == libc::O_RDONLY || mode == libc::O_RDWR;
                    a.written = mode != libc::O_RDONLY
                        || flags & (libc::O_CREAT | libc::O_TRUNC | libc::O_APPEND) != 0;
                    a.created = !existed;
                }
                self.trace.record(path, a);
            }
            Pending::Exec(path) => self.trace.record(
                path,
                if ok {
                    access(|a| a.executed = true)
                } else {
                    probed
                },
            ),
            Pending::Rename(old, new) if ok => {
                self.trace.record(old, access(|a| a.removed = true));
                self.trace.record(
                    new,
                    access(|a| {
                        a.created = true;
                        a.written = true
                    }),
                );
            }
            Pending::Create(path) if ok => self.trace.record(path, access(|a| a.created = true)),
            Pending::Remove(path) if ok => self.trace.record(path, access(|a| a.removed = true)),
            Pending::Truncate(path) if ok => self.trace.record(path, access(|a| a.written = true)),
            _ => {}
        }
    }
}

/// The most of a command's output kept when it is captured: its end.
const OUTPUT_TAIL: usize = 64 * 1024;

/// Waits for `pid`'s next change of state.
fn wait(pid: libc::pid_t) -> libc::c_int {
    let mut status = 0;
    // SAFETY: waiting for our own child.
    while unsafe { libc::waitpid(pid, &mut status, libc::__WALL | libc::__WNOTHREAD) } < 0 {
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    status
}

fn syscall_info(pid: libc::pid_t) -> Option<SyscallInfo> {
    let mut info = SyscallInfo::default();
    // SAFETY: the kernel writes at most the given size into `info`.
    let n = unsafe {
        libc::ptrace(
            libc::PTRACE_GET_SYSCALL_INFO,
            pid,
            std::mem::size_of::<SyscallInfo>(),
            &mut info as *mut SyscallInfo,
        )
    };
    (n > 0).then_some(info)
}

/// Reads `len` bytes at `address` of `pid`'s memory (fewer at an unmapped page).
fn read_memory(pid: libc::pid_t, address: u64, buffer: &mut [u8]) -> usize {
    let local = libc::iovec {
        iov_base: buffer.as_mut_ptr().cast(),
        iov_len: buffer.len(),
    };
    let remote = libc::iovec {
        iov_base: address as *mut libc::c_void,
        iov_len: buffer.len(),
    };
    // SAFETY: reads into our own buffer of the given length.
    let n = unsafe { libc::process_vm_readv(pid, &local, 1, &remote, 1, 0) };
    usize::try_from(n).unwrap_or(0)
}

/// The NUL-terminated string at `address` in `pid`'s memory (at most `PATH_MAX` bytes).
fn read_string(pid: libc::pid_t, address: u64) -> Option<OsString> {
    if address == 0 {
        return None;
    }
    let mut out = Vec::new();
    let mut at = address;
    while out.len() < libc::PATH_MAX as usize {
        // Up to the end of the page, so a string near an unmapped page is still read.
        let room = (4096 - (at % 4096) as usize).min(512);
        let mut buffer = [0u8; 512];
        let chunk = &mut buffer[..room];
        let n = read_memory(pid, at, chunk);
        if n == 0 {
            return None;
        }
        if let Some(end) = chunk[..n].iter().position(|&b| b == 0) {
            out.extend_from_slice(&chunk[..end]);
            return Some(OsString::from_vec(out));
        }
        out.extend_from_slice(&chunk[..n]);
        at += n as u64;
    }
    None
}

fn read_u64(pid: libc::pid_t, address: u64) -> Option<u64> {
    let mut b = [0u8; 8];
    (read_memory(pid, address, &mut b) == 8).then(|| u64::from_ne_bytes(b))
}

/// The absolute path `raw` names for `pid`: relative to its working directory (remembered in
/// `cwd`), or to the directory `dirfd` refers to, read from `/proc` at this moment. `.` and
/// `..` are folded lexically.
fn resolve(
    pid: libc::pid_t,
    dirfd: Option<i32>,
    raw: OsString,
    cwd: &mut HashMap<libc::pid_t, PathBuf>,
) -> Option<PathBuf> {
    let raw = PathBuf::from(raw);
    let full = if raw.is_absolute() {
        raw
    } else {
        let base = match dirfd {
            None | Some(libc::AT_FDCWD) => match cwd.get(&pid) {
                Some(dir) => dir.clone(),
                None => {
                    let dir = std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?;
                    cwd.insert(pid, dir.clone());
                    dir
                }
            },
            Some(fd) => std::fs::read_link(format!("/proc/{pid}/fd/{fd}")).ok()?,
        };
        if raw.as_os_str().is_empty() {
            base
        } else {
            base.join(raw)
        }
    };
    let mut out = PathBuf::from("/");
    for part in full.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(p) => out.push(p),
            _ => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_folded_lexically() {
        let me = std::process::id() as libc::pid_t;
        let cwd = std::env::current_dir().unwrap();
        let mut cache = HashMap::new();
        assert_eq!(
            resolve(me, None, "a/./b/../c".into(), &mut cache),
            Some(cwd.join("a/c"))
        );
        assert_eq!(
            cache.get(&me),
            Some(&cwd),
            "the working directory is remembered"
        );
        assert_eq!(
            resolve(me, Some(-1), "/x/../y".into(), &mut cache),
            Some(PathBuf::from("/y"))
        );
        assert_eq!(resolve(me, Some(987_654), "rel".into(), &mut cache), None);
    }
}
