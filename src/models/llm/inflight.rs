//! In-flight deduplication: requests with the same cache key that are in flight at the same
//! time are sent once; the others await that one's outcome. An outcome (success or error) is
//! shared only with the callers that were waiting for it: once it is known the key is free
//! again, so a later caller reads the response cache (successes are stored there) or, after an
//! error, sends anew.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;

pub(super) struct InFlight<T> {
    map: Mutex<HashMap<String, Arc<OnceCell<T>>>>,
}

impl<T> Default for InFlight<T> {
    fn default() -> Self {
        InFlight {
            map: Mutex::new(HashMap::new()),
        }
    }
}

impl<T: Clone> InFlight<T> {
    /// The outcome of `work` for `key`, run by the first caller; callers arriving while it
    /// runs get a clone of its outcome. The flag is true for the caller whose `work` ran. If
    /// that caller is cancelled, a waiting caller runs its own `work` instead.
    pub(super) async fn run<F, Fut>(&self, key: &str, work: F) -> (T, bool)
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = T>,
    {
        let cell = match self.map.lock() {
            Ok(mut m) => m.entry(key.to_string()).or_default().clone(),
            // A poisoned map (a panic elsewhere) only costs the sharing.
            Err(_) => Arc::new(OnceCell::new()),
        };
        let mut ran = false;
        let value = cell
            .get_or_init(|| {
                ran = true;
                work()
            })
            .await
            .clone();
        if let Ok(mut m) = self.map.lock()
            && m.get(key).is_some_and(|c| Arc::ptr_eq(c, &cell))
        {
            m.remove(key);
        }
        (value, ran)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.map.lock().map(|m| m.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[tokio::test]
    async fn concurrent_callers_share_one_run_and_later_ones_run_again() {
        let f: Arc<InFlight<Result<u32, String>>> = Arc::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let call = |key: &'static str, out: Result<u32, String>| {
            let (f, runs) = (f.clone(), runs.clone());
            tokio::spawn(async move {
                f.run(key, || async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    out
                })
                .await
            })
        };
        let handles: Vec<_> = (0..8)
            .map(|i| call(if i % 2 == 0 { "a" } else { "b" }, Err(format!("e{i}"))))
            .collect();
        let mut outs = Vec::new();
        for h in handles {
            outs.push(h.await.unwrap());
        }
        assert_eq!(runs.load(Ordering::SeqCst), 2, "one run per key");
        assert_eq!(outs.iter().filter(|(_, ran)| *ran).count(), 2);
        // Every waiter got the error of the run it waited for.
        for (i, (v, _)) in outs.iter().enumerate() {
            let first = if i % 2 == 0 { "e0" } else { "e1" };
            assert_eq!(v.as_ref().unwrap_err(), first);
        }
        assert_eq!(f.len(), 0, "keys are freed once known");
        // The error was not kept: the next caller runs again.
        let (v, ran) = call("a", Ok(7)).await.unwrap();
        assert_eq!((v, ran), (Ok(7), true));
        assert_eq!(runs.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_cancelled_first_caller_hands_over_to_a_waiter() {
        let f: Arc<InFlight<u32>> = Arc::default();
        let first = {
            let f = f.clone();
            tokio::spawn(async move {
                f.run("k", || async {
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                    1
                })
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        let second = {
            let f = f.clone();
            tokio::spawn(async move { f.run("k", || async { 2 }).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        first.abort();
        assert_eq!(second.await.unwrap(), (2, true));
    }
}
