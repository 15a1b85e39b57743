//! Lanes drawn as SVG: groups of lanes (cores, workers, threads, tasks) over one time axis, each
//! span coloured by its task and what it does ([`schedules::Kind`]), with a legend and a sentence
//! that says in words what the drawing shows. The lane pictures build on it; it draws what it is
//! given and computes nothing.

use super::schedules::{finish, Kind, Lane};
use crate::components::controls::unique_id;
use crate::format;
use leptos::prelude::*;

/// A titled group of named lanes, drawn on the time axis every group of a picture shares, so
/// that a group that finishes sooner looks shorter.
pub struct Group {
    pub title: String,
    pub lanes: Vec<(String, Lane)>,
}

/// The drawing's width, where the lanes start (after their names) and end, in its units.
const WIDTH: f64 = 400.0;
const LEFT: f64 = 62.0;
const RIGHT: f64 = 394.0;
/// A group title's height, a lane's height and the gap under it.
const TITLE: f64 = 20.0;
const LANE: f64 = 14.0;
const GAP: f64 = 4.0;
/// How many task colours there are (`.lanes-run.c0` … `.c5` in the style sheet).
const COLOURS: usize = 6;

/// SVG content written as markup, then set as one drawing's `innerHTML` ([`drawing`]): a picture
/// redraws whole from its sliders, and markup text costs far less code than a typed view per
/// shape. Every text is escaped; every number is written by [`fmt`].
#[derive(Default)]
pub struct Markup(String);

impl Markup {
    pub fn rect(&mut self, class: &str, x: f64, y: f64, width: f64, height: f64) {
        self.0 += &format!(
            r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}" rx="1.5"></rect>"#,
            fmt(x),
            fmt(y),
            fmt(width),
            fmt(height)
        );
    }

    pub fn line(&mut self, class: &str, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
        self.0 += &format!(
            r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"></line>"#,
            fmt(x1),
            fmt(y1),
            fmt(x2),
            fmt(y2)
        );
    }

    pub fn circle(&mut self, class: &str, x: f64, y: f64, r: f64) {
        self.0 += &format!(r#"<circle class="{class}" cx="{}" cy="{}" r="{}"></circle>"#, fmt(x), fmt(y), fmt(r));
    }

    pub fn polyline(&mut self, class: &str, points: &[(f64, f64)]) {
        let points: Vec<String> = points.iter().map(|(x, y)| format!("{},{}", fmt(*x), fmt(*y))).collect();
        self.0 += &format!(r#"<polyline class="{class}" points="{}"></polyline>"#, points.join(" "));
    }

    /// An arrow from `from` to `to`: a line and a small head at `to`.
    pub fn arrow(&mut self, class: &str, from: (f64, f64), to: (f64, f64)) {
        self.line(class, from, to);
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let length = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (ux, uy) = (dx / length, dy / length);
        let (bx, by) = (to.0 - 6.0 * ux, to.1 - 6.0 * uy);
        let (px, py) = (-uy * 3.5, ux * 3.5);
        self.0 += &format!(
            r#"<path class="{class} head" d="M{} {} L{} {} L{} {} Z"></path>"#,
            fmt(to.0),
            fmt(to.1),
            fmt(bx + px),
            fmt(by + py),
            fmt(bx - px),
            fmt(by - py)
        );
    }

    /// `words` at (x, y) in `size` units; `anchor`: `start`, `middle` or `end`.
    pub fn text(&mut self, class: &str, (x, y): (f64, f64), size: f64, anchor: &str, words: &str) {
        self.0 += &format!(
            r#"<text class="{class}" x="{}" y="{}" font-size="{}" text-anchor="{anchor}">{}</text>"#,
            fmt(x),
            fmt(y),
            fmt(size),
            escape(words)
        );
    }
}

/// `text` safe inside markup: `&`, `<`, `>` and `"` written as entities.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A drawing `height` units high (400 wide) of `markup`, named by `label` for assistive technology.
pub fn drawing(class: &'static str, height: f64, label: String, markup: Markup) -> impl IntoView {
    view! { <svg class=class viewBox=format!("0 0 {WIDTH} {}", fmt(height)) role="img" aria-label=label inner_html=markup.0></svg> }
}

/// The SVG of `groups`, named by `label` (the sentence that says what it shows).
pub fn lanes_svg(groups: &[Group], label: &str) -> impl IntoView {
    let all = |group: &Group| group.lanes.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>();
    let total = groups.iter().map(|g| finish(&all(g))).fold(1e-9, f64::max);
    let x = move |t: f64| LEFT + t / total * (RIGHT - LEFT);
    let mut top = 0.0;
    let mut svg = Markup::default();
    for group in groups {
        svg.text("lanes-title", (2.0, top + 14.0), fitted_size(&group.title, 12.0, WIDTH - 4.0), "start", &group.title);
        top += TITLE;
        let first = top;
        for (name, lane) in &group.lanes {
            let mid = top + LANE / 2.0;
            svg.text("lanes-name", (2.0, mid + 4.0), fitted_size(name, 11.0, LEFT - 4.0), "start", name);
            svg.rect("lanes-track", LEFT, top, RIGHT - LEFT, LANE);
            for span in lane {
                let (x0, x1) = (x(span.start), x(span.end));
                let width = (x1 - x0).max(0.5);
                match span.kind {
                    Kind::Run(task) => {
                        svg.rect(&format!("lanes-run c{}", task % COLOURS), x0, top, width, LANE);
                        if width >= 12.0 {
                            svg.text(
                                "lanes-number",
                                (x0 + width / 2.0, mid + 4.0),
                                10.0,
                                "middle",
                                &format::int(task as u64 + 1),
                            );
                        }
                    }
                    Kind::Overhead(_) => svg.rect("lanes-overhead", x0, top, width, LANE),
                    Kind::Wait(task) => {
                        let class = format!("lanes-wait c{}", task % COLOURS);
                        svg.rect(&class, x0 + 0.75, top + 0.75, (width - 1.5).max(0.5), LANE - 1.5);
                    }
                    Kind::Ready(_) => svg.line("lanes-ready", (x0, mid), (x1, mid)),
                }
            }
            top += LANE + GAP;
        }
        // Where the group's last span ends.
        let done = x(finish(&all(group)));
        svg.line("lanes-finish", (done, first - 3.0), (done, top - GAP + 3.0));
        top += GAP;
    }
    drawing("lanes", top, label.to_string(), svg)
}

/// A legend entry: the class of its swatch (`run`, `overhead`, `wait`, `ready`) and its words.
pub fn legend(entries: &[(&'static str, &'static str)]) -> impl IntoView {
    let items = entries
        .iter()
        .map(|(kind, words)| {
            view! {
                <li>
                    <span class=format!("lanes-swatch {kind}") aria-hidden="true"></span>
                    {*words}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="lanes-legend">{items}</ul> }
}

/// The width of a narrow character, in ems, as [`fitted_size`] estimates it: wide enough for bold
/// Cyrillic (0.6 let a bold Russian title overflow by a few units).
const NARROW_EM: f64 = 0.68;

/// The font size (at most `size`) at which `text` fits in `room` units, given as the text's
/// `font-size` attribute (the style sheet sets no size on these, and the page's policy allows no
/// inline style), estimated: an SVG cannot be measured before it is drawn, so a wide character
/// (Chinese, Japanese) counts a full em and any other [`NARROW_EM`]. A translation longer than its
/// English keeps to the drawing, smaller.
pub fn fitted_size(text: &str, size: f64, room: f64) -> f64 {
    let ems: f64 = text.chars().map(|c| if is_wide(c) { 1.0 } else { NARROW_EM }).sum();
    (room / ems.max(1.0)).min(size)
}

/// Whether `c` is a full-width character (CJK ideographs, kana, full-width punctuation).
fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6)
}

/// A number for an SVG attribute: two decimals at most, no trailing zeros, no exponent. Written
/// from whole hundredths, so the pictures' code carries no float formatting of its own.
fn fmt(value: f64) -> String {
    let hundredths = (value * 100.0).round() as i64;
    let sign = if hundredths < 0 { "-" } else { "" };
    let (whole, fraction) = (hundredths.abs() / 100, hundredths.abs() % 100);
    match fraction {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}

/// A labelled slider over `range` (min, max), with its value beside it, for a picture's model.
/// Not `controls::Slider`: that one wants a catalog `ParamRange`, a help line and a disabled state
/// a model's sliders do not have, and a picture's output names these sliders by their ids.
pub fn slider(label: &'static str, id: String, range: (u64, u64), value: RwSignal<u64>) -> impl IntoView {
    stepped_slider(label, id, range, 1, value)
}

/// [`slider`] in steps of `step` (bytes in eights, say).
pub fn stepped_slider(
    label: &'static str,
    id: String,
    range: (u64, u64),
    step: u64,
    value: RwSignal<u64>,
) -> impl IntoView {
    let (min, max) = range;
    view! {
        <div class="control">
            <label for=id.clone()>{label}</label>
            <div class="control-row">
                <input
                    type="range"
                    id=id.clone()
                    min=min.to_string()
                    max=max.to_string()
                    step=step.to_string()
                    prop:value=move || value.get().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                            value.set(v.clamp(min, max));
                        }
                    }
                />
                <output for=id>{move || format::int(value.get())}</output>
            </div>
        </div>
    }
}

/// A lane picture: its caption, its sliders, the drawing redrawn from them, its legend, and the
/// sentence (also the drawing's name) that says what it shows. `name` is the picture's marker
/// name (`data-testid="picture-NAME"`); `sliders` are (label, range, value) each.
pub fn lane_figure(
    name: &'static str,
    caption: &'static str,
    sliders: Vec<(&'static str, (u64, u64), RwSignal<u64>)>,
    groups: impl Fn() -> Vec<Group> + Send + Sync + 'static,
    sentence: impl Fn() -> String + Send + Sync + Clone + 'static,
    legend_entries: &[(&'static str, &'static str)],
) -> impl IntoView {
    let ids: Vec<String> = sliders.iter().map(|_| unique_id(&format!("picture-{name}"))).collect();
    let output_for = ids.join(" ");
    let controls =
        sliders.into_iter().zip(ids).map(|((label, range, value), id)| slider(label, id, range, value)).collect_view();
    let drawn = sentence.clone();
    view! {
        <figure class=format!("picture lanes-picture {name}") data-testid=format!("picture-{name}")>
            <figcaption>{caption}</figcaption>
            <div class="controls">{controls}</div>
            {move || lanes_svg(&groups(), &drawn())}
            {legend(legend_entries)}
            <p class="lanes-sentence">
                <output for=output_for data-testid=format!("picture-{name}-sentence")>{sentence}</output>
            </p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::{escape, fitted_size, fmt, Markup};

    #[test]
    fn markup_escapes_its_words_and_writes_short_numbers() {
        let mut svg = Markup::default();
        svg.text("t", (1.0, 2.5), 12.0, "start", "A <b> & \"c\"");
        svg.rect("r", 0.0, 1.0 / 3.0, 4.0, 5.0);
        assert_eq!(
            svg.0,
            r#"<text class="t" x="1" y="2.5" font-size="12" text-anchor="start">A &lt;b&gt; &amp; &quot;c&quot;</text><rect class="r" x="0" y="0.33" width="4" height="5" rx="1.5"></rect>"#
        );
        assert_eq!(escape("P0 → P1"), "P0 → P1");
    }

    #[test]
    fn a_long_label_gets_a_smaller_font_and_a_short_one_keeps_its_own() {
        assert_eq!(fitted_size("Core 1", 11.0, 58.0), 11.0);
        let long = "С кражей работы: простаивающий P забирает половину чужой очереди";
        let size = fitted_size(long, 12.0, 396.0);
        assert!(size < 12.0 && size * 0.6 * long.chars().count() as f64 <= 396.0 + 1e-9);
        // Wide characters count a full em each.
        assert!(
            (fitted_size("工作线程 16", 11.0, 58.0) - 58.0 / (4.0 + 3.0 * super::NARROW_EM)).abs() < 1e-9,
            "4 wide + 3 narrow"
        );
    }

    #[test]
    fn attribute_numbers_are_short_and_plain() {
        assert_eq!(fmt(12.0), "12");
        assert_eq!(fmt(1.0 / 3.0), "0.33");
        assert_eq!(fmt(394.004), "394");
        assert_eq!(fmt(0.000001), "0");
        assert_eq!(fmt(2.5), "2.5");
        assert_eq!(fmt(3.05), "3.05");
        assert_eq!(fmt(-1.25), "-1.25");
        assert_eq!(fmt(-0.001), "0");
    }
}
