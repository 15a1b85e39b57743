//! What a kernel is to the engine, below both the kernels and the harness: the [`Kernel`] trait
//! every workload implements and how the harness measures it ([`Method`]), the same kernel whatever
//! its type ([`AnyKernel`], what [`crate::kernels::of`] returns), a kernel with its input prepared
//! ([`Prepared`]), a job taken step by step ([`Steps`]), and what one repetition produces
//! ([`Rep`]). The kernels implement these, [`crate::measure`] times them, the harness drives them;
//! none of those is imported here.

use crate::cancel::{Cancel, Stopped};
use crate::driver::Context;
use crate::executors::Executors;
use crate::outcome::Outcome;
use crate::runtime::Handle;
use experiments::protocol::Failure;
use experiments::{Check, Job, Measurement, Trace, Variant, WaitReport};
use std::any::Any;
use std::cell::RefCell;
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

/// How the harness measures a kernel; a kernel implements the methods of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Repetitions, each one call on a worker of the job's pool or a root task of its runtime, on an
    /// input prepared there once ([`Kernel::prepare`], [`Kernel::expected`], [`Kernel::on_pool`],
    /// [`Kernel::on_runtime`]): warmed up, timed in turns and checked by the harness.
    Repetitions,
    /// Passes the driving thread takes step by step, handing each step to the job's pool
    /// ([`Kernel::steps`]): hashing reads each slice where its bytes are (a file the page holds) and
    /// hashes it on the pool. Warmed up, timed in turns and checked like repetitions.
    Steps,
    /// Its own run, alone in its group, on executors the harness keeps ([`Kernel::measure_alone`]):
    /// a load test times requests, not repetitions.
    Alone,
}

/// What the engine runs for one workload. The kernel's value holds the workload's parameters.
pub trait Kernel: Send + Sync + Clone + 'static {
    /// The prepared input: data generated once per size, and what every repetition must reproduce
    /// (`()` for a kernel not measured by [`Method::Repetitions`]).
    type Input: Send + Sync + 'static;

    /// How the harness measures it.
    const METHOD: Method = Method::Repetitions;
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
    /// ([`Method::Repetitions`].)
    fn prepare(&self, tasks: u32, cancel: &Cancel) -> Result<Self::Input, Stopped> {
        let _ = (tasks, cancel);
        not_its_method()
    }

    /// The value every repetition must reproduce. ([`Method::Repetitions`].)
    fn expected(&self, input: &Self::Input) -> u64 {
        let _ = input;
        not_its_method()
    }

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

    /// `job`'s passes, ready to be taken step by step, its bytes opened through `cx`.
    /// ([`Method::Steps`].)
    fn steps(&self, job: &Job, cx: &Context<'_>) -> Result<Box<dyn Steps>, Failure> {
        let _ = (job, cx);
        not_its_method()
    }

    /// Measure `job` on executors kept in `executors`, alone. ([`Method::Alone`].)
    fn measure_alone(
        &self,
        job: &Job,
        executors: &RefCell<Executors>,
        cx: &Context<'_>,
    ) -> impl Future<Output = Outcome<Measurement>> {
        let _ = (job, executors, cx);
        async { not_its_method() }
    }
}

fn short_name<T>() -> &'static str {
    std::any::type_name::<T>().rsplit("::").next().unwrap_or("this kernel")
}

/// A kernel asked for a method of another [`Method`] than its own: the harness asks each kernel for
/// its own only. (Not generic, and called first in [`AnyKernel`]'s methods, so that a kernel's
/// methods of other [`Method`]s are never compiled in; without a message of its own, which would
/// weigh on the engine's download for a panic that cannot happen.)
#[cold]
fn not_its_method() -> ! {
    unreachable!()
}

/// Work handed to a worker of a job's pool.
pub type PoolWork = Box<dyn FnOnce() + Send>;

/// A job whose passes the driving thread takes step by step ([`Method::Steps`]): what each step
/// needs is read on the driving thread (hashing: a slice of a file only it can read), and the step's
/// work is handed to the job's pool. The harness takes the steps, times the passes and reports
/// progress after each step.
pub trait Steps {
    /// How many steps one pass takes.
    fn count(&self) -> u32;
    /// The work of one short untimed pass, to warm code and caches (hashing: a short slice of
    /// zeros, not a whole pass).
    fn warm_up(&self, job: &Job) -> PoolWork;
    /// Begin a pass.
    fn start(&mut self, job: &Job);
    /// Step `index` of the pass: read here what it needs, and return the work for the pool.
    fn step(&mut self, index: u32) -> Result<PoolWork, Failure>;
    /// The pass's result, once the work of all its steps is done.
    fn finish(&mut self) -> Result<Rep, Failure>;
    /// Whether the passes' values and digests are right, in words for the reader.
    fn check(&self, values: &[u64], digests: &[[u8; 32]]) -> Check;
}

/// A kernel of any type, as [`crate::kernels::of`] returns it (every [`Kernel`] is one).
pub trait AnyKernel {
    /// [`Kernel::METHOD`].
    fn method(&self) -> Method;
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
    /// [`Kernel::steps`].
    fn steps(&self, job: &Job, cx: &Context<'_>) -> Result<Box<dyn Steps>, Failure>;
    /// [`Kernel::measure_alone`].
    fn measure_alone<'a>(
        &'a self,
        job: &'a Job,
        executors: &'a RefCell<Executors>,
        cx: &'a Context<'_>,
    ) -> Pin<Box<dyn Future<Output = Outcome<Measurement>> + 'a>>;
}

impl<K: Kernel> AnyKernel for K {
    fn method(&self) -> Method {
        K::METHOD
    }
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
        if K::METHOD != Method::Repetitions {
            not_its_method();
        }
        let input = Arc::new(Kernel::prepare(self, tasks, cancel)?);
        Ok(Arc::new(Ready { kernel: self.clone(), input }))
    }
    fn steps(&self, job: &Job, cx: &Context<'_>) -> Result<Box<dyn Steps>, Failure> {
        if K::METHOD != Method::Steps {
            not_its_method();
        }
        Kernel::steps(self, job, cx)
    }
    fn measure_alone<'a>(
        &'a self,
        job: &'a Job,
        executors: &'a RefCell<Executors>,
        cx: &'a Context<'_>,
    ) -> Pin<Box<dyn Future<Output = Outcome<Measurement>> + 'a>> {
        if K::METHOD != Method::Alone {
            not_its_method();
        }
        Box::pin(Kernel::measure_alone(self, job, executors, cx))
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
