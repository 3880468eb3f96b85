//! The system calls the tracer stops at, and how each one's arguments are read: one table per
//! architecture (x86_64, aarch64), built from the C library's numbers for the target. aarch64
//! has only the `*at` forms; x86_64 also has the old path-only calls, which programs (and
//! static binaries in particular) still use.

/// How to read a system call's arguments. The numbers are argument positions (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `open`, `openat`, `creat`, `openat2`: a file opened.
    Open {
        /// The directory descriptor argument, if any (`None`: relative to the cwd).
        dirfd: Option<usize>,
        /// The path argument.
        path: usize,
        /// Where the open flags are.
        flags: Flags,
    },
    /// `execve`, `execveat`: a program run.
    Exec {
        /// See [`Kind::Open`].
        dirfd: Option<usize>,
        /// See [`Kind::Open`].
        path: usize,
    },
    /// The `stat` family, `statx`, `access`, `faccessat(2)`, `readlink(at)`: looked at only.
    Probe {
        /// See [`Kind::Open`].
        dirfd: Option<usize>,
        /// See [`Kind::Open`].
        path: usize,
    },
    /// `rename`, `renameat`, `renameat2`: the old path removed, the new one created.
    Rename {
        /// The old path's directory descriptor argument.
        old_dirfd: Option<usize>,
        /// The old path.
        old: usize,
        /// The new path's directory descriptor argument.
        new_dirfd: Option<usize>,
        /// The new path.
        new: usize,
    },
    /// `link`, `linkat`, `symlink`, `symlinkat`, `mkdir`, `mkdirat`: a new name made.
    Create {
        /// See [`Kind::Open`].
        dirfd: Option<usize>,
        /// The new path.
        path: usize,
    },
    /// `unlink`, `unlinkat`, `rmdir`: a name removed.
    Remove {
        /// See [`Kind::Open`].
        dirfd: Option<usize>,
        /// See [`Kind::Open`].
        path: usize,
    },
    /// `truncate`: a file written.
    Truncate {
        /// See [`Kind::Open`].
        path: usize,
    },
    /// `io_uring_setup`: file access the tracer cannot see may follow.
    IoUring,
    /// `chdir`, `fchdir`: the working directories the tracer remembers are forgotten.
    Chdir,
}

impl Kind {
    /// Whether the call only looks at a file (needed only when probes are asked for).
    pub fn is_probe(&self) -> bool {
        matches!(self, Kind::Probe { .. })
    }
}

/// Where an open's flags are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flags {
    /// In this argument.
    Arg(usize),
    /// In the first field of the `struct open_how` this argument points to (`openat2`).
    How(usize),
    /// Implied: `creat` is `O_CREAT | O_WRONLY | O_TRUNC`.
    Creat,
}

/// The system calls to stop at, by number, for the target architecture; the `stat` family and
/// the like only with `probes` (a file only looked at is never an input nor an output, so the
/// commands that look for those leave them out and the command runs faster).
pub fn table(probes: bool) -> Vec<(i64, Kind)> {
    use Kind::*;
    let at = Some(0);
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut t: Vec<(libc::c_long, Kind)> = vec![
        (
            libc::SYS_openat,
            Open {
                dirfd: at,
                path: 1,
                flags: Flags::Arg(2),
            },
        ),
        (
            libc::SYS_openat2,
            Open {
                dirfd: at,
                path: 1,
                flags: Flags::How(2),
            },
        ),
        (
            libc::SYS_execve,
            Exec {
                dirfd: None,
                path: 0,
            },
        ),
        (libc::SYS_execveat, Exec { dirfd: at, path: 1 }),
        (libc::SYS_newfstatat, Probe { dirfd: at, path: 1 }),
        (libc::SYS_statx, Probe { dirfd: at, path: 1 }),
        (libc::SYS_faccessat, Probe { dirfd: at, path: 1 }),
        (libc::SYS_faccessat2, Probe { dirfd: at, path: 1 }),
        (libc::SYS_readlinkat, Probe { dirfd: at, path: 1 }),
        (
            libc::SYS_renameat,
            Rename {
                old_dirfd: at,
                old: 1,
                new_dirfd: Some(2),
                new: 3,
            },
        ),
        (
            libc::SYS_renameat2,
            Rename {
                old_dirfd: at,
                old: 1,
                new_dirfd: Some(2),
                new: 3,
            },
        ),
        (
            libc::SYS_linkat,
            Create {
                dirfd: Some(2),
                path: 3,
            },
        ),
        (
            libc::SYS_symlinkat,
            Create {
                dirfd: Some(1),
                path: 2,
            },
        ),
        (libc::SYS_mkdirat, Create { dirfd: at, path: 1 }),
        (libc::SYS_unlinkat, Remove { dirfd: at, path: 1 }),
        (libc::SYS_truncate, Truncate { path: 0 }),
        (libc::SYS_io_uring_setup, IoUring),
        (libc::SYS_chdir, Chdir),
        (libc::SYS_fchdir, Chdir),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        let cwd = None;
        t.extend([
            (
                libc::SYS_open,
                Open {
                    dirfd: cwd,
                    path: 0,
                    flags: Flags::Arg(1),
                },
            ),
            (
                libc::SYS_creat,
                Open {
                    dirfd: cwd,
                    path: 0,
                    flags: Flags::Creat,
                },
            ),
            (
                libc::SYS_stat,
                Probe {
                    dirfd: cwd,
                    path: 0,
                },
            ),
            (
                libc::SYS_lstat,
                Probe {
                    dirfd: cwd,
                    path: 0,
                },
            ),
            (
                libc::SYS_access,
                Probe {
                    dirfd: cwd,
                    path: 0,
                },
            ),
            (
                libc::SYS_readlink,
                Probe {
                    dirfd: cwd,
                    path: 0,
                },
            ),
            (
                libc::SYS_rename,
                Rename {
                    old_dirfd: cwd,
                    old: 0,
                    new_dirfd: cwd,
                    new: 1,
                },
            ),
            (
                libc::SYS_link,
                Create {
                    dirfd: cwd,
                    path: 1,
                },
            ),
            (
                libc::SYS_symlink,
                Create {
                    dirfd: cwd,
                    path: 1,
                },
            ),
            (
                libc::SYS_mkdir,
                Create {
                    dirfd: cwd,
                    path: 0,
                },
            ),
            (
                libc::SYS_unlink,
                Remove {
                    dirfd: cwd,
                    path: 0,
                },
            ),
            (
                libc::SYS_rmdir,
                Remove {
                    dirfd: cwd,
                    path: 0,
                },
            ),
        ]);
    }
    // `c_long` is `i64` on every target with these tables; the cast keeps other targets building.
    #[allow(clippy::unnecessary_cast)]
    t.into_iter()
        .filter(|(_, k)| probes || !k.is_probe())
        .map(|(nr, k)| (nr as i64, k))
        .collect()
}

/// The audit architecture of the target's native system calls (`AUDIT_ARCH_*`).
pub const NATIVE_ARCH: u32 = if cfg!(target_arch = "x86_64") {
    0xc000_003e // AUDIT_ARCH_X86_64
} else if cfg!(target_arch = "aarch64") {
    0xc000_00b7 // AUDIT_ARCH_AARCH64
} else {
    0
};

/// On x86_64, system call numbers with this bit are the x32 ABI's, which are not decoded.
pub const X32_BIT: u32 = 0x4000_0000;

#[cfg(test)]
mod tests {
    #[test]
    fn each_number_once() {
        let t = super::table(true);
        assert!(super::table(false).len() < t.len());
        let mut numbers: Vec<i64> = t.iter().map(|(n, _)| *n).collect();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), t.len());
    }
}
