//! The articles' published figures, shown beside the reader's own and labelled with their source.

use super::speedup_chart::PublishedPoint;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::published::{Article, PublishedComparison, PublishedMachine, Source};
use leptos::prelude::*;

/// An article's short label in the UI's language.
pub fn article_label(article: Article) -> &'static str {
    let t = ui();
    match article {
        Article::SchedulingPart3Ru => t.article_scheduling_part3_ru,
        Article::ConcurrencyZh => t.article_concurrency_zh,
        Article::HighConcurrencyRu => t.article_high_concurrency_ru,
        Article::GoroutinePerformanceHi => t.article_goroutine_performance_hi,
        Article::ParallelismByGoroutinesJa => t.article_parallelism_by_goroutines_ja,
    }
}

/// A published machine in the UI's language, e.g. "Intel Core i7, 4 cores, 2.9 GHz".
pub fn machine_text(machine: PublishedMachine) -> String {
    let t = ui();
    let processor = Arg::Text(machine.processor);
    let cores = Arg::Count(machine.cores as u64);
    match machine.ghz {
        Some(ghz) => message(
            t.published_machine_clocked,
            &[("processor", processor), ("cores", cores), ("ghz", Arg::Text(&format::fixed(ghz, 1)))],
        ),
        None => message(t.published_machine, &[("processor", processor), ("cores", cores)]),
    }
}

/// A published figure's source: its label in the UI's language, then its original title, marked
/// with the article's own language so screen readers pronounce each part correctly.
#[component]
pub fn SourceCitation(source: Source) -> impl IntoView {
    view! {
        <cite>{article_label(source.article)}</cite>
        <span class="original-title" lang=source.language>{source.title}</span>
    }
}

#[component]
pub fn PublishedTable(
    title: &'static str,
    caption: &'static str,
    rows: &'static [PublishedComparison],
) -> impl IntoView {
    let t = ui();
    let body = rows
        .iter()
        .map(|r| {
            view! {
                <tr>
                    <td><SourceCitation source=r.source /></td>
                    <td>{machine_text(r.machine)}</td>
                    <td class="num">{gomaxprocs_cell(r)}</td>
                    <td class="num">{format::int(r.goroutines as u64)}</td>
                    <td class="num">{format::ms(r.sequential_ns as f64 / 1e6)}</td>
                    <td class="num">{format::ms(r.concurrent_ns as f64 / 1e6)}</td>
                    <td class="num">{format::times(r.speedup())}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="published" data-testid="published">
            <h3>{title}</h3>
            <div class="table-scroll" tabindex="0">
                <table>
                    <caption>{caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t.col_source}</th>
                            <th scope="col">{t.col_machine}</th>
                            <th scope="col">{t.col_cores_used}</th>
                            <th scope="col">{t.col_goroutines}</th>
                            <th scope="col">{t.col_sequential_ns}</th>
                            <th scope="col">{t.col_concurrent_ns}</th>
                            <th scope="col">{t.col_speedup}</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </section>
    }
}

/// A run's `GOMAXPROCS`, marked as Go's default when the run passed no `-cpu` flag.
fn gomaxprocs_cell(r: &PublishedComparison) -> String {
    let value = format::int(r.gomaxprocs as u64);
    if r.cpu_flag {
        value
    } else {
        fill(ui().gomaxprocs_default, &[("n", &value)])
    }
}

/// The published comparisons as symbols on the reader's speedup chart: at `x` of each row (the cores
/// it used, or its goroutines), one symbol per source, labelled with source, machine and setting.
pub fn published_points(rows: &[PublishedComparison], x: fn(&PublishedComparison) -> u32) -> Vec<PublishedPoint> {
    let t = ui();
    let mut sources: Vec<Article> = Vec::new();
    rows.iter()
        .map(|r| {
            if !sources.contains(&r.source.article) {
                sources.push(r.source.article);
            }
            let setting = message(
                t.published_setting,
                &[("cores", Arg::Text(&gomaxprocs_cell(r))), ("goroutines", Arg::Count(r.goroutines as u64))],
            );
            let label = fill(
                t.published_point,
                &[
                    ("source", article_label(r.source.article)),
                    ("machine", &machine_text(r.machine)),
                    ("setting", &setting),
                    ("speedup", &format::times(r.speedup())),
                ],
            );
            PublishedPoint {
                x: x(r) as f64,
                speedup: r.speedup(),
                symbol: sources.iter().position(|s| *s == r.source.article).unwrap_or(0),
                label,
            }
        })
        .collect()
}
