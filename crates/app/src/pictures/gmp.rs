//! Go's scheduler in one still picture: Gs (goroutines) waiting in the local queues of Ps and in the
//! global queue, Ms (operating system threads) each holding a P and running a G, and one M blocked in
//! a system call whose P went to another M. The caption says that this M is a thread, unlike the
//! M of "M:N"; the SVG's `<desc>` says in words what it draws.

use crate::i18n::ui;
use leptos::prelude::*;

/// Where the three columns' centres are, in the picture's units (it is 400 wide).
const COLUMNS: [i32; 3] = [66, 190, 334];
/// A box's width; a G's radius.
const BOX: i32 = 112;
const G_RADIUS: i32 = 14;

/// A goroutine: a circle with its name; `state` is `running`, `waiting` or `blocked`.
fn g(x: i32, y: i32, n: u32, state: &'static str) -> impl IntoView {
    view! {
        <g class=format!("gmp-g {state}")>
            <circle cx=x.to_string() cy=y.to_string() r=G_RADIUS.to_string()></circle>
            <text x=x.to_string() y=(y + 4).to_string() text-anchor="middle">{format!("G{n}")}</text>
        </g>
    }
}

/// A thread (M`n`) in `column`, running G`running`; `blocked`: in a system call, holding no P.
fn m(column: usize, n: u32, running: u32, blocked: bool) -> impl IntoView {
    let t = ui();
    let left = COLUMNS[column] - BOX / 2;
    let class = if blocked { "gmp-box gmp-m blocked" } else { "gmp-box gmp-m" };
    view! {
        <rect class=class x=left.to_string() y="76" width=BOX.to_string() height="48" rx="8"></rect>
        <text class="gmp-name" x=(left + 10).to_string() y="97">{format!("M{n}")}</text>
        <text class="gmp-small" x=(left + 10).to_string() y="114">{t.gmp_thread}</text>
        {g(left + BOX - 24, 100, running, if blocked { "blocked" } else { "running" })}
    }
}

/// A P (P`n`) in `column`, held by the M above it, with its local queue of Gs.
fn p(column: usize, n: u32, queue: &[u32]) -> impl IntoView {
    let centre = COLUMNS[column];
    let left = centre - BOX / 2;
    let queued = queue.iter().enumerate().map(|(i, &n)| g(left + 24 + 32 * i as i32, 230, n, "waiting")).collect_view();
    view! {
        <line class="gmp-link" x1=centre.to_string() y1="124" x2=centre.to_string() y2="144"></line>
        <rect class="gmp-box gmp-p" x=left.to_string() y="144" width=BOX.to_string() height="36" rx="4"></rect>
        <text class="gmp-name" x=centre.to_string() y="167" text-anchor="middle">{format!("P{n}")}</text>
        <rect class="gmp-queue" x=left.to_string() y="210" width=BOX.to_string() height="40" rx="20"></rect>
        {queued}
    }
}

/// The picture, with its caption.
pub fn gmp() -> impl IntoView {
    let t = ui();
    let [_, handed, blocked] = COLUMNS;
    let from = blocked - BOX / 2;
    // Where the hand-off's arrow ends: P1's right edge.
    let tip = handed + BOX / 2;
    view! {
        <figure class="picture gmp" data-testid="picture-gmp">
            <figcaption>{t.gmp_caption}</figcaption>
            <svg viewBox="0 0 400 258" role="img" aria-label=t.gmp_label data-testid="gmp-svg">
                <desc>{t.gmp_description}</desc>
                <rect class="gmp-queue" x="8" y="8" width="384" height="48" rx="10"></rect>
                <text class="gmp-label" x="20" y="37">{t.gmp_global_queue}</text>
                {g(322, 32, 7, "waiting")}
                {g(358, 32, 8, "waiting")}
                // One label over both local queues: a label each would not fit some languages.
                <text class="gmp-small" x=(COLUMNS[0] - BOX / 2).to_string() y="202">{t.gmp_local_queue}</text>
                {m(0, 0, 1, false)}
                {p(0, 0, &[2, 3])}
                {m(1, 2, 5, false)}
                {p(1, 1, &[6])}
                {m(2, 1, 4, true)}
                <text class="gmp-small" x=blocked.to_string() y="142" text-anchor="middle">{t.gmp_syscall}</text>
                // The hand-off: M1's P went to M2.
                <path
                    class="gmp-handoff"
                    d=format!("M{from},116 C{},128 {},156 {},162", from - 14, tip + 14, tip + 4)
                ></path>
                <polygon
                    class="gmp-arrow"
                    points=format!("{tip},162 {},156 {},167", tip + 10, tip + 9)
                ></polygon>
                <text class="gmp-small" x=(from - 2).to_string() y="178">{t.gmp_handoff}</text>
            </svg>
        </figure>
    }
}
