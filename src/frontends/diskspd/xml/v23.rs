//! The `<TimeSpan>` and `<Target>` elements DiskSpd 2.3's profiles added, as the switches that
//! say the same: `<AffinityTraversal>` (`-a` order letters), `<Affinity>` (CPU lists, in 2.3's
//! `Group @Mask` and 2.2's `AffinityGroupAssignment @Processor` forms), `<BufferSeparation>`
//! (`-bsn`), `<CompletionDepth>` (`-oc`), `<IoRing>` (`-u`) and `<BypassIO>` (`-Sy`/`-SY`).

use super::{boolean, refuse, unknown, Node, E};

fn attr<'a>(n: &'a Node, name: &str) -> Option<&'a str> {
    n.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// The switch a 2.3 `<TimeSpan>` element stands for; None for an element that is not 2.3's.
pub(super) fn time_span(k: &Node) -> Option<E<Option<String>>> {
    Some(match k.name.as_str() {
        "AffinityTraversal" => traversal(k),
        "Affinity" => affinity(k).map(Some),
        "BufferSeparation" => match k.text.as_str() {
            "PDECacheLine" => Ok(None),
            "SystemDefault" => Ok(Some("-bsn".into())),
            _ => refuse(k, "is PDECacheLine or SystemDefault"),
        },
        "CompletionDepth" => Ok(Some(format!("-oc{}", k.text))),
        "IoRing" => ioring(k).map(Some),
        _ => return None,
    })
}

fn traversal(k: &Node) -> E<Option<String>> {
    let mut letters = String::new();
    match k.text.as_str() {
        "Cpu" => {}
        "CoreAware" => letters.push('c'),
        _ => return refuse(k, "is Cpu or CoreAware"),
    }
    match attr(k, "Group") {
        None | Some("Fill") => {}
        Some("Span") => letters.push('s'),
        Some(_) => return refuse(k, "Group is Fill or Span"),
    }
    match attr(k, "Efficiency") {
        None | Some("PFirst") => {}
        Some("FillPFirst") => letters.push('P'),
        Some("EFirst") => letters.push('e'),
        Some("FillEFirst") => letters.push('E'),
        Some("Unordered") if letters.is_empty() => return Ok(Some("-aup".into())),
        Some("Unordered") => return refuse(k, "Efficiency Unordered goes with Cpu and Fill only"),
        Some(_) => return refuse(k, "Efficiency is PFirst, FillPFirst, EFirst, FillEFirst or Unordered"),
    }
    Ok((!letters.is_empty()).then(|| format!("-a{letters}")))
}

/// `<Affinity>`'s CPUs as one `-ag…` list.
fn affinity(k: &Node) -> E<String> {
    let mut list = Vec::new();
    for g in &k.kids {
        let num = |name: &str| -> E<u64> {
            let v = attr(g, name).unwrap_or("");
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => v.parse().ok(),
            };
            parsed.ok_or_else(|| (g.name.clone(), format!("{name} '{v}' is not a number")))
        };
        let group = num("Group")?;
        list.push(format!("g{group}"));
        match g.name.as_str() {
            "Group" => {
                let mask = num("Mask")?;
                list.extend((0..64).filter(|b| mask & (1 << b) != 0).map(|b: u32| b.to_string()));
            }
            "AffinityGroupAssignment" => list.push(num("Processor")?.to_string()),
            _ => return unknown(g, "Affinity"),
        }
    }
    if list.is_empty() {
        return refuse(k, "names no CPU");
    }
    Ok(format!("-a{}", list.join(",")))
}

fn ioring(k: &Node) -> E<String> {
    let (mut batch, mut percent, mut registered) = (None, false, true);
    for c in &k.kids {
        match c.name.as_str() {
            "IoRingBatchSize" => {
                batch = Some(c.text.clone());
                percent = attr(c, "Percent").is_some_and(|p| p == "true");
            }
            "UseRegBuffer" => registered = boolean(c)?,
            _ => return unknown(c, "IoRing"),
        }
    }
    let batch = batch.unwrap_or_else(|| "25".into());
    Ok(format!("-u{}{batch}{}", if registered { "" } else { "n" }, if percent { "p" } else { "" }))
}

/// `<Target><BypassIO>`.
pub(super) fn bypass(k: &Node) -> E<String> {
    match k.text.as_str() {
        "Full" => Ok("-SY".into()),
        "Partial" => Ok("-Sy".into()),
        _ => refuse(k, "is Full or Partial"),
    }
}
