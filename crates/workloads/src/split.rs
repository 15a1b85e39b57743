//! Splitting `len` items into `parts` contiguous ranges whose sizes differ by at most one.

use std::ops::Range;

/// Contiguous, non-overlapping ranges covering `0..len`, at most `parts` of them, none empty.
///
/// The first `len % parts` ranges get one extra item, so sizes never differ by more than one.
/// Asking for more parts than items gives one range per item.
pub fn even_ranges(len: usize, parts: usize) -> Vec<Range<usize>> {
    let parts = parts.max(1).min(len.max(1));
    if len == 0 {
        return Vec::new();
    }
    let base = len / parts;
    let extra = len % parts;
    let mut start = 0;
    (0..parts)
        .map(|i| {
            let size = base + usize::from(i < extra);
            let range = start..start + size;
            start += size;
            range
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_cover(len: usize, parts: usize) {
        let ranges = even_ranges(len, parts);
        let mut next = 0;
        for r in &ranges {
            assert_eq!(r.start, next, "len {len} parts {parts}: gap or overlap");
            assert!(!r.is_empty(), "len {len} parts {parts}: empty range");
            next = r.end;
        }
        assert_eq!(next, len);
        if len > 0 {
            assert_eq!(ranges.len(), parts.max(1).min(len));
            let min = ranges.iter().map(|r| r.len()).min().unwrap();
            let max = ranges.iter().map(|r| r.len()).max().unwrap();
            assert!(max - min <= 1);
        }
    }

    #[test]
    fn covers_exactly_for_many_shapes() {
        for len in [0, 1, 2, 7, 10, 64, 1000, 1001] {
            for parts in [0, 1, 2, 3, 8, 64, 2000] {
                check_cover(len, parts);
            }
        }
    }

    #[test]
    fn uneven_split_puts_extra_first() {
        assert_eq!(even_ranges(10, 3), vec![0..4, 4..7, 7..10]);
    }
}
