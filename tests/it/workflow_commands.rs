//! Issue 25 point 3: on GitHub Actions, no text a server controls becomes a workflow command
//! in toolgate's log. A server puts `::add-mask::`, `::error::`, `::stop-commands::`, `##[`,
//! CR/LF and ANSI/OSC escapes in every field it controls (names, descriptions, schema,
//! instructions, server name, stdout junk, stderr); every command that prints them runs, and
//! each line of stdout and stderr is checked: toolgate's own annotations are the only
//! workflow commands, and no forged command survives a CR or LF.

use crate::common::{py_server, toolgate};

/// The lines of a run's stdout and stderr that the runner could take for a command.
fn check(what: &str, out: &std::process::Output) {
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("forged"),
        "{what}: the hostile text was not printed at all: {text}"
    );
    // The runner splits lines on CR as well as LF.
    for line in text.split(['\n', '\r']) {
        assert!(!line.contains("##["), "{what}: legacy command in {line:?}");
        assert!(
            !line.contains('\u{1b}'),
            "{what}: escape sequence in {line:?}"
        );
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("::") {
            let head = rest.split("::").next().unwrap_or("");
            let cmd = head.split(' ').next().unwrap_or("");
            assert!(
                ["error", "warning", "notice"].contains(&cmd) && head.contains(' '),
                "{what}: a workflow command toolgate did not write: {line:?}"
            );
            // The forged `::warning title=x::` (after a CR) never stands as a command.
            assert!(
                !head.contains("title=x"),
                "{what}: forged properties in {line:?}"
            );
        }
    }
}

fn run(args: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    toolgate()
        .current_dir(dir.path())
        .env("GITHUB_ACTIONS", "true")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn hostile_server_text_never_becomes_a_workflow_command() {
    let server = py_server("hostile/workflow_commands.py", "--junk");
    for args in [
        vec!["inspect", server.as_str()],
        vec!["inspect", server.as_str(), "--json"],
        vec!["lint", server.as_str()],
        vec!["lint", server.as_str(), "--format", "github"],
        vec!["pin", server.as_str(), "--check"],
        vec!["ci", "--server", server.as_str(), "--lock-check", "warn"],
        vec!["ci", "--server", server.as_str(), "--format", "json"],
    ] {
        let out = run(&args);
        check(&args.join(" "), &out);
    }
    let crash = py_server("hostile/workflow_commands.py", "--crash");
    let out = run(&["inspect", &crash, "--connect-timeout", "20"]);
    assert_eq!(out.status.code(), Some(2));
    check("inspect (crashing server)", &out);
}
