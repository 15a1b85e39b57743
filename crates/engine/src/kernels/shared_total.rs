//! The Sum chapter's second kernel, one shared total: n random integers added by one task per
//! worker into one total, through private sums, one shared atomic counter, or counters side by side.

use super::sum::Numbers;
use crate::cancel::{Cancel, Stopped};
use crate::kernel_api::{Kernel, Rep};
use crate::measure::{traced_sequential, traced_tasks};
use experiments::job::limits::MAX_SHARED_TOTAL_TASKS;
use experiments::{Job, TotalKind, Variant};
use std::sync::atomic::{AtomicI64, Ordering};
use workloads::shared_total::{add_each_into, add_once_into, AdjacentCounters, ADJACENT_COUNTERS};
use workloads::split::even_ranges;
use workloads::sum::{sum_cancellable, SUM_BLOCK};

// Every task of a job has a counter of its own in the one cache line.
const _: () = assert!(MAX_SHARED_TOTAL_TASKS as usize <= ADJACENT_COUNTERS);

/// Add `numbers` random integers generated from `seed`, into a total as `total` says.
#[derive(Clone)]
pub struct SharedTotal {
    pub numbers: u64,
    pub seed: u64,
    pub total: TotalKind,
}

impl Kernel for SharedTotal {
    type Input = Numbers;
    const VARIANTS: &'static [Variant] = &[Variant::Sequential, Variant::ThreadPool];
    const INPUT_PER_TASK_COUNT: bool = false;

    fn prepare(&self, _tasks: u32, cancel: &Cancel) -> Result<Numbers, Stopped> {
        // The sum's own input: the same numbers, so the totals agree with the Sum panel's.
        Numbers::generate(self.numbers, self.seed, cancel)
    }

    fn expected(&self, input: &Numbers) -> u64 {
        input.expected as u64
    }

    fn on_pool(&self, input: &Numbers, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let numbers = &input.numbers;
        if job.variant == Variant::Sequential {
            return traced_sequential(|| sum_cancellable(numbers, || !cancel.is_stopped()).map(|s| s as u64));
        }
        // lesson-code: shared-total/pool
        let ranges = even_ranges(numbers.len(), job.tasks as usize);
        let (shared, side_by_side) = (AtomicI64::new(0), AdjacentCounters::default());
        let mut rep = traced_tasks(ranges.len(), |task| {
            let counter = match self.total {
                TotalKind::Private | TotalKind::OneShared => &shared,
                TotalKind::SideBySide => side_by_side.counter(task),
            };
            // A block of a million numbers at a time, looking at the stop flag between blocks (the
            // private sums add into the total once per block: once per task at the default size).
            for block in numbers[ranges[task].clone()].chunks(SUM_BLOCK) {
                if cancel.is_stopped() {
                    return None;
                }
                match self.total {
                    TotalKind::Private => add_once_into(block, counter),
                    TotalKind::OneShared | TotalKind::SideBySide => add_each_into(block, counter),
                }
            }
            Some(0)
        })?;
        rep.value = (shared.load(Ordering::Relaxed) + side_by_side.total()) as u64;
        Ok(rep)
        // lesson-code-end
    }
}
