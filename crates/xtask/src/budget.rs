//! The download budgets `cargo xtask test` enforces, and issue 15's targets the bench prints.
//!
//! A budget is a byte count of a built file compressed with `gzip -9`: the same build gives the same
//! bytes, so no noise can flip the check. Budgets sit just above what the build reaches today, so a
//! change that makes a reader download more fails until someone raises the budget on purpose.
//! Targets are where issue 15 wants the site to get; the bench prints each against its measure.

use crate::bench::site_size::{app_wasm, weigh, Weight};
use std::path::Path;

/// One kilobyte as the targets count it: 1000 bytes.
pub const KB: u64 = 1000;

/// The most the UI module that every page loads first (`dist/app-*_bg.wasm`) may weigh, gzip -9.
/// Raised from 580 KB to 605 KB when the panels' work (axis ticks, the timeline picker, the replay
/// strip, the export menu) and the corrected published figures landed at 598,618 B here; the margin
/// allows for a build machine whose paths (panic locations name them) are a little longer. It only
/// comes down for real with the app split. Raised by 11 KB to 616 KB by the code beside each result
/// (the Rust and Go listings' text, about 25 KB raw, and their component): 609,685 B here, up 11,067 B.
/// Raised to 668 KB by the rest of issue 16 (662,567 B here, up 52,882 B): predict-then-run on every
/// panel, the trace download, the task-count sweep and its chart, the OS scheduler's quiz, and the
/// prose the module carries (every chapter's exercises and the glossary). Lowered to 640 KB when the
/// prose left the module (662,611 B → 635,216 B here, 27,395 B less): each text's prose is now a file
/// the page fetches (`prose` crate, `content/<lang>/<slug>-<hash>.json`), and only titles, summaries
/// and experiment markers stay compiled in, so a new language adds files, not module bytes (about
/// 33 KB gzip per language of prose as the English one weighs). Raised to 735 KB by the languages
/// (726,464 B here, up 91,248 B): the four translated UI tables are 48 KB gzip of strings in the module
/// (Hindi 12.5, Russian 13.5, Japanese 11.7, Chinese 10.9 KB, measured on the built module); the
/// other 43 KB came in the same merge (every string through i18n, the engine's load messages, the OS
/// scheduler's code view, the overshoot report, the language menu and offer, five languages' titles
/// and summaries) and is not yet attributed item by item. Next cut: fetch a non-English table on
/// demand, as the prose is.
pub const APP_WASM_GZIP_BUDGET: u64 = 735 * KB;
/// The most the threaded engine (`dist/engine/engine_bg.wasm`) may weigh, gzip -9: 229,592 B here,
/// with room for a build machine's longer paths.
pub const ENGINE_WASM_GZIP_BUDGET: u64 = 236 * KB;

/// Issue 15's targets: the initially loaded app wasm (gzip -9), its stretch goal, the heaviest
/// chapter chunk, the threaded engine, the longest main-thread task while loading (ms), and the
/// time to a working Run on the emulated slow link, cold and warm (ms).
pub const APP_WASM_GZIP_TARGET: u64 = 200 * KB;
pub const APP_WASM_GZIP_STRETCH: u64 = 150 * KB;
pub const CHAPTER_CHUNK_GZIP_TARGET: u64 = 120 * KB;
pub const ENGINE_WASM_GZIP_TARGET: u64 = 150 * KB;
pub const LONGEST_TASK_TARGET_MS: f64 = 50.0;
pub const SLOW_LINK_RUN_COLD_TARGET_MS: f64 = 4000.0;
pub const SLOW_LINK_RUN_WARM_TARGET_MS: f64 = 1000.0;

/// A file and the most it may weigh, gzip -9.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    pub what: &'static str,
    pub weight: Weight,
    pub gzip_budget: u64,
}

/// The budgets of the site built in `dist`.
pub fn budgets(dist: &Path) -> Result<Vec<Budget>, String> {
    Ok(vec![
        Budget {
            what: "the app wasm every page loads first",
            weight: weigh(&app_wasm(dist)?)?,
            gzip_budget: APP_WASM_GZIP_BUDGET,
        },
        Budget {
            what: "the threaded engine",
            weight: weigh(&dist.join("engine/engine_bg.wasm"))?,
            gzip_budget: ENGINE_WASM_GZIP_BUDGET,
        },
    ])
}

/// `Err` naming every file over its budget; the lines it prints say how far each one is from it.
pub fn check(budgets: &[Budget]) -> Result<(), String> {
    let over: Vec<String> = budgets
        .iter()
        .filter(|b| b.weight.gzip_bytes > b.gzip_budget)
        .map(|b| {
            format!(
                "{} ({}) is {} bytes gzip -9, over its budget of {} by {} bytes",
                b.what,
                b.weight.file,
                b.weight.gzip_bytes,
                b.gzip_budget,
                b.weight.gzip_bytes - b.gzip_budget
            )
        })
        .collect();
    if over.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "download budget exceeded:\n  {}\n(shrink it, or raise the budget in crates/xtask/src/budget.rs and say why)",
            over.join("\n  ")
        ))
    }
}

/// `cargo xtask budget` and the step of `cargo xtask test`: weigh the built `dist` and check it.
pub fn check_dist(dist: &Path) -> Result<(), String> {
    let budgets = budgets(dist)?;
    for b in &budgets {
        eprintln!(
            "xtask: budget: {}: {} bytes gzip -9 of at most {} ({})",
            b.what, b.weight.gzip_bytes, b.gzip_budget, b.weight.file
        );
    }
    check(&budgets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(gzip_bytes: u64, gzip_budget: u64) -> Budget {
        Budget {
            what: "the app wasm every page loads first",
            weight: Weight { file: "dist/app-1_bg.wasm".into(), raw_bytes: 3 * gzip_bytes, gzip_bytes },
            gzip_budget,
        }
    }

    #[test]
    fn a_file_at_its_budget_passes_and_one_byte_over_fails_with_its_name() {
        assert_eq!(check(&[budget(500, 500), budget(10, 500)]), Ok(()));
        let error = check(&[budget(10, 500), budget(501, 500)]).expect_err("501 bytes are over a budget of 500");
        assert!(error.contains("dist/app-1_bg.wasm") && error.contains("over its budget of 500 by 1 bytes"), "{error}");
    }
}
