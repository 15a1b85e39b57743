//! Which of the splitter's modules a set of splits loads, read from its loaders (`__wasm_split.js`).
//!
//! The script declares each shared chunk after a comment naming the splits that use it, then each
//! split's own loader:
//!
//! ```js
//! /* panel_bubble_sort, panel_cpu_vs_io, views_sum */
//! const __chunk_27 = makeLoad(() => {
//!     const src = fetch(new URL("./chunk_27.wasm", import.meta.url));
//! …
//! export const __wasm_split_load_panel_demo = wrapAsyncCb(makeLoad(() => {
//!     const src = fetch(new URL("./split_panel_demo.wasm", import.meta.url));
//! ```

use std::collections::BTreeMap;

/// The splitter's loaders, read: each split's own module and each chunk with the splits that use it.
#[derive(Debug, PartialEq)]
pub(super) struct SplitLoaders {
    /// A split's name and its module file: `panel_demo` → `split_panel_demo.wasm`.
    splits: BTreeMap<String, String>,
    /// A chunk's module file and the splits its comment names.
    chunks: Vec<(String, Vec<String>)>,
}

/// What the next module file the script fetches belongs to.
enum Loader {
    Chunk { users: Vec<String> },
    Split { name: String },
}

impl SplitLoaders {
    /// `Err` if the script is not shaped as this reads it: a chunk without the comment naming its
    /// splits, a module fetched outside a loader, or no split at all.
    pub(super) fn parse(script: &str) -> Result<SplitLoaders, String> {
        let mut loaders = SplitLoaders { splits: BTreeMap::new(), chunks: Vec::new() };
        let mut comment: Option<Vec<String>> = None;
        let mut loader: Option<Loader> = None;
        for line in script.lines().map(str::trim) {
            let names = line.strip_prefix("/* ").and_then(|l| l.strip_suffix(" */"));
            let this_comment = names.map(|names| names.split(", ").map(String::from).collect());
            if line.starts_with("const __chunk_") {
                let users = comment
                    .take()
                    .ok_or_else(|| format!("__wasm_split.js: `{line}` has no comment naming the splits that use it"))?;
                loader = Some(Loader::Chunk { users });
            } else if let Some(rest) = line.strip_prefix("export const __wasm_split_load_") {
                let name = rest.split_once(' ').map_or(rest, |(name, _)| name);
                loader = Some(Loader::Split { name: name.into() });
            } else if let Some(file) = fetched_module(line) {
                match loader.take() {
                    Some(Loader::Chunk { users }) => loaders.chunks.push((file, users)),
                    Some(Loader::Split { name }) => {
                        loaders.splits.insert(name, file);
                    }
                    None => {
                        return Err(format!("__wasm_split.js: {file} is fetched outside a chunk's or split's loader"))
                    }
                }
            }
            comment = this_comment;
        }
        if loaders.splits.is_empty() {
            return Err("__wasm_split.js declares no split loader (`export const __wasm_split_load_…`)".into());
        }
        Ok(loaders)
    }

    /// Whether the build has a split of this name (not every panel has later views).
    pub(super) fn has(&self, split: &str) -> bool {
        self.splits.contains_key(split)
    }

    /// The module files `splits` load, each once, sorted: their own modules and every chunk whose
    /// comment names one of them. `Err` naming a split the script does not declare.
    pub(super) fn modules(&self, splits: &[String]) -> Result<Vec<String>, String> {
        let mut files = splits
            .iter()
            .map(|split| {
                self.splits.get(split).cloned().ok_or_else(|| format!("__wasm_split.js has no split `{split}`"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        files.extend(
            self.chunks
                .iter()
                .filter(|(_, users)| users.iter().any(|user| splits.contains(user)))
                .map(|(file, _)| file.clone()),
        );
        files.sort();
        files.dedup();
        Ok(files)
    }
}

/// The module a line fetches: `fetch(new URL("./chunk_27.wasm", …` → `chunk_27.wasm`.
fn fetched_module(line: &str) -> Option<String> {
    let (_, rest) = line.split_once("new URL(\"./")?;
    let (file, _) = rest.split_once('"')?;
    file.ends_with(".wasm").then(|| file.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The splitter's script in small: two chunks, three splits (`views_b` uses chunk_2 only).
    const SCRIPT: &str = r#"import { initSync } from "./app.js";
function makeLoad(fetcher, deps) {
    /* not a chunk's comment */
    const loader = async () => {
}
/* panel_a, panel_b, views_b */
const __chunk_1 = makeLoad(() => {
    const src = fetch(new URL("./chunk_1.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
/* views_b */
const __chunk_2 = makeLoad(() => {
    const src = fetch(new URL("./chunk_2.wasm", import.meta.url));
}
, []);
export const __wasm_split_load_panel_a = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_panel_a.wasm", import.meta.url));
}
, [__chunk_1]));
export const __wasm_split_load_panel_b = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_panel_b.wasm", import.meta.url));
}
, [__chunk_1]));
export const __wasm_split_load_views_b = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_views_b.wasm", import.meta.url));
}
, [__chunk_1, __chunk_2]));
"#;

    fn names(splits: &[&str]) -> Vec<String> {
        splits.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_split_loads_its_own_module_and_every_chunk_whose_comment_names_it() {
        let loaders = SplitLoaders::parse(SCRIPT).expect("the script parses");
        assert_eq!(loaders.modules(&names(&["panel_a"])).unwrap(), ["chunk_1.wasm", "split_panel_a.wasm"]);
        assert_eq!(
            loaders.modules(&names(&["panel_b", "views_b"])).unwrap(),
            ["chunk_1.wasm", "chunk_2.wasm", "split_panel_b.wasm", "split_views_b.wasm"]
        );
        assert!(loaders.has("views_b") && !loaders.has("views_a"));
        let error = loaders.modules(&names(&["panel_a", "views_a"])).unwrap_err();
        assert!(error.contains("no split `views_a`"), "{error}");
    }

    #[test]
    fn a_script_not_shaped_as_expected_is_refused() {
        let without_comment = SCRIPT.replace("/* views_b */\n", "");
        let error = SplitLoaders::parse(&without_comment).unwrap_err();
        assert!(error.contains("const __chunk_2"), "{error}");
        let stray = "    const src = fetch(new URL(\"./chunk_9.wasm\", import.meta.url));\n";
        assert!(SplitLoaders::parse(stray).unwrap_err().contains("chunk_9.wasm"));
        assert!(SplitLoaders::parse("import { initSync } from \"./app.js\";\n").is_err());
    }
}
