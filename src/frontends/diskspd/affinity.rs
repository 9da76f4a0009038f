//! DiskSpd 2.3's thread affinity: by default every thread is held to a CPU, round robin over the
//! CPUs in an order the `-a` switches shape (`-ac` one thread per core before a core's second
//! CPU, `-as` span groups, `-ap -aP -ae -aE -aup` P- and E-core order), or over the CPUs an
//! explicit `-a#,#` lists; `-n` leaves the threads to the scheduler. Linux has one processor
//! group, so filling and spanning groups place threads alike, as on a Windows machine of up to
//! 64 CPUs.

use super::wording::{incorrect, unsupported};
use super::R;

/// Where P- and E-cores (efficiency classes) come in the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PeOrder {
    /// `-ap`: P-cores first within each pass (the default).
    #[default]
    PFirst,
    /// `-aP`: every pass's P-cores before any E-core.
    FillPFirst,
    /// `-ae`: E-cores first within each pass.
    EFirst,
    /// `-aE`: every pass's E-cores before any P-core.
    FillEFirst,
    /// `-aup`: no P/E reordering.
    Unordered,
}

/// How a line assigns threads to CPUs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Affinity {
    /// `-n`: no affinity at all.
    pub disabled: bool,
    pub core_aware: bool,
    pub span_groups: bool,
    pub pe: PeOrder,
    /// `-a#,#…`: the CPUs listed, in order; empty: all the process may use.
    pub cpus: Vec<u32>,
    /// A `-ag#` asked for its whole group, after the CPUs listed before it.
    pub whole_group: bool,
    /// Some `-a` was typed (which `-n` conflicts with).
    pub typed: bool,
    /// The last `-a` that listed CPUs, as typed, for the errors about them.
    pub list_arg: String,
}

impl Affinity {
    /// Text's "affinity assignment: cpu order, fill groups, P-cores first".
    pub fn words(&self) -> String {
        if self.disabled {
            return "affinity disabled".into();
        }
        let pe = match self.pe {
            PeOrder::PFirst => "P-cores first",
            PeOrder::FillPFirst => "fill P-cores first",
            PeOrder::EFirst => "E-cores first",
            PeOrder::FillEFirst => "fill E-cores first",
            PeOrder::Unordered => "no P/E order",
        };
        let order = if self.core_aware { "core-aware" } else { "cpu order" };
        format!("{order}, {} groups, {pe}", if self.span_groups { "span" } else { "fill" })
    }

    /// XML's `<AffinityTraversal Group=… Efficiency=…>` attributes and text.
    pub fn traversal(&self) -> (&'static str, &'static str, &'static str) {
        let pe = match self.pe {
            PeOrder::PFirst => "PFirst",
            PeOrder::FillPFirst => "FillPFirst",
            PeOrder::EFirst => "EFirst",
            PeOrder::FillEFirst => "FillEFirst",
            PeOrder::Unordered => "Unordered",
        };
        (if self.span_groups { "Span" } else { "Fill" }, pe, if self.core_aware { "CoreAware" } else { "Cpu" })
    }

    /// Reads one `-a…` switch: order letters (`-acsE`, `-aup`, `-ag`) or a CPU list
    /// (`-a0,1`, `-ag0,0-10,15-20`), which add up over several switches.
    pub fn apply(&mut self, arg: &str, v: &str) -> R<()> {
        self.typed = true;
        if v == "up" {
            self.pe = PeOrder::Unordered;
            return Ok(());
        }
        if v == "g" || (!v.is_empty() && v.chars().all(|c| "csPpEe".contains(c))) {
            for c in v.chars() {
                match c {
                    'c' => self.core_aware = true,
                    's' => self.span_groups = true,
                    'p' => self.pe = PeOrder::PFirst,
                    'P' => self.pe = PeOrder::FillPFirst,
                    'e' => self.pe = PeOrder::EFirst,
                    'E' => self.pe = PeOrder::FillEFirst,
                    _ => {}
                }
            }
            return Ok(());
        }
        if v.is_empty() {
            return Ok(());
        }
        if v.ends_with(',') || (v.contains(',') && v.rsplit(',').next() == Some("g")) {
            return Err(incorrect(arg, &["incomplete affinity specification"]));
        }
        let mut group = 0u32;
        let mut cpus = Vec::new();
        for (i, t) in v.split(',').enumerate() {
            let num = |s: &str| (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok());
            if let Some(g) = t.strip_prefix('g') {
                group = num(g).flatten().ok_or_else(|| incorrect(arg, &["syntax error parsing affinity"]))?;
                // -ag#: the whole group.
                self.whole_group |= i + 1 == v.split(',').count();
                continue;
            }
            let (a, b) = t.split_once('-').unwrap_or((t, t));
            let (Some(Some(a)), Some(Some(b))) = (num(a), num(b)) else {
                return Err(incorrect(arg, &["syntax error parsing affinity"]));
            };
            if b < a {
                return Err(incorrect(arg, &["syntax error parsing affinity"]));
            }
            cpus.extend(a..=b);
        }
        if group > 0 {
            return Err(unsupported(arg, "iolens holds threads to CPUs of processor group 0 only"));
        }
        self.cpus.extend(cpus);
        self.list_arg = arg.to_string();
        Ok(())
    }

    /// The CPUs threads are held to, thread k on the k-th (round robin); empty with `-n`.
    /// `allowed` are the CPUs the process may use; `core_of` a CPU's core, `efficient` whether it
    /// is an E-core.
    pub fn order(&self, allowed: &[u32], core_of: &dyn Fn(u32) -> u32, efficient: &dyn Fn(u32) -> bool) -> R<Vec<u32>> {
        if self.disabled {
            return Ok(Vec::new());
        }
        let mut base = self.cpus.clone();
        if base.is_empty() || self.whole_group {
            base.extend(allowed.iter().filter(|c| !self.cpus.contains(c)));
        }
        if let Some(c) = base.iter().find(|c| !allowed.contains(c)) {
            let why =
                format!("CPU {c} is not one this process may run on ({})", crate::workload::cpus::cpu_ranges(allowed));
            return Err(unsupported(&self.list_arg, &why));
        }
        // A pass takes one CPU of each core (-ac) or every CPU once.
        let mut passes: Vec<Vec<u32>> = Vec::new();
        if self.core_aware {
            let mut seen: Vec<(u32, usize)> = Vec::new();
            for &c in &base {
                let core = core_of(c);
                let k = match seen.iter_mut().find(|(k, _)| *k == core) {
                    Some(e) => {
                        e.1 += 1;
                        e.1
                    }
                    None => {
                        seen.push((core, 0));
                        0
                    }
                };
                if passes.len() <= k {
                    passes.push(Vec::new());
                }
                passes[k].push(c);
            }
        } else {
            passes.push(base);
        }
        let split = |p: &[u32], e: bool| p.iter().copied().filter(|&c| efficient(c) == e).collect::<Vec<_>>();
        Ok(match self.pe {
            PeOrder::Unordered => passes.concat(),
            PeOrder::PFirst => passes.iter().flat_map(|p| [split(p, false), split(p, true)].concat()).collect(),
            PeOrder::EFirst => passes.iter().flat_map(|p| [split(p, true), split(p, false)].concat()).collect(),
            PeOrder::FillPFirst => [split(&passes.concat(), false), split(&passes.concat(), true)].concat(),
            PeOrder::FillEFirst => [split(&passes.concat(), true), split(&passes.concat(), false)].concat(),
        })
    }
}
