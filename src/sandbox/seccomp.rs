//! The seccomp filters a sandboxed server runs under (issue 42 points 1 and 2): what Landlock
//! cannot close on the kernels CI runs on.
//!
//! - **UNIX sockets.** Landlock governs connecting to a pathname UNIX socket only from ABI 9
//!   (Linux 7.1); before that a server that keeps toolgate's uid or groups reaches every
//!   socket that user can (on a GitHub-hosted runner `/var/run/docker.sock`: root on the
//!   runner). `socket(AF_UNIX, …)` fails with EACCES, so no UNIX socket can be connected or
//!   bound, pathname or abstract. `socketpair` (a pipe between a server's own processes) is
//!   left alone.
//! - **io_uring** creates sockets and opens files without the system calls above: its setup
//!   fails with ENOSYS, as on a kernel without it (runtimes fall back to threads).
//! - **Opening files by handle** (`open_by_handle_at`), which the read capability a root
//!   toolgate leaves the server would allow around every path, fails with EPERM.
//!
//! - **Dangerous modes.** A server that keeps toolgate's uid (toolgate not root, or
//!   `--sandbox-uid 0`) may chmod what toolgate owns: npm and uv set the modes of what they
//!   unpack, and seccomp cannot tell a path. Setting set-user-ID, set-group-ID, sticky or
//!   group/other write fails with EPERM; other modes are allowed, and the modes of reviewed
//!   files and the GitHub command files are checked after each session (see `fsio`).
//!
//! The filters are built by the parent and installed by the child between fork and exec.

use std::collections::BTreeMap;

use anyhow::Context;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The x32 ABI's system-call numbers are the x86-64 ones with this bit set: a filter that
/// names only the plain numbers would let them through.
#[cfg(target_arch = "x86_64")]
const X32: i64 = 0x4000_0000;

/// Filters to install, in order.
pub(crate) struct Filters(Vec<BpfProgram>);

impl Filters {
    /// In the child: installs every filter (sets no_new_privs first). System calls only.
    pub(crate) fn install(&self) -> std::io::Result<()> {
        for prog in &self.0 {
            // The errno of the failed call (nothing formatted between fork and exec).
            seccompiler::apply_filter(prog).map_err(|_| std::io::Error::last_os_error())?;
        }
        Ok(())
    }
}

fn arch() -> Option<TargetArch> {
    #[cfg(target_arch = "x86_64")]
    return Some(TargetArch::x86_64);
    #[cfg(target_arch = "aarch64")]
    return Some(TargetArch::aarch64);
    #[cfg(target_arch = "riscv64")]
    return Some(TargetArch::riscv64);
    #[allow(unreachable_code)]
    None
}

/// Each number, and on x86-64 its x32 twin.
#[allow(clippy::useless_conversion)] // c_long is i64 only on 64-bit targets
fn with_x32(nrs: &[libc::c_long]) -> Vec<i64> {
    let mut all: Vec<i64> = nrs.iter().map(|n| i64::from(*n)).collect();
    #[cfg(target_arch = "x86_64")]
    all.extend(nrs.iter().map(|n| i64::from(*n) | X32));
    all
}

fn filter(
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    action: SeccompAction,
    arch: TargetArch,
) -> anyhow::Result<BpfProgram> {
    let f = SeccompFilter::new(rules, SeccompAction::Allow, action, arch)?;
    Ok(f.try_into()?)
}

/// Whether this kernel filters system calls at all.
pub(crate) fn available() -> bool {
    // SAFETY: PR_GET_SECCOMP only reads this process's mode (EINVAL without seccomp).
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}

/// Builds the filters: sockets and io_uring always; permission changes when the server shares
/// toolgate's uid. `None`: this architecture has no filter here.
pub(crate) fn build(read_cap: bool, shares_uid: bool) -> anyhow::Result<Option<Filters>> {
    let Some(arch) = arch() else {
        return Ok(None);
    };
    let mut progs = Vec::new();

    let unix_only = SeccompRule::new(vec![SeccompCondition::new(
        0,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::Eq,
        libc::AF_UNIX as u64,
    )?])?;
    let sockets: BTreeMap<i64, Vec<SeccompRule>> = with_x32(&[libc::SYS_socket])
        .into_iter()
        .map(|nr| (nr, vec![unix_only.clone()]))
        .collect();
    progs.push(filter(
        sockets,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )?);

    let uring = with_x32(&[
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
    ]);
    progs.push(filter(
        uring.into_iter().map(|nr| (nr, Vec::new())).collect(),
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )?);

    if read_cap {
        // CAP_DAC_READ_SEARCH also opens files by handle, around every path: not here.
        progs.push(filter(
            with_x32(&[libc::SYS_open_by_handle_at, libc::SYS_name_to_handle_at])
                .into_iter()
                .map(|nr| (nr, Vec::new()))
                .collect(),
            SeccompAction::Errno(libc::EPERM as u32),
            arch,
        )?);
    }
    if shares_uid {
        progs.push(filter(
            dangerous_modes()?,
            SeccompAction::Errno(libc::EPERM as u32),
            arch,
        )?);
    }
    Ok(Some(Filters(progs)))
}

/// The mode bits a server that keeps toolgate's uid may not set on what toolgate owns:
/// set-user-ID, set-group-ID, sticky, and write for group or others (a setuid root binary or a
/// world-writable /etc/shadow after the run). npm and uv set 0755 and 0644.
const DANGEROUS_BITS: [u64; 5] = [0o4000, 0o2000, 0o1000, 0o020, 0o002];

/// chmod and its kin, each with the index of its mode argument, matched when any dangerous
/// bit is set.
fn dangerous_modes() -> anyhow::Result<BTreeMap<i64, Vec<SeccompRule>>> {
    let mut calls: Vec<(libc::c_long, u8)> = vec![
        (libc::SYS_fchmod, 1),
        (libc::SYS_fchmodat, 2),
        // fchmodat2 (Linux 6.6), by number.
        (452, 2),
    ];
    #[cfg(target_arch = "x86_64")]
    calls.push((libc::SYS_chmod, 1));
    let mut rules = BTreeMap::new();
    for (nr, arg) in calls {
        let per_bit = DANGEROUS_BITS
            .iter()
            .map(|bit| {
                Ok(SeccompRule::new(vec![SeccompCondition::new(
                    arg,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::MaskedEq(*bit),
                    *bit,
                )?])?)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        for n in with_x32(&[nr]) {
            rules.insert(n, per_bit.clone());
        }
    }
    Ok(rules)
}

/// Builds the filters or says why not.
pub(crate) fn prepare(read_cap: bool, shares_uid: bool) -> anyhow::Result<Option<Filters>> {
    if !available() {
        return Ok(None);
    }
    build(read_cap, shares_uid).context("could not build the seccomp filter")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_build_with_and_without_the_read_capability() {
        let Some(plain) = build(false, false).unwrap() else {
            return;
        };
        assert_eq!(plain.0.len(), 2);
        assert_eq!(build(true, false).unwrap().unwrap().0.len(), 3);
        assert_eq!(build(true, true).unwrap().unwrap().0.len(), 4);
        assert!(plain.0.iter().all(|p| !p.is_empty()));
    }
}
