//! Fault injection for the tests: named points at every step of the commit protocol, the
//! rerun's move-aside and restore, and the command's start.
//!
//! Compiled in only with the `failpoints` cargo feature (the crash-safety tests build such a
//! binary themselves); otherwise [`failpoint`] is an empty inline function.
//!
//! With the feature, environment variables control it:
//! - `SCIPROOF_FAILPOINT_LOG=FILE`: every point reached is appended to `FILE`, one name a line
//!   (how the tests enumerate the points of an operation);
//! - `SCIPROOF_FAILPOINT=NAME` (or `NAME#N` for the N-th time it is reached, from 1) and
//!   `SCIPROOF_FAILPOINT_ACTION`: `abort` (the process aborts there), `kill` (it sends itself
//!   SIGKILL), or `pause` (it creates the file named by `SCIPROOF_FAILPOINT_PAUSED` and waits
//!   there until a termination signal is pending, so a test can signal or kill it from outside
//!   at exactly that step).

/// Marks a step of the protocol. Does nothing unless built with the `failpoints` feature.
#[cfg(not(feature = "failpoints"))]
#[inline(always)]
pub fn failpoint(_name: &str) {}

/// Marks a step of the protocol (see the module documentation).
#[cfg(feature = "failpoints")]
pub fn failpoint(name: &str) {
    use std::io::Write;
    use std::sync::Mutex;
    static HITS: Mutex<Vec<(String, usize)>> = Mutex::new(Vec::new());
    if let Some(log) = std::env::var_os("SCIPROOF_FAILPOINT_LOG") {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            let _ = writeln!(f, "{name}");
        }
    }
    let Ok(target) = std::env::var("SCIPROOF_FAILPOINT") else {
        return;
    };
    let (wanted, nth) = match target.split_once('#') {
        Some((n, k)) => (n.to_string(), k.parse::<usize>().unwrap_or(1)),
        None => (target.clone(), 1),
    };
    if wanted != name {
        return;
    }
    let count = {
        let mut hits = HITS.lock().unwrap_or_else(|p| p.into_inner());
        match hits.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => {
                *c += 1;
                *c
            }
            None => {
                hits.push((name.to_string(), 1));
                1
            }
        }
    };
    if count != nth {
        return;
    }
    match std::env::var("SCIPROOF_FAILPOINT_ACTION").as_deref() {
        Ok("kill") => {
            // SAFETY: sends SIGKILL to this process.
            unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
        }
        Ok("pause") => {
            if let Some(marker) = std::env::var_os("SCIPROOF_FAILPOINT_PAUSED") {
                let _ = std::fs::write(marker, name);
            }
            while crate::interrupt::pending().is_none() {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
        _ => std::process::abort(),
    }
}
