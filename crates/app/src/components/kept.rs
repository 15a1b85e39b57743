//! Nothing a reader measured is lost by accident: each experiment's results are kept in the tab's
//! `sessionStorage`, so moving to another chapter and back, a language switch or a reload brings
//! them back (described anew, in the page's language); and the page marks on `<html>` what leaving
//! would lose, for `www/keep.js` (the browser's "Leave site?" prompt) and `www/register-sw.js` (the
//! service worker's first-visit reload waits while a run is going or files are loaded).
//!
//! The marks: `data-lab-running` (a run under way), `data-lab-unsaved` (results not downloaded
//! since they were measured) and `data-lab-compared` (other machines' files loaded: they are not
//! kept). A language switch sets `data-lab-leaving="lab"` first: the results come back on the new
//! page, so only loaded files make it ask.

use super::results::RunContext;
use experiments::catalog::ExperimentId;
use experiments::Measurement;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// What one experiment panel has at stake.
#[derive(Clone, Copy, Default)]
struct Stake {
    rows: usize,
    downloaded: usize,
    compared: bool,
}

thread_local! {
    /// Each experiment's stake (a few: a list is lighter than a map).
    static STAKES: RefCell<Vec<(ExperimentId, Stake)>> = const { RefCell::new(Vec::new()) };
    /// The runners with a run going, by their own ids.
    static RUNNING: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// Change `experiment`'s stake and write the page's marks anew.
fn update(experiment: ExperimentId, change: impl FnOnce(&mut Stake)) {
    STAKES.with(|stakes| {
        let mut stakes = stakes.borrow_mut();
        let at = match stakes.iter().position(|(name, _)| *name == experiment) {
            Some(at) => at,
            None => {
                stakes.push((experiment, Stake::default()));
                stakes.len() - 1
            }
        };
        change(&mut stakes[at].1);
    });
    write_marks();
}

/// Write on `<html>` what the page has at stake now.
fn write_marks() {
    let running = RUNNING.with(|r| !r.borrow().is_empty());
    let (unsaved, compared) = STAKES.with(|stakes| {
        let stakes = stakes.borrow();
        (stakes.iter().any(|(_, s)| s.rows > s.downloaded), stakes.iter().any(|(_, s)| s.compared))
    });
    let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) else { return };
    for (name, on) in [("data-lab-running", running), ("data-lab-unsaved", unsaved), ("data-lab-compared", compared)] {
        let _ = if on { root.set_attribute(name, "true") } else { root.remove_attribute(name) };
    }
}

/// Whether the runner `runner` (an id of its own) has a run going.
pub fn running(runner: u64, going: bool) {
    RUNNING.with(|r| {
        let mut r = r.borrow_mut();
        r.retain(|id| *id != runner);
        if going {
            r.push(runner);
        }
    });
    write_marks();
}

/// `experiment`'s results now hold `rows` rows.
pub fn rows(experiment: ExperimentId, rows: usize) {
    update(experiment, |s| {
        s.rows = rows;
        s.downloaded = s.downloaded.min(rows);
    });
}

/// `experiment`'s rows, all of them, were just downloaded.
pub fn downloaded(experiment: ExperimentId) {
    update(experiment, |s| s.downloaded = s.rows);
}

/// Whether `experiment`'s comparison holds other machines' files.
pub fn compared(experiment: ExperimentId, loaded: bool) {
    update(experiment, |s| s.compared = loaded);
}

/// `experiment`'s panel left the page: it has nothing at stake on it any more (its rows are kept).
pub fn left(experiment: ExperimentId) {
    update(experiment, |s| *s = Stake::default());
}

/// One kept row: enough to add it again as its run did.
#[derive(Serialize, Deserialize)]
pub struct KeptRow {
    pub run: u32,
    pub sweep: bool,
    pub baseline: bool,
    /// Read with the same decoder as the engine's reports (`serde_json::from_str`), so keeping
    /// rows adds no second copy of it to the chapter's code.
    pub measurement: Measurement,
    pub context: KeptContext,
}

/// A row's [`RunContext`] as it is kept.
#[derive(Serialize, Deserialize)]
pub struct KeptContext {
    settings: Vec<(String, String)>,
    mode: String,
    logical_processors: u32,
    build: Option<String>,
    started_at: String,
}

impl KeptContext {
    pub fn of(context: &RunContext) -> KeptContext {
        KeptContext {
            settings: context.settings.clone(),
            mode: context.mode.to_string(),
            logical_processors: context.logical_processors,
            build: context.build.clone(),
            started_at: context.started_at.clone(),
        }
    }

    /// The context again, for `experiment`; `None` if its mode is not one the page knows.
    pub fn context(self, experiment: ExperimentId) -> Option<RunContext> {
        Some(RunContext {
            experiment,
            settings: self.settings,
            mode: RunContext::mode_named(&self.mode)?,
            logical_processors: self.logical_processors,
            build: self.build,
            started_at: self.started_at,
        })
    }
}

/// The most bytes one experiment keeps; beyond it the oldest rows are dropped from the copy (the
/// page still shows them).
const MOST_KEPT_BYTES: usize = 1 << 20;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

fn key(experiment: ExperimentId) -> String {
    format!("concurrency-lab.results.{experiment}")
}

/// A measurement as it is kept: without the scheduler's steps (a replay's, many) or a trace of many
/// tasks, which the table does not need.
fn lighter(m: &Measurement) -> Measurement {
    let mut m = m.clone();
    m.trace.events.clear();
    if m.trace.spans.len() > 256 {
        m.trace.spans.clear();
        m.trace.parked.clear();
    }
    m
}

/// Add `row` to `experiment`'s kept rows: one JSON line each, oldest first.
pub fn keep(experiment: ExperimentId, run: u32, sweep: bool, baseline: bool, m: &Measurement, context: &RunContext) {
    let Some(storage) = storage() else { return };
    let row = KeptRow { run, sweep, baseline, measurement: lighter(m), context: KeptContext::of(context) };
    let Ok(line) = serde_json::to_string(&row) else { return };
    let mut text = storage.get_item(&key(experiment)).ok().flatten().unwrap_or_default();
    text.push_str(&line);
    text.push('\n');
    while text.len() > MOST_KEPT_BYTES {
        match text.find('\n') {
            Some(end) if end + 1 < text.len() => drop(text.drain(..=end)),
            _ => break,
        }
    }
    // A full storage (or one the browser refuses) keeps nothing more: the page still shows the rows.
    let _ = storage.set_item(&key(experiment), &text);
}

/// `experiment`'s kept rows, oldest first (none if there are none; a line that cannot be read is
/// skipped).
pub fn kept(experiment: ExperimentId) -> Vec<KeptRow> {
    let Some(text) = storage().and_then(|s| s.get_item(&key(experiment)).ok().flatten()) else { return Vec::new() };
    text.lines().filter_map(|line| serde_json::from_str(line).ok()).collect()
}

/// Forget `experiment`'s kept rows (the reader cleared them).
pub fn forget(experiment: ExperimentId) {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(&key(experiment));
    }
}
