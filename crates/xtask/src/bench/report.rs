//! The report's files: `bench-report.md` (the title and the tables in Markdown) and `bench-report.json`
//! (every figure, the derived ones and the ratios).

use super::chapter_parts::ChapterParts;
use super::figures::derived;
use super::kernels::Kernel;
use super::results::BenchResults;
use super::site_size::{ChapterCode, Weight};
use super::table::Table;
use super::wasm_profile::ModuleProfile;
use super::{Figures, NUMBERS, REPETITIONS, TASK_COUNTS};
use serde::{Serialize, Serializer};

impl BenchResults {
    pub(super) fn to_markdown(&self, tables: &[Table]) -> String {
        let mut text = format!("# {}\n", self.title());
        for table in tables {
            text.push('\n');
            text.push_str(&table.to_markdown());
        }
        text.push_str(
            "\nMeasured by `cargo xtask bench` in one run on one machine; the numbers are as noisy as the \
             machine was. The browser timings are the engine's own samples (e2e/bench.mjs), taken after \
             one untimed pass of the same jobs that lets V8 finish optimising the module; pool start-up is \
             read from that first pass. Both sides measured the same jobs (checked: they are in \
             bench-report.json as `<kernel>_jobs`).\n",
        );
        text
    }

    /// `bench-report.json`: the parameters, every figure of each side, the derived figures, the
    /// ratios of the two sides and the site's downloads.
    pub(super) fn to_json(&self) -> String {
        let (native_speedup_2, wasm_speedup_2) = self.speedups("tasks2_workers2_ms");
        let (native_speedup_8, wasm_speedup_8) = self.speedups("tasks8_workers2_ms");
        let (native_derived, browser_derived) = (derived(&self.native), derived(&self.browser));
        let mut ratios = vec![
            (
                "wasm_over_native_sequential".to_string(),
                self.browser_ms("sequential_ms") / self.native_ms("sequential_ms"),
            ),
            ("native_speedup_2_workers_2_tasks".into(), native_speedup_2),
            ("wasm_speedup_2_workers_2_tasks".into(), wasm_speedup_2),
            ("native_speedup_2_workers_8_tasks".into(), native_speedup_8),
            ("wasm_speedup_2_workers_8_tasks".into(), wasm_speedup_8),
            (
                "wasm_over_native_pool_start_2_workers".into(),
                self.browser_ms("pool_start_2_ms") / self.native_ms("pool_start_2_ms"),
            ),
        ];
        ratios.extend(
            native_derived
                .iter()
                .zip(&browser_derived)
                .map(|(&(key, native), &(_, wasm))| (format!("wasm_over_native_{key}"), wasm / native)),
        );
        let report = JsonReport {
            generated_at: &self.generated_at,
            commit: &self.commit,
            parameters: Parameters {
                numbers: NUMBERS,
                repetitions: REPETITIONS,
                workers: [1, 2],
                tasks: TASK_COUNTS,
                kernels: InOrder(Kernel::ALL.map(|k| (k.name(), format!("lab {}", k.lab_args().join(" ")))).to_vec()),
            },
            native: &self.native,
            browser: &self.browser,
            derived: BothSides { native: InOrder(native_derived), browser: InOrder(browser_derived) },
            ratios: InOrder(ratios),
            site: Site {
                app_wasm: &self.app_wasm,
                largest_chunk: &self.largest_chunk,
                chapter_code: &self.chapter_code,
                engine_wasm: &self.engine_wasm,
                wasm_profiles: &self.wasm_profiles,
                chapter_parts: &self.chapter_parts,
            },
        };
        // NaN (a figure missing on one side) is written as null.
        serde_json::to_string_pretty(&report).expect("string keys, numbers and text always serialise")
    }
}

/// `bench-report.json`, its members in this order.
#[derive(Serialize)]
struct JsonReport<'a> {
    generated_at: &'a str,
    commit: &'a str,
    parameters: Parameters,
    native: &'a Figures,
    browser: &'a Figures,
    derived: BothSides,
    ratios: InOrder<String>,
    site: Site<'a>,
}

/// What both sides measured: the Sum's size and runs, and each kernel's `lab` command line.
#[derive(Serialize)]
struct Parameters {
    numbers: u64,
    repetitions: u32,
    workers: [u32; 2],
    tasks: [u32; 2],
    kernels: InOrder<&'static str, String>,
}

#[derive(Serialize)]
struct BothSides {
    native: InOrder<&'static str>,
    browser: InOrder<&'static str>,
}

#[derive(Serialize)]
struct Site<'a> {
    app_wasm: &'a Weight,
    largest_chunk: &'a Weight,
    chapter_code: &'a [ChapterCode],
    engine_wasm: &'a Weight,
    wasm_profiles: &'a [ModuleProfile],
    chapter_parts: &'a [ChapterParts],
}

/// Named values written as a JSON object in this order (serde_json's own map sorts its keys).
struct InOrder<K, V = f64>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for InOrder<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(key, value)| (key, value)))
    }
}
