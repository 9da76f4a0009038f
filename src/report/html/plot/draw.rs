//! A `Chart` written as SVG: the legend, then per panel its grid, the marks, the slopes, the
//! reference levels and the curves with their labels over them, then the x axis below all.

use super::{fit, legend_at, log_ticks, Axis, Chart, Curve, Dash, Level, Mark, Panel, Placer, Rgb, Unit};
use super::{FONT, LEFT, PANEL_H, RIGHT, RIGHT_PAD, SLOPES, TITLE_H, W};
use crate::report::html::esc;
use std::borrow::Cow;
use std::fmt::Write;

/// The colour of titles and the legend's names.
const INK: Rgb = (17, 17, 17);

/// A label waiting to be written over every line of its panel: where, its colour, its text.
type Label<'a> = (f64, f64, Rgb, Cow<'a, str>);

/// Where one panel sits: the shared x axis, its own y axis, and its top and bottom in px.
struct Frame<'a> {
    x: &'a Axis,
    y: Axis,
    top: f64,
    bottom: f64,
}

pub fn draw(c: &Chart) -> String {
    let Some(x) = x_axis(c) else {
        return String::new();
    };
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
        text(&mut o, lx + 38.0, y, "start", INK, false, name);
    }
    let xt = x_ticks(&x);
    let mut bottom = top0;
    for (i, p) in c.panels.iter().enumerate() {
        let top = top0 + i as f64 * (TITLE_H + PANEL_H + 8.0) + TITLE_H;
        bottom = top + PANEL_H;
        text(&mut o, LEFT, top - 8.0, "start", INK, true, &p.title);
        panel(&mut o, c, i == 0, p, &x, &xt, (top, bottom));
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
    text(&mut o, (LEFT + x.to) / 2.0, bottom + 40.0, "middle", INK, true, &c.x_title);
    let _ = writeln!(o, "</svg>");
    o
}

/// The x axis over every curve's points, a margin each side, leaving the column right of the
/// plot to the longest label of a level; none when there is no point to draw.
fn x_axis(c: &Chart) -> Option<Axis> {
    let xs = c.panels.iter().flat_map(|p| p.curves.iter()).flat_map(|cv| cv.points.iter().map(|p| p.0));
    let (xmin, xmax) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    if xmin > xmax || xmin <= 0.0 {
        return None;
    }
    // Bold labels run wider than the estimate for regular text.
    let longest = c.panels.iter().flat_map(|p| &p.levels).map(|l| Placer::width(&l.label) * 1.08).fold(0.0, f64::max);
    let column = (longest + RIGHT_PAD).clamp(RIGHT.0, RIGHT.1);
    Some(Axis { lo: xmin / 1.3, hi: xmax * 1.3, from: LEFT, to: W - column })
}

/// Powers of two along x: every one, or every other when they crowd.
fn x_ticks(x: &Axis) -> Vec<f64> {
    let mut xt: Vec<f64> = Vec::new();
    let mut v = 2f64.powi(x.lo.log2().ceil() as i32);
    while v <= x.hi {
        xt.push(v);
        v *= 2.0;
    }
    if xt.len() > 12 {
        xt = xt.into_iter().step_by(2).collect();
    }
    xt
}

/// One panel below its title: nothing when it has no positive value to draw. The marks are
/// labelled in the `first` panel only.
fn panel(o: &mut String, c: &Chart, first: bool, p: &Panel, x: &Axis, xt: &[f64], (top, bottom): (f64, f64)) {
    let ys = p.curves.iter().flat_map(|cv| cv.points.iter().map(|q| q.1)).chain(p.levels.iter().map(|l| l.at));
    let (ymin, ymax) = ys.filter(|v| *v > 0.0).fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    if ymin > ymax {
        return;
    }
    let (lo, hi, yt) = log_ticks(ymin / 1.25, ymax * 1.5);
    let f = Frame { x, y: Axis { lo, hi, from: bottom, to: top }, top, bottom };
    grid(o, &f, p.unit, &yt, xt);
    // Lines first, every label after them, so no line crosses a label.
    let mut labels = marks(o, &f, &c.marks, first);
    slopes(o, &f, &p.slopes, &p.title);
    levels(o, &f, &p.levels, &mut labels);
    for cv in &p.curves {
        curve(o, &f, cv);
    }
    for (lx, ly, colour, s) in labels {
        text(o, lx, ly, "start", colour, true, &s);
    }
}

/// The grid at the ticks of both axes, the y axis' figures, and the axes themselves.
fn grid(o: &mut String, f: &Frame, unit: Unit, yt: &[f64], xt: &[f64]) {
    let (top, bottom, right) = (f.top, f.bottom, f.x.to);
    let grid = "stroke=\"#000\" stroke-opacity=\"0.12\"";
    for t in yt {
        let py = f.y.px(*t);
        let _ = writeln!(o, "<line x1=\"{LEFT}\" x2=\"{right}\" y1=\"{py:.1}\" y2=\"{py:.1}\" {grid}/>");
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#333\">{}</text>",
            LEFT - 6.0,
            py + 4.0,
            esc(&unit.label(*t))
        );
    }
    for t in xt {
        let px = f.x.px(*t);
        let _ = writeln!(o, "<line x1=\"{px:.1}\" x2=\"{px:.1}\" y1=\"{top}\" y2=\"{bottom}\" {grid}/>");
    }
    let _ = writeln!(
        o,
        "<polyline points=\"{LEFT},{top} {LEFT},{bottom} {right},{bottom}\" fill=\"none\" stroke=\"#000\"/>"
    );
}

/// The vertical marks through the panel; their labels, in the first panel only, are returned
/// to be written last.
fn marks<'a>(o: &mut String, f: &Frame, marks: &'a [Mark], first: bool) -> Vec<Label<'a>> {
    let mut placer = Placer::default();
    let mut labels = Vec::new();
    for m in marks {
        let px = f.x.px(m.at);
        line(o, &[(px, f.top), (px, f.bottom)], m.colour, 1.5, Dash::Dashed);
        if first {
            let (lx, ly) = placer.place(&m.label, px + 5.0, f.top + FONT + 2.0, false, f.top, f.bottom);
            labels.push((lx, ly, m.colour, m.label.as_str().into()));
        }
    }
    labels
}

/// The dotted lines IOPS = QD ÷ latency where they cross the panel, and what they are beside
/// the panel's `title`.
fn slopes(o: &mut String, f: &Frame, slopes: &[super::Slope], title: &str) {
    let (x, y) = (f.x, &f.y);
    for s in slopes {
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
    if !slopes.is_empty() {
        let spans: Vec<String> = slopes
            .iter()
            .map(|s| format!("<tspan fill=\"{}\" font-weight=\"600\">{}</tspan>", rgb(s.colour), esc(&s.label)))
            .collect();
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#333\">{} {}</text>",
            LEFT + Placer::width(title) + 24.0,
            f.top - 8.0,
            esc(SLOPES),
            spans.join(", ")
        );
    }
}

/// The reference levels, highest first: each runs on into the column right of the plot, where
/// its label is added to `labels`.
fn levels<'a>(o: &mut String, f: &Frame, levels: &'a [Level], labels: &mut Vec<Label<'a>>) {
    let mut levels: Vec<&Level> = levels.iter().collect();
    levels.sort_by(|a, b| b.at.total_cmp(&a.at));
    let mut col = Placer::default();
    let right = f.x.to;
    for l in levels {
        let py = f.y.px(l.at);
        let (lx, ly) = col.place(&l.label, right + 12.0, py + 4.0, false, f.top - 4.0, f.bottom + 12.0);
        line(o, &[(LEFT, py), (right, py), (lx - 4.0, ly - 4.0)], l.colour, 1.5, l.dash);
        labels.push((lx, ly, l.colour, fit(&l.label, W - lx - 4.0)));
    }
}

/// A measured curve and a dot with its tooltip at each point.
fn curve(o: &mut String, f: &Frame, cv: &Curve) {
    let pts: Vec<(f64, f64)> = cv.points.iter().map(|q| (f.x.px(q.0), f.y.px(q.1))).collect();
    line(o, &pts, cv.colour, 2.5, cv.dash);
    for ((px, py), (_, _, tip)) in pts.iter().zip(&cv.points) {
        let _ = writeln!(
            o,
            "<circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"4\" fill=\"{}\"><title>{}</title></circle>",
            rgb(cv.colour),
            esc(tip)
        );
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
