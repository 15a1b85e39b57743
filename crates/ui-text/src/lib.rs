//! Every reader-visible string of the interface, one typed table per language: a missing string in
//! any language does not compile. The app compiles English in and fetches the reader's other
//! language when a page starts (`site_path`; `cargo xtask build-prose` writes the files), so a
//! reader downloads the strings of one language, not five. Strings with blanks are messages in the
//! app's plural message format (`app::i18n::message`).

pub mod hi;
pub mod ja;
pub mod offer;
pub mod ru;
#[cfg(test)]
mod style_tests;
pub mod zh;

/// The count forms of a noun as a plural message over `n`, e.g.
/// `{n, plural, one {# worker} other {# workers}}`.
pub type Forms = &'static str;

/// Declares [`Ui`] (each field with its doc, its type and its English text: `en.rs` holds the one
/// invocation), [`Ui::texts`], which lists every field's text(s) by name (tests hold every
/// language's table against the English one; xtask writes the fetched tables from it), the
/// English table [`en::EN`], and the `LAYOUT` from which [`Ui::from_texts`] builds a fetched table
/// back.
macro_rules! ui_table {
    ($( $(#[$meta:meta])* pub $name:ident : $kind:ty = $english:expr, )*) => {
        /// Every reader-visible string of the interface in one language.
        pub struct Ui {
            $( $(#[$meta])* pub $name: $kind, )*
        }

        impl Ui {
            /// Every field's name and text(s), in declaration order.
            pub fn texts(&self) -> Vec<(&'static str, Vec<&'static str>)> {
                vec![$( (stringify!($name), $crate::Texts::texts(&self.$name)) ),*]
            }
        }

        /// Every field of [`Ui`], once each and in order: its name, where it lies, what it holds.
        pub(crate) const LAYOUT: &[$crate::Slot] = &[
            $( $crate::Slot {
                name: stringify!($name),
                offset: std::mem::offset_of!(Ui, $name),
                shape: <$kind as $crate::Field>::SHAPE,
            }, )*
        ];

        /// The English table.
        pub static EN: Ui = Ui { $( $name: $english, )* };
    };
}
pub(crate) use ui_table;

// After the macro: `en.rs` invokes it.
pub mod en;
pub use en::Ui;
use en::LAYOUT;

/// The text(s) of one field of [`Ui`].
trait Texts {
    fn texts(&self) -> Vec<&'static str>;
}

impl Texts for &'static str {
    fn texts(&self) -> Vec<&'static str> {
        vec![self]
    }
}

impl<const N: usize> Texts for [&'static str; N] {
    fn texts(&self) -> Vec<&'static str> {
        self.to_vec()
    }
}

impl Texts for &'static [&'static str] {
    fn texts(&self) -> Vec<&'static str> {
        self.to_vec()
    }
}

/// What one field of [`Ui`] holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// One text: `&'static str`.
    One,
    /// Exactly this many texts: `[&'static str; N]`.
    Array(usize),
    /// Any number of texts: `&'static [&'static str]`.
    Slice,
}

/// A type a field of [`Ui`] may have, and its [`Shape`]. A field of any other type does not compile.
trait Field {
    const SHAPE: Shape;
}

impl Field for &'static str {
    const SHAPE: Shape = Shape::One;
}

impl<const N: usize> Field for [&'static str; N] {
    const SHAPE: Shape = Shape::Array(N);
}

impl Field for &'static [&'static str] {
    const SHAPE: Shape = Shape::Slice;
}

/// One field of [`Ui`] as [`LAYOUT`] lists it.
struct Slot {
    name: &'static str,
    /// `offset_of!(Ui, name)`.
    offset: usize,
    shape: Shape,
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

impl Ui {
    /// A table from each field's text(s), looked up by name (a fetched table: the texts are leaked,
    /// once per page, to live as long as the page). `Err` names the first field that is missing or
    /// has the wrong number of texts.
    ///
    /// One loop over `LAYOUT` rather than a few lines of code per field: the per-field version
    /// was 55 KB of the app's core module (raw), for some 490 fields.
    pub fn from_texts(lookup: &mut dyn FnMut(&str) -> Option<Vec<String>>) -> Result<Ui, &'static str> {
        let mut ui = std::mem::MaybeUninit::<Ui>::uninit();
        let base = ui.as_mut_ptr().cast::<u8>();
        for slot in LAYOUT {
            let texts = lookup(slot.name).ok_or(slot.name)?;
            let fits = match slot.shape {
                Shape::One => texts.len() == 1,
                Shape::Array(n) => texts.len() == n,
                Shape::Slice => true,
            };
            if !fits {
                return Err(slot.name);
            }
            let texts: Vec<&'static str> = texts.into_iter().map(leak).collect();
            // SAFETY: `slot.offset` is `offset_of!` a field of `Ui` whose type has `slot.shape`
            // (`ui_table!` writes both from the field's declaration), so every write is inside `ui`
            // and aligned: `One` and `Array(n)` are `texts.len()` consecutive `&str` (checked
            // above), `Slice` is one `&[&str]`.
            unsafe {
                let field = base.add(slot.offset);
                match slot.shape {
                    Shape::One | Shape::Array(_) => {
                        for (index, text) in texts.into_iter().enumerate() {
                            field.cast::<&'static str>().add(index).write(text);
                        }
                    }
                    Shape::Slice => field.cast::<&'static [&'static str]>().write(Box::leak(texts.into_boxed_slice())),
                }
            }
        }
        // SAFETY: `LAYOUT` lists every field of `Ui` (`ui_table!` writes one slot per field), and the
        // loop above wrote each of them (it returns early otherwise, and `ui` is never read then;
        // no field needs dropping).
        Ok(unsafe { ui.assume_init() })
    }
}

/// Every language's table, by tag, English first. Not for the app (it would pull every table into
/// its module): for the build, which writes the fetched tables, and for tests.
pub fn tables() -> [(&'static str, &'static Ui); 5] {
    [("en", &en::EN), ("ru", &ru::RU), ("zh", &zh::ZH), ("ja", &ja::JA), ("hi", &hi::HI)]
}

/// The table of `tag`, if the interface speaks that language (like [`tables`], not for the app).
pub fn table(tag: &str) -> Option<&'static Ui> {
    tables().into_iter().find(|(t, _)| *t == tag).map(|(_, table)| table)
}

/// The fetched form of a table: a JSON object of each field's texts, `{"site_name": ["…"], …}`.
pub fn to_json(ui: &Ui) -> String {
    to_json_with(ui, Vec::new())
}

/// [`to_json`] with more entries after the table's fields (the language's text titles: see
/// [`text_key`]).
pub fn to_json_with(ui: &Ui, more: Vec<(String, Vec<String>)>) -> String {
    let mut fields: serde_json::Map<String, serde_json::Value> =
        ui.texts().into_iter().map(|(name, texts)| (name.to_string(), serde_json::json!(texts))).collect();
    fields.extend(more.into_iter().map(|(key, texts)| (key, serde_json::json!(texts))));
    serde_json::Value::Object(fields).to_string()
}

/// The key of a text's entry in a language's fetched file: `["title", "summary", "prose file"]`
/// (the app compiles in the English ones only).
pub fn text_key(slug: &str) -> String {
    format!("text:{slug}")
}

/// Where the site serves the fetched file of `tag`: `ui/<tag>-<hash>.json`, the hash of its bytes
/// in the name, so a changed file has a new name and a cached one never goes stale.
pub fn site_path(tag: &str, json: &str) -> String {
    // 64-bit FNV-1a: stable across builds and machines (not for security).
    let hash =
        json.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("ui/{tag}-{hash:016x}.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_survives_its_trip_through_json() {
        for (tag, table) in tables() {
            let json: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&to_json(table)).unwrap();
            let back = Ui::from_texts(&mut |name| {
                json.get(name)?.as_array()?.iter().map(|t| t.as_str().map(String::from)).collect()
            })
            .unwrap_or_else(|field| panic!("{tag}: {field}"));
            assert_eq!(back.texts(), table.texts(), "{tag}");
        }
    }

    #[test]
    fn a_table_missing_a_field_or_a_text_is_refused_by_name() {
        let texts: Vec<(&str, Vec<&str>)> = en::EN.texts();
        let without = |skip: &str| {
            Ui::from_texts(&mut |name| {
                (name != skip)
                    .then(|| texts.iter().find(|(n, _)| *n == name).unwrap().1.iter().map(|t| t.to_string()).collect())
            })
        };
        assert_eq!(without("site_name").err(), Some("site_name"));
        assert!(without("no_such_field").is_ok());
        let short = Ui::from_texts(&mut |name| {
            let found = texts.iter().find(|(n, _)| *n == name).unwrap().1.clone();
            Some(if name == "site_name" { Vec::new() } else { found.iter().map(|t| t.to_string()).collect() })
        });
        assert_eq!(short.err(), Some("site_name"));
    }

    #[test]
    fn the_layout_lists_every_field_once_in_order_and_no_two_overlap() {
        let names: Vec<&str> = en::EN.texts().into_iter().map(|(name, _)| name).collect();
        assert_eq!(LAYOUT.iter().map(|s| s.name).collect::<Vec<_>>(), names);
        let word = std::mem::size_of::<&str>();
        let mut spans: Vec<(usize, usize)> = LAYOUT
            .iter()
            .map(|slot| {
                let words = match slot.shape {
                    Shape::One | Shape::Slice => 1,
                    Shape::Array(n) => n,
                };
                (slot.offset, slot.offset + words * word)
            })
            .collect();
        spans.sort();
        assert!(spans.windows(2).all(|pair| pair[0].1 <= pair[1].0), "two fields overlap");
        assert!(spans.last().unwrap().1 <= std::mem::size_of::<Ui>());
    }

    #[test]
    fn file_names_follow_the_bytes() {
        assert_eq!(site_path("ru", "{}"), site_path("ru", "{}"));
        assert_ne!(site_path("ru", "{}"), site_path("ru", "{ }"));
        assert!(site_path("ja", "{}").starts_with("ui/ja-"));
    }
}
