//! "Solve, then reveal" for the OS scheduler simulation: the schedule is hidden, the reader sees
//! only what each thread brings (arrival, CPU and IO bursts), predicts which thread finishes first
//! and which last, then reveals the schedule and is told, from the simulation's own result, whether
//! each prediction was right. Nothing is stored.

use crate::components::controls::unique_id;
use crate::format;
use crate::i18n::{fill, ui};
use experiments::catalog::os_scheduler::SEED;
use leptos::prelude::*;
use workloads::os_scheduler::{Burst, Schedule, ThreadSpec};

/// Where the quiz is: off (the schedule is shown as usual), waiting for a prediction (the schedule
/// is hidden), or revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuizPhase {
    Off,
    Predicting,
    Revealed,
}

/// Which end of the schedule a question asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    First,
    Last,
}

impl Question {
    fn id(self) -> &'static str {
        match self {
            Question::First => "first",
            Question::Last => "last",
        }
    }
}

/// The threads that finish at the schedule's first (or last) finishing moment, and that moment in µs:
/// ties all count as right.
fn finishers(schedule: &Schedule, question: Question) -> (Vec<usize>, u64) {
    let finishes = schedule.threads.iter().map(|r| r.finish_us);
    let moment = match question {
        Question::First => finishes.min(),
        Question::Last => finishes.max(),
    }
    .unwrap_or(0);
    let threads = schedule.threads.iter().enumerate().filter(|(_, r)| r.finish_us == moment).map(|(i, _)| i).collect();
    (threads, moment)
}

fn thread_name(i: usize) -> String {
    fill(ui().thread_lane, &[("n", &i.to_string())])
}

fn ms(us: u64) -> String {
    format::ms(us as f64 / 1000.0)
}

/// A burst or arrival in ms to a tenth: the generator draws multiples of 0.1 ms.
fn tenths(us: u64) -> String {
    format::fixed(us as f64 / 1000.0, 1)
}

/// "CPU 4.2 · IO 1.0 · CPU 6.3" (ms).
fn bursts_text(spec: &ThreadSpec) -> String {
    let t = ui();
    spec.bursts
        .iter()
        .map(|b| match *b {
            Burst::Cpu(us) => fill(t.quiz_burst_cpu, &[("ms", &tenths(us))]),
            Burst::Io(us) => fill(t.quiz_burst_io, &[("ms", &tenths(us))]),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The verdict on one question: right or not, the answer, and what the reader chose.
fn verdict(schedule: &Schedule, question: Question, chosen: Option<usize>) -> (bool, String) {
    let t = ui();
    let (threads, moment) = finishers(schedule, question);
    let right = chosen.is_some_and(|c| threads.contains(&c));
    let names: Vec<String> = threads.iter().map(|&i| thread_name(i)).collect();
    let answer = fill(
        match question {
            Question::First => t.quiz_first_answer,
            Question::Last => t.quiz_last_answer,
        },
        &[("threads", &names.join(", ")), ("ms", &ms(moment))],
    );
    let guess = match chosen {
        _ if right => String::new(),
        Some(c) => {
            let finish = schedule.threads.get(c).map_or(0, |r| r.finish_us);
            format!(" {}", fill(t.quiz_your_guess, &[("thread", &thread_name(c)), ("ms", &ms(finish))]))
        }
        None => format!(" {}", t.quiz_no_guess),
    };
    (right, format!("{} {answer}{guess}", if right { t.quiz_right } else { t.quiz_wrong }))
}

/// The quiz: its switch, and when on, the threads' work, the two predictions, Reveal and the verdict.
/// `phase` is shared with the panel, which hides the schedule while the reader predicts.
#[component]
pub fn SolveThenReveal(
    phase: RwSignal<QuizPhase>,
    seed: RwSignal<u64>,
    specs: Memo<Vec<ThreadSpec>>,
    schedule: Memo<Result<Schedule, String>>,
) -> impl IntoView {
    let t = ui();
    let first = RwSignal::new(None::<usize>);
    let last = RwSignal::new(None::<usize>);
    // New threads or settings make a new question: forget the predictions and hide the answer.
    Effect::new(move |_| {
        schedule.track();
        first.set(None);
        last.set(None);
        if phase.get_untracked() == QuizPhase::Revealed {
            phase.set(QuizPhase::Predicting);
        }
    });
    let toggle = move |_| {
        first.set(None);
        last.set(None);
        phase.update(|p| *p = if *p == QuizPhase::Off { QuizPhase::Predicting } else { QuizPhase::Off });
    };
    let next_seed = move |_| {
        seed.update(|s| *s = if *s >= SEED.max { SEED.min } else { *s + 1 });
        phase.set(QuizPhase::Predicting);
    };
    let heading = unique_id("quiz");
    view! {
        <div class="os-quiz-switch">
            <button
                type="button"
                class="button"
                aria-pressed=move || (phase.get() != QuizPhase::Off).to_string()
                data-testid="os-quiz-toggle"
                on:click=toggle
            >
                {t.quiz_toggle}
            </button>
        </div>
        <Show when=move || phase.get() != QuizPhase::Off>
            <section class="os-quiz" aria-labelledby=heading.clone() data-testid="os-quiz">
                <h3 id=heading.clone()>{t.quiz_heading}</h3>
                <p class="help">{t.quiz_intro}</p>
                {threads_table(specs)}
                <div class="controls os-quiz-choices">
                    {choice(Question::First, first, phase, specs)}
                    {choice(Question::Last, last, phase, specs)}
                </div>
                <div class="button-row">
                    {move || match phase.get() {
                        QuizPhase::Revealed => view! {
                            <button type="button" class="button" on:click=next_seed>{t.quiz_next}</button>
                        }.into_any(),
                        _ => view! {
                            <button type="button" class="button primary" on:click=move |_| phase.set(QuizPhase::Revealed)>
                                {t.quiz_reveal}
                            </button>
                        }.into_any(),
                    }}
                </div>
                <div role="status" data-testid="os-quiz-verdict">
                    {move || (phase.get() == QuizPhase::Revealed).then(|| verdicts(schedule, first.get(), last.get()))}
                </div>
            </section>
        </Show>
    }
}

/// One question: which thread finishes first (or last), chosen from a list of the threads.
fn choice(
    question: Question,
    chosen: RwSignal<Option<usize>>,
    phase: RwSignal<QuizPhase>,
    specs: Memo<Vec<ThreadSpec>>,
) -> impl IntoView {
    let t = ui();
    let id = unique_id(question.id());
    let label = match question {
        Question::First => t.quiz_first_question,
        Question::Last => t.quiz_last_question,
    };
    view! {
        <div class="control">
            <label for=id.clone()>{label}</label>
            <select
                id=id
                data-question=question.id()
                disabled=move || phase.get() == QuizPhase::Revealed
                prop:value=move || chosen.get().map(|i| i.to_string()).unwrap_or_default()
                on:change=move |ev| chosen.set(event_target_value(&ev).parse().ok())
            >
                <option value="">{t.quiz_choose}</option>
                {move || (0..specs.with(Vec::len)).map(|i| view! {
                    <option value=i.to_string()>{thread_name(i)}</option>
                }).collect_view()}
            </select>
        </div>
    }
}

/// Each answer set against the schedule: right or wrong, and which threads it was.
fn verdicts(schedule: Memo<Result<Schedule, String>>, first: Option<usize>, last: Option<usize>) -> impl IntoView {
    schedule.with(|s| {
        s.as_ref().ok().map(|s| {
            [(Question::First, first), (Question::Last, last)]
                .into_iter()
                .map(|(question, chosen)| {
                    let (right, text) = verdict(s, question, chosen);
                    let answer: Vec<String> = finishers(s, question).0.iter().map(|i| i.to_string()).collect();
                    view! {
                        <p
                            class={if right { "quiz-verdict right" } else { "quiz-verdict wrong" }}
                            data-question=question.id()
                            data-right=right.to_string()
                            data-answer=answer.join(",")
                        >
                            {text}
                        </p>
                    }
                })
                .collect_view()
        })
    })
}

/// The threads to reason about: when each arrives and its bursts.
fn threads_table(specs: Memo<Vec<ThreadSpec>>) -> impl IntoView {
    let t = ui();
    view! {
        <div class="table-scroll">
            <table class="os-quiz-threads">
                <caption>{t.quiz_threads_caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_thread}</th>
                        <th scope="col">{t.col_arrival}</th>
                        <th scope="col">{t.quiz_col_bursts}</th>
                    </tr>
                </thead>
                <tbody>
                    {move || specs.with(|specs| specs.iter().enumerate().map(|(i, spec)| view! {
                        <tr>
                            <th scope="row">{thread_name(i)}</th>
                            <td class="num">{tenths(spec.arrival_us)}</td>
                            <td>{bursts_text(spec)}</td>
                        </tr>
                    }).collect_view())}
                </tbody>
            </table>
        </div>
    }
}
