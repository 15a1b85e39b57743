//! Every experiment the site offers, in one list: its name and chapter, the knobs it reads from the
//! URL, the jobs its buttons send to the engine, and where it can run.
//!
//! Each experiment has one module here. Its `read` takes the knobs in the order the panel shows
//! them (through a [`KnobReader`]: the page's URL preset, or a test's fuzzer), and its builders turn
//! those settings into the jobs the panel's buttons send. The app's panels, the content check, the
//! static route pages and the property tests all read this list, so an experiment is declared once.

pub mod bubble_sort;
pub mod cpu_vs_io;
pub mod demo;
pub mod document_search;
pub mod go_scheduler;
pub mod hashing;
#[cfg(feature = "lab")]
pub mod lab;
pub mod os_scheduler;
pub mod qps;
pub mod shared_total;
pub mod sum;
pub mod task_granularity;
pub mod task_memory;
pub mod task_switch;

use crate::job::{Job, Variant};
use crate::params::ParamRange;

/// How the page runs its engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Cross-origin isolated: the threaded engine, with real pools of k workers.
    Threads,
    /// Not isolated (e.g. inside a course page): the engine without shared memory, on one worker
    /// (or on message-passing workers, for the experiments whose tasks can be copied to them).
    SingleWorker,
}

/// The reader's machine as far as an experiment cares: logical processors and the engine's mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    pub cores: u32,
    pub mode: Mode,
}

/// Where an experiment computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// In the engine, in the modes listed.
    Engine(&'static [Mode]),
    /// On the page itself (a bounded model); it needs no engine and runs anywhere.
    Page,
}

/// Settings as URL query pairs (`key`, value), what a panel writes back into its address after a run
/// so that the address repeats it; each experiment's `read` reads them back.
pub type Query = Vec<(&'static str, String)>;

/// Both modes of the engine.
pub const EVERY_MODE: &[Mode] = &[Mode::Threads, Mode::SingleWorker];

/// Reads one knob at a time: the page's URL preset, or a test's fuzzer. Out-of-range and unreadable
/// values come back clamped (with a note kept by the reader), never as an error.
pub trait KnobReader {
    /// The value of a numeric knob, within `range`.
    fn value(&mut self, range: &ParamRange) -> u64;
    /// One of `options`, or `default`.
    fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str;
}

/// What an experiment's knobs are set to, as one value: read from a [`KnobReader`] in the panel's
/// order (`read`) and written back as the address's query pairs under the same keys (`query`). Each
/// catalog module's `Settings` implements it with its own `read` and `Settings::query`, so the app
/// can hold any experiment's settings in one generic state (`app::panels::state`).
pub trait ExperimentSettings: Copy + Send + Sync + 'static {
    /// The experiment these settings are of.
    const ID: ExperimentId;
    /// The knobs, in the panel's order; out-of-range values come back clamped (noted by the reader).
    fn read(r: &mut dyn KnobReader, machine: Machine) -> Self;
    /// The settings as URL query pairs, in the panel's order.
    fn query(&self) -> Query;
}

/// Which experiment: the one key every panel, prediction, code listing, preset, limit, lab command
/// and bench figure is filed under. Written (URLs, markers, files, `catalog.json`) as its slug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExperimentId {
    Demo,
    OsScheduler,
    Sum,
    SharedTotal,
    BubbleSort,
    Hashing,
    CpuVsIo,
    DocumentSearch,
    GoScheduler,
    TaskGranularity,
    TaskMemory,
    TaskSwitch,
    Qps,
}

impl ExperimentId {
    /// Every experiment, in the order of [`CATALOG`].
    pub const ALL: [ExperimentId; 13] = [
        ExperimentId::Demo,
        ExperimentId::OsScheduler,
        ExperimentId::Sum,
        ExperimentId::SharedTotal,
        ExperimentId::BubbleSort,
        ExperimentId::Hashing,
        ExperimentId::CpuVsIo,
        ExperimentId::DocumentSearch,
        ExperimentId::GoScheduler,
        ExperimentId::TaskGranularity,
        ExperimentId::TaskMemory,
        ExperimentId::TaskSwitch,
        ExperimentId::Qps,
    ];

    /// The name in `<!-- experiment: NAME -->` markers, `data-experiment`, `/embed/experiments/NAME`,
    /// kept rows and downloads. The only place an experiment's slug is written out.
    pub const fn slug(self) -> &'static str {
        match self {
            ExperimentId::Demo => "demo",
            ExperimentId::OsScheduler => "os-scheduler",
            ExperimentId::Sum => "sum",
            ExperimentId::SharedTotal => "shared-total",
            ExperimentId::BubbleSort => "bubble-sort",
            ExperimentId::Hashing => "hashing",
            ExperimentId::CpuVsIo => "cpu-vs-io",
            ExperimentId::DocumentSearch => "document-search",
            ExperimentId::GoScheduler => "go-scheduler",
            ExperimentId::TaskGranularity => "task-granularity",
            ExperimentId::TaskMemory => "task-memory",
            ExperimentId::TaskSwitch => "task-switch",
            ExperimentId::Qps => "qps",
        }
    }

    /// The experiment whose slug is `slug` (a marker, an embed address).
    pub fn from_slug(slug: &str) -> Option<ExperimentId> {
        ExperimentId::ALL.into_iter().find(|id| id.slug() == slug)
    }

    /// Its entry in the catalog.
    pub const fn experiment(self) -> &'static Experiment {
        &CATALOG[self as usize]
    }
}

impl std::fmt::Display for ExperimentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.slug())
    }
}

/// One experiment of the site.
#[derive(Clone, Copy, Debug)]
pub struct Experiment {
    /// Which one; [`Experiment::name`] is its slug.
    pub id: ExperimentId,
    /// The slug of the chapter (`content/<lang>/<slug>.md`) that shows it.
    pub chapter: &'static str,
    /// Small settings (a query string without `?`) that finish every part of a run in a second or
    /// two on a slow machine: what the site-wide end-to-end tests load (`catalog.json`), so a new
    /// experiment is covered by them without being named there.
    pub quick: &'static str,
    /// Where it computes.
    pub runs: Runs,
    /// Without shared memory its tasks run on message-passing workers, so its worker count stays
    /// real there (otherwise the engine runs it on one worker).
    pub message_workers: bool,
    /// It weighs the page's own memory (`performance.measureUserAgentSpecificMemory`), which
    /// Chromium stops answering in a tab once an engine's workers have shared memory there: no page
    /// of its chapter may start the engine before the reader asks.
    pub measures_page_memory: bool,
    /// The variants its jobs use.
    pub variants: &'static [Variant],
    /// Reads its knobs as its panel does and returns every run its buttons can start with those
    /// settings (each run a list of jobs). `file_bytes`: the size of a file the reader picked, for
    /// an experiment that can read one.
    pub every_run: fn(&mut dyn KnobReader, Machine, u64) -> Vec<Vec<Job>>,
    /// Its `lab` subcommand, where the native command line runs it.
    #[cfg(feature = "lab")]
    pub lab: Option<lab::LabCommand>,
}

impl Experiment {
    /// The name in `<!-- experiment: NAME -->` markers, `data-experiment` and `/embed/experiments/NAME`.
    pub const fn name(&self) -> &'static str {
        self.id.slug()
    }

    /// Whether it can run on `mode`'s engine (a page-side model runs anywhere).
    pub fn runs_in(&self, mode: Mode) -> bool {
        match self.runs {
            Runs::Engine(modes) => modes.contains(&mode),
            Runs::Page => true,
        }
    }
}

/// Every experiment, in the order of the chapters that show them.
pub const CATALOG: [Experiment; 13] = [
    demo::EXPERIMENT,
    os_scheduler::EXPERIMENT,
    sum::EXPERIMENT,
    shared_total::EXPERIMENT,
    bubble_sort::EXPERIMENT,
    hashing::EXPERIMENT,
    cpu_vs_io::EXPERIMENT,
    document_search::EXPERIMENT,
    go_scheduler::EXPERIMENT,
    task_granularity::EXPERIMENT,
    task_memory::EXPERIMENT,
    task_switch::EXPERIMENT,
    qps::EXPERIMENT,
];

/// The experiment called `name`.
pub fn find(name: &str) -> Option<&'static Experiment> {
    ExperimentId::from_slug(name).map(ExperimentId::experiment)
}

/// Whether a page showing `name` fetches the engine's files as soon as the experiment is there,
/// before the reader asks for a run, so that they download while the reader reads instead of after
/// the first click: the experiment runs in the engine, and no experiment of its chapter weighs the
/// page's memory ([`Experiment::measures_page_memory`]), which the page keeps free of everything
/// engine until the reader measures.
///
/// A `const fn`, so a panel can ask at compile time: the answer is a constant, and a module that
/// asks holds none of the catalog (the app's core must not, see ARCHITECTURE.md).
pub const fn fetches_engine_with_page(name: &str) -> bool {
    let mut index = 0;
    while index < CATALOG.len() {
        let experiment = &CATALOG[index];
        if same_text(experiment.name(), name) {
            if !matches!(experiment.runs, Runs::Engine(_)) {
                return false;
            }
            let mut other = 0;
            while other < CATALOG.len() {
                if same_text(CATALOG[other].chapter, experiment.chapter) && CATALOG[other].measures_page_memory {
                    return false;
                }
                other += 1;
            }
            return true;
        }
        index += 1;
    }
    false
}

/// [`fetches_engine_with_page`] of every experiment, indexed by [`ExperimentId`], worked out at
/// compile time: answers only, so a module that reads it holds none of the catalog's code.
pub const ENGINE_WITH_PAGE: [bool; CATALOG.len()] = {
    let mut answers = [false; CATALOG.len()];
    let mut index = 0;
    while index < CATALOG.len() {
        answers[index] = fetches_engine_with_page(CATALOG[index].name());
        index += 1;
    }
    answers
};

/// `a == b`, in a `const fn`.
const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() {
        if a[at] != b[at] {
            return false;
        }
        at += 1;
    }
    true
}

/// The allowed worker counts in `mode`: exactly one worker when memory cannot be shared.
pub fn workers_for(range: ParamRange, mode: Mode) -> ParamRange {
    match mode {
        Mode::Threads => range,
        Mode::SingleWorker => ParamRange { min: 1, max: 1, default: 1, ..range },
    }
}

/// Counts of a sweep: 1, 2, 4, … up to `max`, and `max` itself.
pub fn sweep_counts(max: u32) -> Vec<u32> {
    let mut counts: Vec<u32> =
        std::iter::successors(Some(1u32), |k| k.checked_mul(2)).take_while(|&k| k <= max).collect();
    if counts.last() != Some(&max) {
        counts.push(max);
    }
    counts
}

/// The task counts of the document-search and CPU-versus-IO sweeps go up to this.
pub const SWEEP_MAX_TASKS: u32 = 64;

#[cfg(test)]
mod tests {
    #[test]
    fn a_default_worker_count_never_exceeds_the_cores() {
        assert_eq!(super::demo::workers(2).default, 2);
        assert_eq!(super::demo::workers(16).default, 4);
        assert_eq!(super::hashing::workers(1).default, 1);
    }

    #[test]
    fn only_chapters_that_never_weigh_the_page_fetch_the_engine_with_the_page() {
        use super::fetches_engine_with_page;
        assert!(fetches_engine_with_page("sum"));
        assert!(fetches_engine_with_page("qps"));
        // A model the page computes needs no engine.
        assert!(!fetches_engine_with_page("os-scheduler"));
        // The memory panel, and its chapter's other experiments.
        assert!(!fetches_engine_with_page("task-memory"));
        assert!(!fetches_engine_with_page("task-granularity"));
        assert!(!fetches_engine_with_page("task-switch"));
        assert!(!fetches_engine_with_page("no-such-experiment"));
        for id in super::ExperimentId::ALL {
            assert_eq!(super::ENGINE_WITH_PAGE[id as usize], fetches_engine_with_page(id.slug()), "{id}");
        }
    }

    use super::*;
    use std::collections::HashSet;

    #[test]
    fn sweeps_double_and_end_at_the_maximum() {
        assert_eq!(sweep_counts(16), vec![1, 2, 4, 8, 16]);
        assert_eq!(sweep_counts(24), vec![1, 2, 4, 8, 16, 24]);
        assert_eq!(sweep_counts(1), vec![1]);
    }

    #[test]
    fn names_are_unique_url_segments() {
        let names: HashSet<_> = CATALOG.iter().map(|e| e.name()).collect();
        assert_eq!(names.len(), CATALOG.len());
        for (index, e) in CATALOG.iter().enumerate() {
            assert!(e.name().chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", e.name());
            assert_eq!(find(e.name()).map(|f| f.name()), Some(e.name()));
            // `ExperimentId::experiment` indexes the catalog by the enum's order.
            assert_eq!(e.id as usize, index, "{}", e.name());
            assert_eq!(ExperimentId::ALL[index], e.id);
            assert_eq!(serde_json::to_string(&e.id).unwrap(), format!("\"{}\"", e.name()));
        }
        assert!(find("no-such-experiment").is_none());
    }

    /// Reads knobs from query pairs, as the page reads its address.
    struct FromQuery(Query);

    impl KnobReader for FromQuery {
        fn value(&mut self, range: &ParamRange) -> u64 {
            let raw = self.0.iter().find(|(k, _)| *k == range.key).map(|(_, v)| v.as_str());
            crate::params::read_param(range, raw, &mut Vec::new())
        }
        fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
            let raw = self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
            crate::params::read_choice(key, raw, options, default, &mut Vec::new())
        }
    }

    #[test]
    fn settings_written_to_the_address_read_back_the_same() {
        let machine = Machine { cores: 8, mode: Mode::Threads };
        let sum = sum::Settings { workers: 3, tasks: 5, numbers: 2_000_000, repetitions: 7 };
        assert_eq!(sum::read(&mut FromQuery(sum.query()), machine), sum);
        let sort = bubble_sort::Settings { workers: 3, tasks: 5, numbers: 2_000, repetitions: 4 };
        assert_eq!(bubble_sort::read(&mut FromQuery(sort.query()), machine), sort);
        let demo = demo::Settings { workers: 3, tasks: 5, units: 7_000 };
        assert_eq!(demo::read(&mut FromQuery(demo.query()), machine), demo);
        let io = cpu_vs_io::Settings { kind: "cpu", workers: 3, tasks: 5, repetitions: 2 };
        assert_eq!(cpu_vs_io::read(&mut FromQuery(io.query()), machine), io);
        let docs = document_search::Settings { workers: 3, tasks: 5, documents: 200, latency_ms: 2, repetitions: 2 };
        assert_eq!(document_search::read(&mut FromQuery(docs.query()), machine), docs);
        let hash = hashing::Settings { source: "file", size_mb: 8, hashes: 5, workers: 3, repetitions: 2 };
        assert_eq!(hashing::read(&mut FromQuery(hash.query()), machine), hash);
        let load = qps::Settings {
            requests: 300,
            concurrency: 30,
            wait_ms: 5,
            work_us: 20,
            threads: 6,
            workers: 3,
            repetitions: 2,
        };
        assert_eq!(qps::read(&mut FromQuery(load.query()), machine), load);
        let cost = task_granularity::Settings { workers: 3, tasks: 2_000, repetitions: 2 };
        assert_eq!(task_granularity::read(&mut FromQuery(cost.query()), machine), cost);
        let switch = task_switch::Settings { round_trips: 5_000, repetitions: 2 };
        assert_eq!(task_switch::read(&mut FromQuery(switch.query()), machine), switch);
        let os = os_scheduler::Settings { threads: 5, cores: 3, quantum_ms: 7, switch_us: 9, seed: 11, mix: "io" };
        assert_eq!(os_scheduler::read(&mut FromQuery(os.query()), machine), os);
        let go = go_scheduler::Settings { scenario: crate::job::ScenarioKind::ALL[1], workers: 3, tasks: 5, step: 0 };
        assert_eq!(go_scheduler::read(&mut FromQuery(go.query()), machine), go);
    }

    #[test]
    fn every_quick_setting_is_in_range_and_read_without_a_note() {
        struct Noted(Query, Vec<crate::params::ClampNote>, Vec<String>);
        impl KnobReader for Noted {
            fn value(&mut self, range: &ParamRange) -> u64 {
                self.2.push(range.key.to_string());
                let raw = self.0.iter().find(|(k, _)| *k == range.key).map(|(_, v)| v.as_str());
                crate::params::read_param(range, raw, &mut self.1)
            }
            fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
                self.2.push(key.to_string());
                let raw = self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
                crate::params::read_choice(key, raw, options, default, &mut self.1)
            }
        }
        for e in &CATALOG {
            let pairs: Query = e
                .quick
                .split('&')
                .map(|pair| pair.split_once('=').expect("key=value"))
                .map(|(key, value)| (key, value.to_string()))
                .collect();
            let mut reader = Noted(pairs.clone(), Vec::new(), Vec::new());
            let runs = (e.every_run)(&mut reader, Machine { cores: 2, mode: Mode::Threads }, 0);
            assert_eq!(reader.1, vec![], "{}: `{}` reads without a note", e.name(), e.quick);
            for (key, _) in &pairs {
                assert!(reader.2.iter().any(|k| k == key), "{}: `{key}` is not one of its knobs", e.name());
            }
            assert_eq!(runs.is_empty(), e.runs == Runs::Page, "{}", e.name());
        }
    }

    #[test]
    fn one_worker_without_shared_memory() {
        let range = ParamRange::new("workers", 1, 16, 4);
        assert_eq!(workers_for(range, Mode::Threads), range);
        let single = workers_for(range, Mode::SingleWorker);
        assert_eq!((single.min, single.max, single.default, single.key), (1, 1, 1, "workers"));
    }
}
