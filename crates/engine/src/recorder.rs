//! Collecting the spans of one traced run from any worker, up to a cap, relative to the run's start.

use crate::clock::now_ms;
use experiments::{Span, Trace};
use std::sync::Mutex;

/// Spans beyond this many are not recorded (some runs make tens of thousands of tiny tasks).
pub const MAX_SPANS: usize = 4_000;

pub struct Recorder {
    t0: f64,
    spans: Mutex<Vec<Span>>,
    full_at: Mutex<Option<f64>>,
}

impl Recorder {
    pub fn new() -> Self {
        Recorder { t0: now_ms(), spans: Mutex::new(Vec::new()), full_at: Mutex::new(None) }
    }

    /// Run `work` as task `task` on the current worker and record its span.
    pub fn task<T>(&self, task: u32, work: impl FnOnce() -> T) -> T {
        let start = now_ms() - self.t0;
        let value = work();
        let end = now_ms() - self.t0;
        let mut spans = self.spans.lock().unwrap_or_else(|p| p.into_inner());
        if spans.len() < MAX_SPANS {
            let worker = rayon::current_thread_index().unwrap_or(0) as u32;
            spans.push(Span { worker, task, start_ms: start, end_ms: end });
        } else {
            let mut full_at = self.full_at.lock().unwrap_or_else(|p| p.into_inner());
            full_at.get_or_insert(start);
        }
        value
    }

    /// The trace, with the wall time from creation until now.
    pub fn finish(self) -> Trace {
        let wall_ms = now_ms() - self.t0;
        let mut spans = self.spans.into_inner().unwrap_or_else(|p| p.into_inner());
        crate::trace::sort_by_start(&mut spans);
        let shown_until_ms = self.full_at.into_inner().unwrap_or_else(|p| p.into_inner());
        Trace { spans, wall_ms, shown_until_ms, ..Trace::default() }
    }
}

impl Default for Recorder {
    fn default() -> Self {
        Self::new()
    }
}
