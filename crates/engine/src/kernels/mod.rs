//! The workloads the engine runs, one module per workload, each implementing
//! [`Kernel`](crate::kernel_api::Kernel); [`of`] is the one place where a job finds its kernel.
//!
//! Most kernels are measured by repetitions ([`Method::Repetitions`]): a kernel prepares its input
//! once per size (outside the timing), knows the value every repetition must reproduce, and runs
//! one repetition on a rayon pool (Sequential and Tasks) or on the task runtime (Goroutines), timed
//! and traced with [`crate::measure`]'s helpers. Hashing ([`hashing`]) is taken step by step, a
//! slice at a time, and a server load test ([`qps`]) measures itself; the harness asks each kernel
//! how it is measured ([`Method`]). Adding a workload is a module here and its line in [`of`].

mod docsearch;
mod granularity;
pub mod hashing;
mod ping_pong;
pub mod qps;
mod scenario;
mod shared_total;
mod sort;
pub(crate) mod spin;
pub(crate) mod sum;
mod task_memory;

use crate::cancel::Cancel;
use crate::kernel_api::{AnyKernel, Method, Prepared};
use crate::outcome::Outcome;
use experiments::{HashSource, Job, Workload};
use std::sync::{Arc, Mutex};

/// The kernel of `workload`, whatever its type: the one place where a workload finds its kernel.
pub fn of(workload: &Workload) -> Box<dyn AnyKernel> {
    match *workload {
        Workload::Sum { numbers, seed } => Box::new(sum::Sum { numbers, seed }),
        Workload::SharedTotal { numbers, seed, total } => Box::new(shared_total::SharedTotal { numbers, seed, total }),
        Workload::Spin { units } => Box::new(spin::Spin { units }),
        Workload::DocSearch { documents, latency_us, seed } => {
            Box::new(docsearch::DocSearch { documents, latency_us, seed })
        }
        Workload::Sort { numbers, seed, algorithm } => Box::new(sort::Sort { numbers, seed, algorithm }),
        Workload::Scenario { scenario } => Box::new(scenario::Scenario { kind: scenario }),
        Workload::Granularity { sqrt } => Box::new(granularity::Granularity { sqrt }),
        Workload::TaskMemory => Box::new(task_memory::TaskMemory),
        Workload::PingPong { round_trips } => Box::new(ping_pong::PingPong { round_trips }),
        Workload::Hash {
            source: HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. },
            slice_bytes,
        } => Box::new(hashing::Hash { bytes, slice_bytes }),
        Workload::Qps { requests, concurrency, work_us, wait_us } => {
            Box::new(qps::Qps(qps::Load { requests, concurrency, work_us, wait_us }))
        }
    }
}

/// Whether `job` gets untimed warm-ups (see [`Kernel::warms_up`](crate::kernel_api::Kernel::warms_up)).
pub fn warms_up(job: &Job) -> bool {
    of(&job.workload).warms_up()
}

/// Whether a sample of `job` may run it several times (see
/// [`Kernel::REPEATS_IN_SAMPLE`](crate::kernel_api::Kernel::REPEATS_IN_SAMPLE)).
pub fn repeats_in_sample(job: &Job) -> bool {
    of(&job.workload).repeats_in_sample()
}

/// Whether jobs `a` and `b` run on one and the same input: the same workload and, where the input
/// depends on it, the same number of tasks.
pub fn same_input(a: &Job, b: &Job) -> bool {
    a.workload == b.workload && (a.tasks == b.tasks || !of(&a.workload).input_per_task_count())
}

/// Whether `job` measures what spawning, waking and switching cost (see
/// [`Kernel::MEASURES_COSTS`](crate::kernel_api::Kernel::MEASURES_COSTS)).
pub fn measures_costs(job: &Job) -> bool {
    of(&job.workload).measures_costs()
}

/// Whether `job` is measured alone, by its kernel ([`Method::Alone`]: server load tests).
pub fn measured_alone(job: &Job) -> bool {
    of(&job.workload).method() == Method::Alone
}

/// What identifies an input: the workload and, for per-task work, the task count.
type InputKey = (Workload, u32);

/// The most recent input, kept so that repeated runs (and every worker count of a sweep) reuse it.
static CACHE: Mutex<Option<(InputKey, Arc<dyn Prepared>)>> = Mutex::new(None);

/// Prepare (or reuse) the input of `job` for its kernel. Fails for a variant the kernel does not
/// run in, and for kernels not measured by repetitions ([`Method::Repetitions`]).
pub fn prepare(job: &Job, cancel: &Cancel) -> Outcome<Arc<dyn Prepared>> {
    let kernel = of(&job.workload);
    if kernel.method() != Method::Repetitions {
        return Err("this job is driven step by step, not by repetitions".into());
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::Variant;

    fn job(workload: Workload, tasks: u32) -> Job {
        Job { workload, variant: Variant::ThreadPool, workers: 2, tasks, repetitions: 1 }
    }

    #[test]
    fn every_workload_has_a_kernel_that_says_how_it_is_measured() {
        let hash = Workload::Hash { source: HashSource::Generated { bytes: 4096, seed: 1 }, slice_bytes: 1024 };
        let qps = Workload::Qps { requests: 10, concurrency: 2, work_us: 0, wait_us: 0 };
        let sum = Workload::Sum { numbers: 10, seed: 1 };
        assert_eq!(of(&hash).method(), Method::Steps);
        assert_eq!(of(&qps).method(), Method::Alone);
        assert_eq!(of(&sum).method(), Method::Repetitions);
        assert_eq!(of(&Workload::TaskMemory).method(), Method::Repetitions);
        // Hashing and load tests warm up, fill their samples, and serve any task count with one input.
        for workload in [hash, qps] {
            assert!(warms_up(&job(workload.clone(), 1)));
            assert!(repeats_in_sample(&job(workload.clone(), 1)));
            assert!(!measures_costs(&job(workload.clone(), 1)));
            assert!(same_input(&job(workload.clone(), 1), &job(workload.clone(), 4)));
        }
        assert!(measured_alone(&job(Workload::Qps { requests: 1, concurrency: 1, work_us: 0, wait_us: 0 }, 1)));
        assert!(!measured_alone(&job(sum.clone(), 1)));
        assert!(prepare(
            &job(Workload::Qps { requests: 1, concurrency: 1, work_us: 0, wait_us: 0 }, 1),
            &Cancel::new()
        )
        .is_err());
    }
}
