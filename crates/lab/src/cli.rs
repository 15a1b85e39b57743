//! The command line of `lab`: its subcommands, their options and defaults, and how counts are read.
//!
//! Defaults are the browser chapters' defaults (each experiment's knobs in its `experiments::catalog` module), so `lab sum` with no options
//! measures what the Sum chapter measures when the reader just presses Run.

use clap::{Args, Parser, Subcommand};
use experiments::catalog::{
    bubble_sort as sort, demo, document_search as docsearch, hashing, qps, shared_total, sum, task_granularity,
    task_switch,
};
use experiments::params::parse_count;
use std::path::PathBuf;

/// Repetitions of the demo: the chapter's demo always times three runs.
pub const DEMO_REPETITIONS: u32 = 3;

/// Run Concurrency Lab's experiments natively, on OS threads, and print them like `go test -bench`.
#[derive(Debug, Parser)]
#[command(name = "lab", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Experiment,
    /// Print the measurements as JSON instead of a table.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum Experiment {
    /// Sum n random integers: one plain loop, then t tasks on each worker count k.
    Sum(SumOptions),
    /// Add n random integers into one total on each worker count k, one task per worker: private
    /// sums added at the end, one shared atomic counter, and counters side by side in a cache line.
    SharedTotal(SharedTotalOptions),
    /// Spin t tasks of pure CPU work on each worker count k ("concurrency is not parallelism").
    Demo(DemoOptions),
    /// Search RSS documents with a blocking read each: threads (reads block) versus goroutines
    /// (reads park) for every worker count k and task count t.
    Docsearch(DocsearchOptions),
    /// Sort random integers: bubble sort as one loop, then its parallel rivals on each worker count k.
    Sort(SortOptions),
    /// What a task costs: t tiny tasks as a loop, on a thread pool and as goroutines, for each task
    /// size; then a turn handed back and forth between two threads and between two goroutines.
    Cost(CostOptions),
    /// SHA-256 of a file (or generated data), h independent hashes, as a loop and on each worker count k.
    Hash(HashOptions),
    /// Load-test a server whose requests compute, then block: a thread pool versus goroutines.
    Qps(QpsOptions),
}

#[derive(Debug, Args)]
pub struct SortOptions {
    /// Worker counts k to measure, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "1,2")]
    pub workers: Vec<u32>,
    /// Tasks t (chunks or runs) the list is split into.
    #[arg(long, value_parser = count::<u32>, default_value_t = sort::TASKS.default as u32)]
    pub tasks: u32,
    /// How many integers to sort.
    #[arg(long, value_parser = count::<u32>, default_value_t = sort::NUMBERS.default as u32)]
    pub n: u32,
    /// Timed repetitions of each job (after one untimed warm-up).
    #[arg(long, value_parser = count::<u32>, default_value_t = sort::REPETITIONS.default as u32)]
    pub reps: u32,
}

#[derive(Debug, Args)]
pub struct CostOptions {
    /// Workers of the thread pool and of the goroutine runtime.
    #[arg(long, value_parser = count::<u32>, default_value_t = 2)]
    pub workers: u32,
    /// Tasks t per run.
    #[arg(long, value_parser = count::<u32>, default_value_t = task_granularity::TASKS.default as u32)]
    pub tasks: u32,
    /// Task sizes: square roots each task computes, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "1,100,5000")]
    pub sqrt: Vec<u32>,
    /// Round trips of the turn handed between two threads or two goroutines (0 skips it).
    #[arg(long, value_parser = count::<u32>, default_value_t = task_switch::ROUND_TRIPS.default as u32)]
    pub trips: u32,
    /// Timed repetitions of each job.
    #[arg(long, value_parser = count::<u32>, default_value_t = task_granularity::REPETITIONS.default as u32)]
    pub reps: u32,
}

#[derive(Debug, Args)]
pub struct HashOptions {
    /// Worker counts k to measure, comma-separated (the article compared 1, 4 and 16).
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "1,4,16")]
    pub workers: Vec<u32>,
    /// Independent hashes h of the data: the tasks.
    #[arg(long, value_parser = count::<u32>, default_value_t = hashing::HASHES.default as u32)]
    pub hashes: u32,
    /// Hash this file instead of generated data.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Size of the generated data in MB (ignored with --file).
    #[arg(long, value_parser = count::<u64>, default_value_t = hashing::SIZE_MB.default)]
    pub mb: u64,
    /// Timed repetitions of each job.
    #[arg(long, value_parser = count::<u32>, default_value_t = hashing::REPETITIONS.default as u32)]
    pub reps: u32,
}

#[derive(Debug, Args)]
pub struct QpsOptions {
    /// Worker counts to measure, comma-separated: threads of the pool, and workers under the goroutines.
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "2")]
    pub workers: Vec<u32>,
    /// Requests per load test.
    #[arg(long, value_parser = count::<u32>, default_value_t = qps::REQUESTS.default as u32)]
    pub requests: u32,
    /// Requests in flight at once (the load generator's connections).
    #[arg(long, value_parser = count::<u32>, default_value_t = qps::CONCURRENCY.default as u32)]
    pub concurrency: u32,
    /// CPU work per request, in microseconds.
    #[arg(long, value_parser = count::<u32>, default_value_t = qps::WORK_US.default as u32)]
    pub work_us: u32,
    /// Blocking wait per request (a database or disk), in milliseconds.
    #[arg(long, value_parser = count::<u32>, default_value_t = qps::WAIT_MS.default as u32)]
    pub wait_ms: u32,
    /// Timed repetitions of each job.
    #[arg(long, value_parser = count::<u32>, default_value_t = qps::REPETITIONS.default as u32)]
    pub reps: u32,
}

#[derive(Debug, Args)]
pub struct DocsearchOptions {
    /// Worker counts k to measure, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "1,2,8")]
    pub workers: Vec<u32>,
    /// Task counts t to measure, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "8,64")]
    pub tasks: Vec<u32>,
    /// How many RSS documents to search.
    #[arg(long, value_parser = count::<u32>, default_value_t = docsearch::DOCUMENTS.default as u32)]
    pub docs: u32,
    /// How long each read waits, in milliseconds.
    #[arg(long, value_parser = count::<u32>, default_value_t = docsearch::LATENCY_MS.default as u32)]
    pub latency_ms: u32,
    /// Timed repetitions of each job.
    #[arg(long, value_parser = count::<u32>, default_value_t = docsearch::REPETITIONS.default as u32)]
    pub reps: u32,
}

#[derive(Debug, Args)]
pub struct SumOptions {
    /// Worker counts k to measure, comma-separated (e.g. 1,2,4).
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "1,2")]
    pub workers: Vec<u32>,
    /// Tasks t the numbers are split into.
    #[arg(long, value_parser = count::<u32>, default_value_t = sum::TASKS.default as u32)]
    pub tasks: u32,
    /// How many numbers to add (10000000, 10_000_000 and 1e7 all work).
    #[arg(long, value_parser = count::<u64>, default_value_t = sum::NUMBERS.default)]
    pub n: u64,
    /// Timed repetitions of each job (after one untimed warm-up).
    #[arg(long, value_parser = count::<u32>, default_value_t = sum::REPETITIONS.default as u32)]
    pub reps: u32,
}

#[derive(Debug, Args)]
pub struct SharedTotalOptions {
    /// Worker counts k to measure, comma-separated (one task each; at most 8, the counters of a cache line).
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "1,2")]
    pub workers: Vec<u32>,
    /// How many numbers to add.
    #[arg(long, value_parser = count::<u64>, default_value_t = shared_total::NUMBERS.default)]
    pub n: u64,
    /// Timed repetitions of each job (after one untimed warm-up).
    #[arg(long, value_parser = count::<u32>, default_value_t = shared_total::REPETITIONS.default as u32)]
    pub reps: u32,
}

#[derive(Debug, Args)]
pub struct DemoOptions {
    /// Worker counts k to measure, comma-separated; 1 worker is always measured as the baseline.
    #[arg(long, value_delimiter = ',', value_parser = count::<u32>, default_value = "1,4")]
    pub workers: Vec<u32>,
    /// Tasks t, each doing `units` units of work.
    #[arg(long, value_parser = count::<u32>, default_value_t = demo::TASKS.default as u32)]
    pub tasks: u32,
    /// Size of each task in spin units.
    #[arg(long, value_parser = count::<u32>, default_value_t = demo::UNITS.default as u32)]
    pub units: u32,
    /// Timed repetitions of each job (after one untimed warm-up).
    #[arg(long, value_parser = count::<u32>, default_value_t = DEMO_REPETITIONS)]
    pub reps: u32,
}

/// Read a whole, non-negative count written the way the UI accepts it: `10000000`, `10_000_000`,
/// `10,000,000`, `1e7`. Range limits are checked later, on the job, by `Job::validate`.
pub fn count<T: TryFrom<u64>>(raw: &str) -> Result<T, String> {
    let value = parse_count(raw).ok_or_else(|| "not a number (write e.g. 10000000, 10_000_000 or 1e7)".to_string())?;
    if value < 0.0 {
        return Err("must not be negative".into());
    }
    if value.fract() != 0.0 {
        return Err("must be a whole number".into());
    }
    // 2^64 is the first f64 that no longer fits in a u64.
    let too_large = || "is too large".to_string();
    if value >= 18_446_744_073_709_551_616.0 {
        return Err(too_large());
    }
    T::try_from(value as u64).map_err(|_| too_large())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn counts_in_every_spelling_the_ui_accepts() {
        for raw in ["10000000", "10_000_000", "10,000,000", "1e7", " 1e7 ", "1.0e7"] {
            assert_eq!(count::<u64>(raw), Ok(10_000_000), "{raw}");
        }
        assert_eq!(count::<u32>("0"), Ok(0));
    }

    #[test]
    fn unreadable_counts_are_errors_not_panics() {
        assert!(count::<u64>("ten").unwrap_err().contains("not a number"));
        assert!(count::<u64>("-3").unwrap_err().contains("negative"));
        assert!(count::<u64>("2.5").unwrap_err().contains("whole"));
        assert!(count::<u32>("5e9").unwrap_err().contains("too large"));
        assert!(count::<u64>("1e30").unwrap_err().contains("too large"));
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn sum_reads_lists_and_scientific_counts() {
        let cli = Cli::try_parse_from(["lab", "sum", "--workers", "1,2", "--n", "1e6", "--json"]).expect("valid");
        assert!(cli.json);
        let Experiment::Sum(options) = cli.command else { panic!("sum expected") };
        assert_eq!(options.workers, vec![1, 2]);
        assert_eq!(options.n, 1_000_000);
        assert_eq!(options.tasks, sum::TASKS.default as u32);
        assert_eq!(options.reps, sum::REPETITIONS.default as u32);
    }

    #[test]
    fn sum_defaults_are_the_chapters_defaults() {
        let cli = Cli::try_parse_from(["lab", "sum"]).expect("valid");
        let Experiment::Sum(options) = cli.command else { panic!("sum expected") };
        assert_eq!(options.workers, vec![1, sum::workers(1).default as u32]);
        assert_eq!(
            (options.tasks, options.n, options.reps),
            (sum::TASKS.default as u32, sum::NUMBERS.default, sum::REPETITIONS.default as u32)
        );
        assert!(!cli.json);
    }

    #[test]
    fn demo_defaults_are_the_chapters_defaults() {
        let cli = Cli::try_parse_from(["lab", "demo"]).expect("valid");
        let Experiment::Demo(options) = cli.command else { panic!("demo expected") };
        // The chapter's default on a machine with cores to spare (a page never starts with more
        // workers than its machine has cores; the CLI names the article's four).
        assert_eq!(options.workers, vec![1, demo::workers(64).default as u32]);
        assert_eq!((options.tasks, options.units, options.reps), (4, 20_000, DEMO_REPETITIONS));
    }

    #[test]
    fn docsearch_defaults_measure_one_two_and_eight_workers() {
        let cli = Cli::try_parse_from(["lab", "docsearch", "--latency-ms", "2"]).expect("valid");
        let Experiment::Docsearch(options) = cli.command else { panic!("docsearch expected") };
        assert_eq!((options.workers, options.tasks), (vec![1, 2, 8], vec![8, 64]));
        assert_eq!((options.docs, options.latency_ms), (1000, 2));
    }

    #[test]
    fn new_subcommands_default_to_their_chapters() {
        let cli = Cli::try_parse_from(["lab", "hash", "--file", "/tmp/x", "--workers", "1,2"]).expect("valid");
        let Experiment::Hash(options) = cli.command else { panic!("hash expected") };
        assert_eq!(options.file.as_deref(), Some(std::path::Path::new("/tmp/x")));
        assert_eq!((options.workers, options.hashes), (vec![1, 2], 30));
        let cli = Cli::try_parse_from(["lab", "qps", "--wait-ms", "5"]).expect("valid");
        let Experiment::Qps(options) = cli.command else { panic!("qps expected") };
        assert_eq!((options.wait_ms, options.concurrency, options.requests), (5, 50, 500));
        let cli = Cli::try_parse_from(["lab", "cost", "--sqrt", "1,10"]).expect("valid");
        let Experiment::Cost(options) = cli.command else { panic!("cost expected") };
        assert_eq!((options.sqrt, options.tasks), (vec![1, 10], 10_000));
        let cli = Cli::try_parse_from(["lab", "sort", "--n", "2e3"]).expect("valid");
        let Experiment::Sort(options) = cli.command else { panic!("sort expected") };
        assert_eq!((options.n, options.tasks), (2_000, 8));
    }

    #[test]
    fn bad_values_are_usage_errors() {
        let error = Cli::try_parse_from(["lab", "sum", "--workers", "1,x"]).unwrap_err();
        assert_eq!(error.exit_code(), 2);
    }
}
