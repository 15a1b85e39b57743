//! The one wire between the engine's coordinator and its workers: what a pool worker reports
//! ([`PoolWorkerReport`]), what a message worker answers ([`MessageWorkerAnswer`]) and what the
//! coordinator asks of it ([`Order`]), all JSON strings in serde's externally tagged, snake_case form
//! (`"exited"`, `{"crashed":{"message":"…"}}`).
//!
//! The Rust side writes and reads them with serde; the JavaScript side (`crates/engine/js/*.js`)
//! writes its few messages from templates, `'{"crashed":{"message":"MESSAGE"}}'` with `"MESSAGE"`
//! replaced by the JSON of the words. A test reads every template out of the scripts and parses it
//! here, so neither side can change the wire alone. (The page ⇄ coordinator protocol is
//! `experiments::protocol`, pinned by its own tests.)

use serde::{Deserialize, Serialize};

/// What a pool worker (threads sharing memory) tells its coordinator; apart from these, a pool
/// worker talks through the shared memory.
///
/// Its codec is written out ([`PoolWorkerReport::to_json`], [`PoolWorkerReport::from_json`]) rather
/// than derived: serde's decoder of one more enum cost the threaded engine 5.7 KB gzip, these two
/// cost next to nothing, and a test holds them to the derived form (derived in tests only).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(test, derive(Serialize, Deserialize))]
#[cfg_attr(test, serde(rename_all = "snake_case"))]
pub enum PoolWorkerReport {
    /// Its thread body returned; it has freed its stack and closes (`pool-worker.js`).
    Exited,
    /// Its thread body threw or trapped (`pool-worker.js`), or panicked (the panic hook).
    Crashed { message: String },
}

const EXITED: &str = "\"exited\"";
const CRASHED_BEFORE: &str = "{\"crashed\":{\"message\":";
const CRASHED_AFTER: &str = "}}";

impl PoolWorkerReport {
    /// As it goes over the wire.
    pub fn to_json(&self) -> String {
        match self {
            PoolWorkerReport::Exited => EXITED.to_string(),
            PoolWorkerReport::Crashed { message } => {
                format!("{CRASHED_BEFORE}{}{CRASHED_AFTER}", json_literal(message))
            }
        }
    }

    /// A report read off the wire, if it is one.
    pub fn from_json(text: &str) -> Option<PoolWorkerReport> {
        let text = text.trim();
        if text == EXITED {
            return Some(PoolWorkerReport::Exited);
        }
        let message = text.strip_prefix(CRASHED_BEFORE)?.strip_suffix(CRASHED_AFTER)?;
        json_string(message).map(|message| PoolWorkerReport::Crashed { message })
    }
}

/// `text` as a JSON string literal, written like [`json_string`] reads it (the page's JSON in the
/// browser, serde_json natively).
fn json_literal(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::JSON::stringify(&text.into()).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "\"\"".into())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        serde_json::to_string(text).unwrap_or_default()
    }
}

/// The text of a JSON string literal. In the browser the page's own JSON parser reads it (a Rust
/// decoder for it cost the threaded engine 2.5 KB gzip); natively, serde_json.
fn json_string(literal: &str) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::JSON::parse(literal).ok()?.as_string()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        serde_json::from_str(literal).ok()
    }
}

/// What a message worker (its own memory, on a page without shared memory) answers its coordinator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageWorkerAnswer {
    /// It has loaded its engine and waits for orders.
    Ready,
    /// It finished task `task` with `value`, between `start_ms` and `end_ms` (its engine clock).
    Done { task: u32, value: u64, start_ms: f64, end_ms: f64 },
    /// A slice went into every hash state it holds: one (task, start, end) per state.
    Advanced { spans: Vec<(u32, f64, f64)> },
    /// The digests of its hashes, by hash index.
    Digests { digests: Vec<(u32, [u8; 32])> },
    /// It could not start (`message-worker.js`), could not read an order, or panicked.
    Failed { message: String },
}

impl MessageWorkerAnswer {
    /// As it goes over the wire.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An answer read off the wire; an unreadable one is a failure that says so.
    pub fn from_json(text: &str) -> MessageWorkerAnswer {
        serde_json::from_str(text)
            .unwrap_or_else(|e| MessageWorkerAnswer::Failed { message: format!("an unreadable answer ({e})") })
    }
}

/// What the coordinator asks of a message worker. For a sum, the numbers travel beside it as an
/// `Int32Array`; for a hash slice, its bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    Sum {
        task: u32,
    },
    Spin {
        task: u32,
        units: u32,
        seed: u64,
    },
    /// Start fresh hash states with these indices; the hash of slice s is task `s * hashes + index`.
    HashStart {
        indices: Vec<u32>,
        hashes: u32,
    },
    /// Advance every hash state with the bytes that travel beside it, as slice `slice`.
    HashSlice {
        slice: u32,
    },
    /// Send back the digests.
    HashFinish,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message template in the worker scripts: a single-quoted JSON text with the words as
    /// `"MESSAGE"`, or a bare variant (`'"exited"'`), as the scripts' `report(…)` and `postMessage(…)`
    /// calls hold them.
    fn templates(script: &str) -> Vec<String> {
        let mut found = Vec::new();
        for line in script.lines().filter(|l| !l.trim_start().starts_with("//")) {
            let mut rest = line;
            while let Some(open) = rest.find('\'') {
                let Some(close) = rest[open + 1..].find('\'') else { break };
                let text = &rest[open + 1..open + 1 + close];
                rest = &rest[open + close + 2..];
                let bare_variant =
                    text.len() > 2 && text.starts_with('"') && text.ends_with('"') && text != "\"MESSAGE\"";
                if (text.starts_with('{') && text.contains("\"MESSAGE\"")) || bare_variant {
                    found.push(text.to_string());
                }
            }
        }
        found.sort();
        found.dedup();
        found
    }

    fn script(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("js").join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// `script`'s templates, each filled with `words` as the script's `report` fills it.
    fn filled(name: &str, words: &str) -> Vec<(String, String)> {
        let script = script(name);
        assert!(script.contains(".replace('\"MESSAGE\"', JSON.stringify("), "{name} fills templates as this test does");
        let found = templates(&script);
        assert!(!found.is_empty(), "{name} writes no message template");
        found.into_iter().map(|t| (t.replace("\"MESSAGE\"", &serde_json::to_string(words).unwrap()), t)).collect()
    }

    #[test]
    fn the_scripts_write_what_the_engine_reads() {
        let words = "it broke: \"quoted\"\nand a second line";
        let mut reports = Vec::new();
        for (text, template) in filled("pool-worker.js", words) {
            let report: PoolWorkerReport = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("pool-worker.js: `{template}` is not a PoolWorkerReport: {e}"));
            // The engine's own reader reads it the same.
            assert_eq!(PoolWorkerReport::from_json(&text).as_ref(), Some(&report), "{template}");
            reports.push(report);
        }
        assert!(reports.contains(&PoolWorkerReport::Exited), "a pool worker says it exited: {reports:?}");
        assert!(
            reports.contains(&PoolWorkerReport::Crashed { message: words.into() }),
            "and that it crashed, in its words"
        );
        let answers: Vec<MessageWorkerAnswer> = filled("message-worker.js", words)
            .into_iter()
            .map(|(text, template)| {
                serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("message-worker.js: `{template}` is not a MessageWorkerAnswer: {e}"))
            })
            .collect();
        assert_eq!(answers, [MessageWorkerAnswer::Failed { message: words.into() }], "a message worker says it failed");
    }

    #[test]
    fn the_wire_is_snake_case_and_externally_tagged() {
        assert_eq!(PoolWorkerReport::Exited.to_json(), r#""exited""#);
        assert_eq!(PoolWorkerReport::Crashed { message: "x".into() }.to_json(), r#"{"crashed":{"message":"x"}}"#);
        assert_eq!(PoolWorkerReport::from_json(r#"{"Crashed":{"message":"x"}}"#), None);
        // The written-out codec is the derived one, both ways.
        for report in [PoolWorkerReport::Exited, PoolWorkerReport::Crashed { message: "a \"b\"\n\u{1F600}".into() }] {
            let derived = serde_json::to_string(&report).unwrap();
            assert_eq!(report.to_json(), derived);
            assert_eq!(PoolWorkerReport::from_json(&derived), Some(report.clone()));
            assert_eq!(serde_json::from_str::<PoolWorkerReport>(&report.to_json()).unwrap(), report);
        }
        assert_eq!(PoolWorkerReport::from_json(r#"{"crashed":{"message":3}}"#), None);
        let done = MessageWorkerAnswer::Done { task: 1, value: 2, start_ms: 0.5, end_ms: 1.5 };
        assert_eq!(done.to_json(), r#"{"done":{"task":1,"value":2,"start_ms":0.5,"end_ms":1.5}}"#);
        assert_eq!(MessageWorkerAnswer::from_json(&done.to_json()), done);
        assert!(matches!(MessageWorkerAnswer::from_json("{\"Failed\":{}}"), MessageWorkerAnswer::Failed { .. }));
        assert_eq!(serde_json::to_string(&Order::HashFinish).unwrap(), r#""hash_finish""#);
        assert_eq!(serde_json::to_string(&Order::HashSlice { slice: 3 }).unwrap(), r#"{"hash_slice":{"slice":3}}"#);
    }
}
