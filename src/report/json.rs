use crate::result::RunResult;

pub fn render(r: &RunResult) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("the result model always serializes");
    s.push('\n');
    s
}
