//! Measuring the jobs of a run: start every worker the run needs (and keep them for its length), and
//! before each job warm up until the machine is quiet; then time the jobs that do the same work in
//! turns, one sample of each per round, every sample passes of its job back to back for at least
//! the sample floor ([`experiments::SAMPLE_FLOOR_MS`]). A first attempt that cannot be right (see
//! [`experiments::trust`]) is measured once more, within a time limit. The measurements reach the
//! page together, once the run is over, so the page does not render while a job is being timed.
//!
//! One harness for both worlds: the browser's coordinator awaits it on its own event loop, the
//! native engine blocks on it. Work goes to a pool or a task runtime and comes back on a oneshot
//! channel, so the driving thread never runs a workload itself (pages without shared memory are the
//! exception: there the driving thread is the only worker).
//!
//! Why all this: see docs/design-notes.md, "First runs". Waiting for quiet is `settle`'s part, handing
//! work to executors and awaiting it
//! [`crate::driver::handoff`]'s.

mod settle;

pub use settle::{GROUP_SETTLE_LIMITS, SETTLE_LIMIT_MS};

use crate::cancel::Stopped;
use crate::clock::now_ms;
use crate::driver::handoff::{wait_started, within, KeepAwake, STARTING, START_LIMIT_MS};
use crate::driver::{on_pool, on_runtime, Context, Report};
use crate::executors::{Executor, Executors, Need};
use crate::kernel_api::{Method, Prepared, Steps};
use crate::kernels;
use crate::measure::{sample_on_pool, sample_on_runtime, Sample, StepPasses};
use crate::outcome::{Outcome, RunEnd};
use crate::quiet::{probe, QuietCheck};
use crate::runtime::Handle;
use crate::threads::SHARED_MEMORY;
use experiments::protocol::Stage;
use experiments::stats;
use experiments::trust::{self, Doubt};
use experiments::{FirstAttempt, Job, Measurement, MemoryReport, Startup, Variant};
use settle::{settle, settle_limit_ms};
use std::cell::RefCell;
use std::ops::Range;
use std::sync::Arc;

/// Executors of one group may hold at most this many workers together; a run that needs more (a
/// sweep up to 128 workers) is measured in consecutive groups.
pub const MAX_GROUP_WORKERS: u32 = 64;
/// Probes right after a job's timing; if most find the machine busy, the job says so.
const AFTER_PROBES: u32 = 3;
/// Progress reports are at least this far apart (each one costs the page a little rendering)...
const PROGRESS_EVERY_MS: f64 = 100.0;
/// ... and this far apart while samples are being timed, when the page's rendering takes a core
/// from the workers being timed.
const MEASURING_PROGRESS_EVERY_MS: f64 = 500.0;
/// A first attempt that took longer than this is not measured a second time: its doubts are shown.
const SECOND_ATTEMPT_LIMIT_MS: f64 = 10_000.0;

/// Start-up of a new executor: how long its workers took, and the heap bytes each took.
type Started = Option<(f64, f64)>;

/// The executor `job` needs of its own; a sequential job runs on a worker of the group's pool.
fn need(job: &Job) -> Option<Need> {
    match job.variant {
        Variant::Sequential => None,
        Variant::ThreadPool => Some(Need::Pool(job.workers.max(1))),
        Variant::Goroutines => Some(Need::Runtime(job.workers.max(1))),
    }
}

/// The executors a group of jobs needs: its own ones, plus a one-worker pool for sequential jobs
/// when nothing else provides a pool.
fn needs_of(jobs: &[Job]) -> Vec<Need> {
    // Sorted and without repeats, each need inserted where it belongs: a run needs a handful, and a
    // `sort` of them would bring the standard library's stable sort for `Need` (8 KB) into the module.
    let mut needs: Vec<Need> = Vec::new();
    for need in jobs.iter().filter_map(need) {
        if let Err(at) = needs.binary_search(&need) {
            needs.insert(at, need);
        }
    }
    let sequential = jobs.iter().any(|job| job.variant == Variant::Sequential);
    if sequential && !needs.iter().any(|n| matches!(n, Need::Pool(_))) {
        needs.insert(0, Need::Pool(1));
    }
    needs
}

/// Split `jobs` into groups whose executors are kept alive together: runs of consecutive jobs the
/// harness times whose executors fit in [`MAX_GROUP_WORKERS`]. Jobs measured alone (see
/// [`kernels::measured_alone`]) form groups of their own.
pub fn groups(jobs: &[Job]) -> Vec<Range<usize>> {
    let mut groups: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    for (index, job) in jobs.iter().enumerate() {
        let alone = kernels::measured_alone(job) || (start < index && kernels::measured_alone(&jobs[start]));
        let too_many = needs_of(&jobs[start..=index]).iter().map(|n| n.workers()).sum::<u32>() > MAX_GROUP_WORKERS;
        if start < index && (alone || too_many) {
            groups.push(start..index);
            start = index;
        }
    }
    if start < jobs.len() {
        groups.push(start..jobs.len());
    }
    groups
}

/// Reports progress: at every change of stage or job, otherwise at most every
/// [`PROGRESS_EVERY_MS`] (each report costs the page some rendering).
struct Progress<'a, 'b> {
    cx: &'a Context<'b>,
    last: RefCell<Option<(usize, Stage, f64)>>,
}

impl Progress<'_, '_> {
    fn report(&self, job_index: usize, stage: Stage, done: u32, total: u32) {
        self.report_jobs(job_index, 1, stage, done, total);
    }

    /// [`Progress::report`] of `jobs` jobs from `job_index` on, counted together.
    fn report_jobs(&self, job_index: usize, jobs: u32, stage: Stage, done: u32, total: u32) {
        let now = now_ms();
        let due = match *self.last.borrow() {
            // While samples are timed, only time counts.
            Some((last_job, Stage::Measuring | Stage::Turns, at)) if last_job == job_index => {
                now - at >= MEASURING_PROGRESS_EVERY_MS || done == total
            }
            Some((last_job, last_stage, at)) => {
                last_job != job_index || last_stage != stage || now - at >= PROGRESS_EVERY_MS || done == total
            }
            None => true,
        };
        if due {
            *self.last.borrow_mut() = Some((job_index, stage, now));
            (self.cx.report)(Report { job_index, stage, done, total, jobs });
        }
    }
}

/// Where one job's repetitions run, with its prepared input; or its passes, taken step by step.
enum Work {
    Pool { pool: Arc<rayon::ThreadPool>, input: Arc<dyn Prepared> },
    Runtime { runtime: Handle, input: Arc<dyn Prepared> },
    Steps { pool: Arc<rayon::ThreadPool>, steps: Box<dyn Steps> },
}

/// Whether `job` gets untimed warm-ups (and counts towards the quiet probe's width): work dominated
/// by waiting needs neither, and parked-task memory is measured on its first spawn.
fn warms_up(job: &Job) -> bool {
    kernels::warms_up(job)
}

/// Measure the jobs `first_index..first_index + jobs.len()` of a run, one after another, on
/// executors kept alive for the whole group (see the module documentation); a job measured alone, in
/// a group of its own (a load test: [`Method::Alone`]), is measured by its kernel. A stopped group
/// keeps the measurements of the jobs done before.
pub async fn measure_group(
    executors: &RefCell<Executors>,
    jobs: &[Job],
    first_index: usize,
    cx: &Context<'_>,
) -> RunEnd {
    if let [job] = jobs {
        if kernels::measured_alone(job) {
            return RunEnd::from(kernels::of(&job.workload).measure_alone(job, executors, cx).await);
        }
    }
    let mut measured = Vec::with_capacity(jobs.len());
    let outcome = measure_jobs(executors, jobs, first_index, cx, &mut measured).await;
    RunEnd::of(outcome, measured)
}

/// [`measure_group`], pushing each job's measurement onto `measurements` as soon as it is done.
async fn measure_jobs(
    executors: &RefCell<Executors>,
    jobs: &[Job],
    first_index: usize,
    cx: &Context<'_>,
    measurements: &mut Vec<Measurement>,
) -> Outcome<()> {
    let progress = Progress { cx, last: RefCell::new(None) };
    // 1. Workers: keep only what this group needs, then start what is missing, one executor at a
    // time so each one's start-up time and memory are its own.
    let needs = needs_of(jobs);
    executors.borrow_mut().keep_only(&needs);
    let all_workers: u32 = needs.iter().map(|n| n.workers()).sum();
    let mut running: Vec<(Need, Executor, Started)> = Vec::new();
    let mut up = 0;
    for &need in &needs {
        let (executor, fresh) = executors.borrow_mut().get(need)?;
        let started = match fresh {
            Some(built) => {
                progress.report(first_index, Stage::Starting, up, all_workers);
                match within(wait_started(&executor, built, cx), START_LIMIT_MS, STARTING, cx).await? {
                    Ok(started) => Some(started),
                    Err(Stopped) => return Ok(Err(Stopped)),
                }
            }
            None => None,
        };
        up += need.workers();
        running.push((need, executor, started));
    }
    let pools: Vec<Arc<rayon::ThreadPool>> = running
        .iter()
        .filter_map(|(_, executor, _)| match executor {
            Executor::Pool(pool) => Some(pool.clone()),
            Executor::Runtime(_) => None,
        })
        .collect();
    // Sequential jobs run on a worker of the smallest pool (needs are sorted: pools first, smallest
    // first); the quiet probe runs on the largest, as wide as the widest job can keep busy.
    let home = pools.first().cloned();
    let probe_pool = pools.iter().max_by_key(|pool| pool.current_num_threads()).cloned();
    let width = jobs
        .iter()
        .filter(|job| warms_up(job))
        .map(|job| if job.variant == Variant::Sequential { 1 } else { job.workers.min(cx.cores.max(1)) })
        .max()
        .unwrap_or(0)
        .min(probe_pool.as_ref().map_or(0, |pool| pool.current_num_threads() as u32));
    let probe_on = probe_pool.filter(|_| SHARED_MEMORY && width >= 1);

    // 2. Each set of jobs that do the same work: their inputs, warm-ups until quiet, then their
    // samples in turns (and, if that attempt cannot be right, a second one).
    // What the group's jobs have spent waiting for quiet so far (their warm-ups and timing do not
    // count: a long set measured before would otherwise leave the next ones no wait at all, and
    // call them busy without having looked).
    let mut group_settle_ms = 0.0;
    let mut check = QuietCheck::new();
    let probe_on = probe_on.map(|pool| Probes { pool, width });
    for set in same_work(jobs) {
        let mut prepared = Vec::with_capacity(set.len());
        for offset in set.clone() {
            let (job, job_index) = (&jobs[offset], first_index + offset);
            let (executor, started) = match need(job) {
                Some(need) => {
                    let (_, executor, started) =
                        running.iter_mut().find(|(n, _, _)| *n == need).expect("started above");
                    // The first job on a new executor reports its start-up.
                    (executor.clone(), started.take())
                }
                None => (Executor::Pool(home.clone().expect("sequential jobs have a home pool")), None),
            };
            progress.report(job_index, Stage::Settling, 0, 0);
            let mut work = match prepare(job, executor, cx).await? {
                Ok(work) => work,
                Err(Stopped) => return Ok(Err(Stopped)),
            };
            let group_left = cx.quiet_limit_ms * GROUP_SETTLE_LIMITS - group_settle_ms;
            let settle_limit = settle_limit_ms(cx.quiet_limit_ms, now_ms()).min(group_left).max(0.0);
            let settle_pool = probe_on.as_ref().map(|p| &p.pool);
            let settled = match settle(job, &mut work, settle_pool, width, &mut check, settle_limit, cx).await? {
                Ok(settled) => settled,
                Err(Stopped) => return Ok(Err(Stopped)),
            };
            group_settle_ms += settled.waited_ms;
            prepared.push(ReadyJob { job, work, settled, started });
        }
        let set_jobs = &jobs[set.clone()];
        let mut turns = Turns { set: &mut prepared, first_index: first_index + set.start, progress: &progress, cx };
        let attempt_started = now_ms();
        let first = match turns.attempt(probe_on.as_ref(), &check).await? {
            Ok(attempt) => attempt,
            Err(Stopped) => return Ok(Err(Stopped)),
        };
        let mut shown = turns.measurements(&first);
        if first.stopped {
            return Ok(Err(stopped_with(shown, measurements)));
        }
        let why = second_look(set_jobs, &shown, cx.cores);
        if why.iter().any(|doubts| !doubts.is_empty()) && now_ms() - attempt_started <= SECOND_ATTEMPT_LIMIT_MS {
            let second = match turns.attempt(probe_on.as_ref(), &check).await? {
                Ok(attempt) => attempt,
                Err(Stopped) => return Ok(Err(Stopped)),
            };
            if second.stopped {
                // The first attempt is what was measured whole; the second's rounds are dropped.
                return Ok(Err(stopped_with(shown, measurements)));
            }
            let firsts = shown;
            shown = turns.measurements(&second);
            for ((m, first), why) in shown.iter_mut().zip(firsts).zip(why) {
                m.first_attempt = Some(FirstAttempt { samples_ms: first.samples_ms, why });
            }
            if second.quiet_after {
                settle::note_quiet(now_ms());
            }
        } else if first.quiet_after && prepared.iter().all(|p| p.settled.quiet) {
            settle::note_quiet(now_ms());
        }
        measurements.extend(shown);
    }
    Ok(Ok(()))
}

/// A set stopped during its samples: keep its measurements of the rounds every job completed (none
/// if not one round was), then say stopped.
fn stopped_with(shown: Vec<Measurement>, measurements: &mut Vec<Measurement>) -> Stopped {
    measurements.extend(shown.into_iter().filter(|m| !m.samples_ms.is_empty()));
    Stopped
}

/// The quiet probe: on which pool, and how many workers wide.
struct Probes {
    pool: Arc<rayon::ThreadPool>,
    width: u32,
}

/// The sets of consecutive jobs of `jobs` that do the same work on the same input: their samples
/// are taken in turns (a sweep's loop and every worker count; a run's loop and its tasks). Jobs
/// of other work, or another input, form sets of their own, so two large inputs never coexist.
fn same_work(jobs: &[Job]) -> Vec<Range<usize>> {
    let mut sets: Vec<Range<usize>> = Vec::new();
    for (index, job) in jobs.iter().enumerate() {
        match sets.last_mut() {
            Some(set) if kernels::same_input(&jobs[set.start], job) => set.end = index + 1,
            _ => sets.push(index..index + 1),
        }
    }
    sets
}

/// For each measurement of a set, what its first attempt showed that measuring again may clear
/// (empty: nothing): its own doubts, and its speedup over the set's loop when that is beyond what
/// its workers could give.
fn second_look(jobs: &[Job], shown: &[Measurement], cores: u32) -> Vec<Vec<Doubt>> {
    let baseline = jobs.iter().position(|job| job.variant == Variant::Sequential).map(|i| &shown[i]);
    let mut why: Vec<Vec<Doubt>> = shown
        .iter()
        .map(|m| {
            let mut doubts = trust::row_doubts(baseline, m, cores);
            doubts.retain(Doubt::worth_measuring_again);
            doubts
        })
        .collect();
    // An impossible speedup may be the loop's fault as much as the tasks': the loop says so too.
    if let Some(index) = jobs.iter().position(|job| job.variant == Variant::Sequential) {
        let beyond: Vec<Doubt> =
            why.iter().flatten().filter(|d| matches!(d, Doubt::BeyondCeiling { .. })).take(1).copied().collect();
        if why[index].is_empty() {
            why[index] = beyond;
        }
    }
    why
}

/// A job of a set, ready to be timed.
struct ReadyJob<'j> {
    job: &'j Job,
    work: Work,
    settled: settle::Settled,
    started: Started,
}

/// One attempt at a set: every job's samples, and whether the machine was still quiet after.
struct Attempt {
    samples: Vec<Vec<Sample>>,
    quiet_after: bool,
    /// Stopped before its last round: `samples` holds the rounds every job completed.
    stopped: bool,
}

/// Taking the samples of one set in turns.
struct Turns<'a, 'j, 'c, 'd> {
    set: &'a mut Vec<ReadyJob<'j>>,
    first_index: usize,
    progress: &'a Progress<'c, 'd>,
    cx: &'a Context<'d>,
}

impl Turns<'_, '_, '_, '_> {
    /// Round after round, one sample of each job whose repetitions are not all taken; then probes:
    /// did the machine get busy meanwhile?
    async fn attempt(&mut self, probes: Option<&Probes>, check: &QuietCheck) -> Outcome<Attempt> {
        let rounds = self.set.iter().map(|p| p.job.repetitions.max(1)).max().unwrap_or(0);
        let steps: Vec<u32> = self.set.iter().map(|p| steps_per_sample(&p.work)).collect();
        let total: u32 = self.set.iter().zip(&steps).map(|(p, s)| p.job.repetitions.max(1) * s).sum();
        let mut samples: Vec<Vec<Sample>> = self.set.iter().map(|_| Vec::new()).collect();
        let mut done = 0;
        let (first_index, jobs) = (self.first_index, self.set.len() as u32);
        let stage = if jobs > 1 { Stage::Turns } else { Stage::Measuring };
        for round in 0..rounds {
            for (offset, prepared) in self.set.iter_mut().enumerate() {
                if round >= prepared.job.repetitions.max(1) {
                    continue;
                }
                let report = |step: u32| self.progress.report_jobs(first_index, jobs, stage, done + step, total);
                let taken = if self.cx.cancel.is_stopped() {
                    Err(Stopped)
                } else {
                    take_sample(prepared.job, &mut prepared.work, &report, self.cx).await?
                };
                let Ok(sample) = taken else {
                    // Stopped: the rounds every job completed are kept, nothing of the one cut short.
                    let complete = round as usize;
                    samples.iter_mut().for_each(|s| s.truncate(complete));
                    // (Not probed after: nothing says the machine got busy.)
                    return Ok(Ok(Attempt { samples, quiet_after: true, stopped: true }));
                };
                done += steps[offset];
                self.progress.report_jobs(first_index, jobs, stage, done, total);
                samples[offset].push(sample);
            }
        }
        // Probes right after the timing: did the machine get busy while the set was timed?
        let mut quiet_after = true;
        let warm = self.set.iter().any(|p| warms_up(p.job));
        if let Some(Probes { pool, width }) = probes.filter(|_| warm) {
            let mut quiet_probes = 0;
            for _ in 0..AFTER_PROBES {
                let width = *width as usize;
                let reading = on_pool(pool, move || probe(width)).await?;
                quiet_probes += u32::from(check.would_be_quiet(&reading));
            }
            quiet_after = quiet_probes * 2 > AFTER_PROBES;
        }
        Ok(Ok(Attempt { samples, quiet_after, stopped: false }))
    }

    /// Each job's measurement from an attempt's samples.
    fn measurements(&self, attempt: &Attempt) -> Vec<Measurement> {
        let interleaved = self.set.len() > 1;
        self.set
            .iter()
            .zip(&attempt.samples)
            .map(|(p, samples)| {
                let startup = Startup {
                    workers_ms: p.started.map(|(ms, _)| ms),
                    settle_ms: p.settled.ms,
                    warm_up_rounds: p.settled.rounds,
                    quiet: p.settled.quiet,
                    quiet_after: attempt.quiet_after,
                };
                let mut m = measurement(p.job, &p.work, samples, startup, p.started);
                m.interleaved = interleaved;
                m
            })
            .collect()
    }
}

/// Prepare `job`'s input once, outside any timing, on a worker of its executor (it may take a
/// while), and say where its repetitions run.
async fn prepare(job: &Job, executor: Executor, cx: &Context<'_>) -> Outcome<Work> {
    if let Executor::Pool(pool) = &executor {
        let kernel = kernels::of(&job.workload);
        if kernel.method() == Method::Steps {
            return Ok(Ok(Work::Steps { pool: pool.clone(), steps: kernel.steps(job, cx)? }));
        }
    }
    let (job, cancel) = (job.clone(), cx.cancel.clone());
    let input = move || kernels::prepare(&job, &cancel);
    let prepared = match &executor {
        Executor::Pool(pool) => on_pool(pool, input).await??,
        Executor::Runtime(runtime) => on_runtime(runtime, async move { input() }).await??,
    };
    Ok(prepared.map(|input| match executor {
        Executor::Pool(pool) => Work::Pool { pool, input },
        Executor::Runtime(runtime) => Work::Runtime { runtime, input },
    }))
}

/// How many progress steps one sample of `work` counts: one, or a pass's steps (a hashing pass's
/// slices).
fn steps_per_sample(work: &Work) -> u32 {
    match work {
        Work::Steps { steps, .. } => steps.count().max(1),
        Work::Pool { .. } | Work::Runtime { .. } => 1,
    }
}

/// One timed sample of `job` on its workers: passes back to back until the context's sample floor
/// has passed. `report(step)` is told each step taken (of the first pass, for work taken step by
/// step).
async fn take_sample(job: &Job, work: &mut Work, report: &dyn Fn(u32), cx: &Context<'_>) -> Outcome<Sample> {
    let floor = if kernels::repeats_in_sample(job) { cx.sample_floor_ms } else { 0.0 };
    let cancel = cx.cancel.clone();
    let sample = match work {
        Work::Pool { pool, input } => {
            let (input, job) = (input.clone(), job.clone());
            // CPU-bound tasks keep as many workers awake as there are cores to run them; not the
            // jobs that measure what spawning, waking and switching cost (that is their point).
            let awake = if warms_up(&job) && job.variant == Variant::ThreadPool && !kernels::measures_costs(&job) {
                (pool.current_num_threads() as u32).min(cx.cores.max(1))
            } else {
                1
            };
            on_pool(pool, move || {
                let _awake = KeepAwake::start(awake);
                sample_on_pool(&job, &*input, &cancel, floor)
            })
            .await?
        }
        Work::Runtime { runtime, input } => {
            let (input, handle, job) = (input.clone(), runtime.clone(), job.clone());
            on_runtime(runtime, async move { sample_on_runtime(&job, &*input, &handle, &cancel, floor).await }).await?
        }
        Work::Steps { pool, steps } => {
            let mut passes = StepPasses::default();
            let mut first_pass = true;
            loop {
                steps.start(job);
                for step in 0..steps.count() {
                    if cancel.is_stopped() {
                        return Ok(Err(Stopped));
                    }
                    let work = steps.step(step)?;
                    on_pool(pool, work).await?;
                    if first_pass {
                        report(step + 1);
                    }
                }
                first_pass = false;
                if let Some(sample) = passes.add(steps.finish()?, floor) {
                    break Ok(sample);
                }
            }
        }
    };
    Ok(sample)
}

/// `job`'s measurement from its samples, every pass checked against its expected result.
fn measurement(
    job: &Job,
    work: &Work,
    samples: &[Sample],
    startup: Startup,
    started: Option<(f64, f64)>,
) -> Measurement {
    let mut timed = Vec::with_capacity(samples.len());
    let (mut values, mut digests, mut held_per_task, mut waits) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for sample in samples {
        timed.push((sample.ms, sample.last.trace.clone()));
        values.extend_from_slice(&sample.values);
        digests.extend_from_slice(&sample.last.digests);
        held_per_task.extend(sample.last.held_per_task);
        waits.push(sample.last.waits);
    }
    // The waits of the sample whose time is the median, as its trace is.
    let times: Vec<f64> = timed.iter().map(|(ms, _)| *ms).collect();
    let median_waits = stats::median_index(&times).and_then(|i| waits[i]);
    let mut measurement = match work {
        Work::Steps { steps, .. } => {
            Measurement::from_samples(job.clone(), timed, steps.check(&values, &digests), None)
        }
        Work::Pool { input, .. } | Work::Runtime { input, .. } => {
            Measurement::from_samples(job.clone(), timed, input.check(&values), None)
        }
    };
    measurement.sample_passes = samples.iter().map(|s| s.passes).collect();
    if measurement.sample_passes.iter().all(|&p| p == 1) {
        measurement.sample_passes.clear();
    }
    measurement.waits = median_waits;
    measurement.pool_start_ms = started.map(|(ms, _)| ms);
    measurement.startup = Some(startup);
    if let Some((_, bytes_per_worker)) = started.filter(|_| job.variant == Variant::ThreadPool) {
        measurement.memory =
            Some(MemoryReport { tasks: 0, bytes_per_task: None, bytes_per_worker: Some(bytes_per_worker) });
    }
    if !held_per_task.is_empty() {
        held_per_task.sort_by(f64::total_cmp);
        measurement.memory = Some(MemoryReport {
            tasks: job.tasks.max(1),
            bytes_per_task: Some(held_per_task[(held_per_task.len() - 1) / 2]),
            bytes_per_worker: None,
        });
    }
    measurement
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::Workload;

    fn job(variant: Variant, workers: u32) -> Job {
        Job { workload: Workload::Sum { numbers: 1_000, seed: 1 }, variant, workers, tasks: 8, repetitions: 3 }
    }

    #[test]
    fn sequential_jobs_share_a_pool_and_runtimes_get_their_own() {
        assert_eq!(needs_of(&[job(Variant::Sequential, 1), job(Variant::ThreadPool, 2)]), vec![Need::Pool(2)]);
        assert_eq!(needs_of(&[job(Variant::Sequential, 1)]), vec![Need::Pool(1)]);
        assert_eq!(
            needs_of(&[job(Variant::Sequential, 1), job(Variant::Goroutines, 4)]),
            vec![Need::Pool(1), Need::Runtime(4)]
        );
        assert_eq!(
            needs_of(&[job(Variant::ThreadPool, 2), job(Variant::Goroutines, 2), job(Variant::ThreadPool, 2)]),
            vec![Need::Pool(2), Need::Runtime(2)]
        );
    }

    #[test]
    fn a_sweep_fits_in_one_group_until_the_worker_limit() {
        let sweep: Vec<Job> = std::iter::once(job(Variant::Sequential, 1))
            .chain([1, 2, 4, 8, 16].map(|k| job(Variant::ThreadPool, k)))
            .collect();
        assert_eq!(groups(&sweep), vec![0..6]);
        // 1 + 2 + … + 32 = 63 workers fit; 64 more do not.
        let big: Vec<Job> = std::iter::once(job(Variant::Sequential, 1))
            .chain([1, 2, 4, 8, 16, 32, 64, 128].map(|k| job(Variant::ThreadPool, k)))
            .collect();
        assert_eq!(groups(&big), vec![0..7, 7..8, 8..9]);
    }

    #[test]
    fn load_tests_are_measured_alone() {
        let qps = Job {
            workload: Workload::Qps { requests: 10, concurrency: 2, work_us: 0, wait_us: 0 },
            variant: Variant::ThreadPool,
            workers: 2,
            tasks: 1,
            repetitions: 1,
        };
        let jobs = [qps.clone(), Job { variant: Variant::Goroutines, ..qps.clone() }, job(Variant::Sequential, 1)];
        assert_eq!(groups(&jobs), vec![0..1, 1..2, 2..3]);
        assert_eq!(groups(&[]), Vec::<Range<usize>>::new());
    }

    #[test]
    fn jobs_of_the_same_work_form_one_set_and_others_their_own() {
        let sum = |variant, workers| job(variant, workers);
        let sort = |algorithm, workers| Job {
            workload: Workload::Sort { numbers: 100, seed: 1, algorithm },
            ..job(Variant::ThreadPool, workers)
        };
        use experiments::SortAlgorithm::{Bubble, Merge};
        let jobs = [sum(Variant::Sequential, 1), sum(Variant::ThreadPool, 2), sum(Variant::ThreadPool, 4)];
        assert_eq!(same_work(&jobs), vec![0..3]);
        let sorts = [sort(Bubble, 1), sort(Merge, 1), sort(Merge, 2), sum(Variant::Sequential, 1)];
        assert_eq!(same_work(&sorts), vec![0..1, 1..3, 3..4]);
        // A per-task input (parked tasks) differs with the task count.
        let parked = |tasks| Job { workload: Workload::TaskMemory, tasks, ..job(Variant::Goroutines, 1) };
        assert_eq!(same_work(&[parked(10), parked(10), parked(20)]), vec![0..2, 2..3]);
    }

    fn timed(job: Job, samples: &[f64]) -> Measurement {
        let check = experiments::Check { ok: true, value: "1".into(), expected: "1".into() };
        let mut m = Measurement::from_samples(
            job,
            samples.iter().map(|&ms| (ms, experiments::Trace::default())).collect(),
            check,
            None,
        );
        m.interleaved = true;
        m
    }

    #[test]
    fn an_impossible_speedup_sends_both_jobs_back_and_a_plausible_one_neither() {
        let jobs = [job(Variant::Sequential, 1), job(Variant::ThreadPool, 2)];
        // 3x on two cores.
        let shown = [timed(jobs[0].clone(), &[9.0, 9.0, 9.0]), timed(jobs[1].clone(), &[3.0, 3.0, 3.0])];
        let why = second_look(&jobs, &shown, 2);
        assert!(matches!(why[1][..], [Doubt::BeyondCeiling { ceiling: 2, .. }]), "{why:?}");
        assert_eq!(why[0], why[1], "the loop may be the one disturbed");
        // 1.8x: nothing.
        let fine = [timed(jobs[0].clone(), &[9.0, 9.1, 9.0]), timed(jobs[1].clone(), &[5.0, 5.0, 5.05])];
        assert!(second_look(&jobs, &fine, 2).iter().all(Vec::is_empty));
        // Repetitions that disagree: that job alone.
        let noisy = [timed(jobs[0].clone(), &[9.0, 9.1, 9.0]), timed(jobs[1].clone(), &[5.0, 8.0, 5.05])];
        let why = second_look(&jobs, &noisy, 2);
        assert!(why[0].is_empty());
        assert!(matches!(why[1][..], [Doubt::Noisy { .. }]));
    }
}
