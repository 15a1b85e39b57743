//! The registry of live tasks: how dropping the runtime, or a panic, reaches tasks nobody else can.
//!
//! A parked task is held only by whatever holds its waker. When that is a gate or a wait group that
//! the task's own future holds, the task holds itself (a cycle), and nothing would ever free it. The
//! registry holds every task from its spawn until it finishes or is cancelled, so the runtime can
//! cancel them all when it is dropped, or a whole family when one of its tasks panics. Go's runtime
//! keeps a list of all its goroutines too.
//!
//! One shard per worker (plus one for spawns from outside), each a slab under its own lock: a task
//! goes into the shard of the worker that spawns it, so spawning rarely waits for another worker.

use super::task::Task;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, MutexGuard};

/// `Task::slot` of a task that is not (or no longer) in the registry.
pub(crate) const NO_SLOT: u32 = u32::MAX;

pub(crate) struct Registry {
    shards: Vec<Mutex<Shard>>,
}

struct Shard {
    entries: Vec<Entry>,
    /// The first free entry; each free entry names the next one.
    first_free: u32,
    live: usize,
}

enum Entry {
    Live(Arc<Task>),
    Free(u32),
}

impl Shard {
    fn new() -> Shard {
        Shard { entries: Vec::new(), first_free: NO_SLOT, live: 0 }
    }

    /// Free entry `slot`, returning the task it held. An empty shard gives its memory back, so a
    /// big run leaves nothing behind (and every run's spawns cost the same).
    fn free(&mut self, slot: u32) -> (Option<Arc<Task>>, Option<Shard>) {
        let entry = std::mem::replace(&mut self.entries[slot as usize], Entry::Free(self.first_free));
        self.first_free = slot;
        self.live -= 1;
        let task = match entry {
            Entry::Live(task) => Some(task),
            Entry::Free(_) => None,
        };
        let emptied = (self.live == 0).then(|| std::mem::replace(self, Shard::new()));
        (task, emptied)
    }
}

fn lock(shard: &Mutex<Shard>) -> MutexGuard<'_, Shard> {
    shard.lock().unwrap_or_else(|p| p.into_inner())
}

impl Registry {
    pub fn new(shards: usize) -> Registry {
        Registry { shards: (0..shards).map(|_| Mutex::new(Shard::new())).collect() }
    }

    /// Hold `task` (in its shard, `task.shard`) until [`Registry::remove`] or [`Registry::take`].
    pub fn insert(&self, task: &Arc<Task>) {
        let mut shard = lock(&self.shards[task.shard as usize]);
        let slot = match shard.first_free {
            NO_SLOT => {
                shard.entries.push(Entry::Live(task.clone()));
                (shard.entries.len() - 1) as u32
            }
            free => {
                let next = std::mem::replace(&mut shard.entries[free as usize], Entry::Live(task.clone()));
                shard.first_free = match next {
                    Entry::Free(next) => next,
                    Entry::Live(_) => unreachable!("a free slot holds no task"),
                };
                free
            }
        };
        shard.live += 1;
        // `slot` is only read or written under the shard's lock.
        task.slot.store(slot, Relaxed);
    }

    /// Let go of `task` if the registry still holds it (finished, or cancelled).
    pub fn remove(&self, task: &Task) {
        let mut shard = lock(&self.shards[task.shard as usize]);
        let slot = task.slot.load(Relaxed);
        if slot == NO_SLOT {
            return;
        }
        task.slot.store(NO_SLOT, Relaxed);
        let freed = shard.free(slot);
        drop(shard);
        // Dropped outside the lock (never the last reference: the caller holds the task).
        drop(freed);
    }

    /// Let go of every task that `wanted` selects, and return them.
    pub fn take(&self, wanted: impl Fn(&Task) -> bool) -> Vec<Arc<Task>> {
        let mut taken = Vec::new();
        for shard in &self.shards {
            let mut shard = lock(shard);
            let mut emptied = None;
            for slot in 0..shard.entries.len() as u32 {
                let Entry::Live(task) = &shard.entries[slot as usize] else { continue };
                if wanted(task) {
                    task.slot.store(NO_SLOT, Relaxed);
                    let (task, empty) = shard.free(slot);
                    taken.extend(task);
                    if empty.is_some() {
                        emptied = empty;
                        break;
                    }
                }
            }
            drop(shard);
            drop(emptied);
        }
        taken
    }
}
