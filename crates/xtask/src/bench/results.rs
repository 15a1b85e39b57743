//! Everything one bench run measured: the check that both sides reported every figure for the same
//! jobs, and the report's title.

use super::chapter_parts::ChapterParts;
use super::figures::number;
use super::formatting::{one_line, plain_text};
use super::kernels::Kernel;
use super::site_size::{ChapterCode, Weight};
use super::wasm_profile::ModuleProfile;
use super::{Figures, KERNEL_KEYS, NO_SHARED_MEMORY_KEYS, PAGE_KEYS};
use serde_json::Value;

/// Everything one bench run measured.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct BenchResults {
    pub(super) generated_at: String,
    pub(super) commit: String,
    pub(super) native: Figures,
    pub(super) browser: Figures,
    pub(super) app_wasm: Weight,
    pub(super) engine_wasm: Weight,
    /// The UI's largest chunk file, and what each chapter's experiments load beyond the core.
    pub(super) largest_chunk: Weight,
    pub(super) chapter_code: Vec<ChapterCode>,
    /// The heaviest chapter's code by component, in all and before its Run works.
    pub(super) chapter_parts: Vec<ChapterParts>,
    /// Where each module's bytes go (twiggy): the app, then the threaded engine.
    pub(super) wasm_profiles: Vec<ModuleProfile>,
}

impl BenchResults {
    /// `Err` naming the first figure a side did not report (that one could not be measured at all), or
    /// the first kernel whose jobs differ between the two sides (their figures would not compare).
    pub(super) fn check_complete(&self) -> Result<(), String> {
        for key in KERNEL_KEYS {
            number(&self.native, key).ok_or_else(|| format!("lab did not report {key}"))?;
        }
        for key in KERNEL_KEYS.iter().chain(&PAGE_KEYS).chain(&NO_SHARED_MEMORY_KEYS) {
            number(&self.browser, key).ok_or_else(|| format!("e2e/bench.mjs did not report {key}"))?;
        }
        for kernel in Kernel::ALL {
            let (check, jobs) = (format!("{}_check_ok", kernel.name()), format!("{}_jobs", kernel.name()));
            for (side, figures) in [("lab", &self.native), ("e2e/bench.mjs", &self.browser)] {
                for key in kernel.figures() {
                    number(figures, key).ok_or_else(|| format!("{side} did not report {key}"))?;
                }
                figures.get(&check).and_then(Value::as_bool).ok_or_else(|| format!("{side} did not report {check}"))?;
                figures.get(&jobs).and_then(Value::as_array).ok_or_else(|| format!("{side} did not report {jobs}"))?;
            }
            if self.native.get(&jobs) != self.browser.get(&jobs) {
                let jobs_of = |figures: &Figures| figures.get(&jobs).map(one_line).unwrap_or_default();
                return Err(format!(
                    "lab and e2e/bench.mjs measured different {} jobs, so their figures do not compare:\n  lab:           \
                     {}\n  e2e/bench.mjs: {}",
                    kernel.name(),
                    jobs_of(&self.native),
                    jobs_of(&self.browser)
                ));
            }
        }
        Ok(())
    }

    pub(super) fn native_ms(&self, key: &str) -> f64 {
        number(&self.native, key).unwrap_or(f64::NAN)
    }

    pub(super) fn browser_ms(&self, key: &str) -> f64 {
        number(&self.browser, key).unwrap_or(f64::NAN)
    }

    /// A figure the browser reported as text (`?` if it did not).
    pub(super) fn browser_text(&self, key: &str) -> String {
        self.browser.get(key).map_or_else(|| "?".into(), plain_text)
    }

    /// Sequential median over the median of `key` on each side: (native, browser).
    pub(super) fn speedups(&self, key: &str) -> (f64, f64) {
        (self.native_ms("sequential_ms") / self.native_ms(key), self.browser_ms("sequential_ms") / self.browser_ms(key))
    }

    pub(super) fn title(&self) -> String {
        let text = |figures: &Figures, key: &str| figures.get(key).map_or_else(|| "?".into(), plain_text);
        format!(
            "Concurrency Lab bench, {} (commit {}): {} {}, {} logical CPUs; {} (navigator.hardwareConcurrency {})",
            self.generated_at,
            self.commit,
            text(&self.native, "os"),
            text(&self.native, "arch"),
            text(&self.native, "logical_cpus"),
            text(&self.browser, "version"),
            text(&self.browser, "hardware_concurrency"),
        )
    }
}
