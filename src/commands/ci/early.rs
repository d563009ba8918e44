//! Reporting an error that came before `ci`'s settings were resolved (the arguments, the
//! config file, a settings value): the summary, ci.json and the sticky comment still say
//! "could not run", so the previous push's verdict never stands for this commit.

use crate::ci;
use crate::cli::CiArgs;
use crate::github::GithubEnv;

/// The value of `--<flag> V` or `--<flag>=V` in this process's arguments, else the
/// `TOOLGATE_<FLAG>` variable: read by hand when the arguments or settings did not parse.
fn raw_setting(flag: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let long = format!("--{flag}");
    let eq = format!("--{flag}=");
    let from_args = args.iter().enumerate().find_map(|(i, a)| {
        if a == &long {
            args.get(i + 1).cloned()
        } else {
            a.strip_prefix(&eq).map(str::to_string)
        }
    });
    from_args.or_else(|| {
        std::env::var(format!(
            "TOOLGATE_{}",
            flag.replace('-', "_").to_uppercase()
        ))
        .ok()
        .filter(|v| !v.is_empty())
    })
}

/// Reports an error that came before `ci`'s settings could be resolved (arguments, the config
/// file, a settings value): the summary, ci.json and the sticky comment say "could not run"
/// with the cause, so the previous push's verdict does not stand for this commit. Where each
/// report goes is read from what did parse (`args`), else from the raw `--out`,
/// `--comment` and `--comment-id` values, else the defaults.
pub async fn report_early(gh: &GithubEnv, error: &str, args: Option<&CiArgs>) {
    let mut s = match ci::resolve(
        &Default::default(),
        &Default::default(),
        std::path::PathBuf::from(crate::config::DEFAULT_LOCK),
        gh.actions,
    ) {
        Ok(s) => s,
        Err(_) => return,
    };
    let flags = args.map(|a| &a.settings);
    if let Some(out) = flags
        .and_then(|f| f.out.clone())
        .or_else(|| raw_setting("out").map(Into::into))
    {
        s.out = out;
    }
    if let Some(id) = flags
        .and_then(|f| f.comment_id.clone())
        .or_else(|| raw_setting("comment-id"))
    {
        s.comment_id = id;
    }
    if let Some(c) = flags.and_then(|f| f.comment).or_else(|| {
        raw_setting("comment").and_then(|v| match v.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(true),
            "false" | "0" | "no" => Some(false),
            _ => None,
        })
    }) {
        s.comment = c;
    }
    ci::sinks::report_error(&s, gh, error).await;
}

/// [`report_early`] for `ci` when even the arguments or the config file did not parse.
pub async fn report_unparsed(error: &str, no_github: bool) {
    let gh = if no_github {
        GithubEnv::default()
    } else {
        GithubEnv::from_env()
    };
    report_early(&gh, error, None).await;
}
