//! fio's `steadystate` object in a job of its JSON.

use super::{obj, V};
use crate::result::TestResult;

/// fio's `steadystate` object: the check, whether it was met, and the window it judged.
pub(super) fn steady(t: &TestResult) -> Option<V> {
    let (ss, out) = (t.spec.steady.as_ref()?, t.steady.as_ref()?);
    let mean = |v: &[u64]| if v.is_empty() { 0 } else { v.iter().sum::<u64>() / v.len() as u64 };
    let list = |v: &[u64]| V::A(v.iter().map(|&x| V::U(x)).collect());
    Some(obj([
        ("ss", V::S(ss.name())),
        ("duration", V::U(ss.dur.into())),
        ("attained", V::U(out.attained.into())),
        ("criterion", V::S(format!("{:.6}{}", out.criterion as f32, if ss.pct { "%" } else { "" }))),
        ("max_deviation", V::F(out.max_deviation)),
        ("slope", V::F(out.slope)),
        (
            "data",
            obj([
                ("bw_mean", V::U(mean(&out.bw))),
                ("iops_mean", V::U(mean(&out.iops))),
                ("iops", list(&out.iops)),
                ("bw", list(&out.bw)),
            ]),
        ),
    ]))
}
