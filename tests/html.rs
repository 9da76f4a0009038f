//! The HTML reports opened in headless Chromium: each page loads with no console message (the
//! page's policy turns any fetch or script into one), holds the expected number of charts, and
//! leaves a screenshot under target/tmp/html-report/ to look at.

mod common;

use common::{bin, parts, Privileged};
use std::path::{Path, PathBuf};
use std::process::Command;

const BROWSERS: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// The first browser that runs; without one, the test skips (fails under
/// IOLENS_REQUIRE_PRIVILEGED=1) naming the ones tried.
fn chromium(privileged: &Privileged) -> Option<PathBuf> {
    let found = BROWSERS.iter().find(|b| common::program(b).is_ok()).map(PathBuf::from);
    let found = found.ok_or_else(|| format!("none of {} runs", BROWSERS.join(", ")));
    privileged.need("Chromium (Debian's chromium package)", found)
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
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let out = browser(exe, &dir.path().join("a"))
        .args(["--enable-logging=stderr", "--v=0", "--dump-dom", &url])
        .output()
        .expect("running chromium");
    let (_, dom, err) = parts(&out);
    let console = err.lines().filter(|l| l.contains(":CONSOLE")).map(str::to_string).collect();
    let out = browser(exe, &dir.path().join("b"))
        .args(["--window-size=1100,2400", &format!("--screenshot={}", shot.display()), &url])
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
    dom.matches("<figure class=\"chart\">").count()
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
    }
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
