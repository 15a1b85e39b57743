//! The engine's measuring code imports one way only: each layer of [`LAYERS`] may import those
//! below it and never one above, and the engine's basic modules (cancel, clock, executors, runtime,
//! threads, …) import none of them. So there is no import circle among the kernels (hashing and load
//! tests included), `measure`, the harness and the modules below them, and a kernel needs nothing of
//! the harness (see ARCHITECTURE.md, "Code map"). Read from the sources, as written: `crate::…` and
//! `super::…` paths in each file's code before its tests, comments and string literals aside.

use std::path::{Path, PathBuf};

/// The engine's measuring layers, lowest first, and what each holds.
const LAYERS: &[(&str, &str)] = &[
    ("driver", "what whoever drives a run gives the measuring code, and handing work to executors"),
    ("kernel_api", "what a kernel is: Kernel, AnyKernel, Method, Prepared, Steps, Rep"),
    ("measure", "one repetition and one sample, timed and traced"),
    ("kernels", "one kernel per workload, hashing and load tests included"),
    ("harness", "a run's jobs: workers started, warm-ups until quiet, samples in turns"),
];

/// What drives a run, above every layer: it may import any of them.
const FRONTS: &[&str] = &["native", "web"];

/// Where a module stands: a layer's index, a front, or a basic module below every layer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Layer(usize),
    Front,
    Basic,
}

fn place(module: &str) -> Place {
    match LAYERS.iter().position(|(name, _)| *name == module) {
        Some(index) => Place::Layer(index),
        None if FRONTS.contains(&module) => Place::Front,
        None => Place::Basic,
    }
}

/// Why `from` may not import `to`, if it may not.
fn forbidden(from: &str, to: &str) -> Option<String> {
    if from == to {
        return None;
    }
    match (place(from), place(to)) {
        (Place::Layer(a), Place::Layer(b)) if b > a => {
            Some(format!("`{from}` ({}) imports `{to}`, a layer above it", LAYERS[a].1))
        }
        (Place::Basic, Place::Layer(_)) => Some(format!("`{from}`, below every layer, imports the layer `{to}`")),
        _ => None,
    }
}

/// The module path of a source file under `src` (`kernels/qps.rs`: kernels, qps; `kernels/mod.rs`:
/// kernels; `lib.rs`: the crate root).
fn module_path(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// `source`'s code before its tests (the crates keep them at the end, from the first
/// `#[cfg(test)]` on), with comments and the insides of string literals blanked, lines kept.
fn code_of(source: &str) -> String {
    let code = source.split("#[cfg(test)]").next().unwrap_or_default();
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        if c == '/' && chars.get(at + 1) == Some(&'/') {
            while at < chars.len() && chars[at] != '\n' {
                at += 1;
            }
            continue;
        }
        if c == '"' {
            out.push('"');
            at += 1;
            while at < chars.len() && chars[at] != '"' {
                if chars[at] == '\\' {
                    at += 1;
                }
                if chars.get(at) == Some(&'\n') {
                    out.push('\n');
                }
                at += 1;
            }
            out.push('"');
            at += 1;
            continue;
        }
        out.push(c);
        at += 1;
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text.find(|c: char| !is_ident(c)).unwrap_or(text.len());
    &text[..end]
}

/// The top-level modules (`kernels`, `harness`, …) that the code of the file at `relative` imports
/// or names by path, each with its line: `crate::x…`, `crate::{x…, y…}`, and `super::…` paths that
/// reach the crate root.
fn imports(relative: &str, source: &str) -> Vec<(usize, String)> {
    let path = module_path(relative);
    let mut found = Vec::new();
    for (number, line) in code_of(source).lines().enumerate() {
        let mut rest = line;
        let mut offset = 0;
        while let Some(at) = rest.find("crate::").into_iter().chain(rest.find("super::")).min() {
            let before = line[..offset + at].chars().next_back();
            let from_here = &rest[at..];
            rest = &rest[at + 7..];
            offset += at + 7;
            if before.is_some_and(|c| is_ident(c) || c == '$' || c == ':') {
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            if let Some(after) = from_here.strip_prefix("crate::") {
                if let Some(group) = after.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    names.extend(group.split(',').map(|item| ident(item.trim()).to_string()));
                } else {
                    names.push(ident(after).to_string());
                }
            } else {
                // `super::` as many times as written, from this file's module.
                let mut module = path.clone();
                let mut after = from_here;
                while let Some(next) = after.strip_prefix("super::") {
                    module.pop();
                    after = next;
                }
                names.push(match module.first() {
                    Some(top) => top.clone(),
                    None => ident(after).to_string(),
                });
            }
            found.extend(names.into_iter().filter(|n| !n.is_empty()).map(|n| (number + 1, n)));
        }
    }
    found
}

/// Every import of `files` (path under `src`, source) that goes against the layers, as
/// `path:line: why`.
fn violations(files: &[(String, String)]) -> Vec<String> {
    let mut found = Vec::new();
    for (relative, source) in files {
        let Some(from) = module_path(relative).first().cloned() else { continue };
        for (line, to) in imports(relative, source) {
            if let Some(why) = forbidden(&from, &to) {
                found.push(format!("{relative}:{line}: {why}"));
            }
        }
    }
    found
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths
        .iter()
        .map(|path| {
            let relative = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
            (relative, std::fs::read_to_string(path).unwrap())
        })
        .collect()
}

#[test]
fn the_kernels_measure_and_the_harness_import_one_way() {
    let files = sources();
    for (layer, _) in LAYERS {
        assert!(
            files.iter().any(|(path, _)| module_path(path).first().map(String::as_str) == Some(*layer)),
            "the layer `{layer}` has a source file"
        );
    }
    assert!(files.iter().any(|(path, _)| path == "kernels/qps.rs"), "load tests are a kernel");
    assert!(files.iter().any(|(path, _)| path == "kernels/hashing.rs"), "hashing is a kernel");
    let found = violations(&files);
    assert!(
        found.is_empty(),
        "the engine's layers import downwards only ({}):\n{}",
        LAYERS.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(" < "),
        found.join("\n")
    );
}

#[test]
fn the_check_finds_an_import_against_the_layers() {
    let files = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter().map(|(path, source)| (path.to_string(), source.to_string())).collect()
    };
    // What the engine looked like before issue 35: load tests and measure imported upwards.
    let circles = files(&[
        ("kernels/qps.rs", "use crate::cancel::Cancel;\nuse crate::harness::{started, Context};\n"),
        ("measure.rs", "use crate::kernels::Prepared;\n"),
        ("kernel_api.rs", "use crate::{cancel::Cancel, measure::Sample};\n"),
        ("kernels/sum.rs", "fn f() { super::super::harness::groups(&[]); }\n"),
        ("driver/mod.rs", "pub mod handoff;\nuse super::kernels::of;\n"),
        ("executors.rs", "use crate::harness::MAX_GROUP_WORKERS;\n"),
    ]);
    let found = violations(&circles);
    assert_eq!(found.len(), 6, "{found:#?}");
    assert!(found[0].starts_with("kernels/qps.rs:2: `kernels`"), "{}", found[0]);
    assert!(found.iter().any(|f| f.starts_with("kernel_api.rs:1:") && f.contains("`measure`")), "{found:#?}");
    // Downwards, or within a layer, or from a front; and not in comments, strings or tests.
    let fine = files(&[
        (
            "harness/mod.rs",
            "use crate::kernels;\nuse crate::kernel_api::{Method, Steps};\nuse super::driver::Context;\n",
        ),
        ("harness/settle.rs", "use super::{warms_up, Work};\n"),
        ("kernels/scenario.rs", "use super::spin::spin_seed;\nuse crate::measure::spawn_tasks;\n"),
        ("kernels/qps.rs", "// Not through crate::harness::measure_group.\nlet s = \"crate::harness\";\n"),
        ("measure.rs", "use crate::kernel_api::Rep;\n#[cfg(test)]\nmod tests { use crate::harness::groups; }\n"),
        ("native.rs", "use crate::harness;\nuse crate::driver::Context;\n"),
        ("lib.rs", "pub mod harness;\npub use cancel::Cancel;\n"),
    ]);
    assert_eq!(violations(&fine), Vec::<String>::new());
}
