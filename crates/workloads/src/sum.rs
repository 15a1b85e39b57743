//! Summing integers, the articles' first experiment: one loop, or the same loop over slices.

/// How many numbers the cancellable sum adds between two looks at its stop flag.
pub const SUM_BLOCK: usize = 1 << 20;

/// The sequential kernel: add every number, widening to i64 so large inputs never overflow.
///
/// Never inlined, so that a long sum is many calls (one per block of [`sum_cancellable`]): a
/// WebAssembly engine swaps in its optimised code only between calls.
// lesson-code: sum/sequential
#[inline(never)]
pub fn sum(numbers: &[i32]) -> i64 {
    numbers.iter().map(|&x| x as i64).sum()
}

/// [`sum`], but asks `keep_going` every [`SUM_BLOCK`] numbers and returns `None` when told to stop.
pub fn sum_cancellable(numbers: &[i32], mut keep_going: impl FnMut() -> bool) -> Option<i64> {
    let mut total = 0i64;
    for block in numbers.chunks(SUM_BLOCK) {
        if !keep_going() {
            return None;
        }
        total += sum(block);
    }
    Some(total)
}
// lesson-code-end

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::random_numbers;
    use crate::split::even_ranges;

    #[test]
    fn sums_small_cases() {
        assert_eq!(sum(&[]), 0);
        assert_eq!(sum(&[5]), 5);
        assert_eq!(sum(&[1, 2, 3, -4]), 2);
    }

    #[test]
    fn widens_instead_of_overflowing() {
        let big = vec![i32::MAX; 4];
        assert_eq!(sum(&big), 4 * i32::MAX as i64);
    }

    #[test]
    fn split_sum_equals_whole_sum() {
        let numbers = random_numbers(100_003, 3);
        let whole = sum(&numbers);
        // Reference computed another way: a plain fold over u64.
        let reference = numbers.iter().fold(0u64, |acc, &x| acc + x as u64) as i64;
        assert_eq!(whole, reference);
        for parts in [1, 2, 3, 8, 64] {
            let split: i64 = even_ranges(numbers.len(), parts).into_iter().map(|r| sum(&numbers[r])).sum();
            assert_eq!(split, whole, "parts {parts}");
        }
    }

    #[test]
    fn cancellable_sum_matches_and_stops() {
        let numbers = random_numbers(3 * SUM_BLOCK + 17, 9);
        assert_eq!(sum_cancellable(&numbers, || true), Some(sum(&numbers)));
        let mut asked = 0;
        let stopped = sum_cancellable(&numbers, || {
            asked += 1;
            asked < 2
        });
        assert_eq!(stopped, None);
        assert_eq!(asked, 2);
    }
}
