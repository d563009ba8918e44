//! The run directory's files: `run.json` (versioned, `toolgate.run/v1`) and
//! `predictions.jsonl` (one line per task × trial × model, appended as each answer arrives).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::models::Decision;
use crate::score::Metrics;

pub use crate::record::files::{OUTCOMES_FILE, PREDICTIONS_FILE, RUN_FILE};
use crate::score::OutcomeLine;
pub use super::gate::GateResult;

pub const RUN_SCHEMA: &str = "toolgate.run/v1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogInfo {
    pub source: String,
    pub sha256: String,
    pub tools: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteInfo {
    pub path: String,
    pub sha256: String,
    pub tasks: usize,
    pub by_kind: BTreeMap<String, usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub spec: String,
    pub deterministic: bool,
    /// Trials run per task for this model (1 for deterministic models).
    pub trials: u32,
    /// Model ids (and fingerprints) the provider reported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub served_by: Vec<String>,
    /// How the model was run (e.g. a temperature it rejected).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Whether tool descriptions reach the model on this endpoint (LLMs with `usage`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descriptions: Option<crate::models::DescriptionProbe>,
    /// Tokens, latency and cache use over the run's decisions (LLMs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

/// What a model's decisions cost and how fast they came.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub decisions: usize,
    /// Decisions read from the response cache (no request made).
    pub cached: usize,
    /// Prompt and completion tokens over the decisions that reported them.
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latency_p50_ms: u64,
    pub latency_p95_ms: u64,
}

/// What [`Usage`] is computed from, gathered one prediction at a time.
#[derive(Clone, Debug, Default)]
pub struct UsageTally {
    decisions: usize,
    cached: usize,
    prompt_tokens: u64,
    completion_tokens: u64,
    /// Latencies of the decisions that made requests.
    latencies: Vec<u64>,
}

impl UsageTally {
    pub fn add(&mut self, p: &PredictionLine) {
        let d = &p.decision;
        self.decisions += 1;
        if d.cached {
            self.cached += 1;
        } else {
            self.latencies.push(d.latency_ms);
        }
        self.prompt_tokens += d.prompt_tokens.unwrap_or(0);
        self.completion_tokens += d.completion_tokens.unwrap_or(0);
    }

    pub fn usage(mut self) -> Usage {
        let lat = &mut self.latencies;
        lat.sort_unstable();
        let q = |f: f64| {
            if lat.is_empty() {
                0
            } else {
                lat[((lat.len() - 1) as f64 * f).round() as usize]
            }
        };
        Usage {
            decisions: self.decisions,
            cached: self.cached,
            prompt_tokens: self.prompt_tokens,
            completion_tokens: self.completion_tokens,
            latency_p50_ms: q(0.5),
            latency_p95_ms: q(0.95),
        }
    }
}

impl Usage {
    pub fn of(predictions: &[&PredictionLine]) -> Self {
        let mut tally = UsageTally::default();
        for p in predictions {
            tally.add(p);
        }
        tally.usage()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelResult {
    pub model: String,
    pub metrics: Metrics,
}

/// Where a run stands. `Errored` is a run whose error rate is over the policy's maximum:
/// its numbers measure the endpoint's failures, not the tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    Running,
    Complete,
    Partial,
    Errored,
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::out::wire_name(self))
    }
}

fn one() -> u32 {
    1
}

/// `run.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    pub schema_version: String,
    pub toolgate_version: String,
    pub created: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<String>,
    pub status: RunStatus,
    pub catalog: CatalogInfo,
    pub suite: SuiteInfo,
    pub models: Vec<ModelInfo>,
    /// Trials asked for (non-deterministic models).
    pub trials: u32,
    /// Which split was run (`all`, `dev`, `heldout`).
    pub split: String,
    /// Calls a model could make per task.
    #[serde(default = "one")]
    pub max_steps: u32,
    /// The seed passed to APIs that accept one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The slice of the suite this run covers (`--shard K/N`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<super::shard::Shard>,
    /// Decisions reused from a base (`--incremental`); absent for a run that made them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused: Option<super::reuse::Reuse>,
    /// The belt the tasks ran in (`--belt`): your tools and the belt's were offered together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub belt: Option<super::belt::BeltInfo>,
    /// Accuracy as the belt's tools join yours (`--belt`): the distractor curve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<crate::score::curve::Curve>,
    #[serde(default)]
    pub results: Vec<ModelResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateResult>,
}

impl RunFile {
    pub fn read(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join(RUN_FILE);
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "{} is not a run directory (no readable {RUN_FILE})",
                dir.display()
            )
        })?;
        let run: RunFile = super::v1::from_text(&text)
            .with_context(|| format!("{} is not a valid run file", path.display()))?;
        if run.schema_version != RUN_SCHEMA {
            bail!(
                "{}: schema_version `{}` is not supported (expected {RUN_SCHEMA})",
                path.display(),
                run.schema_version
            );
        }
        Ok(run)
    }

    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let text = super::v1::to_text(self)?;
        // Write then rename, so an interrupted write never leaves a truncated run.json.
        crate::out::write_file(&dir.join(RUN_FILE), &text)
    }

    pub fn result(&self, model: &str) -> Option<&ModelResult> {
        self.results.iter().find(|r| r.model == model)
    }
}

/// Reads `outcomes.jsonl` of a finished run (errors name the line).
pub fn read_outcomes(dir: &Path) -> anyhow::Result<Vec<OutcomeLine>> {
    let path = dir.join(OUTCOMES_FILE);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "could not read {} (is {} a finished run?)",
            path.display(),
            dir.display()
        )
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).with_context(|| format!("{}:{}", path.display(), i + 1))
        })
        .collect()
}

/// One line of `predictions.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictionLine {
    pub model: String,
    pub task_id: String,
    pub trial: u32,
    #[serde(flatten)]
    pub decision: Decision,
}

/// Reads predictions; a torn last line (an interrupted write) is dropped and the file is cut
/// back to the last complete line so appending can go on. Any other bad line is an error.
pub fn read_predictions(dir: &Path) -> anyhow::Result<Vec<PredictionLine>> {
    let mut out = Vec::new();
    for_each_prediction(dir, |p| out.push(p))?;
    Ok(out)
}

/// [`read_predictions`] one line at a time: `f` gets each prediction in file order, and none is
/// kept. Returns how many were read.
pub fn for_each_prediction(dir: &Path, mut f: impl FnMut(PredictionLine)) -> anyhow::Result<usize> {
    let path = dir.join(PREDICTIONS_FILE);
    if !path.exists() {
        return Ok(0);
    }
    // Streamed line by line: a 100,000-task run's file is never held whole next to its parse.
    use std::io::BufRead as _;
    let file =
        std::fs::File::open(&path).with_context(|| format!("could not read {}", path.display()))?;
    let mut reader = std::io::BufReader::new(file);
    let mut count = 0usize;
    let mut good_bytes = 0usize;
    let mut line = String::new();
    let mut number = 0usize;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .with_context(|| format!("could not read {}", path.display()))?;
        if read == 0 {
            break;
        }
        number += 1;
        let body = line.trim();
        if body.is_empty() {
            good_bytes += line.len();
            continue;
        }
        let last = !line.ends_with('\n') || reader.fill_buf().map_or(true, |b| b.is_empty());
        match serde_json::from_str::<PredictionLine>(body) {
            Ok(p) if line.ends_with('\n') => {
                f(p);
                count += 1;
                good_bytes += line.len();
            }
            // A torn last line (an interrupted write): cut back to the last complete one.
            _ if last => {
                let f = std::fs::OpenOptions::new().write(true).open(&path)?;
                f.set_len(good_bytes as u64)?;
                break;
            }
            Ok(_) => unreachable!("only the last line can lack a newline"),
            Err(e) => bail!("{}:{number}: {e}", path.display()),
        }
    }
    Ok(count)
}

/// Appends prediction lines, flushing each so nothing is lost if the run is killed.
pub struct PredictionWriter {
    file: std::fs::File,
    pub path: PathBuf,
}

impl PredictionWriter {
    pub fn open(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join(PREDICTIONS_FILE);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("could not open {}", path.display()))?;
        Ok(PredictionWriter { file, path })
    }

    pub fn append(&mut self, p: &PredictionLine) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(p)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .with_context(|| format!("could not append to {}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_last_line_is_dropped_and_cut() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = PredictionWriter::open(dir.path()).unwrap();
        let p = PredictionLine {
            model: "bm25:4".into(),
            task_id: "t1".into(),
            trial: 0,
            decision: Decision::default(),
        };
        w.append(&p).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join(PREDICTIONS_FILE))
            .unwrap()
            .write_all(b"{\"model\":\"bm25:4\",\"task_")
            .unwrap();
        let read = read_predictions(dir.path()).unwrap();
        assert_eq!(read, vec![p.clone()]);
        let mut w = PredictionWriter::open(dir.path()).unwrap();
        w.append(&p).unwrap();
        assert_eq!(read_predictions(dir.path()).unwrap().len(), 2);
    }
}
