//! The workloads the harness times, one module per workload, each implementing
//! [`Kernel`](crate::kernel_api::Kernel); [`of`] is the one place where a job finds its kernel.
//!
//! A kernel prepares its input once per size (outside the timing), knows the value every repetition
//! must reproduce, and runs one repetition on a rayon pool (Sequential and Tasks) or on the task
//! runtime (Goroutines), timed and traced with [`crate::measure`]'s helpers. Adding a workload is a
//! module here and its line in [`of`]. Jobs the coordinator drives step by step are not kernels:
//! hashing ([`crate::hashing`]) and server load tests ([`crate::qps`]).

mod docsearch;
mod granularity;
mod ping_pong;
mod scenario;
mod sort;
pub(crate) mod spin;
pub(crate) mod sum;
mod task_memory;

use crate::cancel::Cancel;
use crate::kernel_api::{AnyKernel, Prepared};
use crate::outcome::Outcome;
use experiments::{Job, Workload};
use std::sync::{Arc, Mutex};

/// The kernel of `workload`, whatever its type; `None` for the jobs driven step by step (hashing,
/// load tests). The one place where a workload finds its kernel.
pub fn of(workload: &Workload) -> Option<Box<dyn AnyKernel>> {
    Some(match *workload {
        Workload::Sum { numbers, seed } => Box::new(sum::Sum { numbers, seed }),
        Workload::Spin { units } => Box::new(spin::Spin { units }),
        Workload::DocSearch { documents, latency_us, seed } => {
            Box::new(docsearch::DocSearch { documents, latency_us, seed })
        }
        Workload::Sort { numbers, seed, algorithm } => Box::new(sort::Sort { numbers, seed, algorithm }),
        Workload::Scenario { scenario } => Box::new(scenario::Scenario { kind: scenario }),
        Workload::Granularity { sqrt } => Box::new(granularity::Granularity { sqrt }),
        Workload::TaskMemory => Box::new(task_memory::TaskMemory),
        Workload::PingPong { round_trips } => Box::new(ping_pong::PingPong { round_trips }),
        Workload::Hash { .. } | Workload::Qps { .. } => return None,
    })
}

/// Whether `job` gets untimed warm-ups (jobs driven step by step do).
pub fn warms_up(job: &Job) -> bool {
    of(&job.workload).is_none_or(|kernel| kernel.warms_up())
}

/// Whether a sample of `job` may run it several times (see [`Kernel::REPEATS_IN_SAMPLE`]; jobs
/// driven step by step may).
pub fn repeats_in_sample(job: &Job) -> bool {
    of(&job.workload).is_none_or(|kernel| kernel.repeats_in_sample())
}

/// Whether jobs `a` and `b` run on one and the same input: the same workload and, where the input
/// depends on it, the same number of tasks.
pub fn same_input(a: &Job, b: &Job) -> bool {
    a.workload == b.workload && (a.tasks == b.tasks || of(&a.workload).is_none_or(|k| !k.input_per_task_count()))
}

/// Whether `job` measures what spawning, waking and switching cost (see [`Kernel::MEASURES_COSTS`]).
pub fn measures_costs(job: &Job) -> bool {
    of(&job.workload).is_some_and(|kernel| kernel.measures_costs())
}

/// What identifies an input: the workload and, for per-task work, the task count.
type InputKey = (Workload, u32);

/// The most recent input, kept so that repeated runs (and every worker count of a sweep) reuse it.
static CACHE: Mutex<Option<(InputKey, Arc<dyn Prepared>)>> = Mutex::new(None);

/// Prepare (or reuse) the input of `job` for its kernel. Fails for a variant the kernel does not
/// run in, and for jobs that are not kernels.
pub fn prepare(job: &Job, cancel: &Cancel) -> Outcome<Arc<dyn Prepared>> {
    let kernel = of(&job.workload).ok_or("this job is driven step by step, not by a kernel")?;
    if !kernel.variants().contains(&job.variant) {
        return Err(format!("this workload does not run as {:?}", job.variant).into());
    }
    let key = (job.workload.clone(), if kernel.input_per_task_count() { job.tasks } else { 0 });
    let mut cache = CACHE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((cached_key, input)) = cache.as_ref() {
        if *cached_key == key {
            return Ok(Ok(input.clone()));
        }
    }
    // Free the old input before building the new one, so two large inputs never coexist.
    *cache = None;
    Ok(kernel.prepare(job.tasks, cancel).inspect(|input| *cache = Some((key, input.clone()))))
}
