//! How long a run takes at the least, from its settings alone: what no machine can shorten (the
//! waits the settings ask for, and the sample floor), so a panel can say so before a long run
//! starts. A lower bound, never a prediction: the work itself, warm-ups and second looks add to it.

use crate::{Job, Variant, Workload, SAMPLE_FLOOR_MS};

/// Beyond this, a panel says before Run how long its run takes at the least.
pub const LONG_RUN_MS: f64 = 30_000.0;

impl Job {
    /// The waits one pass of the job cannot avoid, in ms: reads or requests that wait, divided by
    /// how many of them can wait at once (a thread blocked in a wait holds its worker; a parked
    /// task does not).
    pub fn waits_per_pass_ms(&self) -> f64 {
        let ms = |count: u32, wait_us: u32, at_once: u32| {
            f64::from(count) * f64::from(wait_us) / 1_000.0 / f64::from(at_once.max(1))
        };
        match self.workload {
            Workload::DocSearch { documents, latency_us, .. } => {
                let at_once = match self.variant {
                    Variant::Sequential => 1,
                    Variant::ThreadPool => self.workers.min(self.tasks),
                    Variant::Goroutines => self.tasks,
                };
                ms(documents, latency_us, at_once.min(documents))
            }
            Workload::Qps { requests, concurrency, wait_us, .. } => {
                let at_once = match self.variant {
                    Variant::Sequential => 1,
                    Variant::ThreadPool => self.workers.min(concurrency),
                    Variant::Goroutines => concurrency,
                };
                ms(requests, wait_us, at_once.min(requests))
            }
            _ => 0.0,
        }
    }

    /// The least time the job's timed samples take, in ms: each sample lasts at least the sample
    /// floor (but the memory count, which is timed once) and at least one pass's waits.
    pub fn takes_at_least_ms(&self) -> f64 {
        let floor = if self.workload == Workload::TaskMemory { 0.0 } else { SAMPLE_FLOOR_MS };
        f64::from(self.repetitions.max(1)) * self.waits_per_pass_ms().max(floor)
    }
}

/// The least time a run of `jobs` takes, in ms (see [`Job::takes_at_least_ms`]).
pub fn run_takes_at_least_ms(jobs: &[Job]) -> f64 {
    jobs.iter().map(Job::takes_at_least_ms).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(variant: Variant, workers: u32, tasks: u32, documents: u32, latency_ms: u32, repetitions: u32) -> Job {
        Job {
            workload: Workload::DocSearch { documents, latency_us: latency_ms * 1_000, seed: 1 },
            variant,
            workers,
            tasks,
            repetitions,
        }
    }

    #[test]
    fn the_issues_half_hour_preset_is_said_to_take_over_half_an_hour() {
        // /embed/experiments/document-search?workers=1&tasks=64&docs=10000&latency=10&reps=20:
        // the loop waits 10,000 × 10 ms = 100 s per sample, 20 samples; one thread the same; the
        // goroutines wait 100 s / 64 per sample.
        let jobs = [
            search(Variant::Sequential, 1, 64, 10_000, 10, 20),
            search(Variant::ThreadPool, 1, 64, 10_000, 10, 20),
            search(Variant::Goroutines, 1, 64, 10_000, 10, 20),
        ];
        let least = run_takes_at_least_ms(&jobs);
        let expected = 20.0 * (100_000.0 + 100_000.0 + 100_000.0 / 64.0);
        assert!((least - expected).abs() < 1e-6, "{least} vs {expected}");
        assert!(least > 33.0 * 60_000.0);
    }

    #[test]
    fn threads_wait_in_turns_of_the_workers_and_goroutines_all_at_once() {
        let threads = search(Variant::ThreadPool, 4, 16, 1_000, 2, 1).waits_per_pass_ms();
        let goroutines = search(Variant::Goroutines, 4, 16, 1_000, 2, 1).waits_per_pass_ms();
        assert_eq!(threads, 1_000.0 * 2.0 / 4.0);
        assert_eq!(goroutines, 1_000.0 * 2.0 / 16.0);
        // More tasks than documents cannot wait more at once than there are documents.
        assert_eq!(search(Variant::Goroutines, 4, 64, 8, 10, 1).waits_per_pass_ms(), 10.0);
    }

    #[test]
    fn work_that_never_waits_takes_at_least_its_sample_floors_and_a_memory_count_no_floor() {
        let sum = Job {
            workload: Workload::Sum { numbers: 1_000, seed: 1 },
            variant: Variant::Sequential,
            workers: 1,
            tasks: 1,
            repetitions: 5,
        };
        assert_eq!(sum.takes_at_least_ms(), 5.0 * SAMPLE_FLOOR_MS);
        let memory = Job { workload: Workload::TaskMemory, ..sum.clone() };
        assert_eq!(memory.takes_at_least_ms(), 0.0);
        // The default document search (reads without a wait) is short.
        assert!(run_takes_at_least_ms(&[search(Variant::Sequential, 2, 8, 1_000, 0, 5)]) < LONG_RUN_MS);
    }
}
