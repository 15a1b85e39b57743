//! `e2e/catalog.json`: the experiment catalog as the JavaScript tests read it, written from
//! `experiments::catalog` so that no script keeps a list of experiments, chapters or URL keys.
//!
//! It holds each experiment's name, chapter, where it runs, its quick settings and its knobs (the
//! URL keys its panel reads, with their ranges or options on a machine of [`MACHINE_CORES`]
//! logical processors), and the chapters in reading order with the experiments each places.

use crate::shell::root;
use experiments::catalog::{KnobReader, Machine, Mode, Runs, CATALOG};
use experiments::params::ParamRange;
use serde_json::{json, Value};
use std::path::PathBuf;

/// The machine the knobs' ranges are read for (worker counts depend on the cores).
pub const MACHINE_CORES: u32 = 8;

/// Where the tests read it.
pub fn path() -> PathBuf {
    root().join("e2e/catalog.json")
}

/// Write [`catalog`] to [`path`].
pub fn write() -> Result<(), String> {
    let path = path();
    let text = serde_json::to_string_pretty(&catalog()).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads no value from anywhere: it notes each knob a panel reads and answers its default.
#[derive(Default)]
struct KnobList(Vec<Value>);

impl KnobReader for KnobList {
    fn value(&mut self, range: &ParamRange) -> u64 {
        self.0.push(json!({"key": range.key, "min": range.min, "max": range.max, "default": range.default}));
        range.default
    }
    fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
        self.0.push(json!({"key": key, "options": options, "default": default}));
        default
    }
}

/// The catalog as JSON: `{"machine_cores", "experiments": [...], "chapters": [...]}`.
pub fn catalog() -> Value {
    let machine = Machine { cores: MACHINE_CORES, mode: Mode::Threads };
    let experiments: Vec<Value> = CATALOG
        .iter()
        .map(|e| {
            let mut knobs = KnobList::default();
            (e.every_run)(&mut knobs, machine, 0);
            let modes: Vec<&str> = [Mode::Threads, Mode::SingleWorker]
                .into_iter()
                .filter(|m| e.runs_in(*m))
                .map(|m| match m {
                    Mode::Threads => "threads",
                    Mode::SingleWorker => "single_worker",
                })
                .collect();
            json!({
                "name": e.name(),
                "chapter": e.chapter,
                "runs": if e.runs == Runs::Page { "page" } else { "engine" },
                "modes": modes,
                "message_workers": e.message_workers,
                "measures_page_memory": e.measures_page_memory,
                "quick": e.quick,
                "knobs": knobs.0,
            })
        })
        .collect();
    let mut chapters: Vec<(&str, Vec<&str>)> = Vec::new();
    for e in &CATALOG {
        match chapters.iter_mut().find(|(slug, _)| *slug == e.chapter) {
            Some((_, names)) => names.push(e.name()),
            None => chapters.push((e.chapter, vec![e.name()])),
        }
    }
    let chapters: Vec<Value> =
        chapters.into_iter().map(|(slug, names)| json!({"slug": slug, "experiments": names})).collect();
    json!({"machine_cores": MACHINE_CORES, "experiments": experiments, "chapters": chapters})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_experiment_once_with_its_knobs_and_chapters_in_catalog_order() {
        let value = catalog();
        let names: Vec<&str> =
            value["experiments"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
        assert_eq!(names, CATALOG.iter().map(|e| e.name()).collect::<Vec<_>>());
        let sum = &value["experiments"][2];
        assert_eq!(sum["name"], "sum");
        let keys: Vec<&str> = sum["knobs"].as_array().unwrap().iter().map(|k| k["key"].as_str().unwrap()).collect();
        assert_eq!(keys, ["workers", "tasks", "n", "reps"]);
        let placed: Vec<&str> = value["chapters"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["experiments"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()))
            .collect();
        assert_eq!(placed, names, "every experiment in one chapter, in order");
        assert_eq!(value["chapters"][0]["slug"], "concurrency-vs-parallelism");
    }
}
