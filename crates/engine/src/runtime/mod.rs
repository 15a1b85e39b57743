//! A small M:N task runtime ("goroutines"): many futures multiplexed onto k workers.
//!
//! Hand-written on purpose: it *is* the lesson of the scheduler chapters. It follows the shape of Go's
//! scheduler in miniature: each worker (an M with its P) has a local run queue; there is one global
//! queue; a worker with nothing to run fires due timers, then steals half of another worker's queue,
//! then sleeps until the next timer deadline or new work. A task that awaits [`sleep`] (our simulated
//! blocking read) *parks*: it leaves the worker, which runs other tasks meanwhile, and a timer makes
//! it runnable again. Every step can be recorded ([`experiments::SchedulerEvent`]) for timelines and replays.
//!
//! Every live task is listed in a registry, so dropping the runtime cancels them all, parked ones
//! included. A task that panics (natively; the browser build aborts on a panic) cancels its family,
//! the root task it descends from and every task that root's tasks spawned: the root's reply is
//! dropped, so its run fails at once instead of waiting forever, and the workers carry on.
//!
//! Off-the-shelf executors (tokio, async-executor) would hide exactly what the chapters want to
//! show, and do not run on Web Workers sharing wasm memory. The same code runs on OS threads natively
//! and on Web Workers in the browser: workers are started through [`crate::threads::spawn_worker`].

mod gate;
mod registry;
mod scheduler;
mod task;
mod timer;
mod wait_group;

pub use experiments::{SchedulerEvent as Event, SchedulerEventKind as EventKind};
pub use gate::{yield_now, Gate};
pub use scheduler::{spawn, Handle, Runtime};
pub use timer::{sleep, Sleep};
pub use wait_group::WaitGroup;

#[cfg(test)]
mod tests;
