//! Nothing a reader measured is lost by accident: each experiment's results are kept in the tab's
//! `sessionStorage`, so moving to another chapter and back, a language switch or a reload brings
//! them back (described anew, in the page's language); and the page marks on `<html>` what leaving
//! would lose, for `www/keep.js` (the browser's "Leave site?" prompt) and `www/register-sw.js` (the
//! service worker's first-visit reload waits while a run is going or anything is at stake).
//!
//! The marks: `data-lab-running` (a run under way), `data-lab-unsaved` (results not downloaded
//! since they were measured) and `data-lab-compared` (other machines' files loaded: they are not
//! kept). A language switch sets `data-lab-leaving="lab"` first: the results come back on the new
//! page, so only loaded files make it ask.

use experiments::Measurement;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// What one experiment panel has at stake.
#[derive(Clone, Copy, Default)]
struct Stake {
    rows: usize,
    downloaded: usize,
    compared: bool,
}

thread_local! {
    /// Each experiment's stake, by its catalog name.
    static STAKES: RefCell<BTreeMap<&'static str, Stake>> = const { RefCell::new(BTreeMap::new()) };
    /// The runners with a run going, by their own ids.
    static RUNNING: RefCell<BTreeSet<u64>> = const { RefCell::new(BTreeSet::new()) };
}

/// Change `experiment`'s stake and write the page's marks anew.
fn update(experiment: &'static str, change: impl FnOnce(&mut Stake)) {
    STAKES.with(|stakes| change(stakes.borrow_mut().entry(experiment).or_default()));
    write_marks();
}

/// Write on `<html>` what the page has at stake now.
fn write_marks() {
    let running = RUNNING.with(|r| !r.borrow().is_empty());
    let (unsaved, compared) = STAKES.with(|stakes| {
        let stakes = stakes.borrow();
        (stakes.values().any(|s| s.rows > s.downloaded), stakes.values().any(|s| s.compared))
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
        if going {
            r.insert(runner);
        } else {
            r.remove(&runner);
        }
    });
    write_marks();
}

/// `experiment`'s results now hold `rows` rows.
pub fn rows(experiment: &'static str, rows: usize) {
    update(experiment, |s| {
        s.rows = rows;
        s.downloaded = s.downloaded.min(rows);
    });
}

/// `experiment`'s rows, all of them, were just downloaded.
pub fn downloaded(experiment: &'static str) {
    update(experiment, |s| s.downloaded = s.rows);
}

/// Whether `experiment`'s comparison holds other machines' files.
pub fn compared(experiment: &'static str, loaded: bool) {
    update(experiment, |s| s.compared = loaded);
}

/// `experiment`'s panel left the page: it has nothing at stake on it any more (its rows are kept).
pub fn left(experiment: &'static str) {
    update(experiment, |s| *s = Stake::default());
}

/// One kept row: enough to add it again as its run did.
pub struct KeptRow {
    pub run: u32,
    pub sweep: bool,
    pub baseline: bool,
    pub measurement: Measurement,
    pub context: serde_json::Value,
}

/// The most bytes one experiment keeps; beyond it the oldest runs are dropped from the copy (the
/// page still shows them).
const MOST_KEPT_BYTES: usize = 1 << 20;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

fn key(experiment: &str) -> String {
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

/// Add `row` to `experiment`'s kept rows.
pub fn keep(experiment: &str, row: &KeptRow) {
    let Some(storage) = storage() else { return };
    let mut rows: Vec<serde_json::Value> = storage
        .get_item(&key(experiment))
        .ok()
        .flatten()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    rows.push(serde_json::json!({
        "run": row.run, "sweep": row.sweep, "baseline": row.baseline,
        "measurement": lighter(&row.measurement), "context": row.context,
    }));
    let mut text = serde_json::to_string(&rows).unwrap_or_default();
    while text.len() > MOST_KEPT_BYTES && rows.len() > 1 {
        rows.remove(0);
        text = serde_json::to_string(&rows).unwrap_or_default();
    }
    // A full storage (or one the browser refuses) keeps nothing more: the page still shows the rows.
    let _ = storage.set_item(&key(experiment), &text);
}

/// `experiment`'s kept rows, oldest first (none if there are none, or they cannot be read).
pub fn kept(experiment: &str) -> Vec<KeptRow> {
    let Some(text) = storage().and_then(|s| s.get_item(&key(experiment)).ok().flatten()) else { return Vec::new() };
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
    rows.into_iter()
        .filter_map(|row| {
            Some(KeptRow {
                run: row.get("run")?.as_u64()? as u32,
                sweep: row.get("sweep")?.as_bool()?,
                baseline: row.get("baseline")?.as_bool()?,
                measurement: serde_json::from_value(row.get("measurement")?.clone()).ok()?,
                context: row.get("context")?.clone(),
            })
        })
        .collect()
}

/// Forget `experiment`'s kept rows (the reader cleared them).
pub fn forget(experiment: &str) {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(&key(experiment));
    }
}
