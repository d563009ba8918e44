//! Which task writer `toolgate init` can use on this machine: a hosted provider whose key is
//! set, else a local OpenAI-compatible runtime that answers on its usual address (Ollama,
//! llama.cpp, LM Studio, vLLM), else the offline templates. Nothing is sent but a
//! `GET {base}/models` to local runtimes; a key is only ever read to see that it is set.

use std::time::Duration;

use serde_json::Value;

use super::provider::{PROVIDERS, provider};

/// Hosted providers tried in order when their key is set, with the model `init` asks for.
pub(crate) const HOSTED_WRITERS: &[(&str, &str)] = &[
    ("anthropic", "claude-haiku-4-5"),
    ("openai", "gpt-4o-mini"),
    ("openrouter", "openai/gpt-4o-mini"),
];

/// Local runtimes probed in order (their default base URL, or their `*_BASE_URL`).
pub(crate) const LOCAL_WRITERS: &[&str] = &["ollama", "llamacpp", "lmstudio", "vllm"];

/// How long a local runtime may take to list its models before it counts as absent.
const PROBE_TIMEOUT: Duration = Duration::from_millis(800);

/// A model listing larger than this is not read.
const MAX_LISTING: usize = 1 << 20;

/// A model id longer than this, or with other characters, is not used in a spec.
const MAX_MODEL_ID: usize = 200;

/// The writer chosen and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WriterPick {
    /// An LLM spec (`provider:model`), or `None` for the templates.
    pub spec: Option<String>,
    /// One line for the user: what was chosen and what was looked at.
    pub why: String,
}

/// The first model a local runtime's `GET {base}/models` lists, when it answers in time.
async fn local_model(client: &reqwest::Client, base: &str) -> Option<String> {
    let url = format!("{}/models", base.trim_end_matches('/'));
    let resp = client.get(&url).send().await.ok()?;
    if !resp.status().is_success() {
        return None;
    }
    let mut resp = resp;
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.ok()? {
        body.extend_from_slice(&chunk);
        if body.len() > MAX_LISTING {
            return None;
        }
    }
    first_model_id(&body)
}

/// The first plausible chat model id of an OpenAI `/models` listing (Ollama's too).
pub(crate) fn first_model_id(body: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    v.get("data")?
        .as_array()?
        .iter()
        .take(100)
        .filter_map(|m| m.get("id")?.as_str())
        .find(|id| {
            !id.is_empty()
                && id.len() <= MAX_MODEL_ID
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.:/@+".contains(c))
                // An embedding model lists beside the chat models and cannot write.
                && !id.to_ascii_lowercase().contains("embed")
        })
        .map(str::to_string)
}

/// Picks the best writer available. `env` reads a variable (the process environment in use;
/// a map in tests).
pub(crate) async fn best_writer(env: &dyn Fn(&str) -> Option<String>) -> WriterPick {
    let set = |k: &str| env(k).is_some_and(|v| !v.trim().is_empty());
    for (name, model) in HOSTED_WRITERS {
        if let Some(p) = provider(name)
            && set(p.key_env)
        {
            return WriterPick {
                spec: Some(format!("{name}:{model}")),
                why: format!(
                    "{} is set: tasks are written by {name}:{model} (choose another with --writer)",
                    p.key_env
                ),
            };
        }
    }
    let Ok(client) = crate::catalog::net::client_builder()
        .timeout(PROBE_TIMEOUT)
        .connect_timeout(PROBE_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
    else {
        return templates("no HTTP client could be built");
    };
    let mut looked = Vec::new();
    for name in LOCAL_WRITERS {
        let Some(p) = PROVIDERS.iter().find(|p| p.name == *name) else {
            continue;
        };
        let Some(base) = env(p.base_env)
            .filter(|b| !b.trim().is_empty())
            .or(p.default_base.map(str::to_string))
        else {
            continue;
        };
        if let Some(model) = local_model(&client, &base).await {
            return WriterPick {
                spec: Some(format!("{name}:{model}")),
                why: format!(
                    "a local {name} server answers at {}: tasks are written by {name}:{model} (choose another with --writer)",
                    crate::secrets::redact_url(&base)
                ),
            };
        }
        looked.push(format!("{name} at {}", crate::secrets::redact_url(&base)));
    }
    let hosted: Vec<&str> = HOSTED_WRITERS
        .iter()
        .filter_map(|(n, _)| provider(n).map(|p| p.key_env))
        .collect();
    templates(&format!(
        "no provider key ({}) is set and no local model server answered ({})",
        hosted.join(", "),
        looked.join(", ")
    ))
}

fn templates(why: &str) -> WriterPick {
    WriterPick {
        spec: None,
        why: format!(
            "{why}: tasks are written from templates (a smoke suite until you review it; --writer SPEC picks an LLM)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_gives_its_first_plausible_model() {
        let ok = br#"{"object":"list","data":[{"id":"nomic-embed-text:latest"},{"id":"qwen2.5:7b"},{"id":"b"}]}"#;
        assert_eq!(first_model_id(ok).as_deref(), Some("qwen2.5:7b"));
        let path = br#"{"data":[{"id":"/root/.cache/m/gemma-3-270m-q4_k_m.gguf"}]}"#;
        assert!(first_model_id(path).is_some());
        for bad in [
            &br#"{"data":[]}"#[..],
            br#"{"data":[{"id":"a b; rm -rf"}]}"#,
            br#"{"data":[{"id":""}]}"#,
            b"<html>",
        ] {
            assert_eq!(first_model_id(bad), None);
        }
    }

    #[tokio::test]
    async fn a_set_key_wins_and_nothing_else_falls_back_to_templates() {
        let pick = best_writer(&|k| (k == "OPENAI_API_KEY").then(|| "sk-x".to_string())).await;
        assert_eq!(pick.spec.as_deref(), Some("openai:gpt-4o-mini"));
        assert!(!pick.why.contains("sk-x"));
        // Every local runtime pointed at a closed port: templates, saying what was tried.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let dead = format!("http://{}/v1", closed.local_addr().unwrap());
        drop(closed);
        let pick = best_writer(&|k| k.ends_with("_BASE_URL").then(|| dead.clone())).await;
        assert_eq!(pick.spec, None);
        assert!(
            pick.why.contains("ollama at http://127.0.0.1"),
            "{}",
            pick.why
        );
    }
}
