//! A fixed amount of pure CPU work ("spin units") whose result depends on every step.
//!
//! Used where a chapter needs tasks of a known size, e.g. the timeline demo of four tasks on one worker
//! versus four workers. The work is counted in units, not in milliseconds, so a busier machine takes
//! longer instead of doing less.

/// Iterations of the inner loop per unit of work.
pub const ITERATIONS_PER_UNIT: u32 = 1000;

/// Do `units` units of work seeded by `seed` and return a value that depends on all of it,
/// so the optimiser cannot remove the loop. Never inlined: each call is a chance for a WebAssembly
/// engine to swap in its optimised code, which it does only between calls.
// lesson-code: spin/work
#[inline(never)]
pub fn spin(units: u32, seed: u64) -> u64 {
    // Spread the seed over all bits (neighbouring seeds must differ) and never start at zero.
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..units {
        for _ in 0..ITERATIONS_PER_UNIT {
            // xorshift64: cheap, branch-free, and each step needs the previous one.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
    }
    x
}
// lesson-code-end

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_seed_dependent() {
        assert_eq!(spin(3, 42), spin(3, 42));
        assert_ne!(spin(3, 42), spin(3, 43));
        assert_ne!(spin(3, 42), spin(4, 42));
    }

    #[test]
    fn zero_units_does_no_work_but_still_depends_on_the_seed() {
        assert_eq!(spin(0, 42), 42u64.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        assert_ne!(spin(0, 42), spin(0, 43));
    }
}
