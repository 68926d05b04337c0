//! The move rule in the tables, checked by a second, simpler computation: the game
//! played with the clock as part of the position, counted back from the limit (at the
//! limit every position but a mate is drawn; one ply earlier a position is worth the
//! best of its moves' worth one ply later, or at zero for a capture or pawn move), with
//! the position's own move generator, not the table builder's. Its result at every
//! clock must be the table's, which says it with one distance per position.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod common;

use hexchess_core::catalog::compile_two_player as compile;
use hexchess_core::variant::parse_variant;
use hexchess_core::{Catalog, Position, Rules};
use hexchess_tablebase::{Material, RuleValue, Table, Value};

/// Mini Hexchess (Gliński's pawns, long first moves and promotions on 61 cells) with a
/// move rule of `plies`.
fn mini(plies: u16) -> Arc<Rules> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../variants/mini.ron");
    let text = std::fs::read_to_string(path).expect("variants/mini.ron");
    let text = text.replace(
        "    stalemate:",
        &format!("    draws: (move_rule_plies: {plies}),\n    stalemate:"),
    );
    let spec = parse_variant(&text, "mini.ron").unwrap_or_else(|e| panic!("{e}"));
    compile(spec, "mini.ron").unwrap_or_else(|e| panic!("{e}"))
}

fn tables(rules: &Arc<Rules>, names: &[&str]) -> HashMap<String, Table> {
    names
        .iter()
        .map(|n| {
            let m = Material::parse(n, rules).unwrap();
            let never = AtomicBool::new(false);
            let t = Table::generate_on(rules, &m, &mut |_| {}, &never, 2).unwrap();
            (n.to_string(), t)
        })
        .collect()
}

/// What the counting back can tell: won, lost, or neither (a draw under the rule, or a
/// stalemate, which the rule's values leave to the mate values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Lost,
    Held,
    Won,
}

impl Outcome {
    fn of(r: RuleValue) -> Outcome {
        match r {
            RuleValue::Win => Outcome::Won,
            RuleValue::Loss => Outcome::Lost,
            _ => Outcome::Held,
        }
    }

    fn flip(self) -> Outcome {
        match self {
            Outcome::Won => Outcome::Lost,
            Outcome::Lost => Outcome::Won,
            Outcome::Held => Outcome::Held,
        }
    }
}

/// One legal move as the counting back needs it.
enum Child {
    /// A quiet move: the slot it leads to in the same table.
    Quiet(usize),
    /// A capture or pawn move into a smaller table: its result there, the count at zero.
    Zeroed(Outcome),
    /// A pawn move within the table: the slot, read at a count of zero, and the other
    /// side's en-passant captures there (their outcomes for it), which the table does
    /// not hold.
    Advance(usize, Vec<Outcome>),
}

/// `pos` with the halfmove clock at `clock`.
fn at_clock(pos: &Position, clock: u16) -> Position {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let n = fields.len();
    let clock = clock.to_string();
    fields[n - 2] = &clock;
    Position::from_fen(Arc::clone(pos.rules_arc()), &fields.join(" ")).expect("same FEN")
}

/// `pos` without its en-passant right.
fn without_en_passant(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    fields[2] = "-";
    Position::from_fen(Arc::clone(pos.rules_arc()), &fields.join(" ")).expect("same FEN")
}

/// The side to move's en-passant captures in `pos`, each with its outcome for it (from
/// the smaller table, the count at zero).
fn en_passant_outcomes(
    pos: &Position,
    all: &HashMap<String, Table>,
    rules: &Rules,
) -> Vec<Outcome> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| m.is_en_passant())
        .map(|m| {
            let mut after = pos.clone();
            after.make_move(m);
            let there = &all[&Material::of(&after).unwrap().name(rules)];
            Outcome::of(there.probe_rule(&after).unwrap().value).flip()
        })
        .collect()
}

/// Each legal slot's moves, or `None` for a mate (lost at any count) and `Some(empty)`
/// for a stalemate.
fn children(
    table: &Table,
    all: &HashMap<String, Table>,
    rules: &Rules,
) -> HashMap<usize, Option<Vec<Child>>> {
    let own = table.material().name(rules);
    table
        .values()
        .map(|(i, _)| {
            let pos = table.position(i);
            let moves = pos.legal_moves();
            if moves.is_empty() && pos.in_check() {
                return (i, None);
            }
            let kids = moves
                .into_iter()
                .map(|m| {
                    let mut child = pos.clone();
                    child.make_move(m);
                    let name = Material::of(&child).unwrap().name(rules);
                    let there = &all[&name];
                    let takes = en_passant_outcomes(&child, all, rules);
                    let slot = there
                        .slot(&without_en_passant(&child))
                        .expect("a legal child");
                    match (child.halfmove_clock() == 0, name == own) {
                        (false, _) => Child::Quiet(slot),
                        (true, true) => Child::Advance(slot, takes),
                        (true, false) => {
                            let r = there.rule_at(slot, 0).expect("the rule kept");
                            Child::Zeroed(Outcome::of(r.value))
                        }
                    }
                })
                .collect();
            (i, Some(kids))
        })
        .collect()
}

/// `[clock][slot]`: every position's outcome at every count, by counting back from
/// `plies`. Pawn moves within the table read the count-zero values of the sweep before:
/// the sweeps repeat until nothing changes (the positions with the clock form no cycle,
/// so this ends, at the one answer).
fn count_back(
    table: &Table,
    kids: &HashMap<usize, Option<Vec<Child>>>,
    plies: u16,
) -> Vec<Vec<Outcome>> {
    let n = table.len();
    let mut v = vec![vec![Outcome::Held; n]; usize::from(plies) + 1];
    loop {
        let before = v[0].clone();
        for c in (0..=usize::from(plies)).rev() {
            for (&i, moves) in kids {
                v[c][i] = match moves {
                    None => Outcome::Lost,
                    Some(_) if c == usize::from(plies) => Outcome::Held,
                    Some(m) if m.is_empty() => Outcome::Held,
                    Some(m) => m
                        .iter()
                        .map(|k| match k {
                            Child::Quiet(s) => v[c + 1][*s].flip(),
                            Child::Advance(s, takes) => {
                                takes.iter().copied().fold(v[0][*s], Outcome::max).flip()
                            }
                            Child::Zeroed(o) => o.flip(),
                        })
                        .max()
                        .expect("moves"),
                };
            }
        }
        if v[0] == before {
            return v;
        }
    }
}

/// Checks every position of every table in `names` (smaller ones first) at every clock
/// against the counting back, and the cursed and blessed ones against the mate values.
fn check_every_clock(rules: &Arc<Rules>, names: &[&str]) -> HashMap<String, Table> {
    let plies = rules.draw_rules().move_rule_plies;
    let all = tables(rules, names);
    for name in names {
        let table = &all[*name];
        assert_eq!(table.rule_plies(), Some(plies), "{name}");
        let kids = children(table, &all, rules);
        let v = count_back(table, &kids, plies);
        for (i, value) in table.values() {
            for c in 0..=plies {
                let r = table.rule_at(i, c).unwrap();
                assert_eq!(
                    Outcome::of(r.value),
                    v[usize::from(c)][i],
                    "{name} at clock {c}: {} ({r:?}, {value:?})",
                    table.position(i).to_fen()
                );
            }
            // Cursed and blessed are the mate values the rule spoils.
            let r = table.rule_at(i, 0).unwrap().value;
            let expected = match (value, r) {
                (Value::Win(_), RuleValue::Win) => RuleValue::Win,
                (Value::Win(_), _) => RuleValue::CursedWin,
                (Value::Loss(_), RuleValue::Loss) => RuleValue::Loss,
                (Value::Loss(_), _) => RuleValue::BlessedLoss,
                _ => RuleValue::Draw,
            };
            assert_eq!(r, expected, "{name}: {}", table.position(i).to_fen());
        }
    }
    all
}

#[test]
fn every_result_under_a_short_rule_matches_a_count_back_from_the_limit() {
    // Four men on the small board with a 12-ply rule: the rook side's wins outlast the
    // rule often, the knight's captures and the rook's end it.
    let rules = common::tiny(Some(12));
    let names = ["KvK", "KRvK", "KvKR", "KNvK", "KvKN", "KRvKN", "KNvKR"];
    let all = check_every_clock(&rules, &names);
    let c = all["KRvKN"].counts();
    let rule = c.rule.expect("the rule's counts");
    let [win, cursed, draw, blessed, loss] = rule[0];
    assert!(win > 0 && cursed > 0, "both kinds of wins: {rule:?}");
    // With the count at zero, the rule's five split the legal positions, and wins plus
    // cursed wins are the mate values' wins.
    assert_eq!(win + cursed + draw + blessed + loss, c.legal(0));
    assert_eq!(win + cursed, c.wins[0]);
    assert_eq!(rule[1][3] + rule[1][4], c.losses[1]);
    assert!(c.longest_dtz <= 12 && c.longest_dtz > 0);
}

#[test]
fn pawn_moves_zero_the_count_in_each_pawn_class() {
    // K+P v K on 61 cells with Gliński's pawns and a 16-ply rule: advances lead into the
    // same table (the rule's pass takes it class by class), promotions into the piece
    // tables.
    let rules = mini(16);
    let names = ["KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK"];
    let all = check_every_clock(&rules, &names);
    let rule = all["KPvK"].counts().rule.unwrap();
    assert!(rule[0][0] > 0 && rule[0][1] > 0, "{rule:?}");
}

#[test]
fn a_mate_beyond_the_rule_with_nothing_to_capture_is_a_cursed_win() {
    // K+N+N v K on Grand Hexachess: mates up to 138 plies long, and the knights' side
    // has no capture or pawn move to reset the count.
    let rules = Catalog::builtin()
        .get("grand")
        .unwrap()
        .two_player_rules()
        .unwrap();
    let table = &tables(&rules, &["KNNvK"])["KNNvK"];
    let c = table.counts();
    let at = c.longest_at.expect("a longest mate");
    assert!(c.longest > 100, "{}", c.longest);
    let pos = table.position(at);
    // Black to move there (a loss), so White's wins are one ply further on.
    let loser = table.probe_rule(&pos).unwrap();
    assert_eq!(loser.value, RuleValue::BlessedLoss, "{}", pos.to_fen());
    let mut cursed = None;
    let mut won = None;
    for (i, v) in table.values() {
        match (v, table.rule_at(i, 0).unwrap()) {
            (Value::Win(d), r) if d > 100 && r.value == RuleValue::CursedWin => {
                assert_eq!(r.dtz, None);
                cursed = Some(i);
            }
            (Value::Win(d), r) if d <= 100 => {
                // The winner has nothing that zeroes: only the defender's forced
                // captures could end the count before the mate.
                assert_eq!(r.value, RuleValue::Win);
                assert!(r.dtz.is_some_and(|z| z <= d), "{r:?} beside mate in {d}");
                won = Some((i, r.dtz.unwrap()));
            }
            _ => {}
        }
    }
    let cursed = table.position(cursed.expect("a cursed win"));
    assert_eq!(
        table.probe_rule(&cursed).unwrap().value,
        RuleValue::CursedWin
    );
    // A win within the rule turns cursed once the clock leaves too few plies.
    let (i, d) = won.expect("a win within the rule");
    let pos = table.position(i);
    let late = at_clock(&pos, 100 - d + 1);
    let just = at_clock(&pos, 100 - d);
    assert_eq!(table.probe_rule(&just).unwrap().value, RuleValue::Win);
    assert_eq!(table.probe_rule(&late).unwrap().value, RuleValue::CursedWin);
}

#[test]
fn pawns_on_both_sides_count_en_passant_in() {
    // Pawns for both sides on 19 cells with a 10-ply rule: long advances the other side
    // may take en passant, which the table's codes do not hold and its pass reads.
    let rules = common::pawns_both_sides(Some(10));
    let names = [
        "KvK", "KNvK", "KvKN", "KNvKN", "KPvK", "KvKP", "KNvKP", "KPvKN", "KPvKP",
    ];
    let all = check_every_clock(&rules, &names);
    let rule = all["KPvKP"].counts().rule.unwrap();
    assert!(rule[0][0] > 0 && rule[0][4] > 0, "{rule:?}");
}
