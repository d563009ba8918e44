//! Finds the line of a JSON pointer in a JSON text, so findings can point at the exact line
//! of a snapshot or lock file (SARIF regions, workflow annotations).
//!
//! Nothing is parsed into values and no pointer table is built: a [`Node`] is a byte offset
//! with its line, and [`line_of`] walks from one down the pointer's segments, skipping the
//! siblings it passes over. A lookup costs the size of the subtree it walks (one tool, for a
//! finding), so a 20,000-tool snapshot is scanned once for its tools and never held twice.

/// A value's position in the text: the byte offset where it starts, and its 1-based line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Node {
    pub offset: usize,
    pub line: usize,
}

/// The root value of `text`.
pub(crate) fn root(text: &str) -> Node {
    let b = text.as_bytes();
    let offset = ws(b, 0);
    Node {
        offset,
        line: 1 + newlines(&b[..offset]),
    }
}

/// The line of `pointer` (RFC 6901) below `from`, or of its deepest ancestor that exists. An
/// object member's line is its key's; a key given twice means its last value, as parsers do.
pub(crate) fn line_of(text: &str, from: Node, pointer: &str) -> usize {
    let (mut node, mut line) = (from, from.line);
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        match member(text, node, &segment) {
            Some((key, value)) => (node, line) = (value, key.line),
            None => break,
        }
    }
    line
}

/// The value of member `key` of the object at `node` (the last one of that key), or of
/// element `key` (a decimal index) of the array at `node`.
pub(crate) fn child(text: &str, node: Node, key: &str) -> Option<Node> {
    member(text, node, key).map(|(_, v)| v)
}

/// Where member `key` (or element `key`) starts, and where its value starts.
pub(crate) fn member(text: &str, node: Node, key: &str) -> Option<(Node, Node)> {
    let b = text.as_bytes();
    let mut found = None;
    match b.get(node.offset)? {
        b'{' => each_member(b, node, |k, key_at, value_at| {
            if k.eq_str(key) {
                found = Some((key_at, value_at));
            }
            true
        }),
        b'[' => {
            let want: usize = key.parse().ok()?;
            let mut n = 0;
            each_element(b, node, |at| {
                if n == want {
                    found = Some((at, at));
                    return false;
                }
                n += 1;
                true
            });
        }
        _ => {}
    }
    found
}

/// Calls `f` with each element of the array at `node`, until it returns false.
pub(crate) fn elements(text: &str, node: Node, f: impl FnMut(Node) -> bool) {
    let b = text.as_bytes();
    if b.get(node.offset) == Some(&b'[') {
        each_element(b, node, f);
    }
}

/// The string at `node`, unescaped, when it is one.
pub(crate) fn string_at(text: &str, node: Node) -> Option<String> {
    let b = text.as_bytes();
    if b.get(node.offset) != Some(&b'"') {
        return None;
    }
    let end = skip_string(b, node.offset);
    serde_json::from_str(text.get(node.offset..end)?).ok()
}

pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A key as written between its quotes.
struct RawKey<'a>(&'a [u8]);

impl RawKey<'_> {
    fn eq_str(&self, key: &str) -> bool {
        if !self.0.contains(&b'\\') {
            return self.0 == key.as_bytes();
        }
        let quoted = format!("\"{}\"", String::from_utf8_lossy(self.0));
        serde_json::from_str::<String>(&quoted).is_ok_and(|k| k == key)
    }
}

fn newlines(b: &[u8]) -> usize {
    b.iter().filter(|c| **c == b'\n').count()
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    i
}

/// The index just past the string starting (with its quote) at `i`.
fn skip_string(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while let Some(c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The index just past the value starting at `i`.
fn skip_value(b: &[u8], mut i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => skip_string(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            while let Some(c) = b.get(i) {
                match c {
                    b'"' => {
                        i = skip_string(b, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            b.len()
        }
        _ => {
            while let Some(c) = b.get(i) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    break;
                }
                i += 1;
            }
            i
        }
    }
}

/// Moves `at` forward to offset `to`, counting the lines passed.
fn advance(b: &[u8], at: Node, to: usize) -> Node {
    let to = to.min(b.len()).max(at.offset);
    Node {
        offset: to,
        line: at.line + newlines(&b[at.offset..to]),
    }
}

fn each_member(b: &[u8], node: Node, mut f: impl FnMut(RawKey, Node, Node) -> bool) {
    let mut at = advance(b, node, node.offset + 1);
    loop {
        at = advance(b, at, ws(b, at.offset));
        if b.get(at.offset) != Some(&b'"') {
            return;
        }
        let key_at = at;
        let key_end = skip_string(b, at.offset);
        let raw =
            RawKey(&b[(at.offset + 1).min(key_end)..key_end.saturating_sub(1).max(at.offset + 1)]);
        let mut i = ws(b, key_end);
        if b.get(i) == Some(&b':') {
            i += 1;
        }
        let value_at = advance(b, at, ws(b, i));
        if !f(raw, key_at, value_at) {
            return;
        }
        let end = skip_value(b, value_at.offset);
        at = advance(b, value_at, ws(b, end));
        if b.get(at.offset) != Some(&b',') {
            return;
        }
        at = advance(b, at, at.offset + 1);
    }
}

fn each_element(b: &[u8], node: Node, mut f: impl FnMut(Node) -> bool) {
    let mut at = advance(b, node, node.offset + 1);
    loop {
        at = advance(b, at, ws(b, at.offset));
        if matches!(b.get(at.offset), None | Some(b']')) {
            return;
        }
        if !f(at) {
            return;
        }
        let end = skip_value(b, at.offset);
        at = advance(b, at, ws(b, end));
        if b.get(at.offset) != Some(&b',') {
            return;
        }
        at = advance(b, at, at.offset + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_lines_of_nested_pointers() {
        let text = "{\n  \"tools\": [\n    {\n      \"name\": \"a/b\",\n      \"inputSchema\": {\n        \"properties\": {\"x\": {}}\n      }\n    }\n  ]\n}\n";
        let r = root(text);
        assert_eq!(line_of(text, r, "/tools/0"), 3);
        assert_eq!(line_of(text, r, "/tools/0/name"), 4);
        assert_eq!(line_of(text, r, "/tools/0/inputSchema/properties/x"), 6);
        assert_eq!(
            line_of(text, r, "/tools/0/inputSchema/properties/x/type"),
            6
        );
        assert_eq!(line_of(text, r, "/tools/0/missing/deep"), 3);
        let tool = child(text, child(text, r, "tools").unwrap(), "0").unwrap();
        assert_eq!(line_of(text, tool, "/inputSchema"), 5);
        let (_, name) = member(text, tool, "name").unwrap();
        assert_eq!(string_at(text, name).as_deref(), Some("a/b"));
    }

    #[test]
    fn escaped_keys_and_strings_with_brackets() {
        let text = "{\"a/b\": \"]}\\\"\",\n\"c\": 1, \"d\\u0065\": [\n0,\n{\"k\": \"\\n\"}]}";
        let r = root(text);
        assert_eq!(line_of(text, r, "/a~1b"), 1);
        assert_eq!(line_of(text, r, "/c"), 2);
        assert_eq!(line_of(text, r, "/de/1/k"), 4);
        assert_eq!(line_of(text, r, "/de/7"), 2);
    }

    #[test]
    fn truncated_or_odd_text_never_panics() {
        for text in [
            "",
            "{",
            "{\"a\"",
            "{\"a\":",
            "[1,",
            "\"x",
            "{\"a\": [}",
            "}}]]",
        ] {
            let r = root(text);
            let _ = line_of(text, r, "/a/0/b");
            elements(text, r, |_| true);
        }
    }
}
