//! What a task costs, part one: x tiny tasks of each size as a loop, on a thread pool and as
//! goroutines, on one worker and on k; and a sweep of the task count, as the Hindi article's chart.

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{Experiment, ExperimentId, KnobReader, Machine, Mode, Query, Runs, EVERY_MODE};
use crate::job::{Job, Variant, Workload};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
/// X: how many tasks (or loop iterations) per measurement.
pub const TASKS: ParamRange = ParamRange::new("tasks", 1_000, 100_000, 10_000);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 20, 3);

/// Square roots per task, as in the article.
pub const SQRT_COUNTS: [u32; 5] = [1, 10, 100, 1_000, 5_000];

/// The largest task count of the task-count sweep (the Hindi article's x-axis reaches 700,000
/// goroutines). All of them are alive at once on the task runtime: about 65 MB at ~93 B each.
pub const COUNT_SWEEP_UP_TO: ParamRange = ParamRange::new("upto", 1_000, 700_000, 100_000);

pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 2, max_workers(hardware_concurrency), 2)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::TaskGranularity,
    chapter: "task-costs",
    quick: "tasks=1000&workers=2&reps=1",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::Sequential, Variant::ThreadPool, Variant::Goroutines],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub workers: u32,
    pub tasks: u32,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (workers(1).key, self.workers.to_string()),
            (TASKS.key, self.tasks.to_string()),
            (REPETITIONS.key, self.repetitions.to_string()),
        ]
    }
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

/// The knobs, in the panel's order; without shared memory the worker count stays at one (the
/// slider is shown, disabled).
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    let workers = if machine.mode == Mode::Threads { r.value(&workers(machine.cores)) as u32 } else { 1 };
    Settings { workers, tasks: r.value(&TASKS) as u32, repetitions: r.value(&REPETITIONS) as u32 }
}

/// The (variant, workers) lines measured beside the loop: one worker, and k with shared memory.
pub fn kinds(s: &Settings, mode: Mode) -> Vec<(Variant, u32)> {
    let mut kinds = vec![(Variant::ThreadPool, 1), (Variant::Goroutines, 1)];
    if mode == Mode::Threads {
        kinds.extend([(Variant::ThreadPool, s.workers), (Variant::Goroutines, s.workers)]);
    }
    kinds
}

/// x tasks of `sqrt` square roots each.
pub fn job(s: &Settings, variant: Variant, workers: u32, sqrt: u32) -> Job {
    Job { workload: Workload::Granularity { sqrt }, variant, workers, tasks: s.tasks, repetitions: s.repetitions }
}

/// Run: for every task size, the loop and then each of [`kinds`].
pub fn run_jobs(s: &Settings, mode: Mode) -> Vec<Job> {
    let kinds = kinds(s, mode);
    let mut jobs = Vec::new();
    for &sqrt in &SQRT_COUNTS {
        jobs.push(job(s, Variant::Sequential, 1, sqrt));
        jobs.extend(kinds.iter().map(|&(variant, workers)| job(s, variant, workers, sqrt)));
    }
    jobs
}

/// The task counts the count sweep measures: 1,000, 10,000, 100,000 as far as `up_to`, then `up_to`.
pub fn sweep_task_counts(up_to: u32) -> Vec<u32> {
    let up_to = up_to.clamp(COUNT_SWEEP_UP_TO.min as u32, COUNT_SWEEP_UP_TO.max as u32);
    let mut counts: Vec<u32> = [1_000, 10_000, 100_000].into_iter().filter(|&c| c < up_to).collect();
    counts.push(up_to);
    counts
}

/// Sweep task counts: for every count (smallest first) and task size, the loop and then goroutines,
/// both on one worker (the article's GOMAXPROCS=1), so only the cost of the tasks differs.
pub fn count_sweep_jobs(s: &Settings, up_to: u32) -> Vec<Job> {
    let mut jobs = Vec::new();
    for tasks in sweep_task_counts(up_to) {
        let at = Settings { tasks, ..*s };
        for &sqrt in &SQRT_COUNTS {
            jobs.push(job(&at, Variant::Sequential, 1, sqrt));
            jobs.push(job(&at, Variant::Goroutines, 1, sqrt));
        }
    }
    jobs
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    let s = read(r, machine);
    let up_to = r.value(&COUNT_SWEEP_UP_TO) as u32;
    vec![run_jobs(&s, machine.mode), count_sweep_jobs(&s, up_to)]
}

/// `lab cost`: what a task costs (this experiment), then what a switch costs (`task_switch`).
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "cost",
    about: "What a task costs: t tiny tasks as a loop, on a thread pool and as goroutines, for each task \
            size; then a turn handed back and forth between two threads and between two goroutines.",
    options: &[
        LabOption {
            flag: "workers",
            help: "Workers of the thread pool and of the goroutine runtime.",
            value: LabValue::Count(2),
        },
        LabOption { flag: "tasks", help: "Tasks t per run.", value: LabValue::Count(TASKS.default) },
        LabOption {
            flag: "sqrt",
            help: "Task sizes: square roots each task computes, comma-separated.",
            value: LabValue::Counts("1,100,5000"),
        },
        LabOption {
            flag: "trips",
            help: "Round trips of the turn handed between two threads or two goroutines (0 skips it).",
            value: LabValue::Count(super::task_switch::ROUND_TRIPS.default),
        },
        LabOption { flag: "reps", help: "Timed repetitions of each job.", value: LabValue::Count(REPETITIONS.default) },
    ],
    plan: lab_plan,
};

/// For each task size, t tasks as a loop (the baseline of that size), on a thread pool and as
/// goroutines; then handing a turn between two threads (the baseline) and two goroutines.
#[cfg(feature = "lab")]
fn lab_plan(args: &super::lab::LabArgs) -> Result<Vec<super::lab::Benchmark>, String> {
    use super::lab::Benchmark;
    use super::task_switch;
    let (workers, tasks, repetitions) = (args.count32("workers")?, args.count32("tasks")?, args.count32("reps")?);
    let settings = Settings { workers, tasks, repetitions };
    let mut jobs = Vec::new();
    for sqrt in args.distinct32("sqrt")? {
        let suffix = format!("tasks={tasks}/sqrt={sqrt}");
        jobs.push(Benchmark::baseline(
            format!("BenchmarkCost/loop/{suffix}"),
            job(&settings, Variant::Sequential, 1, sqrt),
        ));
        jobs.push(Benchmark::new(
            format!("BenchmarkCost/threads/workers={workers}/{suffix}"),
            job(&settings, Variant::ThreadPool, workers, sqrt),
        ));
        jobs.push(Benchmark::new(
            format!("BenchmarkCost/goroutines/workers={workers}/{suffix}"),
            job(&settings, Variant::Goroutines, workers, sqrt),
        ));
    }
    let trips = args.count32("trips")?;
    if trips > 0 {
        let settings = task_switch::Settings { round_trips: trips, repetitions };
        jobs.push(Benchmark::baseline(
            format!("BenchmarkSwitch/threads/trips={trips}"),
            task_switch::job(&settings, Variant::ThreadPool, 2),
        ));
        jobs.push(Benchmark::new(
            format!("BenchmarkSwitch/goroutines/trips={trips}"),
            task_switch::job(&settings, Variant::Goroutines, 1),
        ));
    }
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_sweep_goes_by_decades_to_its_end() {
        assert_eq!(sweep_task_counts(700_000), vec![1_000, 10_000, 100_000, 700_000]);
        assert_eq!(sweep_task_counts(100_000), vec![1_000, 10_000, 100_000]);
        assert_eq!(sweep_task_counts(2_000), vec![1_000, 2_000]);
        assert_eq!(sweep_task_counts(1_000), vec![1_000]);
        assert_eq!(sweep_task_counts(u32::MAX).last(), Some(&700_000));
    }

    #[test]
    fn the_count_sweep_pairs_each_goroutine_job_with_its_loop_on_one_worker() {
        let s = Settings { workers: 4, tasks: 10_000, repetitions: 2 };
        let jobs = count_sweep_jobs(&s, 700_000);
        assert_eq!(jobs.len(), 4 * SQRT_COUNTS.len() * 2);
        assert!(jobs.len() <= crate::job::limits::MAX_JOBS_PER_RUN);
        assert!(jobs.iter().all(|j| j.workers == 1 && j.repetitions == 2));
        for pair in jobs.chunks(2) {
            assert_eq!((pair[0].variant, pair[1].variant), (Variant::Sequential, Variant::Goroutines));
            assert_eq!((&pair[0].workload, pair[0].tasks), (&pair[1].workload, pair[1].tasks));
        }
        assert!(crate::job::validate_run(&jobs).is_ok());
    }
}
