//! Label leakage: does a request name a tool? [`leaks`] answers for one tool; [`LeakIndex`]
//! answers for a whole catalog at once (one multi-pattern search of each request instead of
//! every tool tried on every request, which made `validate` tasks × tools).

use aho_corasick::AhoCorasick;

use crate::text;

/// Whether `request` names `tool`: its identifier form (`search_free_slots`, `searchFreeSlots`)
/// anywhere is leakage; a single plain English word that happens to be a tool's name
/// (`echo`, `search`) only when quoted as code.
pub(crate) fn leaks(request: &str, tool: &str) -> bool {
    let parts = text::name_words(tool);
    if parts.len() <= 1 {
        let lower = request.to_lowercase();
        let t = tool.to_lowercase();
        return ["`", "'", "\""]
            .iter()
            .any(|q| lower.contains(&format!("{q}{t}{q}")));
    }
    // The identifier in any of its spellings: snake_case, camelCase/PascalCase, kebab-case,
    // dotted. The spaced form ("search free slots") is English, not leakage.
    let lower = request.to_lowercase();
    let parts: Vec<String> = parts.iter().map(|p| p.to_lowercase()).collect();
    ["_", "", "-", "."].iter().any(|sep| {
        let form = parts.join(sep);
        lower.match_indices(&form).any(|(i, _)| {
            let before = lower[..i].chars().next_back();
            let after = lower[i + form.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    }) || request.contains(tool)
}

/// Every string [`leaks`] looks for in a request, as (in the lowercased request, in the request
/// as written): a request that leaks `tool` contains one of them.
fn needles(tool: &str) -> (Vec<String>, String) {
    let parts = text::name_words(tool);
    let lower = if parts.len() <= 1 {
        vec![tool.to_lowercase()]
    } else {
        let parts: Vec<String> = parts.iter().map(|p| p.to_lowercase()).collect();
        ["_", "", "-", "."]
            .iter()
            .map(|sep| parts.join(sep))
            .collect()
    };
    (lower, tool.to_string())
}

/// The tool names of a catalog, searched for all at once.
pub(crate) struct LeakIndex<'a> {
    tools: Vec<&'a str>,
    /// Patterns searched in the lowercased request, and the tool each belongs to.
    lower: Option<(AhoCorasick, Vec<usize>)>,
    /// The names as written, searched in the request as written.
    raw: Option<AhoCorasick>,
    /// Tools checked on every request (an empty pattern, or an index that could not be built).
    always: Vec<usize>,
}

impl<'a> LeakIndex<'a> {
    pub(crate) fn new(names: impl IntoIterator<Item = &'a str>) -> Self {
        let tools: Vec<&str> = names.into_iter().collect();
        let mut always = Vec::new();
        let mut lower = Vec::new();
        let mut owner = Vec::new();
        let mut raw = Vec::new();
        for (i, t) in tools.iter().enumerate() {
            let (l, r) = needles(t);
            if r.is_empty() || l.iter().any(String::is_empty) {
                always.push(i);
                raw.push(String::new());
                continue;
            }
            owner.extend(l.iter().map(|_| i));
            lower.extend(l);
            raw.push(r);
        }
        let lower = AhoCorasick::new(&lower).ok().map(|a| (a, owner));
        let raw = AhoCorasick::new(&raw).ok();
        if lower.is_none() || raw.is_none() {
            always = (0..tools.len()).collect();
        }
        LeakIndex {
            tools,
            lower,
            raw,
            always,
        }
    }

    /// The tools (indices, in catalog order) that `request` names, as [`leaks`] decides.
    pub(crate) fn leaked(&self, request: &str) -> Vec<usize> {
        let mut candidates = self.always.clone();
        if let Some((ac, owner)) = &self.lower {
            let lower = request.to_lowercase();
            candidates.extend(
                ac.find_overlapping_iter(&lower)
                    .map(|m| owner[m.pattern().as_usize()]),
            );
        }
        if let Some(ac) = &self.raw {
            candidates.extend(
                ac.find_overlapping_iter(request)
                    .map(|m| m.pattern().as_usize()),
            );
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates.retain(|&i| leaks(request, self.tools[i]));
        candidates
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index finds exactly what trying every tool finds, on names and requests chosen to
    /// hit each of `leaks`' branches (and some awkward Unicode).
    #[test]
    fn the_index_agrees_with_trying_every_tool() {
        let tools = [
            "book_room",
            "bookRoom",
            "echo",
            "search_free_slots",
            "get_x",
            "a",
            "",
            "__",
            "ΣΊΣΥΦΟΣ_run",
            "İstanbul_map",
            "v2.list-items",
        ];
        let requests = [
            "please run book_room for Vega",
            "call bookRoom",
            "book a room called Vega",
            "echo this back to me",
            "use `echo` please",
            "call searchFreeSlots now",
            "try search-free-slots",
            "search free slots on Friday",
            "forget_xyz",
            "'a' is a letter",
            "σίσυφος_run it",
            "i̇stanbul_map please",
            "V2.LIST.ITEMS",
            "",
            "__init__",
        ];
        let index = LeakIndex::new(tools);
        for r in requests {
            let want: Vec<usize> = (0..tools.len()).filter(|&i| leaks(r, tools[i])).collect();
            assert_eq!(index.leaked(r), want, "{r:?}");
        }
        assert!(!index.leaked("please run book_room for Vega").is_empty());
    }
}
