//! What the steps leave for the report as they go: notices for the reader, and the files
//! written, by kind.

use std::path::Path;

use crate::record::ci::Written;

/// Notices and written files, gathered step by step.
#[derive(Debug, Default)]
pub(crate) struct Trail {
    pub notices: Vec<String>,
    pub written: Written,
}

impl Trail {
    /// A trail that starts with the settings' own notices.
    pub(crate) fn new(notices: Vec<String>) -> Self {
        Trail {
            notices,
            written: Written::default(),
        }
    }

    /// Records `path` as written under the kind `slot` names.
    pub(crate) fn wrote(&mut self, slot: fn(&mut Written) -> &mut Option<String>, path: &Path) {
        *slot(&mut self.written) = Some(path.display().to_string());
    }
}
