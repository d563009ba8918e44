//! Progress on stderr for waits a person would otherwise stare at (a slow server start, the
//! LLM task writer). Shown only when stderr is a terminal and not in CI; hidden bars are
//! no-ops, so callers need not care. Never on stdout, so piped reports stay clean.

use std::future::Future;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// How long a wait may last before a spinner appears: a fast server stays silent.
pub(crate) const SPINNER_AFTER: Duration = Duration::from_millis(400);

/// Whether progress is shown: stderr is a terminal and `CI` is unset.
pub(crate) fn wanted() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// A bar of `len` steps with a message (e.g. the item in progress), or a hidden one.
pub(crate) fn bar(len: u64, what: &str) -> ProgressBar {
    if !wanted() || len == 0 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template =
        format!("{{spinner}} {{bar:30}} {{pos}}/{{len}} {what}  {{elapsed}}  {{wide_msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// Awaits `fut`; if it takes longer than [`SPINNER_AFTER`] and progress is [`wanted`], shows
/// a spinner saying `what` with the time waited, cleared when `fut` finishes.
pub(crate) async fn while_slow<F: Future>(what: &str, fut: F) -> F::Output {
    if !wanted() {
        return fut.await;
    }
    let mut fut = std::pin::pin!(fut);
    tokio::select! {
        out = &mut fut => return out,
        _ = tokio::time::sleep(SPINNER_AFTER) => {}
    }
    let spinner = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template(&format!("{{spinner}} {what} ({{elapsed}})")) {
        spinner.set_style(style);
    }
    spinner.enable_steady_tick(Duration::from_millis(120));
    let out = fut.await;
    spinner.finish_and_clear();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn while_slow_returns_what_the_future_returns() {
        assert_eq!(while_slow("waiting", async { 7 }).await, 7);
        let slow = async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            "done"
        };
        assert_eq!(while_slow("waiting", slow).await, "done");
    }

    #[test]
    fn an_empty_bar_is_hidden() {
        assert!(bar(0, "tasks").is_hidden());
    }
}
