//! The message worker's side: a copy of the engine in a Web Worker of its own that answers the
//! coordinator's orders (add these numbers, spin, advance these hash states) with results and spans.

use super::{MessageHandler, MessageWorkerAnswer, Order};
use crate::clock::now_ms;
use crate::kernels::hashing::UPDATE_BYTES;
use crate::web::scope;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::MessageEvent;
use workloads::hashing::StreamingHash;
use workloads::spin::spin;
use workloads::sum::sum;

thread_local! {
    /// In a message worker: how many hashes the job has, and the states this worker holds.
    static HASHES: RefCell<(u32, Vec<(u32, StreamingHash)>)> = const { RefCell::new((0, Vec::new())) };
}

/// Advance each hash state this worker holds with `bytes` (slice number `slice`), in 64 KB calls
/// as the threaded engine does (see [`UPDATE_BYTES`]); one span per state.
fn advance_hashes(slice: u32, bytes: &[u8]) -> Vec<(u32, f64, f64)> {
    HASHES.with(|h| {
        let (hashes, states) = &mut *h.borrow_mut();
        states
            .iter_mut()
            .map(|(index, state)| {
                let start = now_ms();
                for piece in bytes.chunks(UPDATE_BYTES) {
                    state.update(piece);
                }
                (slice * *hashes + *index, start, now_ms())
            })
            .collect()
    })
}

/// Numbers copied into this worker's memory a block at a time, each block summed while it is still
/// in the cache: the second half of the copy, as cheap as it can be made.
fn sum_copied_in(array: &js_sys::Int32Array) -> i64 {
    const BLOCK: u32 = 1 << 16;
    thread_local! {
        static BUFFER: RefCell<Vec<i32>> = RefCell::new(vec![0; BLOCK as usize]);
    }
    BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        let (mut total, mut offset, length) = (0i64, 0u32, array.length());
        while offset < length {
            let count = BLOCK.min(length - offset);
            let block = &mut buffer[..count as usize];
            array.subarray(offset, offset + count).copy_to(block);
            total += sum(block);
            offset += count;
        }
        total
    })
}

/// Entry point of a message worker (called by `message-worker.js` once its copy of the module is
/// loaded): answer orders until the coordinator ends this worker.
#[wasm_bindgen]
pub fn message_worker_start() {
    crate::web::install_panic_hook(crate::web::PanicListener::MessagePool);
    let answer = |answer: &MessageWorkerAnswer| {
        let _ = scope().post_message(&JsValue::from_str(&answer.to_json()));
    };
    let on_message = MessageHandler::new(move |event: MessageEvent| {
        let start_ms = now_ms();
        let parts = js_sys::Array::from(&event.data());
        let order: Result<Order, _> = serde_json::from_str(&parts.get(0).as_string().unwrap_or_default());
        let done = |task, value| MessageWorkerAnswer::Done { task, value, start_ms, end_ms: now_ms() };
        let reply = match order {
            Ok(Order::Sum { task }) => match parts.get(1).dyn_into::<js_sys::Int32Array>() {
                Ok(array) => done(task, sum_copied_in(&array) as u64),
                Err(_) => MessageWorkerAnswer::Failed { message: format!("task {task} came without its numbers") },
            },
            Ok(Order::Spin { task, units, seed }) => done(task, spin(units, seed)),
            Ok(Order::HashStart { indices, hashes }) => {
                HASHES.with(|h| {
                    *h.borrow_mut() = (hashes, indices.into_iter().map(|i| (i, StreamingHash::new())).collect())
                });
                return;
            }
            Ok(Order::HashSlice { slice }) => match parts.get(1).dyn_into::<js_sys::Uint8Array>() {
                Ok(array) => MessageWorkerAnswer::Advanced { spans: advance_hashes(slice, &array.to_vec()) },
                Err(_) => MessageWorkerAnswer::Failed { message: format!("slice {slice} came without its bytes") },
            },
            Ok(Order::HashFinish) => MessageWorkerAnswer::Digests {
                digests: HASHES
                    .with(|h| std::mem::take(&mut h.borrow_mut().1))
                    .into_iter()
                    .map(|(index, state)| (index, state.finish()))
                    .collect(),
            },
            Err(error) => MessageWorkerAnswer::Failed { message: format!("an unreadable order ({error})") },
        };
        answer(&reply);
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    answer(&MessageWorkerAnswer::Ready);
}
