//! `[[lint.accept]]`: what an entry accepts, and entries that match nothing.

use super::*;
use crate::lint::{Finding, Severity};

fn finding(code: &str, tool: &str, pointer: &str) -> Finding {
    Finding {
        code: code.into(),
        slug: crate::lint::rule(code)
            .map(|r| r.slug.to_string())
            .unwrap_or_default(),
        severity: Severity::Warning,
        tool: Some(tool.into()),
        tool_index: Some(0),
        pointer: pointer.into(),
        message: "m".into(),
        help: "h".into(),
        related: vec![],
        pair: None,
        group: None,
    }
}

fn accept(toml_text: &str) -> anyhow::Result<LintSettings> {
    let s: LintSettings = toml::from_str(toml_text)?;
    s.validate()?;
    Ok(s)
}

#[test]
fn an_accepted_finding_is_dropped_and_an_unused_entry_is_named() {
    let s = accept(
        r#"
[[accept]]
rule = "undocumented-parameter"
tool = "read_file"
pointer = "/inputSchema/properties/path"
reason = "described in the tool description"

[[accept]]
rule = "TG005"
tool = "gone_tool"
reason = "was a look-alike pair"
"#,
    )
    .unwrap();
    let path = finding("TG007", "read_file", "/inputSchema/properties/path");
    let other = finding("TG007", "read_file", "/inputSchema/properties/content");
    let elsewhere = finding("TG007", "write_file", "/inputSchema/properties/path");
    assert_eq!(s.apply(path.clone()), None);
    assert!(s.apply(other.clone()).is_some());
    assert!(s.apply(elsewhere.clone()).is_some());
    assert_eq!(s.unused_accepts(&[path, other, elsewhere]), vec![1]);
}

#[test]
fn a_pair_finding_is_accepted_or_ignored_by_either_of_its_tools() {
    let s = accept(
        r#"
[[accept]]
rule = "TG032"
tool = "find_notes"
reason = "kept for old clients"
"#,
    )
    .unwrap();
    let mut f = finding("TG032", "search_notes", "/description");
    f.pair = Some("find_notes".into());
    assert_eq!(s.apply(f.clone()), None);
    let g = LintSettings {
        ignore_tools: vec!["find_notes".into()],
        ..Default::default()
    };
    assert_eq!(g.apply(f.clone()), None);
    f.pair = Some("other".into());
    assert!(s.apply(f.clone()).is_some() && g.apply(f).is_some());
}

#[test]
fn an_entry_without_a_reason_or_rule_is_an_error_naming_it() {
    for (text, says) in [
        (
            "[[accept]]\nrule = \"TG007\"\ntool = \"a\"\nreason = \"\"\n",
            "entry 1 (TG007 a): `reason` is required",
        ),
        (
            "[[accept]]\nrule = \"TG007\"\ntool = \"a\"\nreason = \"TODO: why\"\n",
            "`reason` is required",
        ),
        (
            "[[accept]]\nrule = \"TG999\"\ntool = \"a\"\nreason = \"x\"\n",
            "names no rule",
        ),
    ] {
        let err = accept(text).unwrap_err().to_string();
        assert!(err.contains(says), "{text}: {err}");
    }
    assert!(
        toml::from_str::<LintSettings>("[[accept]]\nrule = \"TG007\"\ntool = \"a\"\n").is_err()
    );
}

#[test]
fn stubs_are_valid_config_that_is_refused_until_given_reasons() {
    let report_finding = crate::record::lint::ReportFinding {
        code: "TG007".into(),
        slug: "undocumented-parameter".into(),
        severity: Severity::Warning,
        tool: Some("read_file".into()),
        pointer: "/inputSchema/properties/path".into(),
        message: "`read_file` parameter `path` has no description".into(),
        help: String::new(),
        docs_url: String::new(),
        file: None,
        line: None,
        related: vec![],
        pair: None,
        group: None,
    };
    let stubs = Accepted::stubs(&[report_finding]);
    let cfg: crate::config::Config = toml::from_str(&stubs).unwrap();
    assert_eq!(cfg.lint.accept.len(), 1);
    assert_eq!(cfg.lint.accept[0].tool, "read_file");
    assert!(cfg.lint.validate().is_err(), "a TODO reason is refused");
}
