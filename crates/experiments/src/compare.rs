//! Results downloaded from an experiment (its "Download JSON"), read back to compare machines: parsed
//! defensively (a file is untrusted input) and refused with a reason when it is not this
//! experiment's, or was measured on another problem.

use crate::catalog::{self, KnobReader, Machine, Mode};
use crate::params::{read_choice, read_param, ParamRange};
use crate::Workload;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

/// The largest file read: a download of the longest session is a few hundred KB.
pub const MAX_FILE_BYTES: u64 = 2 << 20;
/// The most result rows read from one file.
pub const MAX_ROWS: usize = 5_000;
/// The most files a panel compares at once (each is a shape on the chart; four shapes, twice).
pub const MAX_FILES: usize = 8;
/// The most rows the comparison's table shows; the rest are counted, not drawn.
pub const MAX_SHOWN_ROWS: usize = 300;
/// The most lines one file's sweep adds to the speedup chart (and its legend): a chapter's sweep
/// has at most four kinds of job besides the loop.
pub const MAX_SERIES_PER_FILE: usize = 8;
/// The most points one of those lines has (a sweep doubles its count up to 128 workers: 8 points).
pub const MAX_POINTS_PER_SERIES: usize = 64;
/// Longer texts (a browser's name, a variant's) are cut to this many characters.
const MAX_TEXT_CHARS: usize = 80;

/// One downloaded file, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Download {
    pub machine: DownloadMachine,
    /// The settings the file names for all its rows, as query pairs (files written before rows
    /// carried their own; empty when its rows' settings differ).
    pub settings: Vec<(String, String)>,
    pub rows: Vec<DownloadRow>,
    /// Rows of the file measured on another problem than the page's, left out by [`check`].
    pub left_out: usize,
}

/// The machine that measured a download.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DownloadMachine {
    pub logical_processors: u32,
    /// The browser and its version, if the page could tell.
    pub browser: Option<String>,
    /// Whether the page was cross-origin isolated (real threads).
    pub isolated: bool,
}

/// One row of a download's results table.
#[derive(Clone, Debug, PartialEq)]
pub struct DownloadRow {
    pub run: u32,
    pub sweep: bool,
    /// The variant's stable id (`sequential`, `tasks`, `goroutines`, …).
    pub kind: String,
    /// The variant as its reader saw it (in their language).
    pub variant: String,
    pub workers: u32,
    pub tasks: u32,
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub speedup: Option<f64>,
    /// The settings this row was measured with, as query pairs: its own, or (in files written
    /// before rows carried them) the file's.
    pub settings: Vec<(String, String)>,
}

/// Why a file is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// Not JSON, or not the shape of a results download (the field at fault, if known).
    NotResults(String),
    /// Results of another experiment (its name, cut short).
    OtherExperiment(String),
    /// No rows to compare.
    Empty,
    /// More than [`MAX_ROWS`] rows.
    TooManyRows,
    /// A value no measurement can have (the field at fault).
    Impossible(&'static str),
    /// Measured on another problem: each setting that differs, with the file's value and the page's.
    OtherSettings(Vec<SettingDifference>),
}

/// A setting whose value in a file differs from the page's, in a way that changes the work measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingDifference {
    pub key: String,
    /// The file's value (`None`: the file does not set it, so it had its default).
    pub file: Option<String>,
    pub page: Option<String>,
}

#[derive(Deserialize)]
struct RawDownload {
    experiment: String,
    #[serde(default)]
    settings: serde_json::Map<String, serde_json::Value>,
    machine: RawMachine,
    results: Vec<RawRow>,
}

#[derive(Deserialize)]
struct RawMachine {
    logical_processors: u32,
    #[serde(default)]
    browser: Option<String>,
    cross_origin_isolated: bool,
}

#[derive(Deserialize)]
struct RawRow {
    run: u32,
    #[serde(default)]
    sweep: bool,
    kind: String,
    #[serde(default)]
    variant: String,
    workers: u32,
    tasks: u32,
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    #[serde(default)]
    speedup: Option<f64>,
    #[serde(default)]
    settings: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Query pairs from a JSON object of settings (at most 64, texts cut).
fn pairs_of(settings: serde_json::Map<String, serde_json::Value>) -> Vec<(String, String)> {
    settings
        .into_iter()
        .take(64)
        .map(|(key, value)| {
            let value = match value {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (cut(&key), cut(&value))
        })
        .collect()
}

fn cut(text: &str) -> String {
    text.chars().filter(|c| !c.is_control()).take(MAX_TEXT_CHARS).collect()
}

/// Read `text`, a file of `size` bytes the reader gave to `experiment`'s panel.
pub fn parse(text: &str, size: u64, experiment: &str) -> Result<Download, Refusal> {
    if size > MAX_FILE_BYTES || text.len() as u64 > MAX_FILE_BYTES {
        return Err(Refusal::TooLarge);
    }
    let raw: RawDownload = serde_json::from_str(text).map_err(|e| Refusal::NotResults(cut(&e.to_string())))?;
    if raw.experiment != experiment {
        return Err(Refusal::OtherExperiment(cut(&raw.experiment)));
    }
    if raw.results.is_empty() {
        return Err(Refusal::Empty);
    }
    if raw.results.len() > MAX_ROWS {
        return Err(Refusal::TooManyRows);
    }
    let machine = raw.machine;
    if !(1..=4096).contains(&machine.logical_processors) {
        return Err(Refusal::Impossible("logical_processors"));
    }
    let time = |ms: f64| (0.0..=1e9).contains(&ms);
    let settings = pairs_of(raw.settings);
    let mut rows = Vec::with_capacity(raw.results.len());
    for r in raw.results {
        if !(1..=4096).contains(&r.workers) || !(1..=10_000_000).contains(&r.tasks) {
            return Err(Refusal::Impossible("workers"));
        }
        if !(time(r.median_ms)
            && time(r.min_ms)
            && time(r.max_ms)
            && r.min_ms <= r.median_ms
            && r.median_ms <= r.max_ms)
        {
            return Err(Refusal::Impossible("median_ms"));
        }
        // 0: the baseline was too quick for the clock (a page without isolation times in 0.1 ms steps).
        if r.speedup.is_some_and(|s| !(0.0..=1e6).contains(&s)) {
            return Err(Refusal::Impossible("speedup"));
        }
        rows.push(DownloadRow {
            run: r.run,
            sweep: r.sweep,
            kind: cut(&r.kind),
            variant: cut(&r.variant),
            workers: r.workers,
            tasks: r.tasks,
            median_ms: r.median_ms,
            min_ms: r.min_ms,
            max_ms: r.max_ms,
            speedup: r.speedup,
            settings: r.settings.map(pairs_of).unwrap_or_else(|| settings.clone()),
        });
    }
    Ok(Download {
        machine: DownloadMachine {
            logical_processors: machine.logical_processors,
            browser: machine.browser.as_deref().map(cut).filter(|b| !b.is_empty()),
            isolated: machine.cross_origin_isolated,
        },
        settings,
        rows,
        left_out: 0,
    })
}

/// Reads knobs from query pairs, clamping as the page does.
struct FromPairs<'a>(&'a [(String, String)]);

impl FromPairs<'_> {
    fn raw(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

impl KnobReader for FromPairs<'_> {
    fn value(&mut self, range: &ParamRange) -> u64 {
        read_param(range, self.raw(range.key), &mut Vec::new())
    }
    fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
        read_choice(key, self.raw(key), options, default, &mut Vec::new())
    }
}

/// The work `experiment`'s buttons measure with `settings`: every workload of every run they start
/// (worker and task counts, and repetitions, are not part of it).
fn workloads(experiment: &catalog::Experiment, settings: &[(String, String)]) -> HashSet<Workload> {
    // The largest machine, so that no setting is clamped by this one's size.
    let machine = Machine { cores: 4096, mode: Mode::Threads };
    // A picked file's size, recorded with its rows (see `catalog::hashing::FILE_BYTES_KEY`).
    let file_bytes = settings
        .iter()
        .find(|(key, _)| key == catalog::hashing::FILE_BYTES_KEY)
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    (experiment.every_run)(&mut FromPairs(settings), machine, file_bytes)
        .into_iter()
        .flatten()
        .map(|job| job.workload)
        .collect()
}

/// The settings of `file` that make it measure other work than `page` (both query pairs of
/// `experiment`): empty when they measure the same problem, whatever their worker or task counts.
/// Each setting that alone changes the work is named; when only several together do, every
/// setting that differs is.
pub fn differences(experiment: &str, file: &[(String, String)], page: &[(String, String)]) -> Vec<SettingDifference> {
    let Some(experiment) = catalog::find(experiment) else { return Vec::new() };
    let here = workloads(experiment, page);
    if workloads(experiment, file) == here {
        return Vec::new();
    }
    let value = |pairs: &[(String, String)], key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let mut keys: Vec<&String> = file.iter().chain(page).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let differing: Vec<&String> = keys.into_iter().filter(|key| value(file, key) != value(page, key)).collect();
    let alone: Vec<&String> = differing
        .iter()
        .copied()
        .filter(|key| {
            // Does this setting alone, set as in the file, change the page's work?
            let mut changed: Vec<(String, String)> = page.iter().filter(|(k, _)| k != *key).cloned().collect();
            if let Some(v) = value(file, key) {
                changed.push(((*key).clone(), v));
            }
            workloads(experiment, &changed) != here
        })
        .collect();
    let named = if alone.is_empty() { differing } else { alone };
    named
        .into_iter()
        .map(|key| SettingDifference { key: key.clone(), file: value(file, key), page: value(page, key) })
        .collect()
}

/// [`parse`], then refuse a file measured on another problem than `page`'s settings.
pub fn check(text: &str, size: u64, experiment: &str, page: &[(String, String)]) -> Result<Download, Refusal> {
    let mut download = parse(text, size, experiment)?;
    let Some(found) = catalog::find(experiment) else { return Ok(download) };
    // Each row by its own settings: a file may hold runs of several problems (a reader who changed
    // the size between runs); the rows of the page's problem are kept, the others left out and
    // counted, never relabelled. Each distinct settings' work is worked out once (a file of 5,000
    // rows holds a handful), and which settings differ only for the first row left out: that is
    // all a refusal names.
    let here = workloads(found, page);
    let mut same_work: HashMap<Vec<(String, String)>, bool> = HashMap::new();
    let mut first_other = None;
    let before = download.rows.len();
    download.rows.retain(|row| {
        let same = match same_work.get(&row.settings) {
            Some(&same) => same,
            None => {
                let same = workloads(found, &row.settings) == here;
                same_work.insert(row.settings.clone(), same);
                same
            }
        };
        if !same && first_other.is_none() {
            first_other = Some(row.settings.clone());
        }
        same
    });
    download.left_out = before - download.rows.len();
    match first_other {
        Some(settings) if download.rows.is_empty() => {
            Err(Refusal::OtherSettings(differences(experiment, &settings, page)))
        }
        _ => Ok(download),
    }
}

impl Download {
    /// The rows of the file's last sweep, which its speedup chart showed (none if it has no sweep).
    pub fn last_sweep(&self) -> Vec<&DownloadRow> {
        let Some(run) = self.rows.iter().filter(|r| r.sweep).map(|r| r.run).max() else { return Vec::new() };
        self.rows.iter().filter(|r| r.sweep && r.run == run).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn download(experiment: &str, settings: &str, rows: &str) -> String {
        format!(
            r#"{{"experiment":"{experiment}","url":"https://example.org/chapters/sum","settings":{settings},
            "machine":{{"logical_processors":8,"browser":"Chromium 156","cross_origin_isolated":true}},
            "exported_at":"2026-12-01T10:00:00.000Z","results":[{rows}]}}"#
        )
    }

    const ROWS: &str = r#"{"run":1,"sweep":true,"variant":"Loop","kind":"sequential","workers":1,"tasks":1,"median_ms":10.0,"min_ms":9.0,"max_ms":12.0,"speedup":1.0,"result":"1","correct":true},
        {"run":1,"sweep":true,"variant":"Tasks","kind":"tasks","workers":2,"tasks":8,"median_ms":5.5,"min_ms":5.0,"max_ms":6.0,"speedup":1.8,"result":"1","correct":true}"#;

    #[test]
    fn a_download_reads_back() {
        let text = download("sum", r#"{"n":"1000000","workers":"2"}"#, ROWS);
        let d = parse(&text, text.len() as u64, "sum").unwrap();
        assert_eq!(
            d.machine,
            DownloadMachine { logical_processors: 8, browser: Some("Chromium 156".into()), isolated: true }
        );
        assert_eq!(d.rows.len(), 2);
        assert_eq!(d.rows[1].speedup, Some(1.8));
        assert_eq!(d.last_sweep().len(), 2);
        assert!(d.settings.contains(&("n".to_string(), "1000000".to_string())));
    }

    #[test]
    fn corrupt_and_hostile_files_are_refused_not_panicked_on() {
        let refuse = |text: &str| parse(text, text.len() as u64, "sum").unwrap_err();
        assert!(matches!(refuse(""), Refusal::NotResults(_)));
        assert!(matches!(refuse("{\"experiment\":"), Refusal::NotResults(_)));
        assert!(matches!(refuse("[1,2,3]"), Refusal::NotResults(_)));
        assert!(matches!(refuse(&"[".repeat(100_000)), Refusal::NotResults(_)), "deep nesting");
        assert!(matches!(refuse("{\"experiment\":\"sum\"}"), Refusal::NotResults(_)));
        assert_eq!(refuse(&download("hashing", "{}", ROWS)), Refusal::OtherExperiment("hashing".into()));
        assert_eq!(refuse(&download("sum", "{}", "")), Refusal::Empty);
        let negative = ROWS.replace("\"median_ms\":5.5", "\"median_ms\":-5.5");
        assert_eq!(refuse(&download("sum", "{}", &negative)), Refusal::Impossible("median_ms"));
        let huge = ROWS.replace("\"median_ms\":5.5", "\"median_ms\":1e300");
        assert_eq!(refuse(&download("sum", "{}", &huge)), Refusal::Impossible("median_ms"));
        let no_workers = ROWS.replace("\"workers\":2", "\"workers\":0");
        assert_eq!(refuse(&download("sum", "{}", &no_workers)), Refusal::Impossible("workers"));
        let wrong_type = ROWS.replace("\"workers\":2", "\"workers\":\"two\"");
        assert!(matches!(refuse(&download("sum", "{}", &wrong_type)), Refusal::NotResults(_)));
        let text = download("sum", "{}", ROWS);
        assert_eq!(parse(&text, MAX_FILE_BYTES + 1, "sum"), Err(Refusal::TooLarge));
        let many = vec![ROWS; MAX_ROWS / 2 + 1].join(",");
        assert_eq!(refuse(&download("sum", "{}", &many)), Refusal::TooManyRows);
    }

    #[test]
    fn long_or_strange_texts_are_cut() {
        let name = format!("\\u0007<script>{}</script>", "x".repeat(500));
        let text = download("sum", "{}", ROWS).replace("Chromium 156", &name);
        let d = parse(&text, text.len() as u64, "sum").unwrap();
        let browser = d.machine.browser.unwrap();
        assert_eq!(browser.chars().count(), MAX_TEXT_CHARS);
        assert!(browser.starts_with("<script>"), "the control character is dropped: {browser}");
    }

    #[test]
    fn worker_and_task_counts_may_differ_but_not_the_problem() {
        let page = pairs(&[("workers", "4"), ("tasks", "8"), ("n", "1000000"), ("reps", "5")]);
        let other_counts = pairs(&[("workers", "2"), ("tasks", "16"), ("n", "1000000"), ("reps", "3")]);
        assert!(differences("sum", &other_counts, &page).is_empty());
        let other_size = pairs(&[("workers", "4"), ("tasks", "8"), ("n", "2000000"), ("reps", "5")]);
        assert_eq!(
            differences("sum", &other_size, &page),
            vec![SettingDifference { key: "n".into(), file: Some("2000000".into()), page: Some("1000000".into()) }]
        );
        // A file without a setting measured its default, as does a page without it.
        let default_size = pairs(&[("workers", "4")]);
        assert_eq!(differences("sum", &default_size, &page).len(), 1);
        assert!(differences("sum", &default_size, &pairs(&[])).is_empty());
        let text = download("sum", r#"{"n":"2000000"}"#, ROWS);
        assert!(matches!(check(&text, 10, "sum", &page), Err(Refusal::OtherSettings(d)) if d.len() == 1));
        let text = download("sum", r#"{"n":"1000000","workers":"16"}"#, ROWS);
        assert!(check(&text, 10, "sum", &page).is_ok());
    }

    #[test]
    fn a_file_of_many_rows_is_checked_once_per_distinct_settings() {
        // 5,000 rows, every one with other junk settings and another size: all left out, and the
        // refusal names the size alone (the junk changes no work).
        let row = |i: usize| {
            format!(
                r#"{{"run":1,"sweep":false,"variant":"Loop","kind":"sequential","workers":1,"tasks":1,"median_ms":1.0,"min_ms":1.0,"max_ms":1.0,"speedup":1.0,"settings":{{"n":"2000000","junk{i}":"{i}"}}}}"#
            )
        };
        let rows: Vec<String> = (0..MAX_ROWS).map(row).collect();
        let text = download("sum", "{}", &rows.join(","));
        let page = pairs(&[("n", "1000000")]);
        let refused = check(&text, 10, "sum", &page);
        assert!(matches!(&refused, Err(Refusal::OtherSettings(d)) if d.len() == 1 && d[0].key == "n"), "{refused:?}");
    }

    #[test]
    fn rows_of_two_files_of_different_sizes_are_two_problems() {
        let key = catalog::hashing::FILE_BYTES_KEY;
        let page = pairs(&[("source", "file"), ("hashes", "4"), ("workers", "2"), (key, "1000")]);
        let same_file = pairs(&[("source", "file"), ("hashes", "4"), ("workers", "4"), (key, "1000")]);
        assert!(differences("hashing", &same_file, &page).is_empty());
        let other_file = pairs(&[("source", "file"), ("hashes", "4"), ("workers", "2"), (key, "2000")]);
        assert_eq!(
            differences("hashing", &other_file, &page),
            vec![SettingDifference { key: key.into(), file: Some("2000".into()), page: Some("1000".into()) }]
        );
        // Rows of generated data carry no file size: beside a file's rows, another problem.
        let generated = pairs(&[("source", "generated"), ("hashes", "4"), ("workers", "2")]);
        assert!(!differences("hashing", &generated, &page).is_empty());
    }

    #[test]
    fn rows_of_two_problems_are_grouped_by_their_own_settings_never_relabelled() {
        let page = pairs(&[("workers", "2"), ("n", "1000000")]);
        let small = r#"{"run":1,"sweep":false,"variant":"Loop","kind":"sequential","workers":1,"tasks":1,"median_ms":1.0,"min_ms":1.0,"max_ms":1.0,"speedup":1.0,"settings":{"n":"1000000","workers":"2"}}"#;
        let large = r#"{"run":2,"sweep":false,"variant":"Loop","kind":"sequential","workers":1,"tasks":1,"median_ms":50.0,"min_ms":50.0,"max_ms":50.0,"speedup":1.0,"settings":{"n":"50000000","workers":"2"}}"#;
        // The file's own top-level settings (the last run's) would relabel the first row; each row's win.
        let text = download("sum", r#"{"n":"50000000"}"#, &format!("{small},{large}"));
        let d = check(&text, 10, "sum", &page).expect("the 1,000,000 row matches");
        assert_eq!((d.rows.len(), d.left_out), (1, 1));
        assert_eq!(d.rows[0].run, 1);
        assert!(d.rows[0].settings.contains(&("n".to_string(), "1000000".to_string())));
        // Only rows of another problem: refused, naming the setting.
        let text = download("sum", "{}", large);
        assert!(matches!(check(&text, 10, "sum", &page), Err(Refusal::OtherSettings(d)) if d[0].key == "n"));
    }
}
