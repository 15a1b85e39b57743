//! A global allocator that counts live heap bytes, so the engine can say how much memory a parked
//! task (or a worker's stack and thread-local storage) really holds, and that lets threads that
//! allocate as they go run side by side.
//!
//! It wraps the system allocator (dlmalloc in wasm) and adds two things, each the thread's own:
//! - a counter, updated with one relaxed atomic add per call: a counter shared by every thread
//!   would pass its cache line from core to core on every allocation;
//! - a few freed small blocks kept for reuse (`SmallBlocks`): in wasm, dlmalloc is one heap
//!   behind one lock, and a parser that allocates a few small blocks per document (quick-xml keeps
//!   the names of open elements) then ran slower per document on two workers than on one.
//!
//! Without them the CPU-bound document search of 1,000 documents ran 1.23–1.54× faster on two
//! workers than in one loop in Chromium, and 0.93–1.23× natively (2-core VM); see `live_bytes`'s
//! users for what the counts are for. [`live_bytes`] adds the counters up.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// How many counters there are. Threads beyond this share one with another thread, which stays
/// correct (the counters are atomic) and costs only that pair some speed.
const COUNTERS: usize = 64;

/// One thread's counter, alone on its cache line (128 bytes: x86 fetches lines in pairs, and
/// Apple's chips have 128-byte lines), so that two threads' updates never touch the same line.
#[repr(align(128))]
struct Counter(AtomicIsize);

/// Bytes allocated minus bytes freed, per counter. A block freed on another thread than the one
/// that allocated it makes one counter go down and another up: only the sum means anything.
static COUNTERS_BY_THREAD: [Counter; COUNTERS] = [const { Counter(AtomicIsize::new(0)) }; COUNTERS];
/// The counter the next thread to allocate takes.
static NEXT_COUNTER: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's counter, or `usize::MAX` before its first allocation. A constant initialiser
    /// with no destructor: reading it never allocates, and it works until the thread ends.
    static THIS_THREADS_COUNTER: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// The calling thread's counter.
fn counter() -> &'static AtomicIsize {
    let index = THIS_THREADS_COUNTER
        .try_with(|index| {
            if index.get() == usize::MAX {
                index.set(NEXT_COUNTER.fetch_add(1, Ordering::Relaxed) % COUNTERS);
            }
            index.get()
        })
        .unwrap_or(0);
    &COUNTERS_BY_THREAD[index].0
}

/// Small blocks are kept per size class of this many bytes (also their alignment).
const CLASS_BYTES: usize = 16;
/// Size classes kept: blocks of up to `CLASSES * CLASS_BYTES` bytes (256).
const CLASSES: usize = 16;
/// Freed blocks a thread keeps per class; the rest go back to the system allocator. A thread that
/// ends keeps what it holds (at most 8 × 2,176 bytes, about 17 KB, in the worst case).
const KEPT_PER_CLASS: u8 = 8;

/// A thread's freed small blocks, per size class: a stack threaded through the blocks themselves
/// (each block's first word points to the next one). Any thread may reuse a block another thread
/// allocated: they all come from the one system heap.
struct SmallBlocks {
    top: [*mut u8; CLASSES],
    kept: [u8; CLASSES],
}

thread_local! {
    /// This thread's kept blocks. A constant initialiser with no destructor: reading it never
    /// allocates.
    static SMALL_BLOCKS: UnsafeCell<SmallBlocks> =
        const { UnsafeCell::new(SmallBlocks { top: [std::ptr::null_mut(); CLASSES], kept: [0; CLASSES] }) };
}

/// The size class of `layout`, if it is small enough to keep, and the layout every block of that
/// class is allocated with (so any size of the class fits in any of its blocks).
fn small_class(layout: Layout) -> Option<(usize, Layout)> {
    let (size, align) = (layout.size(), layout.align());
    if size == 0 || size > CLASSES * CLASS_BYTES || align > CLASS_BYTES {
        return None;
    }
    let class = (size - 1) / CLASS_BYTES;
    Layout::from_size_align((class + 1) * CLASS_BYTES, CLASS_BYTES).ok().map(|block| (class, block))
}

/// A kept block of `class` taken off this thread's stack, if it has one.
fn take_kept(class: usize) -> Option<*mut u8> {
    SMALL_BLOCKS
        .try_with(|blocks| {
            // SAFETY: the cell is this thread's alone, and no reference to it outlives this call.
            let blocks = unsafe { &mut *blocks.get() };
            let block = blocks.top[class];
            (!block.is_null()).then(|| {
                // SAFETY: a kept block is at least CLASS_BYTES long, aligned to them, and its first
                // word holds the next kept block (written by `keep`).
                blocks.top[class] = unsafe { block.cast::<*mut u8>().read() };
                blocks.kept[class] -= 1;
                block
            })
        })
        .ok()
        .flatten()
}

/// Put `block` of `class` on this thread's stack; `false` when the stack is full.
fn keep(class: usize, block: *mut u8) -> bool {
    SMALL_BLOCKS
        .try_with(|blocks| {
            // SAFETY: as in `take_kept`.
            let blocks = unsafe { &mut *blocks.get() };
            if blocks.kept[class] >= KEPT_PER_CLASS {
                return false;
            }
            // SAFETY: `block` was allocated with its class's layout and is no longer in use.
            unsafe { block.cast::<*mut u8>().write(blocks.top[class]) };
            blocks.top[class] = block;
            blocks.kept[class] += 1;
            true
        })
        .unwrap_or(false)
}

pub struct CountingAllocator;

impl CountingAllocator {
    /// A block for `layout`: a kept one of its class, or one from the system allocator.
    unsafe fn allocate(&self, layout: Layout) -> *mut u8 {
        match small_class(layout) {
            Some((class, block)) => take_kept(class).unwrap_or_else(|| unsafe { System.alloc(block) }),
            None => unsafe { System.alloc(layout) },
        }
    }

    /// Give back a block allocated for `layout`: kept when small and this thread has room.
    unsafe fn release(&self, pointer: *mut u8, layout: Layout) {
        match small_class(layout) {
            Some((class, block)) => {
                if !keep(class, pointer) {
                    unsafe { System.dealloc(pointer, block) }
                }
            }
            None => unsafe { System.dealloc(pointer, layout) },
        }
    }
}

// SAFETY: every block comes from `System`, small ones allocated with their class's size and
// alignment (at least what was asked for) and handed back with the same; a kept block is used by
// nobody until it is handed out again. The counters only observe sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { self.allocate(layout) };
        if !pointer.is_null() {
            counter().fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = match small_class(layout) {
            Some(_) => {
                let pointer = unsafe { self.allocate(layout) };
                if !pointer.is_null() {
                    unsafe { pointer.write_bytes(0, layout.size()) };
                }
                pointer
            }
            None => unsafe { System.alloc_zeroed(layout) },
        };
        if !pointer.is_null() {
            counter().fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { self.release(pointer, layout) };
        counter().fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `GlobalAlloc::realloc`'s contract: `new_size` rounded to `layout.align()` fits.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let moved = match (small_class(layout), small_class(new_layout)) {
            // Both large: the system allocator may grow the block in place.
            (None, None) => unsafe { System.realloc(pointer, layout, new_size) },
            // The same class: the block already has room.
            (Some((old, _)), Some((new, _))) if old == new => pointer,
            _ => {
                let moved = unsafe { self.allocate(new_layout) };
                if !moved.is_null() {
                    unsafe { std::ptr::copy_nonoverlapping(pointer, moved, layout.size().min(new_size)) };
                    unsafe { self.release(pointer, layout) };
                }
                moved
            }
        };
        if !moved.is_null() {
            counter().fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Heap bytes allocated and not yet freed, by every thread of this program (or wasm module).
pub fn live_bytes() -> isize {
    COUNTERS_BY_THREAD.iter().map(|counter| counter.0.load(Ordering::Relaxed)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_is_held_and_forgets_what_is_freed() {
        // Other tests allocate concurrently: measure a large block so their noise is small.
        let before = live_bytes();
        let block = vec![0u8; 64 << 20];
        let held = live_bytes() - before;
        assert!((60 << 20..70 << 20).contains(&held), "{held}");
        drop(block);
        assert!((live_bytes() - before).abs() < 8 << 20);
    }

    #[test]
    fn a_block_freed_on_another_thread_is_forgotten() {
        let before = live_bytes();
        let block = vec![0u8; 64 << 20];
        std::thread::spawn(move || drop(block)).join().expect("the thread ran");
        assert!((live_bytes() - before).abs() < 8 << 20, "{}", live_bytes() - before);
    }

    #[test]
    fn each_counter_has_a_cache_line_of_its_own_and_a_thread_keeps_its_counter() {
        let address = |counter: &AtomicIsize| counter as *const AtomicIsize as usize;
        let (first, second) = (address(&COUNTERS_BY_THREAD[0].0), address(&COUNTERS_BY_THREAD[1].0));
        assert!(second - first >= 128, "counters {} bytes apart", second - first);
        let (once, again) = std::thread::spawn(move || (address(counter()), address(counter()))).join().expect("ran");
        assert_eq!(once, again, "a thread moved to another counter");
    }

    #[test]
    fn a_freed_small_block_is_reused_by_its_thread_and_a_full_stack_gives_back_the_rest() {
        std::thread::spawn(|| {
            let layout = Layout::from_size_align(24, 8).expect("layout");
            let first = unsafe { ALLOCATOR.alloc(layout) };
            unsafe { ALLOCATOR.dealloc(first, layout) };
            // Another size of the same class (17 to 32 bytes) gets the same block back.
            let other = Layout::from_size_align(32, 4).expect("layout");
            let again = unsafe { ALLOCATOR.alloc(other) };
            assert_eq!(first, again, "the freed block was not reused");
            unsafe { ALLOCATOR.dealloc(again, other) };
            // More frees than a class keeps: the stack holds KEPT_PER_CLASS, the rest go back.
            let blocks: Vec<*mut u8> = (0..20).map(|_| unsafe { ALLOCATOR.alloc(layout) }).collect();
            for &block in &blocks {
                unsafe { ALLOCATOR.dealloc(block, layout) };
            }
            let kept = SMALL_BLOCKS.with(|blocks| unsafe { (*blocks.get()).kept[1] });
            assert_eq!(kept, KEPT_PER_CLASS);
        })
        .join()
        .expect("the thread ran");
    }

    #[test]
    fn zeroed_and_moved_small_blocks_hold_what_they_should() {
        let layout = Layout::from_size_align(40, 8).expect("layout");
        let block = unsafe { ALLOCATOR.alloc(layout) };
        unsafe { block.write_bytes(0xAB, 40) };
        unsafe { ALLOCATOR.dealloc(block, layout) };
        let zeroed = unsafe { ALLOCATOR.alloc_zeroed(layout) };
        assert!((0..40).all(|i| unsafe { zeroed.add(i).read() } == 0), "a reused block came back dirty");
        for i in 0..40 {
            unsafe { zeroed.add(i).write(i as u8) };
        }
        // Small to larger small, then to large, then back: the contents move along.
        let grown = unsafe { ALLOCATOR.realloc(zeroed, layout, 200) };
        let large = unsafe { ALLOCATOR.realloc(grown, Layout::from_size_align(200, 8).expect("layout"), 5000) };
        let small = unsafe { ALLOCATOR.realloc(large, Layout::from_size_align(5000, 8).expect("layout"), 40) };
        assert!((0..40).all(|i| unsafe { small.add(i).read() } == i as u8), "realloc lost the contents");
        unsafe { ALLOCATOR.dealloc(small, layout) };
    }

    #[test]
    fn only_small_blocks_of_modest_alignment_are_kept() {
        assert_eq!(small_class(Layout::from_size_align(1, 1).expect("layout")).map(|(c, _)| c), Some(0));
        assert_eq!(small_class(Layout::from_size_align(16, 16).expect("layout")).map(|(c, _)| c), Some(0));
        assert_eq!(small_class(Layout::from_size_align(17, 1).expect("layout")).map(|(c, _)| c), Some(1));
        assert_eq!(small_class(Layout::from_size_align(256, 8).expect("layout")).map(|(c, _)| c), Some(15));
        assert_eq!(small_class(Layout::from_size_align(257, 8).expect("layout")), None);
        assert_eq!(small_class(Layout::from_size_align(64, 64).expect("layout")), None);
        assert_eq!(small_class(Layout::from_size_align(0, 1).expect("layout")), None);
    }
}
