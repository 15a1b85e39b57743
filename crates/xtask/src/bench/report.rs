//! The report's files: `bench-report.md` (the title and the tables in Markdown) and `bench-report.json`
//! (every figure, the derived ones and the ratios).

use super::figures::derived;
use super::json::Json;
use super::kernels::Kernel;
use super::results::BenchResults;
use super::site_size::Weight;
use super::table::Table;
use super::{Figures, NUMBERS, REPETITIONS, TASK_COUNTS};

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

    pub(super) fn to_json(&self) -> Json {
        let weight = |w: &Weight| {
            Json::object([
                ("file", Json::String(w.file.clone())),
                ("raw_bytes", Json::Number(w.raw_bytes as f64)),
                ("gzip_bytes", Json::Number(w.gzip_bytes as f64)),
            ])
        };
        let (native_speedup_2, wasm_speedup_2) = self.speedups("tasks2_workers2_ms");
        let (native_speedup_8, wasm_speedup_8) = self.speedups("tasks8_workers2_ms");
        let figures = |f: &Figures| Json::Object(f.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        let (native_derived, browser_derived) = (derived(&self.native), derived(&self.browser));
        let numbers = |values: &[(&str, f64)]| Json::object(values.iter().map(|&(k, v)| (k, Json::Number(v))));
        let mut ratios = vec![
            (
                "wasm_over_native_sequential".to_string(),
                Json::Number(self.browser_ms("sequential_ms") / self.native_ms("sequential_ms")),
            ),
            ("native_speedup_2_workers_2_tasks".into(), Json::Number(native_speedup_2)),
            ("wasm_speedup_2_workers_2_tasks".into(), Json::Number(wasm_speedup_2)),
            ("native_speedup_2_workers_8_tasks".into(), Json::Number(native_speedup_8)),
            ("wasm_speedup_2_workers_8_tasks".into(), Json::Number(wasm_speedup_8)),
            (
                "wasm_over_native_pool_start_2_workers".into(),
                Json::Number(self.browser_ms("pool_start_2_ms") / self.native_ms("pool_start_2_ms")),
            ),
        ];
        ratios.extend(
            native_derived
                .iter()
                .zip(&browser_derived)
                .map(|(&(key, native), &(_, wasm))| (format!("wasm_over_native_{key}"), Json::Number(wasm / native))),
        );
        Json::object([
            ("generated_at", Json::String(self.generated_at.clone())),
            ("commit", Json::String(self.commit.clone())),
            (
                "parameters",
                Json::object([
                    ("numbers", Json::Number(NUMBERS as f64)),
                    ("repetitions", Json::Number(REPETITIONS.into())),
                    ("workers", Json::Array(vec![Json::Number(1.0), Json::Number(2.0)])),
                    ("tasks", Json::Array(TASK_COUNTS.iter().map(|&t| Json::Number(t.into())).collect())),
                    (
                        "kernels",
                        Json::object(
                            Kernel::ALL.map(|k| (k.name(), Json::String(format!("lab {}", k.lab_args().join(" "))))),
                        ),
                    ),
                ]),
            ),
            ("native", figures(&self.native)),
            ("browser", figures(&self.browser)),
            ("derived", Json::object([("native", numbers(&native_derived)), ("browser", numbers(&browser_derived))])),
            ("ratios", Json::Object(ratios)),
            ("site", Json::object([("app_wasm", weight(&self.app_wasm)), ("engine_wasm", weight(&self.engine_wasm))])),
        ])
    }
}
