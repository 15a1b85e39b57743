//! Turning command-line options into the jobs to measure, in order, each with its benchmark name.
//!
//! The first job of a plan is the baseline every speedup is computed against, as in the browser:
//! the plain loop for `sum`, the tasks on one worker for `demo`.

use crate::cli::{DemoOptions, DocsearchOptions, SumOptions};
use experiments::{Job, Variant, Workload, DEFAULT_SEED};

/// One job to measure and the name it is reported under.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedJob {
    /// `go test -bench` style, e.g. `BenchmarkSum/tasks=8/workers=2/n=10000000`.
    pub name: String,
    pub job: Job,
}

/// The jobs of one command, baseline first.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub jobs: Vec<PlannedJob>,
}

impl Plan {
    /// The Sum chapter: one sequential loop as the baseline, then t tasks on each worker count.
    pub fn sum(options: &SumOptions) -> Result<Plan, String> {
        let job = |variant, workers, tasks| Job {
            workload: Workload::Sum { numbers: options.n, seed: DEFAULT_SEED },
            variant,
            workers,
            tasks,
            repetitions: options.reps,
        };
        let n = options.n;
        let mut jobs =
            vec![PlannedJob { name: format!("BenchmarkSum/sequential/n={n}"), job: job(Variant::Sequential, 1, 1) }];
        for workers in distinct(&options.workers) {
            jobs.push(PlannedJob {
                name: format!("BenchmarkSum/tasks={}/workers={workers}/n={n}", options.tasks),
                job: job(Variant::Tasks, workers, options.tasks),
            });
        }
        Plan::checked(jobs)
    }

    /// The demo: t spin tasks on one worker (the baseline), then on each other worker count.
    pub fn demo(options: &DemoOptions) -> Result<Plan, String> {
        let job = |workers| Job {
            workload: Workload::Spin { units: options.units },
            variant: Variant::Tasks,
            workers,
            tasks: options.tasks,
            repetitions: options.reps,
        };
        let mut counts = vec![1];
        counts.extend(&options.workers);
        let jobs = distinct(&counts)
            .into_iter()
            .map(|workers| PlannedJob {
                name: format!("BenchmarkDemo/tasks={}/workers={workers}/units={}", options.tasks, options.units),
                job: job(workers),
            })
            .collect();
        Plan::checked(jobs)
    }

    /// The document search: a sequential loop as the baseline, then threads and goroutines for
    /// every worker count and task count.
    pub fn docsearch(options: &DocsearchOptions) -> Result<Plan, String> {
        let (docs, latency) = (options.docs, options.latency_ms);
        let job = |variant, workers, tasks| Job {
            workload: Workload::DocSearch {
                documents: docs,
                latency_us: latency.saturating_mul(1000),
                seed: DEFAULT_SEED,
            },
            variant,
            workers,
            tasks,
            repetitions: options.reps,
        };
        let suffix = format!("docs={docs}/latency={latency}ms");
        let mut jobs = vec![PlannedJob {
            name: format!("BenchmarkDocsearch/sequential/{suffix}"),
            job: job(Variant::Sequential, 1, 1),
        }];
        for workers in distinct(&options.workers) {
            for tasks in distinct(&options.tasks) {
                for (label, variant) in [("threads", Variant::Tasks), ("goroutines", Variant::Goroutines)] {
                    jobs.push(PlannedJob {
                        name: format!("BenchmarkDocsearch/{label}/tasks={tasks}/workers={workers}/{suffix}"),
                        job: job(variant, workers, tasks),
                    });
                }
            }
        }
        Plan::checked(jobs)
    }

    /// The plan if every job is within the engine's limits, else the first reason it is not.
    fn checked(jobs: Vec<PlannedJob>) -> Result<Plan, String> {
        for planned in &jobs {
            planned.job.validate()?;
        }
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
        assert_eq!((last.variant, last.workers, last.tasks, last.repetitions), (Variant::Tasks, 2, 8, 5));
        assert_eq!(last.workload, Workload::Sum { numbers: 10_000_000, seed: DEFAULT_SEED });
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
    fn demo_always_starts_with_one_worker() {
        let options = DemoOptions { workers: vec![4, 1], tasks: 4, units: 20_000, reps: 3 };
        let plan = Plan::demo(&options).expect("valid");
        let workers: Vec<u32> = plan.jobs.iter().map(|j| j.job.workers).collect();
        assert_eq!(workers, [1, 4]);
        assert_eq!(plan.jobs[1].name, "BenchmarkDemo/tasks=4/workers=4/units=20000");
        assert!(plan
            .jobs
            .iter()
            .all(|j| j.job.variant == Variant::Tasks && j.job.workload == Workload::Spin { units: 20_000 }));
    }
}
