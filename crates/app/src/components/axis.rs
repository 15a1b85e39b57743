//! Axis ticks chosen from the axis's pixel length and font size, with one number format per axis
//! (a linear axis: the same decimals on every label; a log axis: each value as short as it is, 0.5×,
//! 1×, 10×, never 10.00×), every decade of a log axis labelled and no two labels overlapping; and a placer that keeps
//! annotations inside the plot and off each other. Pure: no DOM, tested natively.

/// How values map onto the axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Linear,
    /// Powers of two evenly spaced (1, 2, 4, 8 workers).
    Log2,
    /// Decades evenly spaced (0.1, 1, 10, 100 ms).
    Log10,
}

/// Where the labels sit: under a horizontal axis or left of a vertical one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Bottom,
    Left,
}

/// One axis of a chart, as drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub scale: Scale,
    /// The range shown, in data units (both > 0 on a log axis).
    pub low: f64,
    pub high: f64,
    /// The axis's length on screen.
    pub pixels: f64,
    pub font_px: f64,
    pub side: Side,
    /// How far past either end of the axis a label may reach (into the chart's margin).
    pub room: f64,
    /// Appended to every label, e.g. "×".
    pub suffix: &'static str,
}

/// A tick: its value, where it sits (pixels from the low end) and its label.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub value: f64,
    pub at: f64,
    pub label: String,
    /// The centre of the label along the axis (moved inwards when it would leave the chart).
    pub label_at: f64,
}

/// A formatter: the value and the number of decimals its label shows.
pub type Format<'a> = &'a dyn Fn(f64, usize) -> String;

/// Space kept between neighbouring labels, in ems.
const GAP_EM: f64 = 0.6;
/// A label's height, in ems.
const LINE_EM: f64 = 1.3;

/// An upper bound of a label's width in a sans-serif font of `font_px` (digits are at most 0.64 em
/// wide in the common sans-serif fonts; other signs such as × and µ are counted wider).
pub fn text_width(text: &str, font_px: f64) -> f64 {
    text.chars()
        .map(|c| match c {
            '0'..='9' | ' ' | '\u{202f}' | '\u{a0}' => 0.64,
            ',' | '.' | '\'' | ':' | 'i' | 'l' | 'j' | 'f' | 't' | 'r' => 0.4,
            'A'..='Z' | 'm' | 'w' | '×' | '≈' | '—' | '–' => 0.95,
            _ => 0.7,
        })
        .sum::<f64>()
        * font_px
}

impl Axis {
    /// The value in the axis's own coordinate (log2 or log10 on a log axis).
    pub fn coord(&self, value: f64) -> f64 {
        match self.scale {
            Scale::Linear => value,
            Scale::Log2 => value.max(f64::MIN_POSITIVE).log2(),
            Scale::Log10 => value.max(f64::MIN_POSITIVE).log10(),
        }
    }

    /// Pixels from the low end of the axis.
    pub fn offset(&self, value: f64) -> f64 {
        let (low, high) = (self.coord(self.low), self.coord(self.high));
        if high <= low {
            return 0.0;
        }
        (self.coord(value) - low) / (high - low) * self.pixels
    }

    /// The label's extent along the axis when centred at `centre`.
    fn extent(&self, label: &str, centre: f64) -> (f64, f64) {
        let half = match self.side {
            Side::Bottom => text_width(label, self.font_px) / 2.0,
            Side::Left => LINE_EM * self.font_px / 2.0,
        };
        (centre - half, centre + half)
    }

    /// A label's centre, moved inwards so that it stays within the axis and its room.
    fn fit(&self, label: &str, at: f64) -> f64 {
        let (start, end) = self.extent(label, at);
        if start < -self.room {
            at + (-self.room - start)
        } else if end > self.pixels + self.room {
            at - (end - self.pixels - self.room)
        } else {
            at
        }
    }

    /// The box a tick's label takes along the axis: (start, end) in pixels from the low end.
    pub fn label_box(&self, tick: &Tick) -> (f64, f64) {
        self.extent(&tick.label, tick.label_at)
    }

    /// The widest label, for the space a vertical axis keeps for its labels.
    pub fn widest(&self, ticks: &[Tick]) -> f64 {
        ticks.iter().map(|t| text_width(&t.label, self.font_px)).fold(0.0, f64::max)
    }

    /// Ticks whose labels all have `decimals` decimals (a linear axis: 0.0, 0.5, 1.0).
    fn make(&self, values: &[f64], decimals: usize, format: Format) -> Vec<Tick> {
        self.make_each(values, &|_| decimals, format)
    }

    /// Ticks on a log axis: each label with as many decimals as its value needs (0.05, 0.1, 1, 10),
    /// never "10.00".
    fn make_log(&self, values: &[f64], format: Format) -> Vec<Tick> {
        let exact =
            |v: f64| (0..9).find(|&d| ((v * 10f64.powi(d)).round() - v * 10f64.powi(d)).abs() < 1e-6).unwrap_or(9);
        self.make_each(values, &|v| exact(v) as usize, format)
    }

    fn make_each(&self, values: &[f64], decimals: &dyn Fn(f64) -> usize, format: Format) -> Vec<Tick> {
        values
            .iter()
            .map(|&value| {
                let decimals = decimals(value);
                // No "-0.000" for a value that is zero up to rounding.
                let shown = if value.abs() < 1e-12 * (self.high - self.low).abs().max(1e-300) { 0.0 } else { value };
                let label = format!("{}{}", format(shown, decimals), self.suffix);
                let at = self.offset(value);
                let label_at = self.fit(&label, at);
                Tick { value, at, label, label_at }
            })
            .collect()
    }

    /// Whether every label fits beside its neighbours.
    fn readable(&self, ticks: &[Tick]) -> bool {
        // Vertical axes keep more air between labels: a grid line per label is enough.
        let gap = match self.side {
            Side::Bottom => GAP_EM,
            Side::Left => LINE_EM,
        } * self.font_px;
        ticks.windows(2).all(|pair| self.label_box(&pair[0]).1 + gap <= self.label_box(&pair[1]).0)
    }

    /// The ticks to draw: the densest readable set.
    pub fn ticks(&self, format: Format) -> Vec<Tick> {
        if !(self.low.is_finite() && self.high.is_finite()) || self.high <= self.low || self.pixels <= 0.0 {
            return Vec::new();
        }
        match self.scale {
            Scale::Linear => self.linear_ticks(format),
            Scale::Log2 | Scale::Log10 if self.low <= 0.0 => Vec::new(),
            Scale::Log2 => self.log2_ticks(format),
            Scale::Log10 => self.log10_ticks(format),
        }
    }

    fn linear_ticks(&self, format: Format) -> Vec<Tick> {
        let span = self.high - self.low;
        let mut exponent = (span / 50.0).log10().floor() as i32;
        loop {
            for mantissa in [1.0, 2.0, 5.0] {
                let step = mantissa * 10f64.powi(exponent);
                let first = (self.low / step - 1e-9).ceil() as i64;
                let last = (self.high / step + 1e-9).floor() as i64;
                if last - first > 60 {
                    continue;
                }
                let values: Vec<f64> = (first..=last).map(|i| i as f64 * step).collect();
                let decimals = (-exponent).max(0) as usize;
                let ticks = self.make(&values, decimals, format);
                if last <= first || self.readable(&ticks) {
                    return ticks;
                }
            }
            exponent += 1;
        }
    }

    fn log2_ticks(&self, format: Format) -> Vec<Tick> {
        let first = (self.low.log2() - 1e-9).ceil() as i32;
        let last = (self.high.log2() + 1e-9).floor() as i32;
        // Every power of two, else every second, fourth, … (from 1 when it is in range).
        let mut every = 1;
        loop {
            let values: Vec<f64> = (first..=last).filter(|e| e.rem_euclid(every) == 0).map(|e| 2f64.powi(e)).collect();
            let ticks = self.make_log(&values, format);
            if values.len() <= 1 || self.readable(&ticks) {
                return ticks;
            }
            every *= 2;
        }
    }

    fn log10_ticks(&self, format: Format) -> Vec<Tick> {
        let first = (self.low.log10() - 1e-9).floor() as i32;
        let last = (self.high.log10() + 1e-9).ceil() as i32;
        let inside = |v: &f64| *v >= self.low * (1.0 - 1e-9) && *v <= self.high * (1.0 + 1e-9);
        let with = |mantissas: &[f64], every: i32| {
            let values: Vec<f64> = (first..=last)
                .filter(|e| e.rem_euclid(every) == 0)
                .flat_map(|e| mantissas.iter().map(move |m| m * 10f64.powi(e)))
                .filter(inside)
                .collect();
            self.make_log(&values, format)
        };
        // Decades with 2 and 5 between them if they fit, else with 3, else every decade.
        for mantissas in [&[1.0, 2.0, 5.0][..], &[1.0, 3.0], &[1.0]] {
            let ticks = with(mantissas, 1);
            if ticks.len() >= 2 && self.readable(&ticks) {
                return ticks;
            }
        }
        // Less than two decades to label: round linear steps, placed on the log axis.
        if self.high / self.low < 100.0 {
            return self.linear_ticks(format);
        }
        // Too many decades for the width: every second, fourth, … decade.
        let mut every = 2;
        loop {
            let ticks = with(&[1.0], every);
            if ticks.len() <= 1 || self.readable(&ticks) {
                return ticks;
            }
            every *= 2;
        }
    }
}

/// A rectangle in pixels: left, top, right, bottom.
pub type Rect = (f64, f64, f64, f64);

fn intersects(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Places annotation labels inside a plot area so that none leaves it or covers another.
#[derive(Clone, Debug)]
pub struct Placer {
    area: Rect,
    placed: Vec<Rect>,
    font_px: f64,
}

impl Placer {
    pub fn new(area: Rect, font_px: f64) -> Self {
        Placer { area, placed: Vec::new(), font_px }
    }

    /// The size of a label's box.
    pub fn size(&self, text: &str) -> (f64, f64) {
        (text_width(text, self.font_px), LINE_EM * self.font_px)
    }

    /// Keep a box (a drawn point) free of the labels placed after.
    pub fn reserve(&mut self, rect: Rect) {
        self.placed.push(rect);
    }

    /// Place `text` at the first candidate top-left corner where it fits inside the area and
    /// covers no label placed before; failing that, at the first candidate moved inside the area.
    /// Returns the top-left corner to draw at and reserves the box.
    pub fn place(&mut self, text: &str, candidates: &[(f64, f64)]) -> (f64, f64) {
        let (width, height) = self.size(text);
        let clamp = |(x, y): (f64, f64)| {
            let x = x.min(self.area.2 - width).max(self.area.0);
            let y = y.min(self.area.3 - height).max(self.area.1);
            (x, y)
        };
        let boxed = |(x, y): (f64, f64)| (x, y, x + width, y + height);
        let chosen = candidates
            .iter()
            .copied()
            .find(|&c| {
                let r = boxed(c);
                r.0 >= self.area.0
                    && r.1 >= self.area.1
                    && r.2 <= self.area.2
                    && r.3 <= self.area.3
                    && !self.placed.iter().any(|&p| intersects(p, r))
            })
            .or_else(|| {
                // Moved inside, then stepped down or up until it is free.
                let start = clamp(candidates.first().copied().unwrap_or((self.area.0, self.area.1)));
                (0..40)
                    .flat_map(|i| [i as f64, -(i as f64)])
                    .map(|i| clamp((start.0, start.1 + i * height * 0.5)))
                    .find(|&c| !self.placed.iter().any(|&p| intersects(p, boxed(c))))
            })
            .unwrap_or_else(|| clamp(candidates.first().copied().unwrap_or((self.area.0, self.area.1))));
        self.placed.push(boxed(chosen));
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Like the page's formatter in English: digit grouping and exactly `decimals` decimals.
    fn english(value: f64, decimals: usize) -> String {
        let text = format!("{:.*}", decimals, value.abs());
        let (whole, fraction) = text.split_once('.').map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
        let mut grouped = String::new();
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        let sign = if value < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') { "-" } else { "" };
        match fraction {
            Some(f) => format!("{sign}{grouped}.{f}"),
            None => format!("{sign}{grouped}"),
        }
    }

    fn decimals_of(label: &str) -> usize {
        label.trim_end_matches(|c: char| !c.is_ascii_digit()).split_once('.').map_or(0, |(_, f)| f.len())
    }

    /// "10.00×" or "0.50": decimals that end in a zero.
    fn has_trailing_zero(label: &str) -> bool {
        label.trim_end_matches(|c: char| !c.is_ascii_digit()).split_once('.').is_some_and(|(_, f)| f.ends_with('0'))
    }

    #[test]
    fn a_log_speedup_axis_reads_half_one_ten_not_ten_point_zero() {
        for side in [Side::Left, Side::Bottom] {
            let axis = Axis {
                scale: Scale::Log10,
                low: 0.5,
                high: 20.0,
                pixels: 290.0,
                font_px: 12.0,
                side,
                room: 12.0,
                suffix: "×",
            };
            let labels: Vec<String> = axis.ticks(&english).into_iter().map(|t| t.label).collect();
            assert!(labels.contains(&"1×".to_string()) && labels.contains(&"10×".to_string()), "{labels:?}");
            assert!(labels.iter().all(|l| !has_trailing_zero(l)), "{labels:?}");
        }
        let workers = Axis {
            scale: Scale::Log2,
            low: 0.25,
            high: 16.0,
            pixels: 290.0,
            font_px: 12.0,
            side: Side::Bottom,
            room: 12.0,
            suffix: "",
        };
        let labels: Vec<String> = workers.ticks(&english).into_iter().map(|t| t.label).collect();
        assert!(labels.contains(&"0.25".to_string()) && labels.contains(&"16".to_string()), "{labels:?}");
    }

    fn ranges() -> Vec<(Scale, f64, f64, &'static str)> {
        let mut all = vec![
            (Scale::Linear, 0.0, 0.025, ""),
            (Scale::Linear, 0.0, 0.0031, ""),
            (Scale::Linear, 0.0, 1.0, ""),
            (Scale::Linear, 0.0, 17.3, ""),
            (Scale::Linear, 0.0, 1234.5, ""),
            (Scale::Linear, 0.0, 98_765.0, ""),
            (Scale::Linear, 0.0, 12_345_678.0, ""),
            (Scale::Linear, -3.0, 3.0, ""),
            (Scale::Linear, 0.0, 1.6, "×"),
            (Scale::Log2, 1.0, 64.0, ""),
            (Scale::Log2, 1.0, 2.0, ""),
            (Scale::Log2, 0.25, 4096.0, ""),
            (Scale::Log10, 0.5, 80.0, "×"),
            (Scale::Log10, 0.01, 100.0, "×"),
            (Scale::Log10, 1.0, 5000.0, ""),
            (Scale::Log10, 0.001, 100_000.0, ""),
            (Scale::Log10, 0.05, 20_000.0, ""),
            (Scale::Log10, 2.0, 9.0, ""),
            (Scale::Log10, 1.2, 1.6, "×"),
        ];
        // And a spread of generated ones.
        for i in 1..40 {
            let high = 1.37f64.powi(i) * 0.003;
            all.push((Scale::Linear, 0.0, high, ""));
            all.push((Scale::Log10, high / (1.0 + i as f64 * 7.0), high, ""));
            all.push((Scale::Log2, 1.0, 2f64.powi(i % 12 + 1), ""));
        }
        all
    }

    #[test]
    fn labels_never_overlap_and_one_axis_has_one_format() {
        for (scale, low, high, suffix) in ranges() {
            for pixels in [80.0, 140.0, 230.0, 290.0, 320.0, 390.0, 560.0, 900.0, 1200.0] {
                for side in [Side::Bottom, Side::Left] {
                    for font_px in [11.0, 12.0, 24.0] {
                        let axis = Axis { scale, low, high, pixels, font_px, side, room: 12.0, suffix };
                        let ticks = axis.ticks(&english);
                        let context = format!("{scale:?} {low}..{high} at {pixels}px {side:?} {font_px}px: {ticks:?}");
                        let boxes: Vec<(f64, f64)> = ticks.iter().map(|t| axis.label_box(t)).collect();
                        for pair in boxes.windows(2) {
                            assert!(pair[0].1 <= pair[1].0, "overlap: {context}");
                        }
                        for (start, end) in &boxes {
                            assert!(
                                *start >= -axis.room - 1e-6 && *end <= pixels + axis.room + 1e-6,
                                "outside: {context}"
                            );
                        }
                        let decimals: Vec<usize> = ticks.iter().map(|t| decimals_of(&t.label)).collect();
                        let uniform = decimals.windows(2).all(|d| d[0] == d[1]);
                        match scale {
                            Scale::Linear => assert!(uniform, "mixed formats: {context}"),
                            // Round values on a log axis, as short as they are; or round linear
                            // steps (fewer than two decades) with one format.
                            Scale::Log2 | Scale::Log10 => assert!(
                                uniform || ticks.iter().all(|t| !has_trailing_zero(&t.label)),
                                "trailing zeros: {context}"
                            ),
                        }
                        let negative_zero = |l: &str| {
                            l.starts_with('-') && l.trim_end_matches(suffix).chars().all(|c| "-0.,".contains(c))
                        };
                        assert!(
                            ticks.iter().all(|t| t.label.ends_with(suffix) && !negative_zero(&t.label)),
                            "{context}"
                        );
                        assert!(ticks.windows(2).all(|t| t[0].value < t[1].value), "order: {context}");
                    }
                }
            }
        }
    }

    #[test]
    fn wide_enough_axes_get_several_labels() {
        for (scale, low, high, suffix) in ranges() {
            for pixels in [290.0, 390.0, 900.0] {
                let axis = Axis { scale, low, high, pixels, font_px: 12.0, side: Side::Bottom, room: 12.0, suffix };
                let ticks = axis.ticks(&english);
                let spans_a_step = scale != Scale::Log2 || high / low >= 2.0;
                if spans_a_step {
                    assert!(ticks.len() >= 2, "{scale:?} {low}..{high} at {pixels}px: {ticks:?}");
                }
            }
        }
    }

    #[test]
    fn every_decade_of_a_log_axis_is_labelled_at_phone_width() {
        // Horizontal axes: the ranges the charts show (task sizes, time ratios, run times in ms);
        // vertical ones: wider ranges too.
        let horizontal = [(0.01, 100.0), (1.0, 5000.0), (0.5, 80.0), (1.0, 10_000.0), (0.2, 3000.0)];
        let vertical = [(0.1, 10_000.0), (0.001, 1000.0), (0.05, 64.0)];
        let cases = horizontal.iter().map(|&r| (r, Side::Bottom)).chain(vertical.iter().map(|&r| (r, Side::Left)));
        for ((low, high), side) in cases {
            for pixels in [250.0, 290.0, 390.0, 1200.0] {
                let axis = Axis { scale: Scale::Log10, low, high, pixels, font_px: 12.0, side, room: 12.0, suffix: "" };
                let ticks = axis.ticks(&english);
                let first = (low.log10() - 1e-9).ceil() as i32;
                let last = (high.log10() + 1e-9).floor() as i32;
                for e in first..=last {
                    let decade = 10f64.powi(e);
                    assert!(
                        ticks.iter().any(|t| (t.value / decade - 1.0).abs() < 1e-9),
                        "{decade} missing on {low}..{high} at {pixels}px: {ticks:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_task_cost_axis_labels_more_than_two_values() {
        let axis = Axis {
            scale: Scale::Log10,
            low: 1.0,
            high: 5000.0,
            pixels: 290.0,
            font_px: 12.0,
            side: Side::Bottom,
            room: 12.0,
            suffix: "",
        };
        let labels: Vec<String> = axis.ticks(&english).into_iter().map(|t| t.label).collect();
        assert!(labels.len() >= 4, "{labels:?}");
        assert!(labels.contains(&"10".to_string()) && labels.contains(&"1,000".to_string()), "{labels:?}");
    }

    #[test]
    fn the_scheduler_time_axis_at_phone_width_is_readable() {
        let axis = Axis {
            scale: Scale::Linear,
            low: 0.0,
            high: 0.025,
            pixels: 300.0,
            font_px: 12.0,
            side: Side::Bottom,
            room: 12.0,
            suffix: "",
        };
        let labels: Vec<String> = axis.ticks(&english).into_iter().map(|t| t.label).collect();
        assert!((2..=6).contains(&labels.len()), "{labels:?}");
        assert!(labels.iter().all(|l| l.len() == labels[0].len()), "{labels:?}");
    }

    #[test]
    fn placed_labels_stay_inside_and_apart() {
        let area = (50.0, 10.0, 380.0, 280.0);
        let mut placer = Placer::new(area, 12.0);
        let texts = ["your logical processors", "ideal", "Amdahl, s = 12 %", "Amdahl, s = 13 %", "≈1 µs", "≈1 ms"];
        let mut boxes = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            // Every label asks for the same corner, some of them outside the area.
            let (x, y) = placer.place(text, &[(360.0 - i as f64, 20.0), (200.0, 270.0)]);
            let (w, h) = placer.size(text);
            boxes.push((x, y, x + w, y + h));
        }
        for (i, a) in boxes.iter().enumerate() {
            assert!(a.0 >= area.0 && a.1 >= area.1 && a.2 <= area.2 && a.3 <= area.3, "{a:?} outside");
            for b in &boxes[i + 1..] {
                assert!(!intersects(*a, *b), "{a:?} covers {b:?}");
            }
        }
    }
}
