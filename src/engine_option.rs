//! An engine option's type and value as every protocol dialect shares them, and the options a
//! game declares of its own ([`crate::game::Dialect::options`]).
//!
//! The protocol's option table (`protocol/options.rs`) holds one entry per option: its name,
//! its [`OptionKind`] (type, default, range), its handler, and the dialects and games that offer
//! it. A value sent by any dialect is checked here, once, by [`OptionKind::parse`]; UCI's
//! `option name …` line and XBoard's `feature option="…"` are written from the same kind.

use std::any::Any;
use std::sync::Arc;

use crate::text::shorten;

/// How a text option is shown to XBoard (UCI shows all three as `string`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextForm {
    Plain,
    /// A file name (`-file`: XBoard offers a file browser).
    File,
    /// A directory (`-path`).
    Path,
}

/// An option's type with its default and range.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionKind {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        choices: Vec<&'static str>,
    },
    Button,
    Text {
        default: &'static str,
        form: TextForm,
    },
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    /// A text, or a combo's choice as the option spells it.
    Text(String),
    /// A button pressed.
    Press,
}

impl OptionValue {
    /// The number of a spin (0 for other values, which a spin's handler never receives).
    pub fn int(&self) -> i64 {
        match self {
            OptionValue::Int(n) => *n,
            _ => 0,
        }
    }

    /// The state of a check (false for other values).
    pub fn on(&self) -> bool {
        matches!(self, OptionValue::Bool(true))
    }

    /// The text of a text or combo option ("" for other values).
    pub fn text(&self) -> &str {
        match self {
            OptionValue::Text(t) => t,
            _ => "",
        }
    }
}

/// Why a value does not fit an option's kind, by kind, shown as the sentence a user reads.
/// The protocol's `setoption` error wraps it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// No value for an option that needs one.
    #[error("option {name} needs a value")]
    Missing { name: String },
    /// A spin's value that is not a whole number.
    #[error("option {name} takes a number from {min} to {max}")]
    NotANumber { name: String, min: i64, max: i64 },
    /// A spin's number outside its range.
    #[error("option {name} takes a number from {min} to {max}")]
    OutOfRange {
        name: String,
        value: i64,
        min: i64,
        max: i64,
    },
    /// A check's value that is none of `true`, `false`, `1`, `0`.
    #[error("option {name} takes true or false")]
    NotABool { name: String },
    /// A combo's value that is none of its choices.
    #[error("unknown {name} '{}': one of {}", shorten(.value), .choices.join(" "))]
    NotAChoice {
        name: String,
        value: String,
        choices: Vec<&'static str>,
    },
}

impl OptionKind {
    /// Checks `value` (as sent, `None` when there is none) against this kind for option
    /// `name`: the value, or the [`ValueError`] that says what the option takes. Checks take
    /// `true`, `false`, `1` or `0` in any case; combos any case of a choice; a text may be
    /// empty.
    pub fn parse(&self, name: &str, value: Option<&str>) -> Result<OptionValue, ValueError> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let name = name.to_string();
        match self {
            OptionKind::Button => Ok(OptionValue::Press),
            OptionKind::Spin { min, max, .. } => {
                let (min, max) = (*min, *max);
                let text = value.ok_or_else(|| ValueError::Missing { name: name.clone() })?;
                match text.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Int(n)),
                    Ok(value) => Err(ValueError::OutOfRange {
                        name,
                        value,
                        min,
                        max,
                    }),
                    Err(_) => Err(ValueError::NotANumber { name, min, max }),
                }
            }
            OptionKind::Check { .. } => {
                let text = value.ok_or_else(|| ValueError::Missing { name: name.clone() })?;
                match text.to_ascii_lowercase().as_str() {
                    "true" | "1" => Ok(OptionValue::Bool(true)),
                    "false" | "0" => Ok(OptionValue::Bool(false)),
                    _ => Err(ValueError::NotABool { name }),
                }
            }
            OptionKind::Combo { choices, .. } => {
                let v = value.unwrap_or("");
                choices
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(v))
                    .map(|c| OptionValue::Text(c.to_string()))
                    .ok_or_else(|| ValueError::NotAChoice {
                        name,
                        value: v.to_string(),
                        choices: choices.clone(),
                    })
            }
            OptionKind::Text { .. } => Ok(OptionValue::Text(value.unwrap_or("").to_string())),
        }
    }
}

/// The values of a game's own settings in one session (its network, its evaluation switch,
/// its endgame tables' limit), of types only the game knows
/// ([`crate::game::Dialect::settings`]), at most one value of each type; the protocol holds
/// them without naming the game. Empty (the default): the process's own settings, as every
/// user outside a protocol session (bench, the web, matches) has them. Cloning shares the
/// values; a change makes a new one.
#[derive(Clone, Default)]
pub struct GameSettings(Vec<Arc<dyn Any + Send + Sync>>);

impl GameSettings {
    /// Settings holding `value`.
    pub fn new<T: Any + Send + Sync>(value: T) -> GameSettings {
        GameSettings(vec![Arc::new(value)])
    }

    /// These settings with `value` in place of the `T` they held, or beside the others.
    pub fn with<T: Any + Send + Sync>(mut self, value: T) -> GameSettings {
        self.set(value);
        self
    }

    /// Puts `value` in place of the `T` these settings held, or beside the others.
    pub fn set<T: Any + Send + Sync>(&mut self, value: T) {
        let value: Arc<dyn Any + Send + Sync> = Arc::new(value);
        match self.0.iter_mut().find(|v| (***v).is::<T>()) {
            Some(old) => *old = value,
            None => self.0.push(value),
        }
    }

    /// The value, if these settings hold a `T`.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.iter().find_map(|v| (**v).downcast_ref::<T>())
    }

    /// Whether these are a session's own settings (not the process's).
    pub fn is_set(&self) -> bool {
        !self.0.is_empty()
    }
}

impl std::fmt::Debug for GameSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_set() {
            "GameSettings(session)"
        } else {
            "GameSettings(process)"
        })
    }
}

/// Memory the server shares out among its sessions (`--max-hash`): what a session's game
/// tables take of it besides its transposition table.
pub trait MemoryPool: Send + Sync {
    /// Takes `mb` MiB if that many are free (all or nothing).
    fn take(&self, mb: usize) -> bool;
    /// Gives back `mb` MiB taken before.
    fn give_back(&self, mb: usize);
}

/// MiB taken from a [`MemoryPool`], given back when dropped (with the last holder of what
/// they pay for).
pub struct Lease {
    pool: Arc<dyn MemoryPool>,
    mb: usize,
}

impl Lease {
    /// `mb` MiB of `pool`, or `None` when fewer are free.
    pub fn take(pool: &Arc<dyn MemoryPool>, mb: usize) -> Option<Lease> {
        pool.take(mb).then(|| Lease {
            pool: Arc::clone(pool),
            mb,
        })
    }

    /// The MiB held.
    pub fn mb(&self) -> usize {
        self.mb
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.pool.give_back(self.mb);
    }
}

/// Read-only sets (a game's endgame tables) that the sessions asking for the same key share:
/// one set per key while some session holds it, freed with its last holder. Sessions asking
/// with another key (another folder, say) get a set of their own.
pub struct SharedSets<K, V> {
    sets: std::sync::Mutex<Vec<(K, std::sync::Weak<V>)>>,
}

impl<K: PartialEq, V> SharedSets<K, V> {
    pub const fn new() -> Self {
        SharedSets {
            sets: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The set a session holds under `key`, or the one `make` makes, then kept under `key`
    /// (made under the lock: two sessions asking at once get one set). Returns the set and
    /// whether it is new.
    pub fn obtain<E>(
        &self,
        key: K,
        make: impl FnOnce() -> Result<Arc<V>, E>,
    ) -> Result<(Arc<V>, bool), E> {
        let mut sets = self.sets.lock().unwrap_or_else(|e| e.into_inner());
        sets.retain(|(_, set)| set.strong_count() > 0);
        if let Some(set) = sets
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, s)| s.upgrade())
        {
            return Ok((set, false));
        }
        let set = make()?;
        sets.push((key, Arc::downgrade(&set)));
        Ok((set, true))
    }
}

impl<K: PartialEq, V> Default for SharedSets<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

/// What a session may do on the machine that runs it: write files (a lone engine may, an
/// engine server's client may not) and take memory for the game's tables (from the server's
/// pool, `None`: no bound).
#[derive(Clone)]
pub struct Access {
    pub writes: bool,
    pub memory: Option<Arc<dyn MemoryPool>>,
}

impl Default for Access {
    /// A lone engine's: it writes, and its memory is its own.
    fn default() -> Self {
        Access {
            writes: true,
            memory: None,
        }
    }
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access")
            .field("writes", &self.writes)
            .field("memory", &self.memory.is_some())
            .finish()
    }
}

/// A game option's handler: applies a checked value to a session's settings (which it may
/// replace) and returns what to tell the user, if anything; an error changes nothing.
pub type SetGameOption = fn(&mut GameSettings, &OptionValue) -> Result<Option<String>, String>;

/// An option a game declares of its own (a network file, a switch of its evaluation): offered
/// by UCI and XBoard for that game only. `set` changes the session's [`GameSettings`], never
/// another session's.
#[derive(Clone, Debug)]
pub struct GameOption {
    pub name: &'static str,
    pub kind: OptionKind,
    pub set: SetGameOption,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each way a value can miss its kind keeps its own variant.
    #[test]
    fn a_bad_value_says_how_it_is_bad() {
        let spin = OptionKind::Spin {
            default: 1,
            min: 1,
            max: 8,
        };
        assert!(matches!(
            spin.parse("Threads", Some("9")),
            Err(ValueError::OutOfRange {
                value: 9,
                min: 1,
                max: 8,
                ..
            })
        ));
        assert!(matches!(
            spin.parse("Threads", Some("many")),
            Err(ValueError::NotANumber { .. })
        ));
        assert!(matches!(
            spin.parse("Threads", Some(" ")),
            Err(ValueError::Missing { .. })
        ));
        let check = OptionKind::Check { default: true };
        assert!(matches!(
            check.parse("Ponder", Some("yes")),
            Err(ValueError::NotABool { .. })
        ));
        let combo = OptionKind::Combo {
            default: "a",
            choices: vec!["a", "b"],
        };
        assert!(matches!(
            combo.parse("Style", Some("c")),
            Err(ValueError::NotAChoice { value, .. }) if value == "c"
        ));
    }

    #[test]
    fn values_are_checked_against_the_kind() {
        let spin = OptionKind::Spin {
            default: 16,
            min: 1,
            max: 64,
        };
        assert_eq!(spin.parse("Hash", Some(" 8 ")), Ok(OptionValue::Int(8)));
        let text = |r: Result<OptionValue, ValueError>| r.unwrap_err().to_string();
        assert_eq!(
            text(spin.parse("Hash", Some("0"))),
            "option Hash takes a number from 1 to 64"
        );
        assert_eq!(
            text(spin.parse("Hash", Some("x"))),
            "option Hash takes a number from 1 to 64"
        );
        assert_eq!(text(spin.parse("Hash", None)), "option Hash needs a value");
        let check = OptionKind::Check { default: false };
        assert_eq!(check.parse("P", Some("TRUE")), Ok(OptionValue::Bool(true)));
        assert_eq!(check.parse("P", Some("0")), Ok(OptionValue::Bool(false)));
        assert!(check.parse("P", Some("yes")).is_err());
        let combo = OptionKind::Combo {
            default: "a",
            choices: vec!["a", "Bee"],
        };
        assert_eq!(
            combo.parse("Style", Some("bee")),
            Ok(OptionValue::Text("Bee".into()))
        );
        assert_eq!(
            text(combo.parse("Style", Some("c\u{1}"))),
            "unknown Style 'c?': one of a Bee"
        );
        let text = OptionKind::Text {
            default: "<empty>",
            form: TextForm::File,
        };
        assert_eq!(text.parse("F", None), Ok(OptionValue::Text(String::new())));
        assert_eq!(
            OptionKind::Button.parse("B", Some("x")),
            Ok(OptionValue::Press)
        );
    }
}
