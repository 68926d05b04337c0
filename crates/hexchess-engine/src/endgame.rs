//! Endgame tables in play: the tables a search may read, loaded from their folder for
//! the endings a position can reach, and what a table's value is worth to the search.
//!
//! With a table the search knows a small ending exactly: at the root it plays the move
//! that mates soonest (or, lost, is mated latest) without searching; inside the search
//! a position in a table ends its branch with the exact score, mate in N included (the
//! search turns values into its scores: `search::table_score`).
//!
//! Where the tables keep the move rule (a draw after so many plies without a capture or
//! pawn move), its result at the position's clock comes first: a win the rule spoils
//! (cursed) scores as a draw, and at the root the engine plays the soonest mate only
//! among the moves that still win within the rule, as engines probing Syzygy's
//! distance-to-zeroing tables do, so the clock never runs out on a won game.

use hexchess_files::Files;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hexchess_core::moves::Move;
use hexchess_core::position::Position;
use hexchess_core::{Kind, Rules, Side};
use hexchess_tablebase::{MAX_MEN, Material, RuleValue, Ruled, Table, Value, table_path};

/// A table's word on a position (or on a move, for the side that made it): its value by
/// mate, and its result under the move rule at the position's clock where the table
/// keeps the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableValue {
    /// The value with perfect play, the move rule aside.
    pub value: Value,
    /// The value under the move rule, where the table keeps it.
    pub rule: Option<Ruled>,
}

impl TableValue {
    /// This position's worth for the side that moved into it; `zeroing` when the move
    /// was a capture or a pawn move (it ends the rule's count itself).
    pub fn for_mover(self, zeroing: bool) -> TableValue {
        TableValue {
            value: self.value.for_mover(),
            rule: self.rule.map(|r| r.for_mover(zeroing)),
        }
    }

    /// Whether the move rule draws what the mate value calls won or lost.
    pub fn spoiled(self) -> bool {
        matches!(
            self.rule.map(|r| r.value),
            Some(RuleValue::CursedWin | RuleValue::BlessedLoss)
        )
    }

    /// The result by the rule, or by mate where the table keeps no rule.
    pub fn rule_value(self) -> RuleValue {
        self.rule.map_or(
            match self.value {
                Value::Win(_) => RuleValue::Win,
                Value::Loss(_) => RuleValue::Loss,
                _ => RuleValue::Draw,
            },
            |r| r.value,
        )
    }

    /// How good it is for the side to move, higher better: the rule's result first
    /// (a win within the rule over a cursed one over a draw), then the mate value's
    /// [`rank`] (the sooner mate among wins that keep within the rule).
    pub fn rank(self) -> (i32, (i32, i32)) {
        let by_rule = RuleValue::ALL
            .iter()
            .rev()
            .position(|r| *r == self.rule_value())
            .expect("one of the five") as i32;
        (by_rule, rank(self.value))
    }
}

/// The tables one search may probe, all of one variant.
#[derive(Default)]
pub struct Tablebases {
    tables: Vec<Arc<Table>>,
    /// The most men in any of them: positions with more are not looked up.
    max_men: u32,
}

impl Tablebases {
    /// No tables.
    pub fn none() -> Tablebases {
        Tablebases::default()
    }

    /// The tables given.
    pub fn new(tables: Vec<Arc<Table>>) -> Tablebases {
        let max_men = tables
            .iter()
            .map(|t| t.material().men() as u32)
            .max()
            .unwrap_or(0);
        Tablebases { tables, max_men }
    }

    /// Whether no table is loaded.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The table of exactly `material`, when loaded.
    pub fn table_of(&self, material: &Material) -> Option<Arc<Table>> {
        self.tables
            .iter()
            .find(|t| t.material() == material)
            .cloned()
    }

    /// How many tables are loaded.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// The value of `pos` for its side to move, when a table holds it.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        self.probe_full(pos).map(|t| t.value)
    }

    /// The value of `pos` and its result under the move rule at its clock, when a
    /// table holds it.
    #[inline]
    pub fn probe_full(&self, pos: &Position) -> Option<TableValue> {
        // Tables know no castling: a position that may still castle is not theirs.
        if pos.occupied().count() > self.max_men || pos.castling_rights() != 0 {
            return None;
        }
        if pos.can_capture_en_passant() {
            return self.best_move_value(pos);
        }
        self.tables.iter().find_map(|t| {
            let i = t.slot(pos)?;
            Some(TableValue {
                value: t.value_at(i),
                rule: t.rule_at(i, pos.halfmove_clock()),
            })
        })
    }

    /// A position the tables do not store (an en-passant capture is on: the tables
    /// keep each position without the right), read from its moves, as Syzygy's probes
    /// do: every move leads to a stored one.
    fn best_move_value(&self, pos: &Position) -> Option<TableValue> {
        self.rank_moves(pos)?.first().map(|(_, v)| *v)
    }

    /// Every legal move of `pos` with its worth for the side to move, best first (see
    /// [`TableValue::rank`]: within the move rule first, then mate soonest, stalemate
    /// soonest, a draw, stalemated or mated latest); `None` unless a table holds every
    /// position the moves lead to.
    pub fn rank_moves(&self, pos: &Position) -> Option<Vec<(Move, TableValue)>> {
        let mut ranked = Vec::new();
        for mv in pos.legal_moves() {
            // The tables need the position and its clock, not the game's history.
            let mut child = pos.without_history();
            child.make_move(mv);
            let zeroing = child.halfmove_clock() == 0;
            ranked.push((mv, self.probe_full(&child)?.for_mover(zeroing)));
        }
        ranked.sort_by_key(|(_, v)| std::cmp::Reverse(v.rank()));
        Some(ranked)
    }

    /// The line both sides play by the tables from `pos`, at most `plies` long.
    pub fn line(&self, pos: &Position, plies: usize) -> Vec<Move> {
        let mut pos = pos.without_history();
        let mut line = Vec::new();
        while line.len() < plies {
            let Some(&(mv, _)) = self.rank_moves(&pos).as_ref().and_then(|r| r.first()) else {
                break;
            };
            pos.make_move(mv);
            line.push(mv);
        }
        line
    }
}

/// How good a value is for the side to move: higher is better.
pub fn rank(v: Value) -> (i32, i32) {
    match v {
        Value::Win(d) => (4, -i32::from(d)),
        Value::StalemateWin(d) => (3, -i32::from(d)),
        Value::Draw | Value::DrawPerpetual => (2, 0),
        Value::StalemateLoss(d) => (1, i32::from(d)),
        Value::Loss(d) => (0, i32::from(d)),
    }
}

/// Tables read from a folder, kept between searches: each ending's file is read once
/// (or again when it changes), and a file that cannot be read is reported once.
pub struct TablebaseShelf {
    /// Where the files are: a disk, or a page's store.
    files: Files,
    /// By file: the table read and the file's modification time, or why it failed.
    read: HashMap<PathBuf, (Option<std::time::SystemTime>, Option<Arc<Table>>)>,
}

impl TablebaseShelf {
    /// Where its tables are read from.
    pub fn files(&self) -> &Files {
        &self.files
    }

    /// An empty shelf reading from `files`: no table read yet.
    pub fn new(files: Files) -> TablebaseShelf {
        TablebaseShelf {
            files,
            read: HashMap::new(),
        }
    }

    /// The tables under `dir` for every ending `pos` can reach by captures,
    /// with a message for each file that exists but cannot be used.
    pub fn for_position(&mut self, dir: &Path, pos: &Position) -> (Tablebases, Vec<String>) {
        // Past six men, reaching a four-man ending takes too many captures to matter
        // for this search, and the endings to look for grow fast.
        if pos.occupied().count() > 6 {
            return (Tablebases::none(), Vec::new());
        }
        self.load(dir, pos.rules_arc(), &reachable_endings(pos))
    }

    /// The tables under `dir` of `material` and every ending its captures reach.
    pub fn for_material(
        &mut self,
        dir: &Path,
        rules: &Arc<Rules>,
        material: &Material,
    ) -> (Tablebases, Vec<String>) {
        self.load(dir, rules, &material.endings_reached(rules))
    }

    fn load(
        &mut self,
        dir: &Path,
        rules: &Arc<Rules>,
        materials: &[Material],
    ) -> (Tablebases, Vec<String>) {
        let mut tables = Vec::new();
        let mut errors = Vec::new();
        for material in materials {
            let path = table_path(dir, rules, material);
            let Some(modified) = self.files.stamp(&path) else {
                continue;
            };
            let fresh = matches!(self.read.get(&path), Some((m, Some(t)))
                if *m == modified && Arc::ptr_eq(t.rules(), rules));
            let failed_before = matches!(self.read.get(&path), Some((m, None)) if *m == modified);
            if !fresh && !failed_before {
                let table = match Table::read(&self.files, &path, rules) {
                    Ok(t) if t.material() == material => Some(Arc::new(t)),
                    Ok(t) => {
                        errors.push(format!(
                            "{}: holds {}, not {}",
                            path.display(),
                            t.material().name(rules),
                            material.name(rules)
                        ));
                        None
                    }
                    Err(e) => {
                        errors.push(e.to_string());
                        None
                    }
                };
                self.read.insert(path.clone(), (modified, table));
            }
            if let Some((_, Some(t))) = self.read.get(&path) {
                tables.push(Arc::clone(t));
            }
        }
        (Tablebases::new(tables), errors)
    }
}

/// The endings of at most [`MAX_MEN`] men that `pos` is in
/// or can reach by captures (promotions aside).
fn reachable_endings(pos: &Position) -> Vec<Material> {
    let rules = pos.rules();
    let men = |side: Side| -> Vec<Kind> {
        let mut kinds: Vec<Kind> = pos
            .pieces()
            .filter(|(_, p)| p.side == side)
            .map(|(_, p)| p.kind)
            .collect();
        kinds.sort_by_key(|k| (!rules.is_royal(*k), rules.kind_info(*k).letter));
        kinds
    };
    let (white, black) = (men(Side::White), men(Side::Black));
    let mut out = Vec::new();
    for w in subsets_keeping_royal(&white, rules) {
        for b in subsets_keeping_royal(&black, rules) {
            if w.len() + b.len() > MAX_MEN {
                continue;
            }
            let m = Material {
                sides: [w.clone(), b.clone()],
            };
            let name = m.name(rules);
            if let Ok(m) = Material::parse(&name, rules)
                && !out.contains(&m)
            {
                out.push(m);
            }
        }
    }
    out
}

/// Every subset of `kinds` that keeps the royal man (first) and leaves room for the
/// other side's king (at most [`MAX_MEN`] - 2 others), without repeats.
fn subsets_keeping_royal(kinds: &[Kind], rules: &Rules) -> Vec<Vec<Kind>> {
    let Some((&royal, rest)) = kinds.split_first() else {
        return Vec::new();
    };
    if !rules.is_royal(royal) {
        return Vec::new();
    }
    let limit = (MAX_MEN - 2).min(rest.len());
    let mut out: Vec<Vec<Kind>> = Vec::new();
    // (next man of `rest` that may be added, the set so far)
    let mut stack: Vec<(usize, Vec<Kind>)> = vec![(0, vec![royal])];
    while let Some((from, set)) = stack.pop() {
        let mut sorted = set.clone();
        sorted[1..].sort();
        if !out.contains(&sorted) {
            out.push(sorted);
        }
        if set.len() - 1 < limit {
            for (j, &k) in rest.iter().enumerate().skip(from) {
                let mut next = set.clone();
                next.push(k);
                stack.push((j + 1, next));
            }
        }
    }
    out
}
