//! Maps JSON pointers to line numbers in a JSON text, so findings can point at the exact line
//! of a snapshot or lock file (SARIF regions, workflow annotations).

use std::collections::HashMap;

/// Pointer (RFC 6901) → 1-based line where that value (or its object key) starts.
pub fn pointer_lines(text: &str) -> HashMap<String, usize> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
        line: 1,
        out: HashMap::new(),
    };
    s.ws();
    s.value(String::new(), 0);
    s.out
}

/// The line of `pointer`, or of its nearest ancestor that has one.
pub fn line_of(lines: &HashMap<String, usize>, pointer: &str) -> Option<usize> {
    let mut p = pointer.to_string();
    loop {
        if let Some(l) = lines.get(&p) {
            return Some(*l);
        }
        let cut = p.rfind('/')?;
        p.truncate(cut);
    }
}

pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    out: HashMap<String, usize>,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while let Some(c) = self.b.get(self.i) {
            match c {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.i += 1;
        }
    }

    fn string(&mut self) -> String {
        let start = self.i + 1;
        self.i += 1;
        while let Some(c) = self.b.get(self.i) {
            match c {
                b'\\' => self.i += 2,
                b'"' => break,
                b'\n' => {
                    self.line += 1;
                    self.i += 1
                }
                _ => self.i += 1,
            }
        }
        let raw = &self.b[start.min(self.b.len())..self.i.min(self.b.len())];
        self.i += 1;
        let quoted = format!("\"{}\"", String::from_utf8_lossy(raw));
        serde_json::from_str(&quoted).unwrap_or_else(|_| String::from_utf8_lossy(raw).into_owned())
    }

    fn value(&mut self, ptr: String, depth: usize) {
        self.out.entry(ptr.clone()).or_insert(self.line);
        if depth > 256 {
            self.i = self.b.len();
            return;
        }
        match self.b.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                loop {
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b'"') => {
                            let key_line = self.line;
                            let key = self.string();
                            let child = format!("{ptr}/{}", escape(&key));
                            self.out.insert(child.clone(), key_line);
                            self.ws();
                            if self.b.get(self.i) == Some(&b':') {
                                self.i += 1;
                            }
                            self.ws();
                            self.value(child, depth + 1);
                            self.ws();
                            if self.b.get(self.i) == Some(&b',') {
                                self.i += 1;
                            }
                        }
                        Some(b'}') => {
                            self.i += 1;
                            return;
                        }
                        _ => {
                            self.i = self.b.len();
                            return;
                        }
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut n = 0;
                loop {
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b']') => {
                            self.i += 1;
                            return;
                        }
                        Some(_) => {
                            self.value(format!("{ptr}/{n}"), depth + 1);
                            n += 1;
                            self.ws();
                            if self.b.get(self.i) == Some(&b',') {
                                self.i += 1;
                            }
                        }
                        None => return,
                    }
                }
            }
            Some(b'"') => {
                self.string();
            }
            Some(_) => {
                while let Some(c) = self.b.get(self.i) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                        break;
                    }
                    self.i += 1;
                }
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_lines_of_nested_pointers() {
        let text = "{\n  \"tools\": [\n    {\n      \"name\": \"a/b\",\n      \"inputSchema\": {\n        \"properties\": {\"x\": {}}\n      }\n    }\n  ]\n}\n";
        let lines = pointer_lines(text);
        assert_eq!(lines["/tools/0"], 3);
        assert_eq!(lines["/tools/0/name"], 4);
        assert_eq!(lines["/tools/0/inputSchema/properties/x"], 6);
        assert_eq!(
            line_of(&lines, "/tools/0/inputSchema/properties/x/type"),
            Some(6)
        );
        assert_eq!(line_of(&lines, "/tools/0/missing/deep"), Some(3));
    }

    #[test]
    fn escaped_keys_and_strings_with_brackets() {
        let text = "{\"a/b\": \"]}\\\"\",\n\"c\": 1}";
        let lines = pointer_lines(text);
        assert_eq!(lines["/a~1b"], 1);
        assert_eq!(lines["/c"], 2);
    }
}
