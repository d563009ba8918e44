//! On-disk response cache: replies stored by a hash of (provider, endpoint, model, exact
//! request body, trial), so an unchanged re-run makes zero provider calls, and the same model
//! name at another server is asked anew. Keys never include secrets.

use std::path::PathBuf;

use serde_json::Value;

#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub fn new(dir: PathBuf) -> Self {
        Cache { dir }
    }

    /// Where the cache lives.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// The cache key. Trials after the first get their own entries, so repeated trials are
    /// real samples rather than one cached reply.
    pub fn key(provider: &str, endpoint: &str, model: &str, body: &Value, trial: u32) -> String {
        let canon = crate::catalog::canonical::to_canonical_string(body);
        let t = if trial == 0 {
            String::new()
        } else {
            format!("\ntrial {trial}")
        };
        crate::catalog::canonical::sha256_hex(&format!(
            "{provider}\n{endpoint}\n{model}\n{canon}{t}"
        ))
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    pub fn get(&self, key: &str) -> Option<Value> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Stores a reply (write then rename: a killed run never leaves a torn entry).
    pub fn put(&self, key: &str, reply: &Value) {
        let path = self.path(key);
        if let Some(dir) = path.parent()
            && std::fs::create_dir_all(dir).is_ok()
        {
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            if std::fs::write(&tmp, reply.to_string()).is_ok() {
                let _ = std::fs::rename(&tmp, &path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_and_keys_differ_by_body_and_trial() {
        let dir = tempfile::tempdir().unwrap();
        let c = Cache::new(dir.path().to_path_buf());
        let body = json!({"b": 1, "a": [1, 2]});
        let k = Cache::key("openai", "http://a", "m", &body, 0);
        assert_eq!(
            k,
            Cache::key("openai", "http://a", "m", &json!({"a": [1, 2], "b": 1}), 0)
        );
        assert_ne!(k, Cache::key("openai", "http://a", "m", &body, 1));
        assert_ne!(k, Cache::key("anthropic", "http://a", "m", &body, 0));
        assert_ne!(k, Cache::key("openai", "http://b", "m", &body, 0));
        assert!(c.get(&k).is_none());
        c.put(&k, &json!({"ok": true}));
        assert_eq!(c.get(&k).unwrap()["ok"], true);
    }
}
