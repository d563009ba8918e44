//! How a model spec reads (`bm25:3`, `embed@0.4:/m`, `toolsearch-codex:8`, `openai:gpt-4o`):
//! the one list of the offline routers and the one split of a spec into its head, `@` floor and
//! rest. The parsed `ModelSpec` of a command and every reader of a run file's spec string (the
//! metric's name, the badge, the comment's headline, the findability table) read it here.

/// An offline router: it ranks tools by text similarity to a request and "calls" its first
/// result, so its score is findability, never tool accuracy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Router {
    /// `bm25[:<min_score>]`.
    Bm25,
    /// `embed[@<min_cosine>]:<dir>`.
    Embed,
    /// `hybrid[@<min_cosine>]:<dir>`: BM25 and embeddings fused.
    Hybrid,
    /// `toolsearch[:k]`: Anthropic's tool search (BM25 over names, descriptions and arguments).
    ToolSearch,
    /// `toolsearch-names[:k]`: names and server instructions only.
    ToolSearchNames,
    /// `toolsearch-codex[:k]`: Codex's `search_tool_bm25`.
    ToolSearchCodex,
    /// `toolsearch-card[:k]`: the server card, then the server's tools.
    ToolSearchCard,
}

impl Router {
    pub(crate) const ALL: [Router; 7] = [
        Router::Bm25,
        Router::Embed,
        Router::Hybrid,
        Router::ToolSearch,
        Router::ToolSearchNames,
        Router::ToolSearchCodex,
        Router::ToolSearchCard,
    ];

    /// The head that names it in a spec.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Router::Bm25 => "bm25",
            Router::Embed => "embed",
            Router::Hybrid => "hybrid",
            Router::ToolSearch => "toolsearch",
            Router::ToolSearchNames => "toolsearch-names",
            Router::ToolSearchCodex => "toolsearch-codex",
            Router::ToolSearchCard => "toolsearch-card",
        }
    }

    /// The router a head names (without its `@` floor).
    pub(crate) fn from_name(name: &str) -> Option<Router> {
        Router::ALL.into_iter().find(|r| r.name() == name)
    }

    /// True for the emulated host tool searches (`toolsearch…`).
    pub(crate) fn is_tool_search(self) -> bool {
        matches!(
            self,
            Router::ToolSearch
                | Router::ToolSearchNames
                | Router::ToolSearchCodex
                | Router::ToolSearchCard
        )
    }

    /// True when the head may carry an `@` floor (`embed@0.4`).
    pub(crate) fn takes_floor(self) -> bool {
        matches!(self, Router::Embed | Router::Hybrid)
    }

    /// How many results a tool search shows by default (5; Codex's 8); `None` for the
    /// routers that are not a host's search.
    pub(crate) fn default_k(self) -> Option<usize> {
        match self {
            Router::ToolSearchCodex => Some(8),
            r if r.is_tool_search() => Some(5),
            _ => None,
        }
    }
}

/// What a spec's head names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Head<'a> {
    Router(Router),
    /// `replay:<file>`: an agent's recorded decisions.
    Replay,
    /// Anything else: a provider's name (`openai`, `local`, …), checked where specs are parsed.
    Other(&'a str),
}

/// A spec split once: the head before the first `:` without its `@` floor, the floor, and the
/// rest after the `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parts<'a> {
    pub head: Head<'a>,
    /// The head as written before any `@` (`embed` of `embed@0.4`).
    pub name: &'a str,
    /// The text after `@` in the head (`0.4`).
    pub floor: Option<&'a str>,
    /// The text after the first `:`.
    pub rest: &'a str,
}

impl Parts<'_> {
    /// The router the spec names, if any.
    pub(crate) fn router(&self) -> Option<Router> {
        match self.head {
            Head::Router(r) => Some(r),
            _ => None,
        }
    }
}

/// Splits `spec` (trimmed). Lenient: it reads what run files recorded; `ModelSpec`'s parser
/// decides what is valid.
pub(crate) fn parse(spec: &str) -> Parts<'_> {
    let spec = spec.trim();
    let (full, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let (name, floor) = match full.split_once('@') {
        Some((n, f)) => (n, Some(f)),
        None => (full, None),
    };
    let head = match Router::from_name(name) {
        Some(r) => Head::Router(r),
        None if name == "replay" => Head::Replay,
        None => Head::Other(name),
    };
    Parts {
        head,
        name,
        floor,
        rest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_splits_into_head_floor_and_rest() {
        let p = parse(" embed@0.4:/m/x:y ");
        assert_eq!(p.head, Head::Router(Router::Embed));
        assert_eq!((p.name, p.floor, p.rest), ("embed", Some("0.4"), "/m/x:y"));
        let p = parse("openai:gpt-4o");
        assert_eq!(p.head, Head::Other("openai"));
        assert_eq!((p.floor, p.rest), (None, "gpt-4o"));
        assert_eq!(parse("replay:a.jsonl").head, Head::Replay);
        assert_eq!(parse("bm25").router(), Some(Router::Bm25));
        assert_eq!(parse("").head, Head::Other(""));
    }

    #[test]
    fn every_router_reads_back_from_its_name() {
        for r in Router::ALL {
            assert_eq!(Router::from_name(r.name()), Some(r));
            assert_eq!(parse(&format!("{}:3", r.name())).router(), Some(r));
        }
        assert_eq!(Router::ToolSearchCodex.default_k(), Some(8));
        assert_eq!(Router::ToolSearchCard.default_k(), Some(5));
        assert_eq!(Router::Bm25.default_k(), None);
    }
}
