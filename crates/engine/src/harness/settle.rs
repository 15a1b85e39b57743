//! Before a job is timed: untimed warm-ups until its code is optimised and its caches are warm, and
//! quiet probes until the cores it needs are found free, within a time limit (see
//! docs/design-notes.md, "First runs").

use super::{warms_up, Work};
use crate::cancel::Stopped;
use crate::clock::now_ms;
use crate::driver::{on_pool, on_runtime, Context};
use crate::measure::{rep_on_pool, rep_on_runtime};
use crate::outcome::Outcome;
use crate::quiet::{probe, QuietCheck, PROBE_MS};
use experiments::Job;
use std::cell::Cell;
use std::sync::Arc;

/// How long one job waits for the machine to become quiet before it is timed anyway (and says so).
pub const SETTLE_LIMIT_MS: f64 = 2_000.0;
/// An engine this young waits up to [`SETTLE_LIMIT_MS`] for quiet, an older one at most
/// [`SETTLED_ENGINE_LIMIT_MS`].
const YOUNG_ENGINE_MS: f64 = 5_000.0;
const SETTLED_ENGINE_LIMIT_MS: f64 = 500.0;
/// How long all the jobs of a group wait for quiet together, at most, in multiples of one job's
/// limit (their warm-ups and timing do not count); once spent, later jobs only warm up.
pub const GROUP_SETTLE_LIMITS: f64 = 2.0;
/// Before a job is timed, the probes must find the machine quiet for this long...
const QUIET_WINDOW_MS: f64 = 200.0;
/// ... or only this long if the previous job ended quietly less than [`RECENTLY_QUIET_MS`] ago.
const QUIET_WINDOW_SHORT_MS: f64 = 50.0;
const RECENTLY_QUIET_MS: f64 = 1_000.0;
/// Jobs whose warm-up takes longer than this are warmed up once, not until stable.
const LONG_WARM_UP_MS: f64 = 250.0;
/// After each round of warm-ups the workers pause this long, so the browser's compiler threads get
/// a core to optimise the code the warm-ups ran.
const COMPILER_PAUSE_MS: u32 = 5;
/// Warm-ups of a job run for at least this long in all.
const MIN_WARM_UP_MS: f64 = 60.0;
/// A job's code counts as warm once its latest warm-up is within this factor of its fastest.
const STABLE_WARM_UP: f64 = 1.2;

/// Whether warm-ups that took `warm_ups_ms` call for another: until the last two agree (the
/// caches are full) and together they have run for [`MIN_WARM_UP_MS`] (time for the browser to
/// finish optimising the job's code: a function keeps its slower first version until the
/// optimised one is ready, and short warm-ups can agree with each other before that), except that
/// one long warm-up is enough.
fn wants_warm_up(warm_ups_ms: &[f64]) -> bool {
    let total: f64 = warm_ups_ms.iter().sum();
    match warm_ups_ms {
        [] => true,
        [.., last] if *last > LONG_WARM_UP_MS => false,
        _ if total < MIN_WARM_UP_MS => true,
        [_] => true,
        [.., last] => {
            let best = warm_ups_ms.iter().copied().fold(f64::INFINITY, f64::min);
            *last > best * STABLE_WARM_UP
        }
    }
}

/// How one job's wait for a quiet machine went.
pub(super) struct Settled {
    pub ms: f64,
    /// Of `ms`, the time not spent on warm-ups: probing, pausing, waiting for quiet.
    pub waited_ms: f64,
    pub rounds: u32,
    pub quiet: bool,
}

thread_local! {
    /// When the driving thread last saw the end of a quiet stretch (a settled job's timing).
    static LAST_QUIET_MS: Cell<Option<f64>> = const { Cell::new(None) };
    /// When this engine measured its first job.
    static FIRST_JOB_MS: Cell<Option<f64>> = const { Cell::new(None) };
}

/// How long a job may wait for quiet, given the driver's `limit_ms`: all of it while the engine is
/// young (its first [`YOUNG_ENGINE_MS`], when the page may still be loading and the browser still
/// compiling), [`SETTLED_ENGINE_LIMIT_MS`] at most afterwards, so that a machine that is merely
/// noisy does not make every later run wait.
pub(super) fn settle_limit_ms(limit_ms: f64, now: f64) -> f64 {
    let first = FIRST_JOB_MS.with(|first| {
        let at = first.get().unwrap_or(now);
        first.set(Some(at));
        at
    });
    if now - first < YOUNG_ENGINE_MS {
        limit_ms
    } else {
        limit_ms.min(SETTLED_ENGINE_LIMIT_MS)
    }
}

/// How long the probes must find the machine quiet before `job` is timed: a long stretch on a
/// machine not known to be quiet (right after the page loaded, the browser is busy for a second or
/// more, in bursts), a short one when the previous job ended quietly a moment ago.
fn quiet_window_ms(now: f64) -> f64 {
    match LAST_QUIET_MS.with(Cell::get) {
        Some(at) if now - at < RECENTLY_QUIET_MS => QUIET_WINDOW_SHORT_MS,
        _ => QUIET_WINDOW_MS,
    }
}

/// Untimed warm-ups of `job` until two of them agree, with a quiet probe after each, then probes
/// alone until those of the last [`quiet_window_ms`] found the machine quiet; or until `limit_ms`.
pub(super) async fn settle(
    job: &Job,
    work: &mut Work,
    probe_pool: Option<&Arc<rayon::ThreadPool>>,
    width: u32,
    check: &mut QuietCheck,
    limit_ms: f64,
    cx: &Context<'_>,
) -> Outcome<Settled> {
    let started = now_ms();
    let probing = probe_pool.is_some() && warms_up(job);
    let window = quiet_window_ms(started);
    check.restart();
    let mut warm_ups_ms = Vec::new();
    let mut warming_ms = 0.0_f64;
    let mut rounds = 0;
    let quiet = loop {
        let warm = !warms_up(job) || !wants_warm_up(&warm_ups_ms);
        if warm && (!probing || check.quiet(window, now_ms())) {
            break true;
        }
        // The limit bounds the wait for quiet, not the warm-ups (a job is never timed cold because
        // earlier jobs used up the group's wait), unless they go on for longer than a job's limit.
        if now_ms() - started - warming_ms.min(SETTLE_LIMIT_MS) > limit_ms {
            break false;
        }
        // Warm-ups until this round has spent a probe's worth of time on them (a tiny job would
        // otherwise spend most of its warming up probing).
        let round_started = now_ms();
        let warming = wants_warm_up(&warm_ups_ms) && warms_up(job);
        while wants_warm_up(&warm_ups_ms) && warms_up(job) && now_ms() - round_started < PROBE_MS {
            let t0 = now_ms();
            match warm_up(job, work, cx).await? {
                Ok(()) => {
                    let took = now_ms() - t0;
                    warm_ups_ms.push(took);
                    warming_ms += took;
                }
                Err(Stopped) => return Ok(Err(Stopped)),
            }
        }
        if warming {
            // Leave the cores to the browser's compiler for a moment: it optimises the code the
            // warm-ups ran on background threads, which probes on every core would starve.
            (cx.sleep)(COMPILER_PAUSE_MS).await;
        }
        if let Some(pool) = probe_pool.filter(|_| probing) {
            let at = now_ms();
            let reading = on_pool(pool, move || probe(width as usize)).await?;
            check.add(reading, at);
        }
        rounds += 1;
        if cx.cancel.is_stopped() {
            return Ok(Err(Stopped));
        }
    };
    let ms = now_ms() - started;
    let waited_ms = (ms - warming_ms).max(0.0);
    Ok(Ok(Settled { ms, waited_ms, rounds, quiet }))
}

/// One untimed pass of `job`, to warm code and caches (work taken step by step says what it warms up
/// with: hashing, a short slice, not a whole pass).
async fn warm_up(job: &Job, work: &mut Work, cx: &Context<'_>) -> Outcome<()> {
    let (job, cancel) = (job.clone(), cx.cancel.clone());
    Ok(match work {
        Work::Pool { pool, input } => {
            let input = input.clone();
            on_pool(pool, move || rep_on_pool(&job, &*input, &cancel).map(drop)).await?
        }
        Work::Runtime { runtime, input } => {
            let (input, handle) = (input.clone(), runtime.clone());
            on_runtime(runtime, async move { rep_on_runtime(&job, &*input, &handle, false, &cancel).await.map(drop) })
                .await?
        }
        Work::Steps { pool, steps } => {
            on_pool(pool, steps.warm_up(&job)).await?;
            cancel.check()
        }
    })
}

/// The previous job ended quietly at `now`: the next one may wait for a shorter quiet stretch.
pub(super) fn note_quiet(now: f64) {
    LAST_QUIET_MS.with(|last| last.set(Some(now)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_ups_go_on_until_they_agree_and_have_run_long_enough() {
        assert!(wants_warm_up(&[]));
        assert!(wants_warm_up(&[5.0]), "one is not two that agree");
        assert!(wants_warm_up(&[5.0, 5.0]), "10 ms is too short for the code to be optimised");
        assert!(!wants_warm_up(&[5.0; 13]));
        assert!(wants_warm_up(&[[5.0; 12].as_slice(), &[9.0]].concat()), "the last one disagrees");
        assert!(!wants_warm_up(&[400.0]), "one long warm-up is enough");
    }
}
