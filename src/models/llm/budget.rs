//! What a run shares across its models: the `--max-calls` budget and one request limiter
//! per provider.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

/// A shared cap on provider calls across every model of a run.
#[derive(Debug)]
pub struct Budget {
    max: usize,
    used: AtomicUsize,
}

impl Budget {
    pub fn new(max: usize) -> Self {
        Budget {
            max,
            used: AtomicUsize::new(0),
        }
    }

    pub(super) fn take(&self) -> bool {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |u| {
                (u < self.max).then_some(u + 1)
            })
            .is_ok()
    }

    /// The most calls it allows.
    pub fn max(&self) -> usize {
        self.max
    }

    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }
}

/// Per-provider request limiters.
#[derive(Clone, Debug, Default)]
pub struct Limiters(Arc<Mutex<std::collections::HashMap<String, Arc<Semaphore>>>>);

impl Limiters {
    /// The limiter of `provider`, created with `permits` on first use.
    pub fn get(&self, provider: &str, permits: usize) -> Arc<Semaphore> {
        match self.0.lock() {
            Ok(mut m) => m
                .entry(provider.to_string())
                .or_insert_with(|| Arc::new(Semaphore::new(permits.max(1))))
                .clone(),
            Err(_) => Arc::new(Semaphore::new(permits.max(1))),
        }
    }
}
