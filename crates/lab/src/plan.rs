//! Turning command-line options into the jobs to measure, in order, each with its benchmark name.
//!
//! The first job of a plan is the baseline every speedup is computed against, as in the browser:
//! the plain loop for `sum`, the tasks on one worker for `demo`. A plan of several comparisons
//! (`cost`) marks where each new baseline starts.

use crate::cli::{
    CostOptions, DemoOptions, DocsearchOptions, HashOptions, QpsOptions, SharedTotalOptions, SortOptions, SumOptions,
};
use experiments::catalog::{
    bubble_sort, demo, document_search, hashing, qps, shared_total, sum, task_granularity, task_switch,
};
use experiments::{HashSource, Job, SortAlgorithm, TotalKind, Variant, DEFAULT_SEED};

/// One job to measure and the name it is reported under.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedJob {
    /// `go test -bench` style, e.g. `BenchmarkSum/tasks=8/workers=2/n=10000000`.
    pub name: String,
    pub job: Job,
    /// Speedups from this job on are measured against it (the first job always is a baseline).
    pub baseline: bool,
}

impl PlannedJob {
    fn new(name: String, job: Job) -> PlannedJob {
        PlannedJob { name, job, baseline: false }
    }

    fn baseline(name: String, job: Job) -> PlannedJob {
        PlannedJob { name, job, baseline: true }
    }
}

/// The jobs of one command, baseline first.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub jobs: Vec<PlannedJob>,
}

impl Plan {
    /// The Sum chapter: one sequential loop as the baseline, then t tasks on each worker count.
    pub fn sum(options: &SumOptions) -> Result<Plan, String> {
        let settings =
            sum::Settings { workers: 1, tasks: options.tasks, numbers: options.n, repetitions: options.reps };
        let job = |variant, workers, tasks| sum::job(&settings, variant, workers, tasks);
        let n = options.n;
        let mut jobs = vec![PlannedJob::new(format!("BenchmarkSum/sequential/n={n}"), job(Variant::Sequential, 1, 1))];
        for workers in distinct(&options.workers) {
            jobs.push(PlannedJob::new(
                format!("BenchmarkSum/tasks={}/workers={workers}/n={n}", options.tasks),
                job(Variant::ThreadPool, workers, options.tasks),
            ));
        }
        Plan::checked(jobs)
    }

    /// One shared total: the loop as the baseline, then, on each worker count (one task per
    /// worker), private sums, one shared counter and counters side by side.
    pub fn shared_total(options: &SharedTotalOptions) -> Result<Plan, String> {
        let n = options.n;
        let settings = |workers| shared_total::Settings { workers, numbers: n, repetitions: options.reps };
        let mut jobs = vec![PlannedJob::new(
            format!("BenchmarkSharedTotal/sequential/n={n}"),
            shared_total::job(&settings(1), Variant::Sequential, TotalKind::Private),
        )];
        for workers in distinct(&options.workers) {
            for total in TotalKind::ALL {
                jobs.push(PlannedJob::new(
                    format!("BenchmarkSharedTotal/{}/workers={workers}/n={n}", total.name()),
                    shared_total::job(&settings(workers), Variant::ThreadPool, total),
                ));
            }
        }
        Plan::checked(jobs)
    }

    /// The demo: t spin tasks on one worker (the baseline), then on each other worker count.
    pub fn demo(options: &DemoOptions) -> Result<Plan, String> {
        let settings = demo::Settings { workers: 1, tasks: options.tasks, units: options.units };
        let job = |workers| demo::job(&settings, workers, options.reps);
        let mut counts = vec![1];
        counts.extend(&options.workers);
        let jobs = distinct(&counts)
            .into_iter()
            .map(|workers| {
                PlannedJob::new(
                    format!("BenchmarkDemo/tasks={}/workers={workers}/units={}", options.tasks, options.units),
                    job(workers),
                )
            })
            .collect();
        Plan::checked(jobs)
    }

    /// The document search: a sequential loop as the baseline, then threads and goroutines for
    /// every worker count and task count.
    pub fn docsearch(options: &DocsearchOptions) -> Result<Plan, String> {
        let (docs, latency) = (options.docs, options.latency_ms);
        let settings = document_search::Settings {
            workers: 1,
            tasks: 1,
            documents: docs,
            latency_ms: latency,
            repetitions: options.reps,
        };
        let job = |variant, workers, tasks| document_search::job(&settings, variant, workers, tasks, options.reps);
        let suffix = format!("docs={docs}/latency={latency}ms");
        let mut jobs =
            vec![PlannedJob::new(format!("BenchmarkDocsearch/sequential/{suffix}"), job(Variant::Sequential, 1, 1))];
        for workers in distinct(&options.workers) {
            for tasks in distinct(&options.tasks) {
                for (label, variant) in [("threads", Variant::ThreadPool), ("goroutines", Variant::Goroutines)] {
                    jobs.push(PlannedJob::new(
                        format!("BenchmarkDocsearch/{label}/tasks={tasks}/workers={workers}/{suffix}"),
                        job(variant, workers, tasks),
                    ));
                }
            }
        }
        Plan::checked(jobs)
    }

    /// The sorting chapter: bubble sort as one loop (the baseline), then chunked bubble sort,
    /// odd-even transposition sort and merge sort with t tasks on each worker count.
    pub fn sort(options: &SortOptions) -> Result<Plan, String> {
        let n = options.n;
        let settings =
            bubble_sort::Settings { workers: 1, tasks: options.tasks, numbers: n, repetitions: options.reps };
        let job = |algorithm, workers| bubble_sort::job(&settings, algorithm, workers, options.tasks);
        let mut jobs = vec![PlannedJob::new(format!("BenchmarkSort/bubble/n={n}"), job(SortAlgorithm::Bubble, 1))];
        for workers in distinct(&options.workers) {
            for (label, algorithm) in [
                ("chunked", SortAlgorithm::ChunkedBubble),
                ("odd-even", SortAlgorithm::OddEven),
                ("merge", SortAlgorithm::Merge),
            ] {
                jobs.push(PlannedJob::new(
                    format!("BenchmarkSort/{label}/tasks={}/workers={workers}/n={n}", options.tasks),
                    job(algorithm, workers),
                ));
            }
        }
        Plan::checked(jobs)
    }

    /// What a task costs: for each task size, t tasks as a loop (the baseline of that size), on a
    /// thread pool and as goroutines; then handing a turn between two threads (the baseline) and
    /// between two goroutines on one worker.
    pub fn cost(options: &CostOptions) -> Result<Plan, String> {
        let (workers, tasks, repetitions) = (options.workers, options.tasks, options.reps);
        let mut jobs = Vec::new();
        for sqrt in distinct(&options.sqrt) {
            let settings = task_granularity::Settings { workers, tasks, repetitions };
            let job = |variant, workers| task_granularity::job(&settings, variant, workers, sqrt);
            let suffix = format!("tasks={tasks}/sqrt={sqrt}");
            jobs.push(PlannedJob::baseline(format!("BenchmarkCost/loop/{suffix}"), job(Variant::Sequential, 1)));
            jobs.push(PlannedJob::new(
                format!("BenchmarkCost/threads/workers={workers}/{suffix}"),
                job(Variant::ThreadPool, workers),
            ));
            jobs.push(PlannedJob::new(
                format!("BenchmarkCost/goroutines/workers={workers}/{suffix}"),
                job(Variant::Goroutines, workers),
            ));
        }
        if options.trips > 0 {
            let trips = options.trips;
            let settings = task_switch::Settings { round_trips: trips, repetitions };
            let job = |variant, workers| task_switch::job(&settings, variant, workers);
            jobs.push(PlannedJob::baseline(
                format!("BenchmarkSwitch/threads/trips={trips}"),
                job(Variant::ThreadPool, 2),
            ));
            jobs.push(PlannedJob::new(
                format!("BenchmarkSwitch/goroutines/trips={trips}"),
                job(Variant::Goroutines, 1),
            ));
        }
        Plan::checked(jobs)
    }

    /// The hashing chapter: h hashes of the data as one loop (the baseline), then as h tasks on each
    /// worker count. A file is measured first, so a missing one is reported before anything runs.
    pub fn hash(options: &HashOptions) -> Result<Plan, String> {
        let source = match &options.file {
            Some(path) => {
                let metadata = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
                if !metadata.is_file() {
                    return Err(format!("{} is not a file", path.display()));
                }
                let name = path.to_str().ok_or_else(|| format!("{}: the path is not UTF-8", path.display()))?;
                HashSource::File { name: name.to_string(), bytes: metadata.len() }
            }
            None => HashSource::Generated { bytes: options.mb.saturating_mul(1 << 20), seed: DEFAULT_SEED },
        };
        let data = match &source {
            HashSource::File { bytes, .. } => format!("file={bytes}B"),
            HashSource::Generated { .. } => format!("generated={}MB", options.mb),
        };
        let hashes = options.hashes;
        let settings = hashing::Settings {
            source: if options.file.is_some() { "file" } else { "generated" },
            size_mb: options.mb,
            hashes,
            workers: 1,
            repetitions: options.reps,
        };
        let job = |variant, workers| hashing::job(&settings, &source, variant, workers);
        let mut jobs =
            vec![PlannedJob::new(format!("BenchmarkHash/loop/hashes={hashes}/{data}"), job(Variant::Sequential, 1))];
        for workers in distinct(&options.workers) {
            jobs.push(PlannedJob::new(
                format!("BenchmarkHash/tasks/hashes={hashes}/workers={workers}/{data}"),
                job(Variant::ThreadPool, workers),
            ));
        }
        Plan::checked(jobs)
    }

    /// The high-concurrency chapter: for each worker count, a thread-pool server (the baseline of
    /// the first count) and a goroutine server under the same load.
    pub fn qps(options: &QpsOptions) -> Result<Plan, String> {
        let settings = qps::Settings {
            requests: options.requests,
            concurrency: options.concurrency,
            wait_ms: options.wait_ms,
            work_us: options.work_us,
            threads: 1,
            workers: 1,
            repetitions: options.reps,
        };
        let suffix = format!("c={}/wait={}ms/work={}us", options.concurrency, options.wait_ms, options.work_us);
        let job = |variant, workers| qps::job(&settings, variant, workers);
        let mut jobs = Vec::new();
        for workers in distinct(&options.workers) {
            jobs.push(PlannedJob::new(
                format!("BenchmarkQPS/thread-pool/threads={workers}/{suffix}"),
                job(Variant::ThreadPool, workers),
            ));
            jobs.push(PlannedJob::new(
                format!("BenchmarkQPS/goroutines/workers={workers}/{suffix}"),
                job(Variant::Goroutines, workers),
            ));
        }
        Plan::checked(jobs)
    }

    /// The plan if every job is within the engine's limits (the browser chapters' own), else the
    /// first reason it is not.
    fn checked(mut jobs: Vec<PlannedJob>) -> Result<Plan, String> {
        for planned in &jobs {
            planned
                .job
                .validate()
                .map_err(|reason| format!("{reason} (lab keeps the limits of the browser's chapters)"))?;
        }
        let Some(first) = jobs.first_mut() else { return Err("nothing to measure".into()) };
        first.baseline = true;
        Ok(Plan { jobs })
    }
}

/// `values` without repeats, in first-seen order.
fn distinct(values: &[u32]) -> Vec<u32> {
    let mut seen = Vec::with_capacity(values.len());
    for &value in values {
        if !seen.contains(&value) {
            seen.push(value);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::Workload;

    fn sum_options(workers: &[u32], tasks: u32, n: u64) -> SumOptions {
        SumOptions { workers: workers.to_vec(), tasks, n, reps: 5 }
    }

    #[test]
    fn sum_measures_the_loop_once_then_each_worker_count() {
        let plan = Plan::sum(&sum_options(&[1, 2, 2], 8, 10_000_000)).expect("valid");
        let names: Vec<&str> = plan.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "BenchmarkSum/sequential/n=10000000",
                "BenchmarkSum/tasks=8/workers=1/n=10000000",
                "BenchmarkSum/tasks=8/workers=2/n=10000000",
            ]
        );
        let first = &plan.jobs[0].job;
        assert_eq!((first.variant, first.workers, first.tasks), (Variant::Sequential, 1, 1));
        let last = &plan.jobs[2].job;
        assert_eq!((last.variant, last.workers, last.tasks, last.repetitions), (Variant::ThreadPool, 2, 8, 5));
        assert_eq!(last.workload, Workload::Sum { numbers: 10_000_000, seed: DEFAULT_SEED });
    }

    #[test]
    fn shared_total_measures_the_loop_then_three_ways_of_adding_per_worker_count() {
        let options = SharedTotalOptions { workers: vec![1, 2, 2], n: 100_000, reps: 1 };
        let plan = Plan::shared_total(&options).expect("valid");
        let names: Vec<&str> = plan.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names[0], "BenchmarkSharedTotal/sequential/n=100000");
        assert_eq!(names[4], "BenchmarkSharedTotal/private/workers=2/n=100000");
        assert_eq!(plan.jobs.len(), 1 + 3 * 2, "the loop, then three jobs per distinct worker count");
        assert!(plan.jobs[0].baseline && plan.jobs[1..].iter().all(|j| !j.baseline));
        assert!(plan.jobs[1..].iter().all(|j| j.job.tasks == j.job.workers), "one task per worker");
        // Nine workers would need a ninth counter in the eight-counter cache line.
        let nine = SharedTotalOptions { workers: vec![9], n: 100_000, reps: 1 };
        assert!(Plan::shared_total(&nine).unwrap_err().contains("tasks"));
    }

    #[test]
    fn docsearch_measures_both_kinds_for_every_worker_and_task_count() {
        let options = DocsearchOptions { workers: vec![1, 2], tasks: vec![8], docs: 100, latency_ms: 1, reps: 1 };
        let plan = Plan::docsearch(&options).unwrap();
        let names: Vec<&str> = plan.jobs.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "BenchmarkDocsearch/sequential/docs=100/latency=1ms",
                "BenchmarkDocsearch/threads/tasks=8/workers=1/docs=100/latency=1ms",
                "BenchmarkDocsearch/goroutines/tasks=8/workers=1/docs=100/latency=1ms",
                "BenchmarkDocsearch/threads/tasks=8/workers=2/docs=100/latency=1ms",
                "BenchmarkDocsearch/goroutines/tasks=8/workers=2/docs=100/latency=1ms",
            ]
        );
        assert_eq!(plan.jobs[2].job.variant, Variant::Goroutines);
        let too_slow = DocsearchOptions { latency_ms: 1_000, ..options };
        assert!(Plan::docsearch(&too_slow).unwrap_err().contains("latency"));
    }

    #[test]
    fn out_of_range_jobs_are_refused_with_a_reason() {
        let zero_workers = Plan::sum(&sum_options(&[0], 8, 1000)).unwrap_err();
        assert!(zero_workers.contains("workers"), "{zero_workers}");
        let too_many_numbers = Plan::sum(&sum_options(&[2], 8, 10_000_000_000)).unwrap_err();
        assert!(too_many_numbers.contains("numbers"), "{too_many_numbers}");
        let no_tasks = Plan::sum(&sum_options(&[2], 0, 1000)).unwrap_err();
        assert!(no_tasks.contains("tasks"), "{no_tasks}");
    }

    #[test]
    fn the_browsers_limits_hold_here_too() {
        use experiments::catalog::{qps, sum};
        assert!(Plan::sum(&sum_options(&[2], sum::TASKS.max as u32, sum::NUMBERS.max)).is_ok());
        let too_many = Plan::sum(&sum_options(&[2], 8, sum::NUMBERS.max + 1)).unwrap_err();
        assert!(too_many.contains("numbers") && too_many.contains(&sum::NUMBERS.max.to_string()), "{too_many}");
        assert!(too_many.contains("browser"), "{too_many}");
        let options = QpsOptions {
            workers: vec![2],
            requests: qps::REQUESTS.max as u32 + 1,
            concurrency: 10,
            work_us: 50,
            wait_ms: 10,
            reps: 1,
        };
        assert!(Plan::qps(&options).unwrap_err().contains("requests"));
    }

    #[test]
    fn cost_starts_a_new_baseline_for_every_task_size_and_for_switching() {
        let options = CostOptions { workers: 2, tasks: 1_000, sqrt: vec![1, 100, 1], trips: 1_000, reps: 1 };
        let plan = Plan::cost(&options).unwrap();
        let baselines: Vec<&str> = plan.jobs.iter().filter(|j| j.baseline).map(|j| j.name.as_str()).collect();
        assert_eq!(
            baselines,
            [
                "BenchmarkCost/loop/tasks=1000/sqrt=1",
                "BenchmarkCost/loop/tasks=1000/sqrt=100",
                "BenchmarkSwitch/threads/trips=1000"
            ]
        );
        assert_eq!(plan.jobs.len(), 2 * 3 + 2);
        let last = &plan.jobs.last().unwrap().job;
        assert_eq!((last.variant, last.workers), (Variant::Goroutines, 1));
        let no_switching = Plan::cost(&CostOptions { trips: 0, ..options }).unwrap();
        assert!(no_switching.jobs.iter().all(|j| matches!(j.job.workload, Workload::Granularity { .. })));
    }

    #[test]
    fn hash_reads_the_file_size_and_refuses_a_missing_file() {
        let path = std::env::temp_dir().join(format!("lab-plan-{}.bin", std::process::id()));
        std::fs::write(&path, [7u8; 1000]).unwrap();
        let options = HashOptions { workers: vec![1, 4, 4], hashes: 3, file: Some(path.clone()), mb: 16, reps: 1 };
        let plan = Plan::hash(&options).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(plan.jobs.len(), 3);
        assert_eq!(plan.jobs[0].job.variant, Variant::Sequential);
        let Workload::Hash { source: HashSource::File { bytes, .. }, .. } = &plan.jobs[2].job.workload else {
            panic!("a file job")
        };
        assert_eq!(*bytes, 1000);
        assert_eq!(plan.jobs[2].name, "BenchmarkHash/tasks/hashes=3/workers=4/file=1000B");
        let missing = Plan::hash(&options).unwrap_err();
        assert!(missing.contains("lab-plan-"), "{missing}");
        let generated = Plan::hash(&HashOptions { file: None, mb: 2, ..options }).unwrap();
        let Workload::Hash { source: HashSource::Generated { bytes, .. }, .. } = &generated.jobs[0].job.workload else {
            panic!("generated data")
        };
        assert_eq!(*bytes, 2 << 20);
    }

    #[test]
    fn qps_pairs_a_thread_pool_with_goroutines_per_worker_count() {
        let options =
            QpsOptions { workers: vec![2, 4], requests: 100, concurrency: 10, work_us: 50, wait_ms: 10, reps: 1 };
        let plan = Plan::qps(&options).unwrap();
        let variants: Vec<(Variant, u32)> = plan.jobs.iter().map(|j| (j.job.variant, j.job.workers)).collect();
        assert_eq!(
            variants,
            [(Variant::ThreadPool, 2), (Variant::Goroutines, 2), (Variant::ThreadPool, 4), (Variant::Goroutines, 4)]
        );
        assert_eq!(plan.jobs[1].name, "BenchmarkQPS/goroutines/workers=2/c=10/wait=10ms/work=50us");
        assert!(Plan::qps(&QpsOptions { concurrency: 0, ..options }).is_err());
    }

    #[test]
    fn sort_measures_every_parallel_algorithm_against_bubble_sort() {
        let plan = Plan::sort(&SortOptions { workers: vec![2], tasks: 4, n: 2_000, reps: 1 }).unwrap();
        let algorithms: Vec<SortAlgorithm> = plan
            .jobs
            .iter()
            .map(|j| match j.job.workload {
                Workload::Sort { algorithm, .. } => algorithm,
                _ => panic!("sorting"),
            })
            .collect();
        assert_eq!(
            algorithms,
            [SortAlgorithm::Bubble, SortAlgorithm::ChunkedBubble, SortAlgorithm::OddEven, SortAlgorithm::Merge]
        );
        assert_eq!(plan.jobs[0].job.variant, Variant::Sequential);
    }

    #[test]
    fn demo_always_starts_with_one_worker() {
        let options = DemoOptions { workers: vec![4, 1], tasks: 4, units: 20_000, reps: 3 };
        let plan = Plan::demo(&options).expect("valid");
        let workers: Vec<u32> = plan.jobs.iter().map(|j| j.job.workers).collect();
        assert_eq!(workers, [1, 4]);
        assert_eq!(plan.jobs[1].name, "BenchmarkDemo/tasks=4/workers=4/units=20000");
        assert!(plan
            .jobs
            .iter()
            .all(|j| j.job.variant == Variant::ThreadPool && j.job.workload == Workload::Spin { units: 20_000 }));
    }
}
