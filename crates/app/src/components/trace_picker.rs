//! Which measured job a timeline shows: every traced job of a panel's runs and sweeps, and the
//! picker ("Timeline of") with which the reader chooses one. The timeline's heading names the
//! choice, so a timeline never seems to show what the sliders say when it shows a sweep point.

use super::controls::unique_id;
use crate::i18n::{fill, ui};
use experiments::Measurement;
use leptos::prelude::*;

/// The oldest choices are forgotten beyond this many (each keeps its traces).
const MAX_CHOICES: usize = 48;

/// One choice of the picker: a run's job, or one point of a sweep, with its traced measurements
/// (one, or several measured at that point, such as threads and goroutines).
#[derive(Clone, Debug, PartialEq)]
pub struct TracedJob {
    key: u64,
    /// The run or sweep it belongs to, as the reader names it ("Run 2", "Sweep 3").
    pub run: String,
    /// The point within it ("8 tasks on 2 workers").
    pub point: String,
    pub measurements: Vec<Measurement>,
}

impl TracedJob {
    /// "Run 2: 8 tasks on 2 workers".
    pub fn label(&self) -> String {
        fill(ui().trace_choice, &[("run", &self.run), ("point", &self.point)])
    }

    /// The first measurement that `pick` accepts.
    pub fn find(&self, pick: impl Fn(&Measurement) -> bool) -> Option<&Measurement> {
        self.measurements.iter().find(|m| pick(m))
    }
}

/// The traced jobs of one panel and the one chosen; the newest is chosen as it arrives.
#[derive(Clone, Copy)]
pub struct TraceLog {
    jobs: RwSignal<Vec<TracedJob>>,
    chosen: RwSignal<Option<u64>>,
    next_key: StoredValue<u64>,
}

impl Default for TraceLog {
    fn default() -> Self {
        Self::new()
    }
}

impl TraceLog {
    pub fn new() -> Self {
        TraceLog { jobs: RwSignal::new(Vec::new()), chosen: RwSignal::new(None), next_key: StoredValue::new(0) }
    }

    /// Keep `measurement` as (part of) the choice `point` of `run` (a run's label, "Run 2" or
    /// "Sweep 3"), and show that choice.
    pub fn add(&self, run: String, point: String, measurement: Measurement) {
        let existing =
            self.jobs.with_untracked(|jobs| jobs.iter().find(|j| j.run == run && j.point == point).map(|j| j.key));
        let key = match existing {
            Some(key) => {
                self.jobs.update(|jobs| {
                    if let Some(job) = jobs.iter_mut().find(|j| j.key == key) {
                        job.measurements.push(measurement);
                    }
                });
                key
            }
            None => {
                self.next_key.update_value(|k| *k += 1);
                let key = self.next_key.get_value();
                self.jobs.update(|jobs| {
                    jobs.push(TracedJob { key, run, point, measurements: vec![measurement] });
                    let excess = jobs.len().saturating_sub(MAX_CHOICES);
                    jobs.drain(..excess);
                });
                key
            }
        };
        self.chosen.set(Some(key));
    }

    /// The chosen job (the newest if the chosen one was forgotten), `None` before any.
    pub fn shown(&self) -> Signal<Option<TracedJob>> {
        let (jobs, chosen) = (self.jobs, self.chosen);
        Signal::derive(move || {
            let chosen = chosen.get();
            jobs.with(|jobs| jobs.iter().find(|j| Some(j.key) == chosen).or(jobs.last()).cloned())
        })
    }

    /// The chosen job's first measurement that `pick` accepts, with the heading that names it.
    pub fn shown_where(
        &self,
        pick: impl Fn(&Measurement) -> bool + Send + Sync + 'static,
        describe: impl Fn(&Measurement) -> String + Send + Sync + 'static,
    ) -> (Signal<Option<Measurement>>, Signal<String>) {
        let shown = self.shown();
        let pick = std::sync::Arc::new(pick);
        let picked = {
            let pick = pick.clone();
            Signal::derive(move || shown.with(|job| job.as_ref().and_then(|job| job.find(|m| pick(m)).cloned())))
        };
        let heading = Signal::derive(move || {
            shown.with(|job| {
                job.as_ref()
                    .and_then(|job| {
                        job.find(|m| pick(m))
                            .map(|m| fill(ui().trace_choice, &[("run", &job.run), ("point", &describe(m))]))
                    })
                    .unwrap_or_default()
            })
        });
        (picked, heading)
    }
}

/// The "Timeline of" picker: one option per traced job, grouped by run and sweep.
#[component]
pub fn TracePicker(log: TraceLog, #[prop(optional)] test_id: &'static str) -> impl IntoView {
    let t = ui();
    let id = unique_id("timeline-of");
    let shown = log.shown();
    let groups = move || {
        log.jobs.with(|jobs| {
            let mut groups: Vec<(String, Vec<(u64, String)>)> = Vec::new();
            for job in jobs {
                match groups.last_mut() {
                    Some((run, options)) if *run == job.run => options.push((job.key, job.label())),
                    _ => groups.push((job.run.clone(), vec![(job.key, job.label())])),
                }
            }
            groups
        })
    };
    let picker_test_id = if test_id.is_empty() { "trace-picker" } else { test_id };
    view! {
        <Show when=move || log.jobs.with(|jobs| !jobs.is_empty())>
            <div class="control timeline-choice">
                <label for=id.clone()>{t.trace_picker_label}</label>
                <select
                    id=id.clone()
                    data-testid=picker_test_id
                    prop:value=move || shown.with(|job| job.as_ref().map(|j| j.key.to_string()).unwrap_or_default())
                    on:change=move |ev| {
                        if let Ok(key) = event_target_value(&ev).parse::<u64>() {
                            log.chosen.set(Some(key));
                        }
                    }
                >
                    {move || groups().into_iter().map(|(run, options)| view! {
                        <optgroup label=run>
                            {options.into_iter().map(|(key, label)| {
                                let selected = move || shown.with(|job| job.as_ref().is_some_and(|j| j.key == key));
                                view! { <option value=key.to_string() selected=selected>{label}</option> }
                            }).collect_view()}
                        </optgroup>
                    }).collect_view()}
                </select>
            </div>
        </Show>
    }
}
