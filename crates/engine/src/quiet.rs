//! Is the machine quiet? A probe starts the same short, fixed piece of work on several workers at
//! once and times each copy. When the cores are free every copy takes as long as the fastest one
//! ever did; when another thread has a core (the browser compiling or rendering right after a page
//! loads, another program), a copy on that core is slower. Jobs are timed only once the probes of
//! a recent stretch of time have (nearly all) found the machine quiet.
//!
//! Why this exists: right after a page loads, Chromium compiles the page's WebAssembly and renders
//! on the same cores the workers need; measured then, two workers look no faster than one (see
//! ARCHITECTURE.md, "First runs").

use crate::clock::now_ms;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use workloads::spin::spin;

/// Spin units per copy: about 0.4 ms natively, a little more in a browser.
pub const PROBE_UNITS: u32 = 400;
/// How long the copies wait for each other to start before the probe calls the machine busy.
const START_LIMIT_MS: f64 = 20.0;
/// Probes needed in a window before it can count as quiet at all.
pub const QUIET_IN_A_ROW: u32 = 3;
/// The share of a quiet window's probes that may still have found a copy slowed.
pub const MAX_NOISY_SHARE: f64 = 0.25;
/// A probe is quiet when its slowest copy took at most this factor of the fastest copy ever seen.
const TOLERANCE: f64 = 1.15;

/// One probe's times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// The fastest copy.
    pub fastest_ms: f64,
    /// The slowest copy; `None` if the copies could not all start within [`START_LIMIT_MS`] (a
    /// worker did not get a core).
    pub slowest_ms: Option<f64>,
}

/// Run one probe of `width` copies started together. Call it on a worker of a rayon pool with at
/// least `width` workers; it holds `width` workers for about half a millisecond.
pub fn probe(width: usize) -> Reading {
    let width = width.max(1);
    let arrived = AtomicUsize::new(0);
    let late = AtomicBool::new(false);
    let times = Mutex::new(Vec::with_capacity(width));
    rayon::scope(|scope| {
        for copy in 0..width {
            let (arrived, late, times) = (&arrived, &late, &times);
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
                let t0 = now_ms();
                black_box(spin(PROBE_UNITS, copy as u64 + 1));
                let ms = now_ms() - t0;
                times.lock().unwrap_or_else(|p| p.into_inner()).push(ms);
            });
        }
    });
    let times = times.into_inner().unwrap_or_else(|p| p.into_inner());
    let fastest_ms = times.iter().copied().fold(f64::INFINITY, f64::min);
    let slowest_ms = times.iter().copied().fold(0.0, f64::max);
    Reading { fastest_ms, slowest_ms: (!late.load(Ordering::Relaxed) && times.len() == width).then_some(slowest_ms) }
}

/// Probes so far, and which of the recent ones found the machine quiet.
#[derive(Clone, Debug, Default)]
pub struct QuietCheck {
    best_ms: Option<f64>,
    readings: u32,
    /// When each recent probe started, and whether it was quiet.
    recent: std::collections::VecDeque<(f64, bool)>,
}

/// Probes older than this are forgotten.
const MEMORY_MS: f64 = 1_000.0;

impl QuietCheck {
    pub fn new() -> Self {
        Self::default()
    }

    /// Take one reading, of a probe that started at `at_ms`, into account.
    pub fn add(&mut self, reading: Reading, at_ms: f64) {
        self.readings += 1;
        if reading.fastest_ms.is_finite() {
            if self.best_ms.is_some_and(|best| reading.fastest_ms * TOLERANCE < best) {
                // Much faster than anything before: the earlier probes were slowed (by unoptimised
                // code, or by a busy machine all along) and no longer count.
                self.restart();
            }
            self.best_ms = Some(self.best_ms.map_or(reading.fastest_ms, |b| b.min(reading.fastest_ms)));
        }
        let best = self.best_ms.unwrap_or(f64::INFINITY);
        let quiet = reading.slowest_ms.is_some_and(|slowest| slowest <= best * TOLERANCE);
        self.recent.push_back((at_ms, quiet));
        while self.recent.front().is_some_and(|&(at, _)| at < at_ms - MEMORY_MS) {
            self.recent.pop_front();
        }
    }

    /// Whether `reading` would count as quiet (without taking it into account).
    pub fn would_be_quiet(&self, reading: &Reading) -> bool {
        let best = self.best_ms.map_or(reading.fastest_ms, |b| b.min(reading.fastest_ms));
        reading.slowest_ms.is_some_and(|slowest| slowest <= best * TOLERANCE)
    }

    /// Forget the recent probes (keep what was learnt about this machine).
    pub fn restart(&mut self) {
        self.recent.clear();
    }

    /// Whether the probes of the last `window_ms` before `now_ms` found the machine quiet: at least
    /// [`QUIET_IN_A_ROW`] of them, covering the whole window, the latest one quiet, and no more
    /// than one in [`MAX_NOISY_SHARE`] not. (Even an idle machine has the odd interruption; a
    /// busy one interrupts a copy in every other probe or more.)
    pub fn quiet(&self, window_ms: f64, now_ms: f64) -> bool {
        let from = now_ms - window_ms;
        let covered = self.recent.front().is_some_and(|&(first, _)| first <= from);
        let window: Vec<bool> = self.recent.iter().filter(|&&(at, _)| at >= from).map(|&(_, quiet)| quiet).collect();
        let noisy = window.iter().filter(|quiet| !**quiet).count();
        covered
            && window.len() >= QUIET_IN_A_ROW as usize
            && window.last() == Some(&true)
            && (noisy as f64) <= MAX_NOISY_SHARE * window.len() as f64
    }

    pub fn readings(&self) -> u32 {
        self.readings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(fastest_ms: f64, slowest_ms: Option<f64>) -> Reading {
        Reading { fastest_ms, slowest_ms }
    }

    const QUIET: Reading = Reading { fastest_ms: 1.0, slowest_ms: Some(1.05) };
    const SLOWED: Reading = Reading { fastest_ms: 1.0, slowest_ms: Some(2.0) };

    /// Feed `readings` one per millisecond from `start`.
    fn feed(check: &mut QuietCheck, start: f64, readings: &[Reading]) -> f64 {
        for (i, r) in readings.iter().enumerate() {
            check.add(*r, start + i as f64);
        }
        start + readings.len() as f64
    }

    #[test]
    fn quiet_when_the_probes_cover_the_window_and_agree() {
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[QUIET; 5]);
        assert!(!check.quiet(10.0, now), "5 ms of probes do not cover a 10 ms window");
        assert!(check.quiet(5.0, now));
        let now = feed(&mut check, now, &[QUIET; 10]);
        assert!(check.quiet(10.0, now));
    }

    #[test]
    fn the_odd_slowed_copy_is_tolerated_but_not_many_nor_the_latest() {
        let mut check = QuietCheck::new();
        let pattern = [QUIET, QUIET, QUIET, QUIET, QUIET, QUIET, QUIET, SLOWED];
        let now = feed(&mut check, 0.0, &[pattern, pattern].concat());
        assert!(!check.quiet(16.0, now), "the latest probe was slowed");
        let now = feed(&mut check, now, &[QUIET]);
        assert!(check.quiet(16.0, now), "2 of 17 slowed is the odd interruption");
        // A busy machine: every other probe slowed.
        let mut busy = QuietCheck::new();
        let now = feed(&mut busy, 0.0, &[[QUIET, SLOWED]; 20].concat());
        let now = feed(&mut busy, now, &[QUIET]);
        assert!(!busy.quiet(20.0, now));
    }

    #[test]
    fn a_copy_that_never_started_counts_as_slowed() {
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[[QUIET, reading(1.0, None)]; 10].concat());
        let now = feed(&mut check, now, &[QUIET]);
        assert!(!check.quiet(20.0, now));
    }

    #[test]
    fn getting_faster_forgets_the_slower_probes() {
        // Code still unoptimised at first (or a busy start): a much faster probe sets a new best,
        // and the earlier, slower ones no longer count.
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[reading(3.0, Some(3.0)); 10]);
        assert!(check.quiet(5.0, now));
        let now = feed(&mut check, now, &[QUIET]);
        assert!(!check.quiet(5.0, now), "one probe at the new speed covers no window");
        let now = feed(&mut check, now, &[QUIET; 5]);
        assert!(check.quiet(5.0, now));
    }

    #[test]
    fn a_core_taken_for_good_never_counts_as_quiet() {
        // Another program holds one of two cores: the copy there runs at half speed throughout.
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[SLOWED; 50]);
        assert!(!check.quiet(10.0, now));
    }

    #[test]
    fn restarting_forgets_the_probes_but_not_the_machine() {
        let mut check = QuietCheck::new();
        let now = feed(&mut check, 0.0, &[QUIET; 10]);
        check.restart();
        assert!(!check.quiet(5.0, now));
        // The best time is kept: slow probes are still not quiet.
        let now = feed(&mut check, now, &[reading(2.0, Some(2.0)); 10]);
        assert!(!check.quiet(5.0, now));
        assert_eq!(check.readings(), 20);
    }

    #[test]
    fn a_reading_can_be_judged_without_being_counted() {
        let mut check = QuietCheck::new();
        feed(&mut check, 0.0, &[QUIET; 4]);
        assert!(check.would_be_quiet(&QUIET));
        assert!(!check.would_be_quiet(&SLOWED));
        assert!(!check.would_be_quiet(&reading(1.0, None)));
        assert_eq!(check.readings(), 4);
    }

    #[test]
    fn old_probes_are_forgotten() {
        let mut check = QuietCheck::new();
        feed(&mut check, 0.0, &[QUIET; 10]);
        feed(&mut check, 5_000.0, &[QUIET]);
        assert_eq!(check.recent.len(), 1);
    }

    #[test]
    fn the_probe_measures_on_a_real_pool() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let reading = pool.install(|| probe(2));
        assert!(reading.fastest_ms > 0.0);
        // On a loaded test machine the copies may not start together; when they did, they took time.
        if let Some(slowest) = reading.slowest_ms {
            assert!(slowest >= reading.fastest_ms);
        }
        let alone = pool.install(|| probe(1));
        assert_eq!(alone.slowest_ms, Some(alone.fastest_ms));
    }
}
