//! The first chapter's kernel: t tasks of pure CPU work (spin units), each with its own seed.

use crate::cancel::{Cancel, Stopped};
use crate::kernel_api::{Kernel, Rep, ALL_VARIANTS};
use crate::measure::{spawn_tasks, traced_on_runtime, traced_sequential, traced_tasks};
use crate::runtime::Handle;
use experiments::{Job, Variant};
use std::sync::Arc;
use workloads::spin::spin;

/// Each task does `units` units of spin work.
#[derive(Clone)]
pub struct Spin {
    pub units: u32,
}

/// The seed of spin task `task`: each task does different (but reproducible) work.
pub fn spin_seed(task: u32) -> u64 {
    0x9E37_79B9_7F4A_7C15 ^ task as u64
}

impl Kernel for Spin {
    /// No data: only the wrapping sum of every task's result.
    type Input = u64;
    const VARIANTS: &'static [Variant] = ALL_VARIANTS;
    const INPUT_PER_TASK_COUNT: bool = true;

    fn prepare(&self, tasks: u32, cancel: &Cancel) -> Result<u64, Stopped> {
        let mut expected = 0u64;
        for task in 0..tasks {
            cancel.check()?;
            expected = expected.wrapping_add(spin(self.units, spin_seed(task)));
        }
        Ok(expected)
    }

    fn expected(&self, input: &u64) -> u64 {
        *input
    }

    fn on_pool(&self, _input: &u64, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let keep_going = || !cancel.is_stopped();
        let units = self.units;
        if job.variant == Variant::Sequential {
            return traced_sequential(|| {
                (0..job.tasks)
                    .try_fold(0u64, |sum, task| keep_going().then(|| sum.wrapping_add(spin(units, spin_seed(task)))))
            });
        }
        // lesson-code: spin/pool
        traced_tasks(job.tasks as usize, |task| keep_going().then(|| spin(units, spin_seed(task as u32))))
        // lesson-code-end
    }

    async fn on_runtime(
        &self,
        _input: &Arc<u64>,
        job: &Job,
        handle: &Handle,
        traced: bool,
        cancel: &Cancel,
    ) -> Result<Rep, Stopped> {
        let units = self.units;
        let run = spawn_tasks(job.tasks.max(1), cancel, |task| {
            let cancel = cancel.clone();
            async move { (!cancel.is_stopped()).then(|| spin(units, spin_seed(task))) }
        });
        traced_on_runtime(handle, traced, run).await
    }
}
