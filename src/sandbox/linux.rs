//! The Linux sandbox: what the child does between fork and exec, and the Landlock ruleset
//! the parent builds for it (built before the fork, so the child only makes system calls).

use std::io;
use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::Context;
use landlock::RulesetCreated;

use super::landlock::{landlock_abi, ruleset};
use super::statement::statement;

use super::seccomp::Filters;
use super::warden::Warden;
use super::{DEFAULT_UID, Prepared, SandboxMode, SandboxOptions};

/// What the child applies to itself before it executes the server.
pub(crate) struct Plan {
    /// toolgate runs as root: the child holds every capability until it drops them.
    root: bool,
    /// The uid and gid the child takes (root only).
    uid: Option<u32>,
    /// Cut the network (`--sandbox strict`).
    strict: bool,
    /// Landlock's TCP rules stand in when no network namespace can be made.
    net_by_landlock: bool,
    /// The highest capability number this kernel knows.
    last_cap: u32,
    /// The Landlock ruleset (None when the kernel has no Landlock).
    ruleset: Option<RulesetCreated>,
    /// Start the server as the first process of a PID namespace, under a warden (None: the
    /// lifeline pipe could not be made).
    warden: Option<Warden>,
    /// The seccomp filters (None: this kernel or architecture has none).
    seccomp: Option<Filters>,
    /// Keep CAP_DAC_READ_SEARCH (ambient, so across exec) as the other uid: Landlock's read
    /// rules limit what it reads.
    read_cap: bool,
}

// Secure bits (linux/securebits.h): no privilege for uid 0 at exec, no ambient raise, and
// keep-caps off, each locked.
const SECBIT_NOROOT: libc::c_ulong = 1 << 0;
const SECBIT_NOROOT_LOCKED: libc::c_ulong = 1 << 1;
const SECBIT_KEEP_CAPS: libc::c_ulong = 1 << 4;
const SECBIT_KEEP_CAPS_LOCKED: libc::c_ulong = 1 << 5;
/// The capability to read any file and search any directory (capability.h).
const CAP_DAC_READ_SEARCH: u32 = 2;
const CAP_SETPCAP: u32 = 8;
const SECBIT_NO_CAP_AMBIENT_RAISE: libc::c_ulong = 1 << 6;
const SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED: libc::c_ulong = 1 << 7;

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

const CAP_VERSION_3: u32 = 0x2008_0522;

/// capset's data for capabilities 0–31 (`set` effective and permitted, `inheritable`); none
/// of 32–63.
fn caps(set: u32, inheritable: u32) -> [CapData; 2] {
    let none = CapData {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    };
    [
        CapData {
            effective: set,
            permitted: set,
            inheritable,
        },
        none,
    ]
}

/// `r` is 0, else the errno as an error. Between fork and exec nothing is formatted or
/// allocated; std hands the parent only the errno anyway (`what` names the step for readers).
fn check(r: libc::c_int, what: &str) -> io::Result<()> {
    let _ = what;
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

impl Plan {
    /// Runs in the child after fork: only system calls, no allocation or free on the way to
    /// exec (the caller forgets the plan instead of dropping it).
    fn enter(&mut self) -> io::Result<()> {
        // SAFETY: each call is a plain system call on the child's own process state.
        unsafe {
            let mut wanted = 0;
            if self.strict {
                wanted |= libc::CLONE_NEWNET;
            }
            // Root only: a PID namespace makes the kernel end all the server started. (A
            // user namespace would give one to others too, but toolgate's non-dumpable
            // memory keeps its id maps unwritable: the warden's subreaping does it there.)
            if self.root && self.warden.is_some() {
                wanted |= libc::CLONE_NEWPID;
            }
            let mut made = 0;
            if wanted != 0 {
                // Not root: a user namespace of our own gives the right to cut the network.
                let may = self.root || libc::unshare(libc::CLONE_NEWUSER) == 0;
                if may {
                    if libc::unshare(wanted) == 0 {
                        made = wanted;
                    } else if self.strict && libc::unshare(libc::CLONE_NEWNET) == 0 {
                        made = libc::CLONE_NEWNET;
                    }
                }
            }
            if self.strict && made & libc::CLONE_NEWNET == 0 && !self.net_by_landlock {
                return check(-1, "--sandbox strict could not cut the network");
            }
            if let Some(w) = &self.warden {
                // Returns in the server-to-be; the other process becomes its warden.
                w.split()?;
            }
            if self.root {
                // Keeping the read capability across the change of uid needs keep-caps and an
                // ambient raise; otherwise both are locked off.
                let bits = if self.read_cap {
                    SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_KEEP_CAPS
                } else {
                    SECBIT_NOROOT
                        | SECBIT_NOROOT_LOCKED
                        | SECBIT_KEEP_CAPS_LOCKED
                        | SECBIT_NO_CAP_AMBIENT_RAISE
                        | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED
                };
                check(
                    libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0),
                    "securebits",
                )?;
            }
            for cap in 0..=self.last_cap {
                if self.read_cap && cap == CAP_DAC_READ_SEARCH {
                    continue;
                }
                let r = libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong, 0, 0, 0);
                // Without CAP_SETPCAP (an unprivileged toolgate) there is nothing to drop.
                if r != 0 && self.root {
                    check(r, "dropping the capability bounding set")?;
                }
            }
            if self.root {
                // No supplementary group (docker, adm, …) stays, even with --sandbox-uid 0.
                check(libc::setgroups(0, std::ptr::null()), "setgroups")?;
            }
            if let Some(uid) = self.uid {
                check(libc::setresgid(uid, uid, uid), "setresgid")?;
                check(libc::setresuid(uid, uid, uid), "setresuid")?;
            }
            let header = CapHeader {
                version: CAP_VERSION_3,
                pid: 0,
            };
            let keep = if self.read_cap {
                1u32 << CAP_DAC_READ_SEARCH
            } else {
                0
            };
            // With the read capability, CAP_SETPCAP stays a moment longer: locking the secure
            // bits below needs it.
            let setpcap = if self.read_cap {
                1u32 << CAP_SETPCAP
            } else {
                0
            };
            let data = caps(keep | setpcap, keep);
            check(
                libc::syscall(libc::SYS_capset, &header, data.as_ptr()) as libc::c_int,
                "clearing capabilities",
            )?;
            // Old kernels have no ambient set (EINVAL): nothing to clear there.
            let _ = libc::prctl(
                libc::PR_CAP_AMBIENT,
                libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
                0,
                0,
                0,
            );
            if self.read_cap {
                check(
                    libc::prctl(
                        libc::PR_CAP_AMBIENT,
                        libc::PR_CAP_AMBIENT_RAISE as libc::c_ulong,
                        CAP_DAC_READ_SEARCH as libc::c_ulong,
                        0,
                        0,
                    ),
                    "keeping the read capability",
                )?;
                // No further raise, ever.
                check(
                    libc::prctl(
                        libc::PR_SET_SECUREBITS,
                        SECBIT_NOROOT
                            | SECBIT_NOROOT_LOCKED
                            | SECBIT_KEEP_CAPS_LOCKED
                            | SECBIT_NO_CAP_AMBIENT_RAISE
                            | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED,
                        0,
                        0,
                        0,
                    ),
                    "securebits",
                )?;
                let only_read = caps(keep, keep);
                check(
                    libc::syscall(libc::SYS_capset, &header, only_read.as_ptr()) as libc::c_int,
                    "keeping only the read capability",
                )?;
            }
            match self.ruleset.take() {
                // Sets no_new_privs, then restricts.
                Some(ruleset) => {
                    ruleset
                        .restrict_self()
                        .map_err(|_| io::Error::from_raw_os_error(libc::EPERM))?;
                }
                None => check(
                    libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
                    "no_new_privs",
                )?,
            }
            if let Some(filters) = &self.seccomp {
                filters.install()?;
            }
            if self.warden.is_some() {
                // Set last: a change of uid clears it. The warden is our parent now.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            }
        }
        Ok(())
    }
}

/// Makes the child enter `plan` between fork and exec.
pub(crate) fn install(cmd: &mut tokio::process::Command, plan: Plan) {
    let cell = Mutex::new(Some(plan));
    // SAFETY: the closure makes system calls only (see `Plan::enter`); the mutex lives in the
    // closure and no other thread of the child can hold it.
    unsafe {
        cmd.pre_exec(move || {
            let plan = cell.lock().ok().and_then(|mut p| p.take());
            match plan {
                Some(mut p) => {
                    let r = p.enter();
                    // Freed by exec, not by free(): no allocator call between fork and exec.
                    std::mem::forget(p);
                    r
                }
                None => Err(io::Error::from_raw_os_error(libc::EBUSY)),
            }
        });
    }
}

pub(super) fn prepare(
    opts: &SandboxOptions,
    launch: &super::reads::Launch,
) -> anyhow::Result<Prepared> {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let uid = root
        .then(|| opts.uid.unwrap_or(DEFAULT_UID))
        .filter(|u| *u != 0);
    let dir = tempfile::Builder::new()
        .prefix("toolgate-sandbox-")
        .tempdir()
        .context("could not create the server's sandbox directory")?;
    if let Some(u) = uid {
        std::os::unix::fs::chown(dir.path(), Some(u), Some(u))
            .with_context(|| format!("could not hand {} to uid {u}", dir.path().display()))?;
    }
    let strict = opts.mode == SandboxMode::Strict;
    let abi = landlock_abi();
    let mut writable = vec![dir.path().to_path_buf()];
    for w in &opts.write {
        let full = std::path::absolute(w).unwrap_or_else(|_| w.clone());
        if !full.exists() {
            anyhow::bail!("--sandbox-write {}: no such directory", w.display());
        }
        if let Some(u) = uid {
            super::uid::warn_unwritable(&full, u);
        }
        writable.push(full);
    }
    if strict && abi < 4 && !root && !super::kernel::userns_possible() {
        anyhow::bail!(
            "--sandbox strict cannot cut the network here: no user namespaces for a network \
             namespace, and Landlock ABI {abi} has no network rules (4 or later needed)"
        );
    }
    let extra: Vec<PathBuf> = opts
        .read
        .iter()
        .map(|r| std::path::absolute(r).unwrap_or_else(|_| r.clone()))
        .collect();
    for (flag, r) in opts.read.iter().zip(&extra) {
        if !r.exists() {
            anyhow::bail!(
                "--sandbox-read {}: no such file or directory",
                flag.display()
            );
        }
    }
    let reads = super::reads::plan(launch, &extra);
    let ruleset = if abi > 0 {
        Some(ruleset(&writable, &reads, strict).context("could not build the Landlock ruleset")?)
    } else {
        None
    };
    // A root toolgate runs the server as another uid, which cannot enter a toolchain under
    // root's 0700 home (pyenv, nvm, asdf): it keeps CAP_DAC_READ_SEARCH, and Landlock's read
    // rules (which apply whatever the capabilities) decide what it reads. Without Landlock it
    // gets no capability and reads what that uid may.
    let read_cap = uid.is_some() && ruleset.is_some();
    let warden = Warden::new();
    // The server keeps toolgate's uid: toolgate is not root, or was told --sandbox-uid 0.
    let shares_uid = uid.is_none();
    let seccomp = super::seccomp::prepare(read_cap, shares_uid)?;
    if seccomp.is_none() && abi < 9 && strict {
        anyhow::bail!(
            "--sandbox strict cannot close UNIX sockets here: this kernel filters no system \
             calls (seccomp) and its Landlock (ABI {abi}) governs UNIX sockets only from ABI 9"
        );
    }
    let mut statement = statement(opts.mode, uid, abi, &writable, root);
    if read_cap {
        statement = statement.replacen(
            "no capabilities",
            "no capability but CAP_DAC_READ_SEARCH (its reads are Landlock's to decide)",
            1,
        );
    }
    statement.push_str(if abi > 0 {
        ", reads only system folders, the workspace without git's configuration, its program's installation and what its arguments name"
    } else {
        ", reads not limited"
    });
    statement.push_str(match (&seccomp, shares_uid) {
        (Some(_), _) => ", no UNIX sockets, no io_uring",
        (None, _) if abi >= 9 => ", no UNIX sockets outside its directories (Landlock)",
        (None, _) => ", UNIX sockets not closed (this kernel has no seccomp)",
    });
    if warden.is_some() {
        statement.push_str(if root {
            ", ended with toolgate (a PID namespace of its own)"
        } else {
            ", ended with toolgate (a subreaping warden)"
        });
    }
    let home = dir.path().display().to_string();
    let mut env = vec![("HOME".into(), home.clone()), ("TMPDIR".into(), home)];
    if uid.is_some() {
        env.extend(super::uid::git_trusts_any_owner());
    }
    Ok(Prepared {
        env,
        statement,
        uid,
        plan: Some(Plan {
            root,
            uid,
            strict,
            net_by_landlock: abi >= 4,
            last_cap: super::kernel::last_cap(),
            ruleset,
            warden,
            seccomp,
            read_cap,
        }),
        dir: Some(dir),
    })
}
