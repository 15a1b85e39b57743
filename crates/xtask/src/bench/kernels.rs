//! The kernels after Sum: their parameters, the `lab` command that measures each, and the figures
//! both sides report for it.

use experiments::catalog::ExperimentId;
use experiments::{Job, SortAlgorithm, Variant, Workload};

/// The kernels after Sum, each measured by one `lab` subcommand natively and by the same jobs in the
/// browser (e2e/bench.mjs has the same parameters). Every measured job is reported under a figure
/// name ([`figure_name`]); each side also reports `<kernel>_check_ok` and `<kernel>_jobs`, the jobs
/// it measured, which must be equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kernel {
    Hash,
    Sort,
    Cost,
    Docsearch,
    CpuSearch,
    Qps,
}

/// `lab hash`: SHA-256 of `--mb` MiB of generated data, as `--hashes` independent hashes.
pub(super) const HASH_MB: u64 = 32;
pub(super) const HASH_HASHES: u32 = 4;
pub(super) const HASH_WORKERS: u32 = 2;
pub(super) const HASH_REPETITIONS: u32 = 3;
/// `lab sort`: every sort on one worker, against the plain bubble sort (the chapter's "splitting
/// gains nothing" holds only if WebAssembly runs each at its native pace).
pub(super) const SORT_NUMBERS: u32 = 10_000;
pub(super) const SORT_TASKS: u32 = 8;
pub(super) const SORT_WORKERS: u32 = 1;
pub(super) const SORT_REPETITIONS: u32 = 3;
/// `lab cost`: tasks of `--sqrt` square roots each, and the round trips of the ping-pong.
pub(super) const COST_TASKS: u32 = 10_000;
pub(super) const COST_SQRT: u32 = 1;
pub(super) const COST_WORKERS: u32 = 2;
pub(super) const SWITCH_TRIPS: u32 = 100_000;
pub(super) const COST_REPETITIONS: u32 = 3;
/// `lab docsearch`: documents, each read blocking `--latency-ms`.
pub(super) const DOCUMENTS: u32 = 200;
pub(super) const READ_LATENCY_MS: u32 = 1;
pub(super) const DOCSEARCH_WORKERS: u32 = 1;
pub(super) const DOCSEARCH_TASKS: u32 = 8;
pub(super) const DOCSEARCH_REPETITIONS: u32 = 1;
/// `lab docsearch --latency-ms 0`: the same search with nothing to wait for, CPU-bound, as the CPU vs
/// IO chapter runs it: two tasks on two workers should take about half the loop's time.
pub(super) const CPU_SEARCH_DOCUMENTS: u32 = 1_000;
pub(super) const CPU_SEARCH_WORKERS: u32 = 2;
pub(super) const CPU_SEARCH_TASKS: u32 = 2;
pub(super) const CPU_SEARCH_REPETITIONS: u32 = 5;
/// `lab qps`: the load test of a thread-pool server and a goroutine server.
pub(super) const QPS_WORKERS: u32 = 2;
pub(super) const QPS_REQUESTS: u32 = 200;
pub(super) const QPS_CONCURRENCY: u32 = 20;
pub(super) const QPS_WAIT_MS: u32 = 10;
pub(super) const QPS_WORK_US: u32 = 50;
pub(super) const QPS_REPETITIONS: u32 = 1;

impl Kernel {
    pub(super) const ALL: [Kernel; 6] =
        [Kernel::Hash, Kernel::Sort, Kernel::Cost, Kernel::Docsearch, Kernel::CpuSearch, Kernel::Qps];

    /// The experiment whose `lab` subcommand measures it.
    pub(super) fn experiment(self) -> ExperimentId {
        match self {
            Kernel::Hash => ExperimentId::Hashing,
            Kernel::Sort => ExperimentId::BubbleSort,
            Kernel::Cost => ExperimentId::TaskGranularity,
            Kernel::Docsearch | Kernel::CpuSearch => ExperimentId::DocumentSearch,
            Kernel::Qps => ExperimentId::Qps,
        }
    }

    /// Its `lab` subcommand (the catalog's).
    pub(super) fn command(self) -> &'static str {
        let id = self.experiment();
        id.experiment().lab.as_ref().map_or_else(|| panic!("{id} has no lab subcommand"), |lab| lab.name)
    }

    /// The prefix of its `_check_ok` and `_jobs` figures: its `lab` subcommand, or for a second
    /// kernel of the same subcommand a name of its own.
    pub(super) fn name(self) -> &'static str {
        match self {
            Kernel::CpuSearch => "cpusearch",
            _ => self.command(),
        }
    }

    /// The `lab` command line that measures it, without `--json`.
    pub(super) fn lab_args(self) -> Vec<String> {
        let args = match self {
            Kernel::Hash => {
                format!("--mb {HASH_MB} --hashes {HASH_HASHES} --workers {HASH_WORKERS} --reps {HASH_REPETITIONS}")
            }
            Kernel::Sort => format!(
                "--n {SORT_NUMBERS} --tasks {SORT_TASKS} --workers {SORT_WORKERS} --reps {SORT_REPETITIONS}"
            ),
            Kernel::CpuSearch => format!(
                "--docs {CPU_SEARCH_DOCUMENTS} --latency-ms 0 --workers {CPU_SEARCH_WORKERS} --tasks {CPU_SEARCH_TASKS} \
                 --reps {CPU_SEARCH_REPETITIONS}"
            ),
            Kernel::Cost => format!(
                "--sqrt {COST_SQRT} --tasks {COST_TASKS} --trips {SWITCH_TRIPS} --workers {COST_WORKERS} \
                 --reps {COST_REPETITIONS}"
            ),
            Kernel::Docsearch => format!(
                "--docs {DOCUMENTS} --latency-ms {READ_LATENCY_MS} --workers {DOCSEARCH_WORKERS} \
                 --tasks {DOCSEARCH_TASKS} --reps {DOCSEARCH_REPETITIONS}"
            ),
            Kernel::Qps => format!(
                "--workers {QPS_WORKERS} --requests {QPS_REQUESTS} --concurrency {QPS_CONCURRENCY} \
                 --wait-ms {QPS_WAIT_MS} --work-us {QPS_WORK_US} --reps {QPS_REPETITIONS}"
            ),
        };
        std::iter::once(self.command()).chain(args.split_whitespace()).map(String::from).collect()
    }

    /// The numbers both sides must report for it.
    pub(super) fn figures(self) -> &'static [&'static str] {
        match self {
            Kernel::Hash => &["hash_loop_ms", "hash_tasks_ms"],
            Kernel::Sort => &["sort_bubble_ms", "sort_chunked_ms", "sort_odd_even_ms", "sort_merge_ms"],
            Kernel::CpuSearch => &["cpusearch_sequential_ms", "cpusearch_threads_ms", "cpusearch_goroutines_ms"],
            Kernel::Cost => {
                &["spawn_loop_ms", "spawn_tasks_ms", "spawn_goroutines_ms", "switch_threads_ms", "switch_goroutines_ms"]
            }
            Kernel::Docsearch => &["docsearch_sequential_ms", "docsearch_threads_ms", "docsearch_goroutines_ms"],
            Kernel::Qps => {
                &["qps_thread_pool_ms", "qps_thread_pool_req_s", "qps_goroutines_ms", "qps_goroutines_req_s"]
            }
        }
    }
}

/// The name a measured job's figures are reported under (`<name>_ms`, and `<name>_req_s` for a
/// server), from its workload and variant; `browser_plan` hands each planned job's name to
/// e2e/bench.mjs, which reports its measurements under it.
pub(super) fn figure_name(job: &Job) -> Result<&'static str, String> {
    use Variant::{Goroutines, Sequential, ThreadPool};
    Ok(match (&job.workload, job.variant) {
        (Workload::Sort { algorithm: SortAlgorithm::Bubble, .. }, _) => "sort_bubble",
        (Workload::Sort { algorithm: SortAlgorithm::ChunkedBubble, .. }, _) => "sort_chunked",
        (Workload::Sort { algorithm: SortAlgorithm::OddEven, .. }, _) => "sort_odd_even",
        (Workload::Sort { algorithm: SortAlgorithm::Merge, .. }, _) => "sort_merge",
        // Nothing to wait for: the CPU-bound search, a kernel of its own.
        (Workload::DocSearch { latency_us: 0, .. }, Sequential) => "cpusearch_sequential",
        (Workload::DocSearch { latency_us: 0, .. }, ThreadPool) => "cpusearch_threads",
        (Workload::DocSearch { latency_us: 0, .. }, Goroutines) => "cpusearch_goroutines",
        (Workload::Hash { .. }, Sequential) => "hash_loop",
        (Workload::Hash { .. }, ThreadPool) => "hash_tasks",
        (Workload::Granularity { .. }, Sequential) => "spawn_loop",
        (Workload::Granularity { .. }, ThreadPool) => "spawn_tasks",
        (Workload::Granularity { .. }, Goroutines) => "spawn_goroutines",
        (Workload::PingPong { .. }, ThreadPool) => "switch_threads",
        (Workload::PingPong { .. }, Goroutines) => "switch_goroutines",
        (Workload::DocSearch { .. }, Sequential) => "docsearch_sequential",
        (Workload::DocSearch { .. }, ThreadPool) => "docsearch_threads",
        (Workload::DocSearch { .. }, Goroutines) => "docsearch_goroutines",
        (Workload::Qps { .. }, ThreadPool) => "qps_thread_pool",
        (Workload::Qps { .. }, Goroutines) => "qps_goroutines",
        _ => return Err(format!("no figure for the job {}", serde_json::to_string(job).unwrap_or_default())),
    })
}
