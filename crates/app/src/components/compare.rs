//! Class results, compared: an experiment's panel loads results files downloaded from the same
//! experiment (a file picker, or files dropped on it; read on the page, nothing uploaded), refuses
//! the ones it cannot compare with a reason, and shows every machine's rows side by side with the
//! reader's own, and their sweeps on the speedup chart.

use super::results::ResultRow;
use super::speedup_chart::{Series, SweepPoint};
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::ExperimentId;
use experiments::compare::{self, Download, DownloadMachine, DownloadRow, Refusal};
use experiments::Summary;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The shapes that tell loaded machines apart on a chart (with their colours), also written in the
/// legend and the table; the reader's own points are circles.
pub const SHAPES: [&str; 4] = ["■", "▲", "◆", "▼"];

/// One file loaded for comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedFile {
    /// Unique across the page's lifetime (keys the list).
    pub key: u64,
    pub file_name: String,
    pub download: Download,
}

/// What a panel's comparison holds: the files loaded and the refusals of the last ones given.
#[derive(Clone, Copy)]
pub struct Compared {
    pub files: RwSignal<Vec<LoadedFile>>,
    refusals: RwSignal<Vec<String>>,
    next_key: StoredValue<u64>,
}

/// Which count a chart's x axis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweptCount {
    Workers,
    Tasks,
}

impl Compared {
    pub fn new() -> Self {
        Compared {
            files: RwSignal::new(Vec::new()),
            refusals: RwSignal::new(Vec::new()),
            next_key: StoredValue::new(0),
        }
    }

    /// Each loaded file's last sweep as lines of a speedup chart over `x`: one line per variant
    /// measured against its baseline, named by the machine.
    pub fn sweep_series(self, x: SweptCount) -> Signal<Vec<Series>> {
        Signal::derive(move || {
            self.files.with(|files| {
                files
                    .iter()
                    .enumerate()
                    .flat_map(|(index, file)| {
                        let sweep = file.download.last_sweep();
                        let mut kinds: Vec<&str> = Vec::new();
                        for row in &sweep {
                            if row.speedup.is_some() && row.kind != "sequential" && !kinds.contains(&row.kind.as_str())
                            {
                                kinds.push(&row.kind);
                            }
                            // A hostile file's thousands of kinds would be thousands of lines.
                            if kinds.len() == compare::MAX_SERIES_PER_FILE {
                                break;
                            }
                        }
                        let machine = machine_label(&file.download.machine);
                        let shape = SHAPES[index % SHAPES.len()];
                        kinds
                            .into_iter()
                            .map(|kind| {
                                let rows = sweep.iter().filter(|r| r.kind == kind);
                                let variant = sweep.iter().find(|r| r.kind == kind).map_or("", |r| r.variant.as_str());
                                Series {
                                    name: format!("{shape} {machine}: {variant}"),
                                    points: rows
                                        .filter_map(|r| {
                                            Some(SweepPoint {
                                                x: match x {
                                                    SweptCount::Workers => r.workers,
                                                    SweptCount::Tasks => r.tasks,
                                                },
                                                summary: summary(r),
                                                speedup: r.speedup?,
                                            })
                                        })
                                        .take(compare::MAX_POINTS_PER_SERIES)
                                        .collect(),
                                }
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect()
            })
        })
    }

    /// Read `files` (from the picker or a drop) for `experiment`, against `settings` (the reader's
    /// latest run's, or the page's), at most [`compare::MAX_FILES`] in all.
    fn load(self, experiment: ExperimentId, files: web_sys::FileList, settings: Vec<(String, String)>) {
        self.refusals.set(Vec::new());
        let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        leptos::task::spawn_local(async move {
            for file in files {
                let name: String = file.name().chars().take(80).collect();
                let size = file.size() as u64;
                let full = self.files.with_untracked(Vec::len) >= compare::MAX_FILES;
                let checked = if full {
                    Err(None)
                } else if size > compare::MAX_FILE_BYTES {
                    Err(Some(Refusal::TooLarge))
                } else {
                    match JsFuture::from(file.text()).await {
                        Ok(text) => {
                            compare::check(&text.as_string().unwrap_or_default(), size, experiment.slug(), &settings)
                                .map_err(Some)
                        }
                        Err(_) => Err(Some(Refusal::NotResults(String::new()))),
                    }
                };
                // Another load (a second drop while this file was read) may have filled the list
                // meanwhile: the count is taken again here, with no await before the file is added.
                let checked = checked.and_then(|download| {
                    if self.files.with_untracked(Vec::len) >= compare::MAX_FILES {
                        Err(None)
                    } else {
                        Ok(download)
                    }
                });
                match checked {
                    Ok(download) => {
                        if download.left_out > 0 {
                            let text = message(
                                ui().compare_left_out,
                                &[("file", Arg::Text(&name)), ("rows", Arg::Count(download.left_out as u64))],
                            );
                            self.refusals.update(|r| r.push(text));
                        }
                        let key = self.next_key.get_value();
                        self.next_key.set_value(key + 1);
                        self.files.update(|f| f.push(LoadedFile { key, file_name: name, download }));
                    }
                    Err(refusal) => {
                        let reason = match refusal {
                            Some(refusal) => refusal_text(&refusal),
                            None => {
                                message(ui().refusal_too_many_files, &[("max", Arg::Count(compare::MAX_FILES as u64))])
                            }
                        };
                        let text = fill(ui().compare_refused, &[("file", &name), ("reason", &reason)]);
                        self.refusals.update(|r| r.push(text));
                    }
                }
            }
        });
    }
}

impl Default for Compared {
    fn default() -> Self {
        Self::new()
    }
}

/// The settings loaded files are checked against: the reader's latest run's, or while there is
/// none the page's (as query pairs).
fn reference_settings(own: &[ResultRow]) -> Vec<(String, String)> {
    if let Some(last) = own.last() {
        return last.context.settings.clone();
    }
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn summary(r: &DownloadRow) -> Summary {
    Summary { median_ms: r.median_ms, min_ms: r.min_ms, max_ms: r.max_ms }
}

/// "8 logical processors, Chromium 156, isolated".
pub fn machine_label(m: &DownloadMachine) -> String {
    let t = ui();
    message(
        t.compare_machine,
        &[
            ("cores", Arg::Count(m.logical_processors as u64)),
            ("browser", Arg::Text(m.browser.as_deref().unwrap_or(t.unknown_browser))),
            ("isolation", Arg::Text(if m.isolated { t.compare_isolated } else { t.compare_not_isolated })),
        ],
    )
}

/// Why a file was refused, in the reader's words.
fn refusal_text(refusal: &Refusal) -> String {
    let t = ui();
    match refusal {
        Refusal::TooLarge => message(t.refusal_too_large, &[("mb", Arg::Count(compare::MAX_FILE_BYTES >> 20))]),
        Refusal::NotResults(_) => t.refusal_not_results.to_string(),
        Refusal::OtherExperiment(name) => fill(t.refusal_other_experiment, &[("name", name)]),
        Refusal::Empty => t.refusal_empty.to_string(),
        Refusal::TooManyRows => message(t.refusal_too_many_rows, &[("max", Arg::Count(compare::MAX_ROWS as u64))]),
        Refusal::Impossible(field) => fill(t.refusal_impossible, &[("field", field)]),
        Refusal::OtherSettings(differences) => {
            let listed: Vec<String> = differences
                .iter()
                .map(|d| {
                    let value = |v: &Option<String>| v.clone().unwrap_or_else(|| t.setting_default.to_string());
                    fill(t.setting_difference, &[("key", &d.key), ("file", &value(&d.file)), ("page", &value(&d.page))])
                })
                .collect();
            fill(t.refusal_other_settings, &[("differences", &listed.join(", "))])
        }
    }
}

/// The comparison's section of a panel: load files, list them (each removable), say why any was
/// refused, and show all rows side by side with the reader's `own`.
#[component]
pub fn CompareResults(experiment: ExperimentId, own: Signal<Vec<ResultRow>>, compared: Compared) -> impl IntoView {
    let t = ui();
    let input_id = crate::components::controls::unique_id("compare-files");
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(files) = ev.data_transfer().and_then(|d| d.files()) {
            compared.load(experiment, files, own.with_untracked(|own| reference_settings(own)));
        }
    };
    // In the table a machine is its shape and a short name (its file's, or "this machine"); the
    // list above says what each shape's machine is, and each cell's title repeats it.
    let this_machine = {
        let m = crate::environment::machine();
        machine_label(&DownloadMachine {
            logical_processors: m.logical_processors,
            browser: m.browser,
            isolated: m.isolated,
        })
    };
    let any = move || compared.files.with(|f| !f.is_empty());
    // Loaded files are not kept: leaving the page with some asks first (components::kept).
    Effect::new(move |_| super::kept::compared(experiment, any()));
    view! {
        <details class="compare" data-testid="compare">
            <summary>{t.compare_title}</summary>
            <div class="drop-zone" data-testid="compare-drop"
                on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=on_drop
            >
                <label for=input_id.clone()>{t.compare_pick}</label>
                <input type="file" id=input_id.clone() multiple accept=".json,application/json" on:change=move |ev| {
                    let input: web_sys::HtmlInputElement = event_target(&ev);
                    if let Some(files) = input.files() {
                        compared.load(experiment, files, own.with_untracked(|own| reference_settings(own)));
                    }
                    // The same file can be chosen again after it is removed.
                    input.set_value("");
                } />
                <p class="help">{t.compare_help}</p>
            </div>
            {move || compared.refusals.get().into_iter().map(|text| view! {
                <p class="notice notice-warning" role="alert" data-testid="compare-refusal">{text}</p>
            }).collect_view()}
            <Show when=any>
                {loaded_files(compared)}
                {compared_table(own, compared, this_machine.clone())}
                {move || {
                    let rows = own.with(Vec::len) + compared.files.with(|f| f.iter().map(|f| f.download.rows.len()).sum::<usize>());
                    (rows > compare::MAX_SHOWN_ROWS).then(|| view! {
                        <p class="help" data-testid="compare-capped">
                            {message(t.compare_rows_capped, &[
                                ("shown", Arg::Count(compare::MAX_SHOWN_ROWS as u64)),
                                ("rows", Arg::Count(rows as u64)),
                            ])}
                        </p>
                    })
                }}
            </Show>
        </details>
    }
}

/// The files loaded, each with its shape and a button that removes it.
fn loaded_files(compared: Compared) -> impl IntoView {
    let t = ui();
    view! {
        <ul class="compare-files" data-testid="compare-files">
            {move || compared.files.get().into_iter().enumerate().map(|(index, file)| {
                let machine = machine_label(&file.download.machine);
                let shape = SHAPES[index % SHAPES.len()];
                let remove_label = fill(t.compare_remove, &[("machine", &machine)]);
                let key = file.key;
                view! {
                    <li>
                        <span class="compare-shape" aria-hidden="true">{shape}</span>" "
                        {format!("{machine} ({})", file.file_name)}" "
                        <button type="button" aria-label=remove_label on:click=move |_| {
                            compared.files.update(|f| f.retain(|f| f.key != key));
                        }>{t.compare_remove_button}</button>
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// This machine's rows and every loaded file's, side by side (at most `compare::MAX_SHOWN_ROWS`).
fn compared_table(own: Signal<Vec<ResultRow>>, compared: Compared, this_machine: String) -> impl IntoView {
    let t = ui();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="compared" data-testid="compared">
                <caption>{t.compare_table_caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_machine}</th>
                        <th scope="col">{t.col_run}</th>
                        <th scope="col">{t.col_variant}</th>
                        <th scope="col">{t.col_workers}</th>
                        <th scope="col">{t.col_tasks}</th>
                        <th scope="col">{t.col_median}</th>
                        <th scope="col">{t.col_speedup}</th>
                    </tr>
                </thead>
                <tbody>
                    {
                        move || {
                            let mine = own.get().into_iter().map(|r| {
                                let name = format!("● {}", t.compare_this_machine);
                                ((name, this_machine.clone()), "own", r.run, r.variant, r.workers, r.tasks, r.summary.median_ms, r.speedup)
                            }).collect::<Vec<_>>();
                            let theirs: Vec<_> = compared.files.with(|files| {
                                files.iter().enumerate().flat_map(|(index, file)| {
                                    let name = format!("{} {}", SHAPES[index % SHAPES.len()], file.file_name);
                                    let label = machine_label(&file.download.machine);
                                    file.download.rows.iter().map(move |r| {
                                        ((name.clone(), label.clone()), "loaded", r.run, r.variant.clone(), r.workers, r.tasks, r.median_ms, r.speedup)
                                    }).collect::<Vec<_>>()
                                }).collect()
                            });
                            mine.into_iter().chain(theirs).take(compare::MAX_SHOWN_ROWS).map(|((name, machine), origin, run, variant, workers, tasks, median, speedup)| view! {
                                <tr data-origin=origin>
                                    <td title=machine>{name}</td>
                                    <td class="num">{format::int(run as u64)}</td>
                                    <th scope="row">{variant}</th>
                                    <td class="num">{format::int(workers as u64)}</td>
                                    <td class="num">{format::int(tasks as u64)}</td>
                                    <td class="num">{format::ms(median)}</td>
                                    <td class="num">{speedup.map(format::times).unwrap_or_else(|| "—".into())}</td>
                                </tr>
                            }).collect_view()
                        }
                    }
                </tbody>
            </table>
        </div>
    }
}
