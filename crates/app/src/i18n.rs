//! Every user-interface string in one place, per language. Chapter prose lives in `content/<lang>/`.
//!
//! Strings with blanks use `{name}` placeholders filled by [`fill`]. To add a language: add a
//! [`Lang`] variant, a `Ui` table, and a `content/<tag>/` folder.

/// Languages the interface is available in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
}

impl Lang {
    /// BCP 47 tag, used for `Intl` number formatting and the `content/` folder.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
        }
    }
}

/// The language of this page. English only for now; Russian, Chinese, Japanese and Hindi will follow.
pub fn lang() -> Lang {
    Lang::En
}

/// The strings of the current language.
pub fn ui() -> &'static Ui {
    match lang() {
        Lang::En => &EN,
    }
}

/// Replace each `{key}` in `template` by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_string(), |text, (key, value)| text.replace(&format!("{{{key}}}"), value))
}

/// A noun in its singular and plural forms, e.g. "{n} worker" / "{n} workers".
pub struct Forms {
    pub one: &'static str,
    pub other: &'static str,
}

/// The plural category of `n` in the page's language (`Intl.PluralRules`: "one", "other", …).
fn plural_category(n: u64) -> String {
    let rules = js_sys::Intl::PluralRules::new(&js_sys::Array::of1(&lang().tag().into()), &js_sys::Object::new());
    rules.select(n as f64).as_string().unwrap_or_else(|| "other".into())
}

/// `n` with its noun in the right form: "1 worker", "4 workers".
pub fn counted(n: u64, forms: &Forms) -> String {
    let template = if plural_category(n) == "one" { forms.one } else { forms.other };
    template.replace("{n}", &crate::format::int(n))
}

/// "1 worker", "4 workers".
pub fn workers(n: u32) -> String {
    counted(n as u64, &ui().worker_forms)
}

/// "1 task", "8 tasks".
pub fn tasks(n: u32) -> String {
    counted(n as u64, &ui().task_forms)
}

pub struct Ui {
    pub worker_forms: Forms,
    pub task_forms: Forms,
    pub site_name: &'static str,
    pub tagline: &'static str,
    pub skip_to_content: &'static str,
    pub nav_label: &'static str,
    pub nav_chapters: &'static str,
    pub chapter_number: &'static str,
    pub previous: &'static str,
    pub next: &'static str,
    pub start_reading: &'static str,
    pub chapters_heading: &'static str,
    pub coming_next_heading: &'static str,
    pub coming_next: &'static [&'static str],
    pub footer: &'static str,
    pub not_found_title: &'static str,
    pub not_found_body: &'static str,
    pub back_home: &'static str,

    pub workers: &'static str,
    pub workers_help: &'static str,
    pub tasks: &'static str,
    pub tasks_help: &'static str,
    pub numbers: &'static str,
    pub numbers_help: &'static str,
    pub repetitions: &'static str,
    pub repetitions_help: &'static str,
    pub repetitions_help_no_warm_up: &'static str,
    pub run: &'static str,
    pub sweep: &'static str,
    pub stop: &'static str,
    pub clear: &'static str,
    pub controls_label: &'static str,

    pub status_idle: &'static str,
    pub status_measuring: &'static str,
    pub status_preparing: &'static str,
    pub status_finished: &'static str,
    pub status_stopped: &'static str,
    pub status_failed: &'static str,
    pub progress_label: &'static str,

    pub results_caption: &'static str,
    pub results_empty: &'static str,
    pub col_run: &'static str,
    pub col_variant: &'static str,
    pub col_workers: &'static str,
    pub col_tasks: &'static str,
    pub col_median: &'static str,
    pub col_min: &'static str,
    pub col_max: &'static str,
    pub col_speedup: &'static str,
    pub col_check: &'static str,
    pub check_ok: &'static str,
    pub check_wrong: &'static str,

    pub sweep_title: &'static str,
    pub sweep_caption: &'static str,
    pub sweep_empty: &'static str,
    pub axis_workers: &'static str,
    pub axis_speedup: &'static str,
    pub ideal: &'static str,
    pub your_cores: &'static str,
    pub col_series: &'static str,
    pub chart_data_caption: &'static str,

    pub timeline_caption: &'static str,
    pub timeline_summary: &'static str,
    pub axis_time_ms: &'static str,
    pub worker_lane: &'static str,
    pub col_worker: &'static str,
    pub col_task_count: &'static str,
    pub col_slices: &'static str,
    pub col_busy: &'static str,
    pub col_first_start: &'static str,
    pub col_last_end: &'static str,
    pub col_parked: &'static str,
    pub parked_most: &'static str,
    pub timeline_tasks_detail: &'static str,
    pub timeline_truncated: &'static str,
    pub col_task: &'static str,
    pub col_start: &'static str,
    pub col_end: &'static str,

    pub machine_line: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    pub engine_workers_line: &'static str,

    pub published_title: &'static str,
    pub published_sum_caption: &'static str,
    pub published_find_caption: &'static str,
    pub col_source: &'static str,
    pub col_machine: &'static str,
    pub col_cores_used: &'static str,
    pub col_goroutines: &'static str,
    pub col_sequential_ns: &'static str,
    pub col_concurrent_ns: &'static str,

    pub note_not_a_number: &'static str,
    pub note_below_min: &'static str,
    pub note_not_an_option: &'static str,
    pub note_above_max: &'static str,
    pub notes_label: &'static str,

    pub unavailable_title: &'static str,
    pub not_isolated_body: &'static str,
    pub no_workers_body: &'static str,
    pub open_isolated: &'static str,

    pub demo_title: &'static str,
    pub demo_run: &'static str,
    pub demo_lane_caption: &'static str,
    pub docs_title: &'static str,
    pub docs_sequential: &'static str,
    pub docs_threads: &'static str,
    pub docs_goroutines: &'static str,
    pub docs_threads_series: &'static str,
    pub docs_goroutines_series: &'static str,
    pub docs_documents_help: &'static str,
    pub docs_latency_help: &'static str,
    pub docs_sweep_caption: &'static str,
    pub docs_sweep_empty: &'static str,
    pub documents: &'static str,
    pub read_latency: &'static str,
    pub sweep_tasks: &'static str,
    pub axis_tasks: &'static str,
    pub workers_marker: &'static str,
    pub cpu_io_title: &'static str,
    pub workload: &'static str,
    pub kind_io: &'static str,
    pub kind_cpu: &'static str,
    pub kind_io_help: &'static str,
    pub kind_cpu_help: &'static str,
    pub cpu_io_sweep_caption: &'static str,
    pub cpu_io_sweep_empty: &'static str,
    pub amdahl_caption: &'static str,
    pub col_serial_fraction: &'static str,
    pub col_speedup_limit: &'static str,
    pub sort_title: &'static str,
    pub sort_bubble: &'static str,
    pub sort_chunked: &'static str,
    pub sort_odd_even: &'static str,
    pub sort_merge: &'static str,
    pub sort_chunked_short: &'static str,
    pub sort_odd_even_short: &'static str,
    pub sort_merge_short: &'static str,
    pub sort_chunks_help: &'static str,
    pub sort_numbers_help: &'static str,
    pub sort_slow_warning: &'static str,
    pub sort_time_caption: &'static str,
    pub sort_speedup_caption: &'static str,
    pub sort_sweep_empty: &'static str,
    pub timeline_of: &'static str,
    pub sum_title: &'static str,
    pub sum_series: &'static str,
    pub sum_sequential_long: &'static str,
    pub sum_tasks_long: &'static str,
}

static EN: Ui = Ui {
    worker_forms: Forms { one: "{n} worker", other: "{n} workers" },
    task_forms: Forms { one: "{n} task", other: "{n} tasks" },
    site_name: "Concurrency Lab",
    tagline: "Concurrency versus parallelism, measured on your own machine",
    skip_to_content: "Skip to content",
    nav_label: "Chapters",
    nav_chapters: "Chapters",
    chapter_number: "Chapter {n}",
    previous: "Previous",
    next: "Next",
    start_reading: "Start with chapter 1",
    chapters_heading: "Chapters",
    coming_next_heading: "In preparation",
    coming_next: &[
        "How an operating system schedules threads",
        "Go's scheduler: G, M and P, shown on our own runtime",
        "What a task costs",
        "Hashing a big file on 1, 4 and 16 workers",
        "High concurrency: requests per second under blocking IO",
    ],
    footer: "Every experiment runs in your browser; nothing you do here leaves your machine.",
    not_found_title: "Page not found",
    not_found_body: "There is no chapter at this address.",
    back_home: "Back to the chapter list",

    workers: "Workers",
    workers_help: "Parallelism: how many tasks can run at the same instant.",
    tasks: "Tasks",
    tasks_help: "Concurrency: how many independent pieces the work is split into.",
    numbers: "Numbers",
    numbers_help: "How many integers to add ({value}).",
    repetitions: "Repetitions",
    repetitions_help: "Timed runs after one untimed warm-up; the table shows their median.",
    repetitions_help_no_warm_up: "Timed runs (reads that wait need no warm-up); the table shows their median.",
    run: "Run",
    sweep: "Sweep workers",
    stop: "Stop",
    clear: "Clear results",
    controls_label: "Experiment settings",

    status_idle: "Ready.",
    status_measuring: "Measuring {what}: repetition {done} of {total}.",
    status_preparing: "Preparing {what}…",
    status_finished: "Done.",
    status_stopped: "Stopped. Results measured before the stop are kept.",
    status_failed: "The run failed: {message}",
    progress_label: "Progress of the run",

    results_caption: "Your results (milliseconds per run; speedup = sequential median ÷ this median)",
    results_empty: "No results yet: press Run.",
    col_run: "Run",
    col_variant: "Variant",
    col_workers: "Workers",
    col_tasks: "Tasks",
    col_median: "Median ms",
    col_min: "Min ms",
    col_max: "Max ms",
    col_speedup: "Speedup",
    col_check: "Result",
    check_ok: "correct",
    check_wrong: "WRONG: expected {expected}",

    sweep_title: "Speedup as workers are added",
    sweep_caption: "Speedup of the concurrent version over the sequential one, for 1, 2, 4, … workers ({tasks} each). The dashed line is the ideal: n workers, n times faster.",
    sweep_empty: "Press “Sweep workers” to measure every worker count.",
    axis_workers: "workers",
    axis_speedup: "speedup",
    ideal: "ideal",
    your_cores: "your logical processors",
    col_series: "Series",
    chart_data_caption: "Data of the chart above",

    timeline_caption: "Which worker ran which task, and when, during the median repetition of “{what}”. One lane per worker; each bar is a task.",
    timeline_summary: "{tasks} ran on {used} of {workers} in {wall} ms.",
    axis_time_ms: "time (ms)",
    worker_lane: "W{n}",
    col_worker: "Worker",
    col_task_count: "Tasks",
    col_slices: "Run slices",
    col_busy: "Busy ms",
    col_first_start: "First start ms",
    col_last_end: "Last end ms",
    col_parked: "Parked ms (tasks waiting after leaving it)",
    parked_most: "parked (up to {n})",
    timeline_tasks_detail: "Every task of this run",
    timeline_truncated: "This run had too many task slices to keep them all: the timeline shows the first {until} ms of {wall} ms.",
    col_task: "Task",
    col_start: "Start ms",
    col_end: "End ms",

    machine_line: "Measured on your machine: {cores} logical processors · {browser} · cross-origin isolated: {isolated}",
    yes: "yes",
    no: "no",
    engine_workers_line: "Engine workers alive now: {live} (current pool: {pool}).",

    published_title: "What the articles published",
    published_sum_caption: "Published results of the Go benchmark summing 10 million integers (ns per operation; one goroutine per logical CPU), quoted from the articles: measured on their machines, not yours",
    published_find_caption: "Published results of the Go benchmark searching 1,000 RSS documents with a 1 ms read each (ns per operation; one goroutine per logical CPU), quoted from the articles: measured on their machines, not yours",
    col_source: "Source",
    col_machine: "Machine",
    col_cores_used: "Cores used",
    col_goroutines: "Goroutines",
    col_sequential_ns: "Sequential ns/op",
    col_concurrent_ns: "Concurrent ns/op",

    note_not_a_number: "The link set {key} to “{raw}”, which is not a number, so the default {used} is used.",
    note_not_an_option: "The link set {key} to “{raw}”, which is not one of the choices, so the default is used.",
    note_below_min: "The link set {key} to {raw}, below the smallest allowed value, so {used} is used.",
    note_above_max: "The link set {key} to {raw}, above the largest allowed value, so {used} is used.",
    notes_label: "Changes made to the link's settings",

    unavailable_title: "Live experiments are not available on this page",
    not_isolated_body: "This page is not cross-origin isolated, so your browser does not allow the shared memory that threads in WebAssembly need. The text above still applies; to run the experiments, open this chapter in its own tab from a server that sends the isolation headers (see the README).",
    no_workers_body: "Your browser does not offer Web Workers or WebAssembly, which the experiments need.",
    open_isolated: "Open this chapter in its own tab",

    demo_title: "Try it: the same tasks on one worker and on many",
    demo_run: "Run both",
    demo_lane_caption: "{tasks} on {workers}",
    docs_title: "Try it: search documents with slow reads",
    docs_sequential: "Sequential: one loop, one read at a time",
    docs_threads: "Threads: {tasks} on {workers}, reads block",
    docs_goroutines: "Goroutines: {tasks} on {workers}, reads park",
    docs_threads_series: "Threads ({workers})",
    docs_goroutines_series: "Goroutines ({workers})",
    docs_documents_help: "RSS documents to search for the topic “scheduler”.",
    docs_latency_help: "Each read waits {ms} ms before the document can be parsed, like a disk or network read.",
    docs_sweep_caption: "Speedup over the sequential search for 1, 2, 4, … 64 tasks, threads versus goroutines (one timed run per point). The dashed line is one task per read in flight: t tasks, t times faster.",
    docs_sweep_empty: "Press “Sweep tasks” to measure 1 to 64 tasks with both kinds of concurrency.",
    documents: "Documents",
    read_latency: "Read latency (ms)",
    sweep_tasks: "Sweep tasks",
    axis_tasks: "tasks",
    workers_marker: "{workers}",
    cpu_io_title: "Try it: the same knobs, two kinds of work",
    workload: "Workload",
    kind_io: "IO-bound",
    kind_cpu: "CPU-bound",
    kind_io_help: "Each of the 1,000 documents is read with a 1 ms wait, then parsed.",
    kind_cpu_help: "The 1,000 documents are already in memory: no waiting, only parsing.",
    cpu_io_sweep_caption: "Speedup of goroutines over the sequential search for 1, 2, 4, … 64 tasks on {workers}, one line per kind of workload you swept.",
    cpu_io_sweep_empty: "Press “Sweep tasks”, then switch the workload and sweep again to compare the two lines.",
    amdahl_caption: "Amdahl's law fitted to each line: the share of the work that behaves as if it could not be split (serial fraction s), and the speedup that share allows at most (1 ÷ s), however many workers you add",
    col_serial_fraction: "Serial fraction s",
    col_speedup_limit: "Best possible speedup",
    sort_title: "Try it: four ways to sort",
    sort_bubble: "Bubble sort, one worker",
    sort_chunked: "Chunked bubble sort: {tasks} on {workers}, then one final pass",
    sort_odd_even: "Odd–even transposition: each phase split into {tasks} on {workers}",
    sort_merge: "Merge sort: {tasks} on {workers}, then merges",
    sort_chunked_short: "Chunked bubble sort",
    sort_odd_even_short: "Odd–even transposition",
    sort_merge_short: "Merge sort",
    sort_chunks_help: "Concurrency: how many pieces each parallel sort splits the list into (chunks, phase parts, runs).",
    sort_numbers_help: "How many integers to sort ({value}).",
    sort_slow_warning: "Bubble sort's time grows with the square of the list: twice the numbers, four times the time. At {value} numbers a run may take several seconds; Stop always works.",
    sort_time_caption: "Median time of each parallel sort for 1, 2, 4, … workers (logarithmic scale: each step is ten times longer). The sequential bubble sort took {ms} ms.",
    sort_speedup_caption: "Each parallel sort's speedup over itself on one worker, with the Amdahl curve fitted to it (dashed).",
    sort_sweep_empty: "Press “Sweep workers” to measure every sort on 1, 2, 4, … workers.",
    timeline_of: "Show the timeline of",
    sum_title: "Try it: add up the numbers",
    sum_series: "Concurrent, {tasks}",
    sum_sequential_long: "Sequential: one loop on one worker",
    sum_tasks_long: "Concurrent: {tasks} on {workers}",
};
