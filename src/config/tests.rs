use super::*;

#[test]
fn unknown_keys_are_errors_with_the_key_named() {
    let e = toml::from_str::<Config>("[lint]\nmax_tool_tokenz = 3\n").unwrap_err();
    assert!(e.to_string().contains("max_tool_tokenz"), "{e}");
}

#[test]
fn rule_settings_parse() {
    let c: Config = toml::from_str(
        "server = \"python3 s.py\"\n[lint]\nignore_tools = [\"x\"]\n[lint.rules.TG003]\nlevel = \"off\"\n[lint.rules.look-alike-tools]\nlevel = \"error\"\nignore_tools = [\"a\"]\n",
    )
    .unwrap();
    assert_eq!(c.server.as_deref(), Some("python3 s.py"));
    assert!(c.lint.validate().is_ok());
    assert_eq!(c.lint.level_of("TG003"), Some(crate::lint::Level::Off));
    assert_eq!(c.lint.level_of("TG005"), Some(crate::lint::Level::Error));
}

#[test]
fn relative_paths_resolve_against_the_settings_file() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("packages/a");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("snap.json"), "{\"tools\": []}").unwrap();
    std::fs::write(
        pkg.join("toolgate.toml"),
        "server = \"snap.json\"\nlock = \"toolgate.lock\"\n[ci]\ntasks = \"tasks.jsonl\"\nbase = \"/abs/base.json\"\nmodels = [\"bm25\", \"replay:log.jsonl\"]\n",
    )
    .unwrap();
    let c = Config::read(&pkg.join("toolgate.toml")).unwrap();
    assert_eq!(c.lock, Some(pkg.join("toolgate.lock")));
    assert_eq!(c.ci.tasks, Some(pkg.join("tasks.jsonl")));
    assert_eq!(c.ci.base, Some(PathBuf::from("/abs/base.json")));
    assert_eq!(
        c.ci.models.as_deref().unwrap()[1],
        format!("replay:{}", pkg.join("log.jsonl").display())
    );
    assert_eq!(c.server, Some(pkg.join("snap.json").display().to_string()));
    assert_eq!(c.dir, Some(pkg.clone()));
    // A command line stays as written: it runs in the settings file's folder.
    let mut c: Config = toml::from_str("server = \"node dist/index.js\"\n").unwrap();
    c.resolve_paths(&pkg);
    assert_eq!(c.server.as_deref(), Some("node dist/index.js"));
}

#[test]
fn infinite_or_out_of_range_numbers_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("toolgate.toml");
    for (text, key) in [
        ("[ci]\nfail_under = inf\n", "fail_under"),
        ("[ci]\nmax_drop = -inf\n", "max_drop"),
        ("[ci]\nalpha = nan\n", "alpha"),
        ("[connect]\nconnect_timeout = 0\n", "connect_timeout"),
    ] {
        std::fs::write(&p, text).unwrap();
        let e = format!("{:#}", Config::read(&p).unwrap_err());
        assert!(e.contains(key), "{text}: {e}");
    }
    std::fs::write(&p, "[ci]\nfail_under = 0.5\n").unwrap();
    assert!(Config::read(&p).is_ok());
}

#[test]
fn settings_are_found_up_the_tree_and_in_pyproject() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir(root.join(".git")).unwrap();
    let deep = root.join("a/b");
    std::fs::create_dir_all(&deep).unwrap();
    assert_eq!(discover(&deep), None);
    std::fs::write(root.join("pyproject.toml"), "[project]\nname = \"x\"\n").unwrap();
    assert_eq!(discover(&deep), None, "a pyproject without [tool.toolgate]");
    std::fs::write(
        root.join("pyproject.toml"),
        "[project]\nname = \"x\"\n[tool.toolgate]\nserver = \"uv run server\"\n[tool.toolgate.ci]\nfail_under = 0.7\n",
    )
    .unwrap();
    let found = discover(&deep).unwrap();
    assert_eq!(found, PathBuf::from("../../pyproject.toml"));
    let c = Config::read(&deep.join(&found)).unwrap();
    assert_eq!(c.server.as_deref(), Some("uv run server"));
    assert_eq!(c.ci.fail_under, Some(0.7));
    std::fs::write(root.join("a/toolgate.toml"), "").unwrap();
    assert_eq!(discover(&deep), Some(PathBuf::from("../toolgate.toml")));
    // Never above the repository's top.
    let outer = tempfile::tempdir().unwrap();
    std::fs::write(outer.path().join("toolgate.toml"), "").unwrap();
    let repo = outer.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    assert_eq!(discover(&repo), None);
    // An unknown key in [tool.toolgate] is named with the table.
    std::fs::write(root.join("pyproject.toml"), "[tool.toolgate]\nsevrer = 1\n").unwrap();
    let e = format!(
        "{:#}",
        Config::read(&root.join("pyproject.toml")).unwrap_err()
    );
    assert!(e.contains("sevrer") && e.contains("[tool.toolgate]"), "{e}");
}

#[test]
fn unknown_rules_are_named() {
    let c: Config = toml::from_str("[lint.rules.TG999]\nlevel = \"off\"\n").unwrap();
    assert!(c.lint.validate().unwrap_err().to_string().contains("TG999"));
}
