//! What a kernel is to the engine, below both the kernels and the harness: the [`Kernel`] trait
//! every workload implements, the same kernel whatever its type ([`AnyKernel`], what
//! [`crate::kernels::of`] returns), a kernel with its input prepared ([`Prepared`]), and what one
//! repetition produces ([`Rep`]). The kernels implement these, [`crate::measure`] times them, the
//! harness drives them; none of those is imported here.

use crate::cancel::{Cancel, Stopped};
use crate::runtime::Handle;
use experiments::{Check, Job, Trace, Variant, WaitReport};
use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// What one repetition produced.
pub struct Rep {
    /// The result to check against the expected one.
    pub value: u64,
    /// Its trace; `trace.wall_ms` is the repetition's time.
    pub trace: Trace,
    /// Digests of a hashing repetition (empty otherwise).
    pub digests: Vec<[u8; 32]>,
    /// Heap bytes held per parked task, for the parked-task memory job.
    pub held_per_task: Option<f64>,
    /// How long its blocking waits asked for and took, for jobs whose tasks block on one.
    pub waits: Option<WaitReport>,
}

impl Rep {
    /// A repetition whose value is `value`.
    pub fn new(value: u64, trace: Trace) -> Rep {
        Rep { value, trace, digests: Vec::new(), held_per_task: None, waits: None }
    }

    /// A repetition whose value is the wrapping sum of its tasks' values; stopped if any task was.
    pub fn of_tasks(values: Vec<Option<u64>>, trace: Trace) -> Result<Rep, Stopped> {
        let value = values.into_iter().try_fold(0u64, |sum, v| v.map(|v| sum.wrapping_add(v)).ok_or(Stopped))?;
        Ok(Rep::new(value, trace))
    }
}

/// Every variant: a plain loop, tasks on a rayon pool, tasks on the task runtime.
pub const ALL_VARIANTS: &[Variant] = &[Variant::Sequential, Variant::ThreadPool, Variant::Goroutines];

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
