//! Colour for the terminal renderers only: whether to colour is decided once per process
//! (`--color`, `NO_COLOR`, `CLICOLOR_FORCE`, `CLICOLOR`, `TERM=dumb`, whether stdout is a
//! terminal) and the terminal renderers ask [`palette`] to paint severities and verdicts.
//! Markdown, JSON, SARIF, HTML and annotation renderers never call it, so they never carry an
//! escape sequence. Text from a server is made safe with `terminal::plain` before it is
//! painted; painting only wraps it.

use std::sync::atomic::{AtomicBool, Ordering};

use anstyle::{AnsiColor, Style};

/// `--color`: when stdout gets colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// Colour when stdout is a terminal and the environment does not say otherwise.
    #[default]
    Auto,
    /// Always colour (an explicit flag wins over NO_COLOR).
    Always,
    /// Never colour.
    Never,
}

/// Whether stdout gets colour. `env` reads a variable (empty counts as unset, as in the
/// NO_COLOR convention); `stdout_is_terminal` is asked only when it matters.
/// In `auto`: NO_COLOR turns colour off; else CLICOLOR_FORCE (not `0`) turns it on even when
/// piped; else CLICOLOR=0 or TERM=dumb turn it off; else colour iff stdout is a terminal.
pub(crate) fn decide(
    when: ColorWhen,
    env: impl Fn(&str) -> Option<String>,
    stdout_is_terminal: impl FnOnce() -> bool,
) -> bool {
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => {
            if set("NO_COLOR").is_some() {
                false
            } else if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                true
            } else if set("CLICOLOR").is_some_and(|v| v == "0")
                || set("TERM").is_some_and(|v| v == "dumb")
            {
                false
            } else {
                stdout_is_terminal()
            }
        }
    }
}

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Decides once, from the real environment and stdout, and remembers it for [`palette`].
/// Off until called, so library users and tests get plain text.
pub(crate) fn init(when: ColorWhen) {
    use std::io::IsTerminal;
    let on = decide(
        when,
        |k| std::env::var(k).ok(),
        || std::io::stdout().is_terminal(),
    );
    ENABLED.store(on && enable_on_console(), Ordering::Relaxed);
}

/// Windows consoles interpret escape sequences only once asked to.
#[cfg(windows)]
fn enable_on_console() -> bool {
    anstyle_query::windows::enable_ansi_colors().unwrap_or(false)
}

#[cfg(not(windows))]
fn enable_on_console() -> bool {
    true
}

/// The process's palette (plain unless [`init`] turned colour on).
pub(crate) fn palette() -> Palette {
    Palette {
        enabled: ENABLED.load(Ordering::Relaxed),
    }
}

/// What a piece of text means, which decides its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tone {
    Error,
    Warning,
    Info,
    Pass,
    Fail,
    /// Codes, labels: dimmed.
    Quiet,
}

impl Tone {
    fn style(self) -> Style {
        match self {
            Tone::Error | Tone::Fail => Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
            Tone::Warning => Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold(),
            Tone::Info => Style::new().fg_color(Some(AnsiColor::Cyan.into())),
            Tone::Pass => Style::new().fg_color(Some(AnsiColor::Green.into())).bold(),
            Tone::Quiet => Style::new().dimmed(),
        }
    }
}

/// Paints text for a terminal, or leaves it as it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    pub enabled: bool,
}

impl Palette {
    pub const PLAIN: Palette = Palette { enabled: false };

    /// `text` in `tone`'s colour (unchanged when colour is off). Pad before painting: the
    /// escapes have no width on screen but do count as characters.
    pub fn paint(self, tone: Tone, text: &str) -> String {
        if self.enabled {
            let s = tone.style();
            format!("{s}{text}{s:#}")
        } else {
            text.to_string()
        }
    }

    /// A lint severity word (`error`, `warning`, `info`) in its colour.
    pub fn severity(self, severity: crate::lint::Severity, text: &str) -> String {
        let tone = match severity {
            crate::lint::Severity::Error => Tone::Error,
            crate::lint::Severity::Warning => Tone::Warning,
            crate::lint::Severity::Info => Tone::Info,
        };
        self.paint(tone, text)
    }

    /// A verdict: green when it passed, red when not.
    pub fn verdict(self, passed: bool, text: &str) -> String {
        self.paint(if passed { Tone::Pass } else { Tone::Fail }, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn auto_follows_the_terminal() {
        assert!(decide(ColorWhen::Auto, env(&[]), || true));
        assert!(!decide(ColorWhen::Auto, env(&[]), || false));
    }

    #[test]
    fn no_color_turns_it_off_unless_forced_by_the_flag() {
        let e = [("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")];
        assert!(!decide(ColorWhen::Auto, env(&e), || true));
        assert!(decide(ColorWhen::Always, env(&e), || false));
        // An empty NO_COLOR is unset.
        assert!(decide(ColorWhen::Auto, env(&[("NO_COLOR", "")]), || true));
    }

    #[test]
    fn clicolor_force_colours_a_pipe() {
        assert!(decide(
            ColorWhen::Auto,
            env(&[("CLICOLOR_FORCE", "1")]),
            || false
        ));
        assert!(!decide(
            ColorWhen::Auto,
            env(&[("CLICOLOR_FORCE", "0")]),
            || false
        ));
    }

    #[test]
    fn clicolor_zero_and_dumb_terminals_get_none() {
        assert!(!decide(ColorWhen::Auto, env(&[("CLICOLOR", "0")]), || true));
        assert!(!decide(ColorWhen::Auto, env(&[("TERM", "dumb")]), || true));
        assert!(decide(
            ColorWhen::Auto,
            env(&[("TERM", "xterm-256color")]),
            || true
        ));
    }

    #[test]
    fn never_means_never() {
        assert!(!decide(
            ColorWhen::Never,
            env(&[("CLICOLOR_FORCE", "1")]),
            || true
        ));
    }

    #[test]
    fn painting_wraps_only_when_enabled() {
        assert_eq!(Palette::PLAIN.paint(Tone::Error, "error"), "error");
        let on = Palette { enabled: true };
        let s = on.severity(crate::lint::Severity::Warning, "warning");
        assert!(s.starts_with('\x1b') && s.contains("warning") && s.ends_with('m'));
        assert_ne!(on.verdict(true, "passed"), on.verdict(false, "passed"));
    }

    #[test]
    fn the_process_palette_is_plain_until_initialised() {
        assert_eq!(palette(), Palette::PLAIN);
    }
}
