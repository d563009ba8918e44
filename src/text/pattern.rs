//! The lint rules' compiled patterns: the `regex` crate's engine and semantics (regex-automata's
//! meta regex, leftmost-first, Unicode, UTF-8 matches, the same size limits) without its
//! literal prefilter. The rules search short texts (a description, a parameter's words), where a
//! prefilter saves nothing measurable, yet extracting and compiling its literals was about half of
//! every pattern's compile time, and compiling the rules' patterns is most of what a small
//! server's `inspect` or `lint` costs. Matches are exactly `regex::Regex`'s: a prefilter only
//! skips ahead, it never changes a match (a unit test compares the two on the lint corpora's
//! texts).
//!
//! The API is the subset of `regex::Regex` the rules use, under the same names.

use std::borrow::Cow;
use std::ops::Range;

use regex_automata::meta;
use regex_automata::util::captures::Captures as MetaCaptures;
use regex_automata::util::syntax;

/// A compiled pattern (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Regex(meta::Regex);

/// Why a pattern did not compile (boxed: the error is large and the rules' patterns are
/// constants that compile).
pub(crate) type Error = Box<meta::BuildError>;

impl Regex {
    /// Compiles `pattern` with `regex::Regex::new`'s settings, less the prefilter.
    pub(crate) fn new(pattern: &str) -> Result<Self, Error> {
        let config = meta::Config::new()
            .nfa_size_limit(Some(10 * (1 << 20)))
            .hybrid_cache_capacity(2 * (1 << 20))
            .match_kind(regex_automata::MatchKind::LeftmostFirst)
            .utf8_empty(true)
            .auto_prefilter(false);
        meta::Builder::new()
            .configure(config)
            .syntax(syntax::Config::new().utf8(true))
            .build(pattern)
            .map(Regex)
            .map_err(Box::new)
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        self.0.is_match(haystack)
    }

    /// The leftmost-first match.
    pub(crate) fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        self.0
            .find(haystack)
            .map(|m| Match::new(haystack, m.range()))
    }

    /// Every successive non-overlapping match.
    pub(crate) fn find_iter<'r, 'h>(
        &'r self,
        haystack: &'h str,
    ) -> impl Iterator<Item = Match<'h>> + 'r
    where
        'h: 'r,
    {
        self.0
            .find_iter(haystack)
            .map(move |m| Match::new(haystack, m.range()))
    }

    /// The groups of the leftmost-first match.
    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
        let mut caps = self.0.create_captures();
        self.0.captures(haystack, &mut caps);
        caps.is_match().then_some(Captures { haystack, caps })
    }

    /// The groups of every successive non-overlapping match.
    pub(crate) fn captures_iter<'r, 'h>(
        &'r self,
        haystack: &'h str,
    ) -> impl Iterator<Item = Captures<'h>> + 'r
    where
        'h: 'r,
    {
        self.0
            .captures_iter(haystack)
            .map(move |caps| Captures { haystack, caps })
    }

    /// `haystack` with every match replaced by what `replace` makes of its groups.
    pub(crate) fn replace_all<'h>(
        &self,
        haystack: &'h str,
        mut replace: impl FnMut(&Captures<'h>) -> String,
    ) -> Cow<'h, str> {
        let mut out = String::new();
        let mut last = 0;
        let mut matched = false;
        for caps in self.captures_iter(haystack) {
            let Some(whole) = caps.get(0) else { continue };
            matched = true;
            out.push_str(&haystack[last..whole.start()]);
            out.push_str(&replace(&caps));
            last = whole.end();
        }
        if !matched {
            return Cow::Borrowed(haystack);
        }
        out.push_str(&haystack[last..]);
        Cow::Owned(out)
    }

    /// The pieces of `haystack` between matches (the last piece even when empty).
    pub(crate) fn split<'r, 'h>(&'r self, haystack: &'h str) -> impl Iterator<Item = &'h str> + 'r
    where
        'h: 'r,
    {
        self.0.split(haystack).map(move |span| &haystack[span])
    }
}

/// One match: where it is and what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match<'h> {
    haystack: &'h str,
    start: usize,
    end: usize,
}

impl<'h> Match<'h> {
    fn new(haystack: &'h str, range: Range<usize>) -> Self {
        Match {
            haystack,
            start: range.start,
            end: range.end,
        }
    }

    /// Byte offset of the match's start.
    pub(crate) fn start(&self) -> usize {
        self.start
    }

    /// Byte offset just past the match.
    pub(crate) fn end(&self) -> usize {
        self.end
    }

    /// The byte range.
    #[cfg(test)]
    pub(crate) fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The matched text.
    pub(crate) fn as_str(&self) -> &'h str {
        &self.haystack[self.start..self.end]
    }
}

/// The groups of one match.
#[derive(Clone, Debug)]
pub(crate) struct Captures<'h> {
    haystack: &'h str,
    caps: MetaCaptures,
}

impl<'h> Captures<'h> {
    /// Group `i` (0 is the whole match), when it took part in the match.
    pub(crate) fn get(&self, i: usize) -> Option<Match<'h>> {
        self.caps
            .get_group(i)
            .map(|span| Match::new(self.haystack, span.range()))
    }

    /// The group named `name`, when it took part in the match.
    pub(crate) fn name(&self, name: &str) -> Option<Match<'h>> {
        self.caps
            .get_group_by_name(name)
            .map(|span| Match::new(self.haystack, span.range()))
    }
}

impl std::ops::Index<usize> for Captures<'_> {
    type Output = str;

    /// The text of group `i`; empty when the group did not take part (`regex` panics there;
    /// the rules index only group 0, which always does).
    fn index(&self, i: usize) -> &str {
        self.get(i).map_or("", |m| m.as_str())
    }
}

#[cfg(test)]
mod tests;
