//! The task-cost chapter's memory kernel: t tasks parked at a gate, and the heap bytes they hold.

use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::kernel_api::{Kernel, Rep};
use crate::runtime::{self, Handle, WaitGroup};
use experiments::{Job, Trace, Variant};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// Park t tasks and count what they hold.
#[derive(Clone)]
pub struct TaskMemory;

impl Kernel for TaskMemory {
    /// No data: the number of tasks every run must park.
    type Input = u64;
    const VARIANTS: &'static [Variant] = &[Variant::Goroutines];
    const INPUT_PER_TASK_COUNT: bool = true;
    /// One spawn per sample: a second one would find the heap already grown.
    const REPEATS_IN_SAMPLE: bool = false;

    /// Measured on its first spawn: a warm-up would measure a heap already grown.
    fn warms_up(&self) -> bool {
        false
    }

    fn prepare(&self, tasks: u32, _cancel: &Cancel) -> Result<u64, Stopped> {
        Ok(tasks as u64)
    }

    fn expected(&self, input: &u64) -> u64 {
        *input
    }

    /// Spawn `job.tasks` tasks that park at a gate; once all are parked, count the heap bytes they
    /// hold; open the gate. The repetition's time is the time to spawn them all. Never traced.
    async fn on_runtime(
        &self,
        _input: &Arc<u64>,
        job: &Job,
        _handle: &Handle,
        _traced: bool,
        cancel: &Cancel,
    ) -> Result<Rep, Stopped> {
        // lesson-code: task-memory/goroutines
        cancel.check()?;
        let tasks = job.tasks.max(1);
        let gate = runtime::Gate::new();
        let parked = Arc::new(AtomicU32::new(0));
        let group = WaitGroup::new(tasks as usize);
        let before = crate::alloc::live_bytes();
        let t0 = now_ms();
        for task in 0..tasks {
            let (gate, parked, group) = (gate.clone(), parked.clone(), group.clone());
            runtime::spawn(task, async move {
                parked.fetch_add(1, Ordering::SeqCst);
                gate.wait().await;
                group.done();
            });
        }
        let spawn_ms = now_ms() - t0;
        // Let every task run up to the gate and park there.
        while parked.load(Ordering::SeqCst) < tasks {
            runtime::yield_now().await;
        }
        let held = crate::alloc::live_bytes() - before;
        gate.open();
        group.wait().await;
        let mut rep = Rep::new(tasks as u64, Trace { wall_ms: spawn_ms, ..Trace::default() });
        rep.held_per_task = Some(held as f64 / tasks as f64);
        Ok(rep)
        // lesson-code-end
    }
}
