//! Messages between the UI and the engine. On the web they travel as JSON through `postMessage`.

use crate::job::Job;
use crate::results::Measurement;
use serde::{Deserialize, Serialize};

/// Identifies one run (a list of jobs started by one click) so late messages of an old run are ignored.
pub type RunId = u64;

/// UI to engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Measure `jobs` one after another. A new run stops the one in progress.
    Run { run_id: RunId, jobs: Vec<Job> },
    /// Stop the run as soon as possible; the engine answers [`Response::Stopped`].
    Stop { run_id: RunId },
    /// Ask how many workers are alive right now.
    Status,
}

/// Engine to UI.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Response {
    /// The engine is loaded and can take requests.
    Ready {
        threads: bool,
        /// The build of the engine's files (`dev` when not stamped by `cargo xtask build`).
        #[serde(default)]
        build: String,
    },
    /// How far the run has come: `done` of `total` steps of `stage` for job `job_index`.
    Progress {
        run_id: RunId,
        job_index: usize,
        done: u32,
        total: u32,
        #[serde(default)]
        stage: Stage,
    },
    /// Job `job_index` is measured.
    Measured { run_id: RunId, job_index: usize, measurement: Box<Measurement> },
    /// All jobs of the run are measured.
    Finished { run_id: RunId },
    /// The run was stopped before it finished.
    Stopped { run_id: RunId },
    /// The run could not be completed; `message` says why in plain words.
    Failed { run_id: RunId, message: String },
    /// Answer to [`Request::Status`].
    Status {
        live_workers: u32,
        pool_workers: u32,
        /// Workers whose pool has ended, parked for the next pool to reuse (ended when idle).
        #[serde(default)]
        parked_workers: u32,
        /// Heap bytes the engine holds (allocated, not freed), and the size of its wasm memory.
        #[serde(default)]
        heap_bytes: u64,
        #[serde(default)]
        memory_bytes: u64,
    },
    /// A worker died (a panic or a trap). The engine must be restarted.
    Crashed { message: String },
}

/// What the engine is doing for the jobs of a [`Response::Progress`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Starting the workers (`total`: how many, `done`: how many are up).
    Starting,
    /// Untimed warm-ups until the machine is quiet (open-ended: `done` and `total` are 0).
    Settling,
    /// Timed repetitions, or slices of a hashing job (`done` of `total`).
    #[default]
    Measuring,
}

impl Request {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("requests always serialise")
    }
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

impl Response {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("responses always serialise")
    }
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{Variant, Workload};

    #[test]
    fn requests_round_trip_through_json() {
        let request = Request::Run {
            run_id: 7,
            jobs: vec![Job {
                workload: Workload::Sum { numbers: 1000, seed: 1 },
                variant: Variant::ThreadPool,
                workers: 2,
                tasks: 8,
                repetitions: 5,
            }],
        };
        assert_eq!(Request::from_json(&request.to_json()), Ok(request));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(Request::from_json("{\"type\":\"explode\"}").is_err());
        assert!(Response::from_json("not json").is_err());
    }
}
