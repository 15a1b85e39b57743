//! SHA-256 of a big generated "file", for the chapter that hashes the same file on 1, 4 and 16 workers.
//!
//! One SHA-256 is strictly sequential: every 64-byte block depends on the state left by the previous one.
//! The chapter's parallelism is therefore *across* independent hashes (the article hashed one file
//! [`DEFAULT_HASH_REPETITIONS`] times), never inside one. The "file" is generated from a seed by a
//! counter-based generator, so any slice of it can be produced on its own, in any order, on any machine.

use sha2::{Digest, Sha256};

/// How many times the article hashed its ~300 MB file: 30 independent hashes to share among the workers.
pub const DEFAULT_HASH_REPETITIONS: u32 = 30;

/// The SHA-256 digest of `data`, in one pass.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// A digest as 64 lowercase hexadecimal digits, the way `sha256sum` prints it.
pub fn hex(digest: &[u8; 32]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(64);
    for &byte in digest {
        text.push(DIGITS[usize::from(byte >> 4)] as char);
        text.push(DIGITS[usize::from(byte & 0x0f)] as char);
    }
    text
}

/// SHA-256 fed piece by piece, for files too big to hold in memory at once.
///
/// Feeding a file in slices of any sizes (even uneven ones, even empty ones) gives the same digest as
/// [`sha256`] over the whole file in one pass: the hasher buffers partial 64-byte blocks itself.
#[derive(Clone, Debug, Default)]
pub struct StreamingHash {
    hasher: Sha256,
}

impl StreamingHash {
    /// A hash that has seen no bytes yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed the next `slice` of the file.
    pub fn update(&mut self, slice: &[u8]) {
        self.hasher.update(slice);
    }

    /// The digest of everything fed so far.
    pub fn finish(self) -> [u8; 32] {
        self.hasher.finalize().into()
    }
}

/// The first `len` bytes of the seeded byte stream that [`fill_generated`] reads from: a generated "file".
pub fn generated_bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut bytes = vec![0; len];
    fill_generated(&mut bytes, 0, seed);
    bytes
}

/// Fill `buffer` with the bytes at absolute positions `offset..offset + buffer.len()` of an endless
/// byte stream determined by `seed`.
///
/// The stream is counter-based: its 8-byte word number `n` (bytes `8n..8n + 8`, little-endian) is the
/// splitmix64 finaliser applied to a seed-derived key plus `(n + 1)` times the golden-ratio increment,
/// i.e. output `n` of splitmix64 started from that key. No word depends on the one before it, so any
/// slice can be produced without generating its prefix, and concatenating the slices of any slicing
/// gives exactly [`generated_bytes`]. Offsets need not be multiples of 8. Positions wrap at 2^64.
pub fn fill_generated(buffer: &mut [u8], offset: u64, seed: u64) {
    let key = stream_key(seed);
    let misalignment = (offset % 8) as usize;
    let head_len = if misalignment == 0 { 0 } else { (8 - misalignment).min(buffer.len()) };
    let (head, body) = buffer.split_at_mut(head_len);
    if !head.is_empty() {
        let word = generated_word(key, offset / 8).to_le_bytes();
        head.copy_from_slice(&word[misalignment..misalignment + head.len()]);
    }

    let mut index = offset.wrapping_add(head_len as u64) / 8;
    let mut words = body.chunks_exact_mut(8);
    for chunk in &mut words {
        chunk.copy_from_slice(&generated_word(key, index).to_le_bytes());
        index = (index + 1) & LAST_WORD_INDEX;
    }
    let tail = words.into_remainder();
    if !tail.is_empty() {
        let word = generated_word(key, index).to_le_bytes();
        tail.copy_from_slice(&word[..tail.len()]);
    }
}

/// The index of the stream's last word, at positions 2^64 − 8 .. 2^64; the word after it is word 0.
const LAST_WORD_INDEX: u64 = u64::MAX / 8;

/// splitmix64's increment: 2^64 divided by the golden ratio, rounded to odd.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function: a bijective mix of all 64 bits.
fn splitmix64_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stream's starting state. Mixing the seed keeps nearby seeds (0, 1, 2, …) from giving streams
/// that are shifted copies of each other.
fn stream_key(seed: u64) -> u64 {
    splitmix64_mix(seed ^ 0x6A09_E667_F3BC_C908)
}

/// Word number `index` of the stream started at `key`.
fn generated_word(key: u64, index: u64) -> u64 {
    splitmix64_mix(key.wrapping_add(index.wrapping_add(1).wrapping_mul(GOLDEN_GAMMA)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn matches_the_fips_180_test_vectors() {
        let vectors: [(&[u8], &str); 3] = [
            (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            ),
        ];
        for (message, expected) in vectors {
            assert_eq!(hex(&sha256(message)), expected, "message {:?}", String::from_utf8_lossy(message));
        }
        let million_a = vec![b'a'; 1_000_000];
        assert_eq!(hex(&sha256(&million_a)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    #[test]
    fn hex_is_lowercase_and_two_digits_per_byte() {
        let mut digest = [0u8; 32];
        digest[0] = 0x0a;
        digest[1] = 0xff;
        digest[31] = 0x10;
        let text = hex(&digest);
        assert_eq!(text.len(), 64);
        assert!(text.starts_with("0aff00"));
        assert!(text.ends_with("0010"));
    }

    fn hash_in_slices(data: &[u8], sizes: &[usize]) -> [u8; 32] {
        let mut hash = StreamingHash::new();
        let mut rest = data;
        for &size in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (slice, after) = rest.split_at(size.min(rest.len()));
            hash.update(slice);
            rest = after;
        }
        hash.finish()
    }

    #[test]
    fn streaming_in_any_slices_equals_one_pass() {
        let data = generated_bytes(200_003, 5);
        let whole = sha256(&data);
        let slicings: [&[usize]; 8] =
            [&[1], &[7], &[64], &[1000], &[65_536], &[3, 64, 0, 129, 1000, 5], &[65_535, 1, 63], &[200_003]];
        for sizes in slicings {
            assert_eq!(hash_in_slices(&data, sizes), whole, "slices {sizes:?}");
        }
        // And the digest really depends on the content: one flipped bit changes it.
        let mut changed = data.clone();
        changed[100_000] ^= 1;
        assert_ne!(sha256(&changed), whole);
    }

    #[test]
    fn streaming_nothing_is_the_empty_digest() {
        assert_eq!(StreamingHash::new().finish(), sha256(b""));
    }

    #[test]
    fn fill_generated_over_random_slicings_equals_generated_bytes() {
        let len = 10_007;
        let expected = generated_bytes(len, 42);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        for _ in 0..50 {
            let mut assembled = Vec::with_capacity(len);
            while assembled.len() < len {
                let size = (rng.next_u32() as usize % 300).min(len - assembled.len());
                let mut slice = vec![0u8; size];
                fill_generated(&mut slice, assembled.len() as u64, 42);
                assembled.extend_from_slice(&slice);
            }
            assert_eq!(assembled, expected);
        }
    }

    #[test]
    fn unaligned_offsets_and_short_slices_agree_with_the_whole() {
        let whole = generated_bytes(64, 9);
        for offset in 0..40 {
            for len in 0..20 {
                let mut slice = vec![0u8; len];
                fill_generated(&mut slice, offset as u64, 9);
                assert_eq!(slice, whole[offset..offset + len], "offset {offset} len {len}");
            }
        }
    }

    #[test]
    fn far_offsets_need_no_prefix() {
        // A slice 5 GB into the stream, as the browser asks for when streaming a multi-GB file.
        let far = 5_000_000_003u64;
        let mut wide = vec![0u8; 40];
        fill_generated(&mut wide, far - 3, 11);
        let mut narrow = vec![0u8; 30];
        fill_generated(&mut narrow, far, 11);
        assert_eq!(narrow, wide[3..33]);
        // Positions wrap instead of overflowing.
        let mut across_the_end = vec![0u8; 19];
        fill_generated(&mut across_the_end, u64::MAX - 10, 11);
        assert_eq!(across_the_end[11..], generated_bytes(8, 11)[..]);
        let mut last_bytes = vec![0u8; 11];
        fill_generated(&mut last_bytes, u64::MAX - 10, 11);
        assert_eq!(last_bytes, across_the_end[..11]);
    }

    #[test]
    fn seeds_give_different_streams() {
        let streams: Vec<Vec<u8>> = (0..4).map(|seed| generated_bytes(4096, seed)).collect();
        for a in 0..streams.len() {
            for b in a + 1..streams.len() {
                assert_ne!(streams[a], streams[b], "seeds {a} and {b}");
            }
        }
        assert_eq!(generated_bytes(4096, 3), streams[3]);
        // Nearby seeds are not shifted copies of each other either.
        assert!(!streams[1].windows(64).any(|window| window == &streams[0][..64]));
    }

    #[test]
    fn generated_bytes_look_uniform() {
        let bytes = generated_bytes(1 << 16, 7);
        let mut histogram = [0u32; 256];
        for &byte in &bytes {
            histogram[usize::from(byte)] += 1;
        }
        // 256 expected per value; a broken generator (zeros, repeats, a constant word) is far off.
        assert!(histogram.iter().all(|&count| (150..370).contains(&count)), "{histogram:?}");
    }

    #[test]
    fn generated_content_is_pinned() {
        // The same seed must give the same file natively and in every browser, release after release.
        // Cross-checked against an independent Python implementation of the documented generator.
        assert_eq!(
            hex(&sha256(&generated_bytes(1000, 1))),
            "ac10279f9765b8bc2cc023be4a256da8f460d64520299672bd42a39cc11be27c"
        );
    }
}
