//! One shared total: adding numbers into a counter that other tasks add into too, or into a counter
//! of one's own that sits beside the others, against keeping a private sum and adding it at the end.
//!
//! The functions only say *where* each addition lands; which task runs on which worker is not
//! theirs to know. Every one gives the same total: only the time differs, and that is the lesson.

use std::sync::atomic::{AtomicI64, Ordering};

/// Counters packed side by side: eight `i64`s in one 64-byte block, so that on most CPUs all of
/// them share one cache line. Task `i` adds only into counter `i`, yet the cores still take the
/// line from each other on every write ("false sharing").
#[repr(C, align(64))]
#[derive(Default)]
pub struct AdjacentCounters {
    counters: [AtomicI64; ADJACENT_COUNTERS],
}

/// How many counters fit in one 64-byte cache line.
pub const ADJACENT_COUNTERS: usize = 8;

impl AdjacentCounters {
    /// Counter `task`, wrapping around after [`ADJACENT_COUNTERS`] (two tasks then share one).
    pub fn counter(&self, task: usize) -> &AtomicI64 {
        &self.counters[task % ADJACENT_COUNTERS]
    }

    /// The counters' sum, once every task has finished.
    pub fn total(&self) -> i64 {
        self.counters.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }
}

// lesson-code: shared-total/adds
/// Add every number into `counter` with one atomic addition each: when several tasks share the
/// counter, every addition waits for the cache line to come to its core.
#[inline(never)]
pub fn add_each_into(numbers: &[i32], counter: &AtomicI64) {
    for &x in numbers {
        counter.fetch_add(x as i64, Ordering::Relaxed);
    }
}

/// Keep a private sum in a local variable (a register) and add it into `counter` once, at the end:
/// what the sum chapter's tasks do.
#[inline(never)]
pub fn add_once_into(numbers: &[i32], counter: &AtomicI64) {
    let private: i64 = numbers.iter().map(|&x| x as i64).sum();
    counter.fetch_add(private, Ordering::Relaxed);
}
// lesson-code-end

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::random_numbers;
    use crate::split::even_ranges;
    use crate::sum::sum;

    #[test]
    fn every_way_of_adding_gives_the_same_total() {
        let numbers = random_numbers(10_007, 5);
        let expected = sum(&numbers);
        for parts in [1, 2, 3, 8, 9] {
            let ranges = even_ranges(numbers.len(), parts);
            let shared = AtomicI64::new(0);
            ranges.iter().for_each(|r| add_each_into(&numbers[r.clone()], &shared));
            assert_eq!(shared.load(Ordering::Relaxed), expected, "shared, {parts} parts");
            let once = AtomicI64::new(0);
            ranges.iter().for_each(|r| add_once_into(&numbers[r.clone()], &once));
            assert_eq!(once.load(Ordering::Relaxed), expected, "private, {parts} parts");
            let adjacent = AdjacentCounters::default();
            ranges.iter().enumerate().for_each(|(task, r)| add_each_into(&numbers[r.clone()], adjacent.counter(task)));
            assert_eq!(adjacent.total(), expected, "adjacent, {parts} parts");
        }
    }

    #[test]
    fn the_adjacent_counters_fill_one_cache_line() {
        assert_eq!(std::mem::size_of::<AdjacentCounters>(), 64);
        assert_eq!(std::mem::align_of::<AdjacentCounters>(), 64);
        let counters = AdjacentCounters::default();
        assert!(std::ptr::eq(counters.counter(0), counters.counter(ADJACENT_COUNTERS)));
    }
}
