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
    let cmd = toolgate::testing::cli::Cli::command();
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
            if uses == "./" || uses.starts_with(toolgate::testing::ci::templates::ACTION_REF) {
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
fn the_ci_page_documents_every_input_and_output() {
    let readme = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let a = action();
    for name in keys(&a["inputs"]).iter().chain(&keys(&a["outputs"])) {
        assert!(
            readme.contains(&format!("| `{name}` |")),
            "docs/ci.md has no table row for `{name}`"
        );
    }
}

/// A release of this binary as the release workflow publishes it, under `tmp/<folder>/<tag>/`:
/// `toolgate-<tag>-<target>.tar.gz` and its `SHA256SUMS`. Returns the archive's path.
fn release(tmp: &std::path::Path, folder: &str, tag: &str, target: &str) -> std::path::PathBuf {
    let name = format!("toolgate-{tag}-{target}");
    let release = tmp.join(folder).join(tag);
    let staged = tmp.join("stage").join(&name);
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
        .arg(tmp.join("stage"))
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
    archive
}

/// Issue 23 point 1: the `setup` action's installer installs a release only when its archive
/// matches the release's SHA256SUMS (a local release served over file://, built from this
/// binary), and refuses a tampered one without running it.
#[test]
fn the_setup_installer_verifies_the_release_before_installing() {
    let tmp = tempfile::tempdir().unwrap();
    let (tag, target) = ("v0.1.0", "x86_64-unknown-linux-musl");
    let archive = release(tmp.path(), "releases", tag, target);
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

/// The installer's other paths, against a local releases page served over HTTP: `latest`
/// follows the page's `/latest` redirect to the newest tag, and with VERIFY_ATTESTATION=true
/// the archive is installed only when `gh attestation verify` accepts it for the repository (a
/// stand-in `gh` records its arguments and answers yes or no; the real check needs github.com).
#[test]
fn the_setup_installer_finds_latest_and_checks_the_attestation() {
    let tmp = tempfile::tempdir().unwrap();
    let (tag, target) = ("v0.3.1", "x86_64-unknown-linux-musl");
    let name = format!("toolgate-{tag}-{target}");
    release(tmp.path(), "www/releases/download", tag, target);
    // GitHub's releases page in small: /releases/latest redirects to /releases/tag/<tag>.
    let server = format!(
        r#"
import http.server, sys
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_HEAD(self):
        if self.path == "/releases/latest":
            self.send_response(302); self.send_header("Location", "/releases/tag/{tag}"); self.end_headers(); return
        if self.path.startswith("/releases/tag/"):
            self.send_response(200); self.send_header("Content-Length", "0"); self.end_headers(); return
        super().do_HEAD()
    def do_GET(self):
        if self.path.startswith("/releases/latest") or self.path.startswith("/releases/tag/"):
            return self.do_HEAD()
        super().do_GET()
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: H(*a, directory=sys.argv[1]))
print(f"listening on http://127.0.0.1:{{s.server_address[1]}}", flush=True)
s.serve_forever()
"#
    );
    std::fs::write(tmp.path().join("releases.py"), server).unwrap();
    let srv = crate::common::HttpServer::start_cmd(
        std::process::Command::new("python3")
            .arg(tmp.path().join("releases.py"))
            .arg(tmp.path().join("www")),
    );
    // A stand-in `gh` on PATH: records its arguments, answers with GH_EXIT.
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = tmp.path().join("gh.log");
    std::fs::write(
        bin.join("gh"),
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexit \"$GH_EXIT\"\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("gh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let system_path = "/usr/local/bin:/usr/bin:/bin";
    let install = |dir: &str, gh: Option<&str>| {
        let mut c = std::process::Command::new("bash");
        c.arg(root().join("setup/install.sh"))
            .env("VERSION", "latest")
            .env("TARGET", target)
            .env("REPOSITORY", "someone/fork")
            .env("RELEASES_URL", format!("{}/releases", srv.url))
            .env("INSTALL_DIR", tmp.path().join(dir))
            .env("VERIFY_ATTESTATION", "true")
            .env_remove("GITHUB_PATH");
        match gh {
            Some(exit) => c
                .env("PATH", format!("{}:{system_path}", bin.display()))
                .env("GH_EXIT", exit),
            None => c.env("PATH", system_path),
        };
        c.output().unwrap()
    };
    // `latest` is the tag the page redirects to; the attestation is checked for the repository.
    let o = install("good", Some("0"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert_eq!(path, tmp.path().join("good/toolgate").display().to_string());
    let asked = std::fs::read_to_string(&log).unwrap();
    assert!(
        asked.starts_with("attestation verify ")
            && asked.contains(&format!("{name}.tar.gz --repo someone/fork")),
        "{asked}"
    );
    // An attestation that does not verify: nothing installed.
    let o = install("unattested", Some("1"));
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("attestation of") && err.contains("does not verify"),
        "{err}"
    );
    assert!(!tmp.path().join("unattested/toolgate").exists());
    // Plain http from another machine, and `latest` from a mirror with no releases page, are
    // refused before anything is downloaded.
    let refused = |envs: &[(&str, &str)]| {
        let mut c = std::process::Command::new("bash");
        c.arg(root().join("setup/install.sh"))
            .env("TARGET", target)
            .env("INSTALL_DIR", tmp.path().join("refused"))
            .env("PATH", system_path)
            .env_remove("GITHUB_PATH");
        for (k, v) in envs {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        assert!(!o.status.success());
        assert!(!tmp.path().join("refused/toolgate").exists());
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = refused(&[
        ("VERSION", tag),
        ("DOWNLOAD_URL", "http://mirror.example/dl"),
    ]);
    assert!(err.contains("is not an https://"), "{err}");
    let err = refused(&[
        ("VERSION", "latest"),
        ("DOWNLOAD_URL", "https://mirror.example/dl"),
    ]);
    assert!(err.contains("needs that mirror's releases page"), "{err}");
    let err = refused(&[
        ("VERSION", "v1.2"),
        ("RELEASES_URL", &format!("{}/releases", srv.url)),
    ]);
    assert!(err.contains("is not a release tag"), "{err}");
    // Asked to verify without gh: refused, not skipped.
    if !std::path::Path::new("/usr/bin/gh").exists()
        && !std::path::Path::new("/usr/local/bin/gh").exists()
    {
        let o = install("nogh", None);
        assert!(!o.status.success());
        assert!(String::from_utf8_lossy(&o.stderr).contains("needs the gh CLI"));
        assert!(!tmp.path().join("nogh/toolgate").exists());
    }
}

/// Issue 43 point 4: a run that measured nothing (exit 2: here a threshold asked of a suite
/// nobody reviewed) writes the `error` output with its cause and no score.
#[test]
fn an_errored_run_names_its_cause_and_writes_no_score() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("output");
    let o = toolgate()
        .current_dir(dir.path())
        .args(["ci", "--server", &fixture("example/after.json")])
        .args(["--lock", &fixture("example/toolgate.lock")])
        .args(["--fail-under", "0.5", "--comment", "false"])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_OUTPUT", &out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let value = |k: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{k}=")))
            .unwrap_or_else(|| panic!("no {k} output: {text}"))
            .to_string()
    };
    assert_eq!(value("passed"), "false");
    assert_eq!(value("score"), "", "{text}");
    assert_eq!(value("score-low"), "");
    let error = value("error");
    assert!(error.contains("review"), "the cause is named: {error}");
}
