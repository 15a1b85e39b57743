//! The engine's job limits are the chapters' limits (each experiment's knobs in its `experiments::catalog` module), one source of truth:
//! every job a panel can build from any setting its controls or a preset URL allow passes
//! `Job::validate`, and any value beyond what the page itself offers is refused with a reason.

mod chapters;

use chapters::{assert_all_valid, panel, Knob, Machine, Mode, PANELS, SWEEP_MAX_TASKS};
use experiments::catalog::{self, Runs};
use experiments::catalog::{
    bubble_sort as sort, cpu_vs_io, demo, document_search as docsearch, go_scheduler, hashing, qps, sum,
    task_granularity, task_memory, task_switch,
};
use experiments::params::{max_workers, ParamRange};
use experiments::{HashSource, Job, ScenarioKind, SortAlgorithm, Variant, Workload, DEFAULT_SEED};
use proptest::prelude::*;
use proptest::test_runner::RngAlgorithm;

/// Machines from the smallest to one larger than any browser reports.
const CORES: [u32; 9] = [1, 2, 4, 8, 12, 16, 64, 1_000, u32::MAX];
/// Sizes of a file the reader may pick: one byte to the largest a browser reports exactly.
const FILE_BYTES: [u64; 5] = [1, 1 << 20, (4 << 30) + 1, 1 << 40, 1 << 53];

/// Every run `name` can start on every machine and in both modes, with every knob at
/// `value(range)` and every word knob at each of its options; all must validate.
fn check_preset(name: &str, value: fn(&ParamRange) -> u64) {
    for cores in CORES {
        for mode in [Mode::Threads, Mode::SingleWorker] {
            let machine = Machine { cores, mode };
            for option in 0..3 {
                for file_bytes in FILE_BYTES {
                    let mut source = |knob: &Knob| match knob {
                        Knob::Range(range) => Some(value(range).to_string()),
                        Knob::Choice { options, .. } => Some(options[option % options.len()].to_string()),
                    };
                    let (settings, runs) = panel(name, machine, &mut source, file_bytes);
                    assert_eq!(settings.notes, vec![], "{name}: in-range values need no note");
                    // A page-side model sends no jobs; an experiment the mode cannot run sends none there.
                    let experiment = catalog::find(name).expect("a catalog name");
                    let builds_jobs = matches!(experiment.runs, Runs::Engine(modes) if modes.contains(&mode));
                    assert_eq!(!runs.is_empty(), builds_jobs, "{name} on {machine:?}");
                    assert_all_valid(name, machine, &runs);
                }
            }
        }
    }
}

/// Every panel of the catalog: the heaviest preset a URL can ask for, the lightest, and the defaults.
#[test]
fn every_preset_validates() {
    for name in PANELS {
        check_preset(name, |range| range.max);
        check_preset(name, |range| range.min);
        check_preset(name, |range| range.default);
    }
}

#[test]
fn every_catalog_experiment_builds_valid_jobs_from_its_defaults() {
    assert_eq!(PANELS.len(), experiments::catalog::CATALOG.len());
    assert!(PANELS.iter().all(|name| !name.is_empty()));
    for name in PANELS {
        check_preset(name, |range| range.default);
    }
}

// ---------------------------------------------------------------------------------------------
// Beyond the chapters' limits.

/// The most workers any control offers, on any machine.
fn workers_cap() -> u64 {
    max_workers(u32::MAX)
}

fn largest(ranges: &[ParamRange]) -> u64 {
    ranges.iter().map(|r| r.max).max().unwrap()
}

/// The largest task control (or sweep) of the chapters whose tasks share out one piece of work.
fn task_cap() -> u64 {
    largest(&[sum::TASKS, docsearch::TASKS, cpu_vs_io::TASKS, sort::TASKS, demo::TASKS, go_scheduler::TASKS])
        .max(SWEEP_MAX_TASKS.into())
}

/// The largest repetitions control.
fn repetitions_cap() -> u64 {
    largest(&[
        sum::REPETITIONS,
        docsearch::REPETITIONS,
        cpu_vs_io::REPETITIONS,
        sort::REPETITIONS,
        task_granularity::REPETITIONS,
        task_switch::REPETITIONS,
        hashing::REPETITIONS,
        qps::REPETITIONS,
    ])
}

fn u32_of(value: u64) -> u32 {
    u32::try_from(value).expect("a u32 limit")
}

/// A job with every knob of its workload at the chapter's maximum (each one valid).
fn heaviest(workload: &str) -> Job {
    let job = |workload, variant, workers: u64, tasks: u64, repetitions: u64| Job {
        workload,
        variant,
        workers: u32_of(workers),
        tasks: u32_of(tasks),
        repetitions: u32_of(repetitions),
    };
    match workload {
        "sum" => job(
            Workload::Sum { numbers: sum::NUMBERS.max, seed: DEFAULT_SEED },
            Variant::ThreadPool,
            workers_cap(),
            sum::TASKS.max,
            sum::REPETITIONS.max,
        ),
        "spin" => job(
            Workload::Spin { units: u32_of(demo::UNITS.max) },
            Variant::ThreadPool,
            workers_cap(),
            // The demo's task control: spin work is no one else's (issue 34: the engine took 64).
            demo::TASKS.max,
            repetitions_cap(),
        ),
        "docsearch" => job(
            Workload::DocSearch {
                documents: u32_of(docsearch::DOCUMENTS.max),
                latency_us: u32_of(docsearch::LATENCY_MS.max * 1000),
                seed: DEFAULT_SEED,
            },
            Variant::Goroutines,
            workers_cap(),
            SWEEP_MAX_TASKS.into(),
            docsearch::REPETITIONS.max.max(cpu_vs_io::REPETITIONS.max),
        ),
        "sort" => job(
            Workload::Sort { numbers: u32_of(sort::NUMBERS.max), seed: DEFAULT_SEED, algorithm: SortAlgorithm::Merge },
            Variant::ThreadPool,
            workers_cap(),
            sort::TASKS.max,
            sort::REPETITIONS.max,
        ),
        "scenario" => job(
            Workload::Scenario { scenario: ScenarioKind::ManyTasks },
            Variant::Goroutines,
            go_scheduler::workers(u32::MAX).max,
            go_scheduler::TASKS.max,
            1,
        ),
        "granularity" => job(
            Workload::Granularity { sqrt: *task_granularity::SQRT_COUNTS.iter().max().unwrap() },
            Variant::Goroutines,
            task_granularity::workers(u32::MAX).max,
            task_granularity::TASKS.max,
            task_granularity::REPETITIONS.max,
        ),
        "task_memory" => job(Workload::TaskMemory, Variant::Goroutines, 1, task_memory::PARKED.max, 3),
        "ping_pong" => job(
            Workload::PingPong { round_trips: u32_of(task_switch::ROUND_TRIPS.max) },
            Variant::ThreadPool,
            2,
            2,
            task_switch::REPETITIONS.max,
        ),
        "hash" => job(
            Workload::Hash {
                source: HashSource::Generated { bytes: hashing::SIZE_MB.max << 20, seed: DEFAULT_SEED },
                slice_bytes: hashing::SLICE_BYTES,
            },
            Variant::ThreadPool,
            hashing::workers(u32::MAX).max,
            hashing::HASHES.max,
            hashing::REPETITIONS.max,
        ),
        "qps" => job(
            Workload::Qps {
                requests: u32_of(qps::REQUESTS.max),
                concurrency: u32_of(qps::CONCURRENCY.max),
                work_us: u32_of(qps::WORK_US.max),
                wait_us: u32_of(qps::WAIT_MS.max * 1000),
            },
            Variant::ThreadPool,
            qps::pool_threads(u32::MAX).max,
            1,
            qps::REPETITIONS.max,
        ),
        other => panic!("no workload {other}"),
    }
}

/// One limit: the words the refusal must contain, the largest allowed value (a chapter's), the
/// workload whose heaviest job it changes, and how.
struct Limit {
    what: &'static str,
    max: u64,
    workload: &'static str,
    set: fn(&mut Job, u64),
}

fn set_workers(job: &mut Job, v: u64) {
    job.workers = u32::try_from(v).unwrap_or(u32::MAX);
}
fn set_tasks(job: &mut Job, v: u64) {
    job.tasks = u32::try_from(v).unwrap_or(u32::MAX);
}
fn set_repetitions(job: &mut Job, v: u64) {
    job.repetitions = u32::try_from(v).unwrap_or(u32::MAX);
}
fn small(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn limits() -> Vec<Limit> {
    let mut all = Vec::new();
    // Workers, tasks and repetitions of every workload.
    for workload in ["sum", "spin", "docsearch", "sort", "granularity", "hash", "qps", "task_memory", "ping_pong"] {
        all.push(Limit { what: "workers", max: workers_cap(), workload, set: set_workers });
    }
    all.push(Limit {
        what: "workers",
        max: go_scheduler::workers(u32::MAX).max,
        workload: "scenario",
        set: set_workers,
    });
    for (workload, max) in [
        ("sum", sum::TASKS.max),
        ("spin", demo::TASKS.max),
        ("docsearch", docsearch::TASKS.max.max(cpu_vs_io::TASKS.max).max(SWEEP_MAX_TASKS.into())),
        ("sort", sort::TASKS.max),
        ("granularity", task_granularity::TASKS.max.max(task_granularity::COUNT_SWEEP_UP_TO.max)),
        ("qps", task_cap()),
        ("ping_pong", task_cap()),
    ] {
        all.push(Limit { what: "tasks", max, workload, set: set_tasks });
    }
    all.push(Limit { what: "scenario tasks", max: go_scheduler::TASKS.max, workload: "scenario", set: set_tasks });
    all.push(Limit { what: "parked tasks", max: task_memory::PARKED.max, workload: "task_memory", set: set_tasks });
    all.push(Limit { what: "hashes", max: hashing::HASHES.max, workload: "hash", set: set_tasks });
    for (workload, max) in [
        ("sum", sum::REPETITIONS.max),
        ("spin", repetitions_cap()),
        ("docsearch", docsearch::REPETITIONS.max.max(cpu_vs_io::REPETITIONS.max)),
        ("sort", sort::REPETITIONS.max),
        ("granularity", task_granularity::REPETITIONS.max),
        ("ping_pong", task_switch::REPETITIONS.max),
        ("hash", hashing::REPETITIONS.max),
        ("qps", qps::REPETITIONS.max),
        ("scenario", repetitions_cap()),
        ("task_memory", repetitions_cap()),
    ] {
        all.push(Limit { what: "repetitions", max, workload, set: set_repetitions });
    }
    // Each workload's own sizes.
    all.extend([
        Limit {
            what: "numbers",
            max: sum::NUMBERS.max,
            workload: "sum",
            set: |job, v| job.workload = Workload::Sum { numbers: v, seed: DEFAULT_SEED },
        },
        Limit {
            what: "work units",
            max: demo::UNITS.max,
            workload: "spin",
            set: |job, v| job.workload = Workload::Spin { units: small(v) },
        },
        Limit {
            what: "documents",
            max: docsearch::DOCUMENTS.max,
            workload: "docsearch",
            set: |job, v| {
                if let Workload::DocSearch { documents, .. } = &mut job.workload {
                    *documents = small(v)
                }
            },
        },
        Limit {
            what: "read latency",
            max: docsearch::LATENCY_MS.max * 1000,
            workload: "docsearch",
            set: |job, v| {
                if let Workload::DocSearch { latency_us, .. } = &mut job.workload {
                    *latency_us = small(v)
                }
            },
        },
        Limit {
            what: "numbers to sort",
            max: sort::NUMBERS.max,
            workload: "sort",
            set: |job, v| {
                if let Workload::Sort { numbers, .. } = &mut job.workload {
                    *numbers = small(v)
                }
            },
        },
        Limit {
            what: "square roots",
            max: (*task_granularity::SQRT_COUNTS.iter().max().unwrap()).into(),
            workload: "granularity",
            set: |job, v| job.workload = Workload::Granularity { sqrt: small(v) },
        },
        Limit {
            what: "round trips",
            max: task_switch::ROUND_TRIPS.max,
            workload: "ping_pong",
            set: |job, v| job.workload = Workload::PingPong { round_trips: small(v) },
        },
        Limit {
            what: "bytes to hash",
            max: hashing::SIZE_MB.max << 20,
            workload: "hash",
            set: |job, v| {
                if let Workload::Hash { source, .. } = &mut job.workload {
                    *source = HashSource::Generated { bytes: v, seed: DEFAULT_SEED }
                }
            },
        },
        Limit {
            what: "slice bytes",
            max: hashing::SLICE_BYTES.into(),
            workload: "hash",
            set: |job, v| {
                if let Workload::Hash { slice_bytes, .. } = &mut job.workload {
                    *slice_bytes = small(v)
                }
            },
        },
        Limit {
            what: "requests",
            max: qps::REQUESTS.max,
            workload: "qps",
            set: |job, v| {
                if let Workload::Qps { requests, .. } = &mut job.workload {
                    *requests = small(v)
                }
            },
        },
        Limit {
            what: "concurrency",
            max: qps::CONCURRENCY.max,
            workload: "qps",
            set: |job, v| {
                if let Workload::Qps { concurrency, .. } = &mut job.workload {
                    *concurrency = small(v)
                }
            },
        },
        Limit {
            what: "CPU work per request",
            max: qps::WORK_US.max,
            workload: "qps",
            set: |job, v| {
                if let Workload::Qps { work_us, .. } = &mut job.workload {
                    *work_us = small(v)
                }
            },
        },
        Limit {
            what: "wait per request",
            max: qps::WAIT_MS.max * 1000,
            workload: "qps",
            set: |job, v| {
                if let Workload::Qps { wait_us, .. } = &mut job.workload {
                    *wait_us = small(v)
                }
            },
        },
    ]);
    all
}

#[test]
fn every_heaviest_job_is_valid_and_each_limit_is_exact() {
    for limit in limits() {
        let mut job = heaviest(limit.workload);
        (limit.set)(&mut job, limit.max);
        assert_eq!(job.validate(), Ok(()), "{} at its maximum {}: {job:?}", limit.what, limit.max);
        (limit.set)(&mut job, limit.max + 1);
        let refused = job.validate().expect_err(&format!("{} of {} is refused: {job:?}", limit.what, limit.max + 1));
        assert!(refused.contains(limit.what), "{refused}");
        assert!(refused.contains(&limit.max.to_string()), "the refusal says the limit: {refused}");
    }
}

#[test]
fn what_the_engine_accepted_before_is_refused_now() {
    // Finding 7 of issue 13: a million tasks, 200 million numbers, 1,000 repetitions, and a span
    // per task as long as 200 million numbers in one task.
    let sum = heaviest("sum");
    for job in [
        Job { tasks: 1_000_000, ..sum.clone() },
        Job { workload: Workload::Sum { numbers: 200_000_000, seed: 1 }, tasks: 1, ..sum.clone() },
        Job { repetitions: 1_000, ..sum.clone() },
        Job { workload: Workload::Spin { units: 10_000_000 }, ..heaviest("spin") },
        Job { tasks: 1_000_000, ..heaviest("granularity") },
        Job { workload: Workload::Granularity { sqrt: 100_000 }, ..heaviest("granularity") },
        Job { tasks: 200, ..heaviest("scenario") },
        Job { workload: Workload::PingPong { round_trips: 10_000_000 }, ..heaviest("ping_pong") },
        Job {
            workload: Workload::Qps {
                requests: 1_000_000,
                concurrency: 10_000,
                work_us: 1_000_000,
                wait_us: 10_000_000,
            },
            ..heaviest("qps")
        },
        Job { tasks: 256, ..heaviest("hash") },
        Job {
            workload: Workload::Hash {
                source: HashSource::Generated { bytes: 1 << 40, seed: 1 },
                slice_bytes: hashing::SLICE_BYTES,
            },
            ..heaviest("hash")
        },
    ] {
        assert!(job.validate().is_err(), "beyond every chapter's limits, yet accepted: {job:?}");
    }
}

#[test]
fn nothing_is_refused_for_being_small_but_zero_is() {
    // Below the controls' minimums is harmless (the engine's tests and `lab` run small jobs)...
    let tiny = Job {
        workload: Workload::Sum { numbers: 1, seed: 1 },
        variant: Variant::ThreadPool,
        workers: 1,
        tasks: 1,
        repetitions: 1,
    };
    assert_eq!(tiny.validate(), Ok(()));
    // ...but nothing at all is not a job.
    for (what, job) in [
        ("workers", Job { workers: 0, ..heaviest("sum") }),
        ("tasks", Job { tasks: 0, ..heaviest("sum") }),
        ("repetitions", Job { repetitions: 0, ..heaviest("qps") }),
        ("numbers", Job { workload: Workload::Sum { numbers: 0, seed: 1 }, ..heaviest("sum") }),
        ("hashes", Job { tasks: 0, ..heaviest("hash") }),
        ("parked tasks", Job { tasks: 0, ..heaviest("task_memory") }),
        ("scenario tasks", Job { tasks: 0, ..heaviest("scenario") }),
    ] {
        assert!(job.validate().unwrap_err().contains(what), "{what}: {job:?}");
    }
    let empty_file = Job {
        workload: Workload::Hash { source: HashSource::File { name: "empty".into(), bytes: 0 }, slice_bytes: 4 << 20 },
        ..heaviest("hash")
    };
    assert!(empty_file.validate().unwrap_err().contains("empty"));
}

// ---------------------------------------------------------------------------------------------
// Properties.

/// Where in its range a knob is set.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Min,
    Max,
    Default,
    Any(u64),
}

impl Pick {
    fn of(self, range: &ParamRange) -> u64 {
        match self {
            Pick::Min => range.min,
            Pick::Max => range.max,
            Pick::Default => range.default,
            Pick::Any(x) => range.min + x % (range.max - range.min + 1),
        }
    }
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![Just(Pick::Min), Just(Pick::Max), Just(Pick::Default), any::<u64>().prop_map(Pick::Any)]
}

fn cores() -> impl Strategy<Value = u32> {
    prop_oneof![1u32..=16, 1u32..=4_096, Just(u32::MAX)]
}

proptest! {
    // XorShift: the default ChaCha generator takes most of the time of a debug build.
    #![proptest_config(ProptestConfig { rng_algorithm: RngAlgorithm::XorShift, ..ProptestConfig::with_cases(10_000) })]

    /// Any setting the controls allow, on any machine, in either mode, builds only jobs the engine
    /// accepts (with a picked file of any size).
    #[test]
    fn any_in_range_setting_builds_jobs_the_engine_accepts(
        name in prop::sample::select(PANELS.to_vec()),
        cores in cores(),
        threads in any::<bool>(),
        picks in prop::collection::vec(pick(), 8),
        option in any::<usize>(),
        file_bytes in prop_oneof![1u64..=1 << 30, 1u64..=1 << 53],
    ) {
        let machine = Machine { cores, mode: if threads { Mode::Threads } else { Mode::SingleWorker } };
        let mut next = 0;
        let mut source = |knob: &Knob| {
            next += 1;
            Some(match knob {
                Knob::Range(range) => picks[next % picks.len()].of(range).to_string(),
                Knob::Choice { options, .. } => options[option % options.len()].to_string(),
            })
        };
        let (settings, runs) = panel(name, machine, &mut source, file_bytes);
        prop_assert!(settings.notes.is_empty(), "{:?}", settings.notes);
        assert_all_valid(name, machine, &runs);
    }

    /// Any value beyond a chapter's limit is refused, with a reason that names the knob.
    #[test]
    fn any_value_beyond_a_chapters_limit_is_refused(
        index in any::<prop::sample::Index>(),
        excess in prop_oneof![1u64..=10, 1u64..=u32::MAX as u64],
    ) {
        let all = limits();
        let limit = &all[index.index(all.len())];
        let mut job = heaviest(limit.workload);
        let value = limit.max.saturating_add(excess);
        (limit.set)(&mut job, value);
        match job.validate() {
            Ok(()) => prop_assert!(false, "{} = {value} (limit {}) accepted: {job:?}", limit.what, limit.max),
            Err(reason) => prop_assert!(reason.contains(limit.what), "{reason}"),
        }
    }
}
