//! Whole-sentence messages with named arguments and CLDR plural forms, in a small subset of ICU
//! MessageFormat: `{name}` and `{name, plural, one {…} few {…} other {…}}` (`=N {…}` for an exact
//! count, `#` inside a branch for the count). Pure: the caller supplies the language's plural rule and
//! number format, which the browser's `Intl` provides, so no CLDR data is compiled into the app.

/// The value of one `{name}` in a message.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// Shown as it is.
    Text(&'a str),
    /// A count: formatted for the language, and it chooses the branch of a `plural`.
    Count(u64),
}

/// How a language writes and inflects counts.
pub trait Counting {
    /// The CLDR plural category of `n`: "zero", "one", "two", "few", "many" or "other".
    fn category(&self, n: u64) -> String;
    /// `n` written with the language's digit grouping.
    fn number(&self, n: u64) -> String;
}

/// `template` with every `{name}` and `{name, plural, …}` replaced. A `{…}` that names no
/// argument is left as it is, so a message never loses text; a plural whose count is missing shows
/// its `other` branch with `#` as it is.
pub fn format(template: &str, args: &[(&str, Arg<'_>)], counting: &dyn Counting) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    render(template, args, counting, None, &mut out);
    out
}

fn render(template: &str, args: &[(&str, Arg<'_>)], counting: &dyn Counting, hash: Option<u64>, out: &mut String) {
    let mut rest = template;
    while let Some(at) = rest.find(['{', '#']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix('#') {
            match hash {
                Some(n) => out.push_str(&counting.number(n)),
                None => out.push('#'),
            }
            rest = after;
            continue;
        }
        let Some(end) = closing_brace(tail) else {
            out.push_str(tail);
            return;
        };
        let inner = &tail[1..end];
        placeholder(inner, args, counting, hash, out);
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
}

/// The index in `text` (which starts with `{`) of the brace that closes it.
fn closing_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn value<'a>(args: &'a [(&str, Arg<'a>)], name: &str) -> Option<Arg<'a>> {
    args.iter().find(|(key, _)| *key == name).map(|(_, arg)| *arg)
}

fn placeholder(inner: &str, args: &[(&str, Arg<'_>)], counting: &dyn Counting, hash: Option<u64>, out: &mut String) {
    let mut parts = inner.splitn(3, ',');
    let name = parts.next().unwrap_or_default().trim();
    match (parts.next().map(str::trim), parts.next()) {
        (Some("plural"), Some(branches)) => {
            let count = match value(args, name) {
                Some(Arg::Count(n)) => Some(n),
                _ => None,
            };
            let chosen = count.map(|n| (format!("={n}"), counting.category(n)));
            let branches = plural_branches(branches);
            let text = chosen
                .as_ref()
                .and_then(|(exact, category)| {
                    branches
                        .iter()
                        .find(|(key, _)| key == exact)
                        .or_else(|| branches.iter().find(|(key, _)| key == category))
                })
                .or_else(|| branches.iter().find(|(key, _)| key == "other"))
                .map(|(_, text)| *text)
                .unwrap_or_default();
            render(text, args, counting, count.or(hash), out);
        }
        (None, _) => match value(args, name) {
            Some(Arg::Text(text)) => out.push_str(text),
            Some(Arg::Count(n)) => out.push_str(&counting.number(n)),
            None => {
                out.push('{');
                out.push_str(inner);
                out.push('}');
            }
        },
        _ => {
            out.push('{');
            out.push_str(inner);
            out.push('}');
        }
    }
}

/// `one {…} few {…} other {…}` as (key, text) pairs.
fn plural_branches(text: &str) -> Vec<(String, &str)> {
    let mut branches = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let key = rest[..open].trim().to_string();
        let Some(end) = closing_brace(&rest[open..]) else { break };
        branches.push((key, &rest[open + 1..open + end]));
        rest = &rest[open + end + 1..];
    }
    branches
}

#[cfg(test)]
/// Problems with a template: unbalanced braces, a `plural` without an `other` branch, or a branch
/// whose key is not a CLDR category or `=N`. Used by the tests that check every language's table.
pub fn problems(template: &str) -> Vec<String> {
    let mut found = Vec::new();
    check(template, &mut found);
    found
}

#[cfg(test)]
fn check(template: &str, found: &mut Vec<String>) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        let tail = &rest[at..];
        let Some(end) = closing_brace(tail) else {
            found.push(format!("unclosed '{{' in {template:?}"));
            return;
        };
        let inner = &tail[1..end];
        let mut parts = inner.splitn(3, ',');
        let name = parts.next().unwrap_or_default().trim();
        if let (Some(kind), Some(branches)) = (parts.next().map(str::trim), parts.next()) {
            if kind != "plural" {
                found.push(format!("{{{name}, {kind}, …}}: only plural is known"));
            }
            let branches = plural_branches(branches);
            if !branches.iter().any(|(key, _)| key == "other") {
                found.push(format!("{{{name}, plural, …}} has no 'other' branch"));
            }
            for (key, text) in branches {
                let known = ["zero", "one", "two", "few", "many", "other"].contains(&key.as_str())
                    || key.strip_prefix('=').is_some_and(|n| n.parse::<u64>().is_ok());
                if !known {
                    found.push(format!("{{{name}, plural, …}}: unknown branch {key:?}"));
                }
                check(text, found);
            }
        } else if name.is_empty() || name.contains(char::is_whitespace) {
            found.push(format!("'{{{inner}}}' is not a placeholder"));
        }
        rest = &tail[end + 1..];
    }
    if rest.contains('}') {
        found.push(format!("stray '}}' in {template:?}"));
    }
}

#[cfg(test)]
/// The argument names a template uses (`{name}` and `{name, plural, …}`, nested ones included), sorted.
pub fn argument_names(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    collect_names(template, &mut names);
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
fn collect_names(template: &str, names: &mut Vec<String>) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        let tail = &rest[at..];
        let Some(end) = closing_brace(tail) else { return };
        let inner = &tail[1..end];
        let mut parts = inner.splitn(3, ',');
        names.push(parts.next().unwrap_or_default().trim().to_string());
        if let (Some(_), Some(branches)) = (parts.next(), parts.next()) {
            for (_, text) in plural_branches(branches) {
                collect_names(text, names);
            }
        }
        rest = &tail[end + 1..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CLDR's cardinal rules for whole numbers, written out for the tests only (the app asks `Intl`).
    struct Rules(&'static str);

    impl Counting for Rules {
        fn category(&self, n: u64) -> String {
            let category = match self.0 {
                "ru" if n % 10 == 1 && n % 100 != 11 => "one",
                "ru" if (2..=4).contains(&(n % 10)) && !(12..=14).contains(&(n % 100)) => "few",
                "ru" => "many",
                "hi" if n <= 1 => "one",
                "en" if n == 1 => "one",
                _ => "other",
            };
            category.to_string()
        }
        fn number(&self, n: u64) -> String {
            n.to_string()
        }
    }

    const RU_THREADS: &str = "{n, plural, one {# поток} few {# потока} many {# потоков} other {# потока}}";

    #[test]
    fn russian_counts_take_one_few_or_many() {
        let forms: Vec<String> = [1, 2, 5, 21, 22, 25, 111]
            .iter()
            .map(|&n| format(RU_THREADS, &[("n", Arg::Count(n))], &Rules("ru")))
            .collect();
        assert_eq!(forms, ["1 поток", "2 потока", "5 потоков", "21 поток", "22 потока", "25 потоков", "111 потоков"]);
    }

    #[test]
    fn hindi_zero_and_one_share_a_form() {
        let template = "{n, plural, one {# वर्कर} other {# वर्करों}}";
        let forms: Vec<String> =
            [0, 1, 2].iter().map(|&n| format(template, &[("n", Arg::Count(n))], &Rules("hi"))).collect();
        assert_eq!(forms, ["0 वर्कर", "1 वर्कर", "2 वर्करों"]);
    }

    #[test]
    fn a_sentence_inflects_each_count_and_keeps_text() {
        let template = "{tasks, plural, one {# task} other {# tasks}} on {workers, plural, =1 {one worker} other {# workers}} ({name})";
        let text = |t, w| {
            format(
                template,
                &[("tasks", Arg::Count(t)), ("workers", Arg::Count(w)), ("name", Arg::Text("sum"))],
                &Rules("en"),
            )
        };
        assert_eq!(text(1, 1), "1 task on one worker (sum)");
        assert_eq!(text(8, 2), "8 tasks on 2 workers (sum)");
    }

    #[test]
    fn unknown_placeholders_and_missing_counts_keep_their_text() {
        assert_eq!(format("{a} and {b}", &[("a", Arg::Text("x"))], &Rules("en")), "x and {b}");
        assert_eq!(format("{n, plural, one {# x} other {# xs}}", &[], &Rules("en")), "# xs");
        assert_eq!(format("50 % of {n}", &[("n", Arg::Count(4))], &Rules("en")), "50 % of 4");
    }

    #[test]
    fn problems_are_found() {
        assert!(problems(RU_THREADS).is_empty());
        assert!(problems("{n, plural, one {# x}}").iter().any(|p| p.contains("no 'other'")));
        assert!(problems("{n, plural, lots {# x} other {y}}").iter().any(|p| p.contains("unknown branch")));
        assert!(problems("{n").iter().any(|p| p.contains("unclosed")));
        assert!(problems("n}").iter().any(|p| p.contains("stray")));
        assert_eq!(argument_names("{a} {b, plural, one {{c}} other {#}}"), ["a", "b", "c"]);
    }
}
