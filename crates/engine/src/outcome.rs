//! How a step of a run, and a run of jobs, ends: done, stopped by the reader, or failed with a reason.

use crate::cancel::Stopped;
use experiments::protocol::Failure;
use experiments::Measurement;

/// How one step of a run ended: `Ok(Ok(value))` done, `Ok(Err(Stopped))` stopped by the reader,
/// `Err(failure)` failed. Nested results rather than an enum of our own so that `?` hands a failure
/// on (stable Rust has no `?` for other types); [`RunEnd`] names the three ends of a whole run.
pub type Outcome<T> = Result<Result<T, Stopped>, Failure>;

/// How measuring some jobs of a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunEnd {
    /// Every job measured, in order.
    Measured(Vec<Measurement>),
    /// Stopped by the reader after the jobs measured so far (kept, in order: they finished).
    Stopped(Vec<Measurement>),
    /// Failed, with what went wrong.
    Failed(Failure),
}

impl RunEnd {
    /// The end of jobs whose measurements went into `measured` while `outcome` ran.
    pub fn of(outcome: Outcome<()>, measured: Vec<Measurement>) -> RunEnd {
        match outcome {
            Ok(Ok(())) => RunEnd::Measured(measured),
            Ok(Err(Stopped)) => RunEnd::Stopped(measured),
            Err(reason) => RunEnd::Failed(reason),
        }
    }
}

impl From<Outcome<Measurement>> for RunEnd {
    /// The end of a single job.
    fn from(outcome: Outcome<Measurement>) -> RunEnd {
        match outcome {
            Ok(Ok(measurement)) => RunEnd::Measured(vec![measurement]),
            Ok(Err(Stopped)) => RunEnd::Stopped(Vec::new()),
            Err(reason) => RunEnd::Failed(reason),
        }
    }
}
