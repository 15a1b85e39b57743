//! The chapters' experiments as the property tests drive them: each experiment of
//! `experiments::catalog` reads its knobs through a [`Reader`] that checks every read (value, note,
//! clamping), then builds every run its panel's buttons can start. The app's panels call the same
//! catalog functions, so what is tested here is what the page sends.

#![allow(dead_code)] // Each test file uses a different part of the model.

use experiments::catalog::{self, KnobReader};
#[allow(unused_imports)] // Each test file uses a different part.
pub use experiments::catalog::{Machine, Mode, SWEEP_MAX_TASKS};
use experiments::params::{self, read_choice, read_param, ClampNote, ClampReason, ParamRange};
use experiments::Job;

/// Every experiment a chapter or an embed (`/embed/experiments/<name>`) can show, by its name.
pub const PANELS: [&str; catalog::CATALOG.len()] = {
    let mut names = [""; catalog::CATALOG.len()];
    let mut i = 0;
    while i < catalog::CATALOG.len() {
        names[i] = catalog::CATALOG[i].name();
        i += 1;
    }
    names
};

/// One knob a panel reads from the URL.
#[derive(Clone, Copy, Debug)]
pub enum Knob<'a> {
    Range(&'a ParamRange),
    Choice { key: &'a str, options: &'a [&'static str], default: &'static str },
}

impl Knob<'_> {
    pub fn key(&self) -> &str {
        match self {
            Knob::Range(range) => range.key,
            Knob::Choice { key, .. } => key,
        }
    }
}

/// What a panel read, and the notes it would show.
#[derive(Debug, Default)]
pub struct Settings {
    /// (range, value) of every numeric knob read, in order.
    pub values: Vec<(ParamRange, u64)>,
    /// (key, word) of every word knob read.
    pub words: Vec<(String, &'static str)>,
    pub notes: Vec<ClampNote>,
}

/// Reads knobs as `Preset` does (`crates/app/src/presets.rs`), from `source`, which gives the raw
/// URL value of a knob (or `None` when the URL does not have it), and checks every read.
pub struct Reader<'s> {
    source: &'s mut dyn FnMut(&Knob) -> Option<String>,
    pub settings: Settings,
}

impl<'s> Reader<'s> {
    pub fn new(source: &'s mut dyn FnMut(&Knob) -> Option<String>) -> Self {
        Reader { source, settings: Settings::default() }
    }
}

impl KnobReader for Reader<'_> {
    /// `Preset::value`: the knob's value, checked against its range and its note.
    fn value(&mut self, range: &ParamRange) -> u64 {
        let range = *range;
        let raw = (self.source)(&Knob::Range(&range));
        let before = self.settings.notes.len();
        let value = read_param(&range, raw.as_deref(), &mut self.settings.notes);
        check_param(&range, raw.as_deref(), value, &self.settings.notes[before..]);
        self.settings.values.push((range, value));
        value
    }

    /// `Preset::choice`: one of `options`, checked against its note.
    fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
        let raw = (self.source)(&Knob::Choice { key, options, default });
        let before = self.settings.notes.len();
        let word = read_choice(key, raw.as_deref(), options, default, &mut self.settings.notes);
        check_choice(key, raw.as_deref(), options, default, word, &self.settings.notes[before..]);
        self.settings.words.push((key.to_string(), word));
        word
    }
}

/// The first 40 characters of `raw`, as a note shows it.
fn shown(raw: &str) -> String {
    raw.chars().take(40).collect()
}

/// What must hold after `read_param(range, raw)` gave `value` and added `notes`.
pub fn check_param(range: &ParamRange, raw: Option<&str>, value: u64, notes: &[ClampNote]) {
    let key = range.key;
    assert!(range.min <= range.default && range.default <= range.max, "{key}: the default is in range: {range:?}");
    assert!(range.min <= value && value <= range.max, "{key}={raw:?} gave {value}, outside {range:?}");
    let Some(raw) = raw else {
        assert_eq!((value, notes.len()), (range.default, 0), "{key}: absent means the default, silently");
        return;
    };
    let parsed = params::parse_count(raw);
    match notes {
        [] => {
            let v = parsed.unwrap_or_else(|| panic!("{key}={raw:?}: unreadable yet no note"));
            assert!(range.min as f64 <= v && v <= range.max as f64, "{key}={raw:?}: {v} out of range yet no note");
            assert_eq!(value, v.round() as u64, "{key}={raw:?}: an in-range value is used as written");
        }
        [note] => {
            assert_eq!(note.key, key, "{raw:?}: the note names the knob");
            assert_eq!(note.raw, shown(raw), "{key}: the note quotes the URL, truncated");
            assert!(note.raw.chars().count() <= 40);
            assert_eq!(note.used, value, "{key}={raw:?}: the note says what was used");
            match note.reason {
                ClampReason::NotANumber => {
                    assert!(parsed.is_none(), "{key}={raw:?} reads as {parsed:?} yet is noted as not a number");
                    assert_eq!(value, range.default, "{key}={raw:?}: unreadable means the default");
                }
                ClampReason::BelowMin { min } => {
                    assert_eq!((min, value), (range.min, range.min), "{key}={raw:?}");
                    assert!(parsed.is_some_and(|v| v < range.min as f64), "{key}={raw:?}: {parsed:?} is not below");
                }
                ClampReason::AboveMax { max } => {
                    assert_eq!((max, value), (range.max, range.max), "{key}={raw:?}");
                    assert!(parsed.is_some_and(|v| v > range.max as f64), "{key}={raw:?}: {parsed:?} is not above");
                }
                ClampReason::NotAnOption => panic!("{key}={raw:?}: a number knob noted as a word"),
            }
            // The note reaches the page as data: it must survive JSON.
            let json = serde_json::to_string(note).expect("a note serialises");
            assert_eq!(&serde_json::from_str::<ClampNote>(&json).expect("and reads back"), note);
        }
        more => panic!("{key}={raw:?}: one read, {} notes: {more:?}", more.len()),
    }
}

/// What must hold after `read_choice` gave `word` and added `notes`.
pub fn check_choice(key: &str, raw: Option<&str>, options: &[&str], default: &str, word: &str, notes: &[ClampNote]) {
    assert!(options.contains(&default), "{key}: the default {default} is an option");
    assert!(options.contains(&word), "{key}={raw:?} gave {word}, not an option");
    let known = raw.map(|r| r.trim().to_ascii_lowercase()).filter(|r| options.contains(&r.as_str()));
    match (raw, known, notes) {
        (None, _, []) => assert_eq!(word, default, "{key}: absent means the default"),
        (Some(_), Some(wanted), []) => assert_eq!(word, wanted, "{key}: a known word is used"),
        (Some(raw), None, [note]) => {
            assert_eq!(word, default, "{key}={raw:?}: an unknown word means the default");
            assert_eq!(note.key, key);
            assert_eq!(note.raw, shown(raw));
            assert_eq!(note.reason, ClampReason::NotAnOption);
            assert_eq!(options.get(note.used as usize), Some(&default), "{key}: `used` is the default's index");
        }
        (raw, known, notes) => panic!("{key}={raw:?} (known: {known:?}) gave {word} with notes {notes:?}"),
    }
}

/// The experiment called `name` on `machine`: read its knobs from `source` as its panel does, then
/// build every run its buttons can start with those settings (each run a list of jobs). The hashing
/// panel hashes a picked file of `file_bytes` bytes when the reader switches to a file.
pub fn panel(
    name: &str,
    machine: Machine,
    source: &mut dyn FnMut(&Knob) -> Option<String>,
    file_bytes: u64,
) -> (Settings, Vec<Vec<Job>>) {
    let experiment = catalog::find(name).unwrap_or_else(|| panic!("no experiment called {name}"));
    let mut reader = Reader::new(source);
    let runs = (experiment.every_run)(&mut reader, machine, file_bytes);
    (reader.settings, runs)
}

/// Every run's jobs must pass the engine's check; the message names the panel, machine and job.
pub fn assert_all_valid(name: &str, machine: Machine, runs: &[Vec<Job>]) {
    for job in runs.iter().flatten() {
        if let Err(reason) = job.validate() {
            panic!("{name} on {machine:?} builds a job the engine refuses ({reason}): {job:?}");
        }
    }
}
