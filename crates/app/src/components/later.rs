//! Parts of a view built in a main-thread task of their own, after the rest of the view: a page
//! should keep every task under 50 ms (issue 15), and building a whole chapter page, or a whole
//! experiment panel, in one task took 60 to 90 ms on a 2-core machine. Also the page timer as a
//! future ([`after_ms`]), for code that waits in an `async` block.

use leptos::prelude::*;

/// A future that resolves `ms` milliseconds from now (a page timer): `after_ms(0)` resolves in a
/// later main-thread task, so what follows its `await` does not lengthen the current one.
pub fn after_ms(ms: i32) -> wasm_bindgen_futures::JsFuture {
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    }))
}

/// `children`, built in a later task (after a zero timeout) instead of this one. Several `Later`s
/// made in one task are built in as many tasks, in the order they were made; the browser may paint
/// and handle input in between.
#[component]
pub fn Later(children: Children) -> impl IntoView {
    let ready = RwSignal::new(false);
    // `try_set`: the reader may have left the page before the timer fires.
    set_timeout(move || _ = ready.try_set(true), std::time::Duration::ZERO);
    let children: StoredValue<Option<Children>, LocalStorage> = StoredValue::new_local(Some(children));
    move || {
        // Untracked: the signals the children read while being built must not subscribe this
        // closure, or their next change would build the children anew.
        ready.get().then(|| untrack(|| children.try_update_value(Option::take).flatten().map(|build| build())))
    }
}
