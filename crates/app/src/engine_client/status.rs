//! What the engine holds right now (workers alive, pooled and parked; its memory), asked of it on
//! demand.

use super::wire::send;
use super::CLIENT;
use experiments::protocol::Request;
use futures_channel::oneshot;

/// What the engine holds right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineStatus {
    /// Engine workers alive (the coordinator not counted).
    pub live_workers: u32,
    /// Workers of the executors kept for the next run.
    pub pool_workers: u32,
    /// Workers whose pool ended, parked for the next pool to reuse.
    pub parked_workers: u32,
    /// Heap bytes allocated and not freed, and the size of the engine's wasm memory.
    pub heap_bytes: u64,
    pub memory_bytes: u64,
}

/// How many engine workers are alive, how large the current pool is, and the engine's memory.
pub async fn status() -> Option<EngineStatus> {
    // No engine (never started, or ended by a crash or a Stop): nothing alive, and asking must not
    // start one.
    if CLIENT.with(|c| c.borrow().worker.is_none()) {
        return Some(EngineStatus {
            live_workers: 0,
            pool_workers: 0,
            parked_workers: 0,
            heap_bytes: 0,
            memory_bytes: 0,
        });
    }
    let (sender, receiver) = oneshot::channel();
    CLIENT.with(|c| c.borrow_mut().status_waiters.push(sender));
    send(&Request::Status).ok()?;
    receiver.await.ok()
}
