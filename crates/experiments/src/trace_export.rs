//! A traced run as Chrome trace-event JSON, the format Perfetto's UI (<https://ui.perfetto.dev>) and
//! `chrome://tracing` open: one process named after the run, one thread track per worker, one
//! complete (`"X"`) event per bar of the timeline, and each parked interval as an async span.
//!
//! The format is the JSON object form of Google's "Trace Event Format": `{"traceEvents": [...],
//! "displayTimeUnit": "ms"}`, times in microseconds. Pure: the app turns the result into a file.

use crate::results::Trace;
use serde::Serialize;
use std::collections::BTreeMap;

/// The one process every exported trace describes.
const PROCESS_ID: u32 = 1;

/// The whole file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChromeTrace {
    #[serde(rename = "traceEvents")]
    pub trace_events: Vec<TraceEvent>,
    /// How the viewer labels times (the events themselves are in microseconds).
    #[serde(rename = "displayTimeUnit")]
    pub display_time_unit: &'static str,
    /// Free-form facts about the run, shown by the viewers as the trace's metadata.
    #[serde(rename = "otherData")]
    pub other_data: OtherData,
}

/// What the trace-event viewers show beside the tracks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OtherData {
    pub source: &'static str,
    /// The process name: the experiment and the run.
    pub title: String,
    /// Workers in the run's pool (one thread track each, used or not).
    pub workers: u32,
    pub wall_ms: f64,
    /// Set when the run had too many bars to keep: nothing after this time was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown_until_ms: Option<f64>,
}

/// One event: metadata (`"M"`), a complete span (`"X"`) or the begin/end (`"b"`/`"e"`) of an async
/// span. Fields a phase does not use are left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEvent {
    pub name: String,
    pub ph: &'static str,
    pub pid: u32,
    pub tid: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ts: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dur: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cat: Option<&'static str>,
    /// Pairs the begin and end of an async span.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub args: EventArgs,
}

/// The arguments of an event: a metadata event's `name`, or what a span was.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum EventArgs {
    Name { name: String },
    Slice(SliceArgs),
    None {},
}

/// What one bar of the timeline was.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SliceArgs {
    pub task: u32,
    pub worker: u32,
    /// Which of the task's slices this is, from 1 (a task that parks and resumes runs in several).
    pub slice: u32,
    /// How many slices the task ran in.
    pub slices: u32,
    pub start_ms: f64,
    pub end_ms: f64,
}

/// The thread id of `worker`'s track (thread 0 is left unused: some viewers treat it specially).
pub fn thread_of(worker: u32) -> u32 {
    worker + 1
}

fn micros(ms: f64) -> f64 {
    // Whole nanoseconds are more than the browser's clock resolves; this keeps the file short.
    (ms.max(0.0) * 1_000_000.0).round() / 1_000.0
}

/// `trace` as a Chrome trace: the process is called `title`, and there is one thread track per
/// worker of a pool of `workers` (more if the trace names a later worker). Metadata events come
/// first, then every span and parked interval in time order.
pub fn chrome_trace(title: &str, workers: u32, trace: &Trace) -> ChromeTrace {
    let lanes = trace.spans.iter().map(|s| s.worker + 1).fold(workers.max(1), u32::max);
    let metadata = |name: &str, tid: u32, value: String| TraceEvent {
        name: name.into(),
        ph: "M",
        pid: PROCESS_ID,
        tid,
        ts: None,
        dur: None,
        cat: None,
        id: None,
        args: EventArgs::Name { name: value },
    };
    let mut events = vec![metadata("process_name", 0, title.to_string())];
    events.extend((0..lanes).map(|worker| metadata("thread_name", thread_of(worker), format!("worker {worker}"))));

    // Each task's slices in time order, numbered from 1.
    let mut order: Vec<usize> = (0..trace.spans.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&trace.spans[a], &trace.spans[b]);
        a.start_ms.total_cmp(&b.start_ms).then(a.worker.cmp(&b.worker)).then(a.task.cmp(&b.task))
    });
    let mut slices_of: BTreeMap<u32, u32> = BTreeMap::new();
    for span in &trace.spans {
        *slices_of.entry(span.task).or_default() += 1;
    }
    let mut seen: BTreeMap<u32, u32> = BTreeMap::new();
    let mut timed: Vec<TraceEvent> = Vec::with_capacity(trace.spans.len() + 2 * trace.parked.len());
    for span in order.into_iter().map(|i| &trace.spans[i]) {
        let slice = {
            let count = seen.entry(span.task).or_default();
            *count += 1;
            *count
        };
        let start = micros(span.start_ms);
        timed.push(TraceEvent {
            name: format!("task {}", span.task),
            ph: "X",
            pid: PROCESS_ID,
            tid: thread_of(span.worker),
            ts: Some(start),
            dur: Some((micros(span.end_ms) - start).max(0.0)),
            cat: Some("task"),
            id: None,
            args: EventArgs::Slice(SliceArgs {
                task: span.task,
                worker: span.worker,
                slice,
                slices: slices_of[&span.task],
                start_ms: span.start_ms,
                end_ms: span.end_ms,
            }),
        });
    }
    for (id, parked) in trace.parked.iter().enumerate() {
        let start = micros(parked.start_ms);
        let end = micros(parked.end_ms).max(start);
        for (ph, ts) in [("b", start), ("e", end)] {
            timed.push(TraceEvent {
                name: format!("task {} parked", parked.task),
                ph,
                pid: PROCESS_ID,
                tid: thread_of(parked.worker),
                ts: Some(ts),
                dur: None,
                cat: Some("parked"),
                id: Some(id as u32),
                args: EventArgs::None {},
            });
        }
    }
    // Stable: a parked span's begin stays before its end when both fall at the same time.
    timed.sort_by(|a, b| a.ts.unwrap_or(0.0).total_cmp(&b.ts.unwrap_or(0.0)));
    events.extend(timed);
    ChromeTrace {
        trace_events: events,
        display_time_unit: "ms",
        other_data: OtherData {
            source: "Concurrency Lab",
            title: title.to_string(),
            workers: lanes,
            wall_ms: trace.wall_ms,
            shown_until_ms: trace.shown_until_ms,
        },
    }
}

/// [`chrome_trace`] written as JSON text.
pub fn chrome_trace_json(title: &str, workers: u32, trace: &Trace) -> String {
    serde_json::to_string(&chrome_trace(title, workers, trace)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Span;
    use serde_json::Value;

    fn span(task: u32, worker: u32, start_ms: f64, end_ms: f64) -> Span {
        Span { task, worker, start_ms, end_ms }
    }

    /// Task 0 parks on worker 0 and resumes on worker 1; task 1 runs once; recorded out of time order.
    fn parked_trace() -> Trace {
        Trace {
            spans: vec![span(1, 1, 0.5, 2.0), span(0, 1, 3.0, 4.25), span(0, 0, 0.0, 1.0)],
            parked: vec![span(0, 0, 1.0, 3.0)],
            wall_ms: 4.5,
            ..Trace::default()
        }
    }

    fn parse(title: &str, workers: u32, trace: &Trace) -> Value {
        serde_json::from_str(&chrome_trace_json(title, workers, trace)).expect("valid JSON")
    }

    fn events<'a>(document: &'a Value, ph: &str) -> Vec<&'a Value> {
        document["traceEvents"].as_array().expect("an array").iter().filter(|e| e["ph"] == ph).collect()
    }

    #[test]
    fn the_file_is_the_object_form_with_millisecond_display() {
        let document = parse("Concurrency Lab: sum — Run 1", 2, &parked_trace());
        assert_eq!(document["displayTimeUnit"], "ms");
        assert!(document["traceEvents"].is_array());
        let process = events(&document, "M").into_iter().find(|e| e["name"] == "process_name").expect("named");
        assert_eq!(process["args"]["name"], "Concurrency Lab: sum — Run 1");
    }

    #[test]
    fn one_named_thread_track_per_worker_even_an_idle_one() {
        let document = parse("t", 4, &parked_trace());
        let names: Vec<(u64, &str)> = events(&document, "M")
            .into_iter()
            .filter(|e| e["name"] == "thread_name")
            .map(|e| (e["tid"].as_u64().unwrap(), e["args"]["name"].as_str().unwrap()))
            .collect();
        assert_eq!(names, vec![(1, "worker 0"), (2, "worker 1"), (3, "worker 2"), (4, "worker 3")]);
        // A trace that names a worker beyond the pool still gets its track.
        let wide = Trace { spans: vec![span(0, 5, 0.0, 1.0)], ..Trace::default() };
        assert_eq!(events(&parse("t", 2, &wide), "M").len(), 1 + 6);
    }

    #[test]
    fn one_complete_event_per_span_in_microseconds_sorted_and_never_negative() {
        let trace = parked_trace();
        let document = parse("t", 2, &trace);
        let spans = events(&document, "X");
        assert_eq!(spans.len(), trace.spans.len());
        let starts: Vec<f64> = spans.iter().map(|e| e["ts"].as_f64().unwrap()).collect();
        assert_eq!(starts, vec![0.0, 500.0, 3000.0]);
        assert!(spans.iter().all(|e| e["dur"].as_f64().unwrap() >= 0.0));
        let last = spans[2];
        assert_eq!(
            (last["name"].as_str(), last["tid"].as_u64(), last["dur"].as_f64()),
            (Some("task 0"), Some(2), Some(1250.0))
        );
        assert_eq!(
            (last["args"]["task"].as_u64(), last["args"]["slice"].as_u64(), last["args"]["slices"].as_u64()),
            (Some(0), Some(2), Some(2))
        );
        // Every timed event, spans and parked intervals alike, in time order after the metadata.
        let all = document["traceEvents"].as_array().unwrap();
        let first_timed = all.iter().position(|e| e["ph"] != "M").unwrap();
        assert!(all[..first_timed].iter().all(|e| e["ph"] == "M"));
        let times: Vec<f64> = all[first_timed..].iter().map(|e| e["ts"].as_f64().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    }

    #[test]
    fn a_span_recorded_backwards_lasts_zero_rather_than_a_negative_time() {
        let backwards = Trace { spans: vec![span(0, 0, 2.0, 1.5)], wall_ms: 2.0, ..Trace::default() };
        let document = parse("t", 1, &backwards);
        assert_eq!(events(&document, "X")[0]["dur"].as_f64(), Some(0.0));
    }

    #[test]
    fn parked_intervals_are_async_spans_on_the_worker_the_task_left() {
        let document = parse("t", 2, &parked_trace());
        let (begins, ends) = (events(&document, "b"), events(&document, "e"));
        assert_eq!((begins.len(), ends.len()), (1, 1));
        assert_eq!((begins[0]["ts"].as_f64(), ends[0]["ts"].as_f64()), (Some(1000.0), Some(3000.0)));
        assert_eq!(begins[0]["id"], ends[0]["id"]);
        assert_eq!(begins[0]["name"], "task 0 parked");
    }

    #[test]
    fn an_empty_trace_is_still_a_file_with_its_tracks() {
        let document = parse("t", 3, &Trace::default());
        assert_eq!(events(&document, "M").len(), 4);
        assert!(events(&document, "X").is_empty());
    }
}
