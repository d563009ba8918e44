//! Opt-in contract tests (`toolgate contract`, `ci --contract`): the only place toolgate calls
//! a tool, and only because the user asked. In one session with the server (inside the same
//! sandbox as any listing), each tool that may be called gets schema-invalid arguments (a
//! required one left out, one of the wrong type, one the schema forbids) and one set of valid
//! sampled arguments; [`grade`] judges each answer.
//!
//! Which tools are called: those whose annotations say `readOnlyHint: true`; every other tool
//! may write (the spec's default) and is called only with `--allow-writes`. A read-only hint is
//! the server's own claim: the sandbox, not the hint, is what bounds a server that lies.
//! Bounded: each call has `--call-timeout`, the whole visit a deadline, and after
//! [`MAX_STRAIGHT_FAILURES`] calls in a row without an answer the session is given up.

mod grade;
mod invalid;

use std::time::{Duration, Instant};

use anyhow::bail;
use serde_json::{Map, Value};

use crate::catalog::connect::{Called, Session, Visit, connect_visit, secret_extras};
use crate::catalog::{Catalog, ConnectOptions, ServerSpec, Tool, canonical, mask};
use crate::record::contract::{
    CONTRACT_SCHEMA, ContractReport, Effects, Probe, ProbeKind, ToolContract,
};
pub(crate) use grade::grade;
pub(crate) use invalid::invalid_args;

/// One call's kind and arguments.
type ArgSet = (ProbeKind, Map<String, Value>);

/// Calls in a row that timed out or failed before the session is given up.
pub(crate) const MAX_STRAIGHT_FAILURES: usize = 3;
/// Arguments larger than this (serialised) are recorded as a summary.
const MAX_RECORDED_ARGS: usize = 4096;

/// How the contract tests run.
#[derive(Clone, Debug)]
pub(crate) struct ContractOptions {
    /// Also call tools that may write (`--allow-writes`).
    pub allow_writes: bool,
    /// Time limit of one call (`--call-timeout`).
    pub call_timeout: Duration,
    /// Time limit of the whole visit; tools not reached are skipped with the reason.
    pub deadline: Duration,
    /// Seed of the valid samples (same seed, same arguments).
    pub seed: u64,
}

impl Default for ContractOptions {
    fn default() -> Self {
        ContractOptions {
            allow_writes: false,
            call_timeout: Duration::from_secs(10),
            deadline: Duration::from_secs(300),
            seed: 0,
        }
    }
}

/// Connects to `spec`, lists its tools and runs the contract calls in the same session.
pub(crate) async fn run(
    spec: &ServerSpec,
    connect: &ConnectOptions,
    opts: &ContractOptions,
) -> anyhow::Result<ContractReport> {
    if let ServerSpec::Snapshot(p) = spec {
        bail!(
            "contract tests call tools, which needs a live server: {} is a snapshot file",
            p.display()
        );
    }
    let plan = Plan {
        opts: opts.clone(),
        known: crate::secrets::known_values(&secret_extras(connect)),
    };
    let (catalog, (tools, notes)) = crate::progress::while_slow(
        "calling the server's tools for the contract tests",
        connect_visit(spec, connect, &plan),
    )
    .await?;
    let catalog = mask::checked(catalog, connect);
    let mut report = ContractReport {
        schema_version: CONTRACT_SCHEMA.into(),
        server: catalog.source.clone(),
        protocol_version: catalog.server.protocol_version.clone(),
        catalog_sha256: canonical::catalog_hash(&catalog),
        allow_writes: opts.allow_writes,
        call_timeout_ms: millis(opts.call_timeout),
        tools,
        notes,
        ..Default::default()
    };
    report.summarise();
    Ok(report)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// What the visit does on the open session.
struct Plan {
    opts: ContractOptions,
    /// Credentials to mask in anything the server says.
    known: Vec<String>,
}

impl Plan {
    fn mask(&self, text: &str) -> String {
        mask::mask_text(text, &self.known).0
    }

    /// The calls for one tool: its invalid argument sets, then a valid sample.
    fn calls(&self, tool: &Tool) -> (Vec<ArgSet>, Option<String>) {
        let sample = crate::tasks::sampler::sample_args(tool, self.opts.seed, 0);
        let mut calls = invalid_args(tool, sample.as_ref().ok());
        let mut note = None;
        match sample {
            Ok(args) => calls.push((ProbeKind::ValidSample, args)),
            Err(why) => note = Some(format!("no valid arguments could be sampled: {why}")),
        }
        (calls, note)
    }

    async fn visit_all(
        &self,
        session: &Session<'_>,
        catalog: &Catalog,
    ) -> (Vec<ToolContract>, Vec<String>) {
        let protocol = catalog.server.protocol_version.clone();
        let started = Instant::now();
        let within = millis(self.opts.call_timeout);
        let mut straight_failures = 0usize;
        let mut stopped: Option<String> = None;
        let mut notes = Vec::new();
        let mut out = Vec::new();
        for tool in &catalog.tools {
            let effects = if tool.hint("readOnlyHint") == Some(true) {
                Effects::ReadOnly
            } else {
                Effects::MayWrite
            };
            let mut entry = ToolContract {
                tool: tool.name().to_string(),
                effects,
                skipped: None,
                probes: Vec::new(),
            };
            if effects == Effects::MayWrite && !self.opts.allow_writes {
                entry.skipped =
                    Some("may write (no readOnlyHint: true); --allow-writes calls it".into());
                out.push(entry);
                continue;
            }
            if let Some(why) = &stopped {
                entry.skipped = Some(why.clone());
                out.push(entry);
                continue;
            }
            let (calls, note) = self.calls(tool);
            if let Some(n) = note {
                notes.push(format!("`{}`: {n}", tool.name()));
            }
            if calls.is_empty() {
                entry.skipped = Some("no argument set could be built from its inputSchema".into());
            }
            for (kind, args) in calls {
                if started.elapsed() >= self.opts.deadline {
                    stopped = Some(format!(
                        "not reached: the contract tests' deadline ({}s) ran out",
                        self.opts.deadline.as_secs()
                    ));
                    break;
                }
                if session.closed() {
                    stopped = Some("not reached: the session had ended".into());
                    break;
                }
                let recorded = recorded_args(&args);
                let t0 = Instant::now();
                let called = session
                    .call(tool.name(), args, self.opts.call_timeout)
                    .await;
                let elapsed_ms = millis(t0.elapsed());
                match called {
                    Called::Timeout | Called::Failed(_) => straight_failures += 1,
                    _ => straight_failures = 0,
                }
                let (answer, verdict, detail) =
                    grade(tool, kind, &called, protocol.as_deref(), within, &|t| {
                        self.mask(t)
                    });
                entry.probes.push(Probe {
                    kind,
                    arguments: recorded,
                    answer,
                    verdict,
                    detail,
                    elapsed_ms,
                });
                if straight_failures >= MAX_STRAIGHT_FAILURES {
                    stopped = Some(format!(
                        "not reached: the server stopped answering ({MAX_STRAIGHT_FAILURES} calls in a row timed out or failed)"
                    ));
                    break;
                }
            }
            if entry.probes.is_empty() && entry.skipped.is_none() {
                entry.skipped = stopped.clone();
            }
            out.push(entry);
        }
        if let Some(why) = stopped {
            notes.push(format!("The contract tests stopped early: {why}."));
        }
        (out, notes)
    }
}

/// The arguments as recorded: themselves, or a summary when large.
fn recorded_args(args: &Map<String, Value>) -> Value {
    let v = Value::Object(args.clone());
    let len = v.to_string().len();
    if len > MAX_RECORDED_ARGS {
        Value::String(format!("<{len} bytes of arguments, not recorded>"))
    } else {
        v
    }
}

impl Visit for Plan {
    type Out = (Vec<ToolContract>, Vec<String>);

    async fn visit<'a>(&'a self, session: Session<'a>, catalog: &'a Catalog) -> Self::Out {
        self.visit_all(&session, catalog).await
    }
}
