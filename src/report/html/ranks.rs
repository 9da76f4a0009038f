//! A multi-host run's rows: each rank's figures beside the combined test, the outlier marked,
//! the start spread and the clocks, and each rank's IOPS as bars.

use super::charts::{self, Bars};
use super::{esc, figure};
use crate::report::cells::PAGE;
use crate::result::ranks::{outlier, spread};
use crate::result::RunResult;
use std::fmt::Write;

pub fn render(o: &mut String, r: &RunResult) {
    let tests: Vec<_> = r.tests.iter().filter(|t| !t.ranks.is_empty()).collect();
    if tests.is_empty() {
        return;
    }
    let _ = writeln!(o, "<h2>Per rank</h2>");
    for t in &tests {
        let bad = outlier(&t.ranks);
        let _ = writeln!(
            o,
            "<table class=\"ranks\"><caption>{}</caption><tr><th>rank</th><th>host</th><th>IOPS</th><th>MB/s</th>\
             <th>mean µs</th><th>p99 µs</th><th>start ms</th><th>end ms</th><th>clock ms</th></tr>",
            esc(&t.name)
        );
        for k in &t.ranks {
            let class = if bad == Some(k.rank) {
                " class=\"warn\" title=\"p99 more than twice every other rank's\""
            } else {
                ""
            };
            let _ = writeln!(
                o,
                "<tr{class}><td class=n>{}</td><td>{}</td><td class=n>{:.0}</td><td class=n>{:.2}</td><td class=n>{}</td>\
                 <td class=n>{}</td><td class=n>{:.3}</td><td class=n>{:.3}</td><td class=n>{:.3}</td></tr>",
                k.rank,
                esc(&k.host),
                k.iops,
                k.mbps,
                PAGE.us(k.mean_us),
                PAGE.us(k.p99_us),
                k.start_offset_ms,
                k.end_offset_ms,
                k.clock_offset_ms
            );
        }
        let _ = writeln!(o, "</table>");
        if let Some(s) = spread(&t.ranks) {
            let _ = writeln!(
                o,
                "<p class=\"note\">Start spread {:.3} ms; first done {:.1} ms, last done {:.1} ms after the common \
                 start (rank 0's clock); clocks within ±{:.3} ms of rank 0's.</p>",
                s.start_spread_ms, s.first_done_ms, s.last_done_ms, s.clock_within_ms
            );
        }
        if let Some(c) = crate::result::ranks::common_window(&t.ranks) {
            let _ = writeln!(
                o,
                "<p class=\"note\">First done: {:.1} IOPS, {:.2} MB/s over the common window ({} I/Os, {:.3} s); \
                 last done: {:.1} IOPS, {:.2} MB/s.</p>",
                c.iops, c.mbps, c.ios, c.seconds, c.last_iops, c.last_mbps
            );
        }
        if let Some(parts) = crate::result::ranks::parts(&t.ranks) {
            let _ = writeln!(
                o,
                "<p class=\"note\">One target shared by the ranks, each on its own part: {}.</p>",
                esc(&parts)
            );
        }
    }
    // One chart for the first test with ranks: who carried how much of the combined figure.
    let t = tests[0];
    let cats: Vec<String> = t.ranks.iter().map(|k| format!("{} ({})", k.rank, k.host)).collect();
    let series = [("IOPS".to_string(), t.ranks.iter().map(|k| Some(k.iops)).collect())];
    let svg = charts::bars(&Bars { x_desc: "IOPS", categories: &cats, series: &series, notes: None });
    figure(o, &format!("IOPS per rank: {}", t.name), svg);
}
