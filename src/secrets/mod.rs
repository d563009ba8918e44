//! toolgate's own secrets: the credentials it reads, URL redaction, and the environment a
//! server subprocess gets (toolgate's own, minus every credential toolgate knows of, so an LLM
//! key or the CI token never reaches third-party server code).
//!
//! Three layers keep a key away from a server that runs as the same user:
//! 1. [`harden_process`] makes toolgate non-dumpable, so `/proc/<toolgate>/environ` (and
//!    `mem`) cannot be read by a process of the same uid (`/proc/<pid>/cmdline` stays
//!    world-readable whatever the flag: a key passed as `--api-key` is visible there);
//! 2. [`take_secrets`] moves the credentials toolgate uses into an in-memory store, wipes
//!    their bytes from the process's original environment block and removes them from the
//!    environment, so neither children nor `/proc` see them; code reads them back with
//!    [`secret_var`];
//! 3. every child gets an environment with [`is_stripped`] variables removed.

pub(crate) mod argv;
mod names;
pub(crate) mod shown;
mod store;

pub(crate) use names::looks_secret;
use store::{store, store_snapshot};

/// Variables that hold credentials for LLM providers or for GitHub. Every provider's key
/// variable in `crate::models::provider::PROVIDERS` is among them: the test
/// `every_provider_key_and_runner_file_is_stripped` below keeps the two lists from drifting
/// apart (this module imports no stage, so catalog and models can both use it).
pub(crate) const SECRET_VARS: &[&str] = &[
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
    "OLLAMA_API_KEY",
    "VLLM_API_KEY",
    "LLAMACPP_API_KEY",
    "LMSTUDIO_API_KEY",
    "OPENAI_COMPAT_API_KEY",
    "XAI_API_KEY",
    "COHERE_API_KEY",
    "FIREWORKS_API_KEY",
    "PERPLEXITY_API_KEY",
    "AZURE_OPENAI_API_KEY",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "TOOLGATE_API_KEY",
    "TOOLGATE_BEARER_TOKEN",
    "GITHUB_TOKEN",
    "TOOLGATE_GITHUB_TOKEN",
    "GH_TOKEN",
    "ACTIONS_RUNTIME_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
];

/// GitHub Actions files and settings a server must not get: a server that appends to
/// `GITHUB_ENV` or `GITHUB_PATH` changes every later step of the job.
pub(crate) const RUNNER_VARS: &[&str] = &[
    "GITHUB_ENV",
    "GITHUB_PATH",
    "GITHUB_OUTPUT",
    "GITHUB_STEP_SUMMARY",
    "GITHUB_STATE",
    "GITHUB_EVENT_PATH",
];

fn is_secret_var(name: &str) -> bool {
    SECRET_VARS.contains(&name)
}

/// True when `name` is a credential the server must not see, unless the user passed it
/// explicitly with `--pass-env NAME`. toolgate's own settings (`TOOLGATE_*`, which may hold
/// headers or the comment token), a GitHub Action's inputs (`INPUT_*`, which include the
/// `github-token` input), the runner's command files (`GITHUB_ENV`, …) and `ACTIONS_*`
/// (runtime tokens and cache URLs) are stripped too.
pub(crate) fn is_stripped(name: &str, pass: &[String]) -> bool {
    if pass.iter().any(|p| p == name) {
        return false;
    }
    is_secret_var(name)
        || RUNNER_VARS.contains(&name)
        || name.starts_with("ACTIONS_")
        || name.starts_with("INPUT_")
        || name.starts_with("TOOLGATE_")
}

/// Values of the credential variables, from the store and this process's environment (long
/// enough to be secrets), so they can be masked wherever a command line is shown.
pub(crate) fn secret_values() -> Vec<String> {
    let mut out: Vec<String> = store_snapshot().into_values().collect();
    out.extend(
        std::env::vars()
            .filter(|(k, v)| {
                shown::own_shaped(v)
                    && (is_secret_var(k)
                        || (k.starts_with("INPUT_") || k.starts_with("TOOLGATE_"))
                            && looks_secret(k))
            })
            .map(|(_, v)| v),
    );
    out.retain(|v| shown::own_shaped(v));
    out.sort();
    out.dedup();
    out
}

/// Names of variables present in this process that must be removed from the child's env.
pub(crate) fn stripped_present(pass: &[String]) -> Vec<String> {
    std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| is_stripped(k, pass))
        .collect()
}

/// Variables the user passed with `--pass-env` that [`take_secrets`] moved out of the
/// environment: they must be set on the child explicitly.
pub(crate) fn passed_from_store(pass: &[String]) -> Vec<(String, String)> {
    let store = store_snapshot();
    pass.iter()
        .filter_map(|n| store.get(n).map(|v| (n.clone(), v.clone())))
        .collect()
}

/// Drops user-info and query from a URL before it is printed or stored.
pub(crate) fn redact_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            if u.query().is_some() {
                u.set_query(None);
                return format!("{u}?…");
            }
            u.to_string()
        }
        Err(_) => "<invalid url>".to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// The secret store.

/// Reads a credential variable: from the store [`take_secrets`] filled, else from the
/// environment (for library users and tests that never called it). Empty values are `None`.
/// Every place that reads a key (`OPENAI_API_KEY`, `GITHUB_TOKEN`, a `--bearer-env` variable)
/// must read it through this function, since `take_secrets` removed it from the environment.
pub fn secret_var(name: &str) -> Option<String> {
    let stored = store().lock().ok().and_then(|s| s.get(name).cloned());
    stored
        .or_else(|| std::env::var(name).ok())
        .filter(|v| !v.trim().is_empty())
}

/// Names of the variables [`take_secrets`] moves out of the environment: every known
/// credential variable, and `INPUT_*` variables whose name looks secret (an action's
/// `github-token` input). `TOOLGATE_*` settings stay (clap reads them), except the
/// credential ones listed in [`SECRET_VARS`].
fn taken(name: &str) -> bool {
    is_secret_var(name) || name.starts_with("INPUT_") && looks_secret(name)
}

/// Moves every credential variable out of the environment into an in-memory store (read it
/// back with [`secret_var`]), overwriting its bytes in the process's environment block
/// first, so `/proc/<pid>/environ` no longer shows them either. Returns the names taken.
///
/// # Safety
/// Modifies the process environment: call it first thing in `main`, before the async runtime
/// or any other thread starts (the same rule as [`std::env::remove_var`]).
pub unsafe fn take_secrets() -> Vec<String> {
    let names: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| taken(k))
        .collect();
    for name in &names {
        if let Some(v) = std::env::var_os(name)
            && let Ok(mut s) = store().lock()
        {
            s.insert(name.clone(), v.to_string_lossy().into_owned());
        }
        // SAFETY: the caller guarantees no other thread reads or writes the environment.
        unsafe {
            wipe_value(name);
            std::env::remove_var(name);
        }
    }
    names
}

/// Removes settings that hold credentials once the arguments were parsed (clap read them
/// from the environment): `TOOLGATE_HEADERS` and the action's `INPUT_HEADER` carry header
/// values such as `Authorization: Bearer …`. Their bytes are overwritten too.
///
/// # Safety
/// As [`take_secrets`]: no other thread may touch the environment.
pub(crate) unsafe fn forget_parsed() {
    for name in ["TOOLGATE_HEADERS", "INPUT_HEADER"] {
        if std::env::var_os(name).is_some() {
            // SAFETY: the caller guarantees no other thread reads or writes the environment.
            unsafe {
                wipe_value(name);
                std::env::remove_var(name);
            }
        }
    }
}

/// Overwrites the value bytes of `name=value` in place in `environ` (the strings of the
/// initial environment live in the block `/proc/<pid>/environ` reads; `unsetenv` alone only
/// drops the pointer and leaves the bytes there).
///
/// # Safety
/// No other thread may touch the environment meanwhile.
#[cfg(target_os = "linux")]
unsafe fn wipe_value(name: &str) {
    unsafe extern "C" {
        static mut environ: *mut *mut libc::c_char;
    }
    let prefix = format!("{name}=");
    // SAFETY: `environ` is a NULL-terminated array of NUL-terminated, writable strings
    // (the kernel's initial block, or copies made by setenv); nobody else touches it now.
    unsafe {
        let mut p = environ;
        if p.is_null() {
            return;
        }
        while !(*p).is_null() {
            let entry = *p;
            let bytes = std::ffi::CStr::from_ptr(entry).to_bytes();
            if bytes.starts_with(prefix.as_bytes()) {
                let start = entry.add(prefix.len());
                std::ptr::write_bytes(start, 0, bytes.len() - prefix.len());
            }
            p = p.add(1);
        }
    }
}

#[cfg(not(target_os = "linux"))]
unsafe fn wipe_value(_name: &str) {}

/// Makes this process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)` on Linux): a process of the
/// same uid (a server toolgate started, or its children) can no longer read
/// `/proc/<toolgate>/environ` or `mem`, nor ptrace it (`cmdline` stays readable: a key given
/// as `--api-key` is overwritten there once parsed, see [`argv`]). Call it first thing in
/// `main`, before any server starts. Elsewhere it does nothing.
pub fn harden_process() -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(PR_SET_DUMPABLE, 0) only changes a flag of the calling process.
        let rc = unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
        if rc != 0 {
            return Err(format!(
                "prctl(PR_SET_DUMPABLE, 0) failed: {}",
                std::io::Error::last_os_error()
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Masking.

/// Masks secrets in text that came from a server (its stderr, error messages, junk stdout)
/// or that may quote one: token shapes, toolgate's own credentials, and the secret-shaped
/// values of credential-named variables and of `extra` (the `--header` values, the bearer
/// token, the `--pass-env` values). See [`shown`]: ordinary words are never masked.
pub(crate) fn mask_secrets(text: &str, extra: &[String]) -> String {
    shown::mask_with(text, &known_values(extra)).0
}

/// The values [`mask_secrets`] masks (see [`shown::values`]).
pub(crate) fn known_values(extra: &[String]) -> Vec<String> {
    shown::values(extra)
}

/// The credentials toolgate itself holds (what [`take_secrets`] moved into the store) that are
/// worth masking ([`shown::own_shaped`]).
pub(crate) fn held_values() -> Vec<String> {
    store_snapshot()
        .into_values()
        .filter(|v| shown::own_shaped(v))
        .collect()
}

/// The credentials toolgate itself holds (provider keys, the GitHub token, a bearer token:
/// what [`take_secrets`] moved into the store), plus the secret-shaped values of
/// credential-named variables. What a model's reply is masked with: a variable such as
/// `POSTGRES_PASSWORD=postgres` is not a secret worth changing a tool name or an argument for.
pub(crate) fn own_values() -> Vec<String> {
    let mut out = held_values();
    out.extend(
        std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .filter(|(k, v)| looks_secret(k) && shown::secret_shaped(v))
            .map(|(_, v)| v),
    );
    out
}

#[cfg(test)]
/// Replaces each of `values` (6 characters or longer) in `text` with `***`, longest first.
pub(crate) fn mask_values(text: &str, mut values: Vec<String>) -> String {
    values.retain(|v| v.trim().chars().count() >= 6);
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    values.dedup();
    let mut out = text.to_string();
    for v in &values {
        if out.contains(v.as_str()) {
            out = out.replace(v.as_str(), "***");
        }
    }
    out
}

/// The values of `--pass-env` variables (from the store or the environment).
pub(crate) fn pass_env_values(pass: &[String]) -> Vec<String> {
    pass.iter().filter_map(|n| secret_var(n)).collect()
}

#[cfg(test)]
mod tests;
