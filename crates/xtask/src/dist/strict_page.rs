//! The strict page: Trunk's inline start-up script moved into a file, the Content-Security-Policy
//! added to every page, the check that a page holds nothing the policy would block, and the small
//! reader of HTML start tags that these and the other steps editing pages use.

use super::files::{fnv1a, html_files, read, write};
use super::headers::CSP;
use std::path::Path;

/// Move every inline script of every HTML file under `dir` into a file `init-<hash>.js` at the
/// top of `dir`, referenced by `src`, so `script-src 'self'` allows it. Trunk writes one: the module
/// script that imports the app and starts it. Attributes (`type="module"`) are kept; running it
/// again changes nothing.
pub fn externalise_inline_scripts(dir: &Path) -> Result<(), String> {
    for file in html_files(dir)? {
        let html = read(&file)?;
        let mut result = String::with_capacity(html.len());
        let mut copied = 0;
        for tag in tags(&html) {
            let Some(body) = tag.body.clone() else { continue };
            if tag.name != "script" || tag.attr("src").is_some() || !is_javascript(tag.attr("type")) {
                continue;
            }
            let code = &html[body.clone()];
            let name = format!("init-{:016x}.js", fnv1a(code.as_bytes()));
            write(&dir.join(&name), code)?;
            let src = match base_href(&html) {
                Some(base) => format!("{base}{name}"),
                None => relative_to_top(dir, &file)? + &name,
            };
            let open = &html[tag.start..body.start];
            let open = open.strip_suffix('>').unwrap_or(open).trim_end().trim_end_matches('/');
            result.push_str(&html[copied..tag.start]);
            result.push_str(&format!("{open} src=\"{src}\"></script>"));
            copied = tag.end;
        }
        if copied > 0 {
            result.push_str(&html[copied..]);
            write(&file, &result)?;
        }
    }
    Ok(())
}

/// Add [`CSP`] as a `<meta http-equiv>` to every HTML file under `dir`, right after
/// `<meta charset>` so it covers `<base>` and every script. Files that have one keep theirs.
pub fn add_csp(dir: &Path) -> Result<(), String> {
    for file in html_files(dir)? {
        let html = read(&file)?;
        let all = tags(&html);
        let has_csp = all.iter().any(|t| {
            t.name == "meta" && t.attr("http-equiv").is_some_and(|v| v.eq_ignore_ascii_case("content-security-policy"))
        });
        if has_csp {
            continue;
        }
        let after = all
            .iter()
            .find(|t| t.name == "meta" && t.attr("charset").is_some())
            .or_else(|| all.iter().find(|t| t.name == "head"))
            .ok_or_else(|| format!("{}: no <head> to put the Content-Security-Policy in", file.display()))?;
        let meta = format!("\n    <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\" />");
        write(&file, &format!("{}{meta}{}", &html[..after.end], &html[after.end..]))?;
    }
    Ok(())
}

/// What the strict policy would block in a page: inline scripts, `<style>` elements, `style` and
/// `on…` attributes, `javascript:` URLs.
pub fn check_strict_page(html: &str) -> Result<(), String> {
    for tag in tags(html) {
        if tag.name == "script" && tag.attr("src").is_none() && is_javascript(tag.attr("type")) {
            return Err("an inline <script> is left".into());
        }
        if tag.name == "style" {
            return Err("an inline <style> element".into());
        }
        for (name, value) in &tag.attrs {
            if name == "style" || name.starts_with("on") {
                return Err(format!("a `{name}` attribute on <{}>", tag.name));
            }
            if value.as_deref().is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("javascript:")) {
                return Err(format!("a javascript: URL on <{}>", tag.name));
            }
        }
    }
    Ok(())
}

/// `../../` from the folder of `file` up to `top`.
fn relative_to_top(top: &Path, file: &Path) -> Result<String, String> {
    let folder = file.parent().and_then(|p| p.strip_prefix(top).ok()).ok_or("an HTML file outside the site")?;
    Ok("../".repeat(folder.components().count()))
}

/// The `href` of the first `<base>`, e.g. `/` or `/repo/`.
pub(super) fn base_href(html: &str) -> Option<String> {
    tags(html).into_iter().find(|t| t.name == "base").and_then(|t| t.attr("href").map(str::to_string))
}

/// Whether a `<script type=…>` runs as JavaScript (data blocks such as JSON do not).
fn is_javascript(kind: Option<&str>) -> bool {
    match kind.map(|k| k.trim().to_ascii_lowercase()) {
        None => true,
        Some(k) => ["", "module", "text/javascript", "application/javascript"].contains(&k.as_str()),
    }
}

/// One start tag: lowercase name, attributes (names lowercase), its byte range, and for `<script>`
/// and `<style>` the range of their text up to the end tag (then `end` is after `</script>`).
#[derive(Debug)]
pub(super) struct Tag {
    pub(super) name: String,
    pub(super) attrs: Vec<(String, Option<String>)>,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) body: Option<std::ops::Range<usize>>,
}

impl Tag {
    pub(super) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_deref().unwrap_or(""))
    }
}

/// The start tags of `html`, enough of HTML's tokeniser for pages Trunk writes: comments, quoted
/// attribute values, and the raw text of scripts and styles are skipped correctly.
pub(super) fn tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let lower = html.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(offset) = html[i..].find('<') {
        let start = i + offset;
        if html[start..].starts_with("<!--") {
            i = html[start..].find("-->").map_or(html.len(), |e| start + e + 3);
            continue;
        }
        if !bytes.get(start + 1).is_some_and(u8::is_ascii_alphabetic) {
            i = start + 1;
            continue;
        }
        let mut j = start + 1;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-') {
            j += 1;
        }
        let name = lower[start + 1..j].to_string();
        let mut attrs = Vec::new();
        loop {
            while j < bytes.len() && (bytes[j].is_ascii_whitespace() || bytes[j] == b'/') {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] == b'>' {
                break;
            }
            let name_start = j;
            while j < bytes.len() && !bytes[j].is_ascii_whitespace() && !b"=>/".contains(&bytes[j]) {
                j += 1;
            }
            let attr = lower[name_start..j].to_string();
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let mut value = None;
            if bytes.get(j) == Some(&b'=') {
                j += 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                let value_start;
                if let Some(&quote @ (b'"' | b'\'')) = bytes.get(j) {
                    value_start = j + 1;
                    j = html[value_start..].find(quote as char).map_or(html.len(), |e| value_start + e);
                    value = Some(html[value_start..j].to_string());
                    j = (j + 1).min(html.len());
                } else {
                    value_start = j;
                    while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'>' {
                        j += 1;
                    }
                    value = Some(html[value_start..j].to_string());
                }
            }
            attrs.push((attr, value));
        }
        let open_end = (j + 1).min(html.len());
        let (end, body) = if name == "script" || name == "style" {
            let close = lower[open_end..].find(&format!("</{name}")).map_or(html.len(), |e| open_end + e);
            let end = html[close..].find('>').map_or(html.len(), |e| close + e + 1);
            (end, Some(open_end..close))
        } else {
            (open_end, None)
        };
        found.push(Tag { name, attrs, start, end, body });
        i = end;
    }
    found
}
