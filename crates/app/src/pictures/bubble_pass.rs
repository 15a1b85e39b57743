//! One pass of bubble sort, a step at a time: neighbours compared from left to right, a pair in the
//! wrong order swapped. The largest value rides to the end in the one pass, while the smallest,
//! starting at the end, moves one place: why a value far from its place needs many passes, and why
//! sorting chunks first does not shorten them. Step, Play (not with reduced motion), Reset; a live
//! line says what each step did.

use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use leptos::prelude::*;
use std::time::Duration;

/// The list the picture sorts: 9, its largest value, rides to the end; 1, its smallest, starts at
/// the end and moves one place.
pub const START: [u32; 7] = [6, 2, 8, 4, 9, 3, 1];

/// How long a step shows while playing.
const STEP_MS: u64 = 900;

/// One comparison of a pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The position compared with the next one.
    pub at: usize,
    pub left: u32,
    pub right: u32,
    pub swapped: bool,
    /// The list after the step.
    pub after: Vec<u32>,
}

/// One pass of bubble sort over `values`: a step per pair of neighbours, left to right.
pub fn pass_steps(values: &[u32]) -> Vec<Step> {
    let mut list = values.to_vec();
    (0..values.len().saturating_sub(1))
        .map(|at| {
            let (left, right) = (list[at], list[at + 1]);
            let swapped = left > right;
            if swapped {
                list.swap(at, at + 1);
            }
            Step { at, left, right, swapped, after: list.clone() }
        })
        .collect()
}

/// How many more passes `list`'s smallest value needs to reach the front: it moves one place left
/// per pass, so as many as it is places away.
pub fn passes_left(list: &[u32]) -> usize {
    list.iter().enumerate().min_by_key(|(_, v)| **v).map_or(0, |(at, _)| at)
}

#[component]
pub fn BubblePass() -> impl IntoView {
    let t = ui();
    let steps = StoredValue::new(pass_steps(&START));
    let last = START.len() - 1;
    // Steps done: 0 before the first comparison, `last` once the pass is over.
    let done = RwSignal::new(0usize);
    let playing = RwSignal::new(false);
    let reduced_motion = crate::environment::prefers_reduced_motion();
    let list = move || match done.get() {
        0 => START.to_vec(),
        n => steps.with_value(|s| s[n - 1].after.clone()),
    };
    let (largest, smallest) = (START.iter().max().copied().unwrap_or(0), START.iter().min().copied().unwrap_or(0));
    let status = move || {
        let n = done.get();
        steps.with_value(|s| pass_status(s, n, largest, smallest))
    };
    // The pair the latest step compared.
    let compared = move || done.get().checked_sub(1).map(|n| steps.with_value(|s| s[n].at));
    play_steps(done, playing, last);
    let cells = START
        .iter()
        .map(|&value| {
            let at = move || list().iter().position(|v| *v == value).unwrap_or(0);
            let class = move || {
                let at = at();
                let mut class = format!("bubble-cell at-{at}");
                if compared().is_some_and(|c| at == c || at == c + 1) {
                    class.push_str(" compared");
                }
                if value == smallest {
                    class.push_str(" smallest");
                }
                if value == largest {
                    class.push_str(if done.get() == last { " largest settled" } else { " largest" });
                }
                class
            };
            view! { <span class=class data-at=at aria-hidden="true">{format::int(value.into())}</span> }
        })
        .collect_view();
    let described = move || {
        let values: Vec<String> = list().iter().map(|v| format::int((*v).into())).collect();
        fill(t.bubble_pass_list, &[("values", &values.join(", "))])
    };
    let caption =
        fill(t.bubble_pass_caption, &[("max", &format::int(largest.into())), ("min", &format::int(smallest.into()))]);
    view! {
        <figure class="picture bubble-pass" data-testid="picture-bubble-pass">
            <figcaption>{caption}</figcaption>
            <div class="bubble-row" role="img" aria-label=described data-testid="bubble-row">
                {cells}
            </div>
            {pass_buttons(done, playing, last, reduced_motion)}
            {reduced_motion.then(|| view! { <p class="help">{t.bubble_pass_reduced_motion}</p> })}
            <p class="picture-status" aria-live="polite" data-testid="bubble-status">{status}</p>
        </figure>
    }
}

/// What the latest of `done` steps did: ready before the first; once the pass is over, where it
/// carried the `largest` and `smallest` values and how many passes the smallest still needs.
fn pass_status(steps: &[Step], done: usize, largest: u32, smallest: u32) -> String {
    let t = ui();
    match done {
        0 => t.bubble_pass_ready.to_string(),
        n if n == steps.len() => message(
            t.bubble_pass_done,
            &[
                ("max", Arg::Count(largest.into())),
                ("min", Arg::Count(smallest.into())),
                ("passes", Arg::Count(passes_left(&steps[n - 1].after) as u64)),
            ],
        ),
        n => {
            let step = &steps[n - 1];
            let template = if step.swapped { t.bubble_pass_swap } else { t.bubble_pass_keep };
            fill(template, &[("a", &format::int(step.left.into())), ("b", &format::int(step.right.into()))])
        }
    }
}

/// While playing, each step schedules the next (one page timer, as `Later` uses: no interval of
/// its own); a timer whose step was overtaken by Step, Pause or Reset does nothing, and neither
/// does one that fires after the reader left the page.
fn play_steps(done: RwSignal<usize>, playing: RwSignal<bool>, last: usize) {
    Effect::new(move |_| {
        let at = done.get();
        if !playing.get() {
            return;
        }
        if at >= last {
            playing.set(false);
            return;
        }
        let next = move || {
            if playing.try_get_untracked() == Some(true) && done.try_get_untracked() == Some(at) {
                done.set(at + 1);
            }
        };
        set_timeout(next, Duration::from_millis(STEP_MS));
    });
}

/// Step, Play or Pause (not with reduced motion) and Reset. Buttons are marked unavailable rather
/// than disabled, so the keyboard's focus stays on them.
fn pass_buttons(done: RwSignal<usize>, playing: RwSignal<bool>, last: usize, reduced_motion: bool) -> impl IntoView {
    let t = ui();
    let at_end = move || (done.get() == last).to_string();
    let at_start = move || (done.get() == 0).to_string();
    let step = move || {
        if done.get_untracked() < last {
            done.update(|n| *n += 1);
        }
    };
    view! {
        <div class="picture-controls">
            <button
                type="button"
                class="primary"
                aria-disabled=at_end
                data-testid="bubble-step"
                on:click=move |_| {
                    playing.set(false);
                    step();
                }
            >
                {t.bubble_pass_step}
            </button>
            {(!reduced_motion).then(|| view! {
                <button
                    type="button"
                    data-testid="bubble-play"
                    on:click=move |_| {
                        if done.get_untracked() >= last {
                            done.set(0);
                        }
                        playing.update(|p| *p = !*p);
                    }
                >
                    {move || if playing.get() { t.replay_pause } else { t.replay_play }}
                </button>
            })}
            <button
                type="button"
                aria-disabled=at_start
                data-testid="bubble-reset"
                on:click=move |_| {
                    playing.set(false);
                    done.set(0);
                }
            >
                {t.bubble_pass_reset}
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_carries_the_largest_value_to_the_end_and_the_smallest_one_place_left() {
        let steps = pass_steps(&START);
        assert_eq!(steps.len(), START.len() - 1, "a comparison per pair of neighbours");
        let after = &steps.last().unwrap().after;
        assert_eq!(after, &[2, 6, 4, 8, 3, 1, 9]);
        assert_eq!(after.last(), START.iter().max(), "the largest value ends last");
        let from = START.iter().position(|v| *v == 1).unwrap();
        let to = after.iter().position(|v| *v == 1).unwrap();
        assert_eq!(from - to, 1, "the smallest value moves one place");
        assert_eq!(passes_left(after), 5);
    }

    #[test]
    fn each_step_compares_the_next_pair_and_swaps_only_a_pair_out_of_order() {
        let steps = pass_steps(&START);
        let first = &steps[0];
        assert_eq!((first.at, first.left, first.right, first.swapped), (0, 6, 2, true));
        assert_eq!(first.after, [2, 6, 8, 4, 9, 3, 1]);
        let second = &steps[1];
        assert_eq!((second.at, second.left, second.right, second.swapped), (1, 6, 8, false));
        assert_eq!(second.after, first.after, "a pair in order stays");
        for (at, step) in steps.iter().enumerate() {
            assert_eq!(step.at, at);
            assert_eq!(step.swapped, step.left > step.right);
            let (a, b) = (step.after[at], step.after[at + 1]);
            assert!(a <= b, "after step {at}, the pair is in order: {a} {b}");
        }
        assert!(pass_steps(&[]).is_empty() && pass_steps(&[1]).is_empty());
    }

    #[test]
    fn any_value_moves_at_most_one_place_left_in_a_pass() {
        // Any list of distinct values: the pass moves none more than one place to the left.
        let lists: [&[u32]; 4] = [&START, &[5, 4, 3, 2, 1], &[1, 2, 3], &[3, 1, 2, 9, 0, 7]];
        for list in lists {
            let steps = pass_steps(list);
            let after = &steps.last().unwrap().after;
            for (from, value) in list.iter().enumerate() {
                let to = after.iter().position(|v| v == value).unwrap();
                assert!(to + 1 >= from, "{value} moved from {from} to {to} in {list:?}");
            }
            assert_eq!(after.last(), list.iter().max());
        }
    }
}
