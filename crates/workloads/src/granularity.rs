//! The task of the "what a task costs" chapter: square roots of small numbers near 13, as in the
//! article that timed goroutines doing sqrt(13) one to 5,000 times.

/// Compute `n` square roots for task `task` and return a value that depends on every one of them.
/// The result depends on `task` only through `task % 7`, so the total over many tasks is cheap to
/// predict exactly (see [`expected_total`]).
// lesson-code: granularity/work
pub fn sqrt_task(n: u32, task: u32) -> u64 {
    let mut total = 0.0f64;
    for j in 0..n {
        total += (13.0 + ((task + j) % 7) as f64).sqrt();
    }
    // Integer millis of the sum: adding these in any order gives the same total.
    (total * 1000.0) as u64
}
// lesson-code-end

/// The sum of [`sqrt_task`] over tasks `0..tasks`, computed from 7 calls instead of `tasks`.
pub fn expected_total(n: u32, tasks: u32) -> u64 {
    (0..7u32.min(tasks))
        .map(|r| {
            let count = (tasks - r).div_ceil(7) as u64;
            count.wrapping_mul(sqrt_task(n, r))
        })
        .fold(0u64, u64::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prediction_equals_the_sum_over_every_task() {
        for (n, tasks) in [(1, 1), (1, 6), (10, 7), (100, 50), (3, 1001)] {
            let direct = (0..tasks).map(|t| sqrt_task(n, t)).fold(0u64, u64::wrapping_add);
            assert_eq!(expected_total(n, tasks), direct, "n {n} tasks {tasks}");
        }
    }

    #[test]
    fn more_roots_more_value() {
        assert!(sqrt_task(10, 0) > sqrt_task(1, 0));
        assert_eq!(sqrt_task(1, 0), (13f64.sqrt() * 1000.0) as u64);
    }
}
