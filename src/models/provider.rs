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
    // `local:<file.gguf>`: a llama-server toolgate starts itself (models::local); its base
    // URL is the loopback port it was started on.
    Provider {
        name: "local",
        wire: Wire::OpenAi,
        default_base: Some("http://127.0.0.1/v1"),
        key_env: "TOOLGATE_LOCAL_API_KEY",
        key_required: false,
        base_env: "TOOLGATE_LOCAL_BASE_URL",
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

pub(crate) fn provider(name: &str) -> Option<&'static Provider> {
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

/// Requests in flight at once to a hosted provider when `--concurrency` is not given.
pub(crate) const DEFAULT_CONCURRENCY: usize = 4;

impl Endpoint {
    /// Whether the base URL is on this machine (`localhost`, `*.localhost`, 127.0.0.0/8,
    /// `::1`, `0.0.0.0`): where Ollama, llama.cpp and LM Studio run, serving one request at a
    /// time by default.
    pub fn is_local(&self) -> bool {
        let Ok(url) = reqwest::Url::parse(&self.base_url) else {
            return false;
        };
        let Some(host) = url.host_str() else {
            return false;
        };
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        match bare.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(ip)) => ip.is_loopback() || ip.is_unspecified(),
            Ok(std::net::IpAddr::V6(ip)) => {
                ip.is_loopback()
                    || ip.is_unspecified()
                    || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
            }
            Err(_) => {
                let d = bare.trim_end_matches('.').to_ascii_lowercase();
                d == "localhost" || d.ends_with(".localhost")
            }
        }
    }

    /// Requests in flight at once when `--concurrency` is not given: 1 for a runtime on this
    /// machine (it queues the others, and a queued request spends its `--timeout` waiting),
    /// except vLLM, which batches; [`DEFAULT_CONCURRENCY`] elsewhere.
    pub fn default_concurrency(&self) -> usize {
        if self.is_local() && self.provider.name != "vllm" {
            1
        } else {
            DEFAULT_CONCURRENCY
        }
    }
}

/// Resolves the endpoint of `provider` from the flags (`--base-url`, `--api-key`) or the
/// provider's own environment variables.
pub(crate) fn endpoint(
    p: &'static Provider,
    base_flag: Option<&str>,
    key_flag: Option<&str>,
) -> anyhow::Result<Endpoint> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    // Keys are read through the secret store: `take_secrets` moved them out of the
    // environment at start-up (servers and /proc must not see them).
    let key_env = crate::secrets::secret_var;
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
            crate::secrets::redact_url(&base)
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

    #[test]
    fn endpoints_on_this_machine_default_to_one_request_at_a_time() {
        let at =
            |p: &str, base: &str| endpoint(provider(p).unwrap(), Some(base), Some("k")).unwrap();
        for base in [
            "http://localhost:11434/v1",
            "http://LOCALHOST./v1",
            "http://ollama.localhost:8080",
            "http://127.0.0.1:1234/v1",
            "http://127.8.9.1/v1",
            "http://[::1]:8080/v1",
            "http://[::ffff:127.0.0.1]:8080/v1",
            "http://0.0.0.0:8080/v1",
            "http://user:pw@localhost:1/v1",
        ] {
            let e = at("openai-compat", base);
            assert!(e.is_local(), "{base}");
            assert_eq!(e.default_concurrency(), 1, "{base}");
        }
        for base in [
            "https://api.openai.com/v1",
            "http://192.168.1.20:11434/v1",
            "http://localhost.example.com/v1",
            "http://[2001:db8::1]/v1",
            "http://10.0.0.1/v1",
        ] {
            let e = at("openai-compat", base);
            assert!(!e.is_local(), "{base}");
            assert_eq!(e.default_concurrency(), DEFAULT_CONCURRENCY, "{base}");
        }
        // vLLM batches requests: it keeps the hosted default even on this machine.
        assert_eq!(
            at("vllm", "http://localhost:8000/v1").default_concurrency(),
            4
        );
        assert_eq!(
            endpoint(provider("ollama").unwrap(), None, None)
                .unwrap()
                .default_concurrency(),
            1
        );
    }
}
