//! A stop flag shared by the UI-facing side and the tasks of a run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The run was stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Cheap to clone; every clone sees the same flag. Tasks poll it between small pieces of work.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// `Err(Stopped)` once [`Cancel::stop`] was called.
    pub fn check(&self) -> Result<(), Stopped> {
        if self.is_stopped() {
            Err(Stopped)
        } else {
            Ok(())
        }
    }
}
