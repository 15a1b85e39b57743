//! Inputs prepared once per size, outside the timing, and the answer each job must reproduce.

use crate::cancel::{Cancel, Stopped};
use experiments::Workload;
use std::sync::{Arc, Mutex};
use workloads::data::random_number_stream;
use workloads::docsearch::{generate_corpus, DEFAULT_TOPIC};
use workloads::granularity::expected_total;
use workloads::sort::random_values;
use workloads::spin::spin;
use workloads::sum::sum;

/// How many numbers are generated between two looks at the stop flag.
const GENERATE_BLOCK: usize = 1 << 20;

/// A prepared input and its expected result.
pub enum Input {
    Sum {
        numbers: Vec<i32>,
        expected: i64,
    },
    /// Spin tasks need no data; the expected value is the wrapping sum of every task's result.
    Spin {
        expected: u64,
    },
    /// Documents to search for [`DEFAULT_TOPIC`] and the number of matching items among them.
    DocSearch {
        documents: Vec<String>,
        expected: u64,
    },
    /// Values to sort (each run sorts a fresh copy) and the digest of the correctly sorted list.
    Sort {
        values: Vec<i32>,
        expected: u64,
    },
    /// Work with no data, only a result to reproduce (scenarios, granularity, memory, ping-pong).
    Expected {
        expected: u64,
    },
}

/// An order-sensitive digest of a list: equal for two lists only if (almost surely) they are equal.
pub fn digest(values: &[i32]) -> u64 {
    values.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &v| (hash ^ v as u32 as u64).wrapping_mul(0x0100_0000_01b3))
}

impl Input {
    /// The result every run must reproduce.
    pub fn expected(&self) -> u64 {
        match *self {
            Input::Sum { expected, .. } => expected as u64,
            Input::Spin { expected }
            | Input::DocSearch { expected, .. }
            | Input::Sort { expected, .. }
            | Input::Expected { expected } => expected,
        }
    }
}

/// What identifies an input: the workload and, for per-task work, the task count.
#[derive(Clone, PartialEq, Eq, Debug)]
struct InputKey {
    workload: Workload,
    tasks: u32,
}

/// The most recent input, kept so that repeated runs (and every worker count of a sweep) reuse it.
static CACHE: Mutex<Option<(InputKey, Arc<Input>)>> = Mutex::new(None);

/// The seed of spin task `task`: each task does different (but reproducible) work.
pub fn spin_seed(task: u32) -> u64 {
    0x9E37_79B9_7F4A_7C15 ^ task as u64
}

/// Prepare (or reuse) the input of `workload` with `tasks` tasks. Must run on a worker, never on a
/// browser's main thread: it may allocate hundreds of megabytes and take a while.
pub fn prepare(workload: &Workload, tasks: u32, cancel: &Cancel) -> Result<Arc<Input>, Stopped> {
    let key = InputKey {
        workload: workload.clone(),
        tasks: if matches!(workload, Workload::Sum { .. } | Workload::DocSearch { .. } | Workload::Sort { .. }) {
            0
        } else {
            tasks
        },
    };
    let mut cache = CACHE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((cached_key, input)) = cache.as_ref() {
        if *cached_key == key {
            return Ok(input.clone());
        }
    }
    // Free the old input before building the new one, so two large inputs never coexist.
    *cache = None;
    let input = match *workload {
        Workload::Sum { numbers, seed } => {
            let len = numbers as usize;
            let mut data = Vec::with_capacity(len);
            let mut stream = random_number_stream(seed);
            while data.len() < len {
                cancel.check()?;
                let block = GENERATE_BLOCK.min(len - data.len());
                data.extend(stream.by_ref().take(block));
            }
            let expected = sum(&data);
            Input::Sum { numbers: data, expected }
        }
        Workload::Spin { units } => {
            let mut expected = 0u64;
            for task in 0..tasks {
                cancel.check()?;
                expected = expected.wrapping_add(spin(units, spin_seed(task)));
            }
            Input::Spin { expected }
        }
        Workload::Scenario { .. } | Workload::TaskMemory => Input::Expected { expected: tasks as u64 },
        // Hashing streams its data and servers need no input: both run their own loops.
        Workload::Hash { .. } | Workload::Qps { .. } => Input::Expected { expected: 0 },
        Workload::Granularity { sqrt } => Input::Expected { expected: expected_total(sqrt, tasks) },
        Workload::PingPong { round_trips } => Input::Expected { expected: round_trips as u64 },
        Workload::Sort { numbers, seed, .. } => {
            cancel.check()?;
            let values = random_values(numbers as usize, seed);
            let mut sorted = values.clone();
            sorted.sort_unstable();
            Input::Sort { expected: digest(&sorted), values }
        }
        Workload::DocSearch { documents, seed, .. } => {
            cancel.check()?;
            let corpus = generate_corpus(documents as usize, seed, DEFAULT_TOPIC, None);
            Input::DocSearch { documents: corpus.documents, expected: corpus.expected_matches }
        }
    };
    let input = Arc::new(input);
    *cache = Some((key, input.clone()));
    Ok(input)
}
