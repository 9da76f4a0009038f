//! The HTML reports opened in headless Chromium: each page loads with no console message (the
//! page's policy turns any fetch or script into one), holds the expected number of charts, fits
//! a 1280 px window, and leaves a screenshot under target/tmp/html-report/ to look at.
#![cfg(unix)] // the Windows build has its own set, tests/windows.rs

mod common;

use common::throttled::Throttled;
use common::{bin, parts, Privileged};
use std::path::{Path, PathBuf};
use std::process::Command;

const BROWSERS: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

const NEED: &str = "Chromium (Debian's chromium package)";

/// The first browser that runs, or which ones were tried.
fn find_chromium() -> Result<PathBuf, String> {
    let found = BROWSERS.iter().find(|b| common::program(b).is_ok()).map(PathBuf::from);
    found.ok_or_else(|| format!("none of {} runs", BROWSERS.join(", ")))
}

/// The browser; without one, the test skips (fails under IOLENS_REQUIRE_PRIVILEGED=1).
fn chromium(privileged: &Privileged) -> Option<PathBuf> {
    privileged.need(NEED, find_chromium())
}

/// Chromium as a closed machine needs it: no sandbox as root, no GPU, no background traffic.
fn browser(exe: &Path, profile: &Path) -> Command {
    let mut c = Command::new(exe);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ]);
    c.arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// Loads `page`: the DOM after loading, the console messages, and a screenshot at `shot`.
fn load(exe: &Path, page: &Path, shot: &Path) -> (String, Vec<String>) {
    load_at(exe, page, shot, "1100,2400")
}

fn load_at(exe: &Path, page: &Path, shot: &Path, window: &str) -> (String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let out = browser(exe, &dir.path().join("a"))
        .args(["--enable-logging=stderr", "--v=0", "--dump-dom", &url])
        .output()
        .expect("running chromium");
    let (_, dom, err) = parts(&out);
    let console = err.lines().filter(|l| l.contains(":CONSOLE")).map(str::to_string).collect();
    let out = browser(exe, &dir.path().join("b"))
        .args([&format!("--window-size={window}"), &format!("--screenshot={}", shot.display()), &url])
        .output()
        .expect("running chromium");
    assert!(shot.metadata().is_ok_and(|m| m.len() > 10_000), "no screenshot: {}", parts(&out).2);
    (dom, console)
}

fn shots() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn charts(dom: &str) -> usize {
    dom.matches("<figure class=\"chart\"").count()
}

/// The width of `page` laid out in a 1280 px window (what scrolls sideways is wider): a copy
/// without the page's policy, with a script that writes the document's width into its DOM.
fn width(exe: &Path, page: &Path) -> u32 {
    probe_width(exe, &std::fs::read_to_string(page).unwrap(), 1280)
}

/// A4's width less the page's 12 mm margins, in CSS pixels (96 a inch): 186 mm.
const A4_CONTENT_PX: u32 = 703;

/// The width of `page` laid out as printed on A4: its print rules applied to the screen, in a
/// window as wide as A4's printable width (Chromium cannot be told to lay out for print and
/// report a width, and a PDF cannot be measured without tools this test does not assume).
fn printed_width(exe: &Path, page: &Path) -> u32 {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("@page{size:A4"), "the page asks for A4");
    probe_width(exe, &html.replace("@media print{", "@media all{"), A4_CONTENT_PX)
}

/// `page` printed to PDF by Chromium: its pages' sizes in points (A4 is 595 × 842).
fn pdf_pages(exe: &Path, page: &Path) -> Vec<(f64, f64)> {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("page.pdf");
    let out = browser(exe, &dir.path().join("p"))
        .args([
            &format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer",
            &format!("file://{}", page.canonicalize().unwrap().display()),
        ])
        .output()
        .expect("running chromium");
    let bytes = std::fs::read(&pdf).unwrap_or_else(|e| panic!("no PDF ({e}): {}", parts(&out).2));
    let text = String::from_utf8_lossy(&bytes);
    text.split("/MediaBox [")
        .skip(1)
        .map(|b| {
            let v: Vec<f64> = b.split(']').next().unwrap().split_whitespace().map(|x| x.parse().unwrap()).collect();
            (v[2] - v[0], v[3] - v[1])
        })
        .collect()
}

fn probe_width(exe: &Path, html: &str, window: u32) -> u32 {
    let csp = html.find("<meta http-equiv=\"Content-Security-Policy\"").expect("the page has its policy");
    let end = csp + html[csp..].find('>').unwrap() + 1;
    let probe = format!("{}{}", &html[..csp], &html[end..]).replace(
        "</body>",
        "<script>document.body.dataset.width = document.documentElement.scrollWidth;</script></body>",
    );
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("probe.html");
    std::fs::write(&copy, probe).unwrap();
    let out = browser(exe, &dir.path().join("p"))
        .args([&format!("--window-size={window},1000"), "--dump-dom", &format!("file://{}", copy.display())])
        .output()
        .expect("running chromium");
    let dom = parts(&out).1;
    let at = dom.find("data-width=\"").unwrap_or_else(|| panic!("no width written: {dom}")) + 12;
    dom[at..].split('"').next().unwrap().parse().unwrap()
}

/// The text of the element with `id` (a figure), tags left in.
fn element<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in the page"));
    &dom[at..at + dom[at..].find("</figure>").expect("the figure ends")]
}

fn iolens(args: &[&str]) {
    let out = bin().args(args).arg("--quiet").output().unwrap();
    let (code, _, err) = parts(&out);
    assert_eq!(code, 0, "iolens {args:?}: {err}");
}

#[test]
fn run_sweep_and_comparison_pages_load_clean_with_their_charts() {
    let privileged = Privileged::new();
    let Some(exe) = chromium(&privileged) else { return };
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    let common = ["--size", "32M", "--warmup", "0", "--no-store"];
    iolens(&[&["run", &p("t1"), "--rw", "randrw", "-d", "2", "--out", &p("run.html")][..], &common].concat());
    iolens(&[&["run", &p("t1"), "--rw", "randrw", "-d", "1", "--out", &p("a.json")][..], &common].concat());
    iolens(
        &[&["run", &p("t1"), "--rw", "randrw", "-d", "1", "--buffered", "--out", &p("b.json")][..], &common].concat(),
    );
    iolens(
        &[&["sweep", &p("t1"), "--rw", "randread", "--qd", "1,4", "-d", "1", "--out", &p("sweep.html")][..], &common]
            .concat(),
    );
    let out = bin().args(["compare", &p("a.json"), &p("b.json"), "--out", &p("compare.html")]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", parts(&out).2);
    // A run: IOPS and MB/s per test, percentiles, IOPS and p99 per second. A sweep adds IOPS
    // and p99 by queue depth, and p99 against IOPS. A comparison: IOPS, MB/s and p99 bars.
    for (page, expected) in [("run", 5), ("sweep", 8), ("compare", 3)] {
        let shot = shots().join(format!("{page}.png"));
        let (dom, console) = load(&exe, &dir.path().join(format!("{page}.html")), &shot);
        assert!(console.is_empty(), "{page}: console messages: {console:?}");
        assert_eq!(charts(&dom), expected, "{page}: charts in the loaded page");
        assert!(dom.matches("<svg").count() >= expected, "{page}: every chart is drawn");
        eprintln!("{page}: {expected} charts, no console message; screenshot {}", shot.display());
        a4(&exe, &dir.path().join(format!("{page}.html")), page);
    }
}

/// The check page iolens.exe wrote under wine (tests/windows.rs leaves it on F:, which is
/// target/wine/f) loads as the Linux ones do: no console message, its charts drawn.
#[test]
fn a_check_page_written_on_windows_loads_like_the_others() {
    let privileged = Privileged::new();
    let Some(exe) = chromium(&privileged) else { return };
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wine/f/iolens-windows-check.html");
    let have = page.is_file().then_some(()).ok_or_else(|| format!("{} is missing", page.display()));
    let what = "the check page of iolens.exe under wine (scripts/build-windows test)";
    let Some(()) = privileged.need(what, have) else { return };
    let (dom, console) = load_at(&exe, &page, &shots().join("windows-check.png"), "1280,3000");
    assert!(console.is_empty(), "console messages: {console:?}");
    assert!(dom.contains("SEQ1M Q8T1") && dom.contains(r"F:\"), "the page is the Windows check");
    let n = charts(&dom);
    assert!(n >= 3 && dom.matches("<svg").count() >= n, "{n} charts");
    eprintln!("Windows check page: {n} charts, no console message");
}

/// The console check can fail: a page that fetches an image gets a console message.
#[test]
fn a_page_that_fetches_is_caught() {
    let privileged = Privileged::new();
    let Some(exe) = chromium(&privileged) else { return };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    let target = dir.path().join("t").to_string_lossy().into_owned();
    let args = ["run", &target, "--size", "8M", "-d", "1", "--no-store", "--quiet", "--format", "html"];
    let html = String::from_utf8(bin().args(args).output().unwrap().stdout).unwrap();
    assert!(html.contains("</footer>"), "stdout holds the page");
    std::fs::write(&page, html.replace("<footer", "<img src=\"http://example.invalid/x.png\"><footer")).unwrap();
    let (_, console) = load(&exe, &page, &shots().join("bad.png"));
    assert!(console.iter().any(|l| l.contains("example.invalid")), "{console:?}");
}

/// A count with thousands separators, as the pages write them.
fn thousands(v: f64) -> String {
    let s = (v.round() as i64).to_string();
    let mut o = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            o.push(',');
        }
        o.push(c);
    }
    o
}

/// `check --quick` of the device inside its throttle: the result's JSON and its page.
fn check(t: &Throttled, dir: &Path, label: &str) -> serde_json::Value {
    let page = dir.join(format!("{label}.html"));
    let cmd = format!(
        "{} check {} --quick --force-device --label {label} --format json --quiet --html {}",
        env!("CARGO_BIN_EXE_iolens"),
        t.dev,
        page.display()
    );
    let (code, out, err) = parts(&t.run(&cmd));
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.join(format!("{label}.json")), &out).unwrap();
    serde_json::from_str(&out).unwrap()
}

/// Every wall the analysis found is labelled with its figure: the knee and the IOPS cap against
/// queue depth, the IOPS cap against block size. (The quick sweep's one-second steps may find
/// no cap on a busy machine: 8K a tenth below 4K is no plateau. The knee is always there.)
fn walls_labelled(dom: &str, a: &serde_json::Value, who: &str) {
    let r = &a["reads"];
    let by_depth = element(dom, "by-depth");
    let knee = format!("knee QD {} (", r["knee_qd"].as_u64().expect("a throttle flattens IOPS: a knee"));
    assert!(by_depth.contains(&knee), "{knee} against queue depth");
    if let Some(cap) = r["iops_cap"].as_f64().map(|c| format!("{who}reads IOPS cap {}", thousands(c))) {
        assert!(by_depth.contains(&cap), "{cap} against queue depth");
        assert!(element(dom, "by-size").contains(&cap), "{cap} against block size");
    } else {
        eprintln!("{who}no IOPS cap found by the quick sweep: {}", r);
    }
}

#[test]
fn check_pages_open_with_crystaldiskmark_and_draw_the_sweep_as_curves() {
    let Some(t) = Throttled::new("html-check") else { return };
    let Some(exe) = t.need(NEED, find_chromium()) else { return };
    let dir = tempfile::tempdir().unwrap();
    // A disk's limits, then ones 2.5 times lower: a migration in two checks. Both throttles sit
    // well below what one I/O at a time gets from the loop device on a busy machine, so the
    // quick sweep finds them flat from QD 1 and has time left for block sizes.
    let mut results = Vec::new();
    for (label, iops, bps) in [("before", 1000, 20_000_000u64), ("after", 400, 8_000_000)] {
        for op in ["read", "write"] {
            t.set(&format!("{op}_iops_device"), iops);
            t.set(&format!("{op}_bps_device"), bps);
        }
        results.push(check(&t, dir.path(), label));
    }
    let page = dir.path().join("before.html");
    let (dom, console) = load_at(&exe, &page, &shots().join("check.png"), "1280,3000");
    assert!(console.is_empty(), "check: console messages: {console:?}");
    // CrystalDiskMark's table comes first, its rows in its order, MB/s for reads and writes.
    let first = &dom[dom.find("<table").unwrap()..];
    let first = &first[..first.find("</table>").unwrap()];
    assert!(first.starts_with("<table class=\"cdm\">"), "{first}");
    assert!(first.contains("Read (MB/s)") && first.contains("Write (MB/s)"), "{first}");
    let rows: Vec<usize> = ["SEQ1M Q8T1", "RND4K Q32T1", "RND4K Q1T1"].iter().map(|r| first.find(r).unwrap()).collect();
    assert!(rows.windows(2).all(|w| w[0] < w[1]), "rows in CrystalDiskMark's order: {first}");
    assert!(dom.find("<table").unwrap() < dom.find("<figure").unwrap(), "the table before any chart");
    let a = &results[0]["analysis"];
    let verdict = &dom[dom.find("<p class=\"verdict\">").expect("a verdict")..];
    let verdict = &verdict[..verdict.find("</p>").unwrap()];
    // The headline wall the analysis found, whichever it is: on a busy machine a noisy step
    // can leave the IOPS cap unsure or unfound, and the verdict then leads with another.
    let said = match (a["iops_cap"].as_f64(), a["mbps_cap"].as_f64()) {
        (Some(c), _) => format!("{} IOPS", thousands(c)),
        (None, Some(m)) => format!("{} MB/s cap", thousands(m)),
        (None, None) => format!("knee at QD {}", a["knee_qd"]),
    };
    assert!(verdict.contains(&said), "{said}: {verdict}");
    walls_labelled(&dom, a, "");
    // Against queue depth and block size, percentiles, IOPS and p99 per second.
    assert_eq!(charts(&dom), 5, "check: charts in the loaded page");
    let w = width(&exe, &page);
    assert!(w <= 1280, "check: the page is {w} px wide");
    eprintln!("check: 5 charts, {w} px wide, no console message; screenshot {}", shots().join("check.png").display());
    a4(&exe, &page, "check");

    let cmp = dir.path().join("compare.html");
    let (before, after) = (dir.path().join("before.json"), dir.path().join("after.json"));
    let args = [before.to_str().unwrap(), after.to_str().unwrap(), "--out", cmp.to_str().unwrap()];
    let out = bin().arg("compare").args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", parts(&out).2);
    let (dom, console) = load_at(&exe, &cmp, &shots().join("compare-checks.png"), "1280,3000");
    assert!(console.is_empty(), "compare: console messages: {console:?}");
    // One curve a result and direction, every point with its tooltip. The quick sweep leaves
    // the writes too little time for block sizes: the reads' alone are sure to be there.
    let whose: [(&str, &[&str]); 2] = [
        ("by-depth", &["before reads", "after reads", "before writes", "after writes"]),
        ("by-size", &["before reads", "after reads"]),
    ];
    for (id, whose) in whose {
        let fig = element(&dom, id);
        for who in whose {
            assert!(fig.contains(&format!("<title>{who} ")), "{who} on #{id}");
        }
    }
    for (r, who) in results.iter().zip(["before ", "after "]) {
        walls_labelled(&dom, &r["analysis"], who);
    }
    let verdicts = &dom[dom.find("<ul class=\"verdicts\">").expect("each result's verdict")..];
    assert!(verdicts.contains("<b>before</b>: Reads: ") && verdicts.contains("<b>after</b>: Reads: "), "{verdicts}");
    assert!(dom.contains("<span class=\"vd\">&lt;&lt;</span>"), "after: 2.5 times fewer IOPS at QD 32");
    assert_eq!(charts(&dom), 2, "compare: the two sweeps overlaid");
    let w = width(&exe, &cmp);
    assert!(w <= 1280, "compare: the page is {w} px wide");
    eprintln!("compare: 2 charts overlaid, {w} px wide; screenshot {}", shots().join("compare-checks.png").display());
    a4(&exe, &cmp, "compare");
}

/// Printed, the page is A4 and nothing in it is wider than A4 less its margins.
fn a4(exe: &Path, page: &Path, what: &str) {
    let w = printed_width(exe, page);
    assert!(w <= A4_CONTENT_PX, "{what}: printed, the page is {w} px wide, A4 holds {A4_CONTENT_PX}");
    let pages = pdf_pages(exe, page);
    assert!(!pages.is_empty(), "{what}: a PDF without pages");
    for (pw, ph) in &pages {
        assert!((pw - 595.3).abs() < 2.0 && (ph - 841.9).abs() < 2.0, "{what}: a {pw} × {ph} pt page is not A4");
    }
    eprintln!("{what}: printed {w} px wide (A4 holds {A4_CONTENT_PX}), {} A4 pages", pages.len());
}
