//! Curves on log axes as inline SVG, written directly: panels stacked over one x axis (queue
//! depth or block size, powers of two), measured curves with a tooltip per point, and the
//! reference lines that explain them (caps, catalog limits, IOPS = QD ÷ latency, the knee, the
//! crossover), each labelled with its figure where no other label sits.

use super::esc;
use crate::workload::size::format_block;
use std::fmt::Write;

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

fn rgb(c: Rgb) -> String {
    format!("rgb({},{},{})", c.0, c.1, c.2)
}

fn text(o: &mut String, x: f64, y: f64, anchor: &str, colour: Rgb, bold: bool, s: &str) {
    let weight = if bold { " font-weight=\"600\"" } else { "" };
    let _ = writeln!(
        o,
        "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\" fill=\"{}\"{weight} stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">{}</text>",
        rgb(colour),
        esc(s)
    );
}

fn line(o: &mut String, pts: &[(f64, f64)], colour: Rgb, width: f64, dash: Dash) {
    let p: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    let _ = writeln!(
        o,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\"{}/>",
        p.join(" "),
        rgb(colour),
        dash.attr()
    );
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

pub fn draw(c: &Chart) -> String {
    let xs = c.panels.iter().flat_map(|p| p.curves.iter()).flat_map(|cv| cv.points.iter().map(|p| p.0));
    let (xmin, xmax) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    if xmin > xmax || xmin <= 0.0 {
        return String::new();
    }
    // Bold labels run wider than the estimate for regular text.
    let longest = c.panels.iter().flat_map(|p| &p.levels).map(|l| Placer::width(&l.label) * 1.08).fold(0.0, f64::max);
    let column = (longest + RIGHT_PAD).clamp(RIGHT.0, RIGHT.1);
    let x = Axis { lo: xmin / 1.3, hi: xmax * 1.3, from: LEFT, to: W - column };
    let right = x.to;
    let at = legend_at(&c.legend);
    let legend_h = at.last().map_or(0.0, |(r, _)| (*r as f64 + 1.0) * 22.0 + 6.0);
    let top0 = 8.0 + legend_h;
    let h = top0 + c.panels.len() as f64 * (TITLE_H + PANEL_H + 8.0) + 50.0;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {h:.0}\" role=\"img\" font-family=\"sans-serif\" font-size=\"{FONT}\">"
    );
    for ((name, colour, dash), (row, lx)) in c.legend.iter().zip(&at) {
        let y = 16.0 + *row as f64 * 22.0;
        line(&mut o, &[(*lx, y - 4.0), (lx + 32.0, y - 4.0)], *colour, 3.0, *dash);
        text(&mut o, lx + 38.0, y, "start", (17, 17, 17), false, name);
    }
    // Powers of two along x: every one, or every other when they crowd.
    let mut xt: Vec<f64> = Vec::new();
    let mut v = 2f64.powi(x.lo.log2().ceil() as i32);
    while v <= x.hi {
        xt.push(v);
        v *= 2.0;
    }
    if xt.len() > 12 {
        xt = xt.into_iter().step_by(2).collect();
    }
    let mut bottom = top0;
    for (i, p) in c.panels.iter().enumerate() {
        let ptop = top0 + i as f64 * (TITLE_H + PANEL_H + 8.0) + TITLE_H;
        let pbot = ptop + PANEL_H;
        bottom = pbot;
        text(&mut o, LEFT, ptop - 8.0, "start", (17, 17, 17), true, &p.title);
        let ys = p.curves.iter().flat_map(|cv| cv.points.iter().map(|q| q.1)).chain(p.levels.iter().map(|l| l.at));
        let (ymin, ymax) = ys.filter(|v| *v > 0.0).fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
        if ymin > ymax {
            continue;
        }
        let (lo, hi, yt) = log_ticks(ymin / 1.25, ymax * 1.5);
        let y = Axis { lo, hi, from: pbot, to: ptop };
        let grid = "stroke=\"#000\" stroke-opacity=\"0.12\"";
        for t in &yt {
            let py = y.px(*t);
            let _ = writeln!(o, "<line x1=\"{LEFT}\" x2=\"{right}\" y1=\"{py:.1}\" y2=\"{py:.1}\" {grid}/>");
            let _ = writeln!(
                o,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#333\">{}</text>",
                LEFT - 6.0,
                py + 4.0,
                esc(&p.unit.label(*t))
            );
        }
        for t in &xt {
            let px = x.px(*t);
            let _ = writeln!(o, "<line x1=\"{px:.1}\" x2=\"{px:.1}\" y1=\"{ptop}\" y2=\"{pbot}\" {grid}/>");
        }
        let _ = writeln!(
            o,
            "<polyline points=\"{LEFT},{ptop} {LEFT},{pbot} {right},{pbot}\" fill=\"none\" stroke=\"#000\"/>"
        );
        // Lines first, every label after them, so no line crosses a label.
        let mut placer = Placer::default();
        let mut labels: Vec<(f64, f64, bool, Rgb, bool, std::borrow::Cow<str>)> = Vec::new();
        for m in &c.marks {
            let px = x.px(m.at);
            line(&mut o, &[(px, ptop), (px, pbot)], m.colour, 1.5, Dash::Dashed);
            if i == 0 {
                let (lx, ly) = placer.place(&m.label, px + 5.0, ptop + FONT + 2.0, false, ptop, pbot);
                labels.push((lx, ly, false, m.colour, true, m.label.as_str().into()));
            }
        }
        for s in &p.slopes {
            // Where y = k·x crosses the panel: x from lo/k to hi/k, within the x axis.
            let (a, b) = ((y.lo / s.k).max(x.lo), (y.hi / s.k).min(x.hi));
            if a >= b {
                continue;
            }
            let (pa, pb) = ((x.px(a), y.px(s.k * a)), (x.px(b), y.px(s.k * b)));
            let _ = writeln!(
                o,
                "<polyline points=\"{:.1},{:.1} {:.1},{:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}><title>{}</title></polyline>",
                pa.0,
                pa.1,
                pb.0,
                pb.1,
                rgb(s.colour),
                Dash::Dotted.attr(),
                esc(&s.tip)
            );
        }
        if !p.slopes.is_empty() {
            let spans: Vec<String> = p
                .slopes
                .iter()
                .map(|s| format!("<tspan fill=\"{}\" font-weight=\"600\">{}</tspan>", rgb(s.colour), esc(&s.label)))
                .collect();
            let _ = writeln!(
                o,
                "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#333\">{} {}</text>",
                LEFT + Placer::width(&p.title) + 24.0,
                ptop - 8.0,
                esc(SLOPES),
                spans.join(", ")
            );
        }
        // Reference lines run on into the column right of the plot, where their labels are.
        let mut levels: Vec<&Level> = p.levels.iter().collect();
        levels.sort_by(|a, b| b.at.total_cmp(&a.at));
        let mut col = Placer::default();
        for l in levels {
            let py = y.px(l.at);
            let (lx, ly) = col.place(&l.label, x.to + 12.0, py + 4.0, false, ptop - 4.0, pbot + 12.0);
            line(&mut o, &[(LEFT, py), (x.to, py), (lx - 4.0, ly - 4.0)], l.colour, 1.5, l.dash);
            labels.push((lx, ly, false, l.colour, true, fit(&l.label, W - lx - 4.0)));
        }
        for cv in &p.curves {
            let pts: Vec<(f64, f64)> = cv.points.iter().map(|q| (x.px(q.0), y.px(q.1))).collect();
            line(&mut o, &pts, cv.colour, 2.5, cv.dash);
            for ((px, py), (_, _, tip)) in pts.iter().zip(&cv.points) {
                let _ = writeln!(
                    o,
                    "<circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"4\" fill=\"{}\"><title>{}</title></circle>",
                    rgb(cv.colour),
                    esc(tip)
                );
            }
        }
        for (lx, ly, end, colour, bold, s) in labels {
            text(&mut o, lx, ly, if end { "end" } else { "start" }, colour, bold, &s);
        }
    }
    for t in &xt {
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
            x.px(*t),
            bottom + 18.0,
            esc(&c.x_unit.label(*t))
        );
    }
    text(&mut o, (LEFT + right) / 2.0, bottom + 40.0, "middle", (17, 17, 17), true, &c.x_title);
    let _ = writeln!(o, "</svg>");
    o
}

#[cfg(test)]
mod tests;
