//! Applying the lint configuration: which rules run (select, ignore), checking the settings
//! name rules and hosts that exist, severities remapped, rules off, and accepted findings. The
//! settings themselves are `super::settings`'s.

use super::settings::{Accepted, Level, LintSettings, RuleConfig};
use serde::Serialize;

use super::{Finding, Severity};

impl Accepted {
    /// True when this entry accepts `f`. A finding about a pair of tools is accepted by an
    /// entry naming either tool: which of the two owns it depends on the order the tools are
    /// listed in.
    pub fn matches(&self, f: &Finding) -> bool {
        let rule = crate::lint::rule(self.rule.trim()).map(|r| r.code);
        let tool = Some(self.tool.trim());
        rule == Some(f.code.as_str())
            && (f.tool.as_deref() == tool || f.pair.as_deref() == tool)
            && self.pointer.as_deref().is_none_or(|p| p == f.pointer)
    }

    /// `[[lint.accept]]` stubs for `findings`, for a person to give each a reason (an entry
    /// whose reason still starts with `TODO` is refused).
    pub fn stubs(findings: &[crate::record::lint::ReportFinding]) -> String {
        let mut out = String::from(
            "# Accepted lint findings: paste into toolgate.toml, give each a reason, delete the rest.\n",
        );
        for f in findings {
            let Some(tool) = &f.tool else { continue };
            let entry = Accepted {
                rule: f.code.clone(),
                tool: tool.clone(),
                pointer: Some(f.pointer.clone()).filter(|p| !p.is_empty()),
                reason: format!("TODO: why is this accepted? ({})", f.message),
            };
            #[derive(Serialize)]
            struct One<'a> {
                lint: Wrap<'a>,
            }
            #[derive(Serialize)]
            struct Wrap<'a> {
                accept: [&'a Accepted; 1],
            }
            if let Ok(t) = toml::to_string(&One {
                lint: Wrap { accept: [&entry] },
            }) {
                out.push('\n');
                out.push_str(&t);
            }
        }
        out
    }
}

impl LintSettings {
    /// `lint --select/--ignore`: switches off every rule not in `select` (when given) and every
    /// rule in `ignore`. Each entry is a code or slug; an unknown one is an error naming it.
    pub fn restrict(&mut self, select: &[String], ignore: &[String]) -> anyhow::Result<()> {
        let find = |flag: &str, id: &String| {
            let id = id.trim();
            crate::lint::rule(id)
                .ok_or_else(|| anyhow::anyhow!("{flag} {id}: no such rule (see `toolgate rules`)"))
        };
        let selected = select
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| find("--select", s).map(|r| r.code))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let ignored = ignore
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| find("--ignore", s).map(|r| r.code))
            .collect::<anyhow::Result<Vec<_>>>()?;
        for rule in crate::lint::RULES {
            let off = (!selected.is_empty() && !selected.contains(&rule.code))
                || ignored.contains(&rule.code);
            if off {
                // A slug key for the same rule would be applied too; the code key wins by
                // being set to off.
                self.rules.entry(rule.code.to_string()).or_default().level = Some(Level::Off);
            }
        }
        Ok(())
    }

    /// Checks that every key under `rules` names a rule.
    pub fn validate(&self) -> anyhow::Result<()> {
        for key in self.rules.keys() {
            if super::rule(key).is_none() {
                anyhow::bail!(
                    "[lint.rules.{key}]: no rule has this code or slug (see `toolgate rules`)"
                );
            }
        }
        if !(0.0..=1.0).contains(&self.lookalike_threshold) {
            anyhow::bail!("[lint] lookalike_threshold must be between 0 and 1");
        }
        if !(-1.0..=1.0).contains(&self.embed_floor) {
            anyhow::bail!("[lint] embed_floor must be a cosine between -1 and 1");
        }
        for h in &self.hosts {
            if super::hosts::host(h).is_none() {
                anyhow::bail!(
                    "[lint] hosts / --host: `{h}` is not a host toolgate knows (one of {})",
                    super::hosts::ids()
                );
            }
        }
        for (i, a) in self.accept.iter().enumerate() {
            let at = format!("[[lint.accept]] entry {} ({} {})", i + 1, a.rule, a.tool);
            if super::rule(a.rule.trim()).is_none() {
                anyhow::bail!("{at}: `rule` names no rule (see `toolgate rules`)");
            }
            if a.tool.trim().is_empty() {
                anyhow::bail!("{at}: `tool` is empty: name the tool the finding is about");
            }
            let reason = a.reason.trim();
            if reason.is_empty() || reason.to_ascii_uppercase().starts_with("TODO") {
                anyhow::bail!(
                    "{at}: `reason` is required: say why this finding is accepted (a reviewer reads it)"
                );
            }
        }
        Ok(())
    }

    fn config_of(&self, code: &str) -> Option<&RuleConfig> {
        let rule = super::rule(code)?;
        self.rules
            .get(rule.code)
            .or_else(|| self.rules.get(rule.slug))
    }

    pub fn level_of(&self, code: &str) -> Option<Level> {
        self.config_of(code).and_then(|c| c.level)
    }

    /// The accepted entries (by index) that match none of `findings`.
    pub fn unused_accepts(&self, findings: &[Finding]) -> Vec<usize> {
        (0..self.accept.len())
            .filter(|&i| !findings.iter().any(|f| self.accept[i].matches(f)))
            .collect()
    }

    /// Applies ignores, accepted findings and severity remapping; `None` drops the finding.
    pub fn apply(&self, f: Finding) -> Option<Finding> {
        if self.accepted_reason(&f).is_some() {
            return None;
        }
        self.apply_unaccepted(f)
    }

    /// The reason of the first `[[lint.accept]]` entry that accepts `f`.
    pub fn accepted_reason(&self, f: &Finding) -> Option<&str> {
        self.accept
            .iter()
            .find(|a| a.matches(f))
            .map(|a| a.reason.as_str())
    }

    /// Applies ignores and severity remapping (not the accepted entries); `None` drops it.
    pub fn apply_unaccepted(&self, mut f: Finding) -> Option<Finding> {
        // A pair finding is about both of its tools: ignoring either drops it.
        let about = |ignored: &[String]| {
            f.tool
                .iter()
                .chain(f.pair.iter())
                .any(|t| ignored.contains(t))
        };
        if about(&self.ignore_tools) {
            return None;
        }
        if let Some(c) = self.config_of(&f.code) {
            if about(&c.ignore_tools) {
                return None;
            }
            f.severity = match c.level {
                Some(Level::Off) => return None,
                Some(Level::Info) => Severity::Info,
                Some(Level::Warning) => Severity::Warning,
                Some(Level::Error) => Severity::Error,
                None => f.severity,
            };
        }
        Some(f)
    }
}
