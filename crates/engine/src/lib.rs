//! The engine: runs a [`Job`](experiments::Job) with k workers and t tasks, times it and traces it.
//!
//! This is the only crate that knows about threads. Natively its workers are OS threads; in the browser
//! they are Web Workers that share one WebAssembly memory (see `web`). Both sides build real
//! [`rayon`] pools of exactly k workers through the same spawn hook ([`threads`]), and run the same
//! measuring code ([`harness`], [`measure`], [`kernels`]) on them, so browser and native numbers are comparable.

pub mod alloc;
pub mod cancel;
pub mod clock;
pub mod driver;
pub mod executors;
pub mod harness;
pub mod json;
pub mod kernel_api;
pub mod kernels;
pub mod measure;
pub mod outcome;
pub mod quiet;
pub mod recorder;
pub mod runtime;
pub mod threads;
pub mod trace;
pub mod wire;

#[cfg(not(target_arch = "wasm32"))]
pub mod native;

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use cancel::{Cancel, Stopped};
