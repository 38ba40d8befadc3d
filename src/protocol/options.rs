//! Engine options that UCI and XBoard share beyond the basic ones: the endgame tablebases
//! (`SyzygyPath`, `SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`, for games with
//! tables) and the strength levels (`UCI_LimitStrength`, `UCI_Elo` for games whose Elo scale
//! is calibrated, `Skill Level` for every game; [`crate::search::strength`]). Each protocol
//! declares them from here and hands every `setoption`/`option` to the same `set`.

use vampirc_uci::UciOptionConfig;

use crate::game::{Game, TableBuilds};
use crate::rng::Rng;
use crate::search::strength::{FULL_ELO, MAX_SKILL, MIN_ELO, Strength};
use crate::search::{MAX_SOLVER_SHARE, TbConfig};

/// Endgame tablebases: Stockfish's four options and defaults.
pub(crate) fn tablebase_options() -> [UciOptionConfig; 4] {
    [
        UciOptionConfig::String {
            name: "SyzygyPath".into(),
            default: Some("<empty>".into()),
        },
        UciOptionConfig::Spin {
            name: "SyzygyProbeDepth".into(),
            default: Some(1),
            min: Some(1),
            max: Some(100),
        },
        UciOptionConfig::Check {
            name: "Syzygy50MoveRule".into(),
            default: Some(true),
        },
        UciOptionConfig::Spin {
            name: "SyzygyProbeLimit".into(),
            default: Some(7),
            min: Some(0),
            max: Some(7),
        },
    ]
}

/// The tablebase options' state: the pieces the loaded tables cover and the `Syzygy…` values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tablebase {
    largest: u32,
    limit: u32,
    config: TbConfig,
}

impl Default for Tablebase {
    fn default() -> Self {
        Tablebase {
            largest: 0,
            limit: 7,
            config: TbConfig {
                max_pieces: 0,
                probe_depth: 1,
                rule50: true,
            },
        }
    }
}

impl Tablebase {
    /// What the search gets: probing up to the smaller of the limit and the tables.
    pub(crate) fn search_config(&self) -> TbConfig {
        TbConfig {
            max_pieces: self.largest.min(self.limit),
            ..self.config
        }
    }

    /// Handles a `Syzygy…` option (lower-case `name`): what to tell the user (may be empty), or
    /// the error; `None` if it is none of them.
    pub(crate) fn set<G: Game>(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Option<Result<String, String>> {
        let number = |lo: u32, hi: u32| match value.map(str::parse::<u32>) {
            Some(Ok(n)) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(format!(
                "option {name}: the value must be a number from {lo} to {hi}"
            )),
        };
        Some(match name {
            "syzygypath" => G::tb_load(value.unwrap_or("")).map(|n| {
                self.largest = n;
                format!("Syzygy tables for up to {n} pieces")
            }),
            "syzygyprobedepth" => number(1, 100).map(|n| {
                self.config.probe_depth = n;
                String::new()
            }),
            "syzygyprobelimit" => number(0, 7).map(|n| {
                self.limit = n;
                String::new()
            }),
            "syzygy50moverule" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some(v @ ("true" | "false")) => {
                    self.config.rule50 = v == "true";
                    Ok(String::new())
                }
                _ => Err("option Syzygy50MoveRule: the value must be true or false".into()),
            },
            _ => return None,
        })
    }
}

/// The share of a move's time, in percent, the game's solver may take before the search.
pub const SOLVER_SHARE: &str = "Solver Share";

/// `Solver Share` for a session whose searches have an oracle ([`crate::search::oracle`]),
/// with the game's default ([`Game::SOLVER_SHARE`]).
pub(crate) fn solver_options<G: Game>(has_oracle: bool) -> Vec<UciOptionConfig> {
    if !has_oracle {
        return Vec::new();
    }
    vec![UciOptionConfig::Spin {
        name: SOLVER_SHARE.into(),
        default: Some(i64::from(G::SOLVER_SHARE)),
        min: Some(0),
        max: Some(i64::from(MAX_SOLVER_SHARE)),
    }]
}

/// Handles `Solver Share` (any case): the new share or the error; `None` if `name` is
/// another option or the session has no oracle.
pub(crate) fn set_solver_share(
    name: &str,
    value: Option<&str>,
    has_oracle: bool,
) -> Option<Result<u32, String>> {
    if !name.eq_ignore_ascii_case(SOLVER_SHARE) || !has_oracle {
        return None;
    }
    let value = value.map(str::trim).unwrap_or("");
    Some(match value.parse::<u32>() {
        Ok(n) if n <= MAX_SOLVER_SHARE => Ok(n),
        _ => Err(format!(
            "option {SOLVER_SHARE}: '{}' is not a number from 0 to {MAX_SOLVER_SHARE}",
            super::shorten(value)
        )),
    })
}

/// The game's endgame tables built in memory and probed by the search ([`Game::use_tables`]).
pub const ENDGAME_TABLES: &str = "Endgame Tables";

/// The directory of the endgame tables' files ([`Game::tables_dir`]).
pub const ENDGAME_TABLES_PATH: &str = "Endgame Tables Path";

/// `Endgame Tables` (0 to [`Game::SOLVED_TABLES`] pieces) for a game that has such tables.
pub(crate) fn endgame_table_options<G: Game>() -> Vec<UciOptionConfig> {
    if G::SOLVED_TABLES == 0 {
        return Vec::new();
    }
    vec![
        UciOptionConfig::Spin {
            name: ENDGAME_TABLES.into(),
            default: Some(0),
            min: Some(0),
            max: Some(i64::from(G::SOLVED_TABLES)),
        },
        UciOptionConfig::String {
            name: ENDGAME_TABLES_PATH.into(),
            default: Some("<empty>".into()),
        },
    ]
}

/// Handles `Endgame Tables` (any case): builds the tables the first time (seconds) and
/// probes positions of at most that many pieces; and `Endgame Tables Path`, the directory of
/// their files; the line to say or the error. `None` if
/// `name` is another option or the game has no tables.
pub(crate) fn set_endgame_tables<G: Game>(
    name: &str,
    value: Option<&str>,
) -> Option<Result<String, String>> {
    if G::SOLVED_TABLES == 0 {
        return None;
    }
    if name.eq_ignore_ascii_case(ENDGAME_TABLES_PATH) {
        return Some(G::tables_dir(value.unwrap_or("")));
    }
    if !name.eq_ignore_ascii_case(ENDGAME_TABLES) {
        return None;
    }
    let value = value.map(str::trim).unwrap_or("");
    Some(match value.parse::<u32>() {
        Ok(n) if n <= G::SOLVED_TABLES => G::use_tables(n, TableBuilds::Background),
        _ => Err(format!(
            "option {ENDGAME_TABLES}: '{}' is not a number from 0 to {}",
            super::shorten(value),
            G::SOLVED_TABLES
        )),
    })
}

pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const UCI_ELO: &str = "UCI_Elo";
pub const SKILL_LEVEL: &str = "Skill Level";

/// The strength options of one session and the random choices of its levels.
#[derive(Clone, Debug)]
pub(crate) struct StrengthOptions {
    limit: bool,
    elo: u32,
    skill: u32,
    rng: Rng,
}

impl Default for StrengthOptions {
    fn default() -> Self {
        StrengthOptions::with_rng(Rng::from_time())
    }
}

impl StrengthOptions {
    /// Full strength (the options' defaults), the choices of later levels drawn from `rng`.
    pub(crate) fn with_rng(rng: Rng) -> StrengthOptions {
        StrengthOptions {
            limit: false,
            elo: MIN_ELO,
            skill: MAX_SKILL,
            rng,
        }
    }

    /// The declarations: `Skill Level` for every game, `UCI_LimitStrength` and `UCI_Elo` for
    /// games whose Elo numbers are calibrated ([`Game::CALIBRATED_ELO`]).
    pub(crate) fn declarations<G: Game>() -> Vec<UciOptionConfig> {
        let mut options = Vec::new();
        if G::CALIBRATED_ELO {
            options.push(UciOptionConfig::Check {
                name: LIMIT_STRENGTH.into(),
                default: Some(false),
            });
            options.push(UciOptionConfig::Spin {
                name: UCI_ELO.into(),
                default: Some(i64::from(MIN_ELO)),
                min: Some(i64::from(MIN_ELO)),
                max: Some(i64::from(FULL_ELO)),
            });
        }
        options.push(UciOptionConfig::Spin {
            name: SKILL_LEVEL.into(),
            default: Some(i64::from(MAX_SKILL)),
            min: Some(0),
            max: Some(i64::from(MAX_SKILL)),
        });
        options
    }

    /// Handles a strength option (any case); `None` if `name` is none of `G`'s. An error
    /// leaves the option as it was.
    pub(crate) fn set<G: Game>(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Option<Result<(), String>> {
        let value = value.map(str::trim).unwrap_or("");
        let number = |lo: u32, hi: u32| match value.parse::<u32>() {
            Ok(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(format!(
                "option {name}: '{}' is not a number from {lo} to {hi}",
                super::shorten(value)
            )),
        };
        let name = name.to_ascii_lowercase();
        Some(match name.as_str() {
            "uci_limitstrength" if G::CALIBRATED_ELO => match value.to_ascii_lowercase().as_str() {
                on @ ("true" | "1" | "false" | "0") => {
                    self.limit = matches!(on, "true" | "1");
                    Ok(())
                }
                _ => Err(format!(
                    "option {LIMIT_STRENGTH}: the value must be true or false"
                )),
            },
            "uci_elo" if G::CALIBRATED_ELO => number(MIN_ELO, FULL_ELO).map(|n| self.elo = n),
            "skill level" => number(0, MAX_SKILL).map(|n| self.skill = n),
            _ => return None,
        })
    }

    /// The level of the next search: `UCI_Elo` when `UCI_LimitStrength` is on, else `Skill
    /// Level` below its top; `None` at full strength. Each level draws its own seed.
    pub(crate) fn strength(&mut self) -> Option<Strength> {
        let rng = Rng::new(self.rng.next_u64());
        let level = if self.limit {
            Strength::from_elo(self.elo, rng)
        } else {
            Strength::from_skill(self.skill, rng)
        };
        level.limits().then_some(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;
    use crate::games::raeuber::Raeuber;

    #[test]
    fn uci_elo_only_where_calibrated_skill_everywhere() {
        let names =
            |o: Vec<UciOptionConfig>| -> Vec<String> { o.iter().map(|o| format!("{o}")).collect() };
        let chess = names(StrengthOptions::declarations::<Chess>());
        assert_eq!(chess.len(), 3, "{chess:?}");
        assert!(chess[1].contains("UCI_Elo type spin default 1350 min 1350 max"));
        let raeuber = names(StrengthOptions::declarations::<Raeuber>());
        assert_eq!(raeuber.len(), 1, "{raeuber:?}");
        let mut o = StrengthOptions::with_rng(Rng::new(1));
        assert!(o.set::<Raeuber>("UCI_Elo", Some("1500")).is_none());
        assert!(o.set::<Chess>("uci_elo", Some("1000")).unwrap().is_err());
        assert!(o.strength().is_none(), "full strength by default");
        o.set::<Chess>("UCI_Elo", Some("1500")).unwrap().unwrap();
        assert!(
            o.strength().is_none(),
            "UCI_Elo counts only with UCI_LimitStrength"
        );
        o.set::<Chess>("UCI_LimitStrength", Some("true"))
            .unwrap()
            .unwrap();
        assert_eq!(o.strength().unwrap().elo(), 1500);
        o.set::<Chess>("UCI_LimitStrength", Some("false"))
            .unwrap()
            .unwrap();
        o.set::<Chess>("Skill Level", Some("0")).unwrap().unwrap();
        assert_eq!(o.strength().unwrap().elo(), MIN_ELO);
        assert!(o.set::<Chess>("Skill Level", Some("21")).unwrap().is_err());
        assert_eq!(
            o.strength().unwrap().elo(),
            MIN_ELO,
            "an error leaves the option"
        );
    }
}
