//! The secret store: the credential variables `take_secrets` moved out of the environment,
//! held in memory.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

pub(super) fn store() -> &'static Mutex<BTreeMap<String, String>> {
    static STORE: OnceLock<Mutex<BTreeMap<String, String>>> = OnceLock::new();
    STORE.get_or_init(|| Mutex::new(BTreeMap::new()))
}

pub(super) fn store_snapshot() -> BTreeMap<String, String> {
    store().lock().map(|s| s.clone()).unwrap_or_default()
}
