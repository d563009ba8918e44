//! Step 3: the verdict. Compares the run with the base (paired, on the same tasks), checks
//! once more that no reviewed file changed while servers ran, and asks the gate stage, which
//! decides alone; the contract tests' findings join the notices and contract.json.

use super::{Inputs, Measured, Trail};
use crate::ci::applied::contract_notices;
use crate::ci::files::{self, OutDir};
use crate::ci::settings::CiSettings;
use crate::eval::baseline::{self, BaseComparison};
use crate::gate::{Exit, GateDecision, GateInput};
use crate::out::write_shown;
use crate::record::contract::ContractReport;

/// What the gate decided, and on what comparison.
pub(crate) struct Verdict {
    pub comparison: Option<BaseComparison>,
    pub decision: GateDecision,
    /// The run measured something a gate can stand on (else exit 2, and nothing is kept).
    pub measured: bool,
}

/// Compares with the base and decides.
pub(crate) fn decide(
    s: &CiSettings,
    inputs: &Inputs,
    m: &Measured,
    contract: Option<&ContractReport>,
    out: &OutDir,
    trail: &mut Trail,
) -> anyhow::Result<Verdict> {
    let comparison = inputs.base.as_ref().map(|(p, b)| {
        let alpha = s.policy.alpha;
        baseline::compare(
            p,
            b,
            &m.run,
            &m.outcomes,
            &inputs.lint,
            &inputs.head_lock,
            alpha,
        )
    });
    let comparable: Vec<_> = comparison
        .iter()
        .filter(|c| c.comparable)
        .flat_map(|c| c.models.iter().cloned())
        .collect();
    // Once more before the verdict: a server group that was still being ended cannot have
    // changed what the gate reads.
    crate::fsio::verify_pins()?;
    let decision = crate::gate::decide(
        &GateInput {
            lint: Some(&inputs.lint.summary),
            lock: Some(&inputs.lock),
            run: Some(&m.run),
            comparisons: &comparable,
            contract: contract.map(|c| &c.summary),
            lint_new: inputs
                .lint_delta
                .as_ref()
                .filter(|_| inputs.delta_gates)
                .map(|d| (d.introduced.as_slice(), d.against.as_str())),
        },
        &s.policy,
    );
    trail
        .notices
        .extend(decision.notices.iter().map(ToString::to_string));
    if let Some(c) = contract {
        trail
            .notices
            .extend(contract_notices(c, &inputs.lint.catalog_sha256));
        let path = out.file(files::CONTRACT_JSON);
        write_shown(&path, &format!("{}\n", serde_json::to_string_pretty(c)?))?;
        trail.wrote(|w| &mut w.contract_json, &path);
    }
    let measured = decision.exit() != Exit::CouldNotRun;
    Ok(Verdict {
        comparison,
        decision,
        measured,
    })
}
