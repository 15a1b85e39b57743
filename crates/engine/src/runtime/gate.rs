//! A gate tasks can wait at: they park until it opens (used to hold many tasks parked at once).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

#[derive(Clone, Default)]
pub struct Gate {
    inner: Arc<GateInner>,
}

#[derive(Default)]
struct GateInner {
    open: AtomicBool,
    waiting: Mutex<Vec<Waker>>,
}

impl Gate {
    pub fn new() -> Self {
        Self::default()
    }

    /// Open the gate: every waiting task becomes runnable, later ones pass straight through.
    pub fn open(&self) {
        self.inner.open.store(true, Ordering::SeqCst);
        let waiting = std::mem::take(&mut *self.inner.waiting.lock().unwrap_or_else(|p| p.into_inner()));
        for waker in waiting {
            waker.wake();
        }
    }

    /// Completes once the gate is open.
    pub fn wait(&self) -> GateWait {
        GateWait { inner: self.inner.clone(), registered: false }
    }
}

pub struct GateWait {
    inner: Arc<GateInner>,
    registered: bool,
}

impl Future for GateWait {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if self.inner.open.load(Ordering::SeqCst) {
            return Poll::Ready(());
        }
        if !self.registered {
            self.inner.waiting.lock().unwrap_or_else(|p| p.into_inner()).push(context.waker().clone());
            self.registered = true;
            // Opened between the check and the registration: do not miss it.
            if self.inner.open.load(Ordering::SeqCst) {
                return Poll::Ready(());
            }
        }
        Poll::Pending
    }
}

/// Give the worker to the other runnable tasks once, then continue (a cooperative switch).
pub fn yield_now() -> YieldNow {
    YieldNow { yielded: false }
}

pub struct YieldNow {
    yielded: bool,
}

impl Future for YieldNow {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if self.yielded {
            return Poll::Ready(());
        }
        self.yielded = true;
        // Runnable again at once, but behind everything already queued on this worker.
        context.waker().wake_by_ref();
        Poll::Pending
    }
}
