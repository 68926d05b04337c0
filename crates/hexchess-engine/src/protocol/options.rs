//! Every engine option in one table: its name, its type with default and bounds, and
//! what it changes. `uci` prints the table; `setoption` looks names up in it and
//! applies the value through the option's [`Effect`].

use std::fmt;

use crate::eval::{EvalMode, EvalTerms, EvalWeights};
use crate::{MAX_MULTI_PV, MAX_THREADS, SearchOptions, Skill, Techniques};

/// `UCI_Elo`'s default: level 6 (1,496) rounded, a club beginner's strength.
pub const DEFAULT_ELO: u32 = 1500;

/// The largest hash table accepted, in megabytes.
pub const MAX_HASH_MB: usize = 16 * 1024;

/// An option's type, default and bounds, as `uci` announces them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// A whole number within bounds.
    Spin {
        /// Its value until set.
        default: i64,
        /// The least it may be.
        min: i64,
        /// The most it may be.
        max: i64,
    },
    /// On or off.
    Check {
        /// Its value until set.
        default: bool,
    },
    /// One of several words; `vars` empty means the engine fills them in (the variants).
    Combo {
        /// Its value until set.
        default: String,
        /// The words it may be.
        vars: Vec<String>,
    },
    /// Any text (a folder, a list of weights).
    String {
        /// Its value until set.
        default: String,
    },
    /// An action, not a setting (`setoption name Clear Hash`).
    Button,
}

/// What setting an option changes.
#[derive(Clone, Copy, Debug)]
pub enum Effect {
    /// The variant played (engine state, not a search option).
    Variant,
    /// The folder endgame tables are read from (engine state).
    TablebasePath,
    /// Whether the search reads endgame tables (engine state).
    UseTablebases,
    /// How games of more sides are searched (engine state).
    MultiSearch,
    /// Forget what earlier searches stored and learned (an action).
    ClearHash,
    /// Extra folders of variant files (engine state).
    VariantPath,
    /// Whether the GUI may ponder (the engine always can).
    Ponder,
    /// Whether scores come with win/draw/loss chances (engine state).
    ShowWdl,
    /// Play at the level `UCI_Elo` names instead of `Skill` (engine state).
    LimitStrength,
    /// The strength asked for while it is limited, on the levels' Elo scale.
    Elo,
    /// The hash table's size.
    Hash,
    /// Threads searching together.
    Threads,
    /// Best lines searched and reported.
    MultiPv,
    /// The strength level.
    Skill,
    /// Null move, reductions and futility together.
    Pruning,
    /// One search technique.
    Technique(TechniqueField),
    /// Full or material-only evaluation.
    Eval,
    /// One term of the full evaluation.
    Term(EvalTerms),
    /// A depth the search never exceeds.
    MaxDepth,
    /// The evaluation's weights, all at once.
    Weights,
}

/// One engine option.
#[derive(Clone, Debug)]
pub struct EngineOption {
    /// Its name, as `setoption name` takes it.
    pub name: &'static str,
    /// Its type, default and bounds.
    pub kind: OptionType,
    /// What it changes, in a few words (for docs and `--help`).
    pub doc: &'static str,
    /// What setting it changes.
    pub effect: Effect,
}

impl EngineOption {
    /// The `option name ...` line `uci` prints for it.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match &self.kind {
            OptionType::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionType::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionType::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionType::String { default } => {
                format!("option name {name} type string default {default}")
            }
            OptionType::Button => format!("option name {name} type button"),
        }
    }
}

/// Where a technique's switch is in [`Techniques`].
pub type TechniqueField = fn(&mut Techniques) -> &mut bool;

/// The search techniques that can be switched one by one, by option name.
const TECHNIQUES: [(&str, TechniqueField); 5] = [
    ("NullMove", |t| &mut t.null_move),
    ("Reductions", |t| &mut t.reductions),
    ("Futility", |t| &mut t.futility),
    ("CheckExtension", |t| &mut t.check_extension),
    ("Aspiration", |t| &mut t.aspiration),
];

/// Every option, in the order `uci` lists them. `variant` is the variant played and
/// `variants` every one the engine knows.
pub fn table(variant: &str, variants: &[&str]) -> Vec<EngineOption> {
    let defaults = SearchOptions::default();
    let spin = |default: usize, min: usize, max: usize| OptionType::Spin {
        default: default as i64,
        min: min as i64,
        max: max as i64,
    };
    let check = OptionType::Check { default: true };
    let mut options = vec![
        EngineOption {
            name: "UCI_Variant",
            kind: OptionType::Combo {
                default: variant.to_string(),
                vars: variants.iter().map(|v| v.to_string()).collect(),
            },
            doc: "the variant played; the position goes back to its start",
            effect: Effect::Variant,
        },
        EngineOption {
            name: "MultiSearch",
            kind: OptionType::Combo {
                default: crate::multi::Strategy::Paranoid.name().to_string(),
                vars: crate::multi::Strategy::ALL
                    .iter()
                    .map(|s| s.name().to_string())
                    .collect(),
            },
            doc: "how games of more than two sides are searched: paranoid (the strongest in the round robin), brs, maxn, random",
            effect: Effect::MultiSearch,
        },
        EngineOption {
            name: "Hash",
            kind: spin(defaults.hash_mb, 1, MAX_HASH_MB),
            doc: "transposition table size in megabytes",
            effect: Effect::Hash,
        },
        EngineOption {
            name: "Clear Hash",
            kind: OptionType::Button,
            doc: "empties the transposition table and what the search learned (history, killers), as ucinewgame does, keeping the position",
            effect: Effect::ClearHash,
        },
        EngineOption {
            name: "Threads",
            kind: spin(defaults.threads, 1, MAX_THREADS),
            doc: "threads searching together (full strength only)",
            effect: Effect::Threads,
        },
        EngineOption {
            name: "MultiPV",
            kind: spin(defaults.multi_pv, 1, MAX_MULTI_PV),
            doc: "best lines searched and reported (full strength only)",
            effect: Effect::MultiPv,
        },
        EngineOption {
            name: "Skill",
            kind: OptionType::Spin {
                default: i64::from(defaults.skill.level()),
                min: i64::from(Skill::MIN.level()),
                max: i64::from(Skill::FULL.level()),
            },
            doc: "strength level, 1 (beginner) to 20 (full strength)",
            effect: Effect::Skill,
        },
        EngineOption {
            name: "Skill Level",
            kind: OptionType::Spin {
                default: i64::from(defaults.skill.level()),
                min: i64::from(Skill::MIN.level()),
                max: i64::from(Skill::FULL.level()),
            },
            doc: "the same as Skill, under the name other engines give it",
            effect: Effect::Skill,
        },
        EngineOption {
            name: "UCI_LimitStrength",
            kind: OptionType::Check { default: false },
            doc: "play at the strength UCI_Elo asks for (the strongest level not above it) instead of the Skill level",
            effect: Effect::LimitStrength,
        },
        EngineOption {
            name: "UCI_Elo",
            kind: OptionType::Spin {
                default: i64::from(DEFAULT_ELO),
                min: i64::from(Skill::MIN.elo()),
                max: i64::from(Skill::FULL.elo()),
            },
            doc: "the strength asked for with UCI_LimitStrength, on the levels' self-play Elo scale (docs/strength.md)",
            effect: Effect::Elo,
        },
        EngineOption {
            name: "UCI_ShowWDL",
            kind: OptionType::Check { default: false },
            doc: "each score also as chances of a win, draw and loss in permille (wdl W D L)",
            effect: Effect::ShowWdl,
        },
        EngineOption {
            name: "Ponder",
            kind: OptionType::Check { default: false },
            doc: "lets a GUI think on the opponent's time (go ponder, ponderhit); the engine needs nothing else",
            effect: Effect::Ponder,
        },
        EngineOption {
            name: "Pruning",
            kind: check.clone(),
            doc: "null move, reductions and futility pruning together",
            effect: Effect::Pruning,
        },
    ];
    options.extend(TECHNIQUES.iter().map(|&(name, field)| EngineOption {
        name,
        kind: check.clone(),
        doc: "one search technique, for matches without it",
        effect: Effect::Technique(field),
    }));
    options.push(EngineOption {
        name: "Eval",
        kind: OptionType::Combo {
            default: "Full".into(),
            vars: vec!["Full".into(), "Material".into()],
        },
        doc: "the full evaluation or material only",
        effect: Effect::Eval,
    });
    options.extend(EvalTerms::NAMED.iter().map(|&(name, term)| EngineOption {
        name,
        kind: check.clone(),
        doc: "one term of the full evaluation, for matches without it",
        effect: Effect::Term(term),
    }));
    options.push(EngineOption {
        name: "Tablebases",
        kind: check.clone(),
        doc: "read endgame tables (tb generate) in endings they hold",
        effect: Effect::UseTablebases,
    });
    options.push(EngineOption {
        name: "TablebasePath",
        kind: OptionType::String {
            default: "<empty>".into(),
        },
        doc: "the folder of endgame tables (<empty>: the per-user data folder's tables)",
        effect: Effect::TablebasePath,
    });
    options.push(EngineOption {
        name: "VariantPath",
        kind: OptionType::String {
            default: "<empty>".into(),
        },
        doc: "more folders of variant files, separated by ':' (';' on Windows); their variants join UCI_Variant's list",
        effect: Effect::VariantPath,
    });
    options.push(EngineOption {
        name: "MaxDepth",
        kind: spin(0, 0, 127),
        doc: "a depth the search never exceeds (0: no limit)",
        effect: Effect::MaxDepth,
    });
    options.push(EngineOption {
        name: "EvalWeights",
        kind: OptionType::String {
            default: EvalWeights::default().to_string(),
        },
        doc: "the evaluation's weights in RON, each -1000 to 1000; those left out keep their defaults",
        effect: Effect::Weights,
    });
    options
}

/// The option called `name` (in any case).
pub fn find<'a>(table: &'a [EngineOption], name: &str) -> Option<&'a EngineOption> {
    table.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The value does not fit the option: what was expected.
    BadValue(String),
    /// The value was read but refused, for this reason.
    Refused(String),
    /// An evaluation term while the evaluation is material only.
    NeedsFullEval,
}

impl OptionError {
    /// The message for a value given to the option called `name` (as typed).
    pub fn message(&self, name: &str, value: &str) -> String {
        match self {
            OptionError::BadValue(what) => format!("bad value '{value}' for {name}: {what}"),
            OptionError::Refused(why) => format!("{name}: {why}"),
            OptionError::NeedsFullEval => {
                format!("{name} is a term of the full evaluation; set Eval to Full first")
            }
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message("option", "?"))
    }
}

/// A check option's value.
pub(super) fn parse_check(value: &str) -> Result<bool, OptionError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::BadValue("expected true or false".into())),
    }
}

/// `UCI_Elo`'s value: within the levels' scale.
pub(super) fn parse_elo(value: &str) -> Result<u32, OptionError> {
    let (min, max) = (Skill::MIN.elo(), Skill::FULL.elo());
    parse_within(value, min as usize, max as usize).map(|e| e as u32)
}

/// A whole number within `min..=max`.
fn parse_within(value: &str, min: usize, max: usize) -> Result<usize, OptionError> {
    match value.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(OptionError::BadValue(format!("expected {min} to {max}"))),
    }
}

/// Applies `value` to `options` as `effect` says ([`Effect::Variant`] is the engine's
/// to apply). On error `options` is unchanged.
pub fn apply(effect: Effect, value: &str, options: &mut SearchOptions) -> Result<(), OptionError> {
    match effect {
        Effect::Variant
        | Effect::TablebasePath
        | Effect::UseTablebases
        | Effect::MultiSearch
        | Effect::ClearHash
        | Effect::VariantPath
        | Effect::Ponder
        | Effect::ShowWdl
        | Effect::LimitStrength
        | Effect::Elo => {}
        Effect::Hash => options.hash_mb = parse_within(value, 1, MAX_HASH_MB)?,
        Effect::Threads => options.threads = parse_within(value, 1, MAX_THREADS)?,
        Effect::MultiPv => options.multi_pv = parse_within(value, 1, MAX_MULTI_PV)?,
        Effect::Skill => {
            options.skill = value
                .parse::<Skill>()
                .map_err(|e| OptionError::Refused(e.to_string()))?
        }
        Effect::Pruning => options.techniques.set_pruning(parse_check(value)?),
        Effect::Technique(field) => *field(&mut options.techniques) = parse_check(value)?,
        Effect::Eval => {
            options.eval = match value.to_ascii_lowercase().as_str() {
                "full" => EvalMode::FULL,
                "material" => EvalMode::Material,
                _ => return Err(OptionError::BadValue("expected Full or Material".into())),
            }
        }
        Effect::Term(term) => {
            let on = parse_check(value)?;
            let EvalMode::Terms(terms) = options.eval else {
                return Err(OptionError::NeedsFullEval);
            };
            options.eval = EvalMode::Terms(if on {
                terms.with(term)
            } else {
                terms.without(term)
            });
        }
        Effect::MaxDepth => {
            options.max_depth = match value.parse::<u32>() {
                Ok(0) => None,
                Ok(d) if d < 128 => Some(d),
                _ => return Err(OptionError::BadValue("expected 0 (no limit) to 127".into())),
            }
        }
        Effect::Weights => {
            let weights = ron::from_str::<EvalWeights>(value).map_err(|e| {
                OptionError::BadValue(format!(
                    "{e} (expected for example {})",
                    EvalWeights::default()
                ))
            })?;
            weights
                .check()
                .map_err(|e| OptionError::Refused(e.to_string()))?;
            options.weights = weights;
        }
    }
    Ok(())
}
