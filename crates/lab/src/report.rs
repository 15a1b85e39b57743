//! How `lab` shows its results: `go test -bench` style lines, the published figures, and JSON.
//!
//! Lines are printed while the benchmarks run, so the columns cannot be sized from the results:
//! the name column is sized from the plan (known up front) and the numbers get fixed widths that
//! fit any run shorter than a quarter of an hour.

use experiments::published::{Article, PublishedComparison, PublishedMachine, QPS};
use experiments::stats::speedup;
use experiments::trust::Doubt;
use experiments::{per_unit, HashSource, Measurement, Summary, Workload};
use serde::Serialize;

/// Width of the ns/op column: 12 digits is about 16 minutes.
const NANOS_WIDTH: usize = 12;
/// Width of the min and max figures inside their parentheses.
const MIN_MAX_WIDTH: usize = 10;
/// Width of the speedup column, e.g. `  1.80x`.
const SPEEDUP_WIDTH: usize = 7;

/// The machine the numbers were measured on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Machine {
    pub os: String,
    pub arch: String,
    pub logical_cpus: u32,
    pub engine: String,
}

impl Machine {
    /// This machine, as the standard library sees it.
    pub fn current() -> Machine {
        Machine {
            os: std::env::consts::OS.into(),
            arch: std::env::consts::ARCH.into(),
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
            engine: "rayon on OS threads".into(),
        }
    }

    /// `goos: linux  goarch: x86_64  cpus: 2 (logical)  engine: rayon on OS threads`
    pub fn header(&self) -> String {
        format!(
            "goos: {}  goarch: {}  cpus: {} (logical)  engine: {}",
            self.os, self.arch, self.logical_cpus, self.engine
        )
    }
}

/// Milliseconds (as the engine measures them) to whole nanoseconds (as `go test -bench` prints them).
pub fn ms_to_ns(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 {
        (ms * 1e6).round() as u64
    } else {
        0
    }
}

/// `1.80x`, or `n/a` when there is no meaningful ratio.
pub fn format_speedup(speedup: f64) -> String {
    if speedup.is_finite() {
        format!("{speedup:.2}x")
    } else {
        "n/a".into()
    }
}

/// The figures of one benchmark line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub repetitions: usize,
    pub median_ns: u64,
    pub min_ns: u64,
    pub max_ns: u64,
    /// Baseline median over this median.
    pub speedup: f64,
    /// Whether the job computed the right answer.
    pub ok: bool,
    /// The experiment's own unit, like `go test -bench`'s extra metrics: `166.0 MB/s`, `1932 req/s`.
    pub metrics: String,
    /// What makes the figures doubtful, in words: the warnings the page would show on this row
    /// (see [`warnings`]); empty when nothing does.
    pub doubts: String,
}

impl Line {
    pub fn new(measurement: &Measurement, baseline: &Summary) -> Line {
        let summary = &measurement.summary;
        Line {
            repetitions: measurement.samples_ms.len(),
            median_ns: ms_to_ns(summary.median_ms),
            min_ns: ms_to_ns(summary.min_ms),
            max_ns: ms_to_ns(summary.max_ms),
            speedup: speedup(baseline, summary),
            ok: measurement.check.ok,
            metrics: metrics(measurement),
            doubts: String::new(),
        }
    }

    /// The line with `warnings` said after its figures.
    pub fn with_doubts(self, warnings: &[Doubt]) -> Line {
        Line { doubts: warnings.iter().map(doubt_words).collect::<Vec<_>>().join("; "), ..self }
    }
}

/// The doubts of `m`'s row that the page shows with a warning sign ([`Doubt::warns`]): its own
/// and its speedup's over `baseline` (see [`experiments::trust::row_doubts`]), on a machine of
/// `cores` logical processors. The native engine measures a doubtful first attempt again, as the
/// browser's does; these are what the second attempt still showed.
pub fn warnings(baseline: Option<&Measurement>, m: &Measurement, cores: u32) -> Vec<Doubt> {
    let mut found = experiments::trust::row_doubts(baseline, m, cores);
    found.retain(Doubt::warns);
    found
}

/// A doubt in a few words, for the end of a benchmark line: `noisy: spread 1.47x`.
pub fn doubt_words(doubt: &Doubt) -> String {
    match *doubt {
        Doubt::Noisy { spread } => format!("noisy: spread {spread:.2}x"),
        Doubt::FewWorkers { used, possible, .. } => format!("{used} of {possible} workers ran a task"),
        Doubt::Busy => "busy before the timing".into(),
        Doubt::BusyDuring => "busy after the timing".into(),
        Doubt::BeyondCeiling { speedup, ceiling } => format!("{speedup:.2}x is beyond {ceiling} workers' reach"),
        Doubt::AtCeiling { speedup, ceiling } => {
            format!("{speedup:.2}x: about {ceiling}x, the most {ceiling} workers give")
        }
        Doubt::SlowWorkers { slowdown } => format!("the workers took {slowdown:.2}x the loop's time at its work"),
        Doubt::FrequentBarriers { every_us, .. } => format!("varies: a barrier every {every_us:.1} us"),
        Doubt::SmallTasksVary { task_ms, spread } => {
            format!("varies: tasks of {:.0} us, spread {spread:.2}x", task_ms * 1000.0)
        }
    }
}

/// The figures each experiment is judged by besides time, from the median repetition.
pub fn metrics(measurement: &Measurement) -> String {
    let median_ms = measurement.summary.median_ms;
    if !(median_ms.is_finite() && median_ms > 0.0) {
        return String::new();
    }
    let job = &measurement.job;
    match &job.workload {
        Workload::Hash { source: HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. }, .. } => {
            let hashed = *bytes as f64 * job.tasks.max(1) as f64;
            format!("{:.1} MB/s", per_unit::mb_per_s(hashed, median_ms))
        }
        Workload::Qps { .. } => measurement
            .qps
            .as_ref()
            .map(|q| format!("{:.0} req/s  p50 {:.2} ms  p99 {:.2} ms", q.qps, q.p50_ms, q.p99_ms))
            .unwrap_or_default(),
        Workload::Granularity { .. } => format!("{:.0} ns/task", per_unit::ns_per_task(median_ms, job.tasks)),
        Workload::PingPong { round_trips } => {
            format!("{:.0} ns/switch", per_unit::ns_per_switch(median_ms, *round_trips))
        }
        _ => String::new(),
    }
}

/// Column widths shared by every line of one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    name_width: usize,
    repetitions_width: usize,
}

impl Layout {
    /// Sized for these benchmark names and repetition counts.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>, max_repetitions: u32) -> Layout {
        Layout {
            name_width: names.into_iter().map(str::len).max().unwrap_or(0),
            repetitions_width: max_repetitions.max(1).to_string().len(),
        }
    }

    /// The start of a line, printed before the benchmark runs (as `go test -bench` does).
    pub fn name_cell(&self, name: &str) -> String {
        format!("{name:<width$}", width = self.name_width)
    }

    /// The rest of the line, printed once the benchmark has run.
    pub fn result_cells(&self, line: &Line) -> String {
        format!(
            "  {runs:>runs_width$}  {median:>NANOS_WIDTH$} ns/op   (min {min:>MIN_MAX_WIDTH$}, max {max:>MIN_MAX_WIDTH$})  {speedup:>SPEEDUP_WIDTH$}  {verdict}{gap}{metrics}",
            runs = line.repetitions,
            runs_width = self.repetitions_width,
            median = line.median_ns,
            min = line.min_ns,
            max = line.max_ns,
            speedup = format_speedup(line.speedup),
            verdict = if line.ok { "ok   " } else { "WRONG" },
            gap = if line.metrics.is_empty() { "" } else { "  " },
            metrics = line.metrics,
        )
        .trim_end()
        .to_string()
    }

    /// The line under a benchmark's line that says its doubts (`    ! noisy: spread 1.47x`), apart
    /// so that tools reading `go test -bench` lines (benchstat) see them unchanged; `None` when
    /// nothing is doubtful.
    pub fn doubts_line(line: &Line) -> Option<String> {
        (!line.doubts.is_empty()).then(|| format!("    ! {}", line.doubts))
    }
}

/// `PASS` when every job computed the right answer, as `go test` ends.
pub fn verdict(all_ok: bool) -> &'static str {
    if all_ok {
        "PASS"
    } else {
        "FAIL: at least one job computed a wrong result"
    }
}

/// Text columns joined by two spaces, each as wide as its widest cell; numeric columns right-aligned.
/// Trailing spaces are trimmed.
pub fn align_columns(rows: &[Vec<String>], right_aligned: &[bool]) -> Vec<String> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|row| row.get(c)).map(|cell| cell.chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    let pad = " ".repeat(widths[c] - cell.chars().count());
                    if right_aligned.get(c).copied().unwrap_or(false) {
                        pad + cell
                    } else {
                        cell.clone() + &pad
                    }
                })
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect()
}

/// An article's short label in this (English) report.
fn article_label(article: Article) -> &'static str {
    match article {
        Article::SchedulingPart3Ru => "Go scheduling series, part 3 (Russian translation)",
        Article::ConcurrencyZh => "Concurrency (Chinese version)",
        Article::HighConcurrencyRu => "What is high concurrency? (Russian)",
        Article::GoroutinePerformanceHi => "Go: goroutine performance (Hindi translation)",
        Article::ParallelismByGoroutinesJa => "Parallelism through goroutine concurrency (Japanese)",
    }
}

/// A published machine as the article describes it, e.g. "Intel Core i7, 4 cores, 2.9 GHz".
fn machine_text(machine: PublishedMachine) -> String {
    let mut text = format!("{}, {} cores", machine.processor, machine.cores);
    if let Some(ghz) = machine.ghz {
        text.push_str(&format!(", {ghz} GHz"));
    }
    text
}

/// The articles' own `go test -bench` figures for `what` (e.g. "summing 10,000,000 integers"),
/// clearly labelled as not measured here.
pub fn published_table(what: &str, comparisons: &[PublishedComparison]) -> String {
    let mut rows = vec![[
        "source",
        "machine",
        "GOMAXPROCS (-cpu)",
        "goroutines",
        "sequential ns/op",
        "concurrent ns/op",
        "speedup",
    ]
    .map(String::from)
    .to_vec()];
    rows.extend(comparisons.iter().map(|c| {
        vec![
            article_label(c.source.article).to_string(),
            machine_text(c.machine),
            if c.cpu_flag { c.gomaxprocs.to_string() } else { format!("none ({} by default)", c.gomaxprocs) },
            c.goroutines.to_string(),
            c.sequential_ns.to_string(),
            c.concurrent_ns.to_string(),
            format_speedup(c.speedup()),
        ]
    }));
    let right = [false, false, true, true, true, true, true];
    let mut text = format!("published, not measured here: {what}, one loop vs goroutines (go test -bench)\n");
    for line in align_columns(&rows, &right) {
        text.push_str("  ");
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// The high-concurrency article's server figures (requests per second), labelled as not measured here.
pub fn published_servers() -> String {
    let mut rows = vec![["source", "case", "thread pool", "QPS", "coroutines", "QPS"].map(String::from).to_vec()];
    rows.extend(QPS.iter().map(|p| {
        vec![
            article_label(p.source.article).to_string(),
            if p.sleep_ms == 0 {
                "hello world".to_string()
            } else {
                format!("{} ms blocking sleep per request", p.sleep_ms)
            },
            p.thread_pool.to_string(),
            p.thread_pool_qps.to_string(),
            p.coroutines.to_string(),
            p.coroutines_qps.to_string(),
        ]
    }));
    let mut text = "published, not measured here: servers under load, thread pool vs coroutines\n".to_string();
    for line in align_columns(&rows, &[false, false, false, true, false, true]) {
        text.push_str("  ");
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// One measured job in the JSON output.
#[derive(Debug, Serialize)]
pub struct JsonResult<'a> {
    pub benchmark: &'a str,
    /// Baseline median over this median; `null` when undefined.
    pub speedup: Option<f64>,
    pub measurement: &'a Measurement,
    /// The row's warnings (see [`warnings`]), in serde's form (`{"noisy":{"spread":1.4}}`).
    pub warnings: Vec<Doubt>,
}

/// Everything `--json` prints: the machine and every measurement, baseline first.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub machine: &'a Machine,
    pub results: Vec<JsonResult<'a>>,
}

impl JsonReport<'_> {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("measurements always serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::published::SUM_10M;
    use experiments::{Check, Job, Trace, Variant, Workload};

    fn measurement(samples: &[f64], ok: bool) -> Measurement {
        let job = Job {
            workload: Workload::Sum { numbers: 100, seed: 1 },
            variant: Variant::ThreadPool,
            workers: 2,
            tasks: 8,
            repetitions: samples.len() as u32,
        };
        let check = Check { ok, value: "1".into(), expected: "1".into() };
        let samples = samples.iter().map(|&t| (t, Trace::default())).collect();
        Measurement::from_samples(job, samples, check, None)
    }

    /// A whole line, as the table prints it in two steps.
    fn whole(layout: &Layout, name: &str, line: &Line) -> String {
        layout.name_cell(name) + &layout.result_cells(line)
    }

    fn line(median_ns: u64, speedup: f64, ok: bool) -> Line {
        Line {
            repetitions: 5,
            median_ns,
            min_ns: median_ns - 10,
            max_ns: median_ns + 10,
            speedup,
            ok,
            metrics: String::new(),
            doubts: String::new(),
        }
    }

    #[test]
    fn a_doubtful_row_says_its_warnings_on_a_line_of_their_own() {
        // 10, 10.2 and 14 ms: spread 1.4, noisy; the warning is said under the line, which keeps
        // the `go test -bench` form.
        let noisy = measurement(&[10.0, 10.2, 14.0], true);
        let found = warnings(None, &noisy, 2);
        assert!(matches!(found.as_slice(), [Doubt::Noisy { spread }] if (spread - 1.4).abs() < 1e-9), "{found:?}");
        let line = Line::new(&noisy, &noisy.summary).with_doubts(&found);
        assert_eq!(Layout::doubts_line(&line).as_deref(), Some("    ! noisy: spread 1.40x"));
        assert!(Layout::new(["BenchmarkSum/x"], 3).result_cells(&line).ends_with("ok"));
        // Steady repetitions: nothing to say, no line.
        let steady = measurement(&[10.0, 10.1, 10.2], true);
        assert!(warnings(None, &steady, 2).is_empty());
        assert_eq!(Layout::doubts_line(&Line::new(&steady, &steady.summary).with_doubts(&[])), None);
    }

    #[test]
    fn a_line_reads_like_go_test_bench() {
        let layout = Layout::new(["BenchmarkSum/sequential/n=10"], 5);
        assert_eq!(
            whole(&layout, "BenchmarkSum/sequential/n=10", &line(3_412_345, 1.0, true)),
            "BenchmarkSum/sequential/n=10  5       3412345 ns/op   (min    3412335, max    3412355)    1.00x  ok"
        );
        assert!(whole(&layout, "BenchmarkSum/sequential/n=10", &line(100, 0.5, false)).ends_with("0.50x  WRONG"));
    }

    #[test]
    fn experiments_report_their_own_units() {
        let mut hashed = measurement(&[100.0], true);
        hashed.job.tasks = 4;
        hashed.job.workload =
            Workload::Hash { source: HashSource::Generated { bytes: 25_000_000, seed: 1 }, slice_bytes: 1 << 20 };
        // 4 × 25 MB in 0.1 s.
        assert_eq!(metrics(&hashed), "1000.0 MB/s");
        let mut tiny = measurement(&[2.0], true);
        tiny.job.workload = Workload::Granularity { sqrt: 1 };
        tiny.job.tasks = 1_000;
        assert_eq!(metrics(&tiny), "2000 ns/task");
        let mut switching = measurement(&[1.0], true);
        switching.job.workload = Workload::PingPong { round_trips: 1_000 };
        assert_eq!(metrics(&switching), "500 ns/switch");
        assert_eq!(metrics(&measurement(&[1.0], true)), "");
        let layout = Layout::new(["x"], 5);
        let with_metrics = Line { metrics: "12.5 MB/s".into(), ..line(100, 1.0, true) };
        assert!(whole(&layout, "x", &with_metrics).ends_with("1.00x  ok     12.5 MB/s"));
    }

    #[test]
    fn columns_line_up_whatever_the_names_and_magnitudes() {
        let names = ["BenchmarkSum/sequential/n=1000", "BenchmarkSum/tasks=8/workers=16/n=1000"];
        let layout = Layout::new(names, 10);
        let lines = [
            whole(&layout, names[0], &line(1_000_000_000, 1.0, true)),
            whole(&layout, names[1], &line(25, 40_000_000.0, true)),
        ];
        let column = |needle: &str| -> Vec<usize> { lines.iter().map(|l| l.find(needle).expect(needle)).collect() };
        for needle in [" ns/op", "(min", ", max", ")"] {
            let at = column(needle);
            assert_eq!(at[0], at[1], "{needle} in\n{}\n{}", lines[0], lines[1]);
        }
        // Right-aligned numbers end where " ns/op" begins.
        assert!(lines[0].contains("  1000000000 ns/op"));
        assert!(lines[1].contains("          25 ns/op"));
    }

    #[test]
    fn speedup_is_the_baseline_median_over_this_median() {
        let baseline = measurement(&[10.0, 12.0, 8.0], true);
        let faster = measurement(&[5.0, 4.0, 6.0], true);
        let line = Line::new(&faster, &baseline.summary);
        assert_eq!(line.speedup, 2.0);
        assert_eq!((line.median_ns, line.min_ns, line.max_ns), (5_000_000, 4_000_000, 6_000_000));
        assert_eq!(line.repetitions, 3);
        assert_eq!(Line::new(&baseline, &baseline.summary).speedup, 1.0);
        assert_eq!(format_speedup(2.0), "2.00x");
        assert_eq!(format_speedup(f64::NAN), "n/a");
    }

    #[test]
    fn nanoseconds_are_rounded_and_never_negative() {
        assert_eq!(ms_to_ns(3.4123456), 3_412_346);
        assert_eq!(ms_to_ns(f64::NAN), 0);
        assert_eq!(ms_to_ns(-1.0), 0);
    }

    #[test]
    fn aligned_columns_pad_text_left_and_numbers_right() {
        let rows = vec![vec!["name".to_string(), "ns".to_string()], vec!["a".to_string(), "12345".to_string()]];
        assert_eq!(align_columns(&rows, &[false, true]), ["name     ns", "a     12345"]);
    }

    #[test]
    fn published_figures_are_labelled_and_aligned() {
        let table = published_table("summing 10,000,000 integers", &SUM_10M);
        assert!(table.starts_with("published, not measured here"));
        assert!(table.contains("Apple M1 Max, 10 cores"));
        assert!(table.contains(article_label(SUM_10M[0].source.article)));
        assert!(table.contains("Intel Core i7, 4 cores, 2.9 GHz"));
        let lines: Vec<&str> = table.lines().skip(1).collect();
        assert_eq!(lines.len(), 1 + SUM_10M.len());
        let lengths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
        // Every row ends with the right-aligned speedup column, so all rows have the same length.
        assert!(lengths.windows(2).all(|w| w[0] == w[1]), "{table}");
        assert!(table.contains("0.90x") && table.contains("3.11x"));
    }

    #[test]
    fn published_servers_are_labelled() {
        let table = published_servers();
        assert!(table.starts_with("published, not measured here"));
        assert!(
            table.contains("9745") && table.contains("1563") && table.contains(article_label(QPS[0].source.article))
        );
    }

    #[test]
    fn json_carries_machine_speedups_and_measurements() {
        let machine = Machine {
            os: "linux".into(),
            arch: "x86_64".into(),
            logical_cpus: 2,
            engine: "rayon on OS threads".into(),
        };
        let m = measurement(&[1.0], true);
        let report = JsonReport {
            machine: &machine,
            results: vec![JsonResult { benchmark: "BenchmarkSum/x", speedup: None, measurement: &m, warnings: vec![] }],
        };
        let value: serde_json::Value = serde_json::from_str(&report.to_json()).expect("json");
        assert_eq!(value["machine"]["logical_cpus"], 2);
        assert_eq!(value["results"][0]["benchmark"], "BenchmarkSum/x");
        assert!(value["results"][0]["speedup"].is_null());
        assert_eq!(value["results"][0]["measurement"]["summary"]["median_ms"], 1.0);
    }
}
