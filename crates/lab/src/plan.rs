//! The jobs one command measures, in order, each with its benchmark name: the experiment's own plan
//! (`LabCommand::plan`, in its catalog module), checked against the browser's limits.
//!
//! The first job of a plan is the baseline every speedup is computed against, as in the browser:
//! the plain loop for `sum`, the tasks on one worker for `demo`. A plan of several comparisons
//! (`cost`) marks where each new baseline starts.

use experiments::catalog::lab::{Benchmark, LabArgs, LabCommand};

/// The jobs of one command, baseline first.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub jobs: Vec<Benchmark>,
}

impl Plan {
    /// `command`'s plan for `args` if every job is within the engine's limits (the browser
    /// chapters' own), else the first reason it is not.
    pub fn new(command: &LabCommand, args: &LabArgs) -> Result<Plan, String> {
        let mut jobs = (command.plan)(args)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::catalog::lab::LabFile;
    use experiments::catalog::ExperimentId::{
        self, BubbleSort, Demo, DocumentSearch, Hashing, Qps, SharedTotal, Sum, TaskGranularity,
    };
    use experiments::{HashSource, SortAlgorithm, Variant, Workload, DEFAULT_SEED};

    /// `id`'s plan with its defaults, each of `given` set.
    fn plan(id: ExperimentId, given: &[(&'static str, &[u64])]) -> Result<Plan, String> {
        plan_with(id, given, None)
    }

    fn plan_with(id: ExperimentId, given: &[(&'static str, &[u64])], file: Option<LabFile>) -> Result<Plan, String> {
        let command = id.experiment().lab.as_ref().expect("a lab command");
        let mut args = given.iter().fold(LabArgs::defaults(command), |args, (flag, values)| args.with(flag, values));
        args.file = file;
        Plan::new(command, &args)
    }

    fn sum_plan(workers: &[u64], tasks: u64, n: u64) -> Result<Plan, String> {
        plan(Sum, &[("workers", workers), ("tasks", &[tasks]), ("n", &[n]), ("reps", &[5])])
    }

    #[test]
    fn sum_measures_the_loop_once_then_each_worker_count() {
        let plan = sum_plan(&[1, 2, 2], 8, 10_000_000).expect("valid");
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
        let given: [(&str, &[u64]); 3] = [("workers", &[1, 2, 2]), ("n", &[100_000]), ("reps", &[1])];
        let plan = plan(SharedTotal, &given).expect("valid");
        let names: Vec<&str> = plan.jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names[0], "BenchmarkSharedTotal/sequential/n=100000");
        assert_eq!(names[4], "BenchmarkSharedTotal/private/workers=2/n=100000");
        assert_eq!(plan.jobs.len(), 1 + 3 * 2, "the loop, then three jobs per distinct worker count");
        assert!(plan.jobs[0].baseline && plan.jobs[1..].iter().all(|j| !j.baseline));
        assert!(plan.jobs[1..].iter().all(|j| j.job.tasks == j.job.workers), "one task per worker");
        // Nine workers would need a ninth counter in the eight-counter cache line.
        assert!(self::plan(SharedTotal, &[("workers", &[9])]).unwrap_err().contains("tasks"));
    }

    #[test]
    fn docsearch_measures_both_kinds_for_every_worker_and_task_count() {
        let given: [(&str, &[u64]); 5] =
            [("workers", &[1, 2]), ("tasks", &[8]), ("docs", &[100]), ("latency-ms", &[1]), ("reps", &[1])];
        let plan = plan(DocumentSearch, &given).unwrap();
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
        let too_slow = self::plan(DocumentSearch, &[("latency-ms", &[1_000])]);
        assert!(too_slow.unwrap_err().contains("latency"));
    }

    #[test]
    fn out_of_range_jobs_are_refused_with_a_reason() {
        let zero_workers = sum_plan(&[0], 8, 1000).unwrap_err();
        assert!(zero_workers.contains("workers"), "{zero_workers}");
        let too_many_numbers = sum_plan(&[2], 8, 10_000_000_000).unwrap_err();
        assert!(too_many_numbers.contains("numbers"), "{too_many_numbers}");
        let no_tasks = sum_plan(&[2], 0, 1000).unwrap_err();
        assert!(no_tasks.contains("tasks"), "{no_tasks}");
    }

    #[test]
    fn the_browsers_limits_hold_here_too() {
        use experiments::catalog::{qps, sum};
        assert!(sum_plan(&[2], sum::TASKS.max, sum::NUMBERS.max).is_ok());
        let too_many = sum_plan(&[2], 8, sum::NUMBERS.max + 1).unwrap_err();
        assert!(too_many.contains("numbers") && too_many.contains(&sum::NUMBERS.max.to_string()), "{too_many}");
        assert!(too_many.contains("browser"), "{too_many}");
        assert!(plan(Qps, &[("requests", &[qps::REQUESTS.max + 1])]).unwrap_err().contains("requests"));
        // A count beyond a u32 is refused by the plan, not wrapped.
        assert!(plan(Qps, &[("requests", &[5_000_000_000])]).unwrap_err().contains("too large"));
    }

    #[test]
    fn cost_starts_a_new_baseline_for_every_task_size_and_for_switching() {
        let given: [(&str, &[u64]); 5] =
            [("workers", &[2]), ("tasks", &[1_000]), ("sqrt", &[1, 100, 1]), ("trips", &[1_000]), ("reps", &[1])];
        let plan = plan(TaskGranularity, &given).unwrap();
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
        let no_switching = self::plan(TaskGranularity, &[("trips", &[0])]).unwrap();
        assert!(no_switching.jobs.iter().all(|j| matches!(j.job.workload, Workload::Granularity { .. })));
    }

    #[test]
    fn hash_reads_the_file_size_and_refuses_a_missing_file() {
        let path = std::env::temp_dir().join(format!("lab-plan-{}.bin", std::process::id()));
        std::fs::write(&path, [7u8; 1000]).unwrap();
        let given: [(&str, &[u64]); 4] = [("workers", &[1, 4, 4]), ("hashes", &[3]), ("mb", &[16]), ("reps", &[1])];
        let cli = crate::cli::Cli::try_parse_from(["lab", "hash", "--file", path.to_str().unwrap()]).unwrap();
        let file = cli.resolved_args().unwrap().file;
        let plan = plan_with(Hashing, &given, file).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(plan.jobs.len(), 3);
        assert_eq!(plan.jobs[0].job.variant, Variant::Sequential);
        let Workload::Hash { source: HashSource::File { bytes, .. }, .. } = &plan.jobs[2].job.workload else {
            panic!("a file job")
        };
        assert_eq!(*bytes, 1000);
        assert_eq!(plan.jobs[2].name, "BenchmarkHash/tasks/hashes=3/workers=4/file=1000B");
        let missing = cli.resolved_args().unwrap_err();
        assert!(missing.contains("lab-plan-"), "{missing}");
        let generated = self::plan(Hashing, &[("mb", &[2])]).unwrap();
        let Workload::Hash { source: HashSource::Generated { bytes, .. }, .. } = &generated.jobs[0].job.workload else {
            panic!("generated data")
        };
        assert_eq!(*bytes, 2 << 20);
    }

    #[test]
    fn qps_pairs_a_thread_pool_with_goroutines_per_worker_count() {
        let given: [(&str, &[u64]); 6] = [
            ("workers", &[2, 4]),
            ("requests", &[100]),
            ("concurrency", &[10]),
            ("work-us", &[50]),
            ("wait-ms", &[10]),
            ("reps", &[1]),
        ];
        let plan = plan(Qps, &given).unwrap();
        let variants: Vec<(Variant, u32)> = plan.jobs.iter().map(|j| (j.job.variant, j.job.workers)).collect();
        assert_eq!(
            variants,
            [(Variant::ThreadPool, 2), (Variant::Goroutines, 2), (Variant::ThreadPool, 4), (Variant::Goroutines, 4)]
        );
        assert_eq!(plan.jobs[1].name, "BenchmarkQPS/goroutines/workers=2/c=10/wait=10ms/work=50us");
        assert!(self::plan(Qps, &[("concurrency", &[0])]).is_err());
    }

    #[test]
    fn sort_measures_every_parallel_algorithm_against_bubble_sort() {
        let plan = plan(BubbleSort, &[("workers", &[2]), ("tasks", &[4]), ("n", &[2_000]), ("reps", &[1])]).unwrap();
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
        let given: [(&str, &[u64]); 4] = [("workers", &[4, 1]), ("tasks", &[4]), ("units", &[20_000]), ("reps", &[3])];
        let plan = plan(Demo, &given).expect("valid");
        let workers: Vec<u32> = plan.jobs.iter().map(|j| j.job.workers).collect();
        assert_eq!(workers, [1, 4]);
        assert_eq!(plan.jobs[1].name, "BenchmarkDemo/tasks=4/workers=4/units=20000");
        assert!(plan
            .jobs
            .iter()
            .all(|j| j.job.variant == Variant::ThreadPool && j.job.workload == Workload::Spin { units: 20_000 }));
    }
}
