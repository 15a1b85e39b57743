//! The granularity chapter's kernel: t tiny tasks of a few square roots each, as a plain loop or one
//! task per item, to show what spawning costs when a task does almost nothing. Untraced: recording
//! each task would be part of what is measured.

use crate::cancel::{Cancel, Stopped};
use crate::kernel_api::{Kernel, Rep, ALL_VARIANTS};
use crate::measure::{spawn_tasks, traced_on_runtime, untraced, untraced_passes};
use crate::runtime::Handle;
use experiments::{Job, Variant};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use workloads::granularity::{expected_total, sqrt_task};

/// Each task computes `sqrt` square roots.
#[derive(Clone)]
pub struct Granularity {
    pub sqrt: u32,
}

impl Kernel for Granularity {
    /// No data: only the total every run must reproduce.
    type Input = u64;
    const VARIANTS: &'static [Variant] = ALL_VARIANTS;
    const INPUT_PER_TASK_COUNT: bool = true;
    const MEASURES_COSTS: bool = true;

    fn prepare(&self, tasks: u32, _cancel: &Cancel) -> Result<u64, Stopped> {
        Ok(expected_total(self.sqrt, tasks))
    }

    fn expected(&self, input: &u64) -> u64 {
        *input
    }

    /// A plain loop (Sequential) or one rayon task per item (Tasks).
    fn on_pool(&self, _input: &u64, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let (sqrt, tasks) = (self.sqrt, job.tasks);
        if job.variant == Variant::Sequential {
            // A loop of small tasks can be shorter than the clock's step: it is timed over as many
            // passes as fill a couple of milliseconds, and the row says how many.
            return untraced_passes(
                || {
                    // lesson-code: granularity/sequential
                    let mut total = 0u64;
                    for task in 0..tasks {
                        if task % 4096 == 0 && cancel.is_stopped() {
                            break;
                        }
                        total = total.wrapping_add(sqrt_task(sqrt, task));
                    }
                    total
                    // lesson-code-end
                },
                cancel,
            );
        }
        untraced(|| {
            // lesson-code: granularity/pool
            let total = AtomicU64::new(0);
            rayon::scope(|scope| {
                for task in 0..tasks {
                    let total = &total;
                    scope.spawn(move |_| {
                        total.fetch_add(sqrt_task(sqrt, task), Ordering::Relaxed);
                    });
                }
            });
            total.into_inner()
            // lesson-code-end
        })
    }

    async fn on_runtime(
        &self,
        _input: &Arc<u64>,
        job: &Job,
        handle: &Handle,
        traced: bool,
        cancel: &Cancel,
    ) -> Result<Rep, Stopped> {
        // lesson-code: granularity/goroutines
        let sqrt = self.sqrt;
        let run = spawn_tasks(job.tasks.max(1), cancel, |task| async move { Some(sqrt_task(sqrt, task)) });
        traced_on_runtime(handle, traced, run).await
        // lesson-code-end
    }
}
