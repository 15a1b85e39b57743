//! When a measurement should not be taken at face value: widely spread repetitions, fewer workers
//! at work than the job allowed, or a machine that never became quiet before the timing.
//!
//! The page shows these beside the row in plain words instead of a bare speedup. They are read off
//! the measurement itself; nothing here changes a number.

use crate::job::Variant;
use crate::results::Measurement;
use serde::{Deserialize, Serialize};

/// Repetitions whose slowest took more than this many times the fastest are called noisy.
pub const NOISY_SPREAD: f64 = 1.5;

/// Tasks shorter than this (median, in ms) are "small": a sleeping worker can take about as long
/// to wake up as one such task takes to run, so the first worker may finish them all alone.
pub const SMALL_TASK_MS: f64 = 0.2;

/// One reason to doubt a measurement.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "doubt", rename_all = "snake_case")]
pub enum Doubt {
    /// The slowest repetition took `spread` times as long as the fastest.
    Noisy { spread: f64 },
    /// In the repetition shown, only `used` of the `possible` workers (the least of workers, tasks
    /// and logical processors) ran a task; the tasks took `task_ms` each (median).
    FewWorkers { used: u32, possible: u32, task_ms: f64 },
    /// The machine did not become quiet within the time allowed before the timing began.
    Busy,
    /// The machine was quiet before the timing but busy right after it.
    BusyDuring,
}

impl Doubt {
    /// Whether the few-workers doubt comes from tasks too small to spread (rather than a busy machine).
    pub fn small_tasks(&self) -> bool {
        matches!(*self, Doubt::FewWorkers { task_ms, .. } if task_ms < SMALL_TASK_MS)
    }
}

/// Everything that makes `m`, measured on a machine of `cores` logical processors, doubtful, most
/// serious first; empty when it can be trusted. (With more workers than cores, only as many as
/// there are cores can run at once: that some never get a task is the lesson, not a doubt.)
pub fn doubts(m: &Measurement, cores: u32) -> Vec<Doubt> {
    let mut found = Vec::new();
    match m.startup {
        Some(startup) if !startup.quiet => found.push(Doubt::Busy),
        Some(startup) if !startup.quiet_after => found.push(Doubt::BusyDuring),
        _ => {}
    }
    if let Some(doubt) = few_workers(m, cores) {
        found.push(doubt);
    }
    let spread = m.summary.max_ms / m.summary.min_ms;
    if m.samples_ms.len() >= 2 && spread.is_finite() && spread > NOISY_SPREAD {
        found.push(Doubt::Noisy { spread });
    }
    found
}

fn few_workers(m: &Measurement, cores: u32) -> Option<Doubt> {
    let job = &m.job;
    if job.variant == Variant::Sequential || m.trace.spans.is_empty() || m.trace.shown_until_ms.is_some() {
        return None;
    }
    let possible = job.workers.min(job.tasks).min(cores.max(1));
    let used = m.trace.workers_used().len() as u32;
    if possible < 2 || used >= possible {
        return None;
    }
    let mut durations: Vec<f64> = m.trace.spans.iter().map(|s| s.end_ms - s.start_ms).collect();
    durations.sort_by(f64::total_cmp);
    let task_ms = durations[(durations.len() - 1) / 2];
    Some(Doubt::FewWorkers { used, possible, task_ms })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::{Job, Workload};
    use crate::results::{Check, Span, Startup, Trace};

    fn measured(variant: Variant, workers: u32, tasks: u32, samples: &[f64], spans: &[(u32, f64)]) -> Measurement {
        let job = Job { workload: Workload::Sum { numbers: 1_000, seed: 1 }, variant, workers, tasks, repetitions: 3 };
        let spans = spans
            .iter()
            .enumerate()
            .map(|(task, &(worker, ms))| Span { worker, task: task as u32, start_ms: 0.0, end_ms: ms })
            .collect();
        let trace = Trace { spans, wall_ms: 1.0, ..Trace::default() };
        let samples = samples.iter().map(|&t| (t, trace.clone())).collect();
        let check = Check { ok: true, value: "1".into(), expected: "1".into() };
        Measurement::from_samples(job, samples, check, None)
    }

    #[test]
    fn a_tight_balanced_run_is_trusted() {
        let m = measured(Variant::ThreadPool, 2, 4, &[1.0, 1.1, 1.05], &[(0, 0.4), (1, 0.4), (0, 0.4), (1, 0.4)]);
        assert_eq!(doubts(&m, 8), vec![]);
    }

    #[test]
    fn wide_spread_is_noisy() {
        let m = measured(Variant::Sequential, 1, 1, &[1.0, 1.6, 1.2], &[(0, 1.0)]);
        assert!(matches!(doubts(&m, 8)[..], [Doubt::Noisy { spread }] if (spread - 1.6).abs() < 1e-9));
        // A spread of exactly the limit is not yet noisy, and one sample has no spread.
        assert_eq!(doubts(&measured(Variant::Sequential, 1, 1, &[1.0, 1.5], &[(0, 1.0)]), 8), vec![]);
        assert_eq!(doubts(&measured(Variant::Sequential, 1, 1, &[7.0], &[(0, 1.0)]), 8), vec![]);
    }

    #[test]
    fn one_worker_taking_every_task_is_flagged_with_the_task_size() {
        let m = measured(Variant::ThreadPool, 2, 8, &[1.0, 1.0], &[(0, 0.05); 8]);
        let found = doubts(&m, 8);
        assert_eq!(found, vec![Doubt::FewWorkers { used: 1, possible: 2, task_ms: 0.05 }]);
        assert!(found[0].small_tasks());
        let big = measured(Variant::ThreadPool, 4, 3, &[1.0, 1.0], &[(0, 2.0), (0, 2.0), (1, 2.0)]);
        let found = doubts(&big, 8);
        assert_eq!(found, vec![Doubt::FewWorkers { used: 2, possible: 3, task_ms: 2.0 }]);
        assert!(!found[0].small_tasks());
    }

    #[test]
    fn more_workers_than_cores_need_not_all_take_tasks() {
        // Three of four workers took tasks on a 2-core machine: at most two ran at once anyway.
        let m = measured(Variant::ThreadPool, 4, 8, &[1.0, 1.0], &[(0, 1.0), (1, 1.0), (3, 1.0), (0, 1.0)]);
        assert_eq!(doubts(&m, 2), vec![]);
        // One of them alone, though, is a doubt on any machine of two or more cores.
        let alone = measured(Variant::ThreadPool, 4, 8, &[1.0, 1.0], &[(2, 1.0); 4]);
        assert!(matches!(doubts(&alone, 2)[..], [Doubt::FewWorkers { used: 1, possible: 2, .. }]));
    }

    #[test]
    fn fewer_tasks_than_workers_is_not_a_doubt() {
        // Two tasks can occupy at most two of eight workers.
        let m = measured(Variant::ThreadPool, 8, 2, &[1.0, 1.0], &[(3, 1.0), (5, 1.0)]);
        assert_eq!(doubts(&m, 8), vec![]);
    }

    #[test]
    fn a_busy_machine_is_said_first() {
        let mut m = measured(Variant::ThreadPool, 2, 2, &[1.0, 2.0], &[(0, 1.0), (0, 1.0)]);
        m.startup =
            Some(Startup { workers_ms: None, settle_ms: 2_000.0, warm_up_rounds: 9, quiet: false, quiet_after: true });
        let found = doubts(&m, 8);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0], Doubt::Busy);
        assert!(matches!(found[1], Doubt::FewWorkers { used: 1, possible: 2, .. }));
        assert!(matches!(found[2], Doubt::Noisy { .. }));
        m.startup = m.startup.map(|s| Startup { quiet: true, quiet_after: false, ..s });
        assert_eq!(doubts(&m, 8)[0], Doubt::BusyDuring);
    }
}
