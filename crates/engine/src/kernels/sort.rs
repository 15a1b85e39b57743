//! The bubble sort chapter's kernel: sort n random integers with one of its algorithms, in one loop
//! or on a rayon pool, traced task by task: chunked bubble sort, odd-even transposition sort with a
//! barrier per phase, and a level-by-level merge sort.
//!
//! The algorithms themselves are pure functions in `workloads::sort`; this module only decides what
//! runs as a task, on which worker, and records it.

use crate::cancel::{Cancel, Stopped};
use crate::kernel_api::{Kernel, Rep};
use crate::recorder::Recorder;
use experiments::{Check, Job, SortAlgorithm, Trace, Variant};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use workloads::sort::{
    bubble_sort, chunk_ranges, chunked_bubble_sort_sequential, merge, merge_sort_sequential, odd_even_phase_local,
    odd_even_sort_sequential, random_values, split_phase,
};
use workloads::split::even_ranges;

/// Sort `numbers` random integers generated from `seed` with `algorithm`.
#[derive(Clone)]
pub struct Sort {
    pub numbers: u32,
    pub seed: u64,
    pub algorithm: SortAlgorithm,
}

/// Values to sort (each repetition sorts a fresh copy) and the digest of the correctly sorted list.
pub struct Unsorted {
    values: Vec<i32>,
    expected: u64,
}

/// An order-sensitive digest of a list: equal for two lists only if (almost surely) they are equal.
fn digest(values: &[i32]) -> u64 {
    values.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &v| (hash ^ v as u32 as u64).wrapping_mul(0x0100_0000_01b3))
}

impl Kernel for Sort {
    type Input = Unsorted;
    const VARIANTS: &'static [Variant] = &[Variant::Sequential, Variant::ThreadPool];
    const INPUT_PER_TASK_COUNT: bool = false;

    fn prepare(&self, _tasks: u32, cancel: &Cancel) -> Result<Unsorted, Stopped> {
        cancel.check()?;
        let values = random_values(self.numbers as usize, self.seed);
        let mut sorted = values.clone();
        sorted.sort_unstable();
        Ok(Unsorted { expected: digest(&sorted), values })
    }

    fn expected(&self, input: &Unsorted) -> u64 {
        input.expected
    }

    /// A digest means nothing to a reader: say whether the list came out sorted.
    fn check(&self, input: &Unsorted, values: &[u64]) -> Check {
        let sorted = values.iter().all(|&v| v == input.expected);
        Check { ok: sorted, value: if sorted { "sorted" } else { "not sorted" }.into(), expected: "sorted".into() }
    }

    fn on_pool(&self, input: &Unsorted, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let mut copy = input.values.clone();
        let (done, trace) = if job.variant == Variant::Sequential {
            sort_sequential(self.algorithm, &mut copy, job.tasks, cancel)
        } else {
            sort_parallel(self.algorithm, &mut copy, job.tasks, cancel)
        };
        Rep::of_tasks(vec![done.then(|| digest(&copy))], trace)
    }
}

/// Split `values` into disjoint mutable pieces along consecutive `ranges`.
fn split_along<'a>(mut values: &'a mut [i32], ranges: &[Range<usize>]) -> Vec<&'a mut [i32]> {
    let mut pieces = Vec::with_capacity(ranges.len());
    let mut offset = 0;
    for range in ranges {
        let (_, rest) = std::mem::take(&mut values).split_at_mut(range.start - offset);
        let (piece, rest) = rest.split_at_mut(range.len());
        pieces.push(piece);
        values = rest;
        offset = range.end;
    }
    pieces
}

/// Sort `values` with `algorithm` on one worker, as one traced task. Returns false if stopped.
#[inline(never)]
fn sort_sequential(algorithm: SortAlgorithm, values: &mut [i32], tasks: u32, cancel: &Cancel) -> (bool, Trace) {
    let recorder = Recorder::new();
    let keep_going = || !cancel.is_stopped();
    let done = recorder.task(0, || match algorithm {
        SortAlgorithm::Bubble => bubble_sort(values, keep_going),
        SortAlgorithm::ChunkedBubble => chunked_bubble_sort_sequential(values, tasks as usize, keep_going),
        SortAlgorithm::OddEven => odd_even_sort_sequential(values, keep_going),
        SortAlgorithm::Merge => {
            merge_sort_sequential(values);
            true
        }
    });
    (done, recorder.finish())
}

/// Sort `values` with `algorithm` split into `tasks` tasks on the current rayon pool.
/// Returns false if stopped.
#[inline(never)]
fn sort_parallel(algorithm: SortAlgorithm, values: &mut [i32], tasks: u32, cancel: &Cancel) -> (bool, Trace) {
    let tasks = tasks.max(1) as usize;
    let recorder = Recorder::new();
    let done = match algorithm {
        SortAlgorithm::Bubble => recorder.task(0, || bubble_sort(values, || !cancel.is_stopped())),
        SortAlgorithm::ChunkedBubble => chunked(values, tasks, cancel, &recorder),
        SortAlgorithm::OddEven => odd_even(values, tasks, cancel, &recorder),
        SortAlgorithm::Merge => merge_levels(values, tasks, cancel, &recorder),
    };
    (done, recorder.finish())
}

/// The articles' version: each chunk is a task, then the whole list is bubble-sorted again (task t).
// lesson-code: sort/chunked
fn chunked(values: &mut [i32], tasks: usize, cancel: &Cancel, recorder: &Recorder) -> bool {
    let ranges = chunk_ranges(values.len(), tasks);
    let all_done = AtomicBool::new(true);
    rayon::scope(|scope| {
        for (index, chunk) in split_along(values, &ranges).into_iter().enumerate() {
            let all_done = &all_done;
            scope.spawn(move |_| {
                if !recorder.task(index as u32, || bubble_sort(chunk, || !cancel.is_stopped())) {
                    all_done.store(false, Ordering::Relaxed);
                }
            });
        }
    });
    all_done.into_inner() && recorder.task(ranges.len() as u32, || bubble_sort(values, || !cancel.is_stopped()))
}
// lesson-code-end

/// Odd-even transposition: every phase is split among the tasks; the scope's end is the barrier.
fn odd_even(values: &mut [i32], tasks: usize, cancel: &Cancel, recorder: &Recorder) -> bool {
    let mut quiet_phases = 0;
    for phase in 0..values.len() {
        if cancel.is_stopped() {
            return false;
        }
        let swapped = AtomicBool::new(false);
        rayon::scope(|scope| {
            for (index, part) in split_phase(values, phase, tasks).into_iter().enumerate() {
                let swapped = &swapped;
                scope.spawn(move |_| {
                    if recorder.task(index as u32, || odd_even_phase_local(part)) {
                        swapped.store(true, Ordering::Relaxed);
                    }
                });
            }
        });
        // Two phases in a row without a swap: every pair, of both parities, is in order.
        quiet_phases = if swapped.into_inner() { 0 } else { quiet_phases + 1 };
        if quiet_phases == 2 {
            break;
        }
    }
    true
}

/// Merge sort as fork-join levels: `tasks` runs sorted in parallel, then pairs of runs merged in
/// parallel, level by level, until one run is left (the last merge is serial: Amdahl's part).
fn merge_levels(values: &mut [i32], tasks: usize, cancel: &Cancel, recorder: &Recorder) -> bool {
    let mut runs = even_ranges(values.len(), tasks);
    let mut next_task = runs.len() as u32;
    rayon::scope(|scope| {
        for (index, run) in split_along(values, &runs).into_iter().enumerate() {
            scope.spawn(move |_| recorder.task(index as u32, || run.sort_unstable()));
        }
    });
    let mut scratch = vec![0; values.len()];
    // Merge from `source` into `target`, then swap their roles; `in_values` says where the data is.
    let mut in_values = true;
    while runs.len() > 1 {
        if cancel.is_stopped() {
            return false;
        }
        let (source, target): (&[i32], &mut [i32]) =
            if in_values { (&*values, &mut scratch) } else { (&scratch, &mut *values) };
        let merged: Vec<Range<usize>> =
            runs.chunks(2).map(|pair| pair[0].start..pair.last().map_or(pair[0].end, |r| r.end)).collect();
        let outputs = split_along(target, &merged);
        rayon::scope(|scope| {
            for (pair, output) in runs.chunks(2).zip(outputs) {
                let task = next_task;
                next_task += 1;
                scope.spawn(move |_| {
                    recorder.task(task, || match pair {
                        [left, right] => merge(&source[left.clone()], &source[right.clone()], output),
                        [only] => output.copy_from_slice(&source[only.clone()]),
                        _ => unreachable!("chunks(2) gives one or two runs"),
                    })
                });
            }
        });
        runs = merged;
        in_values = !in_values;
    }
    if !in_values {
        values.copy_from_slice(&scratch);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recorder::MAX_SPANS;
    use workloads::sort::{is_sorted, random_values};

    fn pool(workers: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(workers).build().unwrap()
    }

    #[test]
    fn every_parallel_sort_sorts_and_keeps_the_values() {
        let pool = pool(3);
        for algorithm in
            [SortAlgorithm::Bubble, SortAlgorithm::ChunkedBubble, SortAlgorithm::OddEven, SortAlgorithm::Merge]
        {
            for (len, tasks) in [(0, 3), (1, 3), (2, 5), (257, 3), (1000, 7), (1000, 64), (33, 100)] {
                let original = random_values(len, len as u64 + 1);
                let mut expected = original.clone();
                expected.sort();
                let mut values = original.clone();
                let (done, trace) = pool.install(|| sort_parallel(algorithm, &mut values, tasks, &Cancel::new()));
                assert!(done, "{algorithm:?} {len} {tasks}");
                assert!(is_sorted(&values), "{algorithm:?} {len} {tasks}");
                assert_eq!(values, expected, "{algorithm:?} {len} {tasks}");
                assert!(trace.spans.iter().all(|s| s.worker < 3));
            }
        }
    }

    #[test]
    fn the_chunked_sort_ends_with_one_serial_pass_over_everything() {
        let mut values = random_values(2000, 4);
        let (_, trace) =
            pool(2).install(|| sort_parallel(SortAlgorithm::ChunkedBubble, &mut values, 4, &Cancel::new()));
        assert_eq!(trace.spans.len(), 5, "4 chunks and the final pass");
        let last = trace.spans.last().unwrap();
        assert_eq!(last.task, 4);
        assert!(
            trace.spans[..4].iter().all(|chunk| chunk.end_ms <= last.start_ms + 1e-9),
            "the final pass starts after every chunk"
        );
    }

    #[test]
    fn odd_even_traces_are_capped_and_say_where() {
        let mut values = random_values(3000, 5);
        let (done, trace) = pool(2).install(|| sort_parallel(SortAlgorithm::OddEven, &mut values, 4, &Cancel::new()));
        assert!(done && is_sorted(&values));
        assert_eq!(trace.spans.len(), MAX_SPANS);
        assert!(trace.shown_until_ms.is_some_and(|t| t <= trace.wall_ms));
    }

    #[test]
    fn a_stopped_sort_reports_it() {
        let cancel = Cancel::new();
        cancel.stop();
        for algorithm in [SortAlgorithm::Bubble, SortAlgorithm::ChunkedBubble, SortAlgorithm::OddEven] {
            let mut values = random_values(500, 6);
            let (done, _) = pool(2).install(|| sort_parallel(algorithm, &mut values, 4, &cancel));
            assert!(!done, "{algorithm:?}");
        }
    }
}
