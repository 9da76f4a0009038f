#!/usr/bin/env python3
"""Compares the shape of two DiskSpd outputs, the real DiskSpd's and iolens diskspd's (text or
-Rxml): sections and their order, table columns, percentile rows, field labels, XML paths, and
the share of bytes written. Used by scripts/diskspd-shape; also runs alone on two saved files:

    python3 scripts/diskspd_shape.py DISKSPD_OUTPUT IOLENS_OUTPUT

Exits 1 when the shapes differ or the write shares are more than 2 points apart.
"""
import re
import sys
import xml.etree.ElementTree as ET

WRITE_SHARE_TOLERANCE = 2.0  # percentage points


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().replace("\r\n", "\n")


def is_rule(line):
    return bool(line) and set(line) <= set("-*")


def sections(text):
    """Headers: unindented lines that are neither table rows, rules nor `name:<tab>value` lines."""
    out = []
    for line in text.split("\n"):
        if not line or line[0] in " \t" or "|" in line or "\t" in line or is_rule(line):
            continue
        if line.startswith("total:") or line.startswith("WARNING") or line.startswith("note:"):
            continue
        out.append(line.split(":")[0] + ":" if line.startswith("Command Line:") else line)
    return out


def tables(text):
    """{section: [column, …]} for each header row (a `|` line followed by a rule)."""
    lines = text.split("\n")
    out, section = {}, None
    for i, line in enumerate(lines):
        if line and line[0] not in " \t" and "|" not in line and not is_rule(line) and "\t" not in line:
            section = line
        above = lines[i - 1] if i else ""
        if "|" in line and "|" not in above and not is_rule(above) and i + 1 < len(lines) and is_rule(lines[i + 1]):
            name = "CPU" if line.lstrip().startswith("CPU") else section
            out[name] = [c.strip() for c in line.split("|")]
    return out


def percentile_rows(text):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip().startswith("%-ile"):
            rows = []
            for row in lines[i + 2 :]:
                if "|" not in row:
                    break
                rows.append(row.split("|")[0].strip())
            return rows
    return []


def fields(text):
    """Labels of the indented `label: value` lines (input parameters, system information)."""
    out = []
    for line in text.split("\n"):
        m = re.match(r"^\t+([a-zA-Z][^:\t]*?):", line)
        if m and not line.startswith("\tpath:"):
            out.append(m.group(1))
        elif re.match(r"^\t\t[a-zA-Z]", line) and ":" not in line:
            out.append(line.strip())
    return out


def text_write_share(text):
    totals = {}
    section = None
    for line in text.split("\n"):
        if line in ("Total IO", "Read IO", "Write IO"):
            section = line
        m = re.match(r"^total:\s+(\d+)\s*\|", line)
        if m and section:
            totals[section] = int(m.group(1))
    if totals.get("Total IO"):
        return 100.0 * totals.get("Write IO", 0) / totals["Total IO"]
    return None


def parse_xml(text):
    # DiskSpd under wine writes <PowerScheme Name="<unknown>" …/>: escape '<' in attribute values.
    text = re.sub(r'="([^"]*)"', lambda m: '="' + m.group(1).replace("<", "&lt;") + '"', text)
    return ET.fromstring(text[text.index("<Results") :])


def xml_paths(root):
    paths = set()

    def walk(e, prefix):
        p = f"{prefix}/{e.tag}" if prefix else e.tag
        paths.add(p)
        for a in e.attrib:
            paths.add(f"{p}/@{a}")
        for c in e:
            walk(c, p)

    walk(root, "")
    return paths


def xml_write_share(root):
    total = sum(int(t.findtext("BytesCount")) for t in root.iterfind("TimeSpan/Thread/Target"))
    written = sum(int(t.findtext("WriteBytes")) for t in root.iterfind("TimeSpan/Thread/Target"))
    return 100.0 * written / total if total else None


def xml_percentiles(root):
    return [b.findtext("Percentile") for b in root.iterfind("TimeSpan/Latency/Bucket")]


def compare_lists(name, ref, got):
    common = [x for x in ref if x in got]
    only_ref = [x for x in ref if x not in got]
    only_got = [x for x in got if x not in ref]
    same_order = common == [x for x in got if x in ref]
    print(f"{name}: {len(common)} in common, {len(only_ref)} only in DiskSpd, {len(only_got)} only in iolens"
          + ("" if same_order else " (order differs)"))
    for x in only_ref:
        print(f"  only in DiskSpd: {x}")
    for x in only_got:
        print(f"  only in iolens:  {x}")
    return not only_ref and not only_got and same_order


def compare_text(ref, got):
    ok = compare_lists("sections", sections(ref), sections(got))
    rt, gt = tables(ref), tables(got)
    for name in rt:
        if name not in gt:
            print(f"table {name!r}: only in DiskSpd")
            ok = False
            continue
        same = rt[name] == gt[name]
        print(f"table {name!r}: {len(rt[name])} columns in DiskSpd, {len(gt[name])} in iolens, "
              + ("same" if same else f"differ\n  DiskSpd: {rt[name]}\n  iolens:  {gt[name]}"))
        ok &= same
    for name in gt:
        if name not in rt:
            print(f"table {name!r}: only in iolens")
            ok = False
    rp, gp = percentile_rows(ref), percentile_rows(got)
    same = rp == gp
    print(f"percentile rows: {len(rp)} in DiskSpd, {len(gp)} in iolens, " + ("same" if same else f"differ: {gp}"))
    ok &= same
    ok &= compare_lists("fields", fields(ref), fields(got))
    return ok, text_write_share(ref), text_write_share(got)


def compare_xml(ref, got):
    r, g = parse_xml(ref), parse_xml(got)
    rp, gp = xml_paths(r), xml_paths(g)
    print(f"XML paths: {len(rp)} in DiskSpd, {len(gp)} in iolens, {len(rp & gp)} in common, "
          f"{len(rp - gp)} only in DiskSpd, {len(gp - rp)} only in iolens")
    for p in sorted(rp - gp):
        print(f"  only in DiskSpd: {p}")
    for p in sorted(gp - rp):
        print(f"  only in iolens:  {p}")
    rb, gb = xml_percentiles(r), xml_percentiles(g)
    same = rb == gb
    print(f"XML latency buckets: {len(rb)} in DiskSpd, {len(gb)} in iolens, " + ("same" if same else "differ"))
    return rp == gp and same, xml_write_share(r), xml_write_share(g)


def main():
    ref, got = read(sys.argv[1]), read(sys.argv[2])
    is_xml = "<Results" in ref
    if is_xml != ("<Results" in got):
        print("one output is XML, the other is not")
        return 1
    ok, rs, gs = (compare_xml if is_xml else compare_text)(ref, got)
    if rs is None or gs is None:
        print(f"write share: DiskSpd {rs}, iolens {gs}: cannot compare")
        ok = False
    else:
        close = abs(rs - gs) <= WRITE_SHARE_TOLERANCE
        print(f"write share: DiskSpd {rs:.2f} %, iolens {gs:.2f} %, "
              + ("within" if close else "NOT within") + f" {WRITE_SHARE_TOLERANCE:g} points")
        ok &= close
    print("shape: " + ("same" if ok else "differs"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
