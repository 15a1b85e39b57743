//! A failure in the reader's words: the sentence the page shows, and the technical words kept apart
//! for a bug report.

use crate::i18n::ui;
use experiments::protocol::{Failure, FailureKind};
use wasm_bindgen::{JsCast, JsValue};

/// Why a run failed: a sentence in the reader's language, and the technical words that came with it
/// (the engine's or the browser's, usually English: for a bug report), if any.
#[derive(Clone, Debug, PartialEq)]
pub struct RunFailure {
    pub message: String,
    pub detail: Option<String>,
}

impl RunFailure {
    /// A failure the page words itself, with nothing technical to add.
    pub fn plain(message: impl Into<String>) -> Self {
        RunFailure { message: message.into(), detail: None }
    }

    /// A failure worded by the page, with the technical `detail` beside it (none if empty).
    pub(super) fn detailed(message: impl Into<String>, detail: String) -> Self {
        RunFailure { message: message.into(), detail: Some(detail).filter(|d| !d.trim().is_empty()) }
    }

    /// What the engine reported, in the reader's language: its kind decides the sentence.
    pub fn from_engine(failure: Failure) -> Self {
        let t = ui();
        let sentence = match failure.kind {
            FailureKind::Refused => t.failure_refused,
            FailureKind::FileUnreadable => t.failure_file_unreadable,
            FailureKind::EngineNotStarted => t.failure_engine_not_started,
            FailureKind::WorkersNotStarted => t.failure_workers_not_started,
            FailureKind::TimedOut => t.failure_timed_out,
            FailureKind::NoSharedMemory => t.failure_no_shared_memory,
            FailureKind::TooMuchMemory => t.failure_too_much_memory,
            FailureKind::WorkerCrashed => t.failure_worker_crashed,
            FailureKind::EnginePanicked => t.failure_engine_panicked,
            FailureKind::Internal => t.failure_internal,
        };
        RunFailure::detailed(sentence, failure.detail)
    }
}

/// A JavaScript error in a few words.
pub(super) fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| ui().no_reason_given.into())
}
