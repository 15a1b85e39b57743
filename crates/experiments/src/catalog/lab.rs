//! How `lab`, the native command line, runs an experiment: its subcommand, the options it reads,
//! and the jobs those options make, each with its `go test -bench` style name.
//!
//! An experiment that `lab` runs declares a [`LabCommand`] in its catalog module
//! ([`super::Experiment::lab`]); `lab` builds its command line from them, so a new experiment
//! gets its subcommand without `lab` being edited. Only with the `lab` feature: the site's wasm
//! never holds these plans.

use crate::job::Job;

/// One `lab` subcommand.
#[derive(Clone, Copy, Debug)]
pub struct LabCommand {
    /// `lab <name>`.
    pub name: &'static str,
    /// One line for `lab --help`.
    pub about: &'static str,
    /// Its options, in the order `--help` lists them (`--json` is every command's).
    pub options: &'static [LabOption],
    /// The jobs the options ask for, baseline first. `Err` says why the options make no plan (a
    /// count too large for its job); the jobs' own limits are checked by `lab` (`Job::validate`).
    pub plan: fn(&LabArgs) -> Result<Vec<Benchmark>, String>,
}

/// One `--flag` of a subcommand.
#[derive(Clone, Copy, Debug)]
pub struct LabOption {
    /// The long flag without its dashes, also its name in [`LabArgs`].
    pub flag: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    pub value: LabValue,
}

/// What a flag takes, and its default.
#[derive(Clone, Copy, Debug)]
pub enum LabValue {
    /// One whole count, written as the UI accepts it (`1e7`, `10_000_000`).
    Count(u64),
    /// Comma-separated counts; the default as written on the command line (`"1,2"`).
    Counts(&'static str),
    /// A file to read: `lab` checks it and passes its name and size.
    File,
}

/// A file named on the command line, as `lab` found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabFile {
    pub name: String,
    pub bytes: u64,
}

/// The values of a subcommand's options, each option present (given or defaulted).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabArgs {
    pub counts: Vec<(&'static str, Vec<u64>)>,
    pub file: Option<LabFile>,
}

impl LabArgs {
    /// Every option of `command` at its default.
    pub fn defaults(command: &LabCommand) -> LabArgs {
        let mut args = LabArgs::default();
        for option in command.options {
            match option.value {
                LabValue::Count(default) => args.counts.push((option.flag, vec![default])),
                LabValue::Counts(default) => args
                    .counts
                    .push((option.flag, default.split(',').map(|c| c.parse().expect("a default count")).collect())),
                LabValue::File => {}
            }
        }
        args
    }

    /// These arguments with `flag` set to `values`.
    pub fn with(mut self, flag: &'static str, values: &[u64]) -> LabArgs {
        self.counts.retain(|(f, _)| *f != flag);
        self.counts.push((flag, values.to_vec()));
        self
    }

    /// The values of `flag` (every subcommand's options are all present; a plan that reads a flag
    /// it does not declare is caught by the catalog's tests, which run every plan).
    pub fn counts(&self, flag: &str) -> &[u64] {
        self.counts
            .iter()
            .find(|(f, _)| *f == flag)
            .map(|(_, values)| values.as_slice())
            .unwrap_or_else(|| panic!("lab: no option --{flag}"))
    }

    /// The one value of `flag`.
    pub fn count(&self, flag: &str) -> u64 {
        self.counts(flag).first().copied().unwrap_or_default()
    }

    /// The one value of `flag` as a `u32`, or why it cannot be one.
    pub fn count32(&self, flag: &str) -> Result<u32, String> {
        let value = self.count(flag);
        u32::try_from(value).map_err(|_| format!("--{flag} {value} is too large"))
    }

    /// The distinct values of `flag`, in the order given, each as a `u32`.
    pub fn distinct32(&self, flag: &str) -> Result<Vec<u32>, String> {
        let mut seen = Vec::new();
        for &value in self.counts(flag) {
            let value = u32::try_from(value).map_err(|_| format!("--{flag} {value} is too large"))?;
            if !seen.contains(&value) {
                seen.push(value);
            }
        }
        Ok(seen)
    }
}

/// One job to measure and the name it is reported under.
#[derive(Clone, Debug, PartialEq)]
pub struct Benchmark {
    /// `go test -bench` style, e.g. `BenchmarkSum/tasks=8/workers=2/n=10000000`.
    pub name: String,
    pub job: Job,
    /// Speedups from this job on are measured against it (`lab` makes the first job one).
    pub baseline: bool,
}

impl Benchmark {
    pub fn new(name: String, job: Job) -> Benchmark {
        Benchmark { name, job, baseline: false }
    }

    pub fn baseline(name: String, job: Job) -> Benchmark {
        Benchmark { name, job, baseline: true }
    }
}
