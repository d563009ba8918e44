//! The action's contract: action.yml's inputs map one-to-one onto `toolgate ci` flags through
//! their environment variables, its outputs are exactly what `toolgate ci` writes to
//! $GITHUB_OUTPUT, and every workflow that uses the action passes only inputs it declares.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::{fixture, root, toolgate};
use clap::CommandFactory;
use serde_json::Value;

fn yaml(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn action() -> Value {
    yaml(&root().join("action.yml"))
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// `--long` name → environment variable, for every flag of `toolgate ci` (and the global
/// `--config`).
fn ci_flags() -> BTreeMap<String, String> {
    let cmd = toolgate::cli::Cli::command();
    let ci = cmd.find_subcommand("ci").expect("ci subcommand");
    cmd.get_arguments()
        .chain(ci.get_arguments())
        .filter_map(|a| {
            Some((
                a.get_long()?.to_string(),
                a.get_env()?.to_string_lossy().to_string(),
            ))
        })
        .collect()
}

#[test]
fn inputs_map_one_to_one_onto_ci_flags_through_the_environment() {
    let a = action();
    assert_eq!(a["runs"]["using"], "docker");
    assert_eq!(a["runs"]["image"], "Dockerfile");
    assert_eq!(a["runs"]["args"], serde_json::json!(["ci"]));
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(
        text.contains("\n  image: Dockerfile\n"),
        "release.yml rewrites this exact line"
    );
    let inputs = keys(&a["inputs"]);
    let env = a["runs"]["env"].as_object().unwrap();
    let flags = ci_flags();
    let mut used = BTreeSet::new();
    for (var, value) in env {
        let value = value.as_str().unwrap();
        let input = value
            .strip_prefix("${{ inputs.")
            .and_then(|v| v.strip_suffix(" }}"))
            .unwrap_or_else(|| panic!("{var} = {value} is not just an input"));
        assert!(
            inputs.contains(input),
            "{var} uses undeclared input {input}"
        );
        used.insert(input.to_string());
        if var == "TOOLGATE_GITHUB_TOKEN" {
            assert_eq!(input, "github-token");
            continue;
        }
        assert_eq!(
            flags.get(input),
            Some(var),
            "input `{input}` must feed the flag --{input} through {var}"
        );
    }
    let unused: Vec<&String> = inputs.difference(&used).collect();
    assert!(unused.is_empty(), "inputs not passed on: {unused:?}");
    let missing: Vec<&String> = flags.keys().filter(|f| !inputs.contains(*f)).collect();
    assert!(missing.is_empty(), "ci flags without an input: {missing:?}");
    for (name, i) in a["inputs"].as_object().unwrap() {
        assert!(
            i["description"].as_str().is_some_and(|d| d.len() > 10),
            "input {name} needs a description"
        );
        assert_eq!(i["required"], false, "{name}: toolgate.toml may supply it");
    }
    assert_eq!(
        a["inputs"]["github-token"]["default"],
        "${{ github.token }}"
    );
}

fn run_with_outputs(dir: &std::path::Path) -> BTreeSet<String> {
    let out = dir.join("output");
    let o = toolgate()
        .current_dir(dir)
        .args(["ci", "--server", &fixture("example/after.json")])
        .args(["--tasks", &fixture("example/tasks.jsonl")])
        .args(["--lock", &fixture("example/toolgate.lock")])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", &out)
        .env("GITHUB_STEP_SUMMARY", dir.join("summary"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.to_string()))
        .collect()
}

#[test]
fn declared_outputs_are_exactly_the_ones_written() {
    let dir = tempfile::tempdir().unwrap();
    let written = run_with_outputs(dir.path());
    let declared = keys(&action()["outputs"]);
    assert_eq!(declared, written);
    assert!(
        std::fs::read_to_string(dir.path().join("summary"))
            .unwrap()
            .contains("toolgate passed")
    );
}

fn local_action_uses(workflow: &Value) -> Vec<(String, BTreeSet<String>)> {
    let mut out = Vec::new();
    for (job, j) in workflow["jobs"].as_object().unwrap() {
        for step in j["steps"].as_array().unwrap() {
            let uses = step["uses"].as_str().unwrap_or_default();
            if uses == "./" || uses.starts_with(toolgate::ci::templates::ACTION_REF) {
                let with = step.get("with").map(keys).unwrap_or_default();
                out.push((job.clone(), with));
            }
        }
    }
    out
}

#[test]
fn workflows_pass_only_declared_inputs() {
    let inputs = keys(&action()["inputs"]);
    let selftest = yaml(&root().join(".github/workflows/selftest.yml"));
    let uses = local_action_uses(&selftest);
    assert!(uses.len() >= 4, "{uses:?}");
    let dir = tempfile::tempdir().unwrap();
    let o = toolgate()
        .current_dir(dir.path())
        .arg("init")
        .output()
        .unwrap();
    assert!(o.status.success());
    let init = yaml(&dir.path().join(".github/workflows/toolgate.yml"));
    let init_uses = local_action_uses(&init);
    assert_eq!(init_uses.len(), 1);
    for (job, with) in uses.iter().chain(&init_uses) {
        let unknown: Vec<&String> = with.difference(&inputs).collect();
        assert!(
            unknown.is_empty(),
            "job {job} passes unknown inputs {unknown:?}"
        );
    }
    for wf in ["ci.yml", "selftest.yml", "release.yml"] {
        let w = yaml(&root().join(".github/workflows").join(wf));
        assert!(
            w.get("permissions").is_some(),
            "{wf} must set minimal permissions"
        );
    }
}

#[test]
fn the_readme_documents_every_input_and_output() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let a = action();
    for name in keys(&a["inputs"]).iter().chain(&keys(&a["outputs"])) {
        assert!(
            readme.contains(&format!("| `{name}` |")),
            "README.md has no table row for `{name}`"
        );
    }
}

/// Issue 23 point 1: the `setup` action's installer installs a release only when its archive
/// matches the release's SHA256SUMS (a local release served over file://, built from this
/// binary), and refuses a tampered one without running it.
#[test]
fn the_setup_installer_verifies_the_release_before_installing() {
    let tmp = tempfile::tempdir().unwrap();
    let (tag, target) = ("v0.1.0", "x86_64-unknown-linux-musl");
    let name = format!("toolgate-{tag}-{target}");
    let release = tmp.path().join("releases").join(tag);
    let staged = tmp.path().join("stage").join(&name);
    std::fs::create_dir_all(&release).unwrap();
    std::fs::create_dir_all(&staged).unwrap();
    std::fs::copy(
        assert_cmd::cargo::cargo_bin!("toolgate"),
        staged.join("toolgate"),
    )
    .unwrap();
    let archive = release.join(format!("{name}.tar.gz"));
    let ok = std::process::Command::new("tar")
        .arg("-C")
        .arg(tmp.path().join("stage"))
        .arg("-czf")
        .arg(&archive)
        .arg(&name)
        .status()
        .unwrap();
    assert!(ok.success());
    let sums = std::process::Command::new("sha256sum")
        .current_dir(&release)
        .arg(format!("{name}.tar.gz"))
        .output()
        .unwrap();
    std::fs::write(release.join("SHA256SUMS"), &sums.stdout).unwrap();
    let install = |dir: &str| {
        std::process::Command::new("bash")
            .arg(root().join("setup/install.sh"))
            .env("VERSION", tag)
            .env("TARGET", target)
            .env(
                "DOWNLOAD_URL",
                format!("file://{}", tmp.path().join("releases").display()),
            )
            .env("INSTALL_DIR", tmp.path().join(dir))
            .env_remove("GITHUB_PATH")
            .output()
            .unwrap()
    };
    let o = install("good");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert_eq!(path, tmp.path().join("good/toolgate").display().to_string());
    let v = std::process::Command::new(&path)
        .arg("--version")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&v.stdout).contains("toolgate"));
    // One byte changed after the sums were published.
    let mut bytes = std::fs::read(&archive).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&archive, bytes).unwrap();
    let o = install("bad");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("does not match SHA256SUMS"), "{err}");
    assert!(
        !tmp.path().join("bad/toolgate").exists(),
        "nothing installed"
    );
}
