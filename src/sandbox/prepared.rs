//! A sandbox set up for one server process, and applying it to the command that starts it.

/// A sandbox set up for one server process: its private directory (removed when this is
/// dropped), the variables it sets, and what it applies.
pub(crate) struct Prepared {
    /// The server's private, writable directory (`HOME`, `TMPDIR`).
    pub dir: Option<tempfile::TempDir>,
    /// Variables to set in the server's environment.
    pub env: Vec<(String, String)>,
    /// What the sandbox does, in words, for error messages and `-v`.
    pub statement: String,
    /// The uid the server runs as, when it differs from toolgate's.
    pub uid: Option<u32>,
    #[cfg(target_os = "linux")]
    pub(crate) plan: Option<super::linux::Plan>,
}

impl Prepared {
    pub(super) fn none(statement: &str) -> Self {
        Prepared {
            dir: None,
            env: Vec::new(),
            statement: statement.to_string(),
            uid: None,
            #[cfg(target_os = "linux")]
            plan: None,
        }
    }

    /// Applies the sandbox to the command that starts the server: the environment, and on
    /// Linux the confinement done in the child between fork and exec.
    pub(crate) fn apply(&mut self, cmd: &mut tokio::process::Command) {
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        #[cfg(target_os = "linux")]
        if let Some(plan) = self.plan.take() {
            super::linux::install(cmd, plan);
        }
    }

    /// A hint for a server that failed to start or exited early inside the sandbox.
    pub(crate) fn failure_hint(&self) -> String {
        if self.plan_applied() {
            // (The sentence names the read rules too: --sandbox-read opens one more path.)
            let uid = self
                .uid
                .map(|u| format!(" as uid {u} (toolgate runs as root)"))
                .unwrap_or_default();
            format!(
                " The server ran in toolgate's sandbox{uid}: {}. If it needs to write a \
                 directory, name it with --sandbox-write DIR; if it must read one outside the \
                 workspace and its program's installation, --sandbox-read PATH; if that uid \
                 may not read its files, make them readable or set --sandbox-uid; --sandbox \
                 off runs it unconfined.",
                self.statement
            )
        } else {
            String::new()
        }
    }

    fn plan_applied(&self) -> bool {
        self.dir.is_some()
    }
}
