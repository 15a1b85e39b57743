//! A WaitGroup, as in Go: a counter that one task awaits until the others have all called `done`.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

#[derive(Clone)]
pub struct WaitGroup {
    inner: Arc<Inner>,
}

struct Inner {
    pending: AtomicUsize,
    waiter: Mutex<Option<Waker>>,
}

impl WaitGroup {
    /// A group waiting for `count` calls to [`WaitGroup::done`].
    pub fn new(count: usize) -> Self {
        WaitGroup { inner: Arc::new(Inner { pending: AtomicUsize::new(count), waiter: Mutex::new(None) }) }
    }

    /// One member finished. The last one wakes the waiting task.
    pub fn done(&self) {
        if self.inner.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            if let Some(waker) = self.inner.waiter.lock().unwrap_or_else(|p| p.into_inner()).take() {
                waker.wake();
            }
        }
    }

    /// Completes when every member has called `done`.
    pub fn wait(&self) -> Wait {
        Wait { inner: self.inner.clone() }
    }
}

pub struct Wait {
    inner: Arc<Inner>,
}

impl Future for Wait {
    type Output = ();

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if self.inner.pending.load(Ordering::Acquire) == 0 {
            return Poll::Ready(());
        }
        *self.inner.waiter.lock().unwrap_or_else(|p| p.into_inner()) = Some(context.waker().clone());
        // Re-check: the last `done` may have run between the load and storing the waker.
        if self.inner.pending.load(Ordering::Acquire) == 0 {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}
