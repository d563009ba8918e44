//! A key given on the command line (`--api-key KEY`) leaves it once parsed (issue 42 point 5):
//! `/proc/<toolgate>/cmdline` is readable by every process, the server's included, and it
//! reads the bytes of the process's original argument block. [`scrub`] overwrites the value's
//! bytes there in place (the way `setproctitle` rewrites a process title), before any server
//! starts, so the server reads `--api-key ********`.

/// The flags whose values are scrubbed.
pub(crate) const SECRET_FLAGS: &[&str] = &["--api-key"];

/// Overwrites the values of [`SECRET_FLAGS`] in the process's argument block with `*`. Returns
/// how many values were scrubbed. Does nothing where the block cannot be found (a platform
/// without it, or arguments that do not lie where the C library says).
///
/// # Safety
/// Call after the arguments were parsed and before any other thread reads them
/// (`std::env::args` reads the same bytes).
pub(crate) unsafe fn scrub() -> usize {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let targets = positions(&args);
    if targets.is_empty() {
        return 0;
    }
    // SAFETY: forwarded to the caller.
    unsafe { overwrite(&args, &targets) }
}

/// (argument index, byte offset of the value within it) of each secret value.
fn positions(args: &[std::ffi::OsString]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate().skip(1) {
        let bytes = a.as_encoded_bytes();
        if bytes == b"--" {
            break;
        }
        for flag in SECRET_FLAGS {
            if bytes == flag.as_bytes() && i + 1 < args.len() {
                out.push((i + 1, 0));
            } else if bytes.starts_with(flag.as_bytes()) && bytes.get(flag.len()) == Some(&b'=') {
                out.push((i, flag.len() + 1));
            }
        }
    }
    out
}

#[cfg(target_os = "linux")]
unsafe fn overwrite(args: &[std::ffi::OsString], targets: &[(usize, usize)]) -> usize {
    unsafe extern "C" {
        // glibc and musl: argv[0] as the kernel laid it out; the other arguments follow it,
        // each after the previous one's NUL.
        static mut program_invocation_name: *mut libc::c_char;
    }
    // SAFETY: the pointer is the start of the argument block; every step below is checked
    // against the arguments std read from the same block before any byte is written.
    unsafe {
        let start = program_invocation_name;
        if start.is_null() {
            return 0;
        }
        let mut starts = Vec::with_capacity(args.len());
        let mut p = start;
        for a in args {
            let want = a.as_encoded_bytes();
            let have = std::ffi::CStr::from_ptr(p).to_bytes();
            if have != want {
                return 0;
            }
            starts.push(p);
            p = p.add(want.len() + 1);
        }
        let mut done = 0;
        for (i, offset) in targets {
            let len = args[*i].as_encoded_bytes().len();
            if len > *offset {
                std::ptr::write_bytes(starts[*i].add(*offset), b'*', len - offset);
                done += 1;
            }
        }
        done
    }
}

#[cfg(not(target_os = "linux"))]
unsafe fn overwrite(_args: &[std::ffi::OsString], _targets: &[(usize, usize)]) -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<std::ffi::OsString> {
        v.iter().map(|s| s.into()).collect()
    }

    #[test]
    fn values_after_the_flag_or_its_equals_sign_are_found() {
        let a = os(&[
            "toolgate",
            "run",
            "--api-key",
            "sk-1",
            "--api-key=sk-2",
            "-m",
            "x",
        ]);
        assert_eq!(positions(&a), vec![(3, 0), (4, 10)]);
        // After `--` nothing is a flag; a flag at the end has no value.
        assert!(positions(&os(&["t", "--", "--api-key", "v"])).is_empty());
        assert!(positions(&os(&["t", "--api-key"])).is_empty());
        assert!(positions(&os(&["t", "--api-keys", "v"])).is_empty());
    }
}
