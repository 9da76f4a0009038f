//! Curves on log axes as inline SVG, written directly: panels stacked over one x axis (queue
//! depth or block size, powers of two), measured curves with a tooltip per point, and the
//! reference lines that explain them (caps, catalog limits, IOPS = QD ÷ latency, the knee, the
//! crossover), each labelled with its figure where no other label sits. Here what a chart
//! holds, its log axes and where its labels go; `draw` writes it.

mod draw;

use crate::workload::size::format_block;

pub use draw::draw;

pub type Rgb = (u8, u8, u8);

pub const GREY: Rgb = (90, 90, 90);
const W: f64 = 1000.0;
const LEFT: f64 = 74.0;
/// Right of the plot: the reference lines' labels; as wide as the longest needs (a comparison's
/// names make long ones), within these bounds, so the plot keeps most of the width.
const RIGHT: (f64, f64) = (290.0, 440.0);
/// Space the column keeps besides its labels: the lead-in of the line and a margin.
const RIGHT_PAD: f64 = 24.0;
const PANEL_H: f64 = 230.0;
/// Above each panel: its title.
const TITLE_H: f64 = 24.0;
const FONT: f64 = 13.0;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
}

impl Dash {
    fn attr(self) -> &'static str {
        match self {
            Dash::Solid => "",
            Dash::Dashed => " stroke-dasharray=\"7 4\"",
            Dash::Dotted => " stroke-dasharray=\"2 4\"",
        }
    }
}

/// How a value is written on an axis.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Count,
    Micros,
    Bytes,
}

impl Unit {
    pub fn label(self, v: f64) -> String {
        match self {
            Unit::Count => super::charts::short(v),
            Unit::Bytes => format_block(v.round() as u64),
            Unit::Micros if v >= 1e6 => format!("{} s", super::charts::short(v / 1e6)),
            Unit::Micros if v >= 1e3 => format!("{} ms", super::charts::short(v / 1e3)),
            Unit::Micros => format!("{} µs", super::charts::short(v)),
        }
    }
}

/// A measured curve: points (x, y, tooltip), drawn with dots.
pub struct Curve {
    pub colour: Rgb,
    pub dash: Dash,
    pub points: Vec<(f64, f64, String)>,
}

/// A horizontal reference line (a cap, a published limit), labelled right of the plot.
pub struct Level {
    pub at: f64,
    pub label: String,
    pub colour: Rgb,
    pub dash: Dash,
}

/// y = k · x: IOPS = QD ÷ latency, a straight line on log axes. Its label ("reads 196 µs")
/// goes beside the panel's title, where no curve runs; `tip` says where it comes from.
pub struct Slope {
    pub k: f64,
    pub label: String,
    pub tip: String,
    pub colour: Rgb,
}

/// What the dotted lines of a panel are, after its title.
pub const SLOPES: &str = "dotted: IOPS = QD ÷ latency of";

/// A vertical line through every panel (the knee, the crossover), labelled in the first.
pub struct Mark {
    pub at: f64,
    pub label: String,
    pub colour: Rgb,
}

pub struct Panel {
    pub title: String,
    pub unit: Unit,
    pub curves: Vec<Curve>,
    pub levels: Vec<Level>,
    pub slopes: Vec<Slope>,
}

pub struct Chart {
    pub x_title: String,
    pub x_unit: Unit,
    /// Names and styles of the curves, above the panels.
    pub legend: Vec<(String, Rgb, Dash)>,
    pub panels: Vec<Panel>,
    pub marks: Vec<Mark>,
}

/// A log axis: value ↔ pixel over `lo..hi`.
struct Axis {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
}

impl Axis {
    fn px(&self, v: f64) -> f64 {
        let t = (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10());
        self.from + t * (self.to - self.from)
    }
}

/// 1-2-5 steps from below `lo` to above `hi` (powers of ten alone over many decades).
fn log_ticks(lo: f64, hi: f64) -> (f64, f64, Vec<f64>) {
    let decades = (hi / lo).log10();
    let steps: &[f64] = if decades > 4.0 {
        &[1.0]
    } else if decades > 2.0 {
        &[1.0, 3.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let mut all = Vec::new();
    for e in (lo.log10().floor() as i32 - 1)..=(hi.log10().ceil() as i32 + 1) {
        all.extend(steps.iter().map(|m| m * 10f64.powi(e)));
    }
    let start = all.iter().rev().find(|&&v| v <= lo * 1.0001).copied().unwrap_or(lo);
    let end = all.iter().find(|&&v| v >= hi * 0.9999).copied().unwrap_or(hi);
    let ticks = all.into_iter().filter(|&v| v >= start * 0.9999 && v <= end * 1.0001).collect();
    (start, end, ticks)
}

/// `s`, cut with "…" to fit `room` px in bold; the whole text stays in the tables and tooltips.
fn fit(s: &str, room: f64) -> std::borrow::Cow<'_, str> {
    let fits = (room / (FONT * 0.6 * 1.08)).floor().max(1.0) as usize;
    if s.chars().count() <= fits {
        return s.into();
    }
    let cut: String = s.chars().take(fits - 1).collect();
    format!("{}…", cut.trim_end()).into()
}

/// Labels placed so none overlaps another: each tries its place, then steps down and up.
#[derive(Default)]
struct Placer {
    boxes: Vec<(f64, f64, f64, f64)>,
}

impl Placer {
    fn width(s: &str) -> f64 {
        s.chars().count() as f64 * FONT * 0.6
    }

    /// Where text of `label` goes near (x, baseline y): left-aligned from x, or ending at x.
    fn place(&mut self, label: &str, x: f64, y: f64, end: bool, top: f64, bottom: f64) -> (f64, f64) {
        let w = Self::width(label) + 6.0;
        let x0 = if end { x - w } else { x };
        let mut best = y;
        for i in 0..12 {
            let dy = ((i + 1) / 2) as f64 * (FONT + 3.0) * if i % 2 == 1 { 1.0 } else { -1.0 };
            let cy = y + dy;
            if cy - FONT < top || cy + 3.0 > bottom {
                continue;
            }
            let b = (x0, cy - FONT, x0 + w, cy + 3.0);
            if !self.boxes.iter().any(|o| b.0 < o.2 && o.0 < b.2 && b.1 < o.3 && o.1 < b.3) {
                best = cy;
                break;
            }
        }
        self.boxes.push((x0, best - FONT, x0 + w, best + 3.0));
        (x, best)
    }
}

/// The legend's layout: (row, x) of each entry, wrapping at the width.
fn legend_at(legend: &[(String, Rgb, Dash)]) -> Vec<(usize, f64)> {
    let (mut row, mut x) = (0, LEFT);
    legend
        .iter()
        .map(|(name, _, _)| {
            let w = 40.0 + Placer::width(name) + 18.0;
            if x > LEFT && x + w > W - 8.0 {
                (row, x) = (row + 1, LEFT);
            }
            let at = (row, x);
            x += w;
            at
        })
        .collect()
}

#[cfg(test)]
mod tests;
