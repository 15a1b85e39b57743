//! High concurrency: a load test of a thread-pool server against a goroutine server whose
//! requests compute, then block.

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{workers_for, Experiment, ExperimentId, KnobReader, Machine, Mode, Query, Runs};
use crate::job::{Job, Variant, Workload};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const REQUESTS: ParamRange = ParamRange::new("requests", 10, 100_000, 500);

pub const CONCURRENCY: ParamRange = ParamRange::new("c", 1, 2_000, 50);

/// The blocking wait of each request, in milliseconds.
pub const WAIT_MS: ParamRange = ParamRange::new("wait", 0, 100, 10);

/// CPU work of each request, in microseconds.
pub const WORK_US: ParamRange = ParamRange::new("work", 0, 10_000, 100);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 10, 1);

/// T: threads of the thread-pool server.
pub fn pool_threads(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("threads", 1, max_workers(hardware_concurrency).max(64), 2)
}

/// k: workers of the goroutine server.
pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency), 2)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::Qps,
    chapter: "high-concurrency",
    quick: "requests=200&c=20&wait=10&work=50&threads=2&workers=2",
    // Both servers need blocking waits on shared memory: without it the panel explains why not.
    runs: Runs::Engine(&[Mode::Threads]),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::ThreadPool, Variant::Goroutines],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub requests: u32,
    pub concurrency: u32,
    pub wait_ms: u32,
    pub work_us: u32,
    /// Threads of the thread-pool server.
    pub threads: u32,
    /// Workers of the goroutine server.
    pub workers: u32,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (REQUESTS.key, self.requests.to_string()),
            (CONCURRENCY.key, self.concurrency.to_string()),
            (WAIT_MS.key, self.wait_ms.to_string()),
            (WORK_US.key, self.work_us.to_string()),
            (pool_threads(1).key, self.threads.to_string()),
            (workers(1).key, self.workers.to_string()),
            (REPETITIONS.key, self.repetitions.to_string()),
        ]
    }
}

/// The thread-pool server's thread range and the goroutine server's worker range on `machine`.
pub fn ranges(machine: Machine) -> (ParamRange, ParamRange) {
    (workers_for(pool_threads(machine.cores), machine.mode), workers_for(workers(machine.cores), machine.mode))
}

impl super::ExperimentSettings for Settings {
    const ID: ExperimentId = EXPERIMENT.id;

    fn read(r: &mut dyn KnobReader, machine: Machine) -> Self {
        read(r, machine)
    }

    fn query(&self) -> Query {
        Settings::query(self)
    }
}

/// The knobs, in the panel's order.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    let (threads, workers) = ranges(machine);
    Settings {
        requests: r.value(&REQUESTS) as u32,
        concurrency: r.value(&CONCURRENCY) as u32,
        wait_ms: r.value(&WAIT_MS) as u32,
        work_us: r.value(&WORK_US) as u32,
        threads: r.value(&threads) as u32,
        workers: r.value(&workers) as u32,
        repetitions: r.value(&REPETITIONS) as u32,
    }
}

/// One server (`Variant::ThreadPool`: a thread pool; `Variant::Goroutines`: goroutines) on `workers`
/// workers under the settings' load.
pub fn job(s: &Settings, variant: Variant, workers: u32) -> Job {
    let workload = Workload::Qps {
        requests: s.requests,
        concurrency: s.concurrency,
        work_us: s.work_us,
        wait_us: s.wait_ms.saturating_mul(1000),
    };
    Job { workload, variant, workers, tasks: 1, repetitions: s.repetitions }
}

/// Run: the thread-pool server, then the goroutine server, under the same load.
pub fn run_jobs(s: &Settings) -> Vec<Job> {
    vec![job(s, Variant::ThreadPool, s.threads), job(s, Variant::Goroutines, s.workers)]
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    if !EXPERIMENT.runs_in(machine.mode) {
        return Vec::new();
    }
    vec![run_jobs(&read(r, machine))]
}

/// `lab qps`: for each worker count, a thread-pool server and a goroutine server under one load.
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "qps",
    about: "Load-test a server whose requests compute, then block: a thread pool versus goroutines.",
    options: &[
        LabOption {
            flag: "workers",
            help: "Worker counts to measure, comma-separated: threads of the pool, and workers under the goroutines.",
            value: LabValue::Counts("2"),
        },
        LabOption { flag: "requests", help: "Requests per load test.", value: LabValue::Count(REQUESTS.default) },
        LabOption {
            flag: "concurrency",
            help: "Requests in flight at once (the load generator's connections).",
            value: LabValue::Count(CONCURRENCY.default),
        },
        LabOption {
            flag: "work-us",
            help: "CPU work per request, in microseconds.",
            value: LabValue::Count(WORK_US.default),
        },
        LabOption {
            flag: "wait-ms",
            help: "Blocking wait per request (a database or disk), in milliseconds.",
            value: LabValue::Count(WAIT_MS.default),
        },
        LabOption { flag: "reps", help: "Timed repetitions of each job.", value: LabValue::Count(REPETITIONS.default) },
    ],
    plan: lab_plan,
};

#[cfg(feature = "lab")]
fn lab_plan(args: &super::lab::LabArgs) -> Result<Vec<super::lab::Benchmark>, String> {
    use super::lab::Benchmark;
    let settings = Settings {
        requests: args.count32("requests")?,
        concurrency: args.count32("concurrency")?,
        wait_ms: args.count32("wait-ms")?,
        work_us: args.count32("work-us")?,
        threads: 1,
        workers: 1,
        repetitions: args.count32("reps")?,
    };
    let suffix = format!("c={}/wait={}ms/work={}us", settings.concurrency, settings.wait_ms, settings.work_us);
    let mut jobs = Vec::new();
    for workers in args.distinct32("workers")? {
        jobs.push(Benchmark::new(
            format!("BenchmarkQPS/thread-pool/threads={workers}/{suffix}"),
            job(&settings, Variant::ThreadPool, workers),
        ));
        jobs.push(Benchmark::new(
            format!("BenchmarkQPS/goroutines/workers={workers}/{suffix}"),
            job(&settings, Variant::Goroutines, workers),
        ));
    }
    Ok(jobs)
}
