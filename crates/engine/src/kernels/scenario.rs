//! The Go scheduler chapter's kernel: the scheduling scenarios (see [`ScenarioKind`]), traced step by
//! step on the task runtime for the timeline and the replay.

use crate::cancel::{Cancel, Stopped};
use crate::kernel_api::{Kernel, Rep};
use crate::measure::{spawn_tasks, traced_on_runtime};
use crate::runtime::{self, Handle};
use experiments::{Job, ScenarioKind, Variant};
use std::sync::Arc;
use std::time::Duration;
use workloads::spin::spin;

use super::spin::spin_seed;

/// Spin units of about a millisecond natively (a few percent more in the browser).
const UNITS_PER_MS: u32 = 1_000;

/// One scheduling scenario.
#[derive(Clone)]
pub struct Scenario {
    pub kind: ScenarioKind,
}

impl Kernel for Scenario {
    /// No data: every task counts one.
    type Input = u64;
    const VARIANTS: &'static [Variant] = &[Variant::Goroutines];
    const INPUT_PER_TASK_COUNT: bool = true;

    fn prepare(&self, tasks: u32, _cancel: &Cancel) -> Result<u64, Stopped> {
        Ok(tasks as u64)
    }

    fn expected(&self, input: &u64) -> u64 {
        *input
    }

    async fn on_runtime(
        &self,
        _input: &Arc<u64>,
        job: &Job,
        handle: &Handle,
        traced: bool,
        cancel: &Cancel,
    ) -> Result<Rep, Stopped> {
        // lesson-code: scenario/goroutines
        let kind = self.kind;
        let run = spawn_tasks(job.tasks.max(1), cancel, |task| {
            let cancel = cancel.clone();
            async move {
                scenario_task(kind, task, &cancel).await;
                Some(1)
            }
        });
        traced_on_runtime(handle, traced, run).await
        // lesson-code-end
    }
}

/// The body of task `task` of a scheduler scenario.
// lesson-code: scenario/task
async fn scenario_task(kind: ScenarioKind, task: u32, cancel: &Cancel) {
    let compute = |ms_tenths: u32| {
        if !cancel.is_stopped() {
            std::hint::black_box(spin(ms_tenths * UNITS_PER_MS / 10, spin_seed(task)));
        }
    };
    match kind {
        ScenarioKind::SpawnOnOne => compute(15),
        ScenarioKind::ManyTasks => compute(3),
        ScenarioKind::LongTask => compute(if task == 0 { 250 } else { 15 }),
        ScenarioKind::IoMix => {
            for round in 0..3u32 {
                let wait_ms = 1 + (task + round) % 3;
                runtime::sleep(Duration::from_millis(wait_ms as u64)).await;
                compute(2);
            }
        }
    }
}
// lesson-code-end
