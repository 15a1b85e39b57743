//! A job: one workload, run one way, with k workers and t tasks, repeated R times.

use serde::{Deserialize, Serialize};

/// The seed of every generated input unless a job names another one.
pub const DEFAULT_SEED: u64 = 0x00C0_FFEE;

/// What to compute. Data is generated from `seed` by the engine, once per size, outside the timing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Workload {
    /// Add `numbers` random integers (the articles' `add` / `addConcurrent`).
    Sum { numbers: u64, seed: u64 },
    /// Each task does `units` units of pure CPU work (see `workloads::spin`).
    Spin { units: u32 },
    /// Search `documents` generated RSS documents for a topic; reading each one first waits
    /// `latency_us` microseconds, like a blocking read from disk or network.
    DocSearch { documents: u32, latency_us: u32, seed: u64 },
    /// Sort `numbers` random integers with `algorithm`.
    Sort { numbers: u32, seed: u64, algorithm: SortAlgorithm },
    /// A scheduling scenario of the Go scheduler chapter, on the task runtime.
    Scenario { scenario: ScenarioKind },
    /// Each task computes `sqrt` square roots (the articles' sqrt(13) task). Sequential runs them
    /// as a loop; the other variants spawn one task each.
    Granularity { sqrt: u32 },
    /// `tasks` tasks that park on a gate and stay parked while the engine counts the heap bytes
    /// they hold (see `Measurement::memory`).
    TaskMemory,
    /// Two tasks hand a turn back and forth `round_trips` times: threads that block and wake each
    /// other (Tasks, two workers), or tasks that yield to each other on one worker (Goroutines).
    PingPong { round_trips: u32 },
    /// SHA-256 of the data, `tasks` times (independent hashes), read `slice_bytes` at a time.
    Hash { source: HashSource, slice_bytes: u32 },
    /// A server answers `requests` requests, `concurrency` in flight, each `work_us` of CPU then a
    /// `wait_us` wait. Tasks: a thread pool of `workers` threads; Goroutines: tasks on `workers`.
    Qps { requests: u32, concurrency: u32, work_us: u32, wait_us: u32 },
}

/// Where the bytes to hash come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum HashSource {
    /// A seeded stream of `bytes` bytes (`workloads::hashing::fill_generated`), made slice by slice.
    Generated { bytes: u64, seed: u64 },
    /// A file the reader picked, sent to the engine beside the request (`name` and `bytes` describe it).
    File { name: String, bytes: u64 },
}

/// The scheduling scenarios of the Go scheduler chapter. Every task is spawned by one root task,
/// so all start in the root's worker's local queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioKind {
    /// Equal CPU tasks (about 1.5 ms each natively): watch the other workers steal them.
    SpawnOnOne,
    /// Tasks that wait (1–3 ms) and compute (0.2 ms) three times: watch them park and wake.
    IoMix,
    /// Many short CPU tasks (0.3 ms): queues build up and drain.
    ManyTasks,
    /// Task 0 computes about 17 times longer than the others: without preemption it holds its worker.
    LongTask,
}

impl ScenarioKind {
    pub const ALL: [ScenarioKind; 4] =
        [ScenarioKind::SpawnOnOne, ScenarioKind::IoMix, ScenarioKind::ManyTasks, ScenarioKind::LongTask];

    /// The scenario's id in URLs.
    pub fn id(self) -> &'static str {
        match self {
            ScenarioKind::SpawnOnOne => "spawn-on-one",
            ScenarioKind::IoMix => "io-mix",
            ScenarioKind::ManyTasks => "many-tasks",
            ScenarioKind::LongTask => "long-task",
        }
    }

    /// Workers and tasks the scenario is shown with unless the reader changes them.
    pub fn default_workers_and_tasks(self) -> (u32, u32) {
        match self {
            ScenarioKind::SpawnOnOne => (4, 16),
            ScenarioKind::IoMix => (2, 10),
            ScenarioKind::ManyTasks => (2, 32),
            ScenarioKind::LongTask => (2, 9),
        }
    }
}

/// The sorting algorithms of the bubble sort chapter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortAlgorithm {
    /// Bubble sort with early exit.
    Bubble,
    /// The articles' version: chunks bubble-sorted in parallel, then the whole list bubble-sorted again.
    ChunkedBubble,
    /// Odd-even transposition sort: n phases of independent compare-exchanges, a barrier between phases.
    OddEven,
    /// Merge sort: t runs sorted in parallel, then merged pairwise, level by level (fork-join).
    Merge,
}

/// How the workload is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// One plain loop on one worker, no tasks: the baseline.
    Sequential,
    /// The work split into `tasks` tasks on a rayon pool of `workers` threads. A task that waits
    /// blocks its thread, as an OS thread blocked in a system call does.
    Tasks,
    /// The work split into `tasks` tasks on the M:N task runtime with `workers` workers. A task that
    /// waits parks and frees its worker, as a goroutine does.
    Goroutines,
}

/// One measurement request: the engine warms up once, then times `repetitions` runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Job {
    pub workload: Workload,
    pub variant: Variant,
    /// k: how many workers run at once (parallelism, like GOMAXPROCS).
    pub workers: u32,
    /// t: how many independent pieces the work is split into (concurrency, like goroutines).
    pub tasks: u32,
    pub repetitions: u32,
}

impl Job {
    /// Workers that can be busy at the same time in this job: a sequential job uses exactly one.
    pub fn effective_workers(&self) -> u32 {
        match self.variant {
            Variant::Sequential => 1,
            Variant::Tasks | Variant::Goroutines => self.workers.min(self.tasks).max(1),
        }
    }
}

/// Hard limits the engine enforces whatever the UI sends: beyond them a browser tab runs out of
/// memory or workers. The chapters' own sliders stay well inside.
pub mod limits {
    pub const MAX_WORKERS: u32 = 128;
    pub const MAX_TASKS: u32 = 1_000_000;
    pub const MAX_REPETITIONS: u32 = 1_000;
    pub const MAX_SUM_NUMBERS: u64 = 200_000_000;
    pub const MAX_SPIN_UNITS: u32 = 10_000_000;
    pub const MAX_DOCUMENTS: u32 = 100_000;
    pub const MAX_LATENCY_US: u32 = 100_000;
    pub const MAX_SORT_NUMBERS: u32 = 200_000;
}

impl Job {
    /// `Err` with a plain-words reason when the job is outside the engine's limits.
    pub fn validate(&self) -> Result<(), String> {
        use limits::*;
        let within = |what: &str, value: u64, min: u64, max: u64| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(format!("{what} must be between {min} and {max}, not {value}"))
            }
        };
        within("workers", self.workers.into(), 1, MAX_WORKERS.into())?;
        within("tasks", self.tasks.into(), 1, MAX_TASKS.into())?;
        within("repetitions", self.repetitions.into(), 1, MAX_REPETITIONS.into())?;
        match &self.workload {
            Workload::Sum { numbers, .. } => within("numbers", *numbers, 1, MAX_SUM_NUMBERS),
            Workload::Spin { units } => within("work units", (*units).into(), 0, MAX_SPIN_UNITS.into()),
            Workload::DocSearch { documents, latency_us, .. } => {
                within("documents", (*documents).into(), 1, MAX_DOCUMENTS.into())?;
                within("read latency (µs)", (*latency_us).into(), 0, MAX_LATENCY_US.into())
            }
            Workload::Scenario { .. } => {
                if self.variant != Variant::Goroutines {
                    return Err("scheduler scenarios run on the task runtime".into());
                }
                within("scenario tasks", self.tasks.into(), 1, 200)
            }
            Workload::Granularity { sqrt } => within("square roots per task", (*sqrt).into(), 1, 100_000),
            Workload::Hash { source, slice_bytes } => {
                within("hashes", self.tasks.into(), 1, 256)?;
                within("slice bytes", (*slice_bytes).into(), 1 << 12, 64 << 20)?;
                let bytes = match source {
                    HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. } => *bytes,
                };
                if self.variant == Variant::Goroutines {
                    return Err("hashing runs on thread pools".into());
                }
                within("bytes to hash", bytes, 1, 1 << 40)
            }
            Workload::Qps { requests, concurrency, work_us, wait_us } => {
                if self.variant == Variant::Sequential {
                    return Err("a server needs a thread pool or the task runtime".into());
                }
                within("requests", (*requests).into(), 1, 1_000_000)?;
                within("concurrency", (*concurrency).into(), 1, 10_000)?;
                within("CPU work per request (µs)", (*work_us).into(), 0, 1_000_000)?;
                within("wait per request (µs)", (*wait_us).into(), 0, 10_000_000)
            }
            Workload::TaskMemory => {
                if self.variant != Variant::Goroutines {
                    return Err("task memory is measured on the task runtime".into());
                }
                within("parked tasks", self.tasks.into(), 1, 200_000)
            }
            Workload::PingPong { round_trips } => {
                if self.variant == Variant::Sequential {
                    return Err("a ping-pong needs two threads or two tasks".into());
                }
                if self.variant == Variant::Tasks && self.workers < 2 {
                    return Err("a ping-pong between threads needs two workers".into());
                }
                within("round trips", (*round_trips).into(), 1, 10_000_000)
            }
            Workload::Sort { numbers, .. } => {
                if self.variant == Variant::Goroutines {
                    return Err("sorting runs on thread pools, not on the task runtime".into());
                }
                within("numbers to sort", (*numbers).into(), 1, MAX_SORT_NUMBERS.into())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(workers: u32, tasks: u32, numbers: u64) -> Job {
        Job { workload: Workload::Sum { numbers, seed: 1 }, variant: Variant::Tasks, workers, tasks, repetitions: 3 }
    }

    #[test]
    fn validation_accepts_sane_and_rejects_absurd_jobs() {
        assert!(job(2, 8, 10_000_000).validate().is_ok());
        assert!(job(0, 8, 1000).validate().unwrap_err().contains("workers"));
        assert!(job(2, 8, 10_000_000_000).validate().unwrap_err().contains("numbers"));
        assert!(job(2, 0, 1000).validate().is_err());
    }

    #[test]
    fn effective_workers_is_min_of_workers_and_tasks() {
        assert_eq!(job(4, 2, 10).effective_workers(), 2);
        assert_eq!(job(2, 8, 10).effective_workers(), 2);
        let sequential = Job { variant: Variant::Sequential, ..job(8, 8, 10) };
        assert_eq!(sequential.effective_workers(), 1);
    }
}
