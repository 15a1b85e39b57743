//! Measuring the jobs of a run: start every worker the run needs (and keep them for its length), and
//! before each job warm up until the machine is quiet; then time the job's repetitions back to back
//! on its workers. The measurements reach the page together, once the run is over, so the page does
//! not render while a job is being timed.
//!
//! One harness for both worlds: the browser's coordinator awaits it on its own event loop, the
//! native engine blocks on it. Work goes to a pool or a task runtime and comes back on a oneshot
//! channel, so the driving thread never runs a workload itself (pages without shared memory are the
//! exception: there the driving thread is the only worker).
//!
//! Why all this: see ARCHITECTURE.md, "First runs". Waiting for quiet is `settle`'s part, handing
//! work to executors and awaiting it `handoff`'s.

mod handoff;
mod settle;

pub use handoff::{on_pool, on_runtime, started};
pub use settle::{GROUP_SETTLE_LIMITS, SETTLE_LIMIT_MS};

use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::executors::{Executor, Executors, Need};
use crate::hashing::{check_digests, hash_parameters, slices, Hashing};
use crate::kernels::{self, Prepared};
use crate::measure::{rep_on_pool, rep_on_runtime, Rep};
use crate::outcome::{Outcome, RunEnd};
use crate::quiet::{probe, QuietCheck};
use crate::runtime::Handle;
use crate::threads::SHARED_MEMORY;
use experiments::protocol::{Failure, Stage};
use experiments::stats;
use experiments::{HashSource, Job, Measurement, MemoryReport, Startup, Variant, Workload};
use futures_util::future::{select, Either};
use handoff::{wait_started, within, KeepAwake, STARTING, START_LIMIT_MS};
use settle::{settle, settle_limit_ms};
use std::cell::RefCell;
use std::future::Future;
use std::ops::Range;
use std::pin::pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// Executors of one group may hold at most this many workers together; a run that needs more (a
/// sweep up to 128 workers) is measured in consecutive groups.
pub const MAX_GROUP_WORKERS: u32 = 64;
/// Probes right after a job's timing; if most find the machine busy, the job says so.
const AFTER_PROBES: u32 = 3;
/// Progress reports are at least this far apart (each one costs the page a little rendering).
const PROGRESS_EVERY_MS: f64 = 100.0;

/// The bytes a hashing job hashes: a file or the generator, read one slice at a time.
pub trait SliceSource {
    fn slice(&mut self, offset: u64, length: usize) -> Result<Vec<u8>, Failure>;
}

/// One progress report, for the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    /// Index (in the whole run) of the job concerned (while starting: the group's first job).
    pub job_index: usize,
    pub stage: Stage,
    pub done: u32,
    pub total: u32,
}

/// Opens the data of a hashing job.
pub type OpenSource<'a> = &'a dyn Fn(&Job) -> Result<Box<dyn SliceSource>, String>;

/// Start-up of a new executor: how long its workers took, and the heap bytes each took.
type Started = Option<(f64, f64)>;

/// What the harness needs from whoever drives it.
pub struct Context<'a> {
    pub cancel: &'a Cancel,
    /// Logical processors of the machine (the quiet probe checks at most this many at once).
    pub cores: u32,
    /// How long a job may wait for the machine to become quiet ([`SETTLE_LIMIT_MS`]; 0: not at all,
    /// for tests that check results rather than speed).
    pub quiet_limit_ms: f64,
    pub report: &'a dyn Fn(Report),
    /// Opens the data of a hashing job.
    pub hash_source: OpenSource<'a>,
    /// Resolves after about `ms` milliseconds without blocking a worker.
    pub sleep: &'a dyn Fn(u32) -> std::pin::Pin<Box<dyn Future<Output = ()>>>,
}

/// Whether the harness measures `job` (server load tests drive themselves).
pub fn harnessed(job: &Job) -> bool {
    !matches!(job.workload, Workload::Qps { .. })
}

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
    let mut needs: Vec<Need> = jobs.iter().filter_map(need).collect();
    needs.sort();
    needs.dedup();
    let sequential = jobs.iter().any(|job| job.variant == Variant::Sequential);
    if sequential && !needs.iter().any(|n| matches!(n, Need::Pool(_))) {
        needs.insert(0, Need::Pool(1));
    }
    needs
}

/// Split `jobs` into groups whose executors are kept alive together: runs of consecutive jobs the
/// harness measures whose executors fit in [`MAX_GROUP_WORKERS`]. Jobs the harness does not
/// measure form groups of their own.
pub fn groups(jobs: &[Job]) -> Vec<Range<usize>> {
    let mut groups: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    for (index, job) in jobs.iter().enumerate() {
        let alone = !harnessed(job) || (start < index && !harnessed(&jobs[start]));
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
        let now = now_ms();
        let due = match *self.last.borrow() {
            Some((last_job, last_stage, at)) => {
                last_job != job_index || last_stage != stage || now - at >= PROGRESS_EVERY_MS || done == total
            }
            None => true,
        };
        if due {
            *self.last.borrow_mut() = Some((job_index, stage, now));
            (self.cx.report)(Report { job_index, stage, done, total });
        }
    }
}

/// Where one job's repetitions run, with its prepared input.
enum Work {
    Pool { pool: Arc<rayon::ThreadPool>, input: Arc<dyn Prepared> },
    Runtime { runtime: Handle, input: Arc<dyn Prepared> },
    Hash { pool: Arc<rayon::ThreadPool>, source: Box<dyn SliceSource>, total: u64, slice_bytes: u32 },
}

/// Whether `job` gets untimed warm-ups (and counts towards the quiet probe's width): work dominated
/// by waiting needs neither, and parked-task memory is measured on its first spawn.
fn warms_up(job: &Job) -> bool {
    kernels::warms_up(job)
}

/// Measure the jobs `first_index..first_index + jobs.len()` of a run, one after another, on
/// executors kept alive for the whole group (see the module documentation); a load test, alone in
/// its group, is measured by [`crate::qps::measure`]. A stopped group keeps the measurements of the
/// jobs done before.
pub async fn measure_group(
    executors: &RefCell<Executors>,
    jobs: &[Job],
    first_index: usize,
    cx: &Context<'_>,
) -> RunEnd {
    if let [job] = jobs {
        if !harnessed(job) {
            return RunEnd::from(crate::qps::measure(job, executors, cx).await);
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

    // 2. Each job in turn: its input, warm-ups until quiet, its timed repetitions back to back.
    let group_started = now_ms();
    let mut check = QuietCheck::new();
    for (offset, job) in jobs.iter().enumerate() {
        let job_index = first_index + offset;
        let (executor, started) = match need(job) {
            Some(need) => {
                let (_, executor, started) = running.iter_mut().find(|(n, _, _)| *n == need).expect("started above");
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
        let group_left = cx.quiet_limit_ms * GROUP_SETTLE_LIMITS - (now_ms() - group_started);
        let settle_limit = settle_limit_ms(cx.quiet_limit_ms, now_ms()).min(group_left).max(0.0);
        let settled = match settle(job, &mut work, probe_on.as_ref(), width, &mut check, settle_limit, cx).await? {
            Ok(settled) => settled,
            Err(Stopped) => return Ok(Err(Stopped)),
        };
        let reps = match repetitions(job, &mut work, job_index, &progress, cx).await? {
            Ok(reps) => reps,
            Err(Stopped) => return Ok(Err(Stopped)),
        };
        // Probes right after the timing: did the machine get busy while the job was timed?
        let mut quiet_after = true;
        if let Some(pool) = probe_on.as_ref().filter(|_| warms_up(job)) {
            let mut quiet_probes = 0;
            for _ in 0..AFTER_PROBES {
                let reading = on_pool(pool, move || probe(width as usize)).await?;
                quiet_probes += u32::from(check.would_be_quiet(&reading));
            }
            quiet_after = quiet_probes * 2 > AFTER_PROBES;
        }
        if settled.quiet && quiet_after {
            settle::note_quiet(now_ms());
        }
        let startup = Startup {
            workers_ms: started.map(|(ms, _)| ms),
            settle_ms: settled.ms,
            warm_up_rounds: settled.rounds,
            quiet: settled.quiet,
            quiet_after,
        };
        measurements.push(measurement(job, &work, reps, startup, started));
    }
    Ok(Ok(()))
}

/// Prepare `job`'s input once, outside any timing, on a worker of its executor (it may take a
/// while), and say where its repetitions run.
async fn prepare(job: &Job, executor: Executor, cx: &Context<'_>) -> Outcome<Work> {
    if let (Workload::Hash { .. }, Executor::Pool(pool)) = (&job.workload, &executor) {
        let (source, slice_bytes) = hash_parameters(job).expect("a hashing job");
        let total = match source {
            HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. } => *bytes,
        };
        return Ok(Ok(Work::Hash { pool: pool.clone(), source: (cx.hash_source)(job)?, total, slice_bytes }));
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

/// Repetitions done so far, readable by the driving thread while a worker runs them.
#[derive(Default)]
struct Done(AtomicU32);

/// The timed repetitions of `job`, back to back on its workers: one more untimed pass first, in the
/// same go, so every worker is awake and placed on a core when the first timed one begins.
async fn repetitions(
    job: &Job,
    work: &mut Work,
    job_index: usize,
    progress: &Progress<'_, '_>,
    cx: &Context<'_>,
) -> Outcome<Vec<Rep>> {
    let total = job.repetitions.max(1);
    let done = Arc::new(Done::default());
    let (job, cancel) = (job.clone(), cx.cancel.clone());
    let counter = done.clone();
    let all = match work {
        Work::Pool { pool, input } => {
            let input = input.clone();
            // CPU-bound tasks keep as many workers awake as there are cores to run them; not the
            // jobs that measure what spawning, waking and switching cost (that is their point).
            let awake = if warms_up(&job) && job.variant == Variant::ThreadPool && !kernels::measures_costs(&job) {
                (pool.current_num_threads() as u32).min(cx.cores.max(1))
            } else {
                1
            };
            let reps = on_pool(pool, move || {
                let _awake = KeepAwake::start(awake);
                if warms_up(&job) {
                    rep_on_pool(&job, &*input, &cancel)?;
                }
                (0..total)
                    .map(|_| {
                        let rep = rep_on_pool(&job, &*input, &cancel);
                        counter.0.fetch_add(1, Ordering::Relaxed);
                        rep
                    })
                    .collect::<Result<Vec<Rep>, Stopped>>()
            });
            watch(reps, &done, job_index, total, progress, cx).await?
        }
        Work::Runtime { runtime, input } => {
            let (input, handle) = (input.clone(), runtime.clone());
            let reps = on_runtime(runtime, async move {
                if warms_up(&job) {
                    rep_on_runtime(&job, &*input, &handle, false, &cancel).await?;
                }
                let mut reps = Vec::with_capacity(total as usize);
                for _ in 0..total {
                    reps.push(rep_on_runtime(&job, &*input, &handle, true, &cancel).await?);
                    counter.0.fetch_add(1, Ordering::Relaxed);
                }
                Ok(reps)
            });
            watch(reps, &done, job_index, total, progress, cx).await?
        }
        Work::Hash { pool, source, total: bytes, slice_bytes } => {
            let steps = slices(*bytes, *slice_bytes).count() as u32 * total;
            let mut reps = Vec::with_capacity(total as usize);
            let mut step = 0;
            for _ in 0..total {
                let hashing = Arc::new(Mutex::new(Hashing::new(job.tasks, job.variant)));
                for (offset, length) in slices(*bytes, *slice_bytes) {
                    if cancel.is_stopped() {
                        return Ok(Err(Stopped));
                    }
                    let slice = source.slice(offset, length)?;
                    let state = hashing.clone();
                    on_pool(pool, move || state.lock().unwrap_or_else(|p| p.into_inner()).advance(&slice)).await?;
                    step += 1;
                    progress.report(job_index, Stage::Measuring, step, steps);
                }
                let hashing = Arc::try_unwrap(hashing).map_err(|_| "a slice was still being hashed".to_string())?;
                let (digests, trace) = hashing.into_inner().unwrap_or_else(|p| p.into_inner()).finish();
                reps.push(Rep { value: 0, trace, digests, held_per_task: None, waits: None });
            }
            Ok(reps)
        }
    };
    Ok(all)
}

/// Await `reps`, reporting how many are done every [`PROGRESS_EVERY_MS`] after the first: a job
/// shorter than that reports nothing while it is timed, so the page does not render meanwhile
/// (on a small machine the page's rendering takes a core from the workers).
async fn watch<T, E: Into<Failure>>(
    reps: impl Future<Output = Result<Result<T, Stopped>, E>>,
    done: &Done,
    job_index: usize,
    total: u32,
    progress: &Progress<'_, '_>,
    cx: &Context<'_>,
) -> Outcome<T> {
    let mut reps = pin!(reps);
    loop {
        match select(reps.as_mut(), (cx.sleep)(PROGRESS_EVERY_MS as u32)).await {
            Either::Left((outcome, _)) => return outcome.map_err(Into::into),
            Either::Right(_) => progress.report(job_index, Stage::Measuring, done.0.load(Ordering::Relaxed), total),
        }
    }
}

/// `job`'s measurement from its repetitions, checked against its expected result.
fn measurement(job: &Job, work: &Work, reps: Vec<Rep>, startup: Startup, started: Option<(f64, f64)>) -> Measurement {
    let mut samples = Vec::with_capacity(reps.len());
    let (mut values, mut digests, mut held_per_task, mut waits) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for rep in reps {
        samples.push((rep.trace.wall_ms, rep.trace));
        values.push(rep.value);
        digests.extend(rep.digests);
        held_per_task.extend(rep.held_per_task);
        waits.push(rep.waits);
    }
    // The waits of the repetition whose time is the median, as its trace is.
    let times: Vec<f64> = samples.iter().map(|(ms, _)| *ms).collect();
    let median_waits = stats::median_index(&times).and_then(|i| waits[i]);
    let mut measurement = match work {
        Work::Hash { .. } => Measurement::from_samples(job.clone(), samples, check_digests(&digests), None),
        Work::Pool { input, .. } | Work::Runtime { input, .. } => {
            Measurement::from_samples(job.clone(), samples, input.check(&values), None)
        }
    };
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
}
