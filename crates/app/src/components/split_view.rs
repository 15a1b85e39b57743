//! A view whose code the page fetches before building it (a split point of the site build, see
//! `cargo xtask build-app`): a line says so while it loads, a notice with Retry if it cannot be
//! fetched, and the rest of the page works on. Experiment panels are built this way
//! (`panels::Panel`), and so are the parts of a panel a first Run does not need ([`LaterCode`]).

use crate::i18n::ui;
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use std::future::Future;

/// A split's code could not be fetched.
#[derive(Debug)]
pub struct CodeUnavailable;

impl From<SplitLoaderError> for CodeUnavailable {
    fn from(_: SplitLoaderError) -> Self {
        CodeUnavailable
    }
}

/// What a split point's function returns: its view, or why there is none.
pub type SplitBuilt = Result<AnyView, CodeUnavailable>;

/// Where a split view is while its code loads.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Loading,
    Ready,
    Failed,
}

/// A split's code fetched and its view built, boxed (see [`split_now`]).
pub type SplitFuture = std::pin::Pin<Box<dyn Future<Output = SplitBuilt>>>;

/// [`split_view`] of a split that waits for nothing, the `key`-th of its kind: `load(key)` fetches
/// and builds it, `loading(key)` stands in meanwhile. Experiment panels and the prose's pictures
/// both come through here, so the core holds one copy of `split_view`'s code for the two, not one
/// each (about 1 KB).
pub fn split_now(
    key: usize,
    load: fn(usize) -> SplitFuture,
    loading: fn(usize) -> AnyView,
    failed_text: &'static str,
    failed_test_id: &'static str,
) -> impl IntoView {
    split_view(move || load(key), async {}, move || loading(key), failed_text, failed_test_id)
}

/// The view `load` fetches and builds, once `wait` has resolved (Retry does not wait again).
/// `loading` is shown until then; `failed_text` (in a notice whose test id is `failed_test_id`) if the
/// code could not be fetched.
pub fn split_view<Load, Fut, Wait>(
    load: Load,
    wait: Wait,
    loading: impl Fn() -> AnyView + Send + Sync + 'static,
    failed_text: &'static str,
    failed_test_id: &'static str,
) -> impl IntoView
where
    Load: Fn() -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = SplitBuilt> + 'static,
    Wait: Future<Output = ()> + 'static,
{
    let state = RwSignal::new(State::Loading);
    // The built view waits here until the closure below takes it into the page.
    let built: StoredValue<Option<AnyView>, LocalStorage> = StoredValue::new_local(None);
    // The view is built inside the task that fetched its code: under this component's owner, so
    // that it finds the router and the page's context, and is cleaned up (or never built) with the
    // page, and under no observer.
    let owner = Owner::current();
    let start = move |wait: Option<Wait>| {
        let owner = owner.clone();
        let load = load.clone();
        let task = async move {
            if let Some(wait) = wait {
                wait.await;
            }
            let next = match load().await {
                Ok(view) => {
                    built.set_value(Some(view));
                    State::Ready
                }
                Err(CodeUnavailable) => State::Failed,
            };
            // `try_set`: the reader may have left the page meanwhile.
            _ = state.try_set(next);
        };
        match &owner {
            // Untracked: built under whatever closure placed this view, its reads would subscribe
            // that closure, and the next change of what it read would build the view anew.
            Some(owner) => owner.with(|| untrack(|| leptos::task::spawn_local_scoped_with_cancellation(task))),
            None => leptos::task::spawn_local(task),
        }
    };
    start(Some(wait));
    move || match state.get() {
        State::Loading => loading(),
        State::Ready => built.try_update_value(Option::take).flatten().into_any(),
        State::Failed => {
            let start = start.clone();
            let retry = move || {
                state.set(State::Loading);
                start(None);
            };
            failed_notice(failed_text, failed_test_id, Box::new(retry))
        }
    }
}

/// The notice of a split view whose code could not be fetched: `failed_text` and Retry, or, when a
/// new version of the site replaced this page's (`www/keep.js` marks it), a line that says to
/// reload. Not generic: one copy for every split view.
fn failed_notice(
    failed_text: &'static str,
    failed_test_id: &'static str,
    retry: Box<dyn Fn() + Send + Sync>,
) -> AnyView {
    let t = ui();
    view! {
        <div class="notice notice-warning" role="alert" data-testid=failed_test_id>
            <p class="if-not-new-version">{failed_text}</p>
            <p class="if-new-version" data-testid="new-version">{t.new_version_reload}</p>
            <p class="if-not-new-version">
                <button type="button" class="button" on:click=move |_| retry()>
                    {t.retry}
                </button>
            </p>
        </div>
    }
    .into_any()
}

/// The longest a panel's later views wait for the engine's files before they are fetched anyway.
const MOST_WAIT_FOR_ENGINE_MS: i32 = 15_000;

/// Parts of an experiment panel that its first Run does not need (its charts, timeline, comparison
/// and sharing), built by `load`: a split point of their own, fetched once the engine's files the
/// page asked for have arrived (`engine_client::prefetch_settled`, or after
/// [`MOST_WAIT_FOR_ENGINE_MS`]), so that on a slow link their bytes do not delay the moment Run
/// works (issue 15). Meanwhile a line says they are coming.
#[component]
pub fn LaterCode<Load, Fut>(load: Load) -> impl IntoView
where
    Load: Fn() -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = SplitBuilt> + 'static,
{
    let t = ui();
    // A stalled engine download must not keep the views away for good.
    let wait = async {
        let settled = std::pin::pin!(crate::engine_client::prefetch_settled());
        futures_util::future::select(settled, crate::components::later::after_ms(MOST_WAIT_FOR_ENGINE_MS)).await;
    };
    split_view(
        load,
        wait,
        move || {
            view! { <p class="views-loading" role="status" data-testid="views-loading">{t.views_loading}</p> }
                .into_any()
        },
        t.views_failed,
        "views-failed",
    )
}
