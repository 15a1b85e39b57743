//! Which component an item of a wasm module belongs to, by its name: `app::components::timeline`,
//! Leptos, serde and the protocol, plotters, Rust's std library, …
//!
//! A name says where the code was written, not who asked for it: a generic function of Leptos or
//! of std monomorphised for an app type counts as Leptos or std (an app's iterator chains and sorts
//! count as std), and a closure the compiler moved into `core::ops::function::FnOnce::call_once`
//! names no owner at all (its own group). Where a name is `<X as Trait>::f`, X's path counts,
//! unless X is a generic parameter, a primitive, a slice or a tuple, or std's while the trait is
//! not (an impl lives in the crate of its trait or of its type): then the trait's path counts
//! (`<T as tachys::view::Render>::build` is Leptos's). Drop glue (`core::ptr::drop_in_place<X>`)
//! counts as X's, and a split's entry point, which the splitter renames
//! (`__wasm_split_00panel_qps00_export_…`), as its panel's or picture's module. So the groups are
//! where code lives, roughly; sections' headers, imports and tables are "other".

pub(super) const LEPTOS: &str = "Leptos";
pub(super) const SERDE: &str = "serde and the protocol";
pub(super) const PLOTTERS: &str = "plotters";
pub(super) const RUST_STD: &str = "Rust std library";
pub(super) const JS_BINDINGS: &str = "wasm-bindgen, js-sys, web-sys";
pub(super) const CLOSURES: &str = "closures in core's FnOnce shims (owner not named)";
pub(super) const DATA: &str = "data (strings, tables)";
pub(super) const OTHER: &str = "other";

/// The crates of the Leptos project (the framework and the small crates it is built of).
const LEPTOS_CRATES: [&str; 11] = [
    "any_spawner",
    "either_of",
    "hydration_context",
    "next_tuple",
    "oco_ref",
    "or_poisoned",
    "reactive_graph",
    "reactive_stores",
    "server_fn",
    "tachys",
    "throw_error",
];
const SERDE_CRATES: [&str; 5] = ["serde", "serde_core", "serde_derive", "serde_json", "postcard"];
const RUST_STD_CRATES: [&str; 7] = ["core", "alloc", "std", "compiler_builtins", "hashbrown", "dlmalloc", "__rustc"];
const JS_BINDING_CRATES: [&str; 4] = ["wasm_bindgen", "wasm_bindgen_futures", "js_sys", "web_sys"];
/// The app's modules counted by submodule (each panel, each shared part, each picture, each part of
/// the engine's client); the app's other modules are counted whole.
const APP_MODULES_BY_SUBMODULE: [&str; 4] = ["components", "engine_client", "panels", "pictures"];

/// The component of the item twiggy names `name`.
pub(super) fn component(name: &str) -> String {
    if name.starts_with("data segment ") {
        return DATA.into();
    }
    if name.starts_with("import ") {
        return OTHER.into();
    }
    if let Some(module) = split_entry_module(name) {
        return module;
    }
    let owner = owner(&plain(name));
    let parts: Vec<&str> = path_parts(&owner).into_iter().map(|part| part.split('<').next().unwrap_or("")).collect();
    let [krate, module, ..] = parts[..] else {
        // Not a Rust path: a section's headers, a table, `memcpy`.
        return OTHER.into();
    };
    match krate {
        _ if parts.contains(&"_") => SERDE.into(), // serde's derives sit in a `const _: () = { … }`
        "core" if module == "ops" && parts.get(2) == Some(&"function") => CLOSURES.into(),
        "app" if APP_MODULES_BY_SUBMODULE.contains(&module) => match parts.get(2) {
            // A type or function of the module itself, not of a submodule: `app::panels::PanelKind`.
            Some(sub) if parts.len() > 3 && sub.starts_with(|c: char| c.is_ascii_lowercase()) => {
                format!("app::{module}::{sub}")
            }
            _ => format!("app::{module}"),
        },
        "app" | "experiments" => format!("{krate}::{module}"),
        _ if krate == "leptos" || krate.starts_with("leptos_") || LEPTOS_CRATES.contains(&krate) => LEPTOS.into(),
        _ if SERDE_CRATES.contains(&krate) => SERDE.into(),
        _ if krate.starts_with("plotters") => PLOTTERS.into(),
        _ if RUST_STD_CRATES.contains(&krate) => RUST_STD.into(),
        _ if JS_BINDING_CRATES.contains(&krate) => JS_BINDINGS.into(),
        _ => krate.into(),
    }
}

/// The app module of a split's entry point, as the splitter renames it:
/// `__wasm_split_00views_qps00_export_<hash>_qps_views` → `app::panels::qps`
/// (`app_build::split_of`, `views_of` and `picture_split` name the splits after their panels and
/// pictures).
fn split_entry_module(name: &str) -> Option<String> {
    let (split, _) = name.strip_prefix("__wasm_split_00")?.split_once("00_export_")?;
    let (kind, of) = split.split_once('_')?;
    match kind {
        "panel" | "views" => Some(format!("app::panels::{of}")),
        "picture" => Some(format!("app::pictures::{of}")),
        _ => None,
    }
}

/// `name` without what tells items apart but not their owners: a mangled symbol twiggy left as it
/// was is demangled (a v0 one to its crate and leading modules only), the splitter's
/// ` indirect_call_shim` suffix, crates' `[0123abcd…]` disambiguators and the `::h0123456789abcdef`
/// hash (with any `.123` after it) are dropped.
fn plain(name: &str) -> String {
    let symbol = name.split(' ').next().unwrap_or("");
    let demangled = match (symbol.strip_prefix("_ZN"), symbol.strip_prefix("_R")) {
        (Some(legacy), _) => demangled(legacy),
        (_, Some(v0)) => v0_path(v0),
        _ => None,
    };
    let name = demangled.unwrap_or_else(|| name.into());
    let mut plain = without_disambiguators(&name);
    if let Some(at) = plain.rfind("::h") {
        let hash = &plain[at + 3..];
        let digits = hash.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(hash.len());
        if digits == 16 && (hash.len() == 16 || hash[16..].starts_with('.')) {
            plain.truncate(at);
        }
    }
    plain
}

/// `std[a543996e6e7dbf1e]::thread` → `std::thread` (a slice `[u8]` stays).
fn without_disambiguators(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let inside = &rest[open + 1..];
        match inside.find(']') {
            Some(close) if close >= 8 && inside[..close].chars().all(|c| c.is_ascii_hexdigit()) => {
                rest = &inside[close + 1..];
            }
            _ => {
                out.push('[');
                rest = inside;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A legacy Rust symbol after its `_ZN`: length-prefixed parts up to `E`, with `$LT$`-style escapes
/// and `..` for `::`. `None` if it is not one.
fn demangled(mangled: &str) -> Option<String> {
    let mut rest = mangled;
    let mut parts = Vec::new();
    while !rest.starts_with('E') {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        let length: usize = rest[..digits].parse().ok()?;
        let part = rest.get(digits..digits + length)?;
        parts.push(unescaped(part.strip_prefix('_').filter(|p| p.starts_with('$')).unwrap_or(part))?);
        rest = &rest[digits + length..];
    }
    Some(parts.join("::"))
}

/// The crate and the modules after it of a v0 symbol after its `_R`:
/// `NvNtCs5cOc02OMXlo_5alloc5boxed14box_new_uninit` → `alloc::boxed::box_new_uninit`. The crate is
/// the first root (`C`, its disambiguator, `_`); the identifiers that follow it are read while they
/// are plain (an impl's or a generic's stop them).
fn v0_path(mangled: &str) -> Option<String> {
    let root = mangled.find('C')?;
    let mut rest = &mangled[root + 1..];
    if let Some(disambiguated) = rest.strip_prefix('s') {
        rest = &disambiguated[disambiguated.find('_')? + 1..];
    }
    let mut parts = Vec::new();
    while let Some(digits) = rest.find(|c: char| !c.is_ascii_digit()).filter(|&d| d > 0) {
        let length: usize = rest[..digits].parse().ok()?;
        // A `_` after the length separates it from an identifier that starts with `_` or a digit.
        let start = if rest[digits..].starts_with('_') { digits + 1 } else { digits };
        parts.push(rest.get(start..start + length)?);
        rest = &rest[start + length..];
    }
    (!parts.is_empty()).then(|| parts.join("::"))
}

fn unescaped(part: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = part;
    while let Some(at) = rest.find(['$', '.']) {
        out.push_str(&rest[..at]);
        if let Some(after) = rest[at..].strip_prefix("..") {
            out.push_str("::");
            rest = after;
        } else if rest[at..].starts_with('.') {
            out.push('.');
            rest = &rest[at + 1..];
        } else {
            let (code, after) = rest[at + 1..].split_once('$')?;
            out.push(match code {
                "SP" => '@',
                "BP" => '*',
                "RF" => '&',
                "LT" => '<',
                "GT" => '>',
                "LP" => '(',
                "RP" => ')',
                "C" => ',',
                _ => char::from_u32(u32::from_str_radix(code.strip_prefix('u')?, 16).ok()?)?,
            });
            rest = after;
        }
    }
    out.push_str(rest);
    Some(out)
}

/// The path whose crate and modules `name` counts under (see the module's notes).
fn owner(name: &str) -> String {
    if let Some(qualified) = name.strip_prefix('<') {
        let inside = &qualified[..closing(qualified).unwrap_or(qualified.len())];
        // `<Type as Trait>::f`, `<impl Trait for Type>::f` or `<Type>::f`.
        let (self_type, as_trait) = match (inside.strip_prefix("impl "), top_level_find(inside, " as ")) {
            (Some(implemented), _) => match top_level_find(implemented, " for ") {
                Some(at) => (&implemented[at + 5..], Some(&implemented[..at])),
                None => (implemented, None),
            },
            (None, Some(at)) => (&inside[..at], Some(&inside[at + 4..])),
            (None, None) => (inside, None),
        };
        let self_type =
            self_type.trim_start_matches(['&', '*']).trim_start_matches("mut ").trim_start_matches("const ");
        let self_type = self_type.strip_prefix("dyn ").unwrap_or(self_type);
        let from_std = |path: &str| RUST_STD_CRATES.contains(&path_parts(path)[0]);
        return match as_trait {
            // An inherent method of a primitive or a slice: `<u64>::_fmt`, `<[T]>::sort`.
            None if path_parts(self_type).len() < 2 => "core::primitive".into(),
            Some(as_trait) if path_parts(self_type).len() < 2 => owner(as_trait),
            Some(as_trait) if from_std(self_type) && !from_std(as_trait) => owner(as_trait),
            _ => owner(self_type),
        };
    }
    if let Some(glue) = name.strip_prefix("core::ptr::drop_in_place<") {
        return owner(&glue[..closing(glue).unwrap_or(glue.len())]);
    }
    name.into()
}

/// The parts of a path split at its `::`, not at those inside `<…>`, `(…)` or `[…]`.
fn path_parts(path: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    while let Some(at) = top_level_find(&path[start..], "::") {
        parts.push(&path[start..start + at]);
        start += at + 2;
    }
    parts.push(&path[start..]);
    parts
}

/// Where `needle` first occurs in `text` outside any brackets.
fn top_level_find(text: &str, needle: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' if previous != '-' => depth -= 1,
            ')' | ']' => depth -= 1,
            _ if depth == 0 && text[at..].starts_with(needle) => return Some(at),
            _ => {}
        }
        previous = c;
    }
    None
}

/// Where the `>` closing an already opened `<` is in `text`.
fn closing(text: &str) -> Option<usize> {
    let mut depth = 1i32;
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if previous != '-' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
        previous = c;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_count_under_the_component_their_names_place_them_in() {
        let cases = [
            ("app::components::code_view::language_listing::h0ac224e2eec337ab", "app::components::code_view"),
            ("app::panels::bubble_sort::record_sweep::{{closure}}::h4e2df621324e2db9", "app::panels::bubble_sort"),
            ("app::panels::PanelKind::name::h4e2df621324e2db9", "app::panels"),
            ("app::runner::when_page_is_idle::{{closure}}::h460a8fc17a9af0b1", "app::runner"),
            ("app::panels::state::ExperimentState<S>::get::h85e72b8c1158a0ea", "app::panels::state"),
            ("leptos::component::component_view::h219a2a971b65accc", LEPTOS),
            ("leptos_router::matching::resolve::h219a2a971b65accc", LEPTOS),
            ("reactive_graph::traits::Get::get::he859e4e625c5191e", LEPTOS),
            (
                "tachys::view::iterators::<impl tachys::view::Render for alloc::vec::Vec<T>>::rebuild::h49040c9ddff29d3b",
                LEPTOS,
            ),
            ("<T as tachys::view::any_view::IntoAny>::into_any::build::h7b7a792e7fd23f27", LEPTOS),
            ("<Match as leptos_router::matching::MatchInterface>::as_id::h7b7a792e7fd23f27", LEPTOS),
            ("<&mut serde_json::de::Deserializer<R> as serde_core::de::Deserializer>::f::h7b7a792e7fd23f27", SERDE),
            (
                "<experiments::job::_::<impl serde_core::de::Deserialize for experiments::job::Workload>::deserialize::\
                 __Visitor as serde_core::de::Visitor>::visit_enum::hf71f00f006882d87",
                SERDE,
            ),
            ("experiments::results::_::<impl serde_core::ser::Serialize for experiments::results::Measurement>::f", SERDE),
            ("postcard::ser::to_slice::hf71f00f006882d87", SERDE),
            ("<experiments::catalog::bubble_sort::Settings as experiments::catalog::ExperimentSettings>::query::h", "experiments::catalog"),
            ("experiments::job::ScenarioKind::id::habc7b73551b8846f.526", "experiments::job"),
            ("plotters_canvas::CanvasBackend::new::habc7b73551b8846f", PLOTTERS),
            ("core::slice::sort::stable::quicksort::quicksort::h0000000000000000", RUST_STD),
            ("std[a543996e6e7dbf1e]::panicking::begin_panic::<&str>", RUST_STD),
            ("<alloc::vec::Vec<T,A> as core::clone::Clone>::clone::h0000000000000000", RUST_STD),
            ("<core::marker::PhantomData<T> as serde_core::de::DeserializeSeed>::deserialize::h0000000000000000", SERDE),
            ("<alloc::vec::Vec<T> as tachys::view::Render>::build::h0000000000000000", LEPTOS),
            ("<app::format::Bytes as core::fmt::Display>::fmt::h0000000000000000", "app::format"),
            ("_RNvNtCs5cOc02OMXlo_5alloc5boxed14box_new_uninit indirect_call_shim", RUST_STD),
            ("_RNvCsfLfy6EI15iL_7___rustc13___rdl_dealloc indirect_call_shim", RUST_STD),
            ("<u64>::_fmt", RUST_STD),
            ("<str>::to_ascii_lowercase.499", RUST_STD),
            ("_RNvXs4_NtCs5cOc02OMXlo_5alloc6stringNtB5_6StringNtNtCsgXGp5Oqx2Ny_4core3fmt5Write", RUST_STD),
            ("__wasm_split_00views_document_search00_export_2f85_document_search_views indirect_call_shim", "app::panels::document_search"),
            ("__wasm_split_00picture_bubble_pass00_export_a9ed_build_bubble_pass", "app::pictures::bubble_pass"),
            ("<[T] as core::fmt::Debug>::fmt::h0000000000000000", RUST_STD),
            ("core::ops::function::FnOnce::call_once{{vtable.shim}}::hdace3d964671b961", CLOSURES),
            (
                "core::ptr::drop_in_place<reactive_graph::effect::effect::Effect<S>::new<(),app::x::{{closure}}>>::h8cc07f1cac6ff70c",
                LEPTOS,
            ),
            ("core::ptr::drop_in_place<app::components::kept::Kept>::h8cc07f1cac6ff70c", "app::components::kept"),
            ("<js_sys::Array as core::fmt::Debug>::fmt::h8cc07f1cac6ff70c", JS_BINDINGS),
            ("futures_util::stream::StreamExt::poll_next_unpin::h8cc07f1cac6ff70c", "futures_util"),
            (
                "_ZN4core3ptr49drop_in_place$LT$reactive_graph..owner..Owner$GT$17h37b2653017e4c06dE indirect_call_shim",
                LEPTOS,
            ),
            (
                "_ZN61_$LT$T$u20$as$u20$tachys..view..any_view..IntoMaybeErased$GT$17into_maybe_erased17h4fa50ef3a54d65efE \
                 indirect_call_shim",
                LEPTOS,
            ),
            ("data segment \".rodata\"", DATA),
            ("import __wbindgen_placeholder__::__wbg_new_8a6f238a6ece86ea", OTHER),
            ("type[7]: (i32) -> i32", OTHER),
            ("memcmp", OTHER),
            ("<impl core::fmt::Debug for app::format::Bytes>::fmt::h0000000000000000", "app::format"),
            ("<impl tachys::view::Render for alloc::vec::Vec<T>>::build::h0000000000000000", LEPTOS),
        ];
        for (name, expected) in cases {
            assert_eq!(component(name), expected, "{name}");
        }
    }

    #[test]
    fn a_name_is_cut_to_its_path_and_a_legacy_symbol_is_demangled() {
        assert_eq!(plain("app::x::f::h0ac224e2eec337ab"), "app::x::f");
        assert_eq!(plain("app::x::f::h0ac224e2eec337ab.12"), "app::x::f");
        assert_eq!(plain("app::x::h0ac2"), "app::x::h0ac2", "not a hash: too short");
        assert_eq!(plain("core[9fd4b1a8c2b0ff31]::slice::<impl [u8]>::len"), "core::slice::<impl [u8]>::len");
        assert_eq!(
            plain("_ZN53_$LT$T$u20$as$u20$tachys..view..any_view..IntoAny$GT$8into_any17h0123456789abcdefE x"),
            "<T as tachys::view::any_view::IntoAny>::into_any"
        );
        assert_eq!(
            plain("_RNvNtCs5cOc02OMXlo_5alloc5boxed14box_new_uninit indirect_call_shim"),
            "alloc::boxed::box_new_uninit"
        );
        assert_eq!(plain("_RNvXs4_NtCs5cOc02OMXlo_5alloc6stringNtB5_6StringNt"), "alloc::string");
        assert_eq!(path_parts("a::<impl b::C for d::E<f::G>>::h"), ["a", "<impl b::C for d::E<f::G>>", "h"]);
        assert_eq!(owner("<dyn Fn() -> u32 as core::ops::function::Fn<()>>::call"), "core::ops::function::Fn<()>");
    }
}
