//! Figures the seed articles published, quoted as facts with their source and machine.
//!
//! These are never presented as measurements of ours: every figure carries the article it comes from
//! and the machine it was measured on, and the UI labels them as published. This crate keeps the
//! data (titles in the articles' own languages, numbers, product names); the UI names each
//! [`Article`] and describes each [`PublishedMachine`] in the reader's language.

/// The articles figures are quoted from: a stable key that the UI turns into a short label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Article {
    /// The Go scheduling series, part 3, in its Russian translation.
    SchedulingPart3Ru,
    /// The Chinese version of the concurrency article.
    ConcurrencyZh,
    /// "What is high concurrency?", in Russian.
    HighConcurrencyRu,
    /// "Go: goroutine performance", in its Hindi translation.
    GoroutinePerformanceHi,
    /// "Parallelism through goroutine concurrency", in Japanese.
    ParallelismByGoroutinesJa,
}

/// Where a published figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    /// Which article: the UI labels it in the reader's language.
    pub article: Article,
    /// The article's title as published (in its own language).
    pub title: &'static str,
    pub language: &'static str,
}

pub const SCHEDULING_RU: Source = Source {
    article: Article::SchedulingPart3Ru,
    title: "Понимание третьего планирования Golang: параллелизм",
    language: "ru",
};

pub const SCHEDULING_ZH: Source = Source { article: Article::ConcurrencyZh, title: "并发", language: "zh" };

/// The machine an article measured on, as it describes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedMachine {
    /// The processor's product name, e.g. "Apple M1 Max".
    pub processor: &'static str,
    pub cores: u32,
    /// The clock rate, when the article gives it.
    pub ghz: Option<f64>,
}

/// The Russian translation's machine.
pub const INTEL_I7_4_CORES: PublishedMachine =
    PublishedMachine { processor: "Intel Core i7", cores: 4, ghz: Some(2.9) };

/// The Chinese version's machine.
pub const APPLE_M1_MAX: PublishedMachine = PublishedMachine { processor: "Apple M1 Max", cores: 10, ghz: None };

/// One published comparison of a sequential and a concurrent run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedComparison {
    pub source: Source,
    /// The machine the article measured on.
    pub machine: PublishedMachine,
    /// `GOMAXPROCS` during the run: how many logical CPUs may run goroutines at once. Set by
    /// `go test -cpu N` when `cpu_flag` is true; otherwise Go's default, the logical CPU count
    /// (the `-8` suffix of the benchmark names shows it).
    pub gomaxprocs: u32,
    /// Whether the run passed `-cpu` (the Intel find run with all cores did not).
    pub cpu_flag: bool,
    /// Goroutines in the concurrent version: `runtime.NumCPU()` of the machine (the Chinese
    /// version's table titles say 8, but its code starts one per logical CPU, 10 on the M1 Max).
    pub goroutines: u32,
    pub sequential_ns: u64,
    pub concurrent_ns: u64,
}

impl PublishedComparison {
    /// Sequential time over concurrent time, as computed from the published ns/op.
    pub fn speedup(&self) -> f64 {
        self.sequential_ns as f64 / self.concurrent_ns as f64
    }
}

/// Summing 10 million integers: `add` versus `addConcurrent` with 8 goroutines (`go test -bench`, ns/op).
pub const SUM_10M: [PublishedComparison; 4] = [
    PublishedComparison {
        source: SCHEDULING_RU,
        machine: INTEL_I7_4_CORES,
        gomaxprocs: 1,
        cpu_flag: true,
        goroutines: 8,
        sequential_ns: 5_720_764,
        concurrent_ns: 6_387_344,
    },
    PublishedComparison {
        source: SCHEDULING_RU,
        machine: INTEL_I7_4_CORES,
        gomaxprocs: 8,
        cpu_flag: true,
        goroutines: 8,
        sequential_ns: 5_910_799,
        concurrent_ns: 3_362_643,
    },
    PublishedComparison {
        source: SCHEDULING_ZH,
        machine: APPLE_M1_MAX,
        gomaxprocs: 1,
        cpu_flag: true,
        goroutines: 10,
        sequential_ns: 3_110_058,
        concurrent_ns: 3_909_370,
    },
    PublishedComparison {
        source: SCHEDULING_ZH,
        machine: APPLE_M1_MAX,
        gomaxprocs: 10,
        cpu_flag: true,
        goroutines: 10,
        sequential_ns: 3_111_412,
        concurrent_ns: 1_001_474,
    },
];

/// The Russian high-concurrency article's server benchmark (`ab -k -c 1000 -n 1000000`, 2 cores
/// and 1 GB per container): requests per second of a thread-pool server and a coroutine server,
/// rounded to whole requests from the article's two decimals (87,222.98 is 87,223).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublishedServers {
    pub source: Source,
    /// How long each request slept, in ms: 0 is the hello-world case (the UI words each case).
    pub sleep_ms: u32,
    pub thread_pool: &'static str,
    pub thread_pool_qps: u32,
    pub coroutines: &'static str,
    pub coroutines_qps: u32,
    /// Memory the thread-pool server used, at least this many MB (the article writes "600+").
    pub thread_pool_memory_mb: u32,
    /// Memory the coroutine server used, at least this many MB.
    pub coroutines_memory_mb: u32,
}

pub const HIGH_CONCURRENCY_RU: Source =
    Source {
        article: Article::HighConcurrencyRu, title: "Что такое высокий параллелизм?", language: "ru"
    };

pub const GOROUTINE_PERFORMANCE_HI: Source =
    Source {
        article: Article::GoroutinePerformanceHi, title: "जाओ: गोरोइन प्रदर्शन", language: "hi"
    };

/// One point of the Hindi article's batching advice, measured on one thread (`GOMAXPROCS=1`): work
/// of `sqrt_per_task` square roots per goroutine loses about `loss_percent` % against a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchingLoss {
    pub sqrt_per_task: u32,
    pub loss_percent: u32,
}

/// The Hindi article's advice: bundle 10 or 100 small pieces into one goroutine and lose about
/// 20 % or 2 %.
pub const BATCHING_LOSS_HI: [BatchingLoss; 2] =
    [BatchingLoss { sqrt_per_task: 10, loss_percent: 20 }, BatchingLoss { sqrt_per_task: 100, loss_percent: 2 }];

/// The most goroutines at once on the Hindi article's task-count axis.
pub const MOST_GOROUTINES_HI: u32 = 700_000;

pub const PARALLELISM_BY_GOROUTINES_JA: Source = Source {
    article: Article::ParallelismByGoroutinesJa,
    title: "Goroutine の並行処理によって並列処理を実現する",
    language: "ja",
};

/// Requests the load generator kept in flight in every server test (`ab -c 1000`).
pub const QPS_IN_FLIGHT: u32 = 1_000;

pub const QPS: [PublishedServers; 2] = [
    PublishedServers {
        source: HIGH_CONCURRENCY_RU,
        sleep_ms: 0,
        thread_pool: "Java + Netty",
        thread_pool_qps: 84_042,
        coroutines: "PHP + Swoole",
        coroutines_qps: 87_223,
        thread_pool_memory_mb: 600,
        coroutines_memory_mb: 30,
    },
    PublishedServers {
        source: HIGH_CONCURRENCY_RU,
        sleep_ms: 10,
        thread_pool: "Java + Netty",
        thread_pool_qps: 1_563,
        coroutines: "PHP + Swoole",
        coroutines_qps: 9_745,
        thread_pool_memory_mb: 100,
        coroutines_memory_mb: 30,
    },
];

/// How long each document read in the published search slept, in ms.
pub const FIND_READ_SLEEP_MS: u32 = 1;

/// How many documents the published search read (one sleep each).
pub const FIND_DOCUMENTS: u32 = 1_000;

/// Searching 1,000 RSS documents, each read waiting 1 ms: `find` versus `findConcurrent` with 8
/// goroutines (`go test -bench`, ns/op). (The Russian text's table titles say 10,000 documents.)
pub const FIND_1000: [PublishedComparison; 4] = [
    PublishedComparison {
        source: SCHEDULING_RU,
        machine: INTEL_I7_4_CORES,
        gomaxprocs: 1,
        cpu_flag: true,
        goroutines: 8,
        sequential_ns: 1_483_458_120,
        concurrent_ns: 188_941_855,
    },
    PublishedComparison {
        source: SCHEDULING_RU,
        machine: INTEL_I7_4_CORES,
        gomaxprocs: 8,
        cpu_flag: false,
        goroutines: 8,
        sequential_ns: 1_490_947_198,
        concurrent_ns: 187_382_200,
    },
    PublishedComparison {
        source: SCHEDULING_ZH,
        machine: APPLE_M1_MAX,
        gomaxprocs: 1,
        cpu_flag: true,
        goroutines: 10,
        sequential_ns: 1_273_483_639,
        concurrent_ns: 123_174_867,
    },
    PublishedComparison {
        source: SCHEDULING_ZH,
        machine: APPLE_M1_MAX,
        gomaxprocs: 10,
        cpu_flag: true,
        goroutines: 10,
        sequential_ns: 1_302_326_097,
        concurrent_ns: 133_926_031,
    },
];

/// The sequential search timed again right after each run of [`FIND_1000`], in the same order
/// (`BenchmarkSequentialAgain`, ns/op): the articles ran every benchmark twice and published both.
pub const FIND_1000_SEQUENTIAL_AGAIN_NS: [u64; 4] = [1_502_682_536, 1_416_126_029, 1_269_836_431, 1_267_427_764];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_find_shows_about_eight_times_with_eight_goroutines_on_any_core_count() {
        for row in FIND_1000 {
            assert!((7.0..11.0).contains(&row.speedup()), "{row:?}");
        }
    }

    #[test]
    fn published_sum_directions_match_the_articles() {
        // On one core the concurrent version lost; with all cores it won.
        assert!(SUM_10M[0].speedup() < 1.0 && SUM_10M[2].speedup() < 1.0);
        assert!(SUM_10M[1].speedup() > 1.5 && SUM_10M[3].speedup() > 3.0);
    }
}
