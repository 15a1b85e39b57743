//! The hashing chapter: t independent SHA-256 hashes of generated data or a picked file, as a loop
//! and on k workers (or the article's 1, 4 and 16).

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{Experiment, ExperimentId, KnobReader, Machine, Query, Runs, EVERY_MODE};
use crate::job::{HashSource, Job, Variant, Workload, DEFAULT_SEED};
use crate::params::{at_most_cores, max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
/// t: how many independent SHA-256 hashes of the data (the article hashed 30 times).
pub const HASHES: ParamRange = ParamRange::new("hashes", 1, 64, 30);

/// Size of the generated data, in megabytes.
pub const SIZE_MB: ParamRange = ParamRange::new("mb", 1, 4_096, 16);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 10, 1);

/// Bytes read and hashed at a time.
pub const SLICE_BYTES: u32 = 4 << 20;

/// The article's worker counts.
pub const PRESET_WORKERS: [u32; 3] = [1, 4, 16];

/// Four workers, as in the article, where the machine has four cores; never more than it has.
pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency), at_most_cores(4, hardware_concurrency))
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::Hashing,
    chapter: "hashing",
    quick: "mb=2&hashes=4&workers=2",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: true,
    measures_page_memory: false,
    variants: &[Variant::Sequential, Variant::ThreadPool],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// `source=generated` or `source=file`.
pub const SOURCES: [&str; 2] = ["generated", "file"];
const MB: u64 = 1 << 20;

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// One of [`SOURCES`].
    pub source: &'static str,
    pub size_mb: u64,
    pub hashes: u32,
    pub workers: u32,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            ("source", self.source.to_string()),
            (SIZE_MB.key, self.size_mb.to_string()),
            (HASHES.key, self.hashes.to_string()),
            (workers(1).key, self.workers.to_string()),
            (REPETITIONS.key, self.repetitions.to_string()),
        ]
    }
}

/// The worker range on a machine of `cores` logical processors. Message-passing workers make every
/// worker count real, so it does not shrink without shared memory.
pub fn workers_range(cores: u32) -> ParamRange {
    workers(cores)
}

impl super::ExperimentSettings for Settings {
    const ID: ExperimentId = EXPERIMENT.id;

    fn read(r: &mut dyn KnobReader, machine: Machine) -> Self {
        read(r, machine)
    }

    fn query(&self) -> Query {
        Settings::query(self)
    }
}

/// The knobs, in the panel's order.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    Settings {
        source: r.choice("source", &SOURCES, "generated"),
        size_mb: r.value(&SIZE_MB),
        hashes: r.value(&HASHES) as u32,
        workers: r.value(&workers_range(machine.cores)) as u32,
        repetitions: r.value(&REPETITIONS) as u32,
    }
}

/// The generated data of `s`.
pub fn generated(s: &Settings) -> HashSource {
    HashSource::Generated { bytes: s.size_mb * MB, seed: DEFAULT_SEED }
}

/// The hashes of `source` as one loop (`Variant::Sequential`) or as tasks on `workers` workers.
pub fn job(s: &Settings, source: &HashSource, variant: Variant, workers: u32) -> Job {
    Job {
        workload: Workload::Hash { source: source.clone(), slice_bytes: SLICE_BYTES },
        variant,
        workers,
        tasks: s.hashes,
        repetitions: s.repetitions,
    }
}

/// The loop, then the hashes on each of `worker_counts` (kept within the machine's range).
pub fn run_jobs(s: &Settings, source: &HashSource, worker_counts: &[u32], machine: Machine) -> Vec<Job> {
    let limits = workers_range(machine.cores);
    let mut jobs = vec![job(s, source, Variant::Sequential, 1)];
    jobs.extend(worker_counts.iter().map(|&k| job(s, source, Variant::ThreadPool, limits.clamp(k as u64) as u32)));
    jobs
}

/// A run that would hash more than this (bytes, in its timed repetitions) is not started by an
/// address alone (`autorun=1`): the reader presses Run. At the few hundred MB/s a browser hashes,
/// 8 GiB is already half a minute; the knobs allow 4,096 MB × 64 hashes × 10 repetitions, about
/// 5 TB as a loop and on workers.
pub const AUTORUN_AT_MOST_BYTES: u64 = 8 << 30;

/// The bytes one Run of `s` on `source` hashes in its timed repetitions: every hash reads all
/// the data, once in the loop and once on the workers (warm-ups not counted).
pub fn bytes_per_run(s: &Settings, source: &HashSource) -> u64 {
    let bytes = match source {
        HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. } => *bytes,
    };
    bytes.saturating_mul(u64::from(s.hashes)).saturating_mul(u64::from(s.repetitions)).saturating_mul(2)
}

/// The setting a run of a picked file records its size under (bytes), beside the page's own
/// settings: rows of two files of different sizes measured different problems, and a comparison
/// must not put them side by side (the size of a file is not a knob, so it is not in the address).
pub const FILE_BYTES_KEY: &str = "file_bytes";

/// Run on k workers, and the article's worker counts, of generated data and of a picked file of
/// `file_bytes` bytes (the reader can switch the source after the page opened).
fn every_run(r: &mut dyn KnobReader, machine: Machine, file_bytes: u64) -> Vec<Vec<Job>> {
    let s = read(r, machine);
    let mut runs = Vec::new();
    for source in [generated(&s), HashSource::File { name: "picked.bin".into(), bytes: file_bytes }] {
        runs.push(run_jobs(&s, &source, &[s.workers], machine));
        runs.push(run_jobs(&s, &source, &PRESET_WORKERS, machine));
    }
    runs
}

/// `lab hash`: the hashes as one loop, then as tasks on each worker count.
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "hash",
    about: "SHA-256 of a file (or generated data), h independent hashes, as a loop and on each worker count k.",
    options: &[
        LabOption {
            flag: "workers",
            help: "Worker counts k to measure, comma-separated (the article compared 1, 4 and 16).",
            value: LabValue::Counts("1,4,16"),
        },
        LabOption {
            flag: "hashes",
            help: "Independent hashes h of the data: the tasks.",
            value: LabValue::Count(HASHES.default),
        },
        LabOption { flag: "file", help: "Hash this file instead of generated data.", value: LabValue::File },
        LabOption {
            flag: "mb",
            help: "Size of the generated data in MB (ignored with --file).",
            value: LabValue::Count(SIZE_MB.default),
        },
        LabOption { flag: "reps", help: "Timed repetitions of each job.", value: LabValue::Count(REPETITIONS.default) },
    ],
    plan: lab_plan,
};

#[cfg(feature = "lab")]
fn lab_plan(args: &super::lab::LabArgs) -> Result<Vec<super::lab::Benchmark>, String> {
    use super::lab::Benchmark;
    let mb = args.count("mb");
    let (source, data) = match &args.file {
        Some(file) => {
            (HashSource::File { name: file.name.clone(), bytes: file.bytes }, format!("file={}B", file.bytes))
        }
        None => (
            HashSource::Generated { bytes: mb.saturating_mul(1 << 20), seed: DEFAULT_SEED },
            format!("generated={mb}MB"),
        ),
    };
    let hashes = args.count32("hashes")?;
    let settings = Settings {
        source: if args.file.is_some() { "file" } else { "generated" },
        size_mb: mb,
        hashes,
        workers: 1,
        repetitions: args.count32("reps")?,
    };
    let mut jobs = vec![Benchmark::new(
        format!("BenchmarkHash/loop/hashes={hashes}/{data}"),
        job(&settings, &source, Variant::Sequential, 1),
    )];
    for workers in args.distinct32("workers")? {
        jobs.push(Benchmark::new(
            format!("BenchmarkHash/tasks/hashes={hashes}/workers={workers}/{data}"),
            job(&settings, &source, Variant::ThreadPool, workers),
        ));
    }
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_hashes_the_data_once_per_hash_repetition_and_side() {
        let s = Settings { source: "generated", size_mb: 16, hashes: 4, workers: 2, repetitions: 2 };
        assert_eq!(bytes_per_run(&s, &generated(&s)), 16 * MB * 4 * 2 * 2);
        assert!(bytes_per_run(&s, &generated(&s)) <= AUTORUN_AT_MOST_BYTES);
        // The largest the knobs allow: far over, and no overflow.
        let most =
            Settings { size_mb: SIZE_MB.max, hashes: HASHES.max as u32, repetitions: REPETITIONS.max as u32, ..s };
        assert_eq!(bytes_per_run(&most, &generated(&most)), 4_096 * MB * 64 * 10 * 2);
        assert!(bytes_per_run(&most, &generated(&most)) > AUTORUN_AT_MOST_BYTES);
        let file = HashSource::File { name: "f".into(), bytes: u64::MAX };
        assert_eq!(bytes_per_run(&s, &file), u64::MAX);
    }
}
