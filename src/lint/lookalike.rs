//! Which tool pairs look alike (TG005, TG006, and TG028 across a belt): wording first, then
//! what the names say each tool does ([`text::role`]), then what a request must give each
//! tool. A pair whose inputs tell it apart is not a look-alike unless its descriptions
//! restate each other or its names are synonyms (`create_event` / `schedule_meeting`: the
//! model reads the name first, and a coin flip there is not undone by the schema): a request that fits `maps_reverse_geocode` gives a latitude and
//! longitude, which `maps_geocode` has no parameter for, so the model is not choosing between
//! equals however alike the two read.

use std::collections::BTreeSet;

use serde_json::Value;

use super::resolve_ref;
use crate::catalog::Tool;
use crate::text::{self, SimilarPair};

/// How far under the look-alike threshold a pair may score and still be reported when both
/// names do the same thing to the same object (`read_file` / `read_text_file`).
const SAME_ROLE_ALLOWANCE: f64 = 0.2;

/// The most schema nodes one tool's parameter names are read from (a hostile schema is
/// bounded), and how deep.
const MAX_NODES: usize = 512;
const MAX_DEPTH: usize = 6;

/// The look-alike pairs among `tools` (each with its description's [`text::content_words`]):
/// what [`super::Context::lookalikes`] keeps for one catalog, and what the belt lint keeps
/// across servers (TG028) over every tool of a belt at once. `by_inputs`: whether inputs may
/// tell a pair apart ([`inputs_tell_apart`]) — within one server; across servers every API
/// names its ids its own way (`owner`/`repo`/`issue_number` next to Jira's `issue_key`), and a
/// request "comment on issue 42" fits both.
pub(crate) fn lookalike_pairs(
    tools: &[&Tool],
    content: &[&[String]],
    threshold: f64,
    by_inputs: bool,
) -> Vec<SimilarPair> {
    if tools.len() < 2 || content.len() != tools.len() {
        return Vec::new();
    }
    let docs: Vec<_> = tools
        .iter()
        .zip(content)
        .map(|(t, c)| text::lookalike_doc_of(t.name(), c))
        .collect();
    let floor = (threshold - SAME_ROLE_ALLOWANCE).max(0.0);
    // A description that opens with another tool's job in other words (`list_project_tags`
    // "List the labels (tags) …" beside `list_labels`) makes a pair however little else the
    // two share.
    let twins = text::job_twins(
        &tools
            .iter()
            .map(|t| (t.name(), t.description().unwrap_or("")))
            .collect::<Vec<_>>(),
    );
    let pairs = text::similar_pairs_with(&docs, floor, &twins);
    // Roles only for tools in some candidate pair.
    let boilerplate = text::boilerplate(&docs);
    let mut roles: Vec<Option<text::Role>> = vec![None; tools.len()];
    for p in &pairs {
        for i in [p.a, p.b] {
            if roles[i].is_none() {
                let t = tools[i];
                let mut role = text::role(t.name(), t.description().unwrap_or(""));
                role.mark_boilerplate(&boilerplate);
                roles[i] = Some(role);
            }
        }
    }
    pairs
        .into_iter()
        .filter(|p| tools[p.a].name() != tools[p.b].name())
        .filter(|p| {
            let twin = || {
                twins.binary_search(&(p.a, p.b)).is_ok()
                    && (!by_inputs || !inputs_tell_apart(tools[p.a], tools[p.b]))
            };
            let (Some(ra), Some(rb)) = (&roles[p.a], &roles[p.b]) else {
                return false;
            };
            // The cheap verdict first: most pairs of a large templated catalog do different
            // jobs (another object, another action).
            if text::distinct_jobs(ra, rb) {
                return twin();
            }
            let restated = text::restates_besides(ra, rb);
            ((p.score >= threshold
                || (ra.same_as(rb) && ra.qualifiers_shared_with(rb))
                || restated)
                && (!by_inputs
                    || restated
                    || ra.synonym_names(rb)
                    || !inputs_tell_apart(tools[p.a], tools[p.b])))
                || twin()
        })
        .collect()
}

/// What one tool's schema asks of a request: its required parameters and every parameter
/// name it has anywhere (nested objects and array items included), each folded by [`fold`].
struct Inputs {
    /// Required top-level parameters: (as written, folded).
    required: Vec<(String, String)>,
    names: BTreeSet<String>,
}

/// A parameter or name word folded for comparison: lower-case letters and digits only, a
/// plural `s` dropped (`file_paths` ≈ `filePath`, `issue_keys` ≈ `issue_key`).
fn fold(name: &str) -> String {
    let mut s: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if s.len() > 3 && s.ends_with('s') && !["ss", "us", "is"].iter().any(|e| s.ends_with(e)) {
        s.pop();
    }
    s
}

impl Inputs {
    fn of(tool: &Tool) -> Self {
        let mut names = BTreeSet::new();
        let mut required = Vec::new();
        if let Some(root) = tool.input_schema() {
            if let Some(req) = root.get("required").and_then(Value::as_array) {
                required = req
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|r| (r.to_ascii_lowercase(), fold(r)))
                    .collect();
            }
            let mut budget = MAX_NODES;
            collect_names(root, root, 0, &mut budget, &mut names);
        }
        Inputs { required, names }
    }
}

fn collect_names(
    root: &Value,
    node: &Value,
    depth: usize,
    budget: &mut usize,
    out: &mut BTreeSet<String>,
) {
    if depth > MAX_DEPTH || *budget == 0 {
        return;
    }
    *budget -= 1;
    let Some(obj) = node.as_object() else { return };
    if let Some(reference) = obj.get("$ref").and_then(Value::as_str)
        && let Some((_, target)) = resolve_ref(root, reference)
    {
        collect_names(root, target, depth + 1, budget, out);
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            out.insert(fold(name));
            collect_names(root, sub, depth + 1, budget, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = obj.get(key) {
            collect_names(root, sub, depth + 1, budget, out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for sub in obj.get(key).and_then(Value::as_array).into_iter().flatten() {
            collect_names(root, sub, depth + 1, budget, out);
        }
    }
}

/// True when what a request must give the two tools sets them apart:
/// - one requires a parameter the other has nowhere (`textSelection` for an inline comment,
///   `template_id` for a page from a template, `latitude` for reverse geocoding), unless that
///   parameter is a list of the other tool's object (`versions` for `batch_create_versions`
///   next to `create_version`: the batch does the single tool's job);
/// - or one name is the other's with its object in the plural (`get_users` / `get_user`,
///   `get_recent_periodic_notes` / `get_periodic_note`) and the plural tool takes no list of
///   them: it lists, the other fetches one.
pub(crate) fn inputs_tell_apart(a: &Tool, b: &Tool) -> bool {
    let (ia, ib) = (Inputs::of(a), Inputs::of(b));
    let words = |t: &Tool| -> Vec<String> { text::name_words(t.name()) };
    let (wa, wb) = (words(a), words(b));
    // `x` requires a list of `other_words`' object: a batch of the other tool.
    let batch_of = |x: &Inputs, other_words: &[String]| {
        x.required.iter().any(|(raw, folded)| {
            let raw: String = raw.chars().filter(char::is_ascii_alphanumeric).collect();
            other_words
                .iter()
                .any(|w| fold(w) == *folded && w.to_ascii_lowercase() != raw)
        })
    };
    if batch_of(&ia, &wb) || batch_of(&ib, &wa) {
        return false;
    }
    let lacks = |x: &Inputs, y: &Inputs| x.required.iter().any(|(_, f)| !y.names.contains(f));
    if lacks(&ia, &ib) || lacks(&ib, &ia) {
        return true;
    }
    // Names that differ only by a plural and both require the same inputs (`export_team` and
    // `export_teams`, each a `team_id`): the plural one does not list its objects, it fetches
    // the same one. A qualifier more (`get_recent_periodic_notes`) does list.
    if !ia.required.is_empty() && wa.len() == wb.len() {
        return false;
    }
    lists_not_fetches(&wa, &ia, &wb) || lists_not_fetches(&wb, &ib, &wa)
}

/// `many`'s name is `one`'s with a word in the plural (and maybe a qualifier more), and `many`
/// requires no list (a parameter in the plural): it lists its objects rather than fetching
/// the given ones.
fn lists_not_fetches(many: &[String], many_inputs: &Inputs, one: &[String]) -> bool {
    let plural_of = |m: &String, o: &String| {
        m.len() == o.len() + 1 && m.ends_with('s') && m.starts_with(o.as_str())
    };
    let Some(at) = many
        .iter()
        .position(|m| one.iter().any(|o| plural_of(m, o)))
    else {
        return false;
    };
    let rest_of_one = one.iter().filter(|o| !plural_of(&many[at], o));
    let all_in_many = rest_of_one.clone().all(|o| many.contains(o));
    let takes_a_list = many_inputs.required.iter().any(|(raw, folded)| {
        raw.chars().filter(char::is_ascii_alphanumeric).count() > folded.len()
    });
    all_in_many && !takes_a_list
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, props: &[&str], required: &[&str]) -> Tool {
        let properties: serde_json::Map<String, Value> = props
            .iter()
            .map(|p| (p.to_string(), json!({"type": "string"})))
            .collect();
        Tool::from_value(
            json!({"name": name, "inputSchema": {"type": "object", "properties": properties, "required": required}}),
            "t",
        )
        .unwrap()
    }

    #[test]
    fn a_required_input_the_other_lacks_tells_tools_apart() {
        let geo = tool("maps_geocode", &["address"], &["address"]);
        let rev = tool(
            "maps_reverse_geocode",
            &["latitude", "longitude"],
            &["latitude", "longitude"],
        );
        assert!(inputs_tell_apart(&geo, &rev));
        let a = tool("read_file", &["path"], &["path"]);
        let b = tool("read_text_file", &["path", "encoding"], &["path"]);
        assert!(!inputs_tell_apart(&a, &b), "an optional extra does not");
        let many = tool(
            "upload_attachments",
            &["content_id", "file_paths"],
            &["content_id", "file_paths"],
        );
        let one = tool(
            "upload_attachment",
            &["content_id", "file_path"],
            &["content_id", "file_path"],
        );
        assert!(
            !inputs_tell_apart(&many, &one),
            "a list of the same input does not"
        );
    }

    #[test]
    fn a_batch_of_the_other_tools_object_does_its_job() {
        let batch = tool(
            "batch_create_versions",
            &["project_key", "versions"],
            &["project_key", "versions"],
        );
        let one = tool(
            "create_version",
            &["project_key", "name"],
            &["project_key", "name"],
        );
        assert!(!inputs_tell_apart(&batch, &one));
    }

    #[test]
    fn listing_is_not_fetching_one() {
        let one = tool("get_periodic_note", &["period"], &["period"]);
        let many = tool(
            "get_recent_periodic_notes",
            &["period", "limit"],
            &["period"],
        );
        assert!(inputs_tell_apart(&one, &many));
        let one = tool("get_issue_development_info", &["issue_key"], &["issue_key"]);
        let many = tool(
            "get_issues_development_info",
            &["issue_keys"],
            &["issue_keys"],
        );
        assert!(!inputs_tell_apart(&one, &many), "a batch fetch covers one");
    }

    #[test]
    fn nested_and_referenced_names_count_and_hostile_depth_is_bounded() {
        let nested = Tool::from_value(
            json!({"name": "create_items", "inputSchema": {"type": "object", "$defs": {"I": {"properties": {"title": {}}}},
                "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/I"}}}, "required": ["items"]}}),
            "t",
        )
        .unwrap();
        assert!(Inputs::of(&nested).names.contains("title"));
        let mut deep = json!({});
        for i in 0..200 {
            deep = json!({"properties": {format!("p{i}"): deep}});
        }
        let hostile = Tool::from_value(json!({"name": "x", "inputSchema": deep}), "t").unwrap();
        assert!(Inputs::of(&hostile).names.len() <= MAX_DEPTH + 1);
        let wide: serde_json::Map<String, Value> =
            (0..10_000).map(|i| (format!("p{i}"), json!({}))).collect();
        let hostile = Tool::from_value(
            json!({"name": "x", "inputSchema": {"properties": wide}}),
            "t",
        )
        .unwrap();
        assert!(Inputs::of(&hostile).names.len() <= MAX_NODES);
    }

    /// A facet word after the object (`details`, `info`) names no object of its own: a twin
    /// planted in a real 65-tool catalog (`get_commit_details` beside `get_commit`) is a
    /// look-alike, while another object (`get_commit_diff`) is still a different job.
    #[test]
    fn a_facet_word_is_not_another_object() {
        let t = |name: &str, desc: &str| {
            Tool::from_value(
                json!({"name": name, "description": desc, "inputSchema": {"type": "object",
                    "properties": {"project_id": {"type": "string"}, "sha": {"type": "string"}},
                    "required": ["project_id", "sha"]}}),
                "t",
            )
            .unwrap()
        };
        let tools = [
            t(
                "get_commit",
                "Get details of a specific commit of a project.",
            ),
            t(
                "get_commit_details",
                "Details of one commit of a project: message, author, dates.",
            ),
            t(
                "get_commit_diff",
                "Get the changes (diff) of a specific commit of a project.",
            ),
        ];
        let refs: Vec<&Tool> = tools.iter().collect();
        let content: Vec<Vec<String>> = tools
            .iter()
            .map(|t| text::content_words(t.description().unwrap_or("")))
            .collect();
        let content: Vec<&[String]> = content.iter().map(Vec::as_slice).collect();
        let pairs: Vec<(usize, usize)> = lookalike_pairs(&refs, &content, 0.5, true)
            .iter()
            .map(|p| (p.a.min(p.b), p.a.max(p.b)))
            .collect();
        assert!(pairs.contains(&(0, 1)), "{pairs:?}");
        assert!(
            !pairs.contains(&(0, 2)) && !pairs.contains(&(1, 2)),
            "{pairs:?}"
        );
    }
}
