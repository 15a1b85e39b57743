//! When a measurement should not be taken at face value: widely spread repetitions, fewer workers
//! at work than the job allowed, a machine that never became quiet before the timing or got busy
//! during it, a speedup beyond what the workers that can run at once could ever give, or workers
//! slower than the loop at its own work.
//!
//! The page shows these beside the row in plain words instead of a bare speedup, and the engine
//! measures a job a second time when its first attempt shows one that a disturbance explains
//! (`engine::harness`). They are read off the measurements themselves; nothing here changes a number.

use crate::job::{Job, Variant};
use crate::results::Measurement;
use crate::stats;
use serde::{Deserialize, Serialize};

/// Repetitions whose slowest took more than this many times the fastest are called noisy. Each
/// sample lasts at least [`crate::SAMPLE_FLOOR_MS`], so on a quiet machine they agree within a few
/// per cent; a spread of 30 % means something took the cores away for a good part of a sample.
/// With [`TRIM_FROM`] repetitions or more, the spread is judged without the single fastest and
/// slowest (see [`median_spread`]).
pub const NOISY_SPREAD: f64 = 1.3;

/// From this many repetitions on, one stray repetition at either end does not make a measurement
/// noisy: the median shown does not depend on it. On a 2-core VM whose host shares its memory
/// bandwidth, the Sum's 100 ms samples on 2 workers came out like 1.22, 1.25, 1.26, 1.50, 1.79 ms
/// (median 1.26): max / min 1.47, the middle three within 1.2×. Natively, 10 repetitions of the
/// same job strayed up to 1.23× with nothing else running.
pub const TRIM_FROM: usize = 5;

/// How widely the repetitions that decide the median spread, slowest ÷ fastest: all of them, or,
/// with [`TRIM_FROM`] or more, all but the single fastest and the single slowest. NaN for none.
pub fn median_spread(samples: &[f64]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let kept = if sorted.len() >= TRIM_FROM { &sorted[1..sorted.len() - 1] } else { &sorted[..] };
    match (kept.first(), kept.last()) {
        (Some(low), Some(high)) => high / low,
        _ => f64::NAN,
    }
}

/// A speedup may pass its ceiling by this factor (or by its run's own spread, if larger) before it
/// is called impossible rather than "at the ceiling": the clock and a median of a few samples are
/// not exact to the per cent.
pub const CEILING_TOLERANCE: f64 = 1.03;

/// Workers that each had a core to themselves do the loop's work at the loop's pace: their tasks'
/// time, summed, is the loop's. When it is more than this many times the loop's, the cores were
/// not theirs alone for a good part of the run (another program, or a host that runs the machine's
/// processors on fewer real cores), and the speedup is lower than the machine gives when free.
pub const SLOW_PACE: f64 = 1.25;

/// The pace is compared only when the loop's traced pass ran at least this long: over a pass of a
/// few milliseconds one interruption decides it.
pub const PACE_MIN_MS: f64 = 20.0;

/// Speedups are shown to this many decimals (`1.87×`).
pub const SHOWN_DECIMALS: i32 = 2;

/// Tasks shorter than this (median, in ms) are "small": a sleeping worker can take about as long
/// to wake up as one such task takes to run, so the first worker may finish them all alone.
pub const SMALL_TASK_MS: f64 = 0.2;

/// Barriers closer together than this (µs of the pass's time per barrier) leave the tasks between
/// them about as little work as handing it out and waiting at the barrier cost, and that cost is
/// not the same from run to run: an odd–even sort of 5,000 numbers on 2 workers (a barrier every
/// 2–4 µs) measured 1.4× in some runs and 0.6× in others, each run steady within itself, while its
/// one-worker job, timed in turns with it, stayed within 3 % (2-core VM, Chromium 156).
pub const BARRIER_NOTE_US: f64 = 50.0;

/// One reason to doubt a measurement, or (for [`Doubt::AtCeiling`]) to read it with care. Serde's
/// externally tagged form (`{"noisy":{"spread":1.4}}`): it crosses the protocol in a measured first
/// attempt, and an internally tagged enum would buffer each into serde's `Content` (ARCHITECTURE.md).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// The speedup over the baseline, `speedup`, is more than `ceiling` (the workers that can run at
    /// once, never more than the cores) by more than the run's own spread: CPU-bound work cannot
    /// gain that, so one of the two measurements was disturbed.
    BeyondCeiling { speedup: f64, ceiling: u32 },
    /// The speedup is a little above `ceiling`, within the run's own spread: it means "about
    /// `ceiling`×", the most these workers can give. A note for the reader, not a warning.
    AtCeiling { speedup: f64, ceiling: u32 },
    /// Workers no more than the cores spent `slowdown` times as long on the loop's work as the loop
    /// did alone (their tasks' busy time over the loop's): they did not have a core each.
    SlowWorkers { slowdown: f64 },
    /// The tasks waited for one another at a barrier up to `barriers` times a pass, one every
    /// `every_us` µs or less (see [`BARRIER_NOTE_US`]): the time is right for this run, and the next
    /// run may differ a lot. A note for the reader, not a warning.
    FrequentBarriers { barriers: u32, every_us: f64 },
    /// The repetitions of a job whose tasks took `task_ms` each (median), under
    /// [`SMALL_TASK_MS`], on two workers or more, spread `spread` (slowest ÷ fastest, beyond
    /// [`NOISY_SPREAD`]): a pass waits on every worker many times over, so a moment in which one
    /// worker is held up stalls the whole pass, and how many such moments a repetition meets is
    /// not the same from one repetition to the next (measured:
    /// a merge sort of 5,000 numbers in 4 tasks of 15 µs on 2 workers spread 1.45–3.04× on 4 of 10
    /// fresh pages, while its native twin, the same jobs on OS threads just before each page,
    /// spread under 1.3× on all 10; 2-core VM, Chromium 156). The time is what this run measured;
    /// the next may differ. A note for the reader, not a warning.
    SmallTasksVary { task_ms: f64, spread: f64 },
}

impl Doubt {
    /// Whether the few-workers doubt comes from tasks too small to spread (rather than a busy machine).
    pub fn small_tasks(&self) -> bool {
        matches!(*self, Doubt::FewWorkers { task_ms, .. } if task_ms < SMALL_TASK_MS)
    }

    /// Whether it says the number may be wrong (shown with a warning sign), rather than how to
    /// read a right one.
    pub fn warns(&self) -> bool {
        !matches!(self, Doubt::AtCeiling { .. } | Doubt::FrequentBarriers { .. } | Doubt::SmallTasksVary { .. })
    }

    /// Whether it says that another run may measure something quite different.
    pub fn varies_between_runs(&self) -> bool {
        matches!(self, Doubt::FrequentBarriers { .. } | Doubt::SmallTasksVary { .. })
    }

    /// Whether measuring again, at once, can clear it: a disturbance (a noisy or impossible
    /// result, a machine that got busy) may be gone a second later; tasks too few to spread, or a
    /// machine that never became quiet in the time allowed, will not be.
    pub fn worth_measuring_again(&self) -> bool {
        matches!(
            self,
            Doubt::Noisy { .. } | Doubt::BusyDuring | Doubt::BeyondCeiling { .. } | Doubt::SlowWorkers { .. }
        )
    }
}

/// Everything that makes `m`, measured on a machine of `cores` logical processors, doubtful, most
/// serious first; empty when it can be trusted. (With more workers than cores, only as many as
/// there are cores can run at once: that some never get a task is the lesson, not a doubt.) Its
/// speedup is judged apart, against its baseline: [`speedup_doubt`]; and what another run may
/// change, which no second attempt settles, by [`barrier_note`] (the page's alone: the engine's
/// second look never needs it).
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
    // Judged on the repetitions that decide the median; said as the whole run's spread.
    let spread = m.summary.max_ms / m.summary.min_ms;
    let judged = median_spread(&m.samples_ms);
    if m.samples_ms.len() >= 2 && spread.is_finite() && judged.is_finite() && judged > NOISY_SPREAD {
        found.push(match small_tasks_ms(m) {
            Some(task_ms) => Doubt::SmallTasksVary { task_ms, spread },
            None => Doubt::Noisy { spread },
        });
    }
    found
}

/// The median task's time of `m` (ms) when its tasks ran on two workers or more and took under
/// [`SMALL_TASK_MS`] each: then how the tasks were handed out decides its time as much as the
/// tasks do. `None` otherwise, or without a complete trace to tell.
fn small_tasks_ms(m: &Measurement) -> Option<f64> {
    let complete = !m.trace.spans.is_empty() && m.trace.shown_until_ms.is_none();
    if m.job.variant == Variant::Sequential || m.job.effective_workers() < 2 || !complete {
        return None;
    }
    let task_ms = median_task_ms(m);
    (task_ms < SMALL_TASK_MS).then_some(task_ms)
}

/// The median of `m`'s traced tasks' times (ms); call with spans.
fn median_task_ms(m: &Measurement) -> f64 {
    let mut durations: Vec<f64> = m.trace.spans.iter().map(|s| s.end_ms - s.start_ms).collect();
    durations.sort_by(f64::total_cmp);
    durations[(durations.len() - 1) / 2]
}

/// Everything that makes the row of `m` doubtful, as the page and `lab` show it: its own
/// [`doubts`] and, when it has a `baseline` (the loop it is compared with, not itself), its
/// [`speedup_doubt`] over it.
pub fn row_doubts(baseline: Option<&Measurement>, m: &Measurement, cores: u32) -> Vec<Doubt> {
    let mut found = doubts(m, cores);
    found.extend(baseline.and_then(|base| speedup_doubt(base, m, cores)));
    found
}

/// The most `job` can gain over `baseline` on `cores` logical processors: the workers that can run
/// its tasks at once. `None` when no such bound holds: other work than the baseline's, work that
/// waits (see [`crate::Workload::cpu_bound`]), or a baseline that itself ran on several workers.
pub fn speedup_ceiling(baseline: &Job, job: &Job, cores: u32) -> Option<u32> {
    let cores = cores.max(1);
    let comparable =
        baseline.workload == job.workload && job.workload.cpu_bound() && job.variant != Variant::Sequential;
    (comparable && baseline.effective_workers().min(cores) == 1).then(|| job.effective_workers().min(cores))
}

/// How far the speedups of `m` over `baseline` spread within the run, as highest ÷ lowest: taken
/// round by round when the two were measured in turns (each pair saw the same moment of the
/// machine), else the wider of the two measurements' own spreads.
pub fn speedup_spread(baseline: &Measurement, m: &Measurement) -> f64 {
    let paired = (baseline.interleaved && m.interleaved)
        .then(|| stats::paired_ratios(&baseline.samples_ms, &m.samples_ms))
        .flatten();
    let spread = match paired {
        Some(ratios) => {
            let (low, high) = stats::low_high(&ratios);
            high / low
        }
        None => (baseline.summary.max_ms / baseline.summary.min_ms).max(m.summary.max_ms / m.summary.min_ms),
    };
    if spread.is_finite() {
        spread.max(1.0)
    } else {
        1.0
    }
}

/// What is wrong with the speedup of `m` over `baseline` on a machine of `cores` logical
/// processors: beyond what its workers can give by more than the run's spread, or a little above
/// it, or below it because its workers did the work slower than the loop did ([`SLOW_PACE`]);
/// `None` when it is within reach (or no bound holds).
pub fn speedup_doubt(baseline: &Measurement, m: &Measurement, cores: u32) -> Option<Doubt> {
    let ceiling = speedup_ceiling(&baseline.job, &m.job, cores)?;
    let speedup = stats::speedup(&baseline.summary, &m.summary);
    if !(speedup.is_finite() && shown(speedup) > f64::from(ceiling)) {
        return slow_workers(baseline, m, cores);
    }
    let allowed = f64::from(ceiling) * speedup_spread(baseline, m).max(CEILING_TOLERANCE);
    Some(if speedup > allowed {
        Doubt::BeyondCeiling { speedup, ceiling }
    } else {
        Doubt::AtCeiling { speedup, ceiling }
    })
}

/// [`Doubt::SlowWorkers`] when `m`'s workers, each of which could have had a core (no more of them
/// than cores), spent more than [`SLOW_PACE`] times the loop's busy time on the same work. Only
/// for work whose tasks together do exactly the loop's work (see
/// [`crate::Workload::splits_the_loop`]), from complete traces of passes long enough to tell.
fn slow_workers(baseline: &Measurement, m: &Measurement, cores: u32) -> Option<Doubt> {
    let job = &m.job;
    let free = job.effective_workers() >= 2 && job.workers <= cores.max(1);
    let complete = |trace: &crate::results::Trace| !trace.spans.is_empty() && trace.shown_until_ms.is_none();
    if !(free && job.workload.splits_the_loop() && complete(&baseline.trace) && complete(&m.trace)) {
        return None;
    }
    let (loop_ms, workers_ms) = (baseline.trace.busy_ms(), m.trace.busy_ms());
    let slowdown = workers_ms / loop_ms;
    (loop_ms >= PACE_MIN_MS && slowdown.is_finite() && slowdown > SLOW_PACE).then_some(Doubt::SlowWorkers { slowdown })
}

/// [`Doubt::FrequentBarriers`] when `m` split its work among two workers or more that met at a
/// barrier more often than every [`BARRIER_NOTE_US`] (its median pass over its most barriers).
/// Measuring again does not clear it: the next run is another draw.
pub fn barrier_note(m: &Measurement) -> Option<Doubt> {
    let barriers = m.job.workload.barriers().filter(|_| m.job.effective_workers() >= 2)?;
    let every_us = m.summary.median_ms * 1000.0 / f64::from(barriers.max(1));
    (every_us.is_finite() && every_us < BARRIER_NOTE_US).then_some(Doubt::FrequentBarriers { barriers, every_us })
}

/// `speedup` as the page shows it, to [`SHOWN_DECIMALS`] decimals: 2.003 reads "2.00×", the ceiling
/// itself, and needs no note.
fn shown(speedup: f64) -> f64 {
    let scale = 10f64.powi(SHOWN_DECIMALS);
    (speedup * scale).round() / scale
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
    Some(Doubt::FewWorkers { used, possible, task_ms: median_task_ms(m) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::Workload;
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
    fn small_tasks_on_several_workers_vary_rather_than_warn() {
        // Four tasks of 15 µs on 2 workers, repetitions 1.0, 1.1 and 3.0: handing them out decided
        // the time; a note, not a warning.
        let spans = [(0, 0.015), (1, 0.015), (0, 0.015), (1, 0.015)];
        let small = measured(Variant::ThreadPool, 2, 4, &[1.0, 1.1, 3.0], &spans);
        let found = doubts(&small, 2);
        assert!(
            matches!(found[..], [Doubt::SmallTasksVary { task_ms, spread }] if (task_ms - 0.015).abs() < 1e-12 && (spread - 3.0).abs() < 1e-9),
            "{found:?}"
        );
        assert!(!found[0].warns() && found[0].varies_between_runs() && !found[0].worth_measuring_again());
        // The same spread on one worker, or with tasks of 1 ms, is noisy: a warning.
        let one_worker = measured(Variant::ThreadPool, 1, 4, &[1.0, 1.1, 3.0], &spans);
        assert!(matches!(doubts(&one_worker, 2)[..], [Doubt::Noisy { .. }]));
        let large = [(0, 1.0), (1, 1.0), (0, 1.0), (1, 1.0)];
        let large_tasks = measured(Variant::ThreadPool, 2, 4, &[1.0, 1.1, 3.0], &large);
        assert!(matches!(doubts(&large_tasks, 2)[..], [Doubt::Noisy { .. }]));
        // Small tasks whose repetitions agree: nothing to say.
        assert_eq!(doubts(&measured(Variant::ThreadPool, 2, 4, &[1.0, 1.1, 1.2], &spans), 2), vec![]);
    }

    #[test]
    fn wide_spread_is_noisy() {
        let m = measured(Variant::Sequential, 1, 1, &[1.0, 1.6, 1.2], &[(0, 1.0)]);
        assert!(matches!(doubts(&m, 8)[..], [Doubt::Noisy { spread }] if (spread - 1.6).abs() < 1e-9));
        // A spread of exactly the limit is not yet noisy, and one sample has no spread.
        assert_eq!(doubts(&measured(Variant::Sequential, 1, 1, &[1.0, NOISY_SPREAD], &[(0, 1.0)]), 8), vec![]);
        assert_eq!(doubts(&measured(Variant::Sequential, 1, 1, &[7.0], &[(0, 1.0)]), 8), vec![]);
    }

    #[test]
    fn with_five_repetitions_one_stray_at_either_end_is_not_noise() {
        // Measured: the median (1.26) does not depend on the 1.79, nor on the 1.22.
        let stray = measured(Variant::Sequential, 1, 1, &[1.25, 1.26, 1.79, 1.50, 1.22], &[(0, 1.0)]);
        assert_eq!(median_spread(&stray.samples_ms), 1.50 / 1.25);
        assert_eq!(doubts(&stray, 8), vec![]);
        // Two slow ones move the middle: noisy, and said as the whole run's spread.
        let two = measured(Variant::Sequential, 1, 1, &[2.4, 2.4, 3.5, 3.5, 4.0], &[(0, 1.0)]);
        assert!(matches!(doubts(&two, 8)[..], [Doubt::Noisy { spread }] if (spread - 4.0 / 2.4).abs() < 1e-9));
        // Fewer than five: every repetition counts, as before.
        assert_eq!(median_spread(&[1.0, 1.1, 1.6, 1.05]), 1.6);
        assert!(median_spread(&[]).is_nan());
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

    fn sum_job(variant: Variant, workers: u32, tasks: u32) -> Job {
        Job { workload: Workload::Sum { numbers: 1_000, seed: 1 }, variant, workers, tasks, repetitions: 3 }
    }

    #[test]
    fn the_ceiling_is_the_workers_that_run_at_once() {
        let loop_ = sum_job(Variant::Sequential, 1, 1);
        assert_eq!(speedup_ceiling(&loop_, &sum_job(Variant::ThreadPool, 2, 8), 2), Some(2));
        assert_eq!(speedup_ceiling(&loop_, &sum_job(Variant::ThreadPool, 4, 8), 2), Some(2), "two cores");
        assert_eq!(speedup_ceiling(&loop_, &sum_job(Variant::ThreadPool, 4, 3), 8), Some(3), "three tasks");
        assert_eq!(speedup_ceiling(&loop_, &loop_, 8), None, "a loop against itself");
        // No bound for work that waits, for other work, or against a baseline on several workers.
        let read = |variant, workers| Job {
            workload: Workload::DocSearch { documents: 10, latency_us: 1_000, seed: 1 },
            ..sum_job(variant, workers, 8)
        };
        assert_eq!(speedup_ceiling(&read(Variant::Sequential, 1), &read(Variant::ThreadPool, 2), 8), None);
        let other = Job { workload: Workload::Sum { numbers: 2_000, seed: 1 }, ..sum_job(Variant::ThreadPool, 2, 8) };
        assert_eq!(speedup_ceiling(&loop_, &other, 8), None);
        assert_eq!(speedup_ceiling(&sum_job(Variant::ThreadPool, 2, 8), &sum_job(Variant::ThreadPool, 4, 8), 8), None);
        // A baseline of tasks on one worker is a baseline of one.
        assert_eq!(
            speedup_ceiling(&sum_job(Variant::ThreadPool, 1, 8), &sum_job(Variant::ThreadPool, 2, 8), 8),
            Some(2)
        );
    }

    fn timed(job: Job, samples: &[f64], interleaved: bool) -> Measurement {
        let check = Check { ok: true, value: "1".into(), expected: "1".into() };
        let samples = samples.iter().map(|&t| (t, Trace::default())).collect();
        let mut m = Measurement::from_samples(job, samples, check, None);
        m.interleaved = interleaved;
        m
    }

    #[test]
    fn a_speedup_beyond_the_cores_is_caught_and_one_at_them_is_read_as_such() {
        let base = timed(sum_job(Variant::Sequential, 1, 1), &[10.0, 10.0, 10.0], true);
        // 3.3x on two cores: impossible for an adding loop.
        let fast = timed(sum_job(Variant::ThreadPool, 2, 8), &[3.0, 3.0, 3.0], true);
        assert_eq!(speedup_doubt(&base, &fast, 2), Some(Doubt::BeyondCeiling { speedup: 10.0 / 3.0, ceiling: 2 }));
        assert!(Doubt::BeyondCeiling { speedup: 3.3, ceiling: 2 }.warns());
        // 2.02x: at the ceiling, within the tolerance; a note, not a warning.
        let at = timed(sum_job(Variant::ThreadPool, 2, 8), &[4.95, 4.95, 4.95], true);
        let doubt = speedup_doubt(&base, &at, 2).expect("above 2x");
        assert!(matches!(doubt, Doubt::AtCeiling { ceiling: 2, .. }));
        assert!(!doubt.warns());
        // 2.004x reads "2.00×", the ceiling itself: nothing to say either.
        let reads_two = timed(sum_job(Variant::ThreadPool, 2, 8), &[4.99, 4.99, 4.99], true);
        assert_eq!(speedup_doubt(&base, &reads_two, 2), None);
        // 1.9x: nothing to say. So is 3.3x on a machine of four cores.
        let within = timed(sum_job(Variant::ThreadPool, 2, 8), &[5.3, 5.2, 5.25], true);
        assert_eq!(speedup_doubt(&base, &within, 2), None);
        let four = timed(sum_job(Variant::ThreadPool, 4, 8), &[3.0, 3.0, 3.0], true);
        assert_eq!(speedup_doubt(&base, &four, 4), None);
    }

    #[test]
    fn the_run_s_own_spread_widens_what_counts_as_at_the_ceiling() {
        // Round by round the speedups were 2.0, 2.2 and 2.4: 2.2x is above 2 by less than the run's
        // own spread (1.2x), so it reads "about 2x" rather than impossible.
        let base = timed(sum_job(Variant::Sequential, 1, 1), &[10.0, 11.0, 12.0], true);
        let par = timed(sum_job(Variant::ThreadPool, 2, 8), &[5.0, 5.0, 5.0], true);
        let spread = speedup_spread(&base, &par);
        assert!((spread - 1.2).abs() < 1e-9, "{spread}");
        assert!(matches!(speedup_doubt(&base, &par, 2), Some(Doubt::AtCeiling { .. })));
        // Not measured in turns: the wider of the two spreads.
        let apart = timed(sum_job(Variant::ThreadPool, 2, 8), &[5.0, 5.5, 5.0], false);
        assert!((speedup_spread(&base, &apart) - 1.2).abs() < 1e-9);
    }

    /// A measurement whose median sample's trace spans `busy` ms in all, over `spans` tasks.
    fn traced(job: Job, ms: f64, busy: f64, spans: u32) -> Measurement {
        let spans = (0..spans)
            .map(|task| Span { worker: task % 2, task, start_ms: 0.0, end_ms: busy / f64::from(spans.max(1)) })
            .collect();
        let trace = Trace { spans, wall_ms: ms, ..Trace::default() };
        let check = Check { ok: true, value: "1".into(), expected: "1".into() };
        let mut m = Measurement::from_samples(job, vec![(ms, trace.clone()), (ms, trace)], check, None);
        m.interleaved = true;
        m
    }

    #[test]
    fn workers_slower_than_the_loop_at_the_same_work_are_caught() {
        let hash = |variant, workers| Job {
            workload: Workload::Hash {
                source: crate::job::HashSource::Generated { bytes: 1 << 24, seed: 1 },
                slice_bytes: 1 << 22,
            },
            ..sum_job(variant, workers, 4)
        };
        let base = traced(hash(Variant::Sequential, 1), 200.0, 198.0, 4);
        // Two workers on two cores spent 1.4x the loop's time on the same hashes: 1.25x, caught.
        let slow = traced(hash(Variant::ThreadPool, 2), 160.0, 277.0, 8);
        assert!(
            matches!(speedup_doubt(&base, &slow, 2), Some(Doubt::SlowWorkers { slowdown }) if (slowdown - 1.4).abs() < 0.01)
        );
        assert!(
            Doubt::SlowWorkers { slowdown: 1.4 }.warns()
                && Doubt::SlowWorkers { slowdown: 1.4 }.worth_measuring_again()
        );
        // At the loop's pace (1.1x its busy time): nothing.
        let fine = traced(hash(Variant::ThreadPool, 2), 110.0, 218.0, 8);
        assert_eq!(speedup_doubt(&base, &fine, 2), None);
        // Four workers on two cores share them by design; one worker has no one to share with.
        assert_eq!(speedup_doubt(&base, &traced(hash(Variant::ThreadPool, 4), 160.0, 400.0, 8), 2), None);
        assert_eq!(speedup_doubt(&base, &traced(hash(Variant::ThreadPool, 1), 260.0, 260.0, 4), 2), None);
        // Passes too short to tell, and work the split changes (a chunked sort), are not judged.
        let short = traced(sum_job(Variant::Sequential, 1, 1), 2.0, 2.0, 1);
        assert_eq!(speedup_doubt(&short, &traced(sum_job(Variant::ThreadPool, 2, 8), 1.6, 3.0, 8), 2), None);
        let sort = |variant, workers| Job {
            workload: Workload::Sort { numbers: 5_000, seed: 1, algorithm: crate::job::SortAlgorithm::Bubble },
            ..sum_job(variant, workers, 4)
        };
        let sorted = traced(sort(Variant::Sequential, 1), 100.0, 100.0, 1);
        assert_eq!(speedup_doubt(&sorted, &traced(sort(Variant::ThreadPool, 2), 90.0, 170.0, 4), 2), None);
    }

    #[test]
    fn what_measuring_again_can_clear() {
        assert!(Doubt::Noisy { spread: 2.0 }.worth_measuring_again());
        assert!(Doubt::BusyDuring.worth_measuring_again());
        assert!(Doubt::BeyondCeiling { speedup: 3.0, ceiling: 2 }.worth_measuring_again());
        assert!(!Doubt::Busy.worth_measuring_again());
        assert!(!Doubt::AtCeiling { speedup: 2.01, ceiling: 2 }.worth_measuring_again());
        assert!(!Doubt::FewWorkers { used: 1, possible: 2, task_ms: 0.01 }.worth_measuring_again());
    }

    #[test]
    fn barriers_closer_than_the_limit_are_noted_not_warned() {
        use crate::job::SortAlgorithm;
        let sort = |algorithm, variant, workers, tasks| Job {
            workload: Workload::Sort { numbers: 5_000, seed: 1, algorithm },
            variant,
            workers,
            tasks,
            repetitions: 3,
        };
        // 5,000 barriers in 10 ms: one every 2 µs.
        let odd_even = timed(sort(SortAlgorithm::OddEven, Variant::ThreadPool, 2, 4), &[10.0, 10.0, 10.0], true);
        let note = barrier_note(&odd_even);
        assert!(
            matches!(note, Some(Doubt::FrequentBarriers { barriers: 5_000, every_us }) if (every_us - 2.0).abs() < 1e-9)
        );
        let note = note.unwrap();
        assert!(note.varies_between_runs() && !note.warns() && !note.worth_measuring_again());
        // One worker, or one task, waits for nobody; other sorts meet only at the end.
        assert_eq!(barrier_note(&timed(sort(SortAlgorithm::OddEven, Variant::ThreadPool, 1, 4), &[10.0], true)), None);
        assert_eq!(barrier_note(&timed(sort(SortAlgorithm::OddEven, Variant::ThreadPool, 4, 1), &[10.0], true)), None);
        assert_eq!(barrier_note(&timed(sort(SortAlgorithm::OddEven, Variant::Sequential, 1, 1), &[10.0], true)), None);
        assert_eq!(
            barrier_note(&timed(sort(SortAlgorithm::ChunkedBubble, Variant::ThreadPool, 2, 4), &[10.0], true)),
            None
        );
        // A barrier every 50 µs or more leaves each phase enough work: no note.
        let slow = timed(sort(SortAlgorithm::OddEven, Variant::ThreadPool, 2, 4), &[250.0], true);
        assert_eq!(barrier_note(&slow), None);
        let just_under = timed(sort(SortAlgorithm::OddEven, Variant::ThreadPool, 2, 4), &[249.9], true);
        assert!(barrier_note(&just_under).is_some());
        assert!(!Doubt::Noisy { spread: 2.0 }.varies_between_runs());
    }
}
