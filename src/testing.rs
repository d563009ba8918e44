//! What the integration tests, the benches and the examples (with the lint benches' harness
//! in examples/support) use from inside the crate, re-exported in one place. Not an API: the
//! crate's modules are `pub(crate)`, so rustc reports what nothing uses, and this list is what
//! the tests reach past the command line for.

pub mod catalog {
    pub use crate::catalog::{Catalog, ConnectOptions, ServerSpec, Tool, load};
    pub mod snapshot {
        pub use crate::catalog::snapshot::read;
    }
    pub mod lock {
        pub use crate::catalog::lock::{LockFile, diff, render};
    }
}

pub mod lint {
    pub use crate::lint::{Context, Finding, LintSettings, RULES, Severity, belt, run, run_in};
}

pub mod report {
    pub use crate::report::{LintReport, render_lint};
    pub mod style {
        pub use crate::report::style::Palette;
    }
}

pub mod models {
    pub use crate::models::{Model, ModelOptions, build_llm};
    pub mod wire {
        pub use crate::models::wire::SYSTEM_PROMPT;
    }
    pub mod provider {
        pub use crate::models::provider::PROVIDERS;
    }
    pub mod llm {
        pub use crate::models::llm::LlmOptions;
    }
    pub mod embed {
        pub use crate::models::embed::tool_embeddings;
        pub mod encoder {
            #[cfg(feature = "embed")]
            pub use crate::models::embed::encoder::Encoder;
            pub use crate::models::embed::encoder::dot;
        }
    }
}

pub mod cli {
    pub use crate::cli::{Cli, Format};
    pub mod help {
        pub use crate::cli::help::command;
    }
}

pub mod commands {
    pub mod rules {
        pub use crate::commands::rules::doc_files;
    }
}

pub mod config {
    pub use crate::config::Config;
}

pub mod ci {
    pub mod templates {
        pub use crate::ci::templates::ACTION_REF;
    }
}

pub mod text {
    pub use crate::text::{similar_pairs, similarity_doc};
}

pub mod tokens {
    pub use crate::tokens::count;
}

pub mod tasks {
    pub mod sampler {
        pub use crate::tasks::sampler::sample_args;
    }
}

pub mod secrets {
    pub use crate::secrets::{harden_process, secret_var, take_secrets};
}

pub mod sandbox {
    pub use crate::sandbox::SandboxMode;
}
