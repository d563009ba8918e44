//! `toolgate inspect SERVER`: the tool table, token cost, lint findings; `--save` a snapshot.

use serde_json::json;

use crate::adapt::{load_catalog, tool_row};
use crate::catalog::{canonical, snapshot};
use crate::cli::{Format, InspectArgs};
use crate::config::Config;
use crate::gate::Exit;
use crate::lint::Context;
use crate::report::terminal;

pub(crate) async fn run(args: &InspectArgs, cfg: &Config) -> anyhow::Result<Exit> {
    // The rules' patterns compile while the server starts.
    crate::lint::warm_up();
    let catalog = load_catalog(&args.server, cfg).await?;
    if let Some(path) = &args.save {
        snapshot::write(path, &catalog)?;
        crate::elog!("saved {} tools to {}", catalog.tools.len(), path.display());
    }
    let cx = Context::new(&catalog, &cfg.lint);
    let file = crate::adapt::locate_file(&catalog, cfg, None);
    let report = crate::report::LintReport::for_context(&cx, file.as_deref());
    if args.json {
        let tools: Vec<_> = catalog
            .tools
            .iter()
            .zip(&cx.tool_tokens)
            .map(|(t, (n, exact))| serde_json::Value::Object(tool_row(t, *n, *exact)))
            .collect();
        let v = json!({
            "schema_version": "toolgate.inspect/v1",
            "source": catalog.source,
            "server": catalog.server,
            "instructions": catalog.instructions,
            "catalog_sha256": canonical::catalog_hash(&catalog),
            "tokenizer": crate::tokens::TOKENIZER,
            "total_tokens": report.total_tokens,
            "tools": tools,
            "lint": report,
        });
        crate::out::println(&(serde_json::to_string_pretty(&v)?));
        return Ok(Exit::Pass);
    }
    let s = &catalog.server;
    crate::out::println(&format!(
        "{}{}{}",
        catalog.source,
        s.name
            .as_ref()
            .map(|n| format!("  ({n} {})", s.version.as_deref().unwrap_or("")))
            .unwrap_or_default(),
        s.protocol_version
            .as_ref()
            .map(|p| format!("  protocol {p}"))
            .unwrap_or_default()
    ));
    if let Some(i) = &catalog.instructions {
        let (n, _) = crate::tokens::count(i);
        crate::out::println(&format!("instructions: {n} tokens"));
    }
    crate::out::println("");
    crate::out::print(&(terminal::tools_table(&catalog, &cx.tool_tokens)));
    crate::out::println(&format!(
        "\n{} tools; the tool list costs {} tokens ({}); catalog sha256 {}\n",
        catalog.tools.len(),
        report.total_tokens,
        crate::tokens::TOKENIZER,
        &canonical::catalog_hash(&catalog)[..16]
    ));
    crate::out::print(&(crate::report::render_lint(&report, Format::Terminal)));
    Ok(Exit::Pass)
}
