//! Reading and writing a run directory's record files: `run.json` (through its v1 wire form,
//! replaced atomically), `outcomes.jsonl`, and `predictions.jsonl` (streamed, appended and
//! flushed one decision at a time, a torn last line cut back so a run can resume).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use super::files::{OUTCOMES_FILE, PREDICTIONS_FILE, RUN_FILE};
use super::run::{PredictionLine, RUN_SCHEMA, RunFile};
use crate::record::scores::OutcomeLine;

impl RunFile {
    pub(crate) fn read(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join(RUN_FILE);
        let text = crate::fsio::read_text(&path).with_context(|| {
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

    pub(crate) fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let text = super::v1::to_text(self)?;
        // Write then rename, so an interrupted write never leaves a truncated run.json.
        crate::out::write_file(&dir.join(RUN_FILE), &text)
    }
}

/// Reads `outcomes.jsonl` of a finished run (errors name the line).
pub(crate) fn read_outcomes(dir: &Path) -> anyhow::Result<Vec<OutcomeLine>> {
    let path = dir.join(OUTCOMES_FILE);
    let text = crate::fsio::read_text(&path).with_context(|| {
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

/// Reads predictions; a torn last line (an interrupted write) is dropped and the file is cut
/// back to the last complete line so appending can go on. Any other bad line is an error.
pub(crate) fn read_predictions(dir: &Path) -> anyhow::Result<Vec<PredictionLine>> {
    let mut out = Vec::new();
    for_each_prediction(dir, |p| out.push(p))?;
    Ok(out)
}

/// [`read_predictions`] one line at a time: `f` gets each prediction in file order, and none is
/// kept. Returns how many were read.
pub(crate) fn for_each_prediction(
    dir: &Path,
    mut f: impl FnMut(PredictionLine),
) -> anyhow::Result<usize> {
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
            Ok(mut p) if line.ends_with('\n') => {
                // Files of older toolgates carry an error's text without its kind.
                p.decision = p.decision.typed();
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
pub(crate) struct PredictionWriter {
    file: std::fs::File,
    pub path: PathBuf,
}

impl PredictionWriter {
    pub(crate) fn open(dir: &Path) -> anyhow::Result<Self> {
        let path = dir.join(PREDICTIONS_FILE);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("could not open {}", path.display()))?;
        Ok(PredictionWriter { file, path })
    }

    pub(crate) fn append(&mut self, p: &PredictionLine) -> anyhow::Result<()> {
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
    use crate::record::decision::Decision;

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

    #[test]
    fn an_untyped_error_of_an_older_file_is_typed_when_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(PREDICTIONS_FILE),
            concat!(
                "{\"model\":\"m\",\"task_id\":\"a\",\"trial\":0,\"error\":\"HTTP 429 Too Many Requests\"}\n",
                "{\"model\":\"m\",\"task_id\":\"b\",\"trial\":0,\"error\":\"HTTP 429\",\"error_kind\":\"timeout\"}\n",
            ),
        )
        .unwrap();
        let kinds: Vec<_> = read_predictions(dir.path())
            .unwrap()
            .into_iter()
            .map(|p| p.decision.error_kind)
            .collect();
        use crate::record::decision::ErrorKind;
        assert_eq!(
            kinds,
            [Some(ErrorKind::Http(429)), Some(ErrorKind::Timeout)]
        );
    }
}
