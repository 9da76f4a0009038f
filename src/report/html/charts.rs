//! The HTML report's charts as inline SVG, drawn with plotters. Axes, ticks and category labels
//! are drawn here rather than by plotters' mesh, so that log axes ("nines", decades of µs) and
//! horizontal category bars share one code path over plain linear coordinates: a log axis is a
//! linear axis over log10 of the values, labelled with the values.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Colour-blind-safe (Okabe–Ito), in the order series are drawn.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];
const WIDTH: u32 = 760;
const FONT: &str = "sans-serif";

pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Linear,
    Log,
    /// Percentiles spread by their nines: 90 → 1, 99 → 2, 99.9 → 3 …
    Nines,
}

impl Scale {
    fn to_axis(self, v: f64) -> f64 {
        match self {
            Scale::Linear => v,
            Scale::Log => v.max(1e-9).log10(),
            Scale::Nines => -(1.0 - v.min(99.9999999999) / 100.0).log10(),
        }
    }

    /// Tick positions (axis units) and their labels over `lo..hi` (axis units).
    fn ticks(self, lo: f64, hi: f64) -> Vec<(f64, String)> {
        match self {
            Scale::Linear => {
                let step = nice_step((hi - lo) / 5.0);
                let mut v = (lo / step).ceil() * step;
                let mut out = Vec::new();
                while v <= hi + step * 1e-9 {
                    out.push((v, short(v)));
                    v += step;
                }
                out
            }
            Scale::Log => {
                // Over few decades (queue depths 1–256) 2 and 5 between the powers of ten help.
                let steps: &[f64] = if hi - lo <= 3.0 { &[1.0, 2.0, 5.0] } else { &[1.0] };
                (lo.floor() as i32..=hi.ceil() as i32)
                    .flat_map(|e| steps.iter().map(move |m| m * 10f64.powi(e)))
                    .map(|v| (v.log10(), short(v)))
                    .filter(|&(x, _)| x <= hi + 1e-9)
                    .collect()
            }
            Scale::Nines => (0..=hi.ceil() as i32)
                .map(|n| {
                    let label = match n {
                        0 => "0".to_string(),
                        1 => "90".to_string(),
                        n => format!("99.{}", "9".repeat(n as usize - 2)).trim_end_matches('.').to_string(),
                    };
                    (n as f64, label)
                })
                .collect(),
        }
    }
}

fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    mag * if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    }
}

/// A number short enough for an axis: 950, 1.2k, 35k, 1.5M, 0.25.
pub fn short(v: f64) -> String {
    let a = v.abs();
    let trim = |s: String| if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if a >= 1e6 {
        trim(format!("{:.1}", v / 1e6)) + "M"
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if a >= 1e3 {
        trim(format!("{:.1}", v / 1e3)) + "k"
    } else if a >= 10.0 || a == 0.0 {
        format!("{v:.0}")
    } else {
        trim(format!("{v:.2}"))
    }
}

pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

pub struct Lines<'a> {
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub x: Scale,
    pub y: Scale,
    /// Points drawn as dots too (few points, e.g. a sweep).
    pub markers: bool,
    pub series: &'a [Series],
}

/// Wraps a drawing in an SVG that scales with the page (plotters writes a fixed size).
fn svg(draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<(), String>, h: u32) -> String {
    let mut s = String::new();
    let drawn = {
        let root = SVGBackend::with_string(&mut s, (WIDTH, h)).into_drawing_area();
        root.fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|_| draw(&root))
            .and_then(|_| root.present().map_err(|e| e.to_string()))
    };
    if let Err(e) = drawn {
        return format!("<p class=\"error\">chart not drawn: {}</p>", super::esc(&e));
    }
    s.replacen(
        &format!("<svg width=\"{WIDTH}\" height=\"{h}\""),
        "<svg role=\"img\" preserveAspectRatio=\"xMinYMin meet\"",
        1,
    )
}

fn text(size: u32, pos: Pos) -> TextStyle<'static> {
    (FONT, size).into_font().color(&BLACK).pos(pos)
}

/// Lines over two axes; empty series are skipped, and no series at all draws an empty frame.
pub fn lines(c: &Lines) -> String {
    let pts = || c.series.iter().flat_map(|s| s.points.iter()).map(|&(x, y)| (c.x.to_axis(x), c.y.to_axis(y)));
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (x, y) in pts() {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let (x0, x1) = match c.x {
        Scale::Linear => (x0.min(0.0), if x1 > x0.min(0.0) { x1 } else { x0 + 1.0 }),
        Scale::Log => (x0.floor(), x1.ceil().max(x0.floor() + 1.0)),
        Scale::Nines => (0.0, x1.ceil().max(1.0)),
    };
    let (y0, y1) = match c.y {
        Scale::Linear => (0f64.min(y0), if y1 > 0.0 { y1 * 1.08 } else { 1.0 }),
        _ => (y0.floor(), y1.ceil().max(y0.floor() + 1.0)),
    };
    let legend_h = if c.series.len() > 1 { legend_rows(c.series.iter().map(|s| s.name.as_str())) * 20 + 6 } else { 0 };
    let h = 340 + legend_h;
    svg(
        |root| {
            let mut ch = ChartBuilder::on(root)
                .margin_top(12)
                .margin_right(20)
                .margin_bottom(legend_h)
                .x_label_area_size(44)
                .y_label_area_size(64)
                .build_cartesian_2d(x0..x1, y0..y1)
                .map_err(|e| e.to_string())?;
            axes(root, &ch, c.x.ticks(x0, x1), c.y.ticks(y0, y1), c.x_desc, c.y_desc)?;
            for (i, s) in c.series.iter().enumerate().filter(|(_, s)| !s.points.is_empty()) {
                let col = colour(i);
                let p: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (c.x.to_axis(x), c.y.to_axis(y))).collect();
                ch.draw_series(LineSeries::new(p.clone(), col.stroke_width(2))).map_err(|e| e.to_string())?;
                if c.markers || p.len() < 40 {
                    ch.draw_series(p.iter().map(|&q| Circle::new(q, 3, col.filled()))).map_err(|e| e.to_string())?;
                }
            }
            if c.series.len() > 1 {
                legend(root, c.series.iter().map(|s| s.name.as_str()), h - legend_h, true)?;
            }
            Ok(())
        },
        h,
    )
}

/// Grid, axis lines, tick labels and axis titles, drawn over the chart's linear coordinates.
fn axes(
    root: &DrawingArea<SVGBackend, Shift>,
    ch: &ChartContext<
        SVGBackend,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    xt: Vec<(f64, String)>,
    yt: Vec<(f64, String)>,
    x_desc: &str,
    y_desc: &str,
) -> Result<(), String> {
    let a = ch.plotting_area();
    let (xr, yr) = (a.get_x_range(), a.get_y_range());
    let at = |x: f64, y: f64| a.map_coordinate(&(x, y));
    let grid = BLACK.mix(0.12);
    let e = |r: Result<(), DrawingAreaErrorKind<_>>| r.map_err(|e| e.to_string());
    for (x, l) in xt.iter().filter(|(x, _)| (xr.start..=xr.end).contains(x)) {
        let (px, py) = at(*x, yr.start);
        let top = at(*x, yr.end).1;
        e(root.draw(&PathElement::new(vec![(px, top), (px, py)], grid)))?;
        e(root.draw(&Text::new(l.clone(), (px, py + 6), text(12, Pos::new(HPos::Center, VPos::Top)))))?;
    }
    for (y, l) in yt.iter().filter(|(y, _)| (yr.start..=yr.end).contains(y)) {
        let (px, py) = at(xr.start, *y);
        let right = at(xr.end, *y).0;
        e(root.draw(&PathElement::new(vec![(px, py), (right, py)], grid)))?;
        e(root.draw(&Text::new(l.clone(), (px - 6, py), text(12, Pos::new(HPos::Right, VPos::Center)))))?;
    }
    let (ox, oy) = at(xr.start, yr.start);
    let (ex, ey) = at(xr.end, yr.end);
    e(root.draw(&PathElement::new(vec![(ox, ey), (ox, oy), (ex, oy)], BLACK.stroke_width(1))))?;
    e(root.draw(&Text::new(
        x_desc.to_string(),
        ((ox + ex) / 2, oy + 26),
        text(13, Pos::new(HPos::Center, VPos::Top)),
    )))?;
    let style =
        (FONT, 13).into_font().transform(FontTransform::Rotate270).color(&BLACK).pos(Pos::new(HPos::Center, VPos::Top));
    e(root.draw(&Text::new(y_desc.to_string(), (4, (oy + ey) / 2), style)))
}

pub struct Bars<'a> {
    pub x_desc: &'a str,
    /// One group of bars per category, top to bottom.
    pub categories: &'a [String],
    /// One bar per series in each group (None: not in that series), in legend order.
    pub series: &'a [(String, Vec<Option<f64>>)],
    /// Text beside bars (verdicts): `notes[category][series]`, in a column right of the plot.
    pub notes: Option<&'a [Vec<Option<String>>]>,
}

/// Horizontal bars, grouped by category: names fit on the left however long, as
/// CrystalDiskMark users are used to reading them.
pub fn bars(c: &Bars) -> String {
    let n = c.categories.len().max(1);
    let k = c.series.len().max(1);
    let group_px = 10 + 18 * k as u32;
    let legend_h = if k > 1 { legend_rows(c.series.iter().map(|(n, _)| n.as_str())) * 20 + 8 } else { 0 };
    let h = 60 + group_px * n as u32 + legend_h;
    let max = c.series.iter().flat_map(|(_, v)| v.iter().flatten()).fold(0f64, |m, &v| m.max(v));
    let x1 = if max > 0.0 { max * 1.18 } else { 1.0 };
    let label_px = c.categories.iter().map(|s| s.chars().count()).max().unwrap_or(4) as u32 * 7 + 16;
    let widest_note = c.notes.into_iter().flatten().flatten().flatten().map(|s| s.chars().count()).max();
    svg(
        |root| {
            let ch = ChartBuilder::on(root)
                .margin_top(10 + legend_h)
                .margin_right(widest_note.map_or(20, |w| 24 + 10 * w as u32))
                .x_label_area_size(44)
                .y_label_area_size(label_px.clamp(60, 300))
                .build_cartesian_2d(0f64..x1, 0f64..n as f64)
                .map_err(|e| e.to_string())?;
            axes(root, &ch, Scale::Linear.ticks(0.0, x1), Vec::new(), c.x_desc, "")?;
            let a = ch.plotting_area();
            let e = |r: Result<(), DrawingAreaErrorKind<_>>| r.map_err(|e| e.to_string());
            let slot = 0.8 / k as f64;
            for (i, cat) in c.categories.iter().enumerate() {
                // Category 0 at the top: its band is n-1..n in chart units.
                let top = (n - i) as f64 - 0.1;
                let (lx, ly) = a.map_coordinate(&(0.0, top - 0.4));
                e(root.draw(&Text::new(cat.clone(), (lx - 8, ly), text(12, Pos::new(HPos::Right, VPos::Center)))))?;
                for (j, (_, vals)) in c.series.iter().enumerate() {
                    let y_hi = top - slot * j as f64;
                    let y_lo = y_hi - slot * 0.9;
                    if let Some(note) = c.notes.and_then(|n| n.get(i)?.get(j)?.as_ref()) {
                        // In a column right of the plot, so verdicts line up and never cover a bar.
                        let (px, py) = a.map_coordinate(&(x1, y_hi - slot * 0.45));
                        let style = (FONT, 13)
                            .into_font()
                            .style(FontStyle::Bold)
                            .color(&colour(j))
                            .pos(Pos::new(HPos::Left, VPos::Center));
                        e(root.draw(&Text::new(note.clone(), (px + 10, py), style)))?;
                    }
                    let Some(v) = vals.get(i).copied().flatten() else { continue };
                    e(a.draw(&Rectangle::new([(0.0, y_lo), (v, y_hi)], colour(j).filled())))?;
                    let (px, py) = a.map_coordinate(&(v, (y_lo + y_hi) / 2.0));
                    let label = short(v);
                    e(root.draw(&Text::new(
                        label.clone(),
                        (px + 4, py),
                        text(11, Pos::new(HPos::Left, VPos::Center)),
                    )))?;
                }
            }
            if k > 1 {
                legend(root, c.series.iter().map(|(n, _)| n.as_str()), 6, false)?;
            }
            Ok(())
        },
        h,
    )
}

/// Where each legend entry goes: (row, x), flowing left to right and wrapping at the width.
fn legend_layout<'a>(names: impl Iterator<Item = &'a str>) -> Vec<(u32, i32)> {
    let (mut row, mut x) = (0u32, 8i32);
    names
        .map(|n| {
            let w = 30 + 7 * n.chars().count() as i32;
            if x > 8 && x + w > WIDTH as i32 - 8 {
                (row, x) = (row + 1, 8);
            }
            let at = (row, x);
            x += w;
            at
        })
        .collect()
}

fn legend_rows<'a>(names: impl Iterator<Item = &'a str>) -> u32 {
    legend_layout(names).last().map_or(0, |(r, _)| r + 1)
}

/// A legend outside the plot, so it never hides a line: a swatch (a line, or a box for bars)
/// and the name, from pixel row `top` down.
fn legend<'a>(
    root: &DrawingArea<SVGBackend, Shift>,
    names: impl Iterator<Item = &'a str> + Clone,
    top: u32,
    line: bool,
) -> Result<(), String> {
    let e = |r: Result<(), DrawingAreaErrorKind<_>>| r.map_err(|e| e.to_string());
    for (j, (name, (row, x))) in names.clone().zip(legend_layout(names)).enumerate() {
        let y = (top + row * 20 + 8) as i32;
        if line {
            e(root.draw(&PathElement::new(vec![(x, y), (x + 16, y)], colour(j).stroke_width(3))))?;
        } else {
            e(root.draw(&Rectangle::new([(x, y - 6), (x + 12, y + 6)], colour(j).filled())))?;
        }
        e(root.draw(&Text::new(name.to_string(), (x + 20, y), text(12, Pos::new(HPos::Left, VPos::Center)))))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
