//! What a job returns: every timed sample, their summary, a trace of one run and a correctness check.

use crate::job::Job;
use crate::stats;
use serde::{Deserialize, Serialize};

/// One task's time on one worker, in milliseconds from the start of the traced run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Span {
    /// Index of the worker inside its pool, 0-based.
    pub worker: u32,
    /// Index of the task inside the job, 0-based.
    pub task: u32,
    pub start_ms: f64,
    pub end_ms: f64,
}

/// One step of the M:N task runtime's scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerEventKind {
    /// The task was created and queued: on that worker's local queue, or the global queue if `None`.
    Spawn { queue: Option<u32> },
    /// A worker started polling the task.
    Run,
    /// The poll returned "pending": the task left its worker to wait (it is parked).
    Park,
    /// A timer or another task made the parked task runnable again.
    Wake,
    /// The event's worker took the event's task from `victim`'s local queue, as one of `count` tasks
    /// stolen together (one event per task; the first one taken runs next).
    Steal { victim: u32, count: u32 },

    /// The task completed.
    Finish,
}

/// `kind` happened to `task` on `worker` (`None`: outside any worker) at `at_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SchedulerEvent {
    pub at_ms: f64,
    pub worker: Option<u32>,
    pub task: u32,
    pub kind: SchedulerEventKind,
}

/// Which task ran where and when, during one repetition.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Intervals during which a task ran on a worker.
    pub spans: Vec<Span>,
    /// Intervals during which a task was parked (waiting), attributed to the worker it left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parked: Vec<Span>,
    /// The scheduler's steps, for runs on the M:N runtime (empty for rayon pools).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<SchedulerEvent>,
    /// Wall time of the traced repetition.
    pub wall_ms: f64,
    /// Set when a run had too many spans to keep: spans after this time were not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown_until_ms: Option<f64>,
    /// Set when one pass of the work was too short for the clock to time: the repetition ran this
    /// many passes back to back, and `wall_ms` is their mean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes: Option<u32>,
}

impl Trace {
    /// The distinct workers that ran at least one task, in ascending order.
    pub fn workers_used(&self) -> Vec<u32> {
        let mut workers: Vec<u32> = self.spans.iter().map(|s| s.worker).collect();
        workers.sort_unstable();
        workers.dedup();
        workers
    }

    /// How many distinct tasks ran (a task that parked and resumed has several spans).
    pub fn tasks_seen(&self) -> usize {
        let mut tasks: Vec<u32> = self.spans.iter().map(|s| s.task).collect();
        tasks.sort_unstable();
        tasks.dedup();
        tasks.len()
    }

    /// Sum of all span lengths: how long the tasks ran, on all workers together.
    pub fn busy_ms(&self) -> f64 {
        self.spans.iter().map(|s| (s.end_ms - s.start_ms).max(0.0)).sum()
    }

    /// [`Trace::busy_ms`] divided by (wall time x lanes): how busy the workers were.
    pub fn utilisation(&self, lanes: u32) -> f64 {
        if self.wall_ms <= 0.0 || lanes == 0 {
            return 0.0;
        }
        self.busy_ms() / (self.wall_ms * lanes as f64)
    }
}

/// The median, fastest and slowest of the timed repetitions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
}

/// Did the job compute the right answer? The engine compares against an independently computed value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub ok: bool,
    /// The value the job produced, for display (e.g. the sum).
    pub value: String,
    /// The value it should have produced.
    pub expected: String,
}

/// The outcome of one [`Job`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    pub job: Job,
    /// Every timed repetition in run order (the warm-up is not included).
    pub samples_ms: Vec<f64>,
    pub summary: Summary,
    /// The trace of the repetition whose time was the median.
    pub trace: Trace,
    pub check: Check,
    /// Milliseconds spent starting a new worker pool for this job, if one had to be started.
    pub pool_start_ms: Option<f64>,
    /// What it took to get ready before the timed repetitions (start-up, warming up until the
    /// machine was quiet), kept apart from them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup: Option<Startup>,
    /// For memory jobs: heap bytes held per parked task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryReport>,
    /// For server jobs: throughput, latency and load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qps: Option<QpsReport>,
    /// For jobs whose tasks block on a timed wait (document search's reads): how long the waits of
    /// the median repetition asked for and how long they took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits: Option<WaitReport>,
    /// How many passes of the job each timed sample ran back to back, in the order of `samples_ms`:
    /// a sample lasts at least [`SAMPLE_FLOOR_MS`] and its time is the mean pass. Empty when every
    /// sample was one pass (and in files written before samples had a floor).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sample_passes: Vec<u32>,
    /// Whether its samples were taken in turns with the other jobs of the same work in its run (a
    /// sample of each, round after round), so a disturbance touches them alike.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interleaved: bool,
    /// When the engine measured the job a second time because the first attempt could not be
    /// right: that attempt's samples and what was wrong with them (the figures above are the second
    /// attempt's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_attempt: Option<FirstAttempt>,
}

/// The shortest time one timed sample lasts: the job runs back to back, pass after pass, until
/// this much has passed, and the sample's time is the mean pass. One sample of the 10-million sum
/// used to be one pass of 2 to 7 ms, so one page fault, one timer tick (4 ms on many Linux
/// kernels) or a moment of another tab decided it; native benchmark tools time for a second or
/// more. 100 ms dilutes such a hiccup to a few per cent and keeps a Run of the Sum chapter (two
/// jobs, five samples each) near a second.
pub const SAMPLE_FLOOR_MS: f64 = 100.0;

/// The samples of a first attempt the engine measured again, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstAttempt {
    pub samples_ms: Vec<f64>,
    /// What the first attempt showed that cannot be right (see [`crate::trust`]).
    pub why: Vec<crate::trust::Doubt>,
}

/// The untimed part of a measurement: getting workers started and warm before the clock runs.
///
/// Before its timed repetitions every job warms up until the machine is quiet: until its warm-ups
/// agree and a probe finds, several times in a row, that the cores the run needs are free.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Startup {
    /// Starting this job's workers, if they were not already running.
    pub workers_ms: Option<f64>,
    /// Warming up until the machine was quiet.
    pub settle_ms: f64,
    /// Untimed warm-up rounds (a warm-up and a probe each) before the timed repetitions.
    pub warm_up_rounds: u32,
    /// Whether the quiet check passed; `false`: the time limit ran out and the job was timed anyway.
    pub quiet: bool,
    /// Whether most probes right after the timing still found the machine quiet; `false`: it got
    /// busy while the job was being timed.
    #[serde(default = "yes")]
    pub quiet_after: bool,
}

fn yes() -> bool {
    true
}

/// What a load test of a server measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QpsReport {
    pub requests: u32,
    pub concurrency: u32,
    /// Requests answered per second.
    pub qps: f64,
    /// From the first request sent to the last one answered.
    pub elapsed_ms: f64,
    pub mean_latency_ms: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    /// Requests in flight over time: (ms since the start, average in flight over that bucket).
    pub in_flight: Vec<(f64, f64)>,
    /// Little's law: requests in flight measured against throughput × latency.
    pub little: crate::latency::LittleCheck,
    /// Share of the server's worker time spent computing.
    pub computing_utilisation: f64,
    /// Share of the server's worker time held by requests (computing or blocked waiting).
    pub held_utilisation: f64,
}

/// How long a repetition's blocking waits (each asking for the same time) really took. A sleep
/// never ends early, and usually ends late: the timer fires on its own granularity, then the OS
/// has to notice and put the thread back on a core. The difference is the *overshoot*.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaitReport {
    /// How many waits were timed.
    pub waits: u64,
    /// What each one asked for.
    pub asked_ms: f64,
    pub mean_waited_ms: f64,
    pub longest_ms: f64,
}

impl WaitReport {
    /// The report of `waits` waits of `asked_us` each that took `waited_ns` together, the longest
    /// `longest_ns`; `None` when nothing was timed.
    pub fn from_totals(asked_us: u32, waits: u64, waited_ns: u64, longest_ns: u64) -> Option<WaitReport> {
        (waits > 0).then(|| WaitReport {
            waits,
            asked_ms: f64::from(asked_us) / 1_000.0,
            mean_waited_ms: waited_ns as f64 / waits as f64 / 1e6,
            longest_ms: longest_ns as f64 / 1e6,
        })
    }

    /// How much longer than asked a wait took on average.
    pub fn overshoot_ms(&self) -> f64 {
        self.mean_waited_ms - self.asked_ms
    }

    /// How long `reads` such waits take one after another, as a loop of them does.
    pub fn in_a_loop_ms(&self, reads: u64) -> f64 {
        reads as f64 * self.mean_waited_ms
    }
}

/// Heap bytes counted by the engine's allocator: per parked task, or per worker of a new pool.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryReport {
    /// Tasks parked at once (0 when only workers were weighed).
    pub tasks: u32,
    pub bytes_per_task: Option<f64>,
    /// Bytes each worker of a freshly started pool took from the engine's heap (in the browser: its
    /// stack and thread-local storage inside the shared memory).
    pub bytes_per_worker: Option<f64>,
}

impl Measurement {
    /// Build a measurement from raw samples and their traces (same order); keeps the median run's trace.
    pub fn from_samples(job: Job, samples: Vec<(f64, Trace)>, check: Check, pool_start_ms: Option<f64>) -> Self {
        let times: Vec<f64> = samples.iter().map(|(t, _)| *t).collect();
        let summary = stats::summarize(&times);
        let median_index = stats::median_index(&times);
        let trace = median_index.and_then(|i| samples.into_iter().nth(i)).map(|(_, trace)| trace).unwrap_or_default();
        Measurement {
            job,
            samples_ms: times,
            summary,
            trace,
            check,
            pool_start_ms,
            startup: None,
            memory: None,
            qps: None,
            waits: None,
            sample_passes: Vec::new(),
            interleaved: false,
            first_attempt: None,
        }
    }

    /// Passes per sample as the reader is told them: the fewest and the most (1 and 1 when each
    /// sample was a single pass).
    pub fn passes_range(&self) -> (u32, u32) {
        let least = self.sample_passes.iter().copied().min().unwrap_or(1);
        let most = self.sample_passes.iter().copied().max().unwrap_or(1);
        (least, most)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_report_averages_its_waits_in_milliseconds() {
        // 4 waits of 1 ms asked, 4.4 ms waited in all, the longest 1.3 ms.
        let report = WaitReport::from_totals(1_000, 4, 4_400_000, 1_300_000).unwrap();
        assert_eq!(report.waits, 4);
        assert_eq!(report.asked_ms, 1.0);
        assert!((report.mean_waited_ms - 1.1).abs() < 1e-12);
        assert!((report.longest_ms - 1.3).abs() < 1e-12);
        assert!((report.overshoot_ms() - 0.1).abs() < 1e-12);
        // The articles' 1,000 reads, one after another, at this pace.
        assert!((report.in_a_loop_ms(1_000) - 1_100.0).abs() < 1e-9);
    }

    /// An event's kind is a field of its own, externally tagged: a name, or one key for a kind with fields.
    #[test]
    fn scheduler_events_carry_their_kind_as_a_field() {
        let run = SchedulerEvent { at_ms: 1.5, worker: Some(1), task: 2, kind: SchedulerEventKind::Run };
        assert_eq!(serde_json::to_string(&run).unwrap(), r#"{"at_ms":1.5,"worker":1,"task":2,"kind":"run"}"#);
        let spawn =
            SchedulerEvent { at_ms: 0.0, worker: None, task: 3, kind: SchedulerEventKind::Spawn { queue: Some(0) } };
        let text = r#"{"at_ms":0.0,"worker":null,"task":3,"kind":{"spawn":{"queue":0}}}"#;
        assert_eq!(serde_json::to_string(&spawn).unwrap(), text);
        assert_eq!(serde_json::from_str::<SchedulerEvent>(text).unwrap(), spawn);
    }

    #[test]
    fn no_waits_give_no_report() {
        assert_eq!(WaitReport::from_totals(1_000, 0, 0, 0), None);
    }

    #[test]
    fn a_measurement_without_waits_reads_as_before() {
        let report = WaitReport::from_totals(2_000, 3, 6_300_000, 2_200_000);
        let job = crate::Job {
            workload: crate::Workload::Sum { numbers: 10, seed: 1 },
            variant: crate::Variant::Sequential,
            workers: 1,
            tasks: 1,
            repetitions: 1,
        };
        let check = Check { ok: true, value: "1".into(), expected: "1".into() };
        let mut m = Measurement::from_samples(job, vec![(1.0, Trace::default())], check, None);
        let plain = serde_json::to_string(&m).unwrap();
        assert!(!plain.contains("waits"), "no field when nothing waited: {plain}");
        m.waits = report;
        let back: Measurement = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back.waits, report);
        let old: Measurement = serde_json::from_str(&plain).unwrap();
        assert_eq!(old.waits, None);
    }
}
