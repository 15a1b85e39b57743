//! The one wire between the engine's coordinator and its worker scripts: what a worker says back
//! ([`WorkerMessage`]) and what the coordinator asks of a message worker ([`Order`]), as JSON strings
//! in serde's externally tagged, snake_case form (`"exited"`, `{"crashed":{"message":"…"}}`).
//!
//! The Rust side writes and reads them with serde; the JavaScript side (`crates/engine/js/*.js`)
//! writes its few messages from templates, `'{"crashed":{"message":"MESSAGE"}}'` with `"MESSAGE"`
//! replaced by the JSON of the words. A test reads every template out of the scripts and parses it
//! here, so neither side can change the wire alone. (The page ⇄ coordinator protocol is
//! `experiments::protocol`, pinned by its own tests.)

use serde::{Deserialize, Serialize};

/// What a worker tells its coordinator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerMessage {
    /// A pool worker's thread body returned; it has freed its stack and closes (`pool-worker.js`).
    Exited,
    /// A pool worker's thread body threw or trapped, or panicked (`pool-worker.js`, the panic hook).
    Crashed { message: String },
    /// A message worker has loaded its engine and waits for orders.
    Ready,
    /// A message worker finished task `task` with `value`, between `start_ms` and `end_ms` (its
    /// engine clock).
    Done { task: u32, value: u64, start_ms: f64, end_ms: f64 },
    /// A slice went into every hash state this message worker holds: one (task, start, end) per state.
    Advanced { spans: Vec<(u32, f64, f64)> },
    /// The digests of this message worker's hashes, by hash index.
    Digests { digests: Vec<(u32, [u8; 32])> },
    /// A message worker could not start, could not read an order, or panicked.
    Failed { message: String },
}

impl WorkerMessage {
    /// As it goes over the wire.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A message read off the wire; an unreadable one is a failure that says so.
    pub fn from_json(text: &str) -> WorkerMessage {
        serde_json::from_str(text)
            .unwrap_or_else(|e| WorkerMessage::Failed { message: format!("an unreadable answer ({e})") })
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

    #[test]
    fn the_scripts_write_what_the_engine_reads() {
        let words = "it broke: \"quoted\"\nand a second line";
        let mut variants = Vec::new();
        for name in ["pool-worker.js", "message-worker.js"] {
            let script = script(name);
            let found = templates(&script);
            assert!(!found.is_empty(), "{name} writes no message template");
            for template in found {
                // What the script's `report` does: the words as a JSON string in place of "MESSAGE".
                let text = template.replace("\"MESSAGE\"", &serde_json::to_string(words).unwrap());
                let message: WorkerMessage = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{name}: `{template}` is not a WorkerMessage: {e}"));
                match &message {
                    WorkerMessage::Crashed { message } | WorkerMessage::Failed { message } => {
                        assert_eq!(message, words, "{name}: `{template}` carries the words")
                    }
                    WorkerMessage::Exited => {}
                    other => panic!("{name} writes {other:?}, which only the engine sends"),
                }
                variants.push((name, std::mem::discriminant(&message)));
            }
            assert!(
                script.contains(".replace('\"MESSAGE\"', JSON.stringify("),
                "{name} fills templates as this test does"
            );
        }
        let has = |name: &str, m: WorkerMessage| variants.contains(&(name, std::mem::discriminant(&m)));
        let text = String::new();
        assert!(has("pool-worker.js", WorkerMessage::Exited), "a pool worker says it exited");
        assert!(
            has("pool-worker.js", WorkerMessage::Crashed { message: text.clone() }),
            "a pool worker says it crashed"
        );
        assert!(has("message-worker.js", WorkerMessage::Failed { message: text }), "a message worker says it failed");
    }

    #[test]
    fn the_wire_is_snake_case_and_externally_tagged() {
        assert_eq!(WorkerMessage::Exited.to_json(), r#""exited""#);
        assert_eq!(WorkerMessage::Crashed { message: "x".into() }.to_json(), r#"{"crashed":{"message":"x"}}"#);
        let done = WorkerMessage::Done { task: 1, value: 2, start_ms: 0.5, end_ms: 1.5 };
        assert_eq!(done.to_json(), r#"{"done":{"task":1,"value":2,"start_ms":0.5,"end_ms":1.5}}"#);
        assert_eq!(WorkerMessage::from_json(&done.to_json()), done);
        assert!(matches!(WorkerMessage::from_json("{\"Crashed\":{}}"), WorkerMessage::Failed { .. }));
        assert_eq!(serde_json::to_string(&Order::HashFinish).unwrap(), r#""hash_finish""#);
        assert_eq!(serde_json::to_string(&Order::HashSlice { slice: 3 }).unwrap(), r#"{"hash_slice":{"slice":3}}"#);
    }
}
