//! Where a belt comes from (`--belt SPEC`): the bundled `ecosystem`; an MCP client config
//! (Claude Desktop, Claude Code, Cursor, VS Code), whose servers are started; a belt lock
//! (`belt_lock_version`), whose pinned definitions are the belt; one snapshot or lock file
//! (a one-server belt named after the file); or a folder of snapshot files, one server each.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde_json::Value;

use super::{Belt, BeltServer, ecosystem, lock::BeltLock};
use crate::catalog::{ConnectOptions, snapshot};

/// The most snapshot files a belt folder may hold (each is a server).
pub(crate) const MAX_FILES: usize = 2_000;

/// What `--belt` named, before anything is read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BeltSpec {
    /// The snapshots built into toolgate.
    Ecosystem,
    /// A file: an MCP config, a belt lock, or one snapshot / lock.
    File(PathBuf),
    /// A folder of `*.json` snapshots (a `manifest.json` is skipped).
    Folder(PathBuf),
}

impl BeltSpec {
    /// `ecosystem`, or a path that exists (a file or a folder). A file or folder called
    /// `ecosystem` can be named as `./ecosystem`.
    pub(crate) fn parse(text: &str) -> anyhow::Result<Self> {
        if text == ecosystem::NAME {
            return Ok(Self::Ecosystem);
        }
        let path = PathBuf::from(text);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => Ok(Self::Folder(path)),
            Ok(_) => Ok(Self::File(path)),
            Err(e) => bail!(
                "--belt {text}: {e} (name `ecosystem` for the bundled belt, an MCP config, a \
                 belt lock, a snapshot file or a folder of snapshots)"
            ),
        }
    }

    /// How the belt is named in reports.
    pub(crate) fn display(&self) -> String {
        match self {
            Self::Ecosystem => ecosystem::NAME.to_string(),
            Self::File(p) | Self::Folder(p) => p.display().to_string(),
        }
    }
}

/// Reads (or, for an MCP config, connects) the belt. An MCP config's servers are started with
/// `base`'s timeouts and limits, like `--mcp-config`; `pass_env` governs its `${VAR}`s.
pub(crate) async fn load(
    spec: &BeltSpec,
    base: &ConnectOptions,
    pass_env: &[String],
) -> anyhow::Result<Belt> {
    let belt = match spec {
        BeltSpec::Ecosystem => ecosystem::belt()?,
        BeltSpec::Folder(dir) => folder(dir)?,
        BeltSpec::File(path) => {
            let text = crate::fsio::read_text(path)
                .with_context(|| format!("could not read the belt {}", path.display()))?;
            let value: Value = serde_json::from_str(&text).with_context(|| {
                format!(
                    "the belt {} is not valid JSON (line and column above)",
                    path.display()
                )
            })?;
            if value.get("belt_lock_version").is_some() {
                from_belt_lock(path, &text)?
            } else if value.get("tools").is_some() || value.get("lock_version").is_some() {
                Belt {
                    config: path.display().to_string(),
                    servers: vec![BeltServer {
                        name: stem(path),
                        catalog: crate::catalog::mask::checked(snapshot::read(path)?, base),
                    }],
                }
            } else {
                let config = super::read_config(path, pass_env)?;
                super::connect_all(&config, base).await?
            }
        }
    };
    if belt.tool_count() == 0 {
        bail!("the belt {} offers no tools", spec.display());
    }
    Ok(belt)
}

/// A file's name without `.json`: the server name of a one-file belt.
fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn folder(dir: &Path) -> anyhow::Result<Belt> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)
        .with_context(|| format!("could not list the belt folder {}", dir.display()))?
    {
        let path = entry?.path();
        let is_json = path.extension().is_some_and(|e| e == "json");
        if is_json && path.is_file() && stem(&path) != "manifest" {
            files.push(path);
        }
        if files.len() > MAX_FILES {
            bail!(
                "the belt folder {} holds more than {MAX_FILES} snapshot files",
                dir.display()
            );
        }
    }
    if files.is_empty() {
        bail!(
            "the belt folder {} holds no `*.json` snapshot files",
            dir.display()
        );
    }
    files.sort();
    let servers = files
        .iter()
        .map(|p| {
            Ok(BeltServer {
                name: stem(p),
                catalog: crate::catalog::mask::checked(
                    snapshot::read(p)?,
                    &ConnectOptions::default(),
                ),
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Belt {
        config: dir.display().to_string(),
        servers,
    })
}

fn from_belt_lock(path: &Path, text: &str) -> anyhow::Result<Belt> {
    let shown = path.display().to_string();
    let lock: BeltLock =
        serde_json::from_str(text).with_context(|| format!("{shown} is not a valid belt lock"))?;
    lock.verify().map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    let servers = lock
        .servers
        .iter()
        .map(|(name, one)| {
            let mut catalog = snapshot::parse(&one.to_text(), &format!("{shown} [{name}]"))?;
            catalog.snapshot_path = Some(path.to_path_buf());
            Ok(BeltServer {
                name: name.clone(),
                catalog,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Belt {
        config: shown,
        servers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn specs_and_sources() {
        assert_eq!(BeltSpec::parse("ecosystem").unwrap(), BeltSpec::Ecosystem);
        let e = BeltSpec::parse("/no/such/belt.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--belt /no/such/belt.json"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let e = run(load(
            &BeltSpec::parse(dir.path().to_str().unwrap()).unwrap(),
            &ConnectOptions::default(),
            &[],
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("holds no"), "{e}");
        let snap = |tools: Value| json!({ "tools": tools }).to_string();
        std::fs::write(
            dir.path().join("a.json"),
            snap(json!([{"name": "x", "description": "X."}])),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("b.json"),
            snap(json!([{"name": "y"}, {"name": "z"}])),
        )
        .unwrap();
        std::fs::write(dir.path().join("manifest.json"), "{}").unwrap();
        let spec = BeltSpec::parse(dir.path().to_str().unwrap()).unwrap();
        let belt = run(load(&spec, &ConnectOptions::default(), &[])).unwrap();
        assert_eq!(belt.keys(), ["a/x", "b/y", "b/z"]);
        // A belt lock of that belt is a belt too, with the same tools.
        let lock_path = dir.path().join("belt.lock");
        BeltLock::from_belt(&belt).write(&lock_path).unwrap();
        let again = run(load(
            &BeltSpec::File(lock_path),
            &ConnectOptions::default(),
            &[],
        ))
        .unwrap();
        assert_eq!(again.keys(), belt.keys());
        // One snapshot is a one-server belt named after its file.
        let one = run(load(
            &BeltSpec::File(dir.path().join("b.json")),
            &ConnectOptions::default(),
            &[],
        ))
        .unwrap();
        assert_eq!(one.keys(), ["b/y", "b/z"]);
    }

    #[test]
    fn the_ecosystem_loads_offline() {
        let belt = run(load(&BeltSpec::Ecosystem, &ConnectOptions::default(), &[])).unwrap();
        assert!(belt.servers.len() >= 15);
        assert!(belt.keys().iter().any(|k| k == "github/create_issue"));
    }
}
