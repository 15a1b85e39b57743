//! The workloads the harness times, one module per workload, each implementing [`Kernel`]; [`of`] is
//! the one place where a job finds its kernel.
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

use crate::cancel::{Cancel, Stopped};
use crate::measure::Rep;
use crate::outcome::Outcome;
use crate::runtime::Handle;
use experiments::{Check, Job, Variant, Workload};
use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

/// Every variant: a plain loop, tasks on a rayon pool, tasks on the task runtime.
const ALL_VARIANTS: &[Variant] = &[Variant::Sequential, Variant::ThreadPool, Variant::Goroutines];

/// What the engine runs for one workload. The kernel's value holds the workload's parameters.
pub trait Kernel: Send + Sync + Clone + 'static {
    /// The prepared input: data generated once per size, and what every repetition must reproduce.
    type Input: Send + Sync + 'static;

    /// The variants it runs in; the engine refuses the others.
    const VARIANTS: &'static [Variant];
    /// Whether the input differs with the number of tasks (if not, one input serves a sweep over t).
    const INPUT_PER_TASK_COUNT: bool;
    /// Whether it measures what spawning, waking and switching cost: its repetitions are untraced
    /// and no idle worker is kept awake for them (that is what they measure).
    const MEASURES_COSTS: bool = false;
    /// Whether a timed sample may run it several times back to back to fill the sample floor
    /// ([`experiments::SAMPLE_FLOOR_MS`]); not for what must be seen on a first pass (the memory
    /// parked tasks take).
    const REPEATS_IN_SAMPLE: bool = true;

    /// Whether untimed warm-ups come before the timing. Work dominated by waiting needs no warm
    /// caches (a sweep of 1 ms reads would spend most of its time warming up).
    fn warms_up(&self) -> bool {
        true
    }

    /// Generate the input for `tasks` tasks (may take a while and hundreds of megabytes: on a
    /// worker, never on a browser's main thread), looking at `cancel` now and then.
    fn prepare(&self, tasks: u32, cancel: &Cancel) -> Result<Self::Input, Stopped>;

    /// The value every repetition must reproduce.
    fn expected(&self, input: &Self::Input) -> u64;

    /// Whether the repetitions' `values` are right, in words for the reader.
    fn check(&self, input: &Self::Input, values: &[u64]) -> Check {
        let expected = self.expected(input);
        let wrong = values.iter().find(|&&v| v != expected);
        Check { ok: wrong.is_none(), value: wrong.unwrap_or(&expected).to_string(), expected: expected.to_string() }
    }

    /// One repetition on the current rayon pool (Sequential or ThreadPool, if in [`Kernel::VARIANTS`]).
    fn on_pool(&self, input: &Self::Input, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let _ = (input, job, cancel);
        unreachable!("{} lists no pool variant, and `prepare` refuses variants not listed", short_name::<Self>())
    }

    /// One repetition from a root task of the job's task runtime (Goroutines, if in
    /// [`Kernel::VARIANTS`]), traced when `traced`.
    fn on_runtime(
        &self,
        input: &Arc<Self::Input>,
        job: &Job,
        handle: &Handle,
        traced: bool,
        cancel: &Cancel,
    ) -> impl Future<Output = Result<Rep, Stopped>> + Send {
        let _ = (input, job, handle, traced, cancel);
        async { unreachable!("{} does not run on the task runtime, and `prepare` refuses it", short_name::<Self>()) }
    }
}

fn short_name<T>() -> &'static str {
    std::any::type_name::<T>().rsplit("::").next().unwrap_or("this kernel")
}

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

/// A kernel of any type, as [`of`] returns it (every [`Kernel`] is one).
pub trait AnyKernel {
    /// [`Kernel::VARIANTS`].
    fn variants(&self) -> &'static [Variant];
    /// [`Kernel::INPUT_PER_TASK_COUNT`].
    fn input_per_task_count(&self) -> bool;
    /// [`Kernel::MEASURES_COSTS`].
    fn measures_costs(&self) -> bool;
    /// [`Kernel::REPEATS_IN_SAMPLE`].
    fn repeats_in_sample(&self) -> bool;
    /// [`Kernel::warms_up`].
    fn warms_up(&self) -> bool;
    /// [`Kernel::prepare`], the input kept with its kernel.
    fn prepare(&self, tasks: u32, cancel: &Cancel) -> Result<Arc<dyn Prepared>, Stopped>;
}

impl<K: Kernel> AnyKernel for K {
    fn variants(&self) -> &'static [Variant] {
        K::VARIANTS
    }
    fn input_per_task_count(&self) -> bool {
        K::INPUT_PER_TASK_COUNT
    }
    fn measures_costs(&self) -> bool {
        K::MEASURES_COSTS
    }
    fn repeats_in_sample(&self) -> bool {
        K::REPEATS_IN_SAMPLE
    }
    fn warms_up(&self) -> bool {
        Kernel::warms_up(self)
    }
    fn prepare(&self, tasks: u32, cancel: &Cancel) -> Result<Arc<dyn Prepared>, Stopped> {
        let input = Arc::new(Kernel::prepare(self, tasks, cancel)?);
        Ok(Arc::new(Ready { kernel: self.clone(), input }))
    }
}

/// A job's kernel with its input prepared: what the harness runs repetitions of.
pub trait Prepared: Send + Sync {
    /// See [`Kernel::on_pool`].
    fn on_pool(&self, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped>;
    /// See [`Kernel::on_runtime`]; never traced for a kernel that [`Kernel::MEASURES_COSTS`].
    fn on_runtime<'a>(
        &'a self,
        job: &'a Job,
        handle: &'a Handle,
        traced: bool,
        cancel: &'a Cancel,
    ) -> Pin<Box<dyn Future<Output = Result<Rep, Stopped>> + Send + 'a>>;
    /// See [`Kernel::check`].
    fn check(&self, values: &[u64]) -> Check;
    /// The input itself, for drivers that hand it out their own way (message workers).
    fn input(&self) -> &(dyn Any + Send + Sync);
}

/// A kernel and its prepared input.
struct Ready<K: Kernel> {
    kernel: K,
    input: Arc<K::Input>,
}

impl<K: Kernel> Prepared for Ready<K> {
    fn on_pool(&self, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        self.kernel.on_pool(&self.input, job, cancel)
    }
    fn on_runtime<'a>(
        &'a self,
        job: &'a Job,
        handle: &'a Handle,
        traced: bool,
        cancel: &'a Cancel,
    ) -> Pin<Box<dyn Future<Output = Result<Rep, Stopped>> + Send + 'a>> {
        Box::pin(self.kernel.on_runtime(&self.input, job, handle, traced && !K::MEASURES_COSTS, cancel))
    }
    fn check(&self, values: &[u64]) -> Check {
        self.kernel.check(&self.input, values)
    }
    fn input(&self) -> &(dyn Any + Send + Sync) {
        &*self.input
    }
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
