//! The task-cost chapter's switch kernel: two players hand a turn back and forth. Threads block and
//! wake each other through the OS (a futex wait in the browser); tasks yield to each other on the
//! runtime. Every hand-over is a switch, which is what is timed.

use crate::cancel::{Cancel, Stopped};
use crate::kernel_api::{Kernel, Rep};
use crate::measure::{spawn_tasks, traced_on_runtime, untraced};
use crate::runtime::{self, Handle};
use experiments::{Job, Variant};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Hand the turn over `round_trips` times.
#[derive(Clone)]
pub struct PingPong {
    pub round_trips: u32,
}

impl Kernel for PingPong {
    /// No data: only the round trips every run must report.
    type Input = u64;
    const VARIANTS: &'static [Variant] = &[Variant::ThreadPool, Variant::Goroutines];
    const INPUT_PER_TASK_COUNT: bool = true;
    const MEASURES_COSTS: bool = true;

    fn prepare(&self, _tasks: u32, _cancel: &Cancel) -> Result<u64, Stopped> {
        Ok(self.round_trips as u64)
    }

    fn expected(&self, input: &u64) -> u64 {
        *input
    }

    /// Two threads of the pool, each blocking until the other wakes it.
    // lesson-code: ping-pong/threads
    fn on_pool(&self, _input: &u64, _job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let round_trips = self.round_trips;
        let turn = Mutex::new(0u32);
        let changed = Condvar::new();
        let play = |me: u32| {
            for round in 0..round_trips {
                if round % 1024 == 0 && cancel.is_stopped() {
                    // Let the other player out of its wait too.
                    *turn.lock().unwrap_or_else(|p| p.into_inner()) = u32::MAX;
                    changed.notify_all();
                    return;
                }
                let mut current = turn.lock().unwrap_or_else(|p| p.into_inner());
                while *current != me && *current != u32::MAX {
                    current = changed.wait(current).unwrap_or_else(|p| p.into_inner());
                }
                if *current == u32::MAX {
                    return;
                }
                *current = 1 - me;
                changed.notify_one();
            }
        };
        untraced(|| {
            rayon::join(|| play(0), || play(1));
            round_trips as u64
        })
    }
    // lesson-code-end

    /// Two tasks (whatever t is), each yielding its worker until its turn comes.
    async fn on_runtime(
        &self,
        _input: &Arc<u64>,
        _job: &Job,
        handle: &Handle,
        traced: bool,
        cancel: &Cancel,
    ) -> Result<Rep, Stopped> {
        let round_trips = self.round_trips;
        let run = async {
            let turn = Arc::new(AtomicU32::new(0));
            spawn_tasks(2, cancel, |me| {
                let (turn, cancel) = (turn.clone(), cancel.clone());
                async move {
                    play_task(me, round_trips, &turn, &cancel).await;
                    Some(if me == 0 { round_trips as u64 } else { 0 })
                }
            })
            .await
        };
        traced_on_runtime(handle, traced, run).await
    }
}

/// Player `me` (0 or 1) of a ping-pong between two tasks on the runtime: wait for its turn by
/// yielding the worker, then hand the turn over. Every yield is a task switch.
// lesson-code: ping-pong/goroutines
async fn play_task(me: u32, round_trips: u32, turn: &AtomicU32, cancel: &Cancel) {
    for round in 0..round_trips {
        if round % 1024 == 0 && cancel.is_stopped() {
            return;
        }
        while turn.load(Ordering::Acquire) != me {
            if cancel.is_stopped() {
                return;
            }
            runtime::yield_now().await;
        }
        turn.store(1 - me, Ordering::Release);
    }
}
// lesson-code-end
