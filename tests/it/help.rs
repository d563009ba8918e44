//! What `--help` promises a new user: every model spec form, the real defaults.

use crate::common::toolgate;

fn help(args: &[&str]) -> String {
    let out = toolgate().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}");
    // Wrapped help may break a name across lines only at spaces; join lines to search.
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn model_help_names_every_model_kind_and_provider() {
    for args in [["run", "--help"], ["ci", "--help"]] {
        let text = help(&args);
        assert!(text.contains("bm25[:<min_score>]"), "{args:?}: {text}");
        assert!(text.contains("replay:<file.jsonl>"), "{args:?}: {text}");
        assert!(text.contains("<provider>:<model>"), "{args:?}: {text}");
        for p in toolgate::testing::models::provider::PROVIDERS {
            assert!(
                text.contains(p.name),
                "{args:?}: provider `{}` is missing from the model help",
                p.name
            );
        }
    }
}

#[test]
fn ci_help_states_the_comment_default_it_applies() {
    let text = help(&["ci", "--help"]);
    let at = text
        .find("--comment [<BOOL>]")
        .expect("--comment is documented");
    let entry = &text[at..at + 400.min(text.len() - at)];
    assert!(
        entry.contains("true on GitHub Actions") && entry.contains("false elsewhere"),
        "{entry}"
    );
    assert!(!entry.contains("[default: false]"), "{entry}");
}

#[test]
fn color_is_a_global_flag() {
    for args in [vec!["--help"], vec!["lint", "--help"]] {
        let text = help(&args);
        assert!(text.contains("--color <WHEN>"), "{args:?}: {text}");
        assert!(text.contains("NO_COLOR"), "{args:?}");
    }
    toolgate()
        .args(["--color", "sometimes", "rules"])
        .assert()
        .code(2);
}
