//! Taps the wire so toolgate keeps each `tools/list` result exactly as the server sent it
//! (rmcp's typed `Tool` drops fields it does not know), and filters non-protocol lines a
//! stdio server prints on stdout before they reach the JSON-RPC decoder.

mod http;
mod stdout;

use std::sync::{Arc, Mutex};

use serde_json::Value;

pub(crate) use http::TeeHttpClient;
pub(crate) use stdout::filter_stdout;

/// What the tap saw.
#[derive(Debug, Default)]
pub(crate) struct Capture {
    /// Raw `result` objects of `tools/list` responses, in arrival order.
    pub pages: Vec<Value>,
    /// Non-protocol stdout lines skipped, and the first few of them.
    pub junk_lines: usize,
    pub junk_samples: Vec<String>,
    /// Why the stream was cut, when the tap cut it.
    pub fatal: Option<String>,
}

pub(crate) type SharedCapture = Arc<Mutex<Capture>>;

fn record_page(capture: &SharedCapture, msg: &Value) {
    if let Some(result) = msg.get("result")
        && result.get("tools").is_some_and(Value::is_array)
        && let Ok(mut c) = capture.lock()
    {
        c.pages.push(result.clone());
    }
}
