//! Models that choose a tool for a request: the offline BM25 router here; LLM adapters and
//! replayed logs build on the same interface. A model is built for one catalog.

pub(crate) mod bm25;
pub(crate) mod cache;
pub(crate) mod card_search;
pub(crate) mod codex_search;
pub(crate) mod cost;
pub(crate) mod discover;
pub(crate) mod embed;
pub(crate) mod error;
pub(crate) mod llm;
pub(crate) mod local;
mod model;
pub(crate) mod provider;
pub(crate) mod replay;
pub(crate) mod spec;
pub(crate) mod tool_search;
pub(crate) mod wire;

use anyhow::bail;

pub(crate) use crate::record::decision::{Decision, ErrorKind, Step};
pub(crate) use crate::record::probe::{Canary, DescriptionProbe, ProbeOutcome};
pub(crate) use error::DecisionError;
pub(crate) use model::BoxFuture;
pub use model::{Model, ModelOptions};
pub(crate) use spec::{ModelKind, ModelSpec, Router};

use crate::catalog::Catalog;

/// Builds the LLM a `--fixer`/`--generator` spec names (`<provider>:<model>`).
pub fn build_llm(
    spec: &str,
    catalog: &Catalog,
    opts: &ModelOptions,
) -> anyhow::Result<llm::LlmModel> {
    let not_llm = || {
        anyhow::anyhow!(
            "`{spec}` is not an LLM: use <provider>:<model>, e.g. openai:gpt-4o-mini or ollama:llama3.1"
        )
    };
    let parsed: ModelSpec = match spec.parse() {
        Ok(p) => p,
        // A provider named without its model says so; anything else is not an LLM at all.
        Err(e) if e.contains("name the model") => bail!(e),
        Err(_) => return Err(not_llm()),
    };
    let ModelKind::Llm(p) = parsed.kind() else {
        return Err(not_llm());
    };
    let ep = provider::endpoint(p, opts.base_url.as_deref(), opts.api_key.as_deref())?;
    llm::LlmModel::new(
        parsed.as_str().to_string(),
        parsed.rest().to_string(),
        ep,
        catalog,
        opts.llm.clone(),
    )
}

/// Builds the model a parsed spec names, for `catalog`: `bm25[:min_score]`,
/// `embed[@min_cosine]:<dir>`, `hybrid[@min_cosine]:<dir>`, `replay:<file.jsonl>`, or
/// `<provider>:<model>` with provider one of [`provider::PROVIDERS`].
pub(crate) fn build(
    spec: &ModelSpec,
    catalog: &Catalog,
    opts: &ModelOptions,
) -> anyhow::Result<Box<dyn Model>> {
    let (head, rest) = (spec.head(), spec.rest());
    Ok(match spec.kind() {
        ModelKind::Router(Router::Bm25) => Box::new(bm25::Bm25::from_spec(rest, catalog)?),
        ModelKind::Replay => Box::new(replay::Replay::load(rest)?),
        ModelKind::Router(Router::ToolSearchCard) => {
            Box::new(card_search::CardSearch::from_spec(rest, catalog)?)
        }
        ModelKind::Router(Router::ToolSearchCodex) => {
            Box::new(codex_search::CodexSearch::from_spec(rest, catalog)?)
        }
        ModelKind::Router(r @ (Router::ToolSearch | Router::ToolSearchNames)) => {
            Box::new(tool_search::ToolSearch::from_spec(*r, rest, catalog)?)
        }
        ModelKind::Router(Router::Embed) => Box::new(embed::Embed::from_spec(head, rest, catalog)?),
        ModelKind::Router(Router::Hybrid) => {
            Box::new(embed::hybrid::Hybrid::from_spec(head, rest, catalog)?)
        }
        ModelKind::Llm(p) if p.name == "local" => {
            if opts.base_url.is_some() {
                anyhow::bail!(
                    "`{spec}`: toolgate starts this llama-server itself, so --base-url does not apply (use llamacpp:<model> with --base-url for a server you run)"
                );
            }
            let slots = opts.llm.cache.as_ref().map(|c| c.dir().join("llama-slots"));
            let server = local::LocalServer::start(
                std::path::Path::new(rest),
                &crate::catalog::canonical::catalog_hash(catalog),
                slots.as_deref(),
            )?;
            let ep = provider::Endpoint {
                provider: p,
                base_url: server.base_url(),
                key: None,
            };
            // One slot (`-np 1`): one request at a time, whatever --concurrency says.
            let mut llm_opts = opts.llm.clone();
            llm_opts.concurrency = Some(1);
            Box::new(
                llm::LlmModel::new(
                    spec.as_str().to_string(),
                    rest.to_string(),
                    ep,
                    catalog,
                    llm_opts,
                )?
                .with_local(std::sync::Arc::new(server)),
            )
        }
        ModelKind::Llm(p) => {
            let ep = provider::endpoint(p, opts.base_url.as_deref(), opts.api_key.as_deref())?;
            Box::new(llm::LlmModel::new(
                spec.as_str().to_string(),
                rest.to_string(),
                ep,
                catalog,
                opts.llm.clone(),
            )?)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_their_provider() {
        let p = |s: &str| s.parse::<ModelSpec>().unwrap().provider();
        assert_eq!(p("openai:gpt-4o-mini").unwrap().name, "openai");
        assert_eq!(
            p("anthropic:claude-x").unwrap().wire,
            provider::Wire::Anthropic
        );
        assert!(p("bm25").is_none());
        let c = Catalog::default();
        let err = |s: &str| {
            build_llm(s, &c, &ModelOptions::default())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(err("gpt4").contains("is not an LLM"));
        assert!(err("ollama:").contains("name the model"));
        assert!(err("bm25").contains("is not an LLM"));
    }
}
