//! `replay:<file.jsonl>`: scores decisions an agent already made, from a log.
//!
//! Log format, one JSON object per line:
//! `{"task_id": "cal-001", "trial": 0, "tool": "create_event", "arguments": {…}, "text": "…", "error": "…"}`
//! — `task_id` (or else `request`, the exact request text) says which task the decision
//! answers; `tool` is the tool called (null or absent: no call); `arguments`, `text`, `error`
//! and `trial` (default 0) are optional. A multi-step decision lists its calls in order as
//! `"calls": [{"tool": …, "arguments": {…}}, …]` instead of `tool`/`arguments`. A task the log
//! does not cover is scored as an error.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, bail};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{BoxFuture, Decision, Model};
use crate::tasks::Task;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Logged {
    #[serde(default)]
    task_id: Option<String>,
    #[serde(default)]
    request: Option<String>,
    #[serde(default)]
    trial: u32,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    calls: Vec<LoggedCall>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoggedCall {
    tool: String,
    #[serde(default)]
    arguments: Option<Map<String, Value>>,
}

pub(crate) struct Replay {
    spec: String,
    by_id: HashMap<(String, u32), Decision>,
    by_request: HashMap<(String, u32), Decision>,
}

fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl Replay {
    pub(crate) fn load(path_text: &str) -> anyhow::Result<Self> {
        let path = Path::new(path_text);
        let text = crate::fsio::read_text(path)
            .with_context(|| format!("replay: could not read {}", path.display()))?;
        let mut by_id = HashMap::new();
        let mut by_request = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let l: Logged = serde_json::from_str(line)
                .with_context(|| format!("{}:{}", path.display(), i + 1))?;
            let arguments: Option<Map<String, Value>> = match l.arguments {
                None | Some(Value::Null) => None,
                Some(Value::Object(m)) => Some(m),
                Some(other) => bail!(
                    "{}:{}: `arguments` must be an object, found {}",
                    path.display(),
                    i + 1,
                    crate::catalog::kind(&other)
                ),
            };
            if !l.calls.is_empty() && l.tool.is_some() {
                bail!(
                    "{}:{}: give either `tool` or `calls`, not both",
                    path.display(),
                    i + 1
                );
            }
            let steps: Vec<super::Step> = l
                .calls
                .into_iter()
                .map(|c| super::Step {
                    tool: c.tool,
                    arguments: c.arguments,
                    error: None,
                    turn: None,
                })
                .collect();
            let (tool, arguments) = match steps.first() {
                Some(s) => (Some(s.tool.clone()), s.arguments.clone()),
                None => (l.tool, arguments),
            };
            let d = Decision {
                tool,
                arguments,
                text: l.text,
                error: l.error,
                served_by: l.model,
                steps,
                ..Default::default()
            }
            // A log's error comes as text: its kind is read from it once, here.
            .typed();
            match (l.task_id, l.request) {
                (Some(id), _) => {
                    by_id.insert((id, l.trial), d);
                }
                (None, Some(r)) => {
                    by_request.insert((norm(&r), l.trial), d);
                }
                (None, None) => bail!(
                    "{}:{}: a logged decision needs `task_id` or `request`",
                    path.display(),
                    i + 1
                ),
            }
        }
        if by_id.is_empty() && by_request.is_empty() {
            bail!("replay: {} has no decisions", path.display());
        }
        Ok(Replay {
            spec: format!("replay:{path_text}"),
            by_id,
            by_request,
        })
    }
}

impl Model for Replay {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn decide<'a>(&'a self, task: &'a Task, trial: u32) -> BoxFuture<'a, Decision> {
        let found = self
            .by_id
            .get(&(task.id.clone(), trial))
            .or_else(|| self.by_request.get(&(norm(&task.request), trial)))
            .cloned()
            .unwrap_or_else(|| Decision {
                error: Some("the replay log has no decision for this task".into()),
                error_kind: Some(super::ErrorKind::NotRecorded),
                ..Default::default()
            });
        Box::pin(async move { found })
    }
}
