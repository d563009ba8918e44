//! The self-contained HTML report: one file, no external assets, light and dark mode, a
//! confusion heatmap with hover detail per cell, the per-tool table and the confused requests.

use crate::record::RunFile;
use crate::record::run::RunStatus;
use crate::score::metrics::{ERROR, Metrics, NONE, OTHER};

use super::escape::esc;

const STYLE: &str = r#"
:root { --bg:#ffffff; --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --card:#f6f8fa; --hot:31,111,235; --bad:207,34,46; --good:26,127,55; }
@media (prefers-color-scheme: dark) { :root:not([data-theme=light]) { --bg:#0d1117; --fg:#e6edf3; --muted:#9198a1; --line:#3d444d; --card:#151b23; --hot:56,139,253; --bad:248,81,73; --good:63,185,80; } }
:root[data-theme=dark] { --bg:#0d1117; --fg:#e6edf3; --muted:#9198a1; --line:#3d444d; --card:#151b23; --hot:56,139,253; --bad:248,81,73; --good:63,185,80; }
body { background:var(--bg); color:var(--fg); font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif; margin:2rem auto; max-width:1200px; padding:0 1rem; }
h1,h2,h3 { line-height:1.2 } .muted { color:var(--muted) } code { font-family:ui-monospace,monospace; font-size:90% }
table { border-collapse:collapse; margin:1rem 0 } th,td { border:1px solid var(--line); padding:4px 8px; text-align:left } th { background:var(--card) }
td.num { text-align:right; font-variant-numeric:tabular-nums }
.cards { display:flex; gap:1rem; flex-wrap:wrap } .card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:.75rem 1rem; min-width:180px }
.card .big { font-size:1.8rem; font-weight:600 }
.heat td.cell { text-align:center; min-width:2.2rem; cursor:default } .heat th.rot { writing-mode:vertical-rl; transform:rotate(180deg); font-weight:normal; font-size:12px }
.heat td.diag { outline:2px solid rgba(var(--good),.7); outline-offset:-2px }
.heatwrap { overflow:auto; max-height:85vh; max-width:100%; border:1px solid var(--line) } .heatwrap table { margin:0 }
.heat thead th { position:sticky; top:0; z-index:2; background:var(--card) } .heat tbody th { position:sticky; left:0; z-index:1; background:var(--card); white-space:nowrap }
.heat.compact td { min-width:12px; width:12px; height:12px; padding:0; font-size:0; border-color:rgba(127,127,127,.15) } .heat.compact th.rot { font-size:10px; padding:2px 0 } .heat.compact tbody th { font-size:11px; padding:0 4px }
#tip { position:fixed; pointer-events:none; background:var(--card); color:var(--fg); border:1px solid var(--line); border-radius:6px; padding:6px 8px; font-size:12px; display:none; max-width:360px; box-shadow:0 4px 12px rgba(0,0,0,.2) }
button#theme { float:right; background:var(--card); color:var(--fg); border:1px solid var(--line); border-radius:6px; padding:4px 10px; cursor:pointer }
.fail { color:rgb(var(--bad)) } .pass { color:rgb(var(--good)) }
"#;

const SCRIPT: &str = "
(function(){
  var tip=document.getElementById('tip');
  document.querySelectorAll('td.cell').forEach(function(td){
    td.addEventListener('mousemove',function(e){ tip.textContent=td.getAttribute('data-tip'); tip.style.display='block'; tip.style.left=(e.clientX+14)+'px'; tip.style.top=(e.clientY+14)+'px'; });
    td.addEventListener('mouseleave',function(){ tip.style.display='none'; });
  });
  var b=document.getElementById('theme');
  b.addEventListener('click',function(){ var r=document.documentElement; var dark=r.getAttribute('data-theme')==='dark' || (!r.getAttribute('data-theme') && matchMedia('(prefers-color-scheme: dark)').matches); r.setAttribute('data-theme', dark?'light':'dark'); });
})();
";

fn rate_card(label: &str, r: &crate::score::Rate) -> String {
    if r.n == 0 {
        // Nothing was measured: no number to draw.
        return format!(
            "<div class=card><div class=muted>{}</div><div class=big>n/a</div><div class=muted>n=0: nothing measured</div></div>",
            esc(label)
        );
    }
    format!(
        "<div class=card><div class=muted>{}</div><div class=big>{:.1}%</div><div class=muted>95% CI {:.1}–{:.1}% · n={}</div></div>",
        esc(label),
        r.value * 100.0,
        r.lo * 100.0,
        r.hi * 100.0,
        r.n
    )
}

/// Tools shown in the HTML heatmap before the rest are folded into "other" (it scrolls, with
/// sticky headers; past [`COMPACT_FROM`] columns its cells are small squares with the counts
/// in their tooltips).
pub(crate) const HTML_MATRIX_MAX: usize = 500;
/// Columns from which the heatmap is drawn compact.
pub(crate) const COMPACT_FROM: usize = 40;

fn heatmap(m: &Metrics) -> String {
    let (rows, cols, cells) = m.matrix_view(HTML_MATRIX_MAX);
    let mut out = String::new();
    if rows.iter().any(|r| r == OTHER) {
        out.push_str(&format!("<p class=muted>Showing the {HTML_MATRIX_MAX} most confused tools; the others are folded into “{OTHER}”.</p>"));
    }
    let compact = cols.len() > COMPACT_FROM;
    if compact {
        out.push_str(&format!("<p class=muted>{} tools: each cell is a square coloured by its share of the row; hover for the counts. The table scrolls, with the names kept in view.</p>", rows.len()));
    }
    out.push_str(&format!(
        "<div class=heatwrap><table class=\"heat{}\"><thead><tr><th>expected ↓ / called →</th>",
        if compact { " compact" } else { "" }
    ));
    for c in &cols {
        out.push_str(&format!("<th class=rot>{}</th>", esc(c)));
    }
    out.push_str("<th>n</th></tr></thead><tbody>");
    for row in &rows {
        let get = |c: &String| cells.get(&(row.clone(), c.clone())).copied().unwrap_or(0);
        let total: u64 = cols.iter().map(get).sum();
        if total == 0 {
            continue;
        }
        out.push_str(&format!("<tr><th>{}</th>", esc(row)));
        for c in &cols {
            let v = get(c);
            let right = c == row && row != OTHER;
            if v == 0 {
                // Most cells of a large matrix are empty: no attributes, a few bytes each.
                out.push_str(if right {
                    "<td class=diag></td>"
                } else {
                    "<td></td>"
                });
                continue;
            }
            let share = v as f64 / total as f64;
            let colour = if right {
                format!("background:rgba(var(--good),{:.2})", 0.15 + 0.75 * share)
            } else {
                format!("background:rgba(var(--bad),{:.2})", 0.15 + 0.75 * share)
            };
            let what = if right {
                if row == NONE {
                    "correctly called nothing"
                } else {
                    "correct"
                }
            } else if c == NONE {
                "missed call"
            } else if c == ERROR {
                "error"
            } else if row == NONE {
                "false call"
            } else {
                "confused"
            };
            let tip = format!(
                "expected {row} → called {c}: {v} of {total} ({:.0}% of the row) — {what}",
                share * 100.0
            );
            out.push_str(&format!(
                "<td class=\"cell{}\" data-expected=\"{}\" data-called=\"{}\" data-n=\"{v}\" data-tip=\"{}\" title=\"{}\" style=\"{colour}\">{v}</td>",
                if right { " diag" } else { "" },
                esc(row), esc(c), esc(&tip), esc(&tip),
            ));
        }
        out.push_str(&format!("<td class=num>{total}</td></tr>"));
    }
    out.push_str("</tbody></table></div>");
    out
}

/// What report.md says of how the model was run: who served it, the description probe,
/// the notes and the usage (tokens, latency).
fn model_info(info: &crate::record::run::ModelInfo) -> String {
    let mut out = String::new();
    if !info.served_by.is_empty() {
        out.push_str(&format!(
            "<p>Served by <code>{}</code>.</p>",
            esc(&info.served_by.join(", "))
        ));
    }
    if let Some(l) = crate::report::run::stopped_line(info) {
        out.push_str(&format!(
            "<p class=\"probe fail\"><strong>{}</strong></p>",
            esc(&l)
        ));
    }
    if let Some(l) = crate::report::run::probe_line(info) {
        let passed = info
            .descriptions
            .as_ref()
            .is_some_and(|p| p.outcome == crate::models::ProbeOutcome::Passed);
        out.push_str(&format!(
            "<p class=\"probe {}\"><strong>{}</strong></p>",
            if passed { "pass" } else { "fail" },
            esc(&l)
        ));
    }
    for n in &info.notes {
        out.push_str(&format!("<p class=note>note: {}</p>", esc(n)));
    }
    if let Some(u) = &info.usage {
        out.push_str(&format!(
            "<p class=usage>Usage: {}.</p>",
            esc(&crate::report::run::usage_text(u))
        ));
    }
    out
}

fn model_section(model: &str, m: &Metrics, info: Option<&crate::record::run::ModelInfo>) -> String {
    let mut out = format!("<h2>Model <code>{}</code></h2>", esc(model));
    if let Some(info) = info {
        out.push_str(&model_info(info));
    }
    out.push_str("<div class=cards>");
    out.push_str(&rate_card(crate::record::metric::name(model), &m.accuracy));
    for (k, r) in &m.by_kind {
        out.push_str(&rate_card(k, r));
    }
    for (k, r) in &m.by_split {
        out.push_str(&rate_card(&format!("split {k}"), r));
    }
    out.push_str(&rate_card("abstention recall", &m.abstention_recall));
    if m.args_valid.n > 0 {
        out.push_str(&rate_card("arguments valid", &m.args_valid));
        out.push_str(&rate_card("arguments correct", &m.args_correct));
    }
    if let Some(r) = &m.retrieval {
        for (k, rate) in &r.overall.recall {
            out.push_str(&rate_card(&format!("recall@{k}"), rate));
        }
    }
    out.push_str("</div>");
    if let Some(r) = &m.retrieval {
        out.push_str(&format!(
            "<p class=retrieval>Ranking: MRR@10 {} · nDCG@10 {}.</p>",
            esc(&r.overall.mrr.show()),
            esc(&r.overall.ndcg.show())
        ));
    }
    if let (Some(all), Some(cons)) = (&m.pass_all, &m.consistency) {
        out.push_str(&format!(
            "<p class=trials>Solved in every trial (pass^k): {} · tasks whose trials all agree: {}. Intervals count tasks, not trials.</p>",
            esc(&all.show()),
            esc(&cons.show())
        ));
    }
    out.push_str(&format!(
        "<p>{} confusions · {} missed calls · {} false calls · {} errors, of {} decisions. Abstention precision {}.</p>",
        m.confusions, m.missed_calls, m.false_calls, m.errors, m.n, esc(&m.abstention_precision.show())
    ));
    if m.errors > 0 {
        let causes: Vec<String> = m
            .errors_by_cause
            .iter()
            .map(|(c, n)| format!("{n}× {}", esc(c)))
            .collect();
        out.push_str(&format!(
            "<p class=\"errors\"><b>Errors by cause:</b> {}{}</p>",
            causes.join(", "),
            m.first_error
                .as_ref()
                .map(|e| format!("<br>First error: <code>{}</code>", esc(e)))
                .unwrap_or_default()
        ));
    }
    for (label, text) in crate::report::run::unasked_sentences(m) {
        out.push_str(&format!("<p class=fail><b>{label}:</b> {}</p>", esc(&text)));
    }
    if !m.argument_problems.is_empty() {
        out.push_str("<h3>Wrong arguments (right tool)</h3><table class=args><thead><tr><th>task</th><th>tool</th><th>layer</th><th>what was wrong</th></tr></thead><tbody>");
        for a in &m.argument_problems {
            out.push_str(&format!(
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                esc(&a.task_id),
                esc(&a.tool),
                a.layer.map(|l| l.label()).unwrap_or("–"),
                esc(&a.problems.join("; "))
            ));
        }
        out.push_str("</tbody></table>");
        let total = crate::report::run::argument_problems_total(m);
        if total > m.argument_problems.len() {
            out.push_str(&format!(
                "<p>…and {} more (each trial's grade is in outcomes.jsonl).</p>",
                total - m.argument_problems.len()
            ));
        }
    }
    let a = &m.attribution;
    out.push_str(&format!(
        "<p>Failures by cause (model mechanics is a floor no description can move): {}.</p>",
        esc(&a.sentence())
    ));
    if !a.no_call_replies.is_empty() {
        out.push_str("<details><summary>What the model said instead of calling</summary><ul>");
        for (id, said) in &a.no_call_replies {
            out.push_str(&format!("<li><code>{}</code> {}</li>", esc(id), esc(said)));
        }
        out.push_str("</ul></details>");
    }
    if !m.preconditions.is_empty() {
        out.push_str("<h3>Observed preconditions</h3><table><thead><tr><th>called before</th><th>intended tool</th><th>trials</th><th>95% CI</th><th>declared</th></tr></thead><tbody>");
        for p in &m.preconditions {
            out.push_str(&format!(
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td class=num>{} of {}</td><td class=num>{:.0}–{:.0}%</td><td>{}</td></tr>",
                esc(&p.before), esc(&p.tool), p.rate.k, p.rate.n, p.rate.lo * 100.0, p.rate.hi * 100.0,
                if p.declared { "yes" } else if p.undeclared { "<strong class=fail>no — undeclared</strong>" } else { "no" }
            ));
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("<h3>Confusion matrix</h3><p class=muted>Rows: the tool a task expects; columns: what the model called. Hover a cell for detail.</p>");
    out.push_str(&heatmap(m));
    out.push_str(&format!(
        "<h3>Per tool</h3><table><thead><tr><th>tool</th><th>n</th><th>{}</th><th>95% CI</th><th>precision</th><th>F1</th></tr></thead><tbody>",
        crate::report::run::per_tool_heading(model)
    ));
    for t in &m.per_tool {
        out.push_str(&format!(
            "<tr><td><code>{}</code></td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td></tr>",
            esc(&t.tool), t.support,
            if crate::report::belt::is_server_row(t) { format!("— (belt server, {} call(s))", t.precision.n) } else if t.support == 0 { "—".into() } else { format!("{:.1}%", t.accuracy.value * 100.0) },
            if t.support == 0 { "".into() } else { format!("{:.1}–{:.1}%", t.accuracy.lo * 100.0, t.accuracy.hi * 100.0) },
            esc(&crate::report::run::precision_cell(&t.precision)),
            if t.support == 0 && t.precision.n == 0 { "n/a".to_string() } else { format!("{:.2}", t.f1) }
        ));
    }
    out.push_str("</tbody></table>");
    out.push_str(&crate::report::run::findability::html(m));
    if !m.most_confused.is_empty() {
        out.push_str("<h3>Confused requests</h3><table><thead><tr><th>expected → called</th><th>count</th><th>requests that tripped the model</th></tr></thead><tbody>");
        for p in &m.most_confused {
            let ex: Vec<String> = p
                .examples
                .iter()
                .map(|(id, q)| format!("<div><code>{}</code> {}</div>", esc(id), esc(q)))
                .collect();
            out.push_str(&format!("<tr><td><code>{}</code> → <code>{}</code></td><td class=num>{}</td><td>{}</td></tr>", esc(&p.expected), esc(&p.called), p.count, ex.join("")));
        }
        out.push_str("</tbody></table>");
    }
    out
}

pub(crate) fn render(run: &RunFile) -> String {
    let mut body = String::new();
    body.push_str("<button id=theme type=button>light / dark</button><h1>toolgate run report</h1>");
    body.push_str(&format!(
        "<p class=muted>Catalog <code>{}</code> ({} tools, sha256 <code>{}</code>) · tasks <code>{}</code> ({} tasks, split {}, sha256 <code>{}</code>) · created {} · toolgate {}</p>",
        esc(&run.catalog.source), run.catalog.tools.len(), esc(&run.catalog.sha256), esc(&run.suite.path), run.suite.tasks, esc(&run.split), esc(&run.suite.sha256), esc(&run.created), esc(&run.toolgate_version)
    ));
    if let Some(s) = crate::report::run::smoke_line(run) {
        body.push_str(&format!("<p class=fail><strong>{}</strong></p>", esc(&s)));
    }
    if run.status != RunStatus::Complete {
        body.push_str(&format!(
            "<p class=fail><strong>This run is {}: its numbers are not final.</strong></p>",
            esc(&run.status.to_string())
        ));
    }
    if let Some(r) = &run.reused {
        body.push_str(&format!(
            "<p class=muted><strong>{}</strong></p>",
            esc(&r.sentence())
        ));
    }
    if let Some(g) = &run.gate {
        body.push_str(&if g.passed {
            "<p class=pass><strong>Gate passed.</strong></p>".to_string()
        } else {
            format!(
                "<p class=fail><strong>Gate failed:</strong> {}</p>",
                esc(&g.reasons.join("; "))
            )
        });
    }
    for r in &run.results {
        let info = run.models.iter().find(|i| i.spec == r.model);
        body.push_str(&model_section(&r.model, &r.metrics, info));
    }
    body.push_str(&crate::report::belt::html(run));
    body.push_str(&crate::report::run::ablation::html(run));
    body.push_str(&crate::report::run::curve::html(run));
    body.push_str(&format!(
        "<p class=\"muted legend\">{}</p>",
        esc(&crate::report::run::legend(run).join(" "))
    ));
    format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width,initial-scale=1\"><title>toolgate report</title><style>{STYLE}</style></head><body>{body}<div id=tip></div><script>{SCRIPT}</script></body></html>\n"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup() {
        assert_eq!(
            super::esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    /// Issue 41: a rate with n = 0 is "n/a", never a 0 % card; a tool never called has no
    /// precision, and one called has its interval and n.
    #[test]
    fn nothing_measured_is_not_zero_percent() {
        use crate::score::Rate;
        let card = super::rate_card("abstention recall", &Rate::new(0, 0));
        assert!(card.contains("n/a") && !card.contains("0.0%"), "{card}");
        assert_eq!(Rate::new(0, 0).show(), "n/a (n=0)");
        assert_eq!(
            crate::report::run::precision_cell(&Rate::new(0, 0)),
            "n/a (never called)"
        );
        let called = crate::report::run::precision_cell(&Rate::new(3, 4));
        assert!(
            called.starts_with("75.0% [") && called.ends_with("(n=4)"),
            "{called}"
        );
    }
}
