//! The description probe: does this endpoint pass tool descriptions on to the model at all?

use serde_json::Value;

use super::LlmModel;
use crate::models::provider::Wire;
use crate::models::{DescriptionProbe, wire};

impl LlmModel {
    /// Sends the same request twice, with the catalog as served and with the first tool's
    /// description made ~40 words longer, and compares the prompt tokens the endpoint reports.
    pub(super) async fn probe(
        &self,
        request: &str,
        known: Option<u64>,
    ) -> Option<DescriptionProbe> {
        let wire = self.endpoint.provider.wire;
        let mut longer = self.tools.clone();
        let padding = " This sentence is here only to make the description longer, so that toolgate can see whether tool descriptions reach the model at all on this endpoint; it changes nothing about what the tool does or when to use it.";
        let first = longer.first_mut()?;
        let desc = match wire {
            Wire::OpenAi => first.pointer_mut("/function/description"),
            Wire::Anthropic => first.get_mut("description"),
        };
        match desc {
            Some(Value::String(d)) => d.push_str(padding),
            _ => return None,
        }
        let tokens = |tools: Vec<Value>| async move {
            let make =
                |t: bool| wire::body(wire, &self.model, &tools, request, &[], t, self.opts.seed);
            self.exchange_with(&make, 0, false)
                .await
                .ok()?
                .usage
                .map(|u| u.0)
        };
        let a = match known {
            Some(a) => a,
            None => tokens(self.tools.clone()).await?,
        };
        let b = tokens(longer).await?;
        Some(DescriptionProbe {
            reach: a != b,
            prompt_tokens: (a, b),
        })
    }
}
