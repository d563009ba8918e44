//! The Landlock half of the Linux sandbox: the ABI this kernel offers, and the ruleset the
//! parent builds for the child (writes beneath the private and --sandbox-write folders, reads
//! as `reads` plans them, network and scoping in strict mode).

use std::path::PathBuf;

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, Ruleset, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, Scope, path_beneath_rules,
};

/// The Landlock ABI this kernel offers (0: none).
pub(super) fn landlock_abi() -> i32 {
    // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only returns
    // the version.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    i32::try_from(v).unwrap_or(0).max(0)
}

/// Character devices any program writes to.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
];

pub(super) fn ruleset(
    writable: &[PathBuf],
    reads: &super::reads::Reads,
    strict: bool,
) -> anyhow::Result<RulesetCreated> {
    let write: BitFlags<AccessFs> = AccessFs::from_write(ABI::V10);
    let read: BitFlags<AccessFs> = AccessFs::from_read(ABI::V10);
    let mut rs = Ruleset::default().handle_access(write | read)?;
    let mut scope: BitFlags<Scope> = Scope::Signal.into();
    if strict {
        rs = rs.handle_access(AccessNet::from_all(ABI::V10))?;
        scope |= Scope::AbstractUnixSocket;
    }
    let rs = rs.scope(scope)?.create()?;
    let device = AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    Ok(rs
        .add_rules(path_beneath_rules(writable, write | read))?
        .add_rules(path_beneath_rules(&reads.full, read))?
        .add_rules(path_beneath_rules(&reads.list, AccessFs::ReadDir))?
        .add_rules(path_beneath_rules(super::reads::READ_DEVICES, read))?
        .add_rules(path_beneath_rules(DEVICES, device | read))?)
}
