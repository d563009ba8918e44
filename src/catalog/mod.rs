//! The catalog stage: what a server offers a model (tools, instructions), loaded from a live
//! server (stdio or Streamable HTTP) or a snapshot file, kept exactly as the server sent it.

pub(crate) mod ablate;
pub(crate) mod belt;
pub(crate) mod canonical;
pub(crate) mod connect;
pub(crate) mod jsonpos;
pub(crate) mod locate;
pub(crate) mod lock;
pub(crate) mod mask;
pub(crate) mod mcp_config;
pub(crate) mod net;
pub(crate) mod server_json;
pub(crate) mod snapshot;
pub(crate) mod source;
pub(crate) mod spec;
mod tee;
mod types;

pub use source::ConnectOptions;
pub use spec::ServerSpec;
pub(crate) use types::kind;
pub use types::{Catalog, Tool};
pub(crate) use types::{ListHints, Relisting, ServerMeta};

/// Loads a catalog from any server spec: live stdio/HTTP server or snapshot file.
/// The catalog is what the server sent; a credential in it is noted (see [`mask`]).
pub async fn load(spec: &ServerSpec, opts: &ConnectOptions) -> anyhow::Result<Catalog> {
    let mut catalog = match spec {
        ServerSpec::Snapshot(path) => snapshot::read(path)?,
        _ => {
            crate::progress::while_slow(
                "waiting for the server to start and list its tools",
                connect::connect(spec, opts),
            )
            .await?
        }
    };
    if catalog.tools.len() > crate::limits::MAX_TOOLS {
        return Err(crate::limits::too_many_tools(
            catalog.tools.len(),
            &format!("`{}`", spec.display()),
        ));
    }
    catalog.config_key = opts.config_key.clone();
    Ok(mask::checked(catalog, opts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, d: &str) -> Tool {
        Tool::from_value(json!({"name": name, "description": d}), "t").unwrap()
    }

    #[test]
    fn lookup_finds_the_first_of_a_name_and_survives_added_tools() {
        let mut c = Catalog {
            tools: vec![tool("a", "1"), tool("b", "2"), tool("a", "3")],
            ..Default::default()
        };
        assert_eq!(c.tool("a").and_then(Tool::description), Some("1"));
        assert_eq!(c.tool("b").and_then(Tool::description), Some("2"));
        assert!(c.tool("c").is_none());
        c.tools.push(tool("c", "4"));
        assert_eq!(c.tool("c").and_then(Tool::description), Some("4"));
        c.tools.remove(0);
        assert_eq!(c.tool("a").and_then(Tool::description), Some("3"));
    }
}
