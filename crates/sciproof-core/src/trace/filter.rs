//! The seccomp-BPF filter of a traced command: stop (`SECCOMP_RET_TRACE`) at the system calls
//! of [`super::syscalls::table`] and at every system call of another ABI (32-bit x86 or x32 on
//! x86_64, so they are reported, never missed), let everything else run, and optionally refuse
//! `io_uring_setup` with `ENOSYS`.
//!
//! Written here rather than with a filter crate because those stop a foreign-architecture
//! system call by killing the process, where the tracer must see it to say the trace is
//! incomplete. The program is a straight list of comparisons, at most a few dozen instructions.

use super::syscalls::{Kind, NATIVE_ARCH, X32_BIT, table};

const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K: u16 = 0x06; // BPF_RET | BPF_K

/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;

/// What the filter answers.
const TRACE: u32 = 0x7ff0_0000; // SECCOMP_RET_TRACE
const ALLOW: u32 = 0x7fff_0000; // SECCOMP_RET_ALLOW
const ERRNO: u32 = 0x0005_0000; // SECCOMP_RET_ERRNO

/// One BPF instruction (`struct sock_filter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Instruction {
    /// The operation.
    pub code: u16,
    /// Instructions to skip when a comparison holds.
    pub jt: u8,
    /// Instructions to skip when it does not.
    pub jf: u8,
    /// The constant.
    pub k: u32,
}

const fn op(code: u16, jt: u8, jf: u8, k: u32) -> Instruction {
    Instruction { code, jt, jf, k }
}

/// The filter's program (the stat family only with `probes`).
pub fn program(deny_io_uring: bool, probes: bool) -> Vec<Instruction> {
    let calls = table(probes);
    // Layout: [load arch, arch check, load nr, (x32 check), one JEQ per call, ALLOW, TRACE, ERRNO]
    let x32 = cfg!(target_arch = "x86_64");
    let first_call = 3 + usize::from(x32);
    let allow = first_call + calls.len();
    let (trace, errno) = (allow + 1, allow + 2);
    let skip = |from: usize, to: usize| (to - from - 1) as u8;
    let mut p = vec![
        op(LD_W_ABS, 0, 0, ARCH),
        op(JEQ_K, 0, skip(1, trace), NATIVE_ARCH),
        op(LD_W_ABS, 0, 0, NR),
    ];
    if x32 {
        p.push(op(JGE_K, skip(3, trace), 0, X32_BIT));
    }
    for (i, (nr, kind)) in calls.iter().enumerate() {
        let at = first_call + i;
        let target = if deny_io_uring && *kind == Kind::IoUring {
            errno
        } else {
            trace
        };
        p.push(op(JEQ_K, skip(at, target), 0, *nr as u32));
    }
    p.push(op(RET_K, 0, 0, ALLOW));
    p.push(op(RET_K, 0, 0, TRACE));
    p.push(op(RET_K, 0, 0, ERRNO | libc::ENOSYS as u32));
    assert!(p.len() < 256, "every jump fits in a byte");
    p
}

/// Installs `program` on the calling thread (inherited by its children and kept across exec).
/// Sets `no_new_privs` first, as an unprivileged filter requires: a set-user-ID program run by
/// the command does not gain privileges.
///
/// # Safety
/// Async-signal-safe (two system calls): callable between `fork` and `exec`. Returns the
/// `errno` of a failure.
pub unsafe fn install(program: &[Instruction]) -> Result<(), libc::c_int> {
    let fprog = libc::sock_fprog {
        len: program.len() as libc::c_ushort,
        filter: program.as_ptr() as *mut libc::sock_filter,
    };
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(*libc::__errno_location());
        }
        if libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &fprog as *const libc::sock_fprog,
        ) != 0
        {
            return Err(*libc::__errno_location());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `program` on a system call as the kernel would.
    fn run(program: &[Instruction], arch: u32, nr: u32) -> u32 {
        let (mut pc, mut acc) = (0usize, 0u32);
        loop {
            let i = program[pc];
            pc += 1;
            match i.code {
                LD_W_ABS => acc = if i.k == ARCH { arch } else { nr },
                JEQ_K => pc += usize::from(if acc == i.k { i.jt } else { i.jf }),
                JGE_K => pc += usize::from(if acc >= i.k { i.jt } else { i.jf }),
                RET_K => return i.k,
                c => panic!("unexpected instruction {c:#x}"),
            }
        }
    }

    #[test]
    fn stops_only_at_file_calls_and_at_foreign_ones() {
        let p = program(false, true);
        for (nr, _) in table(true) {
            assert_eq!(run(&p, NATIVE_ARCH, nr as u32), TRACE, "{nr}");
        }
        assert_eq!(run(&p, NATIVE_ARCH, libc::SYS_read as u32), ALLOW);
        assert_eq!(run(&p, NATIVE_ARCH, libc::SYS_write as u32), ALLOW);
        assert_eq!(run(&p, NATIVE_ARCH, libc::SYS_mmap as u32), ALLOW);
        // Without probes, a stat runs unstopped; an open is still stopped at.
        let quick = program(false, false);
        assert_eq!(run(&quick, NATIVE_ARCH, libc::SYS_newfstatat as u32), ALLOW);
        assert_eq!(run(&quick, NATIVE_ARCH, libc::SYS_openat as u32), TRACE);
        // 32-bit x86 (AUDIT_ARCH_I386) and x32 calls are stopped, to be reported.
        assert_eq!(run(&p, 0x4000_0003, 5), TRACE);
        if cfg!(target_arch = "x86_64") {
            assert_eq!(run(&p, NATIVE_ARCH, X32_BIT | 2), TRACE);
        }
        let io = libc::SYS_io_uring_setup as u32;
        assert_eq!(run(&p, NATIVE_ARCH, io), TRACE);
        assert_eq!(
            run(&program(true, true), NATIVE_ARCH, io),
            ERRNO | libc::ENOSYS as u32
        );
    }
}
