//! A native model of the chapters' experiment panels, for the property tests: which URL keys each
//! panel reads and how (the same `experiments::params` calls, in the same order, as the panels in
//! `crates/app/src/experiments/*.rs`), and every job its buttons can build from those settings.
//!
//! The app is a wasm-only crate whose builders are private to its components, so they are mirrored
//! here; each arm of [`panel`] names the app code it follows. Keep them in step: a panel that builds
//! a new kind of job belongs here too.

#![allow(dead_code)] // Each test file uses a different part of the model.

use experiments::params::{
    self, cpu_vs_io, demo, docsearch, go_scheduler, hashing, os_scheduler, qps, read_choice, read_param, sort, sum,
    task_cost, ClampNote, ClampReason, ParamRange,
};
use experiments::{HashSource, Job, ScenarioKind, SortAlgorithm, Variant, Workload, DEFAULT_SEED};

/// Every panel a chapter or an embed (`/embed/experiments/<name>`) can show, by its name
/// (`crates/app/src/experiments/mod.rs`).
pub const PANELS: [&str; 12] = [
    "demo",
    "sum",
    "bubble-sort",
    "task-granularity",
    "task-memory",
    "task-switch",
    "hashing",
    "qps",
    "os-scheduler",
    "go-scheduler",
    "cpu-vs-io",
    "document-search",
];

/// How the page runs its engine (`engine_client::Mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Threads,
    SingleWorker,
}

/// The reader's machine: logical processors and the engine's mode.
#[derive(Clone, Copy, Debug)]
pub struct Machine {
    pub cores: u32,
    pub mode: Mode,
}

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

    /// `Preset::value`: the knob's value, checked against its range and its note.
    pub fn value(&mut self, range: ParamRange) -> u64 {
        let raw = (self.source)(&Knob::Range(&range));
        let before = self.settings.notes.len();
        let value = read_param(&range, raw.as_deref(), &mut self.settings.notes);
        check_param(&range, raw.as_deref(), value, &self.settings.notes[before..]);
        self.settings.values.push((range, value));
        value
    }

    /// `Preset::choice`: one of `options`, checked against its note.
    pub fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
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

/// `panel::workers_for`: exactly one worker when memory cannot be shared.
pub fn workers_for(range: ParamRange, mode: Mode) -> ParamRange {
    match mode {
        Mode::Threads => range,
        Mode::SingleWorker => ParamRange { min: 1, max: 1, default: 1, ..range },
    }
}

/// `sum::sweep_counts`: 1, 2, 4, … up to `max`, and `max` itself.
pub fn sweep_counts(max: u32) -> Vec<u32> {
    let mut counts: Vec<u32> =
        std::iter::successors(Some(1u32), |k| k.checked_mul(2)).take_while(|&k| k <= max).collect();
    if counts.last() != Some(&max) {
        counts.push(max);
    }
    counts
}

/// The task counts of the document-search and CPU-versus-IO sweeps (`SWEEP_MAX_TASKS` there).
pub const SWEEP_MAX_TASKS: u32 = 64;
const MB: u64 = 1 << 20;
/// `task_costs::WEIGHED_WORKERS`.
const WEIGHED_WORKERS: u32 = 8;

/// The panel called `name` on `machine`: read its knobs from `source` as the panel does, then
/// build every run its buttons can start with those settings (each run a list of jobs). The hashing
/// panel hashes a picked file of `file_bytes` bytes when the reader switches to a file.
pub fn panel(
    name: &str,
    machine: Machine,
    source: &mut dyn FnMut(&Knob) -> Option<String>,
    file_bytes: u64,
) -> (Settings, Vec<Vec<Job>>) {
    let (cores, mode) = (machine.cores, machine.mode);
    let mut r = Reader::new(source);
    let mut runs: Vec<Vec<Job>> = Vec::new();
    match name {
        // demo.rs, DemoControls: message workers make every worker count real, so no `workers_for`.
        "demo" => {
            let k = r.value(demo::workers(cores)) as u32;
            let n = r.value(demo::TASKS) as u32;
            let units = r.value(demo::UNITS) as u32;
            let job = |workers| Job {
                workload: Workload::Spin { units },
                variant: Variant::Tasks,
                workers,
                tasks: n,
                repetitions: 3,
            };
            runs.push(vec![job(1), job(k)]);
        }
        // sum.rs, SumControls: Run, and Sweep over every worker count up to the slider's maximum.
        "sum" => {
            let limits = sum::workers(cores);
            let k = r.value(limits) as u32;
            let t = r.value(sum::TASKS) as u32;
            let n = r.value(sum::NUMBERS);
            let reps = r.value(sum::REPETITIONS) as u32;
            let job = |variant, workers, tasks| Job {
                workload: Workload::Sum { numbers: n, seed: DEFAULT_SEED },
                variant,
                workers,
                tasks,
                repetitions: reps,
            };
            runs.push(vec![job(Variant::Sequential, 1, 1), job(Variant::Tasks, k, t)]);
            let mut sweep = vec![job(Variant::Sequential, 1, 1)];
            sweep.extend(sweep_counts(limits.max as u32).into_iter().map(|k| job(Variant::Tasks, k, t)));
            runs.push(sweep);
        }
        // bubble_sort.rs, BubbleSortControls: Run, and Sweep of the three parallel sorts.
        "bubble-sort" => {
            let limits = workers_for(sort::workers(cores), mode);
            let k = r.value(limits) as u32;
            let n = r.value(sort::TASKS) as u32;
            let size = r.value(sort::NUMBERS) as u32;
            let reps = r.value(sort::REPETITIONS) as u32;
            let job = |algorithm, workers, tasks| Job {
                workload: Workload::Sort { numbers: size, seed: DEFAULT_SEED, algorithm },
                variant: if algorithm == SortAlgorithm::Bubble { Variant::Sequential } else { Variant::Tasks },
                workers,
                tasks,
                repetitions: reps,
            };
            let parallel = [SortAlgorithm::ChunkedBubble, SortAlgorithm::OddEven, SortAlgorithm::Merge];
            let mut run = vec![job(SortAlgorithm::Bubble, 1, 1)];
            run.extend(parallel.iter().map(|&a| job(a, k, n)));
            runs.push(run);
            let mut sweep = vec![job(SortAlgorithm::Bubble, 1, 1)];
            for &a in &parallel {
                sweep.extend(sweep_counts(limits.max as u32).into_iter().map(|k| job(a, k, n)));
            }
            runs.push(sweep);
        }
        // task_costs.rs, GranularityControls: every task size, as a loop, on a pool and as goroutines.
        "task-granularity" => {
            let parallel = mode == Mode::Threads;
            let k = if parallel { r.value(task_cost::workers(cores)) as u32 } else { 1 };
            let x = r.value(task_cost::TASKS) as u32;
            let reps = r.value(task_cost::REPETITIONS) as u32;
            let mut kinds = vec![(Variant::Tasks, 1), (Variant::Goroutines, 1)];
            if parallel {
                kinds.extend([(Variant::Tasks, k), (Variant::Goroutines, k)]);
            }
            let job = |variant, workers, sqrt| Job {
                workload: Workload::Granularity { sqrt },
                variant,
                workers,
                tasks: x,
                repetitions: reps,
            };
            let mut run = Vec::new();
            for &sqrt in &task_cost::SQRT_COUNTS {
                run.push(job(Variant::Sequential, 1, sqrt));
                run.extend(kinds.iter().map(|&(variant, workers)| job(variant, workers, sqrt)));
            }
            runs.push(run);
        }
        // task_costs.rs, TaskMemoryControls: parked tasks, then a pool of idle workers to weigh.
        "task-memory" => {
            let count = r.value(task_cost::PARKED) as u32;
            runs.push(vec![
                Job {
                    workload: Workload::TaskMemory,
                    variant: Variant::Goroutines,
                    workers: 1,
                    tasks: count,
                    repetitions: 3,
                },
                Job {
                    workload: Workload::Spin { units: 0 },
                    variant: Variant::Tasks,
                    workers: WEIGHED_WORKERS,
                    tasks: WEIGHED_WORKERS,
                    repetitions: 1,
                },
            ]);
        }
        // task_costs.rs, SwitchControls: two threads (with shared memory) and two goroutines.
        "task-switch" => {
            let n = r.value(task_cost::ROUND_TRIPS) as u32;
            let reps = r.value(task_cost::SWITCH_REPETITIONS) as u32;
            let ping = |variant, workers| Job {
                workload: Workload::PingPong { round_trips: n },
                variant,
                workers,
                tasks: 2,
                repetitions: reps,
            };
            let mut run = vec![ping(Variant::Goroutines, 1)];
            if mode == Mode::Threads {
                run.insert(0, ping(Variant::Tasks, 2));
            }
            runs.push(run);
        }
        // hashing.rs, HashingControls: Run and the article's worker counts, of generated data or a
        // picked file (the reader can switch the source after the page opened).
        "hashing" => {
            let limits = hashing::workers(cores);
            r.choice("source", &["generated", "file"], "generated");
            let size_mb = r.value(hashing::SIZE_MB);
            let hashes = r.value(hashing::HASHES) as u32;
            let k = r.value(limits) as u32;
            let reps = r.value(hashing::REPETITIONS) as u32;
            for source in [
                HashSource::Generated { bytes: size_mb * MB, seed: DEFAULT_SEED },
                HashSource::File { name: "picked.bin".into(), bytes: file_bytes },
            ] {
                let job = |variant, workers| Job {
                    workload: Workload::Hash { source: source.clone(), slice_bytes: hashing::SLICE_BYTES },
                    variant,
                    workers,
                    tasks: hashes,
                    repetitions: reps,
                };
                for counts in [vec![k], hashing::PRESET_WORKERS.to_vec()] {
                    let mut run = vec![job(Variant::Sequential, 1)];
                    run.extend(counts.into_iter().map(|k| job(Variant::Tasks, limits.clamp(k as u64) as u32)));
                    runs.push(run);
                }
            }
        }
        // qps.rs, QpsControls: only with shared memory (otherwise the panel shows a notice).
        "qps" => {
            if mode == Mode::Threads {
                let threads_limits = workers_for(qps::pool_threads(cores), mode);
                let workers_limits = workers_for(qps::workers(cores), mode);
                let n = r.value(qps::REQUESTS) as u32;
                let c = r.value(qps::CONCURRENCY) as u32;
                let wait_ms = r.value(qps::WAIT_MS) as u32;
                let work_us = r.value(qps::WORK_US) as u32;
                let pool = r.value(threads_limits) as u32;
                let k = r.value(workers_limits) as u32;
                let reps = r.value(qps::REPETITIONS) as u32;
                let workload = Workload::Qps { requests: n, concurrency: c, work_us, wait_us: wait_ms * 1000 };
                let job = |variant, workers| Job {
                    workload: workload.clone(),
                    variant,
                    workers,
                    tasks: 1,
                    repetitions: reps,
                };
                runs.push(vec![job(Variant::Tasks, pool), job(Variant::Goroutines, k)]);
            }
        }
        // os_scheduler.rs: a simulation the page runs itself; it sends the engine nothing.
        "os-scheduler" => {
            r.value(os_scheduler::THREADS);
            r.value(os_scheduler::CORES);
            r.value(os_scheduler::QUANTUM_MS);
            r.value(os_scheduler::SWITCH_US);
            r.value(os_scheduler::SEED);
            r.choice("mix", &os_scheduler::MIXES, "mixed");
        }
        // go_scheduler.rs, GoSchedulerControls: the scenario's defaults, then the URL's; choosing
        // another scenario resets workers and tasks to its defaults.
        "go-scheduler" => {
            static IDS: [&str; 4] = ["spawn-on-one", "io-mix", "many-tasks", "long-task"];
            assert_eq!(IDS.to_vec(), ScenarioKind::ALL.iter().map(|k| k.id()).collect::<Vec<_>>());
            let chosen = r.choice("scenario", &IDS, ScenarioKind::SpawnOnOne.id());
            let initial = ScenarioKind::ALL.into_iter().find(|k| k.id() == chosen).expect("a known scenario");
            let (default_workers, default_tasks) = initial.default_workers_and_tasks();
            let workers_limits =
                workers_for(ParamRange { default: default_workers as u64, ..go_scheduler::workers(cores) }, mode);
            let tasks_limits = ParamRange { default: default_tasks as u64, ..go_scheduler::TASKS };
            let k = r.value(workers_limits) as u32;
            let n = r.value(tasks_limits) as u32;
            r.value(go_scheduler::STEP);
            let job = |scenario, workers, tasks| Job {
                workload: Workload::Scenario { scenario },
                variant: Variant::Goroutines,
                workers,
                tasks,
                repetitions: 1,
            };
            for scenario in ScenarioKind::ALL {
                let (dk, dn) = scenario.default_workers_and_tasks();
                runs.push(vec![job(scenario, k, n)]);
                runs.push(vec![job(scenario, workers_limits.clamp(dk as u64) as u32, dn)]);
            }
        }
        // cpu_vs_io.rs, CpuVsIoControls: Run and the task sweep, for either kind of work.
        "cpu-vs-io" => {
            let limits = workers_for(cpu_vs_io::workers(cores), mode);
            r.choice("kind", &cpu_vs_io::KINDS, "io");
            let k = r.value(limits) as u32;
            let n = r.value(cpu_vs_io::TASKS) as u32;
            let reps = r.value(cpu_vs_io::REPETITIONS) as u32;
            for kind in cpu_vs_io::KINDS {
                let latency_us = if kind == "io" { cpu_vs_io::IO_LATENCY_US } else { 0 };
                let job = |variant, workers, tasks| Job {
                    workload: Workload::DocSearch { documents: cpu_vs_io::DOCUMENTS, latency_us, seed: DEFAULT_SEED },
                    variant,
                    workers,
                    tasks,
                    repetitions: reps,
                };
                runs.push(vec![job(Variant::Sequential, 1, 1), job(Variant::Goroutines, k, n)]);
                let mut sweep = vec![job(Variant::Sequential, 1, 1)];
                sweep.extend(sweep_counts(SWEEP_MAX_TASKS).into_iter().map(|n| job(Variant::Goroutines, k, n)));
                runs.push(sweep);
            }
        }
        // document_search.rs, DocumentSearchControls: Run, and the task sweep (one repetition each).
        "document-search" => {
            let limits = workers_for(docsearch::workers(cores), mode);
            let k = r.value(limits) as u32;
            let n = r.value(docsearch::TASKS) as u32;
            let d = r.value(docsearch::DOCUMENTS) as u32;
            let l = r.value(docsearch::LATENCY_MS) as u32;
            let reps = r.value(docsearch::REPETITIONS) as u32;
            let job = |variant, workers, tasks, repetitions| Job {
                workload: Workload::DocSearch { documents: d, latency_us: l * 1000, seed: DEFAULT_SEED },
                variant,
                workers,
                tasks,
                repetitions,
            };
            runs.push(vec![
                job(Variant::Sequential, 1, 1, reps),
                job(Variant::Tasks, k, n, reps),
                job(Variant::Goroutines, k, n, reps),
            ]);
            let mut sweep = vec![job(Variant::Sequential, 1, 1, 1)];
            for n in sweep_counts(SWEEP_MAX_TASKS) {
                sweep.push(job(Variant::Tasks, k, n, 1));
                sweep.push(job(Variant::Goroutines, k, n, 1));
            }
            runs.push(sweep);
        }
        other => panic!("no panel called {other}"),
    }
    (r.settings, runs)
}

/// Every run's jobs must pass the engine's check; the message names the panel, machine and job.
pub fn assert_all_valid(name: &str, machine: Machine, runs: &[Vec<Job>]) {
    for job in runs.iter().flatten() {
        if let Err(reason) = job.validate() {
            panic!("{name} on {machine:?} builds a job the engine refuses ({reason}): {job:?}");
        }
    }
}
