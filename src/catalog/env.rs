//! The environment a server subprocess gets: toolgate's own, minus every provider credential
//! toolgate knows of, so an LLM key or the CI token never reaches third-party server code.

/// Variables that hold credentials for LLM providers or for GitHub.
pub const SECRET_VARS: &[&str] = &[
    "OPENAI_API_KEY",
    "OPENAI_ORG_ID",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "OPENROUTER_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "MISTRAL_API_KEY",
    "GROQ_API_KEY",
    "TOGETHER_API_KEY",
    "DEEPSEEK_API_KEY",
    "XAI_API_KEY",
    "COHERE_API_KEY",
    "FIREWORKS_API_KEY",
    "PERPLEXITY_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "OLLAMA_API_KEY",
    "VLLM_API_KEY",
    "LMSTUDIO_API_KEY",
    "TOOLGATE_API_KEY",
    "TOOLGATE_BEARER_TOKEN",
    "GITHUB_TOKEN",
    "TOOLGATE_GITHUB_TOKEN",
    "GH_TOKEN",
    "ACTIONS_RUNTIME_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
];

/// True when `name` is a credential the server must not see, unless the user passed it
/// explicitly with `--pass-env NAME`. toolgate's own settings (`TOOLGATE_*`, which may hold
/// headers or the comment token) and a GitHub Action's inputs (`INPUT_*`, which include the
/// `github-token` input) are stripped too.
pub fn is_stripped(name: &str, pass: &[String]) -> bool {
    if pass.iter().any(|p| p == name) {
        return false;
    }
    SECRET_VARS.contains(&name) || name.starts_with("INPUT_") || name.starts_with("TOOLGATE_")
}

/// Values of the credential variables set in this process (long enough to be secrets), so
/// they can be masked wherever a command line is shown.
pub fn secret_values() -> Vec<String> {
    std::env::vars()
        .filter(|(k, v)| {
            v.len() >= 8
                && (SECRET_VARS.contains(&k.as_str())
                    || k == "TOOLGATE_GITHUB_TOKEN"
                    || k.starts_with("INPUT_") && k.contains("TOKEN"))
        })
        .map(|(_, v)| v)
        .collect()
}

/// Names of variables present in this process that must be removed from the child's env.
pub fn stripped_present(pass: &[String]) -> Vec<String> {
    std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| is_stripped(k, pass))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_provider_keys_but_not_server_keys() {
        assert!(is_stripped("OPENAI_API_KEY", &[]));
        assert!(is_stripped("GITHUB_TOKEN", &[]));
        assert!(!is_stripped("GITHUB_TOKEN", &["GITHUB_TOKEN".into()]));
        assert!(!is_stripped("BRAVE_API_KEY", &[]));
        assert!(!is_stripped("PATH", &[]));
        assert!(is_stripped("INPUT_GITHUB-TOKEN", &[]));
        assert!(is_stripped("TOOLGATE_HEADERS", &[]));
    }
}
