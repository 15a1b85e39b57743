//! Hashing data t times on k workers, slice by slice, as the hashing chapter does: each slice is
//! read once, then every one of the t hash states is advanced with it, one task per hash on the pool
//! (or one after another for the plain loop). SHA-256 of one stream cannot be split, so the
//! parallelism is across the t independent hashes; the end of each slice is a barrier.
//!
//! Reading is left to the driver (a generated stream, a file on disk, a browser `File`: see
//! [`crate::driver::SliceSource`]), so the same code serves the native `lab` and the coordinator in
//! the browser. As a [`Kernel`] it is measured by [`Method::Steps`]: the driving thread reads each
//! slice and hands its hashing to the pool, so a 4 GB file never sits in memory.

use crate::driver::{Context, SliceSource};
use crate::kernel_api::{Kernel, Method, PoolWork, Rep, Steps};
use crate::recorder::Recorder;
use experiments::protocol::Failure;
use experiments::{Check, Job, Trace, Variant};
use std::sync::{Arc, Mutex};
use workloads::hashing::{hex, StreamingHash};

/// Bytes per call into SHA-256.
pub(crate) const UPDATE_BYTES: usize = 64 * 1024;
/// Bytes of the untimed hashing warm-up (a whole pass would take as long as a repetition).
const WARM_UP_BYTES: usize = 256 * 1024;
/// A step or the end of a pass that came before its start (the harness starts every pass).
const OUT_OF_TURN: &str = "a hashing pass was not started";

/// Hash the job's `bytes` t times, `slice_bytes` at a time (the driver opens them: see
/// [`Context::hash_source`]).
#[derive(Clone)]
pub struct Hash {
    pub bytes: u64,
    pub slice_bytes: u32,
}

impl Kernel for Hash {
    /// Nothing prepared on a worker: the bytes are read as they are hashed.
    type Input = ();
    const METHOD: Method = Method::Steps;
    const VARIANTS: &'static [Variant] = &[Variant::Sequential, Variant::ThreadPool];
    const INPUT_PER_TASK_COUNT: bool = false;

    fn steps(&self, job: &Job, cx: &Context<'_>) -> Result<Box<dyn Steps>, Failure> {
        let (total, slice_bytes) = (self.bytes, self.slice_bytes);
        Ok(Box::new(Slices { source: (cx.hash_source)(job)?, total, slice_bytes, hashing: None }))
    }
}

/// A hashing job's slices, each read from its source on the driving thread and hashed on the pool.
struct Slices {
    source: Box<dyn SliceSource>,
    total: u64,
    slice_bytes: u32,
    /// The hash states of the pass under way.
    hashing: Option<Arc<Mutex<Hashing>>>,
}

impl Steps for Slices {
    fn count(&self) -> u32 {
        slices(self.total, self.slice_bytes).count() as u32
    }

    fn warm_up(&self, job: &Job) -> PoolWork {
        let mut hashing = Hashing::new(job.tasks, job.variant);
        Box::new(move || hashing.advance(&vec![0u8; WARM_UP_BYTES]))
    }

    /// Fresh hash states.
    fn start(&mut self, job: &Job) {
        self.hashing = Some(Arc::new(Mutex::new(Hashing::new(job.tasks, job.variant))));
    }

    /// Slice `index`, read here; every hash state advanced with it on the pool.
    fn step(&mut self, index: u32) -> Result<PoolWork, Failure> {
        let (offset, length) = slice_at(self.total, self.slice_bytes, index as u64);
        let slice = self.source.slice(offset, length)?;
        let state = self.hashing.clone().ok_or(OUT_OF_TURN)?;
        Ok(Box::new(move || state.lock().unwrap_or_else(|p| p.into_inner()).advance(&slice)))
    }

    /// Every hash's digest, and the trace of the pass.
    fn finish(&mut self) -> Result<Rep, Failure> {
        let hashing = self.hashing.take().ok_or(OUT_OF_TURN)?;
        let hashing = Arc::try_unwrap(hashing).map_err(|_| "a slice was still being hashed".to_string())?;
        let (digests, trace) = hashing.into_inner().unwrap_or_else(|p| p.into_inner()).finish();
        Ok(Rep { value: 0, trace, digests, held_per_task: None, waits: None })
    }

    fn check(&self, _values: &[u64], digests: &[[u8; 32]]) -> Check {
        check_digests(digests)
    }
}

/// The t hash states of one run and the spans of their work.
pub struct Hashing {
    states: Vec<Mutex<StreamingHash>>,
    parallel: bool,
    recorder: Recorder,
    slices: u32,
}

impl Hashing {
    /// `hashes` fresh states; with `variant` ThreadPool each slice is spread over the current pool.
    pub fn new(hashes: u32, variant: Variant) -> Self {
        Hashing {
            states: (0..hashes.max(1)).map(|_| Mutex::new(StreamingHash::new())).collect(),
            parallel: variant != Variant::Sequential,
            recorder: Recorder::new(),
            slices: 0,
        }
    }

    /// Advance every hash with `slice`. Call on a worker of the pool the job asked for.
    // lesson-code: hashing/advance
    pub fn advance(&mut self, slice: &[u8]) {
        let first_task = self.slices * self.states.len() as u32;
        let (states, recorder) = (&self.states, &self.recorder);
        let update = |index: usize| {
            recorder.task(first_task + index as u32, || {
                let mut state = states[index].lock().unwrap_or_else(|p| p.into_inner());
                // Many short calls rather than one long one: a WebAssembly engine swaps in its
                // optimised code only between calls, so one 4 MB call could run unoptimised throughout.
                for piece in slice.chunks(UPDATE_BYTES) {
                    state.update(piece);
                }
            })
        };
        if self.parallel {
            rayon::scope(|scope| {
                for index in 0..states.len() {
                    let update = &update;
                    scope.spawn(move |_| update(index));
                }
            });
        } else {
            (0..states.len()).for_each(update);
        }
        self.slices += 1;
    }
    // lesson-code-end

    /// Every digest, in hash order, and the trace of the run.
    pub fn finish(self) -> (Vec<[u8; 32]>, Trace) {
        let digests =
            self.states.into_iter().map(|s| s.into_inner().unwrap_or_else(|p| p.into_inner()).finish()).collect();
        (digests, self.recorder.finish())
    }
}

/// The check of a hashing run: every digest equal; its value is the digest in hex.
pub fn check_digests(digests: &[[u8; 32]]) -> Check {
    let first = digests.first().map(hex).unwrap_or_default();
    let ok = !digests.is_empty() && digests.iter().all(|d| hex(d) == first);
    Check { ok, value: first.clone(), expected: if ok { first } else { "every hash equal".into() } }
}

/// Slices of `slice_bytes` covering `total` bytes: (offset, length) pairs.
pub fn slices(total: u64, slice_bytes: u32) -> impl Iterator<Item = (u64, usize)> {
    (0..total.div_ceil(slice_bytes.max(1) as u64)).map(move |i| slice_at(total, slice_bytes, i))
}

/// Slice `index` of those of `slice_bytes` covering `total` bytes: its offset and length.
fn slice_at(total: u64, slice_bytes: u32, index: u64) -> (u64, usize) {
    let slice = slice_bytes.max(1) as u64;
    (index * slice, slice.min(total - index * slice) as usize)
}

/// The hash workload's parameters, or `None` if `job` is not a hashing job (for the drivers, who
/// open its bytes).
pub fn hash_parameters(job: &Job) -> Option<(&experiments::HashSource, u32)> {
    match &job.workload {
        experiments::Workload::Hash { source, slice_bytes } => Some((source, *slice_bytes)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workloads::hashing::{generated_bytes, sha256};

    #[test]
    fn slices_cover_everything_once() {
        let covered: Vec<(u64, usize)> = slices(10, 4).collect();
        assert_eq!(covered, vec![(0, 4), (4, 4), (8, 2)]);
        assert_eq!(slices(0, 4).count(), 0);
    }

    #[test]
    fn all_hashes_equal_the_one_pass_digest_in_both_variants() {
        let data = generated_bytes(100_003, 7);
        let expected = sha256(&data);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        for variant in [Variant::Sequential, Variant::ThreadPool] {
            let mut hashing = Hashing::new(5, variant);
            pool.install(|| {
                for (offset, length) in slices(data.len() as u64, 4096) {
                    hashing.advance(&data[offset as usize..offset as usize + length]);
                }
            });
            let (digests, trace) = hashing.finish();
            assert_eq!(digests.len(), 5);
            assert!(digests.iter().all(|d| *d == expected), "{variant:?}");
            assert_eq!(trace.spans.len(), 5 * 25, "one span per hash per slice");
            assert!(check_digests(&digests).ok);
        }
        assert!(!check_digests(&[expected, sha256(b"other")]).ok);
    }

    #[test]
    fn passes_taken_step_by_step_give_the_one_pass_digest() {
        struct Bytes(Vec<u8>);
        impl SliceSource for Bytes {
            fn slice(&mut self, offset: u64, length: usize) -> Result<Vec<u8>, Failure> {
                Ok(self.0[offset as usize..offset as usize + length].to_vec())
            }
        }
        let data = generated_bytes(10_000, 3);
        let (total, slice_bytes) = (data.len() as u64, 4096);
        let source = Box::new(Bytes(data.clone()));
        let mut steps = Slices { source, total, slice_bytes, hashing: None };
        let workload = experiments::Workload::Hash {
            source: experiments::HashSource::Generated { bytes: total, seed: 3 },
            slice_bytes,
        };
        let job = Job { workload, variant: Variant::Sequential, workers: 1, tasks: 3, repetitions: 1 };
        assert_eq!(steps.count(), 3);
        assert!(steps.step(0).is_err(), "a pass is started first");
        (steps.warm_up(&job))();
        for _ in 0..2 {
            steps.start(&job);
            for index in 0..steps.count() {
                (steps.step(index).expect("a slice"))();
            }
            let rep = steps.finish().expect("every slice hashed");
            assert_eq!(rep.digests, vec![sha256(&data); 3]);
            assert_eq!(rep.trace.spans.len(), 3 * 3, "one span per hash per slice");
            assert!(steps.check(&[], &rep.digests).ok);
        }
    }
}
