//! The sum chapter's kernel: add n random integers in one loop, or split evenly into t tasks.

use crate::cancel::{Cancel, Stopped};
use crate::kernel_api::{Kernel, Rep, ALL_VARIANTS};
use crate::measure::{spawn_tasks, traced_on_runtime, traced_sequential, traced_tasks};
use crate::runtime::Handle;
use experiments::{Job, Variant};
use std::sync::Arc;
use workloads::data::random_number_stream;
use workloads::split::even_ranges;
use workloads::sum::{sum, sum_cancellable};

/// How many numbers are generated between two looks at the stop flag.
const GENERATE_BLOCK: usize = 1 << 20;

/// Add `numbers` random integers generated from `seed`.
#[derive(Clone)]
pub struct Sum {
    pub numbers: u64,
    pub seed: u64,
}

/// The numbers to add and their sum.
pub struct Numbers {
    pub numbers: Vec<i32>,
    pub expected: i64,
}

impl Numbers {
    /// `numbers` random integers generated from `seed`, and their sum, looking at `cancel` now and then.
    pub fn generate(numbers: u64, seed: u64, cancel: &Cancel) -> Result<Numbers, Stopped> {
        let len = numbers as usize;
        let mut data = Vec::with_capacity(len);
        let mut stream = random_number_stream(seed);
        while data.len() < len {
            cancel.check()?;
            let block = GENERATE_BLOCK.min(len - data.len());
            data.extend(stream.by_ref().take(block));
        }
        let expected = sum(&data);
        Ok(Numbers { numbers: data, expected })
    }
}

impl Kernel for Sum {
    type Input = Numbers;
    const VARIANTS: &'static [Variant] = ALL_VARIANTS;
    const INPUT_PER_TASK_COUNT: bool = false;

    fn prepare(&self, _tasks: u32, cancel: &Cancel) -> Result<Numbers, Stopped> {
        Numbers::generate(self.numbers, self.seed, cancel)
    }

    fn expected(&self, input: &Numbers) -> u64 {
        input.expected as u64
    }

    fn on_pool(&self, input: &Numbers, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let keep_going = || !cancel.is_stopped();
        let numbers = &input.numbers;
        if job.variant == Variant::Sequential {
            return traced_sequential(|| sum_cancellable(numbers, keep_going).map(|s| s as u64));
        }
        // lesson-code: sum/pool
        let ranges = even_ranges(numbers.len(), job.tasks as usize);
        traced_tasks(ranges.len(), |task| sum_cancellable(&numbers[ranges[task].clone()], keep_going).map(|s| s as u64))
        // lesson-code-end
    }

    async fn on_runtime(
        &self,
        input: &Arc<Numbers>,
        job: &Job,
        handle: &Handle,
        traced: bool,
        cancel: &Cancel,
    ) -> Result<Rep, Stopped> {
        // lesson-code: sum/goroutines
        let tasks = job.tasks.max(1);
        let run = async {
            let ranges = Arc::new(even_ranges(input.numbers.len(), tasks as usize));
            spawn_tasks(tasks, cancel, |task| {
                let (input, ranges, cancel) = (input.clone(), ranges.clone(), cancel.clone());
                async move {
                    ranges.get(task as usize).map_or(Some(0), |r| {
                        sum_cancellable(&input.numbers[r.clone()], || !cancel.is_stopped()).map(|s| s as u64)
                    })
                }
            })
            .await
        };
        traced_on_runtime(handle, traced, run).await
        // lesson-code-end
    }
}
