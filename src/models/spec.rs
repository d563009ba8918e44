//! A model spec, parsed once where a command resolves its settings: which kind of model it
//! names (an offline router, a replay, an LLM of a known provider) and the rest of the text.
//! Everything downstream asks the parsed spec, never the string.

use std::fmt;
use std::str::FromStr;

use super::provider::{self, Provider};
pub(crate) use crate::record::model::Router;
use crate::record::model::{self, Head};

/// What a spec names.
#[derive(Clone, Debug)]
pub(crate) enum ModelKind {
    /// An offline router (`bm25[:<min_score>]`, `embed[@<min_cosine>]:<dir>`,
    /// `toolsearch[:k]`, …): its score is findability.
    Router(Router),
    /// `replay:<file.jsonl>`: recorded answers.
    Replay,
    /// `<provider>:<model>`: an LLM behind a provider's API.
    Llm(&'static Provider),
}

impl PartialEq for ModelKind {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (ModelKind::Llm(a), ModelKind::Llm(b)) => a.name == b.name,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

impl Eq for ModelKind {}

/// A parsed model spec: its kind, the head before the first `:` (`embed@0.4`), the rest after
/// it, and the text as written (its identity until a model normalises it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ModelSpec {
    text: String,
    head: String,
    rest: String,
    kind: ModelKind,
}

impl ModelSpec {
    /// `bm25`, the default model.
    pub(crate) fn bm25() -> Self {
        ModelSpec {
            text: "bm25".into(),
            head: "bm25".into(),
            rest: String::new(),
            kind: ModelKind::Router(Router::Bm25),
        }
    }

    pub(crate) fn kind(&self) -> &ModelKind {
        &self.kind
    }

    /// The part before the first `:` (`bm25`, `embed@0.4`, `openai`).
    pub(crate) fn head(&self) -> &str {
        &self.head
    }

    /// The part after the first `:` (a BM25 floor, a directory, a file, a model name).
    pub(crate) fn rest(&self) -> &str {
        &self.rest
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// The provider of an LLM spec.
    pub(crate) fn provider(&self) -> Option<&'static Provider> {
        match self.kind {
            ModelKind::Llm(p) => Some(p),
            _ => None,
        }
    }

    /// True for an LLM: its decisions cost provider calls.
    pub(crate) fn is_llm(&self) -> bool {
        matches!(self.kind, ModelKind::Llm(_))
    }

    pub(crate) fn is_replay(&self) -> bool {
        self.kind == ModelKind::Replay
    }

    pub(crate) fn is_bm25(&self) -> bool {
        self.kind == ModelKind::Router(Router::Bm25)
    }

    /// Parses every spec of a list, naming `what` (a flag or a file's key) in the error.
    pub(crate) fn parse_all<S: AsRef<str>>(
        specs: &[S],
        what: &str,
    ) -> anyhow::Result<Vec<ModelSpec>> {
        specs
            .iter()
            .map(|s| {
                s.as_ref()
                    .parse::<ModelSpec>()
                    .map_err(|e| anyhow::anyhow!("{what}: {e}"))
            })
            .collect()
    }
}

impl FromStr for ModelSpec {
    type Err = String;

    fn from_str(spec: &str) -> Result<Self, String> {
        let spec = spec.trim();
        let (head, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let parts = model::parse(spec);
        let kind = match parts.head {
            Head::Router(r) if parts.floor.is_none() || r.takes_floor() => ModelKind::Router(r),
            Head::Replay if parts.floor.is_none() => ModelKind::Replay,
            _ => {
                let Some(p) = provider::provider(head) else {
                    let names: Vec<&str> = provider::PROVIDERS.iter().map(|p| p.name).collect();
                    return Err(format!(
                        "unknown model `{spec}`: use bm25, toolsearch[:k], toolsearch-names[:k], toolsearch-codex[:k], toolsearch-card[:k], embed:<dir>, hybrid:<dir>, replay:<file>, or <provider>:<model> with provider one of {}",
                        names.join(", ")
                    ));
                };
                if rest.trim().is_empty() {
                    return Err(format!(
                        "`{spec}`: name the model after the colon, e.g. `{head}:<model>`"
                    ));
                }
                ModelKind::Llm(p)
            }
        };
        Ok(ModelSpec {
            text: spec.to_string(),
            head: head.to_string(),
            rest: rest.to_string(),
            kind,
        })
    }
}

impl fmt::Display for ModelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Joins specs with `sep`, as written.
pub(crate) fn join(specs: &[ModelSpec], sep: &str) -> String {
    specs
        .iter()
        .map(ModelSpec::as_str)
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_recognised_once() {
        let k = |s: &str| s.parse::<ModelSpec>().unwrap().kind().clone();
        let r = |r: Router| ModelKind::Router(r);
        assert_eq!(k("bm25"), r(Router::Bm25));
        assert_eq!(k("bm25:2.5"), r(Router::Bm25));
        assert_eq!(k("embed@0.4:/m"), r(Router::Embed));
        assert_eq!(k("hybrid:/m"), r(Router::Hybrid));
        assert_eq!(k("replay:a.jsonl"), ModelKind::Replay);
        assert_eq!(k("toolsearch:3"), r(Router::ToolSearch));
        assert_eq!(k("toolsearch-names"), r(Router::ToolSearchNames));
        assert_eq!(k("toolsearch-codex:8"), r(Router::ToolSearchCodex));
        assert!("bm25@1".parse::<ModelSpec>().is_err());
        assert!("replay@1:a".parse::<ModelSpec>().is_err());
        let s: ModelSpec = " openai:gpt-4o-mini ".parse().unwrap();
        assert_eq!(s.provider().map(|p| p.name), Some("openai"));
        assert_eq!(
            (s.head(), s.rest(), s.as_str()),
            ("openai", "gpt-4o-mini", "openai:gpt-4o-mini")
        );
        assert!(s.is_llm() && !s.is_replay());
    }

    #[test]
    fn bad_specs_say_what_would_work() {
        let e = "nope:x".parse::<ModelSpec>().unwrap_err();
        assert!(
            e.contains("unknown model `nope:x`") && e.contains("openai"),
            "{e}"
        );
        let e = "ollama:".parse::<ModelSpec>().unwrap_err();
        assert!(e.contains("name the model after the colon"), "{e}");
        let e = ModelSpec::parse_all(&["bm25", "x"], "--model").unwrap_err();
        assert!(
            e.to_string().starts_with("--model: unknown model `x`"),
            "{e}"
        );
    }
}
