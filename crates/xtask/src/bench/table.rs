//! A small table rendered two ways: aligned plain text for the terminal and Markdown for the report.

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    title: String,
    header: Vec<String>,
    right_aligned: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(title: &str, header: &[&str], right_aligned: &[bool]) -> Table {
        Table {
            title: title.into(),
            header: header.iter().map(|h| h.to_string()).collect(),
            right_aligned: right_aligned.to_vec(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: &[&str]) {
        self.rows.push(cells.iter().map(|c| c.to_string()).collect());
    }

    fn widths(&self) -> Vec<usize> {
        (0..self.header.len())
            .map(|c| {
                std::iter::once(&self.header)
                    .chain(&self.rows)
                    .filter_map(|row| row.get(c))
                    .map(|cell| cell.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    fn padded(&self, row: &[String], widths: &[usize]) -> Vec<String> {
        widths
            .iter()
            .enumerate()
            .map(|(c, &width)| {
                let cell = row.get(c).map_or("", String::as_str);
                let pad = " ".repeat(width - cell.chars().count());
                if self.right_aligned.get(c).copied().unwrap_or(false) {
                    pad + cell
                } else {
                    cell.to_string() + &pad
                }
            })
            .collect()
    }

    /// The title, then columns separated by two spaces, numbers right-aligned.
    pub fn to_text(&self) -> String {
        let widths = self.widths();
        let mut text = format!("{}\n", self.title);
        for row in std::iter::once(&self.header).chain(&self.rows) {
            text.push_str("  ");
            text.push_str(self.padded(row, &widths).join("  ").trim_end());
            text.push('\n');
        }
        text
    }

    /// A `###` heading and a Markdown table with the same alignment.
    pub fn to_markdown(&self) -> String {
        let widths: Vec<usize> = self.widths().into_iter().map(|w| w.max(3)).collect();
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let rule = widths
            .iter()
            .enumerate()
            .map(|(c, &w)| {
                if self.right_aligned.get(c).copied().unwrap_or(false) {
                    "-".repeat(w - 1) + ":"
                } else {
                    "-".repeat(w)
                }
            })
            .collect();
        let mut text = format!("### {}\n\n", self.title);
        text.push_str(&line(self.padded(&self.header, &widths)));
        text.push_str(&line(rule));
        for row in &self.rows {
            let escaped: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
            text.push_str(&line(self.padded(&escaped, &widths)));
        }
        text
    }
}
