//! One table layout for every format (as hyperfine's `export/markup.rs` does): the rows are
//! data, each format supplies how a row and the divider look. Markdown cells are escaped by
//! the caller (they may hold code spans); terminal cells are padded to the widest.

/// How a column is aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// Where a table is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Terminal,
    Markdown,
}

pub(crate) struct Table {
    pub headers: Vec<String>,
    pub align: Vec<Align>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(headers: &[&str], align: &[Align]) -> Self {
        Table {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            align: align.to_vec(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub(crate) fn render(&self, style: Style) -> String {
        match style {
            Style::Markdown => self.markdown(),
            Style::Terminal => self.terminal(),
        }
    }

    fn markdown(&self) -> String {
        let mut out = format!("| {} |\n|", self.headers.join(" | "));
        for a in &self.align {
            out.push_str(match a {
                Align::Left => "---|",
                Align::Right => "---:|",
            });
        }
        out.push('\n');
        for r in &self.rows {
            out.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        out
    }

    fn terminal(&self) -> String {
        let width = |i: usize| {
            std::iter::once(&self.headers[i])
                .chain(self.rows.iter().filter_map(|r| r.get(i)))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.headers.len()).map(width).collect();
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                let w = widths.get(i).copied().unwrap_or(0);
                let pad = w.saturating_sub(c.chars().count());
                let last = i + 1 == cells.len();
                match self.align.get(i) {
                    Some(Align::Right) => s.push_str(&format!("{}{c}", " ".repeat(pad))),
                    _ if last => s.push_str(c),
                    _ => s.push_str(&format!("{c}{}", " ".repeat(pad))),
                }
                if !last {
                    s.push_str("  ");
                }
            }
            s.trim_end().to_string() + "\n"
        };
        let mut out = line(&self.headers);
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_layout_two_formats() {
        let mut t = Table::new(&["tool", "n"], &[Align::Left, Align::Right]);
        t.row(vec!["a".into(), "10".into()]);
        t.row(vec!["bbb".into(), "2".into()]);
        assert_eq!(
            t.render(Style::Markdown),
            "| tool | n |\n|---|---:|\n| a | 10 |\n| bbb | 2 |\n"
        );
        assert_eq!(t.render(Style::Terminal), "tool   n\na     10\nbbb    2\n");
    }
}
