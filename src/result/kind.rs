//! What kind of result a result is: the command that measured it. The stored field stays the
//! command's name (`RunResult::command`), so results of any version read back; what decides
//! how a result is shown and analysed is this enum.

/// The command that produced a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Run,
    Sweep,
    Pattern,
    Replay,
    Cdm,
    Sqlio,
    Diskspd,
    Fio,
    Explain,
    Check,
    Simdb,
    /// A name this build does not know (a later version's command): shown as a plain run.
    Other,
}

const NAMES: [(Kind, &str); 11] = [
    (Kind::Run, "run"),
    (Kind::Sweep, "sweep"),
    (Kind::Pattern, "pattern"),
    (Kind::Replay, "replay"),
    (Kind::Cdm, "cdm"),
    (Kind::Sqlio, "sqlio"),
    (Kind::Diskspd, "diskspd"),
    (Kind::Fio, "fio"),
    (Kind::Explain, "explain"),
    (Kind::Check, "check"),
    (Kind::Simdb, "simdb"),
];

impl Kind {
    /// The kind a stored command name stands for.
    pub fn of(command: &str) -> Kind {
        NAMES.iter().find(|(_, n)| *n == command).map_or(Kind::Other, |(k, _)| *k)
    }

    /// The command's name, as results store it; "other" for `Other`, which no command is.
    pub fn name(self) -> &'static str {
        NAMES.iter().find(|(k, _)| *k == self).map_or("other", |(_, n)| n)
    }

    /// `explain` and `check`: a sweep with the walls, catalog matches and advice found in it.
    pub fn is_analysis(self) -> bool {
        matches!(self, Kind::Explain | Kind::Check)
    }
}

impl super::RunResult {
    /// What kind of result this is, from the command that measured it.
    pub fn kind(&self) -> Kind {
        Kind::of(&self.command)
    }
}

#[cfg(test)]
mod tests;
