//! A job: one workload, run one way, with k workers and t tasks, repeated R times.

use serde::{Deserialize, Serialize};

/// The seed of every generated input unless a job names another one.
pub const DEFAULT_SEED: u64 = 0x00C0_FFEE;

/// What to compute. Data is generated from `seed` by the engine, once per size, outside the timing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// Add `numbers` random integers (the articles' `add` / `addConcurrent`).
    Sum { numbers: u64, seed: u64 },
    /// Add `numbers` random integers, one task per worker, into one total (`total` says where each
    /// task adds: see [`TotalKind`]); sequential adds them in one loop.
    SharedTotal { numbers: u64, seed: u64, total: TotalKind },
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

impl Workload {
    /// Whether the work only computes, never waits: then k workers can do it at most as fast as
    /// the workers that run at once (never more than the cores), and a measured speedup beyond that
    /// cannot be right (see [`crate::trust`]). Work that waits (reads, sleeps, parked tasks) can gain
    /// more than the cores, since a waiting worker needs none.
    pub fn cpu_bound(&self) -> bool {
        match self {
            Workload::Sum { .. }
            | Workload::SharedTotal { .. }
            | Workload::Spin { .. }
            | Workload::Sort { .. }
            | Workload::Granularity { .. }
            | Workload::Hash { .. } => true,
            Workload::Scenario { scenario } => *scenario != ScenarioKind::IoMix,
            Workload::DocSearch { latency_us, .. } => *latency_us == 0,
            Workload::TaskMemory | Workload::PingPong { .. } | Workload::Qps { .. } => false,
        }
    }

    /// Whether the tasks of a split job together do exactly the work of its sequential loop (a
    /// range of the sum each, the same hashes), so that their busy time can be held against the
    /// loop's (see [`crate::trust::SLOW_PACE`]). Not a chunked sort, whose pieces and merge are other work.
    pub fn splits_the_loop(&self) -> bool {
        matches!(self, Workload::Sum { .. } | Workload::Hash { .. })
    }

    /// How many times, at most, the tasks of one pass wait for one another at a barrier when split:
    /// an odd–even transposition sort ends each of its phases at one, up to one phase per number.
    /// `None` for work whose tasks meet only at the end.
    pub fn barriers(&self) -> Option<u32> {
        match self {
            Workload::Sort { numbers, algorithm: SortAlgorithm::OddEven, .. } => Some(*numbers),
            _ => None,
        }
    }
}

/// Where the tasks of a [`Workload::SharedTotal`] add their numbers (`workloads::shared_total`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TotalKind {
    /// Each task sums its slice in a private variable and adds that once, at the end.
    Private,
    /// Every task adds every number into one shared atomic counter.
    OneShared,
    /// Each task adds every number into its own atomic counter, the counters side by side in one
    /// cache line (false sharing).
    SideBySide,
}

impl TotalKind {
    pub const ALL: [TotalKind; 3] = [TotalKind::Private, TotalKind::OneShared, TotalKind::SideBySide];

    /// Its name in result rows (`data-variant`) and `lab`'s benchmark names.
    pub const fn name(self) -> &'static str {
        match self {
            TotalKind::Private => "private",
            TotalKind::OneShared => "one-shared",
            TotalKind::SideBySide => "side-by-side",
        }
    }
}

/// Where the bytes to hash come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// The work split into `tasks` tasks on a thread pool (rayon) of `workers` threads. A task that
    /// waits blocks its thread, as an OS thread blocked in a system call does. Named `tasks` in
    /// JSON (the protocol, downloads, the bench, `data-variant`), as it always was.
    #[serde(rename = "tasks")]
    ThreadPool,
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

/// `Err` with a plain-words reason when a run of `jobs` is outside the engine's limits: no jobs, too
/// many, or any job out of its limits.
pub fn validate_run(jobs: &[Job]) -> Result<(), String> {
    if jobs.is_empty() {
        return Err("a run needs at least one job".into());
    }
    if jobs.len() > limits::MAX_JOBS_PER_RUN {
        return Err(format!("a run holds at most {} jobs, not {}", limits::MAX_JOBS_PER_RUN, jobs.len()));
    }
    jobs.iter().try_for_each(Job::validate)
}

impl Job {
    /// Workers that can be busy at the same time in this job: a sequential job uses exactly one.
    pub fn effective_workers(&self) -> u32 {
        match self.variant {
            Variant::Sequential => 1,
            Variant::ThreadPool | Variant::Goroutines => self.workers.min(self.tasks).max(1),
        }
    }
}

/// Hard limits the engine enforces whatever it is sent. They are the chapters' own limits
/// (each experiment's knobs in its [`crate::catalog`] module), one source of truth: the largest value a control, a preset URL, a sweep or
/// a preset button of the page can ask for, and no more, so neither a URL nor a hand-written
/// request can make the engine do more than the page itself could. The lower limits are the
/// smallest jobs that mean something; they are below the controls' minimums, which only keep the
/// chapters' measurements meaningful (the engine's own tests and `lab` run smaller jobs).
pub mod limits {
    use crate::catalog::{
        bubble_sort as sort, cpu_vs_io, demo, document_search as docsearch, go_scheduler, hashing, qps, shared_total,
        sum, task_granularity, task_memory, task_switch,
    };
    use crate::params::{ParamRange, WORKERS_CAP};

    /// The largest `max` of `ranges`.
    const fn largest(ranges: &[ParamRange]) -> u64 {
        let mut largest = 0;
        let mut i = 0;
        while i < ranges.len() {
            if ranges[i].max > largest {
                largest = ranges[i].max;
            }
            i += 1;
        }
        largest
    }

    /// Workers of any job: the most a worker control offers on the largest machine (sweeps and
    /// the hashing chapter's preset worker counts stay within it too).
    pub const MAX_WORKERS: u32 = WORKERS_CAP as u32;
    /// Jobs in one run: the largest run a page sends is a sweep of 25 jobs.
    pub const MAX_JOBS_PER_RUN: usize = 64;
    /// Repetitions of any job: the largest repetitions control. Each workload has its chapter's own.
    pub const MAX_REPETITIONS: u32 = largest(&[
        sum::REPETITIONS,
        shared_total::REPETITIONS,
        docsearch::REPETITIONS,
        cpu_vs_io::REPETITIONS,
        sort::REPETITIONS,
        task_granularity::REPETITIONS,
        task_switch::REPETITIONS,
        hashing::REPETITIONS,
        qps::REPETITIONS,
    ]) as u32;
    /// Tasks of the workloads no single task control sizes: spin work (the demo's tasks, the
    /// task-memory chapter's idle pool, the engine's own tests), ping-pongs and servers. The largest
    /// task control or sweep of the chapters whose tasks share out one piece of work (64).
    pub const MAX_TASKS: u32 =
        largest(&[sum::TASKS, docsearch::TASKS, cpu_vs_io::TASKS, sort::TASKS, demo::TASKS, go_scheduler::TASKS])
            as u32;

    /// Tasks of spin work: the demo's task control (the task-memory chapter's idle pool of
    /// `catalog::task_memory::WEIGHED_WORKERS` stays within it), exactly what a page can ask for.
    pub const MAX_SPIN_TASKS: u32 = demo::TASKS.max as u32;
    const _: () = assert!(crate::catalog::task_memory::WEIGHED_WORKERS <= MAX_SPIN_TASKS);

    /// Without shared memory, the most bytes of a sum's numbers copied to message workers at once:
    /// each busy worker holds its task's share twice (the message and its own memory) beside the
    /// page's whole list, so 128 MB in flight is about half a gigabyte at the peak. See
    /// [`crate::Job::message_copies_bytes`].
    pub const MAX_MESSAGE_COPIES_BYTES: u64 = 128 << 20;

    pub const MAX_SUM_TASKS: u32 = sum::TASKS.max as u32;
    pub const MAX_SUM_NUMBERS: u64 = sum::NUMBERS.max;
    pub const MAX_SUM_REPETITIONS: u32 = sum::REPETITIONS.max as u32;

    /// One task per counter of a 64-byte cache line (`workloads::shared_total::ADJACENT_COUNTERS`,
    /// which the engine's kernel holds to it).
    pub const MAX_SHARED_TOTAL_TASKS: u32 = shared_total::COUNTERS as u32;
    pub const MAX_SHARED_TOTAL_NUMBERS: u64 = shared_total::NUMBERS.max;
    pub const MAX_SHARED_TOTAL_REPETITIONS: u32 = shared_total::REPETITIONS.max as u32;

    pub const MAX_SPIN_UNITS: u32 = demo::UNITS.max as u32;

    /// Both chapters that search documents (document search, CPU versus IO).
    pub const MAX_DOCSEARCH_TASKS: u32 = largest(&[docsearch::TASKS, cpu_vs_io::TASKS]) as u32;
    pub const MAX_DOCUMENTS: u32 = docsearch::DOCUMENTS.max as u32;
    pub const MAX_LATENCY_US: u32 = docsearch::LATENCY_MS.max as u32 * 1_000;
    pub const MAX_DOCSEARCH_REPETITIONS: u32 = largest(&[docsearch::REPETITIONS, cpu_vs_io::REPETITIONS]) as u32;

    pub const MAX_SORT_TASKS: u32 = sort::TASKS.max as u32;
    pub const MAX_SORT_NUMBERS: u32 = sort::NUMBERS.max as u32;
    pub const MAX_SORT_REPETITIONS: u32 = sort::REPETITIONS.max as u32;

    pub const MAX_SCENARIO_WORKERS: u32 = go_scheduler::MAX_WORKERS as u32;
    pub const MAX_SCENARIO_TASKS: u32 = go_scheduler::TASKS.max as u32;

    /// The tasks control and the task-count sweep.
    pub const MAX_GRANULARITY_TASKS: u32 =
        largest(&[task_granularity::TASKS, task_granularity::COUNT_SWEEP_UP_TO]) as u32;
    /// The largest task size the granularity chart measures.
    pub const MAX_SQRT: u32 = {
        let (mut largest, mut i) = (0, 0);
        while i < task_granularity::SQRT_COUNTS.len() {
            if task_granularity::SQRT_COUNTS[i] > largest {
                largest = task_granularity::SQRT_COUNTS[i];
            }
            i += 1;
        }
        largest
    };
    pub const MAX_GRANULARITY_REPETITIONS: u32 = task_granularity::REPETITIONS.max as u32;
    pub const MAX_PARKED_TASKS: u32 = task_memory::PARKED.max as u32;
    pub const MAX_ROUND_TRIPS: u32 = task_switch::ROUND_TRIPS.max as u32;
    pub const MAX_SWITCH_REPETITIONS: u32 = task_switch::REPETITIONS.max as u32;

    pub const MAX_HASHES: u32 = hashing::HASHES.max as u32;
    pub const MAX_GENERATED_BYTES: u64 = hashing::SIZE_MB.max << 20;
    /// A file the reader picked may be of any size a browser reports exactly (2^53 bytes): the
    /// work is the real file's, read one slice at a time and never held whole.
    pub const MAX_FILE_BYTES: u64 = 1 << 53;
    pub const MIN_SLICE_BYTES: u32 = 4 << 10;
    /// The slice the hashing chapter reads at a time is the largest: a slice is held in memory.
    pub const MAX_SLICE_BYTES: u32 = hashing::SLICE_BYTES;
    pub const MAX_HASH_REPETITIONS: u32 = hashing::REPETITIONS.max as u32;

    pub const MAX_REQUESTS: u32 = qps::REQUESTS.max as u32;
    pub const MAX_CONCURRENCY: u32 = qps::CONCURRENCY.max as u32;
    pub const MAX_WORK_US: u32 = qps::WORK_US.max as u32;
    pub const MAX_WAIT_US: u32 = qps::WAIT_MS.max as u32 * 1_000;
    pub const MAX_QPS_REPETITIONS: u32 = qps::REPETITIONS.max as u32;
}

impl Job {
    /// Without shared memory, the bytes of a sum's numbers in flight to its message workers at
    /// once: one task's share (4 bytes a number) for each worker that can be busy. 0 for other
    /// work (hashing has its own bound on the copies of a slice).
    pub fn message_copies_bytes(&self) -> u64 {
        match self.workload {
            Workload::Sum { numbers, .. } if self.variant == Variant::ThreadPool => {
                let tasks = u64::from(self.tasks.max(1));
                u64::from(self.workers.max(1)).min(tasks) * numbers.div_ceil(tasks) * 4
            }
            _ => 0,
        }
    }

    /// `Err` with a plain-words reason when the job is outside the engine's limits ([`limits`]: the
    /// chapters' own).
    pub fn validate(&self) -> Result<(), String> {
        use limits::*;
        let within = |what: &str, value: u64, min: u64, max: u64| {
            if (min..=max).contains(&value) {
                Ok(())
            } else {
                Err(format!("{what} must be between {min} and {max}, not {value}"))
            }
        };
        let tasks = |max: u32| within("tasks", self.tasks.into(), 1, max.into());
        let repetitions = |max: u32| within("repetitions", self.repetitions.into(), 1, max.into());
        within("workers", self.workers.into(), 1, MAX_WORKERS.into())?;
        repetitions(MAX_REPETITIONS)?;
        match &self.workload {
            Workload::Sum { numbers, .. } => {
                tasks(MAX_SUM_TASKS)?;
                repetitions(MAX_SUM_REPETITIONS)?;
                within("numbers", *numbers, 1, MAX_SUM_NUMBERS)
            }
            Workload::SharedTotal { numbers, .. } => {
                tasks(MAX_SHARED_TOTAL_TASKS)?;
                repetitions(MAX_SHARED_TOTAL_REPETITIONS)?;
                within("numbers", *numbers, 1, MAX_SHARED_TOTAL_NUMBERS)
            }
            Workload::Spin { units } => {
                tasks(MAX_SPIN_TASKS)?;
                within("work units", (*units).into(), 0, MAX_SPIN_UNITS.into())
            }
            Workload::DocSearch { documents, latency_us, .. } => {
                tasks(MAX_DOCSEARCH_TASKS)?;
                repetitions(MAX_DOCSEARCH_REPETITIONS)?;
                within("documents", (*documents).into(), 1, MAX_DOCUMENTS.into())?;
                within("read latency (µs)", (*latency_us).into(), 0, MAX_LATENCY_US.into())
            }
            Workload::Scenario { .. } => {
                if self.variant != Variant::Goroutines {
                    return Err("scheduler scenarios run on the task runtime".into());
                }
                within("scenario workers", self.workers.into(), 1, MAX_SCENARIO_WORKERS.into())?;
                within("scenario tasks", self.tasks.into(), 1, MAX_SCENARIO_TASKS.into())
            }
            Workload::Granularity { sqrt } => {
                tasks(MAX_GRANULARITY_TASKS)?;
                repetitions(MAX_GRANULARITY_REPETITIONS)?;
                within("square roots per task", (*sqrt).into(), 1, MAX_SQRT.into())
            }
            Workload::Hash { source, slice_bytes } => {
                within("hashes", self.tasks.into(), 1, MAX_HASHES.into())?;
                repetitions(MAX_HASH_REPETITIONS)?;
                within("slice bytes", (*slice_bytes).into(), MIN_SLICE_BYTES.into(), MAX_SLICE_BYTES.into())?;
                if self.variant == Variant::Goroutines {
                    return Err("hashing runs on thread pools".into());
                }
                match source {
                    HashSource::Generated { bytes, .. } => within("bytes to hash", *bytes, 1, MAX_GENERATED_BYTES),
                    HashSource::File { bytes: 0, .. } => Err("the file is empty: there is nothing to hash".into()),
                    HashSource::File { bytes, .. } => within("bytes of the file", *bytes, 1, MAX_FILE_BYTES),
                }
            }
            Workload::Qps { requests, concurrency, work_us, wait_us } => {
                if self.variant == Variant::Sequential {
                    return Err("a server needs a thread pool or the task runtime".into());
                }
                tasks(MAX_TASKS)?;
                repetitions(MAX_QPS_REPETITIONS)?;
                within("requests", (*requests).into(), 1, MAX_REQUESTS.into())?;
                within("concurrency", (*concurrency).into(), 1, MAX_CONCURRENCY.into())?;
                within("CPU work per request (µs)", (*work_us).into(), 0, MAX_WORK_US.into())?;
                within("wait per request (µs)", (*wait_us).into(), 0, MAX_WAIT_US.into())
            }
            Workload::TaskMemory => {
                if self.variant != Variant::Goroutines {
                    return Err("task memory is measured on the task runtime".into());
                }
                within("parked tasks", self.tasks.into(), 1, MAX_PARKED_TASKS.into())
            }
            Workload::PingPong { round_trips } => {
                if self.variant == Variant::Sequential {
                    return Err("a ping-pong needs two threads or two tasks".into());
                }
                if self.variant == Variant::ThreadPool && self.workers < 2 {
                    return Err("a ping-pong between threads needs two workers".into());
                }
                tasks(MAX_TASKS)?;
                repetitions(MAX_SWITCH_REPETITIONS)?;
                within("round trips", (*round_trips).into(), 1, MAX_ROUND_TRIPS.into())
            }
            Workload::Sort { numbers, .. } => {
                if self.variant == Variant::Goroutines {
                    return Err("sorting runs on thread pools, not on the task runtime".into());
                }
                tasks(MAX_SORT_TASKS)?;
                repetitions(MAX_SORT_REPETITIONS)?;
                within("numbers to sort", (*numbers).into(), 1, MAX_SORT_NUMBERS.into())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_without_shared_memory_copies_one_share_per_busy_worker_and_the_largest_cases_exceed_the_bound() {
        let sum = |workers, tasks, numbers| Job {
            workload: Workload::Sum { numbers, seed: 1 },
            variant: Variant::ThreadPool,
            workers,
            tasks,
            repetitions: 1,
        };
        // 10 million numbers in 8 tasks on 2 workers: two shares of 1.25 million numbers in flight.
        assert_eq!(sum(2, 8, 10_000_000).message_copies_bytes(), 2 * 1_250_000 * 4);
        // More workers than tasks: only the tasks' workers are busy.
        assert_eq!(sum(16, 2, 10_000_000).message_copies_bytes(), 2 * 5_000_000 * 4);
        let bound = limits::MAX_MESSAGE_COPIES_BYTES;
        assert!(sum(2, 8, 10_000_000).message_copies_bytes() <= bound, "the chapter's defaults run");
        assert!(sum(2, 2, 20_000_000).message_copies_bytes() <= bound, "the embed tests' preset runs");
        assert!(sum(2, 1, 50_000_000).message_copies_bytes() > bound, "200 MB in one message is refused");
        assert!(sum(8, 8, 50_000_000).message_copies_bytes() > bound);
        // The loop runs in the engine's own memory; other work has no such copies.
        assert_eq!(Job { variant: Variant::Sequential, ..sum(2, 1, 50_000_000) }.message_copies_bytes(), 0);
    }

    fn job(workers: u32, tasks: u32, numbers: u64) -> Job {
        Job {
            workload: Workload::Sum { numbers, seed: 1 },
            variant: Variant::ThreadPool,
            workers,
            tasks,
            repetitions: 3,
        }
    }

    #[test]
    fn validation_accepts_sane_and_rejects_absurd_jobs() {
        assert!(job(2, 8, 10_000_000).validate().is_ok());
        assert!(job(0, 8, 1000).validate().unwrap_err().contains("workers"));
        assert!(job(2, 8, 10_000_000_000).validate().unwrap_err().contains("numbers"));
        assert!(job(2, 0, 1000).validate().is_err());
    }

    #[test]
    fn a_run_holds_between_one_and_the_most_jobs_and_every_one_valid() {
        let sane = job(2, 8, 1_000_000);
        assert!(validate_run(&vec![sane.clone(); limits::MAX_JOBS_PER_RUN]).is_ok());
        let too_many = validate_run(&vec![sane.clone(); limits::MAX_JOBS_PER_RUN + 1]).unwrap_err();
        assert!(too_many.contains("at most 64 jobs"), "{too_many}");
        assert!(validate_run(&[]).is_err());
        assert!(validate_run(&[sane, job(0, 8, 1000)]).unwrap_err().contains("workers"));
    }

    /// Workloads and sources are externally tagged (`e2e/bench.mjs` reads a workload's kind as its
    /// one key, or as the string a workload without fields is).
    #[test]
    fn workloads_are_externally_tagged() {
        let shape = |w: &Workload| serde_json::to_string(w).unwrap();
        assert_eq!(shape(&Workload::Sum { numbers: 10, seed: 1 }), r#"{"sum":{"numbers":10,"seed":1}}"#);
        assert_eq!(shape(&Workload::TaskMemory), r#""task_memory""#);
        let hash = Workload::Hash { source: HashSource::Generated { bytes: 4096, seed: 1 }, slice_bytes: 4096 };
        let text = r#"{"hash":{"source":{"generated":{"bytes":4096,"seed":1}},"slice_bytes":4096}}"#;
        assert_eq!(shape(&hash), text);
        assert_eq!(serde_json::from_str::<Workload>(text).unwrap(), hash);
        assert!(serde_json::from_str::<Workload>(r#"{"kind":"sum","numbers":10,"seed":1}"#).is_err());
    }

    #[test]
    fn effective_workers_is_min_of_workers_and_tasks() {
        assert_eq!(job(4, 2, 10).effective_workers(), 2);
        assert_eq!(job(2, 8, 10).effective_workers(), 2);
        let sequential = Job { variant: Variant::Sequential, ..job(8, 8, 10) };
        assert_eq!(sequential.effective_workers(), 1);
    }
}
