//! Is the machine quiet? A probe keeps several workers spinning at once for about a millisecond,
//! each watching the clock: a running thread sees it advance by microseconds between two looks, a
//! thread the operating system has taken off its core for another (the browser compiling or
//! rendering right after a page loads, another program) sees a gap. The share of the probe's time
//! lost in such gaps is an absolute measure of how busy the machine is, whatever its speed. Jobs
//! are timed only once the probes of a recent stretch of time lost almost nothing.
//!
//! Why this exists: right after a page loads, Chromium compiles the page's WebAssembly and renders
//! on the same cores the workers need; measured then, two workers look no faster than one (see
//! docs/design-notes.md, "First runs").

use crate::clock::now_ms;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// How long each copy of a probe watches the clock.
pub const PROBE_MS: f64 = 5.0;
/// Between two looks at the clock a running thread spends microseconds; a longer gap means it was
/// not running.
const GAP_MS: f64 = 0.1;
/// How long the copies wait for each other to start before the probe calls the machine busy.
const START_LIMIT_MS: f64 = 20.0;
/// Probes needed in a window before it can count as quiet at all.
pub const MIN_PROBES: usize = 3;
/// A window is quiet when the median of its probes lost at most this share of their time.
/// (Measured on a 2-core virtual machine: natively an idle machine's probes lose nothing at the
/// median and about 1 % on average; in Chromium, probes of the engine's workers on an idle page
/// lose 10 to 20 % at the median, some now and then most of their time; on a page still loading,
/// or with every core shared with spinning threads, the median probe loses 50 % or more.)
pub const MAX_LOST_SHARE: f64 = 0.3;
/// ... and its latest probe at most this share (a machine that has just become busy is not quiet).
const MAX_LOST_SHARE_LATEST: f64 = 0.7;
/// Probes older than this are forgotten.
const MEMORY_MS: f64 = 1_000.0;

/// One probe: the largest share of its time any copy lost, or `None` if the copies could not all
/// start within `START_LIMIT_MS` (a worker did not get a core).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    pub lost_share: Option<f64>,
}

/// Watch `clock` for `ms`; returns the time lost in gaps (when this thread was not running).
fn watch_clock(ms: f64, mut clock: impl FnMut() -> f64) -> f64 {
    let start = clock();
    let (mut last, mut lost) = (start, 0.0);
    loop {
        let now = clock();
        if now - last > GAP_MS {
            lost += now - last;
        }
        last = now;
        if now - start >= ms {
            return lost;
        }
        std::hint::spin_loop();
    }
}

/// Run one probe of `width` copies started together. Call it on a worker of a rayon pool with at
/// least `width` workers; it holds `width` workers for about [`PROBE_MS`].
pub fn probe(width: usize) -> Reading {
    let width = width.max(1);
    let arrived = AtomicUsize::new(0);
    let late = AtomicBool::new(false);
    let worst = Mutex::new(0.0f64);
    rayon::scope(|scope| {
        for _ in 0..width {
            let (arrived, late, worst) = (&arrived, &late, &worst);
            scope.spawn(move |_| {
                arrived.fetch_add(1, Ordering::SeqCst);
                let limit = now_ms() + START_LIMIT_MS;
                while arrived.load(Ordering::SeqCst) < width {
                    if late.load(Ordering::Relaxed) || now_ms() > limit {
                        late.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::hint::spin_loop();
                }
                let share = watch_clock(PROBE_MS, now_ms) / PROBE_MS;
                let mut worst = worst.lock().unwrap_or_else(|p| p.into_inner());
                *worst = worst.max(share);
            });
        }
    });
    let worst = worst.into_inner().unwrap_or_else(|p| p.into_inner());
    Reading { lost_share: (!late.load(Ordering::Relaxed)).then_some(worst) }
}

/// The recent probes: when each started and what it lost.
#[derive(Clone, Debug, Default)]
pub struct QuietCheck {
    readings: u32,
    recent: VecDeque<(f64, Reading)>,
}

impl QuietCheck {
    pub fn new() -> Self {
        Self::default()
    }

    /// Take one reading, of a probe that started at `at_ms`, into account.
    pub fn add(&mut self, reading: Reading, at_ms: f64) {
        self.readings += 1;
        self.recent.push_back((at_ms, reading));
        while self.recent.front().is_some_and(|&(at, _)| at < at_ms - MEMORY_MS) {
            self.recent.pop_front();
        }
    }

    /// Whether `reading` alone would count as quiet.
    pub fn would_be_quiet(&self, reading: &Reading) -> bool {
        reading.lost_share.is_some_and(|lost| lost <= MAX_LOST_SHARE_LATEST)
    }

    /// Forget the recent probes.
    pub fn restart(&mut self) {
        self.recent.clear();
    }

    /// Whether the probes of the last `window_ms` before `now_ms` found the machine quiet: at least
    /// [`MIN_PROBES`] of them, covering the whole window, none whose copies could not all start,
    /// the latest one not taken over, and the median one losing at most [`MAX_LOST_SHARE`] of its
    /// time. (Even an idle machine takes a copy's core now and then; a busy one does it to most.)
    pub fn quiet(&self, window_ms: f64, now_ms: f64) -> bool {
        let from = now_ms - window_ms;
        let covered = self.recent.front().is_some_and(|&(first, _)| first <= from);
        let window: Vec<Option<f64>> =
            self.recent.iter().filter(|&&(at, _)| at >= from).map(|&(_, r)| r.lost_share).collect();
        let Some(mut shares) = window.iter().copied().collect::<Option<Vec<f64>>>() else { return false };
        let latest = shares.last().copied();
        shares.sort_by(f64::total_cmp);
        let median = shares.get(shares.len().saturating_sub(1) / 2).copied().unwrap_or(f64::INFINITY);
        covered
            && shares.len() >= MIN_PROBES
            && latest.is_some_and(|latest| latest <= MAX_LOST_SHARE_LATEST)
            && median <= MAX_LOST_SHARE
    }

    pub fn readings(&self) -> u32 {
        self.readings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: Reading = Reading { lost_share: Some(0.0) };
    const HICCUP: Reading = Reading { lost_share: Some(0.6) };
    const SHARED: Reading = Reading { lost_share: Some(0.9) };
    const SOME: Reading = Reading { lost_share: Some(0.15) };
    const LATE: Reading = Reading { lost_share: None };

    /// Feed `readings` one per millisecond from `start`; returns the time after the last.
    fn feed(check: &mut QuietCheck, start: f64, readings: &[Reading]) -> f64 {
        for (i, r) in readings.iter().enumerate() {
            check.add(*r, start + i as f64);
        }
        start + readings.len() as f64
    }

    #[test]
    fn quiet_when_the_probes_cover_the_window_and_lost_nothing() {
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[QUIET; 5]);
        assert!(!check.quiet(10.0, now), "5 ms of probes do not cover a 10 ms window");
        assert!(check.quiet(5.0, now));
        let now = feed(&mut check, now, &[QUIET; 10]);
        assert!(check.quiet(10.0, now));
    }

    #[test]
    fn the_odd_hiccup_is_tolerated_but_not_a_core_shared_nor_a_late_copy() {
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[[QUIET, SOME, HICCUP, QUIET, HICCUP], [SOME; 5]].concat());
        assert!(check.quiet(10.0, now), "the median probe lost 15 %; two lost more, now and then");
        let now = feed(&mut check, now, &[SHARED]);
        assert!(!check.quiet(10.0, now), "the latest probe shared its core");
        let now = feed(&mut check, now, &[SHARED, SHARED, SHARED, SHARED, SHARED, QUIET]);
        assert!(!check.quiet(10.0, now), "more than half the probes lost 90 %");
        let now = feed(&mut check, now, &[LATE, QUIET, QUIET]);
        assert!(!check.quiet(10.0, now), "a copy that could not start at all");
        let now = feed(&mut check, now, &[QUIET; 10]);
        assert!(check.quiet(10.0, now));
    }

    #[test]
    fn a_core_taken_for_good_never_counts_as_quiet() {
        // Another program holds one of two cores: a copy loses about half its time, always.
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[Reading { lost_share: Some(0.5) }; 50]);
        assert!(!check.quiet(10.0, now));
    }

    #[test]
    fn restarting_forgets_the_probes() {
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[QUIET; 10]);
        check.restart();
        assert!(!check.quiet(5.0, now));
        assert_eq!(check.readings(), 10);
        assert!(check.would_be_quiet(&HICCUP) && !check.would_be_quiet(&SHARED) && !check.would_be_quiet(&LATE));
    }

    #[test]
    fn old_probes_are_forgotten() {
        let mut check = QuietCheck::new();
        feed(&mut check, 0.0, &[QUIET; 10]);
        feed(&mut check, 5_000.0, &[QUIET]);
        assert_eq!(check.recent.len(), 1);
    }

    #[test]
    fn gaps_in_the_clock_are_time_lost_and_small_steps_are_not() {
        // A thread that runs sees the clock step by microseconds...
        let mut t = 0.0;
        assert_eq!(
            watch_clock(1.0, || {
                t += 0.001;
                t
            }),
            0.0
        );
        // ... one taken off its core sees it jump: here twice, by 0.3 ms and 0.5 ms.
        let mut times = [0.0, 0.01, 0.02, 0.32, 0.33, 0.83, 0.84, 0.9, 1.0].into_iter();
        let lost = watch_clock(1.0, || times.next().unwrap_or(2.0));
        assert!((lost - 0.8).abs() < 1e-9, "lost {lost}");
        // Watching the real clock, spinning, takes as long as asked.
        let t0 = now_ms();
        let lost = watch_clock(2.0, now_ms);
        assert!(now_ms() - t0 >= 2.0 && lost <= now_ms() - t0);
    }

    #[test]
    fn the_probe_measures_on_a_real_pool() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let reading = pool.install(|| probe(2));
        // On a loaded test machine the copies may not start together; when they did, the share is a share.
        if let Some(share) = reading.lost_share {
            assert!((0.0..=1.0).contains(&share) || share > 1.0, "{share}");
        }
        let alone = pool.install(|| probe(1));
        assert!(alone.lost_share.is_some());
    }
}
