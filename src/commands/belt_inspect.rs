//! `toolgate inspect --mcp-config FILE`: every server's tools, keyed `server/tool`, their
//! token cost together, and the lint findings of each.

use serde_json::json;

use crate::adapt::belt::{belt_hash, lint_report};
use crate::adapt::tool_row;
use crate::catalog::belt::{Belt, key};
use crate::catalog::canonical;
use crate::cli::{Format, InspectArgs};
use crate::config::Config;
use crate::gate::Exit;
use crate::lint::Context;
use crate::out::{print, println};
use crate::report::terminal;

pub(crate) async fn run(args: &InspectArgs, cfg: &Config) -> anyhow::Result<Exit> {
    if args.save.is_some() {
        anyhow::bail!(
            "--save writes one server's snapshot: name the server (`toolgate inspect --mcp-config FILE NAME --save FILE`)"
        );
    }
    let belt = crate::adapt::belt::load(&args.server, cfg).await?;
    let report = lint_report(
        &belt,
        cfg,
        crate::adapt::belt::lock_to_locate(cfg, None).as_deref(),
    )?;
    if args.json {
        println(&serde_json::to_string_pretty(&to_json(
            &belt, cfg, &report,
        ))?);
        return Ok(Exit::Pass);
    }
    println(&format!(
        "belt {}: {} servers, {} tools; the tool list costs {} tokens ({}); belt sha256 {}",
        belt.config,
        belt.servers.len(),
        belt.tool_count(),
        report.total_tokens,
        crate::tokens::TOKENIZER,
        &belt_hash(&belt)[..16]
    ));
    for s in &belt.servers {
        let c = &s.catalog;
        let who = c
            .server
            .name
            .as_ref()
            .map(|n| format!("  ({n} {})", c.server.version.as_deref().unwrap_or("")))
            .unwrap_or_default();
        println(&format!("\nserver `{}`: {}{who}", s.name, c.source));
        let cx = Context::new(c, &cfg.lint);
        print(&terminal::tools_table(c, &cx.tool_tokens));
        println(&format!(
            "{} tools, {} tokens; catalog sha256 {}",
            c.tools.len(),
            cx.total_tokens(),
            &canonical::catalog_hash(c)[..16]
        ));
    }
    println("");
    print(&crate::report::render_lint(&report, Format::Terminal));
    Ok(Exit::Pass)
}

fn to_json(belt: &Belt, cfg: &Config, report: &crate::report::LintReport) -> serde_json::Value {
    let mut tools = Vec::new();
    let mut servers = Vec::new();
    for s in &belt.servers {
        let cx = Context::new(&s.catalog, &cfg.lint);
        for (t, (n, exact)) in s.catalog.tools.iter().zip(&cx.tool_tokens) {
            let mut row = serde_json::Map::new();
            row.insert("key".into(), json!(key(&s.name, t.name())));
            row.insert("server".into(), json!(s.name));
            row.extend(tool_row(t, *n, *exact));
            tools.push(serde_json::Value::Object(row));
        }
        servers.push(json!({
            "name": s.name,
            "source": s.catalog.source,
            "server": s.catalog.server,
            "instructions": s.catalog.instructions,
            "catalog_sha256": canonical::catalog_hash(&s.catalog),
            "tools": s.catalog.tools.len(),
            "total_tokens": cx.total_tokens(),
        }));
    }
    json!({
        "schema_version": "toolgate.belt/v1",
        "config": belt.config,
        "belt_sha256": belt_hash(belt),
        "tokenizer": crate::tokens::TOKENIZER,
        "total_tokens": report.total_tokens,
        "servers": servers,
        "tools": tools,
        "lint": report,
    })
}
