//! The browser side: `node e2e/bench.mjs` run against the built site, its `browser.<key>=<value>` lines
//! read into figures.

use super::Figures;
use crate::shell::{root, tool_path};
use serde_json::{Number, Value};
use std::path::Path;
use std::process::{Command, Stdio};

/// Run `node e2e/bench.mjs` against `dist` and read its `browser.<key>=<value>` lines.
pub(super) fn measure_browser(dist: &Path) -> Result<Figures, String> {
    let mut command = Command::new("node");
    command
        .arg("bench.mjs")
        .current_dir(root().join("e2e"))
        .env("SITE_DIR", dist)
        .env("PATH", tool_path())
        .stderr(Stdio::inherit());
    eprintln!("xtask: $ (cd e2e && SITE_DIR={} node bench.mjs)", dist.display());
    let out = command.output().map_err(|e| format!("could not start node: {e}"))?;
    if !out.status.success() {
        return Err(format!("`node e2e/bench.mjs` could not measure ({})", out.status));
    }
    Ok(parse_browser_lines(&String::from_utf8_lossy(&out.stdout)))
}

/// `browser.key=value` lines to figures: numbers, `true`/`false`, JSON arrays and objects (the jobs a
/// kernel measured), or text. Other lines are ignored.
pub(super) fn parse_browser_lines(text: &str) -> Figures {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("browser.")?.split_once('='))
        .map(|(key, value)| {
            let value = match value.trim() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                raw if raw.starts_with(['[', '{']) => {
                    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
                }
                // JavaScript prints `NaN` and `Infinity`, which are not JSON numbers: kept as text.
                raw => {
                    serde_json::from_str::<Number>(raw).map_or_else(|_| Value::String(raw.to_string()), Value::Number)
                }
            };
            (key.trim().to_string(), value)
        })
        .collect()
}
