//! The workers jobs run on: rayon pools and M:N task runtimes of exactly k workers each. The jobs of
//! one run that are measured side by side keep all their executors alive together; asking for a
//! different set ends the executors no longer needed (and their threads or Web Workers) first.

use crate::clock::now_ms;
use crate::runtime::{Handle, Runtime};
use crate::threads::spawn_worker;
use experiments::protocol::{Failure, FailureKind};
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::Arc;

/// An executor a job needs: a rayon pool or a task runtime of that many workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Need {
    Pool(u32),
    Runtime(u32),
}

impl Need {
    pub fn workers(self) -> u32 {
        match self {
            Need::Pool(k) | Need::Runtime(k) => k,
        }
    }
}

/// A running executor, cheap to clone; the [`Executors`] keep it alive.
#[derive(Clone)]
pub enum Executor {
    Pool(Arc<ThreadPool>),
    Runtime(Handle),
}

/// When an executor was built, and how much heap the engine held just before.
#[derive(Clone, Copy, Debug)]
pub struct PoolBuilt {
    pub at_ms: f64,
    pub live_bytes: isize,
}

enum Kept {
    Pool(Arc<ThreadPool>),
    Runtime(Runtime),
}

struct Entry {
    need: Need,
    kept: Kept,
    built: PoolBuilt,
    /// No job has run on it yet (the first one reports the start-up time).
    fresh: bool,
}

impl Entry {
    fn executor(&self) -> Executor {
        match &self.kept {
            Kept::Pool(pool) => Executor::Pool(pool.clone()),
            Kept::Runtime(runtime) => Executor::Runtime(runtime.handle()),
        }
    }
}

/// Keeps the executors of the most recent run alive, so a repeated run with the same settings starts
/// at once.
///
/// Without shared memory (see [`crate::threads::SHARED_MEMORY`]) both executors are the calling
/// thread itself, made once and kept: a one-thread rayon pool that uses the current thread, and a
/// runtime whose only worker is the current thread while a job runs.
#[derive(Default)]
pub struct Executors {
    kept: Vec<Entry>,
    inline_pool: Option<Arc<ThreadPool>>,
    inline_runtime: Option<Runtime>,
}

fn one_worker_only(workers: u32) -> Result<(), Failure> {
    if workers == 1 {
        Ok(())
    } else {
        let detail = format!("this page cannot share memory between threads, so it runs one worker, not {workers}");
        Err(Failure::new(FailureKind::NoSharedMemory, detail))
    }
}

fn build_pool(workers: u32) -> Result<ThreadPool, String> {
    ThreadPoolBuilder::new()
        .num_threads(workers as usize)
        .thread_name(|i| format!("lab-worker-{i}"))
        .spawn_handler(|thread| {
            let name = thread.name().unwrap_or("lab-worker").to_string();
            spawn_worker(name, Box::new(move || thread.run()))
        })
        .build()
        .map_err(|e| format!("could not start {workers} workers: {e}"))
}

impl Executors {
    /// End every executor that is not in `needs` (before anything new starts, so old and new
    /// never hold workers at the same time).
    pub fn keep_only(&mut self, needs: &[Need]) {
        let ending: u32 = self.kept.iter().filter(|e| !needs.contains(&e.need)).map(|e| e.need.workers()).sum();
        crate::threads::workers_ending(ending);
        self.kept.retain(|entry| needs.contains(&entry.need));
    }

    /// The executor for `need`, started if it is not running yet, and when it was built if no
    /// job has used it since. Other executors are left alone.
    pub fn get(&mut self, need: Need) -> Result<(Executor, Option<PoolBuilt>), Failure> {
        let workers = need.workers().max(1);
        if !crate::threads::SHARED_MEMORY {
            one_worker_only(workers)?;
            return Ok((self.inline(need)?, None));
        }
        let need = match need {
            Need::Pool(_) => Need::Pool(workers),
            Need::Runtime(_) => Need::Runtime(workers),
        };
        if !self.kept.iter().any(|entry| entry.need == need) {
            let built = PoolBuilt { at_ms: now_ms(), live_bytes: crate::alloc::live_bytes() };
            let not_started = |detail| Failure::new(FailureKind::WorkersNotStarted, detail);
            let kept = match need {
                Need::Pool(k) => Kept::Pool(Arc::new(build_pool(k).map_err(not_started)?)),
                Need::Runtime(k) => Kept::Runtime(Runtime::new(k).map_err(not_started)?),
            };
            self.kept.push(Entry { need, kept, built, fresh: true });
        }
        let entry = self.kept.iter_mut().find(|entry| entry.need == need).expect("just made sure");
        let fresh = std::mem::replace(&mut entry.fresh, false).then_some(entry.built);
        Ok((entry.executor(), fresh))
    }

    /// A rayon pool of exactly `workers` threads as the only executor kept, and when it was built
    /// if no job ran on it yet.
    pub fn pool(&mut self, workers: u32) -> Result<(Arc<ThreadPool>, Option<PoolBuilt>), Failure> {
        let need = Need::Pool(workers.max(1));
        self.keep_only(&[need]);
        match self.get(need)? {
            (Executor::Pool(pool), fresh) => Ok((pool, fresh)),
            (Executor::Runtime(_), _) => unreachable!("asked for a pool"),
        }
    }

    /// An M:N task runtime of exactly `workers` workers as the only executor kept, and whether no
    /// job ran on it yet.
    pub fn runtime(&mut self, workers: u32) -> Result<(Handle, bool), Failure> {
        let need = Need::Runtime(workers.max(1));
        self.keep_only(&[need]);
        match self.get(need)? {
            (Executor::Runtime(runtime), fresh) => Ok((runtime, fresh.is_some())),
            (Executor::Pool(_), _) => unreachable!("asked for a runtime"),
        }
    }

    fn inline(&mut self, need: Need) -> Result<Executor, String> {
        Ok(match need {
            Need::Pool(_) => {
                if self.inline_pool.is_none() {
                    let pool = ThreadPoolBuilder::new()
                        .num_threads(1)
                        .use_current_thread()
                        .build()
                        .map_err(|e| format!("could not set up the single worker: {e}"))?;
                    self.inline_pool = Some(Arc::new(pool));
                }
                Executor::Pool(self.inline_pool.clone().expect("just set"))
            }
            Need::Runtime(_) => Executor::Runtime(self.inline_runtime.get_or_insert_with(Runtime::new_inline).handle()),
        })
    }

    /// Workers of every executor kept, 0 if none.
    pub fn workers(&self) -> u32 {
        self.kept.iter().map(|entry| entry.need.workers()).sum()
    }

    /// End every executor.
    pub fn clear(&mut self) {
        self.keep_only(&[]);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn keeps_several_and_ends_what_is_no_longer_needed() {
        let mut executors = Executors::default();
        let (_, fresh) = executors.get(Need::Pool(2)).unwrap();
        assert!(fresh.is_some(), "a new pool reports when it was built");
        let (_, fresh) = executors.get(Need::Runtime(1)).unwrap();
        assert!(fresh.is_some());
        assert_eq!(executors.workers(), 3);
        let (_, fresh) = executors.get(Need::Pool(2)).unwrap();
        assert!(fresh.is_none(), "a kept pool is reused, not started again");
        executors.keep_only(&[Need::Runtime(1)]);
        assert_eq!(executors.workers(), 1);
        let (pool, fresh) = executors.pool(3).unwrap();
        assert_eq!(pool.current_num_threads(), 3);
        assert!(fresh.is_some());
        assert_eq!(executors.workers(), 3, "pool() keeps only that pool");
    }
}
