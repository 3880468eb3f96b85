//! Processes a command leaves behind in a session (or group) of their own.
//!
//! A command runs in a process group that is killed whole when it ends (see [`crate::runner`]).
//! A process that leaves that group first — `setsid`, a daemon that double-forks, a build
//! tool's background server — would survive it and could write over an output after the
//! originals were put back. While a command runs, this process is therefore a *child
//! subreaper* (`PR_SET_CHILD_SUBREAPER`): a process orphaned below it becomes its child instead
//! of init's, and when the command's group is killed, every child that is neither in this
//! process's own group nor in the group of a command still running here is killed and reaped,
//! round after round, until none is left (killing one hands its own children to us).
//!
//! Only what was orphaned while a command ran is caught: if sciproof itself is killed with
//! SIGKILL, such a process is handed to init as before.
//!
//! For a program that uses this library: while a command runs, any child of the program that
//! it put in a process group of its own (not through [`crate::runner::ProcessGroup`]) is taken
//! for such an orphan and killed when the command ends. The sciproof binary starts no such
//! child.

use std::sync::Mutex;

/// The process groups of the commands running here, and how many there are (the subreaper
/// flag is on while there is one).
static RUNNING: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Starts catching the orphans of the command about to run in `group`.
pub fn catch(group: libc::pid_t) {
    let mut running = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
    if running.is_empty() {
        // SAFETY: prctl with integer arguments.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    }
    running.push(group);
}

/// The command of `group` has ended and its group was killed: kills and reaps every orphan
/// that is no one else's (see the module documentation), then stops catching for it.
pub fn release(group: libc::pid_t) {
    let mut running = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
    running.retain(|g| *g != group);
    sweep(&running);
    if running.is_empty() {
        // SAFETY: prctl with integer arguments.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) };
    }
}

/// Kills and reaps the children of this process outside its own group and outside `spared`.
fn sweep(spared: &[libc::pid_t]) {
    // SAFETY: getpgrp has no arguments and cannot fail.
    let own = unsafe { libc::getpgrp() };
    // Each round kills at least one process; a bound keeps a broken /proc from looping.
    for _ in 0..100_000 {
        let strays: Vec<libc::pid_t> = children()
            .into_iter()
            .filter(|&(_, group)| group != own && !spared.contains(&group))
            .map(|(pid, _)| pid)
            .collect();
        if strays.is_empty() {
            return;
        }
        for pid in strays {
            // SAFETY: `pid` is our own unreaped child, so the ID cannot be anyone else's.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                let mut status = 0;
                while libc::waitpid(pid, &mut status, 0) < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                }
            }
        }
    }
}

/// Every child of this process (of any of its threads), with its process group.
fn children() -> Vec<(libc::pid_t, libc::pid_t)> {
    let mut pids: Vec<libc::pid_t> = Vec::new();
    let tasks = std::fs::read_dir("/proc/self/task").into_iter().flatten();
    let mut listed = false;
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            listed = true;
            pids.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<libc::pid_t>().ok()),
            );
        }
    }
    if !listed {
        // A kernel without CONFIG_PROC_CHILDREN: every process whose parent is this one.
        // SAFETY: getpid has no arguments and cannot fail.
        let me = unsafe { libc::getpid() };
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            if let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok())
                && stat_of(pid).is_some_and(|(parent, _)| parent == me)
            {
                pids.push(pid);
            }
        }
    }
    pids.into_iter()
        .filter_map(|pid| stat_of(pid).map(|(_, group)| (pid, group)))
        .collect()
}

/// The parent and the process group of `pid`, from `/proc/PID/stat` (read after the command
/// name, which may hold spaces and parentheses).
fn stat_of(pid: libc::pid_t) -> Option<(libc::pid_t, libc::pid_t)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

fn parse_stat(text: &str) -> Option<(libc::pid_t, libc::pid_t)> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let _state = fields.next()?;
    let parent = fields.next()?.parse().ok()?;
    let group = fields.next()?.parse().ok()?;
    Some((parent, group))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stat_line_is_read_after_the_command_name() {
        assert_eq!(
            parse_stat("4242 (a) b (c)) S 17 4242 4242 0 -1 4194560 ..."),
            Some((17, 4242))
        );
        assert_eq!(parse_stat("4242 (sh) Z 1 99 99"), Some((1, 99)));
        assert_eq!(parse_stat("garbage"), None);
    }
}
