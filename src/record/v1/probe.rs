//! The description probe's result in run files (`models[].descriptions`).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DescriptionProbeV1 {
    /// Files of older toolgates have none: read from `canary`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<crate::record::probe::ProbeOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    pub reach: bool,
    #[serde(default)]
    pub canary: crate::record::probe::Canary,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picked: Vec<String>,
    /// One request's prompt tokens, for the record. Files of older toolgates hold a pair
    /// (served, with a longer description): the first is kept.
    #[serde(
        default,
        deserialize_with = "tokens_or_pair",
        skip_serializing_if = "Option::is_none"
    )]
    pub prompt_tokens: Option<u64>,
}

fn tokens_or_pair<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        One(u64),
        Pair([u64; 2]),
    }
    Ok(Option::<Either>::deserialize(d)?.map(|e| match e {
        Either::One(t) => t,
        Either::Pair([t, _]) => t,
    }))
}

impl From<crate::record::probe::DescriptionProbe> for DescriptionProbeV1 {
    fn from(v: crate::record::probe::DescriptionProbe) -> Self {
        DescriptionProbeV1 {
            outcome: Some(v.outcome),
            why: v.why,
            reach: v.reach,
            canary: v.canary,
            picked: v.picked,
            prompt_tokens: v.prompt_tokens,
        }
    }
}

impl From<DescriptionProbeV1> for crate::record::probe::DescriptionProbe {
    fn from(v: DescriptionProbeV1) -> Self {
        crate::record::probe::DescriptionProbe {
            outcome: v.outcome.unwrap_or(v.canary.into()),
            why: v.why,
            reach: v.reach,
            canary: v.canary,
            picked: v.picked,
            prompt_tokens: v.prompt_tokens,
        }
    }
}
