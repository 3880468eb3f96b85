//! Probing the environment at capture and rerun time: platform, allow-listed variables, the
//! Python interpreter of the command, hardware, and Git state.
//!
//! Only an explicit allowlist of environment variables is ever recorded, and no absolute path,
//! host name, user name or remote URL.

pub mod git;
pub mod hardware;
pub mod python;

use crate::json::Object;

/// Variables that influence numerical or locale behaviour and are not secret, in record order.
pub const ENV_ALLOWLIST: [&str; 9] = [
    "PYTHONHASHSEED",
    "TZ",
    "LANG",
    "LC_ALL",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "CUDA_VISIBLE_DEVICES",
];

/// The allow-listed variables that are set, with their values, in allowlist order.
pub fn selected_env_vars() -> Object {
    let mut o = Object::new();
    for name in ENV_ALLOWLIST {
        if let Some(value) = std::env::var_os(name) {
            o.insert(name, value.to_string_lossy().into_owned());
        }
    }
    o
}

fn uname() -> (String, String, String) {
    // SAFETY: `uname` fills the zeroed struct; the fields are NUL-terminated C strings.
    unsafe {
        let mut buf: libc::utsname = std::mem::zeroed();
        if libc::uname(&mut buf) != 0 {
            return (
                std::env::consts::OS.into(),
                String::new(),
                std::env::consts::ARCH.into(),
            );
        }
        let field = |f: &[libc::c_char]| {
            std::ffi::CStr::from_ptr(f.as_ptr())
                .to_string_lossy()
                .into_owned()
        };
        (
            field(&buf.sysname),
            field(&buf.release),
            field(&buf.machine),
        )
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn libc_suffix() -> String {
    unsafe extern "C" {
        fn gnu_get_libc_version() -> *const libc::c_char;
    }
    // SAFETY: glibc returns a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(gnu_get_libc_version()) };
    format!("-with-glibc{}", version.to_string_lossy())
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn libc_suffix() -> String {
    String::new()
}

/// `{"system", "release", "machine", "platform"}` as Python's `platform` module reports them
/// (`Linux`, `6.18.44-...`, `x86_64`, `Linux-6.18.44-...-x86_64-with-glibc2.36`).
pub fn platform_info() -> Object {
    let (system, release, machine) = uname();
    let platform = format!("{system}-{release}-{machine}{}", libc_suffix());
    Object::new()
        .with("system", system)
        .with("release", release)
        .with("machine", machine)
        .with("platform", platform)
}
/// The executable `name` would run as from this process's working directory (see
/// [`which_from`]).
pub(crate) fn which(name: &str) -> Option<std::path::PathBuf> {
    which_from(name, &std::env::current_dir().ok()?)
}

/// The executable `name` would run as for a process in `cwd`, as `execvp` finds it: itself
/// (relative to `cwd`) when it contains a `/` and exists, else the first executable file of
/// that name in a folder of `PATH` (`/usr/bin:/bin` when unset; relative folders taken from
/// `cwd`).
pub(crate) fn which_from(name: &str, cwd: &std::path::Path) -> Option<std::path::PathBuf> {
    if name.contains('/') {
        let p = cwd.join(name);
        return p.exists().then_some(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    std::env::split_paths(&path)
        .map(|d| cwd.join(d).join(name))
        .find(|p| {
            use std::os::unix::fs::PermissionsExt;
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}
