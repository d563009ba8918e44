//! Tests of `prepare`.

use super::*;

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(d.path().join(name), text).unwrap();
    }
    d
}

const BUILD: &str = r#"{"name":"s","scripts":{"build":"tsc","start":"node dist/index.js"}}"#;

#[test]
fn a_node_server_with_a_build_script_is_installed_and_built() {
    let d = project(&[("package.json", BUILD), ("package-lock.json", "{}")]);
    let p = detect(d.path(), Some("node dist/index.js"));
    assert!(p.on_runner);
    assert!(p.steps.contains("run: npm ci\n"), "{}", p.steps);
    assert!(p.steps.contains("run: npm run build\n"), "{}", p.steps);
    assert!(p.steps.contains("cache: npm"), "{}", p.steps);
    assert!(p.steps.contains("actions/setup-node@"), "{}", p.steps);
    assert!(p.log.is_none());
}

#[test]
fn package_managers_and_typescript_builds_are_told_apart() {
    let d = project(&[
        ("package.json", r#"{"name":"s"}"#),
        ("pnpm-lock.yaml", ""),
        ("tsconfig.json", "{}"),
        (".nvmrc", "20\n"),
    ]);
    let p = detect(d.path(), Some("node build/index.js"));
    assert!(p.steps.contains("pnpm/action-setup@"), "{}", p.steps);
    assert!(p.steps.contains("pnpm install --frozen-lockfile"));
    assert!(p.steps.contains("run: pnpm exec tsc"), "{}", p.steps);
    assert!(p.steps.contains("node-version-file: .nvmrc"));
    // No lock file: said, and a plain install.
    let d = project(&[("package.json", BUILD)]);
    let p = detect(d.path(), Some("npx tsx src/index.ts"));
    assert!(p.steps.contains("npm install"), "{}", p.steps);
    assert!(!p.steps.contains("cache:"), "{}", p.steps);
    assert!(
        p.said.iter().any(|s| s.contains("no lock file")),
        "{:?}",
        p.said
    );
}

#[test]
fn python_projects_get_their_environment() {
    let py = "[project]\nname = \"s\"\n[project.scripts]\nsrv = \"s:main\"\n";
    let d = project(&[("pyproject.toml", py), ("uv.lock", "")]);
    let p = detect(d.path(), Some("uv run --no-sync srv"));
    assert!(p.on_runner);
    assert!(p.steps.contains("astral-sh/setup-uv@"), "{}", p.steps);
    assert!(p.steps.contains("run: uv sync --frozen\n"), "{}", p.steps);
    let d = project(&[("requirements.txt", "mcp\n")]);
    let p = detect(d.path(), Some(".venv/bin/python server.py"));
    assert!(
        p.steps
            .contains("python -m venv .venv && .venv/bin/pip install -r requirements.txt"),
        "{}",
        p.steps
    );
    assert!(p.steps.contains("cache-dependency-path: requirements.txt"));
    let p = detect(d.path(), Some("python3 server.py"));
    assert!(p.steps.contains("run: pip install -r requirements.txt\n"));
}

#[test]
fn servers_that_need_nothing_run_in_the_container() {
    let d = project(&[("package.json", BUILD)]);
    for server in [
        "https://mcp.example.com/mcp",
        "catalog.json",
        "./my-binary --stdio",
    ] {
        let p = detect(d.path(), Some(server));
        assert!(!p.on_runner && p.steps.is_empty(), "{server}: {p:?}");
    }
    // npx of a published package with no project around it: the container has npx.
    let empty = project(&[]);
    assert!(!detect(empty.path(), Some("npx -y @scope/server")).on_runner);
    assert_eq!(detect(empty.path(), None), Prepare::default());
}

#[test]
fn a_local_http_server_is_started_in_the_background() {
    let d = project(&[("package.json", BUILD), ("package-lock.json", "{}")]);
    let p = detect(d.path(), Some("http://localhost:3001/mcp"));
    assert!(p.on_runner);
    assert!(p.steps.contains("run: npm run build\n"), "{}", p.steps);
    assert!(
        p.steps
            .contains("nohup npm start > toolgate-server.log 2>&1 &"),
        "{}",
        p.steps
    );
    assert_eq!(p.log.as_deref(), Some("cat toolgate-server.log"));
    let d = project(&[("Dockerfile", "FROM scratch\n")]);
    let p = detect(d.path(), Some("http://127.0.0.1:8080/mcp"));
    assert!(p.steps.contains("docker build -t toolgate-mcp-server ."));
    assert!(p.steps.contains("-p 8080:8080"), "{}", p.steps);
    assert_eq!(p.log.as_deref(), Some("docker logs toolgate-mcp-server"));
    // Nothing known starts it: a placeholder that fails until it is filled in.
    let d = project(&[]);
    let p = detect(d.path(), Some("http://localhost:3001/mcp"));
    assert!(p.steps.contains("FILL IN"), "{}", p.steps);
    assert!(p.steps.contains("exit 1"));
}

#[test]
fn a_docker_server_builds_the_image_it_runs() {
    let d = project(&[("Dockerfile", "FROM scratch\n")]);
    let p = detect(
        d.path(),
        Some("docker run -i --rm -e TOKEN -v /data:/data --name x acme/mcp:dev --stdio"),
    );
    assert!(p.container_engine && p.on_runner);
    assert!(
        p.steps.contains("run: docker build -t acme/mcp:dev .\n"),
        "{}",
        p.steps
    );
    assert_eq!(
        docker_image(&["docker", "run", "-i", "img"].map(String::from)),
        Some("img".into())
    );
    assert_eq!(docker_image(&["docker", "ps"].map(String::from)), None);
    // A hostile image name is not written into a shell line.
    let p = detect(d.path(), Some("docker run -i 'x; rm -rf /'"));
    assert!(!p.steps.contains("rm -rf"), "{}", p.steps);
}

#[test]
fn the_default_branch_is_read_from_git() {
    let d = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(d.path())
            .args(args)
            .output()
            .unwrap()
    };
    git(&["init", "-q", "-b", "trunk"]);
    assert_eq!(default_branch(d.path()).0, "trunk");
    let none = tempfile::tempdir().unwrap();
    let (b, why) = default_branch(&none.path().join("missing"));
    assert_eq!(b, "main");
    assert!(why.contains("assumed"));
}
