//! The published figures quoted in the chapters come from `experiments::published`, the source the
//! app's published tables and chart symbols are drawn from, so prose and tables cannot drift apart.
//!
//! In every chapter section titled "What the article(s) measured" that quotes one of those tables:
//! - each row of its Markdown table is checked, cell by cell, against the published row in the same
//!   place, formatted the way the prose formats it;
//! - each figure in its text with a unit (`ns`, `ms`, `QPS`, `%`, `N+ MB`, a decimal `x` or
//!   `times`) must be a published value or a figure computed here from published values (a
//!   one-core loss, a percentage, a speedup, a Little's-law latency); any other fails the test.

use experiments::published::{
    PublishedComparison, PublishedServers, FIND_1000, FIND_1000_SEQUENTIAL_AGAIN_NS, FIND_READ_SLEEP_MS, QPS,
    QPS_IN_FLIGHT, SUM_10M,
};
use std::collections::BTreeSet;
use std::path::Path;

/// What a chapter's "What the article(s) measured" section quotes.
enum Quoted {
    /// Published runs, how long each read slept if the work slept (ms), and the published
    /// repeats of their sequential runs (ns).
    Comparisons(&'static [PublishedComparison], Option<u32>, &'static [u64]),
    Servers(&'static [PublishedServers]),
}

/// The chapters that quote a published table, by slug.
const QUOTING_CHAPTERS: [(&str, Quoted); 3] = [
    ("sum", Quoted::Comparisons(&SUM_10M, None, &[])),
    ("document-search", Quoted::Comparisons(&FIND_1000, Some(FIND_READ_SLEEP_MS), &FIND_1000_SEQUENTIAL_AGAIN_NS)),
    ("high-concurrency", Quoted::Servers(&QPS)),
];

fn chapter_in(lang: &str, slug: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../content/{lang}/{slug}.md"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The English chapter as the reader sees it: each `{{num X}}` (a figure the page writes in the
/// reader's locale) is X in English spelling.
fn chapter(slug: &str) -> String {
    let text = chapter_in("en", slug);
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("{{num ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 6..];
        let end = after.find("}}").expect("a {{num …}} marker is closed");
        out.push_str(after[..end].trim());
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// The figures marked `{{num X}}` in `text`, as written.
fn marked_figures(text: &str) -> Vec<String> {
    text.split("{{num ").skip(1).filter_map(|part| part.split_once("}}")).map(|(x, _)| x.trim().to_string()).collect()
}

/// Every figure of the English "What the article(s) measured" section is marked `{{num}}` (so the page
/// writes it in the reader's locale), and every other language quotes each of them as often.
#[test]
fn every_language_quotes_the_published_figures_of_english() {
    let languages: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("index.md").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(languages.len() > 1, "content/ has more than English: {languages:?}");
    for (slug, _) in &QUOTING_CHAPTERS {
        let english = chapter_in("en", slug);
        let section = published_section(&english).join("\n");
        let figures = marked_figures(&section);
        assert!(figures.len() >= 8, "{slug}: the published figures are marked {{{{num …}}}}: {figures:?}");
        for lang in &languages {
            let theirs = marked_figures(&chapter_in(lang, slug));
            for figure in &figures {
                let want = figures.iter().filter(|f| *f == figure).count();
                let have = theirs.iter().filter(|f| *f == figure).count();
                assert!(have >= want, "content/{lang}/{slug}.md quotes {figure} {have} times, English {want}");
            }
        }
    }
}

/// The lines of the section headed "What the article measured" or "What the articles measured",
/// up to the next heading of the same or a higher level.
fn published_section(markdown: &str) -> Vec<&str> {
    let mut lines = markdown.lines();
    let level = loop {
        let line = lines.next().expect("a 'What the article(s) measured' section");
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes > 0 && line[hashes..].trim().starts_with("What the article") {
            break hashes;
        }
    };
    lines
        .take_while(|line| {
            let hashes = line.chars().take_while(|c| *c == '#').count();
            hashes == 0 || hashes > level
        })
        .collect()
}

/// 1234567 → "1,234,567", the prose's way of writing whole numbers.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Published ns as the prose writes milliseconds: two decimals below 100 ms, whole above.
fn prose_ms(ns: u64) -> String {
    let ms = ns as f64 / 1e6;
    if ms < 100.0 {
        format!("{ms:.2}")
    } else {
        thousands(ms.round() as u64)
    }
}

/// How much longer the concurrent run took, in percent of the sequential one (when it lost).
fn percent_slower(row: &PublishedComparison) -> String {
    format!("{:.0}", (row.concurrent_ns as f64 / row.sequential_ns as f64 - 1.0) * 100.0)
}

/// How much less time the sequential run took, in percent of the concurrent one (when it won):
/// the articles' own way of stating the one-core result.
fn percent_faster(row: &PublishedComparison) -> String {
    format!("{:.0}", (1.0 - row.sequential_ns as f64 / row.concurrent_ns as f64) * 100.0)
}

fn comparison_verdict(row: &PublishedComparison) -> String {
    if row.speedup() < 1.0 {
        format!("about {}% slower (the article: sequential about {}% faster)", percent_slower(row), percent_faster(row))
    } else {
        format!("about {:.1}× faster", row.speedup())
    }
}

/// Every figure, by unit, that the text of a section may quote.
#[derive(Default)]
struct Allowed {
    by_unit: Vec<(&'static str, BTreeSet<String>)>,
}

impl Allowed {
    fn add(&mut self, unit: &'static str, figure: String) {
        match self.by_unit.iter_mut().find(|(u, _)| *u == unit) {
            Some((_, set)) => {
                set.insert(figure);
            }
            None => self.by_unit.push((unit, BTreeSet::from([figure]))),
        }
    }

    fn contains(&self, unit: &str, figure: &str) -> bool {
        self.by_unit.iter().any(|(u, set)| *u == unit && set.contains(figure))
    }

    fn of(quoted: &Quoted) -> Allowed {
        let mut allowed = Allowed::default();
        match quoted {
            Quoted::Comparisons(rows, read_sleep_ms, repeats) => {
                if let Some(read_sleep_ms) = read_sleep_ms {
                    allowed.add("ms", read_sleep_ms.to_string());
                }
                for &ns in repeats.iter() {
                    allowed.add("ns", thousands(ns));
                    allowed.add("ms", prose_ms(ns));
                }
                for row in rows.iter() {
                    for ns in [row.sequential_ns, row.concurrent_ns] {
                        allowed.add("ns", thousands(ns));
                        allowed.add("ms", prose_ms(ns));
                    }
                    allowed.add("x", format!("{:.1}", row.speedup()));
                    if row.speedup() < 1.0 {
                        allowed.add("%", percent_slower(row));
                        allowed.add("%", percent_faster(row));
                        let loss_ms = (row.concurrent_ns - row.sequential_ns) as f64 / 1e6;
                        allowed.add("ms", format!("{loss_ms:.2}"));
                    }
                }
            }
            Quoted::Servers(rows) => {
                for row in rows.iter() {
                    allowed.add("ms", row.sleep_ms.to_string());
                    for (qps, memory_mb) in [
                        (row.thread_pool_qps, row.thread_pool_memory_mb),
                        (row.coroutines_qps, row.coroutines_memory_mb),
                    ] {
                        allowed.add("QPS", thousands(qps as u64));
                        allowed.add("+ MB", memory_mb.to_string());
                        // Little's law: latency = requests in flight ÷ QPS.
                        if row.sleep_ms > 0 {
                            let latency_ms = QPS_IN_FLIGHT as f64 * 1000.0 / qps as f64;
                            allowed.add("ms", format!("{latency_ms:.0}"));
                        }
                    }
                    allowed.add("x", format!("{:.1}", row.coroutines_qps as f64 / row.thread_pool_qps as f64));
                }
            }
        }
        allowed
    }
}

/// (number, unit) for every figure in `text` followed by a checked unit. `x` and `times` count
/// only after a decimal number (whole multiples such as "ten times" are words, not quotations).
fn figures(text: &str) -> Vec<(String, &'static str)> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number =
            chars[i].is_ascii_digit() && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '.'));
        if !starts_number {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || ((chars[i] == ',' || chars[i] == '.') && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            i += 1;
        }
        let number: String = chars[start..i].iter().collect();
        let rest: String = chars[i..chars.len().min(i + 8)].iter().collect();
        let decimal = number.contains('.');
        let unit = if rest.starts_with(" ns") {
            Some("ns")
        } else if rest.starts_with(" ms") {
            Some("ms")
        } else if rest.starts_with(" QPS") || rest.starts_with(" (QPS") {
            Some("QPS")
        } else if rest.starts_with('%') || rest.starts_with(" %") {
            Some("%")
        } else if rest.starts_with("+ MB") {
            Some("+ MB")
        } else if decimal && (rest.starts_with('x') || rest.starts_with(" times")) {
            Some("x")
        } else {
            None
        };
        if let Some(unit) = unit {
            found.push((number, unit));
        }
    }
    found
}

/// The cells of each data row of the Markdown tables in `lines` (header and rule rows skipped).
fn table_rows(lines: &[&str]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in lines {
        let line = line.trim();
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<String> = line.trim_matches('|').split('|').map(|cell| cell.trim().to_string()).collect();
        if !in_table {
            in_table = true; // the header row
            continue;
        }
        if cells.iter().all(|cell| cell.chars().all(|c| c == '-' || c == ':')) {
            continue;
        }
        rows.push(cells);
    }
    rows
}

/// Problems with the table rows of a section quoting `quoted`.
fn check_tables(rows: &[Vec<String>], quoted: &Quoted) -> Vec<String> {
    let mut problems = Vec::new();
    match quoted {
        Quoted::Comparisons(published, _, _) => {
            if rows.len() != published.len() {
                problems.push(format!("{} table rows, {} published rows", rows.len(), published.len()));
            }
            for (cells, row) in rows.iter().zip(published.iter()) {
                let machine = format!(
                    "{} {} {}",
                    row.machine.processor,
                    row.machine.cores,
                    row.machine.ghz.map(|ghz| ghz.to_string()).unwrap_or_default()
                );
                let machine_numbers_published = cells[0]
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|n| !n.is_empty())
                    .all(|n| machine.split(|c: char| !c.is_ascii_digit()).any(|m| m == n));
                if !machine_numbers_published {
                    problems.push(format!("machine {:?} is not {:?}", cells[0], row.machine));
                }
                let gomaxprocs = if row.cpu_flag {
                    row.gomaxprocs.to_string()
                } else {
                    format!("none (default {})", row.gomaxprocs)
                };
                let expected =
                    [gomaxprocs, prose_ms(row.sequential_ns), prose_ms(row.concurrent_ns), comparison_verdict(row)];
                if cells[1..] != expected {
                    problems.push(format!("row {:?} should read {:?}", &cells[1..], expected));
                }
            }
        }
        Quoted::Servers(published) => {
            // One row per server: for each published case, its QPS and its memory.
            let servers = [
                (
                    published[0].thread_pool,
                    published.iter().map(|case| (case.thread_pool_qps, case.thread_pool_memory_mb)).collect::<Vec<_>>(),
                ),
                (
                    published[0].coroutines,
                    published.iter().map(|case| (case.coroutines_qps, case.coroutines_memory_mb)).collect::<Vec<_>>(),
                ),
            ];
            if rows.len() != servers.len() {
                problems.push(format!("{} table rows, {} published servers", rows.len(), servers.len()));
            }
            for (cells, (server, cases)) in rows.iter().zip(servers) {
                let expected = [
                    server.to_string(),
                    thousands(cases[0].0 as u64),
                    format!("{}+ MB", cases[0].1),
                    thousands(cases[1].0 as u64),
                    format!("{}+ MB", cases[1].1),
                ];
                if cells[..] != expected {
                    problems.push(format!("row {:?} should read {:?}", cells, expected));
                }
            }
        }
    }
    problems
}

#[test]
fn chapters_quote_the_published_figures_exactly() {
    let mut problems = Vec::new();
    for (slug, quoted) in &QUOTING_CHAPTERS {
        let markdown = chapter(slug);
        let section = published_section(&markdown);
        let rows = table_rows(&section);
        assert!(!rows.is_empty(), "{slug}: its published section has no table");
        problems.extend(check_tables(&rows, quoted).into_iter().map(|p| format!("{slug}: {p}")));
        let allowed = Allowed::of(quoted);
        for line in section.iter().filter(|line| !line.trim_start().starts_with('|')) {
            for (number, unit) in figures(line) {
                if !allowed.contains(unit, &number) {
                    problems
                        .push(format!("{slug}: \"{number} {unit}\" is not a published figure or computed from one"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checks_can_fail() {
    // A changed digit in a table and in the text is caught.
    let rows = table_rows(&[
        "| machine | `-cpu` | sequential (ms) | concurrent (ms) | concurrent vs sequential |",
        "|---|---|---|---|---|",
        "| Intel i7, 4 cores | 1 | 5.73 | 6.39 | about 12% slower (the article: sequential about 10% faster) |",
    ]);
    assert!(!check_tables(&rows, &Quoted::Comparisons(&SUM_10M[..1], None, &[])).is_empty());
    let allowed = Allowed::of(&Quoted::Comparisons(&SUM_10M, None, &[]));
    assert_eq!(
        figures("5,720,764 ns is 5.72 ms; 3.1x and 6.2 times; 12%"),
        [
            ("5,720,764".to_string(), "ns"),
            ("5.72".to_string(), "ms"),
            ("3.1".to_string(), "x"),
            ("6.2".to_string(), "x"),
            ("12".to_string(), "%"),
        ]
    );
    assert!(allowed.contains("ns", "5,720,764") && !allowed.contains("ns", "5,720,765"));
    assert!(allowed.contains("ms", "0.67") && !allowed.contains("ms", "0.68"));
    assert_eq!(thousands(1_483_458_120), "1,483,458,120");
    assert_eq!(prose_ms(1_483_458_120), "1,483");
}
