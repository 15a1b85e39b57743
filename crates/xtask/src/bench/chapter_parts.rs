//! What the heaviest chapters' code is made of: how many of its bytes each component takes (a shared
//! panel part such as `app::components::timeline`, Leptos, serde and the protocol, …), so the next
//! person knows which shared parts to make lighter.
//!
//! Two chapters, the ones the budgets name (`crate::budget`): the one that loads the most in all,
//! and the one that loads the most before its Run works (its later views left out). A chapter's
//! code is what `site_size` weighs: its panels' splits (`panel_…`, and `views_…` in all), its
//! pictures' splits, and every chunk their loaders say they use ([`split_loaders`]). The shipped
//! modules have no function names (wasm-opt drops them), so this reads the splitter's modules
//! before wasm-opt (`target/app-wasm/split/`): the bytes are larger than shipped, but the shares
//! are of the same code. Each item twiggy lists there counts, by its own size, under the component
//! its name places it in ([`components`], which says what that grouping loses); custom sections
//! (the function names, the producers) and the type sections, which wasm-opt prunes, do not count.

mod components;
mod split_loaders;

use super::formatting::bytes;
use super::site_size::{chapters, Chapter, ChapterCode};
use super::table::Table;
use crate::app_build::{picture_split, split_of, views_of, SPLIT_CORE};
use crate::shell::{output, root, tool_path};
use components::component;
use serde::Serialize;
use split_loaders::SplitLoaders;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

/// How many components a table lists before its "rest" row (the JSON report lists them all).
const TOP_PARTS: usize = 15;

/// Which of a chapter's code is counted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Code {
    /// Everything its panels and pictures load.
    All,
    /// What its panels and pictures load before a Run works: no later views (`views_…`).
    BeforeRun,
}

/// One chapter's code, by component.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct ChapterParts {
    pub(super) chapter: String,
    pub(super) code: Code,
    /// How many of the splitter's modules that code is.
    pub(super) modules: usize,
    /// Their bytes before wasm-opt, without custom and type sections: code and data.
    pub(super) raw_bytes: u64,
    /// Every component, heaviest first.
    pub(super) parts: Vec<Part>,
}

/// A component's bytes in a chapter's code, and its share of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct Part {
    pub(super) component: String,
    pub(super) raw_bytes: u64,
    pub(super) percent: f64,
}

/// An item of a module (a function, a data segment, a section's header) and its own size.
#[derive(Clone, Debug, PartialEq)]
struct Item {
    name: String,
    bytes: u64,
}

/// The parts of the heaviest chapter's code in all, then of the heaviest before its Run works, as
/// `weighed` (the shipped files, gzip -9) ranks them; read from the splitter's modules of this build.
pub(super) fn chapter_parts(weighed: &[ChapterCode]) -> Result<Vec<ChapterParts>, String> {
    let core = root().join(SPLIT_CORE);
    let folder = core.parent().expect("the split core is in a folder");
    let script = folder.join("__wasm_split.js");
    let loaders = SplitLoaders::parse(
        &std::fs::read_to_string(&script).map_err(|e| format!("{}: {e} (is the site built?)", script.display()))?,
    )?;
    let chapters = chapters()?;
    let mut items_of: HashMap<String, Vec<Item>> = HashMap::new();
    let mut measured = Vec::new();
    for code in [Code::All, Code::BeforeRun] {
        let heaviest = super::site_size::heaviest_chapter(weighed, code == Code::BeforeRun)
            .ok_or("no chapter places an experiment")?;
        let chapter = chapters
            .iter()
            .find(|c| c.slug == heaviest.chapter)
            .ok_or_else(|| format!("no chapter {} in the texts", heaviest.chapter))?;
        let modules = loaders.modules(&splits(chapter, code, &loaders))?;
        for module in &modules {
            if !items_of.contains_key(module) {
                items_of.insert(module.clone(), items(&folder.join(module))?);
            }
        }
        let items = modules.iter().flat_map(|module| &items_of[module]);
        measured.push(ChapterParts::new(&chapter.slug, code, modules.len(), items));
    }
    Ok(measured)
}

/// The splits whose modules are `chapter`'s `code`: its panels', its pictures' and, in all, its
/// panels' later views (those it has).
fn splits(chapter: &Chapter, code: Code, loaders: &SplitLoaders) -> Vec<String> {
    let panels = chapter.experiments.iter().map(|e| split_of(e));
    let pictures = chapter.pictures.iter().map(|p| picture_split(p));
    let views = chapter.experiments.iter().map(|e| views_of(e)).filter(|views| code == Code::All && loaders.has(views));
    panels.chain(pictures).chain(views).collect()
}

/// Every item of the module at `path`, from `twiggy top`.
fn items(path: &Path) -> Result<Vec<Item>, String> {
    let csv = output(
        Command::new("twiggy").env("PATH", tool_path()).args(["top", "-n", "1000000", "--format", "csv"]).arg(path),
    )
    .ok_or_else(|| format!("`twiggy top` could not read {}", path.display()))?;
    parse_twiggy_csv(&csv).map_err(|e| format!("twiggy top of {}: {e}", path.display()))
}

/// The items of `twiggy top --format csv` (`Name,ShallowSize,…`) with their own sizes, but for
/// custom sections, the name section's subsections (`"function names" subsection`) and the type
/// section: before wasm-opt every module the splitter writes declares every function type of the
/// program (110 here, 0.8 KB a module), and wasm-opt keeps the few each module uses; they are no
/// component's code, and counted they would be the largest part of the rest.
fn parse_twiggy_csv(csv: &str) -> Result<Vec<Item>, String> {
    let mut lines = csv.lines();
    if !lines.next().is_some_and(|header| header.starts_with("Name,ShallowSize,")) {
        return Err("not twiggy's CSV (no `Name,ShallowSize,` header)".into());
    }
    let mut items = Vec::new();
    for line in lines {
        let fields = csv_fields(line);
        let [name, size, ..] = &fields[..] else {
            return Err(format!("a row without a size: {line}"));
        };
        let section = ["custom section ", "type[", "type section "].iter().any(|start| name.starts_with(start));
        if section || name.ends_with(" subsection") {
            continue;
        }
        let bytes = size.parse().map_err(|_| format!("{name}: size `{size}` is not a number"))?;
        items.push(Item { name: name.clone(), bytes });
    }
    Ok(items)
}

/// A CSV line's fields: a quoted field may hold commas, and `""` for a quote.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let field = fields.last_mut().expect("one field at least");
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => field.push(c),
        }
    }
    fields
}

impl ChapterParts {
    fn new<'a>(chapter: &str, code: Code, modules: usize, items: impl IntoIterator<Item = &'a Item>) -> ChapterParts {
        let mut by_component: BTreeMap<String, u64> = BTreeMap::new();
        for item in items {
            *by_component.entry(component(&item.name)).or_default() += item.bytes;
        }
        let raw_bytes = by_component.values().sum();
        let mut parts: Vec<Part> = by_component
            .into_iter()
            .map(|(component, bytes)| Part { component, raw_bytes: bytes, percent: percent(bytes, raw_bytes) })
            .collect();
        parts.sort_by(|a, b| b.raw_bytes.cmp(&a.raw_bytes).then_with(|| a.component.cmp(&b.component)));
        ChapterParts { chapter: chapter.into(), code, modules, raw_bytes, parts }
    }

    pub(super) fn table(&self) -> Table {
        let which = match self.code {
            Code::All => "The heaviest chapter's code",
            Code::BeforeRun => "The heaviest chapter's code before its Run works",
        };
        let mut table = Table::new(
            &format!(
                "{which}, by component: {}, {} of code and data in {} of the splitter's modules before wasm-opt \
                 (larger than shipped, but the shares are of the same code)",
                self.chapter,
                bytes(self.raw_bytes),
                self.modules
            ),
            &["component", "raw, before wasm-opt", "% of the chapter's"],
            &[false, true, true],
        );
        for part in self.parts.iter().take(TOP_PARTS) {
            table.row(&[&part.component, &bytes(part.raw_bytes), &format!("{:.1}", part.percent)]);
        }
        let rest = &self.parts[TOP_PARTS.min(self.parts.len())..];
        if !rest.is_empty() {
            let rest_bytes = rest.iter().map(|p| p.raw_bytes).sum();
            table.row(&[
                &format!("rest ({} components)", rest.len()),
                &bytes(rest_bytes),
                &format!("{:.1}", percent(rest_bytes, self.raw_bytes)),
            ]);
        }
        table
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole as f64
}

#[cfg(test)]
mod tests {
    use super::components::{LEPTOS, RUST_STD, SERDE};
    use super::*;

    #[test]
    fn twiggys_csv_is_read_without_the_names_and_other_custom_sections() {
        let csv = "Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent\n\
                   \"\"\"function names\"\" subsection\",41419,40.39,,\n\
                   \"data segment \"\".rodata\"\"\",21101,20.58,,\n\
                   app::components::code_view::language_listing::h0ac224e2eec337ab,2935,2.86,,\n\
                   \"<tachys::html::element::HtmlElement<E,At,Ch> as tachys::view::Render>::build::h3637\",373,0.36,,\n\
                   custom section 'producers',44,0.06,,\n\
                   type[7]: (i32) -> i32,5,0.01,,\n\
                   type section headers,4,0.01,,\n\
                   typed_builder::f,6,0.01,,\n\
                   custom section 'name' headers,9,0.01,,\n";
        let items = parse_twiggy_csv(csv).expect("twiggy's CSV parses");
        let read: Vec<(&str, u64)> = items.iter().map(|i| (i.name.as_str(), i.bytes)).collect();
        assert_eq!(
            read,
            [
                ("data segment \".rodata\"", 21101),
                ("app::components::code_view::language_listing::h0ac224e2eec337ab", 2935),
                ("<tachys::html::element::HtmlElement<E,At,Ch> as tachys::view::Render>::build::h3637", 373),
                ("typed_builder::f", 6),
            ]
        );
        assert!(parse_twiggy_csv("[{\"name\":\"x\"}]").is_err(), "not CSV");
        assert!(parse_twiggy_csv("Name,ShallowSize,X\nmain,many,1\n").unwrap_err().contains("main"));
    }

    #[test]
    fn a_chapter_loads_its_panels_pictures_and_the_later_views_it_has() {
        let declared = ["panel_sum", "views_sum", "panel_shared_total", "picture_bubble_pass", "panel_hashing"];
        let script: String = declared
            .iter()
            .map(|split| {
                format!(
                    "export const __wasm_split_load_{split} = wrapAsyncCb(makeLoad(() => {{\n    \
                     const src = fetch(new URL(\"./split_{split}.wasm\", import.meta.url));\n"
                )
            })
            .collect();
        let loaders = SplitLoaders::parse(&script).unwrap();
        let chapter = Chapter {
            slug: "sum".into(),
            experiments: vec!["sum".into(), "shared-total".into()],
            pictures: vec!["bubble-pass".into()],
        };
        assert_eq!(
            splits(&chapter, Code::All, &loaders),
            ["panel_sum", "panel_shared_total", "picture_bubble_pass", "views_sum"]
        );
        assert_eq!(
            splits(&chapter, Code::BeforeRun, &loaders),
            ["panel_sum", "panel_shared_total", "picture_bubble_pass"]
        );
    }

    #[test]
    fn a_chapters_items_are_summed_by_component_heaviest_first_with_the_rest_in_one_row() {
        let item = |name: &str, bytes: u64| Item { name: name.into(), bytes };
        let mut items = vec![
            item("reactive_graph::traits::Get::get::he859e4e625c5191e", 600),
            item("<T as tachys::view::Render>::build::he859e4e625c5191e", 300),
            item("serde_json::de::from_str::he859e4e625c5191e", 50),
            item("core::fmt::write::he859e4e625c5191e", 50),
        ];
        // Twenty app modules of 0 to 19 bytes: the twelve heaviest are listed, m07 to m00 are the rest.
        items.extend((0..20).map(|n| item(&format!("app::m{n:02}::f::he859e4e625c5191e"), n)));
        let parts = ChapterParts::new("sum", Code::All, 3, &items);
        assert_eq!(parts.raw_bytes, 1190);
        assert_eq!(parts.parts.len(), 23);
        assert_eq!((parts.parts[0].component.as_str(), parts.parts[0].raw_bytes), (LEPTOS, 900));
        assert!((parts.parts[0].percent - 75.63).abs() < 0.01, "{}", parts.parts[0].percent);
        assert_eq!(
            parts.parts[1..4].iter().map(|p| p.component.as_str()).collect::<Vec<_>>(),
            [RUST_STD, SERDE, "app::m19"],
            "ties by name"
        );
        let text = parts.table().to_text();
        let title = "The heaviest chapter's code, by component: sum, 1,190 B (1.2 KiB) of code and data in 3 of";
        assert!(text.starts_with(title), "{text}");
        assert!(text.contains("app::m08") && !text.contains("app::m07"), "15 components listed: {text}");
        let rest = text.lines().last().unwrap();
        assert!(rest.contains("rest (8 components)") && rest.contains("28 B") && rest.ends_with("2.4"), "{rest}");
        assert!(ChapterParts::new("sum", Code::BeforeRun, 1, &items[..2])
            .table()
            .to_text()
            .lines()
            .all(|l| !l.contains("rest")));
    }
}
