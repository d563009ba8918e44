//! A Node project's setup, install and build steps: the package manager by its lock file (or
//! `packageManager`), the Node version by `.nvmrc`/`.node-version`, and the build by a `build`
//! script or a `tsconfig.json`.

use std::path::Path;

use serde_json::Value;

use super::common::{SETUP_NODE, SETUP_PNPM, has, read};

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Pm {
    Npm,
    Pnpm,
    Yarn,
}

impl Pm {
    pub(super) fn name(self) -> &'static str {
        match self {
            Pm::Npm => "npm",
            Pm::Pnpm => "pnpm",
            Pm::Yarn => "yarn",
        }
    }
}

/// A Node project: its package manager, whether a lock file pins it, and its scripts.
pub(super) struct Node {
    pub(super) pm: Pm,
    locked: bool,
    manifest: Value,
}

impl Node {
    pub(super) fn read(dir: &Path) -> Option<Node> {
        let manifest: Value = serde_json::from_str(&read(dir, "package.json")?).ok()?;
        let (pm, locked) = if has(dir, "pnpm-lock.yaml") {
            (Pm::Pnpm, true)
        } else if has(dir, "yarn.lock") {
            (Pm::Yarn, true)
        } else {
            let pinned = manifest["packageManager"].as_str().unwrap_or_default();
            let pm = if pinned.starts_with("pnpm@") {
                Pm::Pnpm
            } else if pinned.starts_with("yarn@") {
                Pm::Yarn
            } else {
                Pm::Npm
            };
            (
                pm,
                has(dir, "package-lock.json") || has(dir, "npm-shrinkwrap.json"),
            )
        };
        Some(Node {
            pm,
            locked,
            manifest,
        })
    }

    pub(super) fn script(&self, name: &str) -> bool {
        self.manifest["scripts"][name].is_string()
    }

    /// setup (pnpm, node with its cache), install, build.
    pub(super) fn steps(&self, dir: &Path, said: &mut Vec<String>) -> String {
        let mut s = String::new();
        if self.pm == Pm::Pnpm {
            s.push_str(&format!("      - uses: {SETUP_PNPM}\n"));
            if self.manifest["packageManager"].as_str().is_none() {
                s.push_str("        with:\n          version: 10\n");
            }
        }
        s.push_str(&format!("      - uses: {SETUP_NODE}\n        with:\n"));
        match [".nvmrc", ".node-version"]
            .into_iter()
            .find(|f| has(dir, f))
        {
            Some(f) => s.push_str(&format!("          node-version-file: {f}\n")),
            None => {
                s.push_str(
                    "          node-version: 22   # the LTS; or node-version-file: .nvmrc\n",
                );
            }
        }
        if self.locked {
            s.push_str(&format!("          cache: {}\n", self.pm.name()));
        }
        let install = match (self.pm, self.locked) {
            (Pm::Npm, true) => "npm ci",
            (Pm::Npm, false) => "npm install --no-audit --no-fund",
            (Pm::Pnpm, true) => "pnpm install --frozen-lockfile",
            (Pm::Pnpm, false) => "pnpm install",
            (Pm::Yarn, _) if has(dir, ".yarnrc.yml") => {
                "corepack enable && yarn install --immutable"
            }
            (Pm::Yarn, true) => "yarn install --frozen-lockfile",
            (Pm::Yarn, false) => "yarn install",
        };
        if !self.locked {
            said.push(format!(
                "no lock file: the workflow runs `{install}`; commit a lock file so CI installs what you tested"
            ));
        }
        s.push_str(&format!(
            "      - name: install the server's dependencies\n        run: {install}\n"
        ));
        let build = if self.script("build") {
            Some(format!("{} run build", self.pm.name()))
        } else if has(dir, "tsconfig.json") {
            Some(match self.pm {
                Pm::Npm => "npx tsc".to_string(),
                pm => format!("{} exec tsc", pm.name()),
            })
        } else {
            None
        };
        if let Some(b) = &build {
            s.push_str(&format!(
                "      - name: build the server\n        run: {b}\n"
            ));
        }
        said.push(format!(
            "a Node project ({}{}): the workflow installs{} it on the runner with actions/setup-node",
            self.pm.name(),
            if self.locked { ", locked" } else { "" },
            if build.is_some() { " and builds" } else { "" },
        ));
        s
    }
}
