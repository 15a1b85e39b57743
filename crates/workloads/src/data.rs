//! Seeded generators: the same seed and size give the same data on every machine and in every browser.

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `len` integers drawn uniformly from `0..1000`, like the random list the articles sum.
///
/// Small values keep every sum far from overflow (50 million of them stay below 2^36).
pub fn random_numbers(len: usize, seed: u64) -> Vec<i32> {
    random_number_stream(seed).take(len).collect()
}

/// The endless stream [`random_numbers`] takes its prefix from, for callers that fill memory in pieces.
pub fn random_number_stream(seed: u64) -> impl Iterator<Item = i32> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    std::iter::repeat_with(move || (rng.next_u32() % 1000) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers() {
        assert_eq!(random_numbers(1000, 7), random_numbers(1000, 7));
    }

    #[test]
    fn different_seeds_differ() {
        assert_ne!(random_numbers(1000, 7), random_numbers(1000, 8));
    }

    #[test]
    fn values_stay_in_range() {
        let numbers = random_numbers(10_000, 0xC0FFEE);
        assert_eq!(numbers.len(), 10_000);
        assert!(numbers.iter().all(|&x| (0..1000).contains(&x)));
        // A uniform draw over 0..1000 has mean ~499.5; a broken generator would not.
        let mean = numbers.iter().map(|&x| x as f64).sum::<f64>() / numbers.len() as f64;
        assert!((mean - 499.5).abs() < 15.0, "mean {mean}");
    }
}
