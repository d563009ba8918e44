//! LLM providers: which wire format each speaks, its default base URL, and the environment
//! variables its key and base URL come from. A key is only ever sent to its own provider.

use anyhow::bail;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// OpenAI chat completions (`POST {base}/chat/completions`, `tools`, `tool_calls`).
    OpenAi,
    /// Anthropic Messages (`POST {base}/v1/messages`, `tools`, `tool_use`).
    Anthropic,
}

#[derive(Clone, Copy, Debug)]
pub struct Provider {
    pub name: &'static str,
    pub wire: Wire,
    /// Base URL when neither `--base-url` nor `base_env` is set.
    pub default_base: Option<&'static str>,
    /// Environment variable holding the API key.
    pub key_env: &'static str,
    /// Whether a key is required (hosted APIs) or optional (local runtimes).
    pub key_required: bool,
    /// Environment variable that overrides the base URL (proxies, gateways, local servers).
    pub base_env: &'static str,
}

pub const PROVIDERS: &[Provider] = &[
    Provider {
        name: "openai",
        wire: Wire::OpenAi,
        default_base: Some("https://api.openai.com/v1"),
        key_env: "OPENAI_API_KEY",
        key_required: true,
        base_env: "OPENAI_BASE_URL",
    },
    Provider {
        name: "openrouter",
        wire: Wire::OpenAi,
        default_base: Some("https://openrouter.ai/api/v1"),
        key_env: "OPENROUTER_API_KEY",
        key_required: true,
        base_env: "OPENROUTER_BASE_URL",
    },
    Provider {
        name: "ollama",
        wire: Wire::OpenAi,
        default_base: Some("http://localhost:11434/v1"),
        key_env: "OLLAMA_API_KEY",
        key_required: false,
        base_env: "OLLAMA_BASE_URL",
    },
    Provider {
        name: "vllm",
        wire: Wire::OpenAi,
        default_base: Some("http://localhost:8000/v1"),
        key_env: "VLLM_API_KEY",
        key_required: false,
        base_env: "VLLM_BASE_URL",
    },
    Provider {
        name: "llamacpp",
        wire: Wire::OpenAi,
        default_base: Some("http://localhost:8080/v1"),
        key_env: "LLAMACPP_API_KEY",
        key_required: false,
        base_env: "LLAMACPP_BASE_URL",
    },
    Provider {
        name: "lmstudio",
        wire: Wire::OpenAi,
        default_base: Some("http://localhost:1234/v1"),
        key_env: "LMSTUDIO_API_KEY",
        key_required: false,
        base_env: "LMSTUDIO_BASE_URL",
    },
    Provider {
        name: "openai-compat",
        wire: Wire::OpenAi,
        default_base: None,
        key_env: "OPENAI_COMPAT_API_KEY",
        key_required: false,
        base_env: "OPENAI_COMPAT_BASE_URL",
    },
    Provider {
        name: "anthropic",
        wire: Wire::Anthropic,
        default_base: Some("https://api.anthropic.com"),
        key_env: "ANTHROPIC_API_KEY",
        key_required: true,
        base_env: "ANTHROPIC_BASE_URL",
    },
];

pub fn provider(name: &str) -> Option<&'static Provider> {
    PROVIDERS.iter().find(|p| p.name == name)
}

/// A secret that never prints.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: String) -> Self {
        Secret(s)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// Where a model's requests go and with which key.
#[derive(Clone, Debug)]
pub struct Endpoint {
    pub provider: &'static Provider,
    pub base_url: String,
    pub key: Option<Secret>,
}

/// Resolves the endpoint of `provider` from the flags (`--base-url`, `--api-key`) or the
/// provider's own environment variables.
pub fn endpoint(
    p: &'static Provider,
    base_flag: Option<&str>,
    key_flag: Option<&str>,
) -> anyhow::Result<Endpoint> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    // Keys are read through the secret store: `take_secrets` moved them out of the
    // environment at start-up (servers and /proc must not see them).
    let key_env = crate::catalog::env::secret_var;
    let base = base_flag
        .map(str::to_string)
        .or_else(|| env(p.base_env))
        .or(p.default_base.map(str::to_string));
    let Some(base) = base else {
        bail!(
            "{}: no base URL: pass --base-url or set {}",
            p.name,
            p.base_env
        );
    };
    reqwest::Url::parse(&base).map_err(|e| {
        anyhow::anyhow!(
            "{}: base URL `{}` is not valid: {e}",
            p.name,
            crate::catalog::source::redact_url(&base)
        )
    })?;
    let key = key_flag
        .map(str::to_string)
        .or_else(|| key_env(p.key_env))
        .map(Secret::new);
    if key.is_none() && p.key_required && base_flag.is_none() && env(p.base_env).is_none() {
        return Err(crate::error::ProviderError::MissingKey {
            provider: p.name.to_string(),
            var: p.key_env.to_string(),
        }
        .into());
    }
    Ok(Endpoint {
        provider: p,
        base_url: base.trim_end_matches('/').to_string(),
        key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_do_not_print() {
        assert_eq!(format!("{:?}", Secret::new("sk-123".into())), "Secret(…)");
    }

    #[test]
    fn local_runtimes_have_defaults_and_flags_win() {
        let e = endpoint(provider("ollama").unwrap(), None, None).unwrap();
        assert_eq!(e.base_url, "http://localhost:11434/v1");
        let e = endpoint(
            provider("openai-compat").unwrap(),
            Some("http://127.0.0.1:9/v1/"),
            Some("k"),
        )
        .unwrap();
        assert_eq!(e.base_url, "http://127.0.0.1:9/v1");
        assert!(endpoint(provider("openai-compat").unwrap(), None, None).is_err());
    }
}
