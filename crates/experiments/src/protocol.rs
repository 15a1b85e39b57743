//! Messages between the UI and the engine, as they travel through `postMessage`: a request in
//! postcard's compact binary form (its decoder is small: issue 36), an answer as JSON text.

use crate::job::Job;
use crate::results::Measurement;
use serde::{Deserialize, Serialize};

/// Identifies one run (a list of jobs started by one click) so late messages of an old run are ignored.
pub type RunId = u64;

/// UI to engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// Measure `jobs` one after another. A new run stops the one in progress.
    Run { run_id: RunId, jobs: Vec<Job> },
    /// Stop the run as soon as possible; the engine answers [`Response::Stopped`].
    Stop { run_id: RunId },
    /// Ask how many workers are alive right now.
    Status,
    /// Start up to `workers` pool workers now, ahead of the first run, parked until a pool takes
    /// them (a worker's start-up then happens while the reader reads, not at Run). The engine
    /// ignores it once a run was asked for, and never warms more than
    /// [`crate::job::limits::MAX_WORKERS`]. The page sends it only where starting the engine before
    /// a run is allowed (`catalog::ENGINE_WITH_PAGE`).
    Warm { workers: u32 },
}

/// Engine to UI.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
        /// How many jobs from `job_index` on the counts cover: more than one when they take turns
        /// ([`Stage::Turns`]).
        #[serde(default = "one")]
        jobs: u32,
    },
    /// Job `job_index` is measured.
    Measured { run_id: RunId, job_index: usize, measurement: Box<Measurement> },
    /// All jobs of the run are measured.
    Finished { run_id: RunId },
    /// The run was stopped before it finished.
    Stopped { run_id: RunId },
    /// The run could not be completed; `failure` says why.
    Failed { run_id: RunId, failure: Failure },
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
    Crashed { failure: Failure },
}

/// Why a run failed or the engine stopped: a kind the page words in the reader's language, and the
/// engine's own technical words (English, for a bug report or the command line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub kind: FailureKind,
    /// What happened, in the engine's words: `"a worker crashed: RuntimeError: unreachable"`.
    pub detail: String,
}

/// What kind of thing went wrong, for the page to explain in the reader's language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The request is outside the engine's limits or unreadable (the page itself keeps within them:
    /// a hand-made request, or a page and an engine of different builds).
    Refused,
    /// The file to hash could not be read (moved, changed or no longer allowed since it was picked).
    FileUnreadable,
    /// The engine's module could not be loaded or started (`coordinator.js` reports it).
    EngineNotStarted,
    /// Workers could not be started, or did not load the engine in time.
    WorkersNotStarted,
    /// A step took longer than the engine waits for it.
    TimedOut,
    /// The job needs threads that share memory, which this page cannot have.
    NoSharedMemory,
    /// Without shared memory every worker needs its own copy of the data, more than a page should
    /// hold: fewer workers would do.
    TooMuchMemory,
    /// A worker died (a trap, a panic, a script that would not load).
    WorkerCrashed,
    /// The engine itself panicked: a bug.
    EnginePanicked,
    /// Anything else: a bug.
    #[default]
    Internal,
}

impl Failure {
    pub fn new(kind: FailureKind, detail: impl Into<String>) -> Self {
        Failure { kind, detail: detail.into() }
    }
}

/// A reason in words alone is a failure of an unknown kind (a bug, [`FailureKind::Internal`]).
impl From<String> for Failure {
    fn from(detail: String) -> Self {
        Failure::new(FailureKind::Internal, detail)
    }
}

impl From<&str> for Failure {
    fn from(detail: &str) -> Self {
        Failure::new(FailureKind::Internal, detail)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

fn one() -> u32 {
    1
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
    /// Timed samples of the progress report's `jobs` jobs from its `job_index` on, which do the same
    /// work and are timed in turns (a sample of each, round after round): `done` of `total` samples
    /// over all of them. (A unit variant: one with fields doubles the code that reads every stage.)
    Turns,
}

impl Request {
    /// The request as it travels to the engine: postcard's compact binary form. Measured in the
    /// threaded engine (issue 36): decoding this form instead of JSON took 17.7 KB off its gzip
    /// (224.0 → 206.3 KB); serde-json-core would have saved less (and does not unescape strings),
    /// serde-wasm-bindgen about as little as serde_json.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("requests always serialise")
    }
    /// The request in `bytes`, or why they are not one (bytes left over too: a request is whole).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        match postcard::take_from_bytes(bytes) {
            Ok((request, [])) => Ok(request),
            Ok((_, rest)) => Err(format!("{} bytes after the request", rest.len())),
            Err(error) => Err(format!("not a request: {error}")),
        }
    }
}

/// A job's bytes in a run request, without its last field, `repetitions`: `e2e/bench.mjs` builds
/// its run requests from these (`[0]`, the run id and the job count as varints, then per job these
/// bytes and its repetitions as a varint), so the script never restates the layout of a workload.
/// The test `run_requests_have_the_layout_scripts_rely_on` pins that layout.
pub fn job_bytes_before_repetitions(job: &Job) -> Vec<u8> {
    let mut bytes = postcard::to_allocvec(job).expect("jobs always serialise");
    let repetitions = postcard::to_allocvec(&job.repetitions).expect("a number serialises");
    bytes.truncate(bytes.len() - repetitions.len());
    bytes
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
    fn requests_round_trip_through_their_bytes() {
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
        assert_eq!(Request::from_bytes(&request.to_bytes()), Ok(request));
    }

    #[test]
    fn failures_travel_with_their_kind() {
        let response = Response::Failed {
            run_id: 3,
            failure: Failure::new(FailureKind::FileUnreadable, "reading the file: NotReadableError"),
        };
        let json = response.to_json();
        assert!(json.contains("\"kind\":\"file_unreadable\""), "{json}");
        assert_eq!(Response::from_json(&json), Ok(response));
        assert_eq!(Failure::from("oops".to_string()).kind, FailureKind::Internal);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(Request::from_bytes(b"{\"explode\":{}}").is_err());
        assert!(Request::from_bytes(&[]).is_err());
        assert!(Response::from_json("not json").is_err());
    }

    /// The externally tagged shapes that hand-written JavaScript builds or reads: `coordinator.js`'s
    /// `crashed` answer, and the answers `e2e/bench.mjs` reads.
    #[test]
    fn answers_are_externally_tagged() {
        let crashed =
            r#"{"crashed":{"failure":{"kind":"engine_not_started","detail":"the engine could not start: x"}}}"#;
        let failure = Failure::new(FailureKind::EngineNotStarted, "the engine could not start: x");
        assert_eq!(Response::from_json(crashed), Ok(Response::Crashed { failure: failure.clone() }));
        assert_eq!(Response::Crashed { failure }.to_json(), crashed);
        let ready = Response::Ready { threads: true, build: "dev".into() };
        assert_eq!(ready.to_json(), r#"{"ready":{"threads":true,"build":"dev"}}"#);
        assert_eq!(Response::Finished { run_id: 1 }.to_json(), r#"{"finished":{"run_id":1}}"#);
    }

    /// What scripts rely on in a request's bytes: `e2e/bench.mjs` builds run requests from
    /// [`job_bytes_before_repetitions`]; `e2e/tests/engine-failures.test.mjs` knows a run by its
    /// first byte and reads (or changes) its last job's workers, tasks and repetitions in its last
    /// three bytes (each below 128, so one byte each).
    #[test]
    fn run_requests_have_the_layout_scripts_rely_on() {
        let sum = |workers, repetitions| Job {
            workload: Workload::Sum { numbers: 100_000, seed: 1 },
            variant: Variant::ThreadPool,
            workers,
            tasks: 8,
            repetitions,
        };
        let jobs = vec![
            Job { variant: Variant::Sequential, workers: 1, tasks: 1, ..sum(1, 300) },
            Job { workload: Workload::TaskMemory, variant: Variant::Goroutines, ..sum(4, 2) },
            sum(2, 1),
        ];
        let run_id = 300;
        let bytes = Request::Run { run_id, jobs: jobs.clone() }.to_bytes();
        let varint = |n: u64| postcard::to_allocvec(&n).unwrap();
        let mut built = vec![0];
        built.extend(varint(run_id));
        built.extend(varint(jobs.len() as u64));
        for job in &jobs {
            built.extend(job_bytes_before_repetitions(job));
            built.extend(varint(u64::from(job.repetitions)));
        }
        assert_eq!(bytes, built);
        assert_eq!(&bytes[bytes.len() - 3..], &[2, 8, 1], "workers, tasks, repetitions of the last job");
        assert_eq!(varint(300), [0xac, 0x02], "a varint: 7 bits a byte, low first");
        assert_eq!(Request::Stop { run_id: 2 }.to_bytes(), [1, 2]);
        assert_eq!(Request::Status.to_bytes(), [2]);
        assert_eq!(Request::Warm { workers: 2 }.to_bytes(), [3, 2]);
    }
}
