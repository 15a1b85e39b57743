//! Every reader-visible string of the interface, one typed table per language: a missing string in
//! any language does not compile. The app compiles English in and fetches the reader's other
//! language when a page starts (`site_path`; `cargo xtask build-prose` writes the files), so a
//! reader downloads the strings of one language, not five. Strings with blanks are messages in the
//! app's plural message format (`app::i18n::message`).

pub mod en;
pub mod hi;
pub mod ja;
pub mod offer;
pub mod ru;
#[cfg(test)]
mod style_tests;
pub mod zh;

/// The count forms of a noun as a plural message over `n`, e.g.
/// `{n, plural, one {# worker} other {# workers}}`.
pub type Forms = &'static str;

/// Declares [`Ui`], [`Ui::texts`], which lists every field's text(s) by name (tests hold every
/// language's table against the English one; xtask writes the fetched tables from it), and the
/// [`LAYOUT`] from which [`Ui::from_texts`] builds a fetched table back.
macro_rules! ui_table {
    ($( $(#[$meta:meta])* pub $name:ident : $kind:ty, )*) => {
        /// Every reader-visible string of the interface in one language.
        pub struct Ui {
            $( $(#[$meta])* pub $name: $kind, )*
        }

        impl Ui {
            /// Every field's name and text(s), in declaration order.
            pub fn texts(&self) -> Vec<(&'static str, Vec<&'static str>)> {
                vec![$( (stringify!($name), Texts::texts(&self.$name)) ),*]
            }
        }

        /// Every field of [`Ui`], once each and in order: its name, where it lies, what it holds.
        const LAYOUT: &[Slot] = &[
            $( Slot { name: stringify!($name), offset: std::mem::offset_of!(Ui, $name), shape: <$kind as Field>::SHAPE }, )*
        ];
    };
}

/// The text(s) of one field of [`Ui`].
trait Texts {
    fn texts(&self) -> Vec<&'static str>;
}

impl Texts for &'static str {
    fn texts(&self) -> Vec<&'static str> {
        vec![self]
    }
}

impl<const N: usize> Texts for [&'static str; N] {
    fn texts(&self) -> Vec<&'static str> {
        self.to_vec()
    }
}

impl Texts for &'static [&'static str] {
    fn texts(&self) -> Vec<&'static str> {
        self.to_vec()
    }
}

/// What one field of [`Ui`] holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// One text: `&'static str`.
    One,
    /// Exactly this many texts: `[&'static str; N]`.
    Array(usize),
    /// Any number of texts: `&'static [&'static str]`.
    Slice,
}

/// A type a field of [`Ui`] may have, and its [`Shape`]. A field of any other type does not compile.
trait Field {
    const SHAPE: Shape;
}

impl Field for &'static str {
    const SHAPE: Shape = Shape::One;
}

impl<const N: usize> Field for [&'static str; N] {
    const SHAPE: Shape = Shape::Array(N);
}

impl Field for &'static [&'static str] {
    const SHAPE: Shape = Shape::Slice;
}

/// One field of [`Ui`] as [`LAYOUT`] lists it.
struct Slot {
    name: &'static str,
    /// `offset_of!(Ui, name)`.
    offset: usize,
    shape: Shape,
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

impl Ui {
    /// A table from each field's text(s), looked up by name (a fetched table: the texts are leaked,
    /// once per page, to live as long as the page). `Err` names the first field that is missing or
    /// has the wrong number of texts.
    ///
    /// One loop over [`LAYOUT`] rather than a few lines of code per field: the per-field version
    /// was 55 KB of the app's core module (raw), for some 490 fields.
    pub fn from_texts(lookup: &mut dyn FnMut(&str) -> Option<Vec<String>>) -> Result<Ui, &'static str> {
        let mut ui = std::mem::MaybeUninit::<Ui>::uninit();
        let base = ui.as_mut_ptr().cast::<u8>();
        for slot in LAYOUT {
            let texts = lookup(slot.name).ok_or(slot.name)?;
            let fits = match slot.shape {
                Shape::One => texts.len() == 1,
                Shape::Array(n) => texts.len() == n,
                Shape::Slice => true,
            };
            if !fits {
                return Err(slot.name);
            }
            let texts: Vec<&'static str> = texts.into_iter().map(leak).collect();
            // SAFETY: `slot.offset` is `offset_of!` a field of `Ui` whose type has `slot.shape`
            // (`ui_table!` writes both from the field's declaration), so every write is inside `ui`
            // and aligned: `One` and `Array(n)` are `texts.len()` consecutive `&str` (checked
            // above), `Slice` is one `&[&str]`.
            unsafe {
                let field = base.add(slot.offset);
                match slot.shape {
                    Shape::One | Shape::Array(_) => {
                        for (index, text) in texts.into_iter().enumerate() {
                            field.cast::<&'static str>().add(index).write(text);
                        }
                    }
                    Shape::Slice => field.cast::<&'static [&'static str]>().write(Box::leak(texts.into_boxed_slice())),
                }
            }
        }
        // SAFETY: `LAYOUT` lists every field of `Ui` (`ui_table!` writes one slot per field), and the
        // loop above wrote each of them (it returns early otherwise, and `ui` is never read then;
        // no field needs dropping).
        Ok(unsafe { ui.assume_init() })
    }
}

ui_table! {
    // --- Every page: the site, navigation, the shared controls, results, charts, notices ---
    pub worker_forms: Forms,
    pub task_forms: Forms,
    pub core_forms: Forms,
    pub thread_forms: Forms,
    pub switch_forms: Forms,
    pub site_name: &'static str,
    pub tagline: &'static str,
    pub skip_to_content: &'static str,
    pub nav_label: &'static str,
    /// The previous/next links under a chapter (a landmark named apart from the header's).
    pub chapter_nav_label: &'static str,
    pub nav_chapters: &'static str,
    pub glossary: &'static str,
    /// A chart's title followed by its caption in one sentence run ("{title}. {caption}").
    pub title_then_caption: &'static str,
    /// The language switcher's name ("Language").
    pub language: &'static str,
    /// Offered on a first visit to the English landing page, written in the language offered.
    pub chapter_number: &'static str,
    pub try_it: &'static str,
    pub previous: &'static str,
    pub next: &'static str,
    pub start_reading: &'static str,
    pub chapters_heading: &'static str,
    pub coming_next_heading: &'static str,
    pub coming_next: &'static [&'static str],
    pub footer: &'static str,
    pub not_found_title: &'static str,
    pub not_found_body: &'static str,
    /// An experiment's code is fetched when a page first shows it: while it loads, and if it cannot be.
    pub panel_loading: &'static str,
    pub panel_failed: &'static str,
    /// While the code of a panel's charts and timeline loads (after the engine's, on a slow link).
    pub views_loading: &'static str,
    /// The code of a panel's charts and timeline could not be fetched; Retry follows.
    pub views_failed: &'static str,
    /// A part of the page (code or text) is gone from the site because a new version was deployed
    /// while the page was open (`www/keep.js` marks it): reload, instead of "try again".
    pub new_version_reload: &'static str,
    /// Before Run, when the settings ask for a run longer than `experiments::duration::LONG_RUN_MS`
    /// at the least: `{duration}` is `seconds_forms` or `minutes_forms`.
    pub long_run: &'static str,
    pub long_sweep: &'static str,
    pub seconds_forms: &'static str,
    pub minutes_forms: &'static str,
    pub back_home: &'static str,
    /// A page's text is fetched when shown (`prose.rs`): while it loads, and when it could not be.
    pub prose_loading: &'static str,
    pub prose_failed_title: &'static str,
    pub prose_failed_body: &'static str,
    /// `{why}`: what the browser or the server said.
    pub prose_failed_why: &'static str,
    pub retry: &'static str,

    pub workers: &'static str,
    pub workers_help: &'static str,
    pub tasks: &'static str,
    pub tasks_help: &'static str,
    pub numbers: &'static str,
    pub numbers_help: &'static str,
    pub repetitions: &'static str,
    pub repetitions_help: &'static str,
    pub repetitions_help_no_warm_up: &'static str,
    pub repetitions_help_hash: &'static str,
    pub repetitions_help_load_test: &'static str,
    pub run: &'static str,
    pub sweep: &'static str,
    pub stop: &'static str,
    pub clear: &'static str,
    /// A panel's settings form, named after its experiment so that two panels of a chapter differ.
    pub controls_of: &'static str,

    pub status_idle: &'static str,
    pub status_measuring: &'static str,
    pub status_preparing: &'static str,
    pub col_note: &'static str,
    pub doubt_busy: &'static str,
    pub doubt_busy_during: &'static str,
    pub doubt_noisy: &'static str,
    pub doubt_slow_workers: &'static str,
    pub doubt_few_workers_small: &'static str,
    pub doubt_few_workers_busy: &'static str,
    pub doubt_baseline: &'static str,
    pub doubt_mark_label: &'static str,
    pub status_turns: &'static str,
    pub doubt_beyond_ceiling: &'static str,
    pub doubt_at_ceiling: &'static str,
    pub row_remeasured: &'static str,
    pub first_noisy: &'static str,
    pub first_busy_during: &'static str,
    pub first_beyond: &'static str,
    pub method_remeasured: &'static str,
    pub results_found_faster: &'static str,
    pub results_found_slower: &'static str,
    pub results_found_best: &'static str,
    pub results_found_doubted: &'static str,
    pub method_passes: &'static str,
    pub method_turns: &'static str,
    pub range_dash: &'static str,
    pub speedup_range_label: &'static str,
    pub median_range_label: &'static str,
    pub col_median_range: &'static str,
    pub startup_line: &'static str,
    pub startup_workers: &'static str,
    pub startup_workers_kept: &'static str,
    pub startup_settled: &'static str,
    pub startup_not_settled: &'static str,
    pub status_starting: &'static str,
    pub status_settling: &'static str,
    pub status_finished: &'static str,
    pub status_stopped: &'static str,
    pub status_stopped_restarted: &'static str,
    pub engine_new_version: &'static str,
    // Why the engine failed, as the app finds out (the engine's own reports arrive as its text).
    pub engine_unsupported: &'static str,
    pub engine_refused_to_start: &'static str,
    pub engine_unreadable_message: &'static str,
    pub engine_start_late: &'static str,
    pub engine_error: &'static str,
    pub engine_request_refused: &'static str,
    pub failure_refused: &'static str,
    pub failure_file_unreadable: &'static str,
    pub failure_engine_not_started: &'static str,
    pub failure_workers_not_started: &'static str,
    pub failure_timed_out: &'static str,
    pub failure_no_shared_memory: &'static str,
    pub failure_too_much_memory: &'static str,
    pub failure_worker_crashed: &'static str,
    pub failure_engine_panicked: &'static str,
    pub failure_internal: &'static str,
    pub failure_detail_summary: &'static str,
    /// What failed, then the engine file found at fault.
    pub engine_failure_and_cause: &'static str,
    pub engine_not_loaded: &'static str,
    pub engine_not_loaded_files_fine: &'static str,
    pub engine_file_late: &'static str,
    pub engine_file_unfetched: &'static str,
    pub engine_file_status: &'static str,
    pub engine_file_not_javascript: &'static str,
    pub engine_file_no_content_type: &'static str,
    pub engine_restarted_for_another_run: &'static str,
    /// A JavaScript error that gave no message.
    pub no_reason_given: &'static str,
    pub status_failed: &'static str,
    pub progress_label: &'static str,

    pub results_caption: &'static str,
    pub results_caption_overhead: &'static str,
    pub results_empty: &'static str,
    pub col_run: &'static str,
    pub run_cell_sweep: &'static str,
    pub run_label: &'static str,
    pub sweep_label: &'static str,
    pub col_variant: &'static str,
    pub col_workers: &'static str,
    pub col_tasks: &'static str,
    pub col_median: &'static str,
    pub col_min: &'static str,
    pub col_max: &'static str,
    pub col_speedup: &'static str,
    pub col_check: &'static str,
    pub check_ok: &'static str,
    /// A result that is right: "{value} correct ✓".
    pub check_passed: &'static str,
    pub check_wrong: &'static str,

    pub sweep_title: &'static str,
    pub sweep_caption: &'static str,
    pub sweep_empty: &'static str,
    pub axis_workers: &'static str,
    pub axis_speedup: &'static str,
    pub axis_overhead: &'static str,
    pub ideal: &'static str,
    pub your_cores: &'static str,
    pub col_series: &'static str,
    pub chart_data_caption: &'static str,
    /// A line of a line chart in words: its name and its highest value.
    pub line_peak: &'static str,
    /// A point of a chart in words: the axis named, not counted, so no plural is needed.
    pub chart_point: &'static str,

    pub timeline_caption: &'static str,
    pub timeline_summary: &'static str,
    pub timeline_shared_cores: &'static str,
    pub timeline_summary_slices: &'static str,
    pub trace_picker_label: &'static str,
    pub trace_choice: &'static str,
    pub trace_point: &'static str,
    pub timeline_bars_tasks: &'static str,
    pub timeline_bars_slices: &'static str,
    pub timeline_workers_caption: &'static str,
    pub timeline_workers_caption_slices: &'static str,
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
    pub download_trace: &'static str,
    pub download_trace_help: &'static str,
    pub trace_process_name: &'static str,
    pub col_task: &'static str,
    pub col_start: &'static str,
    pub col_end: &'static str,

    pub machine_line: &'static str,
    /// The browser in [`Self::machine_line`] when it does not say which it is.
    pub unknown_browser: &'static str,
    /// Shown (from the English table) when a page's own table cannot be fetched.
    pub table_failed: &'static str,
    pub compare_title: &'static str,
    pub compare_pick: &'static str,
    pub compare_help: &'static str,
    pub compare_machine: &'static str,
    pub compare_isolated: &'static str,
    pub compare_not_isolated: &'static str,
    pub compare_this_machine: &'static str,
    pub compare_remove: &'static str,
    pub compare_remove_button: &'static str,
    pub compare_table_caption: &'static str,
    pub compare_refused: &'static str,
    pub refusal_too_large: &'static str,
    pub refusal_not_results: &'static str,
    pub refusal_other_experiment: &'static str,
    pub refusal_empty: &'static str,
    pub refusal_too_many_rows: &'static str,
    pub refusal_too_many_files: &'static str,
    pub compare_left_out: &'static str,
    pub compare_rows_capped: &'static str,
    pub refusal_impossible: &'static str,
    pub refusal_other_settings: &'static str,
    pub setting_difference: &'static str,
    pub setting_default: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    pub engine_workers_line: &'static str,
    pub engine_workers_parked_line: &'static str,

    pub published_title: &'static str,
    pub published_sum_caption: &'static str,
    pub published_find_caption: &'static str,
    pub col_source: &'static str,
    pub col_machine: &'static str,
    pub col_cores_used: &'static str,
    pub gomaxprocs_default: &'static str,
    pub col_goroutines: &'static str,
    pub col_sequential_ns: &'static str,
    pub col_concurrent_ns: &'static str,
    // The articles figures are quoted from, and the machines they measured on.
    pub article_scheduling_part3_ru: &'static str,
    pub article_concurrency_zh: &'static str,
    pub article_high_concurrency_ru: &'static str,
    pub article_goroutine_performance_hi: &'static str,
    pub article_parallelism_by_goroutines_ja: &'static str,
    pub published_machine: &'static str,
    pub published_machine_clocked: &'static str,

    pub note_not_a_number: &'static str,
    pub note_below_min: &'static str,
    pub note_not_an_option: &'static str,
    pub note_above_max: &'static str,
    pub notes_label: &'static str,

    pub unavailable_title: &'static str,
    pub single_worker_title: &'static str,
    pub single_worker_body: &'static str,
    pub message_workers_title: &'static str,
    pub message_workers_body: &'static str,
    pub no_workers_body: &'static str,
    pub open_isolated: &'static str,

    // --- Chapter concurrency-vs-parallelism: the demo ---
    pub demo_title: &'static str,
    pub demo_run: &'static str,
    pub demo_lane_caption: &'static str,

    // --- Chapter document-search (its sweep and controls also serve cpu-vs-io) ---
    pub docs_title: &'static str,
    pub docs_sequential: &'static str,
    pub docs_threads: &'static str,
    pub docs_timeline_note: &'static str,
    pub docs_threads_no_wait: &'static str,
    pub docs_goroutines_no_wait: &'static str,
    pub docs_goroutines: &'static str,
    pub docs_threads_series: &'static str,
    pub docs_goroutines_series: &'static str,
    pub docs_documents_help: &'static str,
    pub docs_latency_help: &'static str,
    pub docs_sweep_caption: &'static str,
    pub docs_sweep_empty: &'static str,
    /// The reader's own sleep overshoot, after a run whose reads wait: {reads}, {asked}, {mean},
    /// {longest} (milliseconds), {articles_reads}, {loop} (seconds).
    pub docs_overshoot: &'static str,
    pub documents: &'static str,
    pub read_latency: &'static str,
    pub sweep_tasks: &'static str,
    pub axis_tasks: &'static str,
    pub workers_marker: &'static str,

    // --- Chapter cpu-vs-io ---
    pub cpu_io_title: &'static str,
    pub workload: &'static str,
    pub kind_io: &'static str,
    pub kind_cpu: &'static str,
    pub kind_io_help: &'static str,
    pub kind_cpu_help: &'static str,
    pub cpu_io_sweep_caption: &'static str,
    pub cpu_io_sweep_empty: &'static str,

    // --- Chapter bubble-sort: what splits well, Amdahl's law ---
    pub amdahl_caption: &'static str,
    pub amdahl_fit_label: &'static str,
    pub whiskers_speedup: &'static str,
    pub whiskers_ms: &'static str,
    pub whiskers_overhead: &'static str,
    pub published_points_title: &'static str,
    pub published_point: &'static str,
    pub published_setting: &'static str,
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
    pub sort_time_sequential: &'static str,
    pub sort_speedup_caption: &'static str,
    pub sort_sweep_empty: &'static str,
    pub timeline_of: &'static str,

    // --- Chapter go-scheduler: scenarios and the replay ---
    pub go_title: &'static str,
    pub scenario: &'static str,
    pub scenario_spawn_on_one: &'static str,
    pub scenario_io_mix: &'static str,
    pub scenario_many_tasks: &'static str,
    pub scenario_long_task: &'static str,
    pub scenario_spawn_on_one_help: &'static str,
    pub scenario_io_mix_help: &'static str,
    pub scenario_many_tasks_help: &'static str,
    pub scenario_long_task_help: &'static str,
    pub record_run: &'static str,
    pub scenario_reset: &'static str,
    pub replay_label: &'static str,
    // --- Pictures (`app::pictures`): one bubble-sort pass, G/M/P, Little's law ---
    pub picture_failed: &'static str,
    pub bubble_pass_caption: &'static str,
    pub bubble_pass_list: &'static str,
    pub bubble_pass_step: &'static str,
    pub bubble_pass_reset: &'static str,
    pub bubble_pass_ready: &'static str,
    pub bubble_pass_swap: &'static str,
    pub bubble_pass_keep: &'static str,
    pub bubble_pass_done: &'static str,
    pub bubble_pass_reduced_motion: &'static str,
    pub gmp_label: &'static str,
    pub gmp_caption: &'static str,
    pub gmp_description: &'static str,
    pub gmp_global_queue: &'static str,
    pub gmp_local_queue: &'static str,
    pub gmp_thread: &'static str,
    pub gmp_syscall: &'static str,
    pub gmp_handoff: &'static str,
    pub littles_law_caption: &'static str,
    pub littles_law_in_flight: &'static str,
    pub littles_law_time: &'static str,
    pub littles_law_threads: &'static str,
    pub littles_law_parking: &'static str,
    pub littles_law_pool: &'static str,
    pub littles_law_note: &'static str,
    // --- Chapter go-scheduler: the replay, continued ---
    pub replay_first: &'static str,
    pub replay_back: &'static str,
    pub replay_play: &'static str,
    pub replay_pause: &'static str,
    pub replay_forward: &'static str,
    pub replay_last: &'static str,
    pub replay_speed: &'static str,
    pub replay_step: &'static str,
    pub replay_step_value: &'static str,
    pub replay_speed_value: &'static str,
    pub replay_strip_label: &'static str,
    pub replay_reduced_motion: &'static str,
    pub replay_status: &'static str,
    pub replay_start: &'static str,
    pub replay_empty: &'static str,
    pub ev_spawn_local: &'static str,
    pub ev_spawn_global: &'static str,
    pub ev_run: &'static str,
    pub ev_park: &'static str,
    pub ev_wake_local: &'static str,
    pub ev_wake_global: &'static str,
    pub ev_steal: &'static str,
    pub ev_finish: &'static str,
    pub col_running: &'static str,
    pub col_local_queue: &'static str,
    pub global_queue: &'static str,
    pub parked_tasks: &'static str,
    pub finished_tasks: &'static str,
    pub idle: &'static str,
    pub queue_empty: &'static str,
    pub replay_invalid: &'static str,

    // --- Chapter os-scheduler: the simulation ---
    pub os_title: &'static str,
    pub os_simulation_note: &'static str,
    pub threads: &'static str,
    pub threads_help: &'static str,
    pub cores: &'static str,
    pub cores_help: &'static str,
    pub quantum: &'static str,
    pub quantum_help: &'static str,
    pub switch_cost: &'static str,
    pub switch_cost_help: &'static str,
    pub seed: &'static str,
    pub seed_help: &'static str,
    pub mix: &'static str,
    pub mix_cpu: &'static str,
    pub mix_io: &'static str,
    pub mix_mixed: &'static str,
    pub gantt_caption: &'static str,
    pub states_caption: &'static str,
    pub gantt_summary: &'static str,
    pub core_lane: &'static str,
    pub thread_lane: &'static str,
    pub col_thread: &'static str,
    pub col_arrival: &'static str,
    pub col_cpu_ms: &'static str,
    pub col_io_ms: &'static str,
    pub col_waiting_ms: &'static str,
    pub col_turnaround_ms: &'static str,
    pub col_preemptions: &'static str,
    pub col_switches: &'static str,
    pub threads_caption: &'static str,
    pub totals_caption: &'static str,
    pub total_avg_waiting: &'static str,
    pub total_avg_turnaround: &'static str,
    pub total_makespan: &'static str,
    pub total_utilisation: &'static str,
    pub total_switches: &'static str,
    pub total_preemptions: &'static str,
    pub simulation_refused: &'static str,
    pub axis_time_sim: &'static str,
    // Solve, then reveal: predict the simulated schedule, then see it.
    pub quiz_toggle: &'static str,
    pub quiz_heading: &'static str,
    pub quiz_intro: &'static str,
    pub quiz_threads_caption: &'static str,
    pub quiz_col_bursts: &'static str,
    pub quiz_burst_cpu: &'static str,
    pub quiz_burst_io: &'static str,
    pub quiz_first_question: &'static str,
    pub quiz_last_question: &'static str,
    pub quiz_choose: &'static str,
    pub quiz_reveal: &'static str,
    pub quiz_next: &'static str,
    pub quiz_right: &'static str,
    pub quiz_wrong: &'static str,
    pub quiz_first_answer: &'static str,
    pub quiz_last_answer: &'static str,
    pub quiz_your_guess: &'static str,
    pub quiz_no_guess: &'static str,

    // --- Predict, then run: every experiment's question and the comparison after the run ---
    pub predict_kicker: &'static str,
    pub predict_help: &'static str,
    pub predict_result: &'static str,
    pub predict_result_model: &'static str,
    pub predict_right: &'static str,
    pub predict_wrong: &'static str,
    pub predict_value_speedup: &'static str,
    pub predict_value_overhead: &'static str,
    pub predict_value_memory: &'static str,
    pub predict_value_switch: &'static str,
    pub predict_value_qps: &'static str,
    pub predict_value_steals: &'static str,
    pub predict_workers_options: [&'static str; 4],
    pub predict_demo_question: &'static str,
    pub predict_demo_options: [&'static str; 3],
    pub predict_sum_question: &'static str,
    pub predict_sort_question: &'static str,
    pub predict_hash_question: &'static str,
    pub predict_docs_question: &'static str,
    pub predict_cpu_io_question_io: &'static str,
    pub predict_cpu_io_question_cpu: &'static str,
    pub predict_granularity_question: &'static str,
    pub predict_granularity_options: [&'static str; 4],
    pub predict_memory_question: &'static str,
    pub predict_memory_options: [&'static str; 4],
    pub predict_switch_question: &'static str,
    pub predict_switch_options: [&'static str; 4],
    pub predict_qps_question: &'static str,
    pub predict_qps_options: [&'static str; 3],
    pub predict_go_question: &'static str,
    pub predict_go_options: [&'static str; 3],

    // --- Every experiment: share, embed, download ---
    pub share_label: &'static str,
    pub share_menu: &'static str,
    pub copy_link: &'static str,
    pub copied: &'static str,
    pub copy_failed: &'static str,
    pub embed: &'static str,
    pub download_csv: &'static str,
    pub download_json: &'static str,
    pub embed_title: &'static str,
    pub embed_help: &'static str,
    pub embed_experiment: &'static str,
    pub embed_chapter: &'static str,
    pub copy_snippet: &'static str,
    pub plain_link: &'static str,
    pub embed_isolation_note: &'static str,
    pub close: &'static str,
    pub embed_from: &'static str,
    pub open_full_lesson: &'static str,

    // --- Chapter task-costs: granularity, memory, switches ---
    pub granularity_title: &'static str,
    pub memory_title: &'static str,
    pub switch_title: &'static str,
    pub granularity_tasks_help: &'static str,
    pub granularity_workers_help: &'static str,
    pub granularity_run: &'static str,
    pub granularity_loop: &'static str,
    pub granularity_rayon: &'static str,
    pub granularity_goroutines: &'static str,
    pub granularity_passes: &'static str,
    pub series_rayon: &'static str,
    pub series_goroutines: &'static str,
    pub granularity_caption: &'static str,
    pub granularity_empty: &'static str,
    pub count_sweep: &'static str,
    pub count_sweep_up_to: &'static str,
    pub count_sweep_up_to_help: &'static str,
    pub count_series: &'static str,
    pub count_axis: &'static str,
    pub count_caption: &'static str,
    pub count_batching_claim: &'static str,
    pub count_your_loss: &'static str,
    pub count_loss_more: &'static str,
    pub count_loss_less: &'static str,
    pub count_loss_times: &'static str,
    pub count_empty: &'static str,
    pub sqrt_per_task: &'static str,
    pub threshold_us: &'static str,
    pub threshold_ms: &'static str,
    pub parked_tasks_label: &'static str,
    pub parked_tasks_help: &'static str,
    pub measure_memory: &'static str,
    pub memory_job_parked: &'static str,
    pub memory_job_workers: &'static str,
    pub memory_task_line: &'static str,
    pub memory_spawn_line: &'static str,
    pub memory_worker_line: &'static str,
    pub memory_ratio_line: &'static str,
    pub memory_worker_waiting: &'static str,
    pub memory_worker_unavailable: &'static str,
    pub memory_block_not_isolated: &'static str,
    pub memory_block_no_api: &'static str,
    pub memory_block_engine_ran: &'static str,
    pub memory_block_refused: &'static str,
    pub memory_block_no_answer: &'static str,
    pub memory_reload_and_measure: &'static str,
    pub memory_worker_failed: &'static str,
    pub memory_answer_without_bytes: &'static str,
    pub idle_worker_refused: &'static str,
    pub idle_worker_not_loaded: &'static str,
    pub idle_worker_ended: &'static str,
    pub idle_worker_late: &'static str,
    pub round_trips: &'static str,
    pub round_trips_help: &'static str,
    pub measure_switches: &'static str,
    pub switch_threads: &'static str,
    pub switch_goroutines: &'static str,
    pub switch_caption: &'static str,
    pub col_ns_median: &'static str,
    pub col_ns_min: &'static str,
    pub col_ns_max: &'static str,
    pub switch_ratio: &'static str,
    pub switch_single_worker: &'static str,
    pub cost_claims_title: &'static str,
    pub cost_claim_overhead: &'static str,
    pub cost_claim_memory: &'static str,
    pub cost_claim_lighter: &'static str,

    // --- Chapter hashing ---
    pub hash_title: &'static str,
    pub hash_source: &'static str,
    pub hash_generated: &'static str,
    pub hash_file: &'static str,
    pub hash_size: &'static str,
    pub hash_size_help: &'static str,
    pub hash_pick: &'static str,
    pub hash_drop: &'static str,
    pub hash_no_file: &'static str,
    pub hash_file_chosen: &'static str,
    pub hashes: &'static str,
    pub hashes_help: &'static str,
    pub hash_run_presets: &'static str,
    pub hash_loop: &'static str,
    pub hash_tasks: &'static str,
    pub hash_timeline_note: &'static str,
    pub hash_digest: &'static str,
    pub hash_digests_agree: &'static str,
    pub hash_digests_differ: &'static str,
    pub hash_throughput_caption: &'static str,
    pub col_mb_per_s: &'static str,
    pub hash_claim: &'static str,

    // --- Chapter high-concurrency: the load test ---
    pub qps_title: &'static str,
    pub qps_requests: &'static str,
    pub qps_requests_help: &'static str,
    pub qps_concurrency: &'static str,
    pub qps_concurrency_help: &'static str,
    pub qps_wait: &'static str,
    pub qps_wait_help: &'static str,
    pub qps_work: &'static str,
    pub qps_work_help: &'static str,
    pub qps_threads: &'static str,
    pub qps_threads_help: &'static str,
    pub qps_workers: &'static str,
    pub qps_workers_help: &'static str,
    pub qps_pool_server: &'static str,
    pub qps_goroutine_server: &'static str,
    pub qps_caption: &'static str,
    pub col_server: &'static str,
    pub col_qps: &'static str,
    pub col_p50: &'static str,
    pub col_p95: &'static str,
    pub col_p99: &'static str,
    pub col_computing: &'static str,
    pub col_held: &'static str,
    pub col_in_flight: &'static str,
    pub qps_ratio: &'static str,
    pub in_flight_caption: &'static str,
    pub axis_in_flight: &'static str,
    pub axis_time_run: &'static str,
    pub qps_single_worker: &'static str,
    pub published_qps_caption: &'static str,
    pub col_case: &'static str,
    pub qps_case_hello_world: &'static str,
    pub qps_case_sleep: &'static str,

    // --- Chapter sum ---
    pub sum_title: &'static str,
    pub sum_series: &'static str,
    pub sum_sequential_long: &'static str,
    pub sum_tasks_long: &'static str,
    pub shared_total_title: &'static str,
    pub shared_total_measure: &'static str,
    pub shared_total_loop: &'static str,
    pub shared_total_private: &'static str,
    pub shared_total_one_shared: &'static str,
    pub shared_total_side_by_side: &'static str,
    pub shared_total_series_private: &'static str,
    pub shared_total_series_one_shared: &'static str,
    pub shared_total_series_side_by_side: &'static str,
    pub shared_total_single_worker: &'static str,
    pub shared_total_sweep_title: &'static str,
    pub shared_total_sweep_caption: &'static str,
    pub shared_total_sweep_empty: &'static str,
    pub predict_shared_total_question: &'static str,

    // --- Work it out: a figure the reader computes, checked, then set beside the measurement ---
    pub work_kicker: &'static str,
    /// The answer field's label: "{unit}" is the answer's unit.
    pub work_answer: &'static str,
    pub work_check: &'static str,
    pub work_help: &'static str,
    pub work_unreadable: &'static str,
    pub work_right: &'static str,
    pub work_wrong: &'static str,
    pub work_formula: &'static str,
    pub work_measured: &'static str,
    /// Until a question's inputs are measured: "{button}" is the button that measures them.
    pub work_first: &'static str,
    /// Beside the formula's answer until the measurement exists.
    pub work_to_measure: &'static str,
    pub work_measured_on: &'static str,
    pub work_measured_cores: &'static str,
    pub work_measured_best: &'static str,
    pub work_measured_loop: &'static str,
    pub work_measured_goroutines: &'static str,
    pub work_measured_count: &'static str,
    pub work_value_ms: &'static str,
    pub work_value_times: &'static str,
    pub work_value_rps: &'static str,
    pub work_at_least_ms: &'static str,
    pub work_at_most_times: &'static str,
    pub work_at_most_rps: &'static str,
    pub work_about_ms: &'static str,
    pub unit_ms: &'static str,
    /// The unit of a speedup: × (倍 in Chinese and Japanese).
    pub unit_times: &'static str,
    pub unit_rps: &'static str,
    pub work_ideal_worked: &'static str,
    pub work_sum_question: &'static str,
    pub work_demo_question: &'static str,
    pub work_cpu_question: &'static str,
    pub work_amdahl_question: &'static str,
    pub work_amdahl_worked: &'static str,
    pub work_amdahl_none: &'static str,
    pub work_hash_question: &'static str,
    pub work_hash_worked: &'static str,
    pub work_qps_question: &'static str,
    pub work_qps_worked: &'static str,
    pub work_qps_zero: &'static str,
    pub work_docs_question: &'static str,
    pub work_docs_worked: &'static str,
    pub work_docs_zero: &'static str,
    pub work_io_question: &'static str,
    pub work_io_worked: &'static str,
    pub work_cost_question: &'static str,
    pub work_cost_worked: &'static str,

    // --- The code beside the result ---
    pub code_summary: &'static str,
    pub code_rust_heading: &'static str,
    /// The Rust heading of a model the page runs itself (not the engine).
    pub code_rust_heading_model: &'static str,
    pub code_go_heading: &'static str,
    pub code_role_sequential: &'static str,
    pub code_role_pool: &'static str,
    pub code_role_goroutines: &'static str,
    pub code_role_shared: &'static str,
    pub code_role_both: &'static str,
    pub code_role_model_loop: &'static str,
    pub code_role_model_steps: &'static str,
    /// One part's line count: "{role}: {lines}".
    pub code_count: &'static str,
    pub code_line_forms: Forms,
    pub code_weigh: &'static str,
    /// Said under a model's listing instead of `code_weigh`.
    pub code_weigh_model: &'static str,
}

/// Every language's table, by tag, English first. Not for the app (it would pull every table into
/// its module): for the build, which writes the fetched tables, and for tests.
pub fn tables() -> [(&'static str, &'static Ui); 5] {
    [("en", &en::EN), ("ru", &ru::RU), ("zh", &zh::ZH), ("ja", &ja::JA), ("hi", &hi::HI)]
}

/// The table of `tag`, if the interface speaks that language (like [`tables`], not for the app).
pub fn table(tag: &str) -> Option<&'static Ui> {
    tables().into_iter().find(|(t, _)| *t == tag).map(|(_, table)| table)
}

/// The fetched form of a table: a JSON object of each field's texts, `{"site_name": ["…"], …}`.
pub fn to_json(ui: &Ui) -> String {
    to_json_with(ui, Vec::new())
}

/// [`to_json`] with more entries after the table's fields (the language's text titles: see
/// [`text_key`]).
pub fn to_json_with(ui: &Ui, more: Vec<(String, Vec<String>)>) -> String {
    let mut fields: serde_json::Map<String, serde_json::Value> =
        ui.texts().into_iter().map(|(name, texts)| (name.to_string(), serde_json::json!(texts))).collect();
    fields.extend(more.into_iter().map(|(key, texts)| (key, serde_json::json!(texts))));
    serde_json::Value::Object(fields).to_string()
}

/// The key of a text's entry in a language's fetched file: `["title", "summary", "prose file"]`
/// (the app compiles in the English ones only).
pub fn text_key(slug: &str) -> String {
    format!("text:{slug}")
}

/// Where the site serves the fetched file of `tag`: `ui/<tag>-<hash>.json`, the hash of its bytes
/// in the name, so a changed file has a new name and a cached one never goes stale.
pub fn site_path(tag: &str, json: &str) -> String {
    // 64-bit FNV-1a: stable across builds and machines (not for security).
    let hash =
        json.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("ui/{tag}-{hash:016x}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_survives_its_trip_through_json() {
        for (tag, table) in tables() {
            let json: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&to_json(table)).unwrap();
            let back = Ui::from_texts(&mut |name| {
                json.get(name)?.as_array()?.iter().map(|t| t.as_str().map(String::from)).collect()
            })
            .unwrap_or_else(|field| panic!("{tag}: {field}"));
            assert_eq!(back.texts(), table.texts(), "{tag}");
        }
    }

    #[test]
    fn a_table_missing_a_field_or_a_text_is_refused_by_name() {
        let texts: Vec<(&str, Vec<&str>)> = en::EN.texts();
        let without = |skip: &str| {
            Ui::from_texts(&mut |name| {
                (name != skip)
                    .then(|| texts.iter().find(|(n, _)| *n == name).unwrap().1.iter().map(|t| t.to_string()).collect())
            })
        };
        assert_eq!(without("site_name").err(), Some("site_name"));
        assert!(without("no_such_field").is_ok());
        let short = Ui::from_texts(&mut |name| {
            let found = texts.iter().find(|(n, _)| *n == name).unwrap().1.clone();
            Some(if name == "site_name" { Vec::new() } else { found.iter().map(|t| t.to_string()).collect() })
        });
        assert_eq!(short.err(), Some("site_name"));
    }

    #[test]
    fn the_layout_lists_every_field_once_in_order_and_no_two_overlap() {
        let names: Vec<&str> = en::EN.texts().into_iter().map(|(name, _)| name).collect();
        assert_eq!(LAYOUT.iter().map(|s| s.name).collect::<Vec<_>>(), names);
        let word = std::mem::size_of::<&str>();
        let mut spans: Vec<(usize, usize)> = LAYOUT
            .iter()
            .map(|slot| {
                let words = match slot.shape {
                    Shape::One | Shape::Slice => 1,
                    Shape::Array(n) => n,
                };
                (slot.offset, slot.offset + words * word)
            })
            .collect();
        spans.sort();
        assert!(spans.windows(2).all(|pair| pair[0].1 <= pair[1].0), "two fields overlap");
        assert!(spans.last().unwrap().1 <= std::mem::size_of::<Ui>());
    }

    #[test]
    fn file_names_follow_the_bytes() {
        assert_eq!(site_path("ru", "{}"), site_path("ru", "{}"));
        assert_ne!(site_path("ru", "{}"), site_path("ru", "{ }"));
        assert!(site_path("ja", "{}").starts_with("ui/ja-"));
    }
}
