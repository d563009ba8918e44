//! The `toolgate ci` output folder: every file name defined once.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

pub(crate) const DEFAULT_OUT: &str = "toolgate-out";
pub(crate) const CI_JSON: &str = "ci.json";
pub(crate) const SUMMARY_MD: &str = "summary.md";
pub(crate) const COMMENT_MD: &str = "comment.md";
pub(crate) const LINT_JSON: &str = "lint.json";
pub(crate) const LINT_SARIF: &str = "lint.sarif";
/// The gate, the lock, lint and per-tool accuracy as JUnit XML test cases.
pub(crate) const JUNIT_XML: &str = "junit.xml";
/// The contract tests' report (`--contract`).
pub(crate) const CONTRACT_JSON: &str = "contract.json";
pub(crate) const BADGE_SVG: &str = "badge.svg";
/// The badge as a shields.io endpoint document.
pub(crate) const BADGE_JSON: &str = "badge.json";
pub(crate) const BASELINE_JSON: &str = crate::eval::baseline::BASELINE_FILE;
pub(crate) const LOCK: &str = crate::config::DEFAULT_LOCK;
pub(crate) const TASKS_JSONL: &str = "tasks.jsonl";
/// The evaluation's run directory inside the output folder.
pub(crate) const RUN_DIR: &str = "run";

/// Files toolgate ci writes into the output folder (cleared at the start, so a file left from
/// an earlier run is never mistaken for this one's).
const OUT_FILES: &[&str] = &[
    CI_JSON,
    SUMMARY_MD,
    COMMENT_MD,
    LINT_JSON,
    LINT_SARIF,
    JUNIT_XML,
    BADGE_SVG,
    BADGE_JSON,
    BASELINE_JSON,
    LOCK,
    TASKS_JSONL,
];

/// The output folder.
#[derive(Clone, Debug)]
pub(crate) struct OutDir(pub PathBuf);

impl OutDir {
    pub(crate) fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub(crate) fn run_dir(&self) -> PathBuf {
        self.0.join(RUN_DIR)
    }

    /// Creates the folder and removes what an earlier `toolgate ci` wrote there.
    pub(crate) fn prepare(&self) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.0).with_context(|| {
            format!("could not create the output directory {}", self.0.display())
        })?;
        for f in OUT_FILES {
            let p = self.file(f);
            if p.is_file() {
                std::fs::remove_file(&p)
                    .with_context(|| format!("could not remove the old {}", p.display()))?;
            }
        }
        Ok(())
    }

    /// Clears the evaluation of an earlier `toolgate ci` (only toolgate's own run directory).
    pub(crate) fn clear_run(&self) -> anyhow::Result<()> {
        let run_dir = self.run_dir();
        clear_run_dir(&run_dir)
    }
}

fn clear_run_dir(run_dir: &Path) -> anyhow::Result<()> {
    if !run_dir.exists() {
        return Ok(());
    }
    if !run_dir.join(crate::record::files::RUN_FILE).is_file() {
        bail!(
            "{} exists but is not a toolgate run directory: choose another --out",
            run_dir.display()
        );
    }
    std::fs::remove_dir_all(run_dir)
        .with_context(|| format!("could not clear the previous run in {}", run_dir.display()))
}

/// A warning when the checkout left the job's token in `.git/config` (`actions/checkout`
/// without `persist-credentials: false`): the sandbox keeps the server out of `.git/`, but
/// every other step of the job can read it.
pub(crate) fn persisted_credentials(from: &std::path::Path) -> Option<String> {
    let top = from.ancestors().find(|d| d.join(".git").is_dir())?;
    let config = top.join(".git/config");
    let text = crate::fsio::read_text(&config).ok()?;
    text.to_ascii_lowercase().contains("extraheader").then(|| {
        format!(
            "{} holds an http extraheader (the job's token, left by actions/checkout): the sandbox keeps the server out of .git/, but set `persist-credentials: false` on the checkout step so no later step can read it",
            config.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_persisted_token_is_named_and_a_clean_checkout_is_not() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join(".git/config"), "[core]\n\tbare = false\n").unwrap();
        assert_eq!(persisted_credentials(&dir.path().join("sub")), None);
        std::fs::write(
            dir.path().join(".git/config"),
            "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic xyz\n",
        )
        .unwrap();
        let w = persisted_credentials(&dir.path().join("sub")).unwrap();
        assert!(w.contains("persist-credentials: false"), "{w}");
    }
}
