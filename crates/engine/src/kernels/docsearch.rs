//! The document search chapter's kernel: count the items about a topic in generated RSS documents,
//! each read first waiting a while. A thread that waits blocks its worker; a task parks.

use crate::cancel::{Cancel, Stopped};
use crate::clock::now_ms;
use crate::kernel_api::{Kernel, Rep, ALL_VARIANTS};
use crate::measure::{spawn_tasks, traced_on_runtime, traced_sequential, traced_tasks};
use crate::runtime::{self, Handle};
use experiments::{Job, Variant, WaitReport};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use workloads::docsearch::{count_matching_items, generate_corpus, DEFAULT_TOPIC};

/// Search `documents` documents generated from `seed`, each read waiting `latency_us` first.
#[derive(Clone)]
pub struct DocSearch {
    pub documents: u32,
    pub latency_us: u32,
    pub seed: u64,
}

/// Documents to search for [`DEFAULT_TOPIC`] and the number of matching items among them.
pub struct Corpus {
    documents: Vec<String>,
    expected: u64,
}

// lesson-code: docsearch/read-and-search
fn search(document: &str) -> u64 {
    // A malformed document counts as an error and is skipped; generated corpora have none.
    count_matching_items(document, DEFAULT_TOPIC).map_or(0, u64::from)
}

/// A blocking wait that holds the current thread, like a read system call. `waits` keeps how long
/// it really took: a sleep never ends early, and usually ends late.
fn blocking_read(latency_us: u32, waits: &Waits) {
    if latency_us > 0 {
        let start = now_ms();
        crate::threads::block_for(Duration::from_micros(latency_us as u64));
        waits.record(now_ms() - start);
    }
}
// lesson-code-end

/// The blocking waits of one repetition, from any of its threads: how many, how long in all, the
/// longest (in nanoseconds).
#[derive(Default)]
struct Waits {
    count: AtomicU64,
    total_ns: AtomicU64,
    longest_ns: AtomicU64,
}

impl Waits {
    fn record(&self, waited_ms: f64) {
        let ns = (waited_ms.max(0.0) * 1e6).round() as u64;
        self.count.fetch_add(1, Ordering::Relaxed);
        self.total_ns.fetch_add(ns, Ordering::Relaxed);
        self.longest_ns.fetch_max(ns, Ordering::Relaxed);
    }

    fn report(&self, asked_us: u32) -> Option<WaitReport> {
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        WaitReport::from_totals(asked_us, load(&self.count), load(&self.total_ns), load(&self.longest_ns))
    }
}

impl DocSearch {
    /// One repetition of the Sequential or ThreadPool variant, its blocking waits timed in `waits`.
    fn read_and_search_on_pool(
        &self,
        input: &Corpus,
        job: &Job,
        cancel: &Cancel,
        waits: &Waits,
    ) -> Result<Rep, Stopped> {
        let keep_going = || !cancel.is_stopped();
        let (documents, latency) = (&input.documents, self.latency_us);
        // lesson-code: docsearch/sequential
        if job.variant == Variant::Sequential {
            return traced_sequential(|| {
                documents.iter().try_fold(0u64, |found, doc| {
                    keep_going().then(|| {
                        blocking_read(latency, waits);
                        found + search(doc)
                    })
                })
            });
        }
        // lesson-code-end
        // lesson-code: docsearch/pool
        // Like the articles' version: the tasks take documents from one shared queue.
        let next = AtomicUsize::new(0);
        traced_tasks(job.tasks as usize, |_| {
            let mut found = 0;
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(doc) = documents.get(index) else { return Some(found) };
                if !keep_going() {
                    return None;
                }
                blocking_read(latency, waits);
                found += search(doc);
            }
        })
        // lesson-code-end
    }
}

impl Kernel for DocSearch {
    type Input = Corpus;
    const VARIANTS: &'static [Variant] = ALL_VARIANTS;
    const INPUT_PER_TASK_COUNT: bool = false;

    /// Reads that wait need no warm caches, and a sweep of 1 ms reads would mostly warm up.
    fn warms_up(&self) -> bool {
        self.latency_us == 0
    }

    fn prepare(&self, _tasks: u32, cancel: &Cancel) -> Result<Corpus, Stopped> {
        cancel.check()?;
        let corpus = generate_corpus(self.documents as usize, self.seed, DEFAULT_TOPIC, None);
        Ok(Corpus { documents: corpus.documents, expected: corpus.expected_matches })
    }

    fn expected(&self, input: &Corpus) -> u64 {
        input.expected
    }

    fn on_pool(&self, input: &Corpus, job: &Job, cancel: &Cancel) -> Result<Rep, Stopped> {
        let waits = Waits::default();
        let mut rep = self.read_and_search_on_pool(input, job, cancel, &waits)?;
        rep.waits = waits.report(self.latency_us);
        Ok(rep)
    }

    async fn on_runtime(
        &self,
        input: &Arc<Corpus>,
        job: &Job,
        handle: &Handle,
        traced: bool,
        cancel: &Cancel,
    ) -> Result<Rep, Stopped> {
        // lesson-code: docsearch/goroutines
        let latency_us = self.latency_us;
        let run = async {
            let next_document = Arc::new(AtomicUsize::new(0));
            spawn_tasks(job.tasks.max(1), cancel, |_| {
                let (input, next_document, cancel) = (input.clone(), next_document.clone(), cancel.clone());
                async move {
                    let mut found = 0;
                    loop {
                        let index = next_document.fetch_add(1, Ordering::Relaxed);
                        let Some(doc) = input.documents.get(index) else { break };
                        if cancel.is_stopped() {
                            break;
                        }
                        if latency_us > 0 {
                            // The simulated read: the task parks, its worker runs other tasks.
                            runtime::sleep(Duration::from_micros(latency_us as u64)).await;
                        }
                        found += search(doc);
                    }
                    Some(found)
                }
            })
            .await
        };
        traced_on_runtime(handle, traced, run).await
        // lesson-code-end
    }
}
