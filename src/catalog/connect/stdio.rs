//! The stdio transport: spawns the server in its own process group (with the environment
//! `--pass-env` allows), watches its exit and stderr, and ends the whole group afterwards.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use rmcp::transport::async_rw::AsyncRwTransport;
use tokio::io::AsyncReadExt;
use tokio::time::timeout;

use super::client::cut_reason;
use super::session::{InitializeRejected, Lifecycle, Visit, session, start};
use crate::catalog::tee::{SharedCapture, filter_stdout};
use crate::catalog::{Catalog, ConnectOptions, ServerSpec};
use crate::secrets as env;

/// Keeps the last bytes a child wrote on stderr, for the error message.
#[derive(Clone, Default)]
struct StderrTail(Arc<Mutex<Vec<u8>>>);

impl StderrTail {
    const KEEP: usize = 16 * 1024;

    fn spawn_reader(&self, mut stderr: tokio::process::ChildStderr) {
        let buf = self.0.clone();
        tokio::spawn(async move {
            let mut chunk = vec![0u8; 8192];
            while let Ok(n) = stderr.read(&mut chunk).await {
                if n == 0 {
                    break;
                }
                if let Ok(mut b) = buf.lock() {
                    b.extend_from_slice(&chunk[..n]);
                    let len = b.len();
                    if len > Self::KEEP * 2 {
                        b.drain(..len - Self::KEEP);
                    }
                }
            }
        });
    }

    /// True when the server said a permission was denied (a sandbox limit, perhaps).
    fn mentions_permission(&self) -> bool {
        let bytes = self.0.lock().map(|b| b.clone()).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
        [
            "permission denied",
            "eacces",
            "read-only file system",
            "operation not permitted",
            "not permitted",
            "access denied",
            "unable to open",
            "cannot open",
            "could not open",
        ]
        .iter()
        .any(|w| text.contains(w))
    }

    /// The last few lines, indented, or an empty string.
    fn render(&self) -> String {
        let bytes = self.0.lock().map(|b| b.clone()).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            return String::new();
        }
        let tail = &lines[lines.len().saturating_sub(12)..];
        let shown: Vec<String> = tail
            .iter()
            .map(|l| format!("    {}", l.chars().take(300).collect::<String>()))
            .collect();
        format!(
            "\n  server stderr (last {} lines):\n{}",
            tail.len(),
            shown.join("\n")
        )
    }
}

/// Ends the server and everything it started: it runs in its own process group, whose id
/// (`pgid`, recorded at spawn) stays valid after the server itself exited and was reaped, as
/// long as a grandchild lives in it.
fn kill_group(pgid: Option<u32>) {
    #[cfg(unix)]
    if let Some(pgid) = pgid.and_then(|p| i32::try_from(p).ok()).filter(|p| *p > 1) {
        // SAFETY: kill(2) with a negative pid signals the process group we created.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
        // What left the group (setsid, setpgid) and came to toolgate is ended now, not at exit.
        crate::sandbox::reaper::server_ended(pgid as u32);
    }
    #[cfg(not(unix))]
    let _ = pgid;
}

/// Ends the server's process group when dropped: after a bounded wait, or when the runtime
/// shuts down with the wait still pending.
struct GroupGuard(Option<u32>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        kill_group(self.0);
    }
}

/// The server's exit, once it happened: `Some(status)` (`None` inside when waiting failed).
type ExitWatch = tokio::sync::watch::Receiver<Option<Option<std::process::ExitStatus>>>;

/// Waits at most `within` for the server to exit; its status if it did.
async fn exited(rx: &mut ExitWatch, within: Duration) -> Option<std::process::ExitStatus> {
    match timeout(within, rx.wait_for(Option::is_some)).await {
        Ok(Ok(s)) => s.flatten(),
        _ => None,
    }
}

/// The command that starts the server: its credentials stripped (those passed with
/// `--pass-env` given back), in its folder, in a session of its own.
fn command(program: &str, args: &[String], opts: &ConnectOptions) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    for name in env::stripped_present(&opts.pass_env) {
        cmd.env_remove(name);
    }
    // `--pass-env` names a credential toolgate moved into its store: give it back explicitly.
    for (name, value) in env::passed_from_store(&opts.pass_env) {
        cmd.env(name, value);
    }
    // An MCP config's `env` (what the user wrote for this server) is set below, after the
    // sandbox's variables.
    if let Some(dir) = &opts.cwd {
        cmd.current_dir(dir);
    }
    // A session of its own (so also a process group of its own): nothing the server starts
    // can join toolgate's session or group, which the reaper relies on.
    #[cfg(unix)]
    // SAFETY: setsid(2) is async-signal-safe; the child has not started other threads.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

/// Why the server could not be started: a permission denied names the file and the uid (and
/// the sandbox's hint); anything else asks whether the program is installed.
fn spawn_error(
    e: &std::io::Error,
    program: &str,
    opts: &ConnectOptions,
    sandbox: &crate::sandbox::Prepared,
    shown: &str,
) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::PermissionDenied {
        // Name the file and the uid: "on PATH" is not the question here.
        let found = crate::sandbox::resolve_program(program, opts.cwd.as_deref());
        let what = found.map_or_else(|| format!("`{program}`"), |p| p.display().to_string());
        let who = sandbox
            .uid
            .map_or_else(|| "toolgate's uid".to_string(), |u| format!("uid {u}"));
        anyhow!(
            "could not start the server `{shown}`: permission denied: {who} may not run {what} (the file, a folder on its way, or the sandbox's read rules keep it out).{}",
            sandbox.failure_hint()
        )
    } else {
        anyhow!("could not start the server `{shown}`: {e} (is `{program}` installed and on PATH?)")
    }
}

pub(super) async fn connect_stdio<V: Visit>(
    spec: &ServerSpec,
    program: &str,
    args: &[String],
    opts: &ConnectOptions,
    lifecycle: Lifecycle,
    visit: &V,
) -> anyhow::Result<(Catalog, V::Out)> {
    let shown = spec.display();
    let mut cmd = command(program, args, opts);
    // The sandbox's HOME and TMPDIR come before the config's `env` (which may set its own).
    let launch = crate::sandbox::Launch {
        program,
        args,
        cwd: opts.cwd.as_deref(),
    };
    let mut sandbox = crate::sandbox::prepare(&opts.sandbox, &launch)
        .with_context(|| format!("could not sandbox the server `{shown}`"))?;
    sandbox.apply(&mut cmd);
    cmd.envs(opts.env.iter().map(|(k, v)| (k, v)));
    crate::sandbox::reaper::server_spawning();
    let spawned = cmd.spawn();
    crate::sandbox::reaper::server_started(spawned.as_ref().ok().and_then(|c| c.id()));
    let mut child = spawned.map_err(|e| spawn_error(&e, program, opts, &sandbox, &shown))?;
    // The server leads its own session and group (setsid): pgid = pid, recorded now, while the
    // pid is known (`Child::id` is None once the child was reaped).
    let pgid = child.id();
    let stderr = StderrTail::default();
    if let Some(err) = child.stderr.take() {
        stderr.spawn_reader(err);
    }
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        kill_group(pgid);
        let _ = child.start_kill();
        bail!("could not open pipes to the server `{shown}`");
    };
    // Watch the server's exit: when it is gone, the connection is over, even if a grandchild
    // still holds its stdout open.
    let (exit_tx, mut exit_rx) = tokio::sync::watch::channel(None);
    tokio::spawn(async move {
        let status = child.wait().await.ok();
        let _ = exit_tx.send(Some(status));
    });
    let mut ended_rx = exit_rx.clone();
    let ended = async move {
        let _ = ended_rx.wait_for(Option::is_some).await;
        // Let what the server wrote before it exited be read first.
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let capture = SharedCapture::default();
    let reader = filter_stdout(stdout, opts.max_message_bytes, capture.clone(), ended);
    let transport =
        AsyncRwTransport::new_client(reader, stdin).with_max_line_length(opts.max_message_bytes);

    let result = session(
        start(transport, lifecycle),
        lifecycle,
        opts,
        &capture,
        visit,
    )
    .await;
    match result {
        Ok((mut catalog, out)) => {
            catalog.source = shown;
            // The listing is done: the result does not wait for the server to go. In the
            // background it gets a moment to exit after stdin closed, then its whole group is
            // ended; if toolgate finishes first, the runtime drops the task and the guard
            // ends the group then (the watcher's `kill_on_drop` ends the server itself).
            tokio::spawn(async move {
                // Dropped in reverse: the group ends first, then its directory goes.
                let _sandbox = sandbox;
                let _group = GroupGuard(pgid);
                let _ = exited(&mut exit_rx, Duration::from_millis(500)).await;
            });
            Ok((catalog, out))
        }
        Err(e) if e.is::<InitializeRejected>() => {
            kill_group(pgid);
            Err(e)
        }
        Err(e) => {
            // Let a crashing child finish writing stderr and exit, so we can say how it ended.
            let status = exited(&mut exit_rx, Duration::from_millis(300)).await;
            kill_group(pgid);
            let exit = match status {
                Some(s) if !s.success() => format!(" The server process exited ({s})."),
                _ => String::new(),
            };
            let shown_already = format!("{e:#}");
            let fatal = cut_reason(&capture)
                .filter(|f| !shown_already.contains(f.as_str()))
                .map(|f| format!(" The connection was cut: {f}."))
                .unwrap_or_default();
            let hint = if stderr.mentions_permission() {
                // On a line of its own, after the server's words.
                let h = sandbox.failure_hint();
                if h.is_empty() {
                    h
                } else {
                    format!("\n{}", h.trim_start())
                }
            } else {
                String::new()
            };
            Err(anyhow!("{e:#}.{exit}{fatal}{}{hint}", stderr.render()))
                .with_context(|| format!("could not read the tools of `{shown}` over stdio"))
        }
    }
}
