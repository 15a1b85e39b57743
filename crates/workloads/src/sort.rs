//! Sorting, the articles' second experiment: bubble sort, its "concurrent" chunked variant, odd-even
//! transposition sort (the form of bubble sort that really runs in parallel) and a fork-join merge sort.
//!
//! Nothing here starts a thread. The parallel variants are cut into pure steps an executor can run side by
//! side: the chunks of [`chunk_ranges`], the parts of one odd-even phase from [`split_phase`], and the two
//! halves merge sort hands to a [`Join`]. The engine decides where those steps run.

use std::ops::Range;

use crate::data::random_number_stream;
use crate::split::even_ranges;

/// Merge sort slices of at most this many values are sorted with the standard sort instead of split again.
///
/// Large enough that a leaf is worth a task of its own, small enough that 100 000 values give dozens of leaves.
pub const DEFAULT_MERGE_CUTOFF: usize = 4096;

/// Whether every value is less than or equal to the next one.
pub fn is_sorted(values: &[i32]) -> bool {
    values.is_sorted()
}

/// `len` integers drawn from `0..1_000_000`, seeded like [`crate::data::random_numbers`].
///
/// Each value combines two draws of [`random_number_stream`] (`high * 1000 + low`), so lists of
/// thousands of values are varied but still contain some duplicates.
pub fn random_values(len: usize, seed: u64) -> Vec<i32> {
    let mut draws = random_number_stream(seed);
    let mut next_draw = move || draws.next().expect("the number stream is endless");
    (0..len).map(|_| next_draw() * 1000 + next_draw()).collect()
}

// ---------------------------------------------------------------------------------------------------------
// Bubble sort
// ---------------------------------------------------------------------------------------------------------

/// Classic bubble sort: passes that swap neighbours out of order, until a pass swaps nothing.
///
/// Each pass stops where the previous pass made its last swap (everything after it is already in place).
/// `keep_going` is asked once before every pass; when it answers `false` the sort stops and returns
/// `false`, leaving `values` a partially sorted permutation of the input. Returns `true` once sorted.
/// Slices of fewer than two values are sorted without asking.
// lesson-code: sort/bubble
pub fn bubble_sort(values: &mut [i32], mut keep_going: impl FnMut() -> bool) -> bool {
    let mut unsorted_len = values.len();
    while unsorted_len > 1 {
        if !keep_going() {
            return false;
        }
        unsorted_len = bubble_pass(&mut values[..unsorted_len]);
    }
    true
}

/// One bubble pass: walk the list left to right carrying the largest value seen so far. Wherever the
/// next value is smaller, the pair is out of order and swaps: the smaller value drops back into the
/// carried one's place, and the carried value moves on. Returns the index of the last swap (its
/// right-hand position), or 0 when nothing was swapped: every value from that index on is in its
/// final place.
///
/// The same swaps as `values.swap(i - 1, i)` on every pair out of order, but each step reads one
/// value and writes one. Chromium 156 ran that swap form 3.4× slower than native code (about 170 ms
/// against 45 ms for 10,000 numbers on a 2-core VM); this form runs within 15 % of native there.
/// Never inlined: inlined into the engine's chunked sort, the same loop ran 2.1× native (the bench).
#[inline(never)]
fn bubble_pass(values: &mut [i32]) -> usize {
    let Some(&first) = values.first() else { return 0 };
    let mut carried = first;
    let mut last_swap = 0;
    for i in 1..values.len() {
        let next = values[i];
        if carried > next {
            values[i - 1] = next; // a swap: the carried value moves on
            last_swap = i;
        } else {
            values[i - 1] = carried;
            carried = next;
        }
    }
    let end = values.len() - 1;
    values[end] = carried;
    last_swap
}
// lesson-code-end

// ---------------------------------------------------------------------------------------------------------
// "Concurrent" bubble sort: sort chunks, then the whole list
// ---------------------------------------------------------------------------------------------------------

/// The chunks of the articles' concurrent bubble sort: at most `chunks` contiguous ranges covering
/// `0..len`, sizes differing by at most one (see [`even_ranges`]).
///
/// The algorithm has two steps:
/// 1. sort every chunk with [`bubble_sort`]: the chunks are disjoint, so this step can run in parallel
///    (split the slice with `split_at_mut` along these ranges);
/// 2. sort the whole slice with [`bubble_sort`] once all chunks are done: a single serial pass that still
///    has to move values across chunk borders, and that dominates the running time.
///
/// [`chunked_bubble_sort_sequential`] runs both steps on one thread.
pub fn chunk_ranges(len: usize, chunks: usize) -> Vec<Range<usize>> {
    even_ranges(len, chunks)
}

/// The concurrent bubble sort of [`chunk_ranges`], both steps on the calling thread: each chunk, then all.
///
/// `keep_going` is asked before every bubble pass of every chunk and of the final sort. Returns `false`
/// if told to stop (the values are then a partially sorted permutation), `true` once sorted.
pub fn chunked_bubble_sort_sequential(values: &mut [i32], chunks: usize, mut keep_going: impl FnMut() -> bool) -> bool {
    for range in chunk_ranges(values.len(), chunks) {
        if !bubble_sort(&mut values[range], &mut keep_going) {
            return false;
        }
    }
    bubble_sort(values, keep_going)
}

// ---------------------------------------------------------------------------------------------------------
// Odd-even transposition sort
// ---------------------------------------------------------------------------------------------------------

/// Index of the first value paired in `phase`: 0 in even phases, 1 in odd phases.
fn first_paired_index(phase: usize) -> usize {
    phase % 2
}

/// How many pairs odd-even `phase` compares in a list of `len` values.
///
/// Pair `i` of an even phase is `(2i, 2i + 1)`; of an odd phase `(2i + 1, 2i + 2)`.
pub fn pairs_in_phase(len: usize, phase: usize) -> usize {
    len.saturating_sub(first_paired_index(phase)) / 2
}

/// Compare-exchange the pairs `(0, 1)`, `(2, 3)`, … of `part`; a last value without a partner is left alone.
///
/// Returns whether any pair was swapped. Applied to every part of [`split_phase`], this is one phase.
pub fn odd_even_phase_local(part: &mut [i32]) -> bool {
    let mut swapped = false;
    for pair in part.chunks_exact_mut(2) {
        let (left, right) = (pair[0], pair[1]);
        pair[0] = left.min(right);
        pair[1] = left.max(right);
        swapped |= left > right;
    }
    swapped
}

/// Run the pairs `pairs` (numbered as in [`pairs_in_phase`]) of odd-even `phase` over `values`.
///
/// Lets tasks that share one slice each take a range of pair numbers, e.g. from
/// `even_ranges(pairs_in_phase(len, phase), tasks)`. Returns whether any pair was swapped.
///
/// # Panics
/// If `pairs.end` is greater than `pairs_in_phase(values.len(), phase)`.
pub fn odd_even_phase_in(values: &mut [i32], phase: usize, pairs: Range<usize>) -> bool {
    assert!(
        pairs.end <= pairs_in_phase(values.len(), phase),
        "phase {phase} of {} values has no pair {}",
        values.len(),
        pairs.end.saturating_sub(1)
    );
    if pairs.is_empty() {
        return false; // An odd phase of an empty slice has no index 1 to start from.
    }
    let first = first_paired_index(phase);
    odd_even_phase_local(&mut values[first + 2 * pairs.start..first + 2 * pairs.end])
}

/// One full odd-even phase: compare-exchange every pair of `phase`. Returns whether anything was swapped.
pub fn odd_even_phase(values: &mut [i32], phase: usize) -> bool {
    let pairs = pairs_in_phase(values.len(), phase);
    odd_even_phase_in(values, phase, 0..pairs)
}

/// The element ranges of [`split_phase`]: at most `parts` contiguous ranges, each of an even length and
/// starting on the first value of a pair of `phase`, together covering exactly the paired values.
///
/// Parts hold whole pairs, as evenly as [`even_ranges`] spreads them. The value before the first pair (in
/// odd phases) and a last value without a partner belong to no range. For engines that hand indices rather
/// than sub-slices to their tasks.
pub fn split_phase_ranges(len: usize, phase: usize, parts: usize) -> Vec<Range<usize>> {
    let first = first_paired_index(phase);
    even_ranges(pairs_in_phase(len, phase), parts)
        .into_iter()
        .map(|pairs| first + 2 * pairs.start..first + 2 * pairs.end)
        .collect()
}

/// Split `values` into at most `parts` disjoint sub-slices for one odd-even `phase`.
///
/// Each part owns whole pairs of the phase, so running [`odd_even_phase_local`] on every part (in any order,
/// or at the same time) does exactly what [`odd_even_phase`] does on the whole slice. Values that pair with
/// nothing in this phase are in no part. See [`split_phase_ranges`] for the positions.
pub fn split_phase(values: &mut [i32], phase: usize, parts: usize) -> Vec<&mut [i32]> {
    let ranges = split_phase_ranges(values.len(), phase, parts);
    if ranges.is_empty() {
        return Vec::new(); // No pairs, and maybe not even the value an odd phase skips.
    }
    let mut rest = &mut values[first_paired_index(phase)..];
    let mut split = Vec::with_capacity(ranges.len());
    for range in ranges {
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(range.len());
        split.push(part);
        rest = tail;
    }
    split
}

/// Odd-even transposition sort on one thread: phases 0, 1, 2, … until `len` phases have run, which always
/// sorts the list, or until two consecutive phases swapped nothing, which means it is already sorted (one
/// phase checked the even pairs, the other the odd pairs, so every neighbour is in order).
///
/// A parallel engine follows the same rule: split each phase with [`split_phase`], OR the parts' results,
/// and wait for every part of a phase (a barrier) before the next phase starts.
/// `keep_going` is asked once before every phase; returns `false` if told to stop, `true` once sorted.
pub fn odd_even_sort_sequential(values: &mut [i32], mut keep_going: impl FnMut() -> bool) -> bool {
    let mut previous_swapped = true;
    for phase in 0..values.len() {
        if !keep_going() {
            return false;
        }
        let swapped = odd_even_phase(values, phase);
        if !swapped && !previous_swapped {
            break;
        }
        previous_swapped = swapped;
    }
    true
}

// ---------------------------------------------------------------------------------------------------------
// Fork-join merge sort
// ---------------------------------------------------------------------------------------------------------

/// Runs two closures, possibly at the same time, and returns once both have finished.
///
/// The engine implements this with `rayon::join` (natively or on wasm worker threads):
/// ```text
/// struct RayonJoin;
/// impl workloads::sort::Join for RayonJoin {
///     fn join<A: FnOnce() + Send, B: FnOnce() + Send>(&self, a: A, b: B) {
///         rayon::join(a, b);
///     }
/// }
/// ```
pub trait Join: Sync {
    /// Run `a` and `b` to completion, in any order or in parallel.
    fn join<A, B>(&self, a: A, b: B)
    where
        A: FnOnce() + Send,
        B: FnOnce() + Send;
}

/// A [`Join`] that runs `a`, then `b`, on the calling thread.
pub struct Sequential;

impl Join for Sequential {
    fn join<A, B>(&self, a: A, b: B)
    where
        A: FnOnce() + Send,
        B: FnOnce() + Send,
    {
        a();
        b();
    }
}

/// Merge sort that forks: sort both halves through `join` (they are disjoint slices, so `join` may run
/// them in parallel), then merge them through `scratch`.
///
/// Slices of at most `sequential_cutoff` values (at least 1) are sorted with the standard sort instead.
/// Every call to `join` is one fork of two tasks; a slice that is not split is one leaf task.
///
/// # Panics
/// If `scratch` is not exactly as long as `values`.
pub fn merge_sort_with<J: Join>(values: &mut [i32], scratch: &mut [i32], sequential_cutoff: usize, join: &J) {
    assert_eq!(scratch.len(), values.len(), "merge sort needs a scratch buffer as long as the values");
    if values.len() <= sequential_cutoff.max(1) {
        values.sort();
        return;
    }
    let middle = values.len() / 2;
    {
        let (left, right) = values.split_at_mut(middle);
        let (left_scratch, right_scratch) = scratch.split_at_mut(middle);
        join.join(
            || merge_sort_with(left, left_scratch, sequential_cutoff, join),
            || merge_sort_with(right, right_scratch, sequential_cutoff, join),
        );
    }
    if values[middle - 1] <= values[middle] {
        return; // The halves are already in order, as in sorted input.
    }
    let (left, right) = values.split_at(middle);
    merge(left, right, scratch);
    values.copy_from_slice(scratch);
}

/// Merge two sorted slices into `merged`, which is exactly as long as both; equal values keep left first.
/// Merge two sorted runs into `merged` (whose length must be the sum of theirs), stably.
pub fn merge(left: &[i32], right: &[i32], merged: &mut [i32]) {
    let (mut from_left, mut from_right, mut out) = (0, 0, 0);
    while from_left < left.len() && from_right < right.len() {
        if right[from_right] < left[from_left] {
            merged[out] = right[from_right];
            from_right += 1;
        } else {
            merged[out] = left[from_left];
            from_left += 1;
        }
        out += 1;
    }
    let rest = if from_left < left.len() { &left[from_left..] } else { &right[from_right..] };
    merged[out..].copy_from_slice(rest);
}

/// [`merge_sort_with`] on the calling thread, with its own scratch buffer and [`DEFAULT_MERGE_CUTOFF`].
pub fn merge_sort_sequential(values: &mut [i32]) {
    let mut scratch = vec![0; values.len()];
    merge_sort_with(values, &mut scratch, DEFAULT_MERGE_CUTOFF, &Sequential);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Named inputs of many shapes and sizes: random, few distinct values, sorted, reversed, extremes.
    fn test_inputs() -> Vec<(String, Vec<i32>)> {
        let mut inputs = vec![
            ("empty".to_string(), vec![]),
            ("one".to_string(), vec![42]),
            ("two in order".to_string(), vec![1, 2]),
            ("two reversed".to_string(), vec![2, 1]),
            ("two equal".to_string(), vec![7, 7]),
            ("extremes".to_string(), vec![i32::MAX, 0, i32::MIN, -1, i32::MAX, i32::MIN, 1]),
        ];
        for (seed, len) in [3usize, 10, 33, 100, 257, 1001].into_iter().enumerate() {
            let random = random_values(len, seed as u64);
            let mut sorted = random.clone();
            sorted.sort();
            let reversed: Vec<i32> = sorted.iter().rev().copied().collect();
            let duplicates: Vec<i32> = random.iter().map(|v| v % 4).collect();
            let organ_pipe: Vec<i32> = (0..len as i32).map(|i| i.min(len as i32 - i)).collect();
            inputs.push((format!("random {len}"), random));
            inputs.push((format!("sorted {len}"), sorted));
            inputs.push((format!("reversed {len}"), reversed));
            inputs.push((format!("duplicates {len}"), duplicates));
            inputs.push((format!("all equal {len}"), vec![5; len]));
            inputs.push((format!("organ pipe {len}"), organ_pipe));
        }
        inputs
    }

    fn sorted_copy(values: &[i32]) -> Vec<i32> {
        let mut copy = values.to_vec();
        copy.sort();
        copy
    }

    /// Check that `sorter` sorts every test input exactly as the standard sort does.
    fn check_sorts_like_std(algorithm: &str, mut sorter: impl FnMut(&mut Vec<i32>)) {
        for (name, input) in test_inputs() {
            let mut values = input.clone();
            sorter(&mut values);
            assert_eq!(values, sorted_copy(&input), "{algorithm} on {name}");
        }
    }

    /// A `keep_going` that says yes `allowed` times, then no.
    fn stop_after(allowed: usize) -> impl FnMut() -> bool {
        let mut asked = 0;
        move || {
            asked += 1;
            asked <= allowed
        }
    }

    #[test]
    fn is_sorted_accepts_order_and_rejects_disorder() {
        assert!(is_sorted(&[]));
        assert!(is_sorted(&[1]));
        assert!(is_sorted(&[1, 1, 2, 3]));
        assert!(!is_sorted(&[2, 1]));
        assert!(!is_sorted(&[1, 2, 3, 0]));
    }

    #[test]
    fn random_values_are_seeded_spread_and_repeat() {
        assert_eq!(random_values(1000, 7), random_values(1000, 7));
        assert_ne!(random_values(1000, 7), random_values(1000, 8));
        let values = random_values(10_000, 1);
        assert!(values.iter().all(|v| (0..1_000_000).contains(v)));
        assert!(values.iter().any(|&v| v >= 500_000), "values should reach the upper half");
        assert!(values.iter().any(|&v| v % 1000 >= 500), "low digits should vary too");
        let distinct = sorted_copy(&values).windows(2).filter(|w| w[0] != w[1]).count() + 1;
        assert!(distinct < values.len(), "10 000 draws from a million values should repeat some");
        assert!(distinct > 9_800, "only {distinct} distinct values");
    }

    #[test]
    fn bubble_sort_sorts_like_std() {
        check_sorts_like_std("bubble_sort", |values| assert!(bubble_sort(values, || true)));
    }

    #[test]
    fn bubble_sort_stops_after_first_pass_without_swaps() {
        let mut sorted: Vec<i32> = (0..100).collect();
        let mut passes = 0;
        assert!(bubble_sort(&mut sorted, || {
            passes += 1;
            true
        }));
        assert_eq!(passes, 1, "sorted input needs a single checking pass");

        // One value out of place at the far end moves left one step per pass.
        let mut nearly: Vec<i32> = (1..100).chain([0]).collect();
        let mut passes = 0;
        assert!(bubble_sort(&mut nearly, || {
            passes += 1;
            true
        }));
        assert!(is_sorted(&nearly));
        assert_eq!(passes, 99);
    }

    #[test]
    fn bubble_sort_stops_when_told_and_keeps_the_values() {
        let input = random_values(500, 11);
        for allowed in [0, 1, 5, 100] {
            let mut values = input.clone();
            assert!(!bubble_sort(&mut values, stop_after(allowed)), "allowed {allowed}");
            assert!(!is_sorted(&values), "{allowed} passes cannot sort 500 random values");
            assert_eq!(sorted_copy(&values), sorted_copy(&input), "values lost after {allowed} passes");
        }
        let mut values = input.clone();
        assert!(bubble_sort(&mut values, stop_after(500)), "500 passes are enough for 500 values");
        assert!(is_sorted(&values));
    }

    #[test]
    fn chunk_ranges_cover_the_list() {
        assert_eq!(chunk_ranges(10, 3), vec![0..4, 4..7, 7..10]);
        assert_eq!(chunk_ranges(0, 4), Vec::<Range<usize>>::new());
        assert_eq!(chunk_ranges(3, 8), vec![0..1, 1..2, 2..3]);
        assert_eq!(chunk_ranges(1001, 7).len(), 7);
    }

    #[test]
    fn chunked_bubble_sort_sorts_like_std_for_every_chunk_count() {
        for chunks in [0, 1, 2, 3, 7, 64, 2000] {
            check_sorts_like_std(&format!("chunked bubble sort, {chunks} chunks"), |values| {
                assert!(chunked_bubble_sort_sequential(values, chunks, || true))
            });
        }
    }

    #[test]
    fn chunked_steps_done_separately_sort_1001_values() {
        let input = random_values(1001, 5);
        for chunks in [3, 7, 64, 1001, 5000] {
            let mut values = input.clone();
            // Step 1, as an engine would: each chunk on its own (disjoint) slice.
            let mut rest = values.as_mut_slice();
            for range in chunk_ranges(input.len(), chunks) {
                let (chunk, tail) = rest.split_at_mut(range.len());
                assert!(bubble_sort(chunk, || true));
                assert!(is_sorted(chunk));
                rest = tail;
            }
            assert!(rest.is_empty(), "chunks must cover every value");
            // Step 2: the serial sort of everything.
            assert!(bubble_sort(&mut values, || true));
            assert_eq!(values, sorted_copy(&input), "{chunks} chunks");
        }
    }

    #[test]
    fn chunked_bubble_sort_stops_in_either_step() {
        let input = random_values(400, 12);
        // 4 chunks of 100 random values need more than one pass each; the final sort needs many more.
        for allowed in [0, 1, 3, 150] {
            let mut values = input.clone();
            assert!(!chunked_bubble_sort_sequential(&mut values, 4, stop_after(allowed)), "allowed {allowed}");
            assert!(!is_sorted(&values));
            assert_eq!(sorted_copy(&values), sorted_copy(&input));
        }
    }

    #[test]
    fn pairs_in_phase_counts_pairs() {
        let expected_even = [0, 0, 1, 1, 2, 2, 3];
        let expected_odd = [0, 0, 0, 1, 1, 2, 2];
        for len in 0..expected_even.len() {
            assert_eq!(pairs_in_phase(len, 0), expected_even[len], "len {len}, even");
            assert_eq!(pairs_in_phase(len, 4), expected_even[len], "len {len}, even");
            assert_eq!(pairs_in_phase(len, 1), expected_odd[len], "len {len}, odd");
            assert_eq!(pairs_in_phase(len, 7), expected_odd[len], "len {len}, odd");
        }
    }

    #[test]
    fn odd_even_phase_compares_the_right_pairs() {
        let mut values = vec![4, 3, 2, 1, 0];
        assert!(odd_even_phase(&mut values, 0));
        assert_eq!(values, [3, 4, 1, 2, 0]);
        assert!(odd_even_phase(&mut values, 1));
        assert_eq!(values, [3, 1, 4, 0, 2]);
        let mut sorted = vec![1, 2, 3];
        assert!(!odd_even_phase(&mut sorted, 0));
        assert!(!odd_even_phase(&mut sorted, 1));
    }

    #[test]
    fn odd_even_phase_in_on_pair_ranges_equals_whole_phase() {
        for len in 0..40 {
            let input = random_values(len, len as u64).iter().map(|v| v % 10).collect::<Vec<_>>();
            for phase in 0..4 {
                let mut whole = input.clone();
                let whole_swapped = odd_even_phase(&mut whole, phase);
                for tasks in 1..6 {
                    let mut pieces = input.clone();
                    let mut swapped = false;
                    // Later pair ranges first: the order of tasks within a phase must not matter.
                    for pairs in even_ranges(pairs_in_phase(len, phase), tasks).into_iter().rev() {
                        swapped |= odd_even_phase_in(&mut pieces, phase, pairs);
                    }
                    assert_eq!(pieces, whole, "len {len} phase {phase} tasks {tasks}");
                    assert_eq!(swapped, whole_swapped, "len {len} phase {phase} tasks {tasks}");
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "has no pair")]
    fn odd_even_phase_in_rejects_pairs_past_the_end() {
        odd_even_phase_in(&mut [3, 2, 1], 1, 0..2);
    }

    #[test]
    fn split_phase_parts_hold_whole_pairs_of_the_phase() {
        for len in 0..50 {
            for phase in 0..2 {
                for parts in 1..9 {
                    let ranges = split_phase_ranges(len, phase, parts);
                    let paired: usize = ranges.iter().map(|r| r.len()).sum();
                    assert_eq!(paired, 2 * pairs_in_phase(len, phase), "len {len} phase {phase} parts {parts}");
                    assert!(ranges.len() <= parts);
                    let mut next = phase % 2;
                    for range in &ranges {
                        assert_eq!(range.start, next, "parts must be contiguous from the first pair");
                        assert!(!range.is_empty() && range.len() % 2 == 0, "part {range:?} splits a pair");
                        next = range.end;
                    }
                    let mut values: Vec<i32> = (0..len as i32).collect();
                    let split = split_phase(&mut values, phase, parts);
                    let lengths: Vec<usize> = split.iter().map(|part| part.len()).collect();
                    let expected: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
                    assert_eq!(lengths, expected);
                    let firsts: Vec<i32> = split.iter().map(|part| part[0]).collect();
                    let expected_firsts: Vec<i32> = ranges.iter().map(|r| r.start as i32).collect();
                    assert_eq!(firsts, expected_firsts, "parts must start where their ranges do");
                }
            }
        }
    }

    #[test]
    fn split_phase_then_local_phases_equal_one_whole_phase() {
        for len in 0..50 {
            for seed in 0..4u64 {
                let random = random_values(len, seed * 100 + len as u64);
                // Half of the inputs with many duplicates, so equal neighbours are exercised too.
                let input: Vec<i32> = if seed % 2 == 0 { random } else { random.iter().map(|v| v % 3).collect() };
                for phase in 0..4 {
                    let mut whole = input.clone();
                    let whole_swapped = odd_even_phase(&mut whole, phase);
                    for parts in 1..9 {
                        let mut values = input.clone();
                        let mut split = split_phase(&mut values, phase, parts);
                        split.reverse(); // Any order of parts must give the same phase.
                        let swapped = split.into_iter().fold(false, |any, part| odd_even_phase_local(part) | any);
                        assert_eq!(values, whole, "len {len} seed {seed} phase {phase} parts {parts}");
                        assert_eq!(swapped, whole_swapped, "len {len} seed {seed} phase {phase} parts {parts}");
                    }
                }
            }
        }
    }

    #[test]
    fn odd_even_sort_sorts_like_std() {
        check_sorts_like_std("odd_even_sort_sequential", |values| assert!(odd_even_sort_sequential(values, || true)));
    }

    #[test]
    fn odd_even_sort_from_split_phases_sorts_like_std() {
        for parts in [1, 2, 3, 8] {
            check_sorts_like_std(&format!("odd-even sort in {parts} parts"), |values| {
                for phase in 0..values.len() {
                    for part in split_phase(values, phase, parts) {
                        odd_even_phase_local(part);
                    }
                }
            });
        }
    }

    #[test]
    fn odd_even_sort_needs_len_phases_for_reversed_input_and_two_for_sorted() {
        let mut reversed: Vec<i32> = (0..64).rev().collect();
        let mut phases = 0;
        assert!(odd_even_sort_sequential(&mut reversed, || {
            phases += 1;
            true
        }));
        assert!(is_sorted(&reversed));
        assert_eq!(phases, 64, "reversed input is the worst case: every phase is needed");

        // With one phase fewer, reversed input is not yet sorted: the `len` phases are not too many.
        let mut short: Vec<i32> = (0..64).rev().collect();
        for phase in 0..63 {
            odd_even_phase(&mut short, phase);
        }
        assert!(!is_sorted(&short));

        let mut sorted: Vec<i32> = (0..64).collect();
        let mut phases = 0;
        assert!(odd_even_sort_sequential(&mut sorted, || {
            phases += 1;
            true
        }));
        assert_eq!(phases, 2, "sorted input stops after an even and an odd phase without swaps");
    }

    #[test]
    fn odd_even_sort_stops_when_told_and_keeps_the_values() {
        let input = random_values(300, 13);
        for allowed in [0, 1, 10, 100] {
            let mut values = input.clone();
            assert!(!odd_even_sort_sequential(&mut values, stop_after(allowed)), "allowed {allowed}");
            assert!(!is_sorted(&values));
            assert_eq!(sorted_copy(&values), sorted_copy(&input));
        }
    }

    /// A [`Join`] that runs `b` before `a`, to show the halves do not depend on each other.
    struct RightFirst;

    impl Join for RightFirst {
        fn join<A, B>(&self, a: A, b: B)
        where
            A: FnOnce() + Send,
            B: FnOnce() + Send,
        {
            b();
            a();
        }
    }

    /// A [`Join`] that counts its forks (runs sequentially).
    struct CountingJoin(AtomicUsize);

    impl Join for CountingJoin {
        fn join<A, B>(&self, a: A, b: B)
        where
            A: FnOnce() + Send,
            B: FnOnce() + Send,
        {
            self.0.fetch_add(1, Ordering::Relaxed);
            a();
            b();
        }
    }

    #[test]
    fn merge_sort_sorts_like_std_with_any_join_order_and_cutoff() {
        for cutoff in [0, 1, 2, 7, 64, DEFAULT_MERGE_CUTOFF] {
            check_sorts_like_std(&format!("merge sort, sequential join, cutoff {cutoff}"), |values| {
                let mut scratch = vec![0; values.len()];
                merge_sort_with(values, &mut scratch, cutoff, &Sequential);
            });
            check_sorts_like_std(&format!("merge sort, right-first join, cutoff {cutoff}"), |values| {
                let mut scratch = vec![-1; values.len()];
                merge_sort_with(values, &mut scratch, cutoff, &RightFirst);
            });
        }
        check_sorts_like_std("merge_sort_sequential", |values| merge_sort_sequential(values));
    }

    #[test]
    fn merge_sort_sorts_large_input() {
        let input = random_values(100_000, 21);
        let mut values = input.clone();
        merge_sort_sequential(&mut values);
        assert_eq!(values, sorted_copy(&input));
    }

    #[test]
    fn merge_sort_forks_until_the_cutoff() {
        // 1000 → 500 → 250 → 125 → 62/63: 16 leaves of at most 100 values, so 15 forks.
        let join = CountingJoin(AtomicUsize::new(0));
        let mut values = random_values(1000, 3);
        let mut scratch = vec![0; 1000];
        merge_sort_with(&mut values, &mut scratch, 100, &join);
        assert!(is_sorted(&values));
        assert_eq!(join.0.load(Ordering::Relaxed), 15);

        let join = CountingJoin(AtomicUsize::new(0));
        merge_sort_with(&mut values, &mut scratch, 1000, &join);
        assert_eq!(join.0.load(Ordering::Relaxed), 0, "a slice within the cutoff is one leaf");
    }

    #[test]
    #[should_panic(expected = "scratch buffer")]
    fn merge_sort_rejects_a_short_scratch_buffer() {
        merge_sort_with(&mut [3, 2, 1], &mut [0; 2], 1, &Sequential);
    }
}
