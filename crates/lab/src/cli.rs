//! The command line of `lab`, built from the catalog: one subcommand per experiment that declares
//! a `LabCommand`, its options and defaults as declared there, and how counts are read.
//!
//! Defaults are the browser chapters' defaults (each experiment's knobs in its catalog module), so
//! `lab sum` with no options measures what the Sum chapter measures when the reader just presses Run.

use clap::{Arg, ArgAction, ArgMatches, Command};
use experiments::catalog::lab::{LabArgs, LabCommand, LabFile, LabValue};
use experiments::catalog::{ExperimentId, CATALOG};
use experiments::params::parse_count;
use std::path::PathBuf;

/// What the command line asked for.
#[derive(Debug)]
pub struct Cli {
    /// The experiment whose subcommand was named.
    pub experiment: ExperimentId,
    pub command: &'static LabCommand,
    /// Every option of the subcommand, given or defaulted; a named file not yet looked at.
    pub args: LabArgs,
    pub file: Option<PathBuf>,
    /// Print the measurements as JSON instead of a table.
    pub json: bool,
}

/// Every subcommand, in the catalog's order, with the experiment it runs.
pub fn commands() -> impl Iterator<Item = (ExperimentId, &'static LabCommand)> {
    CATALOG.iter().filter_map(|e| e.lab.as_ref().map(|lab| (e.id, lab)))
}

/// The whole command line, for parsing and `--help`.
pub fn command() -> Command {
    let lab = Command::new("lab")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Run Concurrency Lab's experiments natively, on OS threads, and print them like `go test -bench`.")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            Arg::new("json")
                .long("json")
                .global(true)
                .action(ArgAction::SetTrue)
                .help("Print the measurements as JSON instead of a table."),
        );
    commands().fold(lab, |lab, (_, command)| lab.subcommand(subcommand(command)))
}

fn subcommand(command: &LabCommand) -> Command {
    command.options.iter().fold(Command::new(command.name).about(command.about), |sub, option| {
        let arg = Arg::new(option.flag)
            .long(option.flag)
            .value_name(option.flag.to_uppercase().replace('-', "_"))
            .help(option.help);
        sub.arg(match option.value {
            LabValue::Count(default) => arg.value_parser(count).default_value(default.to_string()),
            LabValue::Counts(default) => arg.value_parser(count).value_delimiter(',').default_value(default),
            LabValue::File => arg.value_parser(clap::value_parser!(PathBuf)),
        })
    })
}

impl Cli {
    /// The command line `args` (the program's name first); clap's error (exit code 2) for a usage error.
    pub fn try_parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = command().try_get_matches_from(args)?;
        Ok(Cli::from_matches(&matches))
    }

    /// The process's command line; prints usage and exits on a usage error.
    pub fn parse() -> Cli {
        Cli::try_parse_from(std::env::args_os()).unwrap_or_else(|error| error.exit())
    }

    fn from_matches(matches: &ArgMatches) -> Cli {
        let (name, sub) = matches.subcommand().expect("a subcommand is required");
        let (experiment, command) = commands().find(|(_, c)| c.name == name).expect("a subcommand of the catalog");
        let mut args = LabArgs::default();
        let mut file = None;
        for option in command.options {
            match option.value {
                LabValue::Count(_) | LabValue::Counts(_) => {
                    let values = sub.get_many::<u64>(option.flag).map(|v| v.copied().collect()).unwrap_or_default();
                    args.counts.push((option.flag, values));
                }
                LabValue::File => file = sub.get_one::<PathBuf>(option.flag).cloned(),
            }
        }
        Cli { experiment, command, args, file, json: matches.get_flag("json") }
    }

    /// The arguments with the named file looked at: its name and size, or why it cannot be read.
    pub fn resolved_args(&self) -> Result<LabArgs, String> {
        let mut args = self.args.clone();
        if let Some(path) = &self.file {
            let metadata = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
            if !metadata.is_file() {
                return Err(format!("{} is not a file", path.display()));
            }
            let name = path.to_str().ok_or_else(|| format!("{}: the path is not UTF-8", path.display()))?;
            args.file = Some(LabFile { name: name.to_string(), bytes: metadata.len() });
        }
        Ok(args)
    }
}

/// Read a whole, non-negative count written the way the UI accepts it: `10000000`, `10_000_000`,
/// `10,000,000`, `1e7`. Range limits are checked later, on the job, by `Job::validate`.
pub fn count(raw: &str) -> Result<u64, String> {
    let value = parse_count(raw).ok_or_else(|| "not a number (write e.g. 10000000, 10_000_000 or 1e7)".to_string())?;
    if value < 0.0 {
        return Err("must not be negative".into());
    }
    if value.fract() != 0.0 {
        return Err("must be a whole number".into());
    }
    // 2^64 is the first f64 that no longer fits in a u64.
    if value >= 18_446_744_073_709_551_616.0 {
        return Err("is too large".to_string());
    }
    Ok(value as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::catalog::{demo, sum};

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    #[test]
    fn counts_in_every_spelling_the_ui_accepts() {
        for raw in ["10000000", "10_000_000", "10,000,000", "1e7", " 1e7 ", "1.0e7"] {
            assert_eq!(count(raw), Ok(10_000_000), "{raw}");
        }
        assert_eq!(count("0"), Ok(0));
    }

    #[test]
    fn unreadable_counts_are_errors_not_panics() {
        assert!(count("ten").unwrap_err().contains("not a number"));
        assert!(count("-3").unwrap_err().contains("negative"));
        assert!(count("2.5").unwrap_err().contains("whole"));
        assert!(count("1e30").unwrap_err().contains("too large"));
    }

    #[test]
    fn the_command_line_is_well_formed() {
        command().debug_assert();
    }

    #[test]
    fn every_subcommand_is_an_experiment_of_the_catalog() {
        let names: Vec<&str> = commands().map(|(_, c)| c.name).collect();
        assert_eq!(names.len(), CATALOG.iter().filter(|e| e.lab.is_some()).count());
        let mut distinct = names.clone();
        distinct.dedup();
        assert_eq!(distinct, names, "one subcommand per name");
        // Each plans something at its defaults, and only jobs within the browser's limits.
        for (id, command) in commands() {
            let plan = (command.plan)(&LabArgs::defaults(command)).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert!(!plan.is_empty(), "{id}");
            for benchmark in plan {
                assert!(benchmark.name.starts_with("Benchmark"), "{id}: {}", benchmark.name);
                benchmark.job.validate().unwrap_or_else(|e| panic!("{id}: {}: {e}", benchmark.name));
            }
        }
    }

    #[test]
    fn sum_reads_lists_and_scientific_counts() {
        let cli = parse(&["lab", "sum", "--workers", "1,2", "--n", "1e6", "--json"]);
        assert!(cli.json);
        assert_eq!(cli.experiment, ExperimentId::Sum);
        assert_eq!(cli.args.counts("workers"), [1, 2]);
        assert_eq!(cli.args.count("n"), 1_000_000);
        assert_eq!(cli.args.count("tasks"), sum::TASKS.default);
        assert_eq!(cli.args.count("reps"), sum::REPETITIONS.default);
    }

    #[test]
    fn sum_defaults_are_the_chapters_defaults() {
        let cli = parse(&["lab", "sum"]);
        assert_eq!(cli.args.counts("workers"), [1, sum::workers(1).default]);
        assert_eq!(
            (cli.args.count("tasks"), cli.args.count("n"), cli.args.count("reps")),
            (sum::TASKS.default, sum::NUMBERS.default, sum::REPETITIONS.default)
        );
        assert!(!cli.json);
        assert_eq!(cli.args, LabArgs::defaults(cli.command), "clap's defaults are the catalog's");
    }

    #[test]
    fn demo_defaults_are_the_chapters_defaults() {
        let cli = parse(&["lab", "demo"]);
        // The chapter's default on a machine with cores to spare (a page never starts with more
        // workers than its machine has cores; the CLI names the article's four).
        assert_eq!(cli.args.counts("workers"), [1, demo::workers(64).default]);
        assert_eq!(
            (cli.args.count("tasks"), cli.args.count("units"), cli.args.count("reps")),
            (4, 20_000, demo::LAB_REPETITIONS)
        );
    }

    #[test]
    fn docsearch_defaults_measure_one_two_and_eight_workers() {
        let cli = parse(&["lab", "docsearch", "--latency-ms", "2"]);
        assert_eq!((cli.args.counts("workers"), cli.args.counts("tasks")), (&[1, 2, 8][..], &[8, 64][..]));
        assert_eq!((cli.args.count("docs"), cli.args.count("latency-ms")), (1000, 2));
    }

    #[test]
    fn other_subcommands_default_to_their_chapters() {
        let cli = parse(&["lab", "hash", "--file", "/tmp/x", "--workers", "1,2"]);
        assert_eq!(cli.file.as_deref(), Some(std::path::Path::new("/tmp/x")));
        assert_eq!((cli.args.counts("workers"), cli.args.count("hashes")), (&[1, 2][..], 30));
        let cli = parse(&["lab", "qps", "--wait-ms", "5"]);
        assert_eq!(
            (cli.args.count("wait-ms"), cli.args.count("concurrency"), cli.args.count("requests")),
            (5, 50, 500)
        );
        let cli = parse(&["lab", "cost", "--sqrt", "1,10"]);
        assert_eq!((cli.args.counts("sqrt"), cli.args.count("tasks")), (&[1, 10][..], 10_000));
        let cli = parse(&["lab", "sort", "--n", "2e3"]);
        assert_eq!((cli.args.count("n"), cli.args.count("tasks")), (2_000, 8));
        let cli = parse(&["lab", "shared-total"]);
        assert_eq!(cli.experiment, ExperimentId::SharedTotal);
    }

    #[test]
    fn bad_values_are_usage_errors() {
        let error = Cli::try_parse_from(["lab", "sum", "--workers", "1,x"]).unwrap_err();
        assert_eq!(error.exit_code(), 2);
        let error = Cli::try_parse_from(["lab", "no-such-command"]).unwrap_err();
        assert_eq!(error.exit_code(), 2);
    }

    #[test]
    fn a_missing_file_is_named() {
        let cli = parse(&["lab", "hash", "--file", "/no/such/file"]);
        assert!(cli.resolved_args().unwrap_err().contains("/no/such/file"));
    }
}
