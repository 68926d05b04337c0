//! Tables checked by a second method: every sampled position's value must follow from
//! its moves the way minimax says (using the position's own move generator, not the
//! table builder's), short mates must be found by a plain search, and whole tables must
//! say what is known of their endings.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod common;

use hexchess_core::{Catalog, Position, Rules, Side};
use hexchess_tablebase::{Material, MaterialError, Table, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn glinski() -> Arc<Rules> {
    Catalog::builtin()
        .get("glinski")
        .unwrap()
        .two_player_rules()
        .unwrap()
}

fn tiny() -> Arc<Rules> {
    common::tiny(None)
}

/// A position's value from the table of its own material; with an en-passant capture
/// on (which tables do not store), from its moves.
fn value_of(tables: &HashMap<String, Table>, pos: &Position) -> Value {
    if pos.can_capture_en_passant() {
        let rules = Arc::clone(pos.rules_arc());
        return from_children(tables, &rules, pos, None);
    }
    tables
        .values()
        .find_map(|t| t.probe(pos))
        .unwrap_or_else(|| panic!("no table for {}", pos.to_fen()))
}

/// How good a value is for the side to move: higher is better.
fn rank(v: Value) -> (i32, i32) {
    match v {
        Value::Win(d) => (4, -i32::from(d)),
        Value::StalemateWin(d) => (3, -i32::from(d)),
        Value::Draw | Value::DrawPerpetual => (2, 0),
        Value::StalemateLoss(d) => (1, i32::from(d)),
        Value::Loss(d) => (0, i32::from(d)),
    }
}

/// A child's value seen by the side that moved into it, one ply further.
fn flip(v: Value) -> Value {
    match v {
        Value::Win(d) => Value::Loss(d + 1),
        Value::Loss(d) => Value::Win(d + 1),
        Value::StalemateWin(d) => Value::StalemateLoss(d + 1),
        Value::StalemateLoss(d) => Value::StalemateWin(d + 1),
        Value::Draw | Value::DrawPerpetual => Value::Draw,
    }
}

/// What minimax says a position is worth, from its children's values: the best of
/// them for the side to move, mate over stalemate over draw, sooner over later when
/// winning and later over sooner when losing.
///
/// With `no_checks`, that side's checking moves are left out, and a position where it
/// has only checks is lost for it.
fn from_children(
    tables: &HashMap<String, Table>,
    rules: &Rules,
    pos: &Position,
    no_checks: Option<Side>,
) -> Value {
    let all = pos.legal_moves();
    let gives_check = |m: &hexchess_core::Move| {
        let mut child = pos.clone();
        child.make_move(*m);
        child.in_check()
    };
    let moves: Vec<_> = if no_checks == Some(pos.turn()) {
        all.iter().copied().filter(|m| !gives_check(m)).collect()
    } else {
        all.to_vec()
    };
    if moves.is_empty() && !all.is_empty() {
        return Value::Loss(0);
    }
    if moves.is_empty() {
        return if pos.in_check() {
            Value::Loss(0)
        } else if rules.stalemate().stalemated.millis() < 500 {
            Value::StalemateLoss(0)
        } else {
            Value::Draw
        };
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.make_move(m);
            flip(value_of(tables, &child))
        })
        .max_by_key(|v| rank(*v))
        .expect("moves")
}

/// Builds `names`' tables (and keeps each under its name).
fn tables(rules: &Arc<Rules>, names: &[&str]) -> HashMap<String, Table> {
    names
        .iter()
        .map(|n| {
            let m = Material::parse(n, rules).unwrap();
            (n.to_string(), Table::generate(rules, &m).unwrap())
        })
        .collect()
}

/// Samples legal positions of `table` and checks each against its children.
fn check_against_minimax(
    tables: &HashMap<String, Table>,
    rules: &Rules,
    name: &str,
    samples: usize,
) {
    let table = &tables[name];
    let legal: Vec<(usize, Value)> = table.values().collect();
    let mut rng = StdRng::seed_from_u64(27);
    // A random sample, and every position the stalemate pass decided (few, and the
    // sample would seldom meet them).
    let stalemate_classes = legal
        .iter()
        .filter(|(_, v)| matches!(v, Value::StalemateWin(_) | Value::StalemateLoss(_)))
        .take(400);
    let sample: Vec<(usize, Value)> = (0..samples)
        .map(|_| legal[rng.random_range(0..legal.len())])
        .chain(stalemate_classes.copied())
        .collect();
    for (i, v) in sample {
        let pos = table.position(i);
        assert_eq!(
            table.probe(&pos),
            Some(v),
            "{name}: index and position agree"
        );
        // Minimax cannot tell a perpetual-check draw from a fortress: both are draws.
        let v = if v == Value::DrawPerpetual {
            Value::Draw
        } else {
            v
        };
        assert_eq!(
            from_children(tables, rules, &pos, None),
            v,
            "{name}: {}",
            pos.to_fen()
        );
    }
}

/// Whether the side to move mates within `plies` (odd) plies, by plain search.
fn mates_within(pos: &Position, plies: u16) -> bool {
    if plies == 0 {
        return false;
    }
    pos.legal_moves().into_iter().any(|m| {
        let mut child = pos.clone();
        child.make_move(m);
        let replies = child.legal_moves();
        if replies.is_empty() {
            return child.in_check();
        }
        plies >= 3
            && replies.into_iter().all(|r| {
                let mut next = child.clone();
                next.make_move(r);
                mates_within(&next, plies - 2)
            })
    })
}

#[test]
fn king_and_rook_mate_a_lone_king_and_every_value_follows_from_the_moves() {
    let rules = glinski();
    let tables = tables(&rules, &["KRvK", "KvKR", "KvK"]);
    check_against_minimax(&tables, &rules, "KRvK", 400);
    check_against_minimax(&tables, &rules, "KvKR", 200);
    // Gliński scores stalemate 3/4-1/4: a lone minor piece cannot mate, but can often
    // force stalemate, which the tables tell apart from a draw.
    let minor = self::tables(&rules, &["KNvK", "KvKN", "KvK"]);
    check_against_minimax(&minor, &rules, "KNvK", 300);
    check_against_minimax(&minor, &rules, "KvKN", 100);
    let knight = minor["KNvK"].counts();
    assert!(knight.stalemate_wins[0] > 1000, "{knight:?}");
    let counts = tables["KRvK"].counts();
    // McCooey: K+R mates a lone king: with the rook's side to move, from every position.
    assert_eq!(counts.wins[0], counts.legal(0), "{counts:?}");
    assert_eq!(counts.losses[0], 0, "the side with the rook is never mated");
    assert!(counts.longest > 20 && counts.longest < 80, "{counts:?}");
}

#[test]
fn short_mates_in_the_table_are_found_by_a_plain_search_and_no_shorter() {
    let rules = glinski();
    let tables = tables(&rules, &["KQvK"]);
    let table = &tables["KQvK"];
    let mut rng = StdRng::seed_from_u64(5);
    let wins: Vec<(usize, u16)> = table
        .values()
        .filter_map(|(i, v)| match v {
            Value::Win(d) if d <= 5 => Some((i, d)),
            _ => None,
        })
        .collect();
    assert!(wins.iter().any(|(_, d)| *d == 5));
    for _ in 0..60 {
        let (i, d) = wins[rng.random_range(0..wins.len())];
        let pos = table.position(i);
        assert!(
            mates_within(&pos, d),
            "no mate in {d} plies: {}",
            pos.to_fen()
        );
        assert!(
            d < 3 || !mates_within(&pos, d - 2),
            "a mate faster than {d}: {}",
            pos.to_fen()
        );
    }
}

#[test]
fn four_man_tables_read_their_captures_from_smaller_tables() {
    let rules = tiny();
    let names = ["KRvKN", "KRvK", "KvKN", "KNvK", "KvKR", "KNvKR", "KvK"];
    let tables = tables(&rules, &names);
    check_against_minimax(&tables, &rules, "KRvKN", 400);
    check_against_minimax(&tables, &rules, "KNvKR", 200);
    // On so small a board king and knight mate a lone king in a corner, but only where
    // it is already next to mate: every such win is a mate a plain search finds.
    let knight = &tables["KNvK"];
    for (i, v) in knight.values() {
        if let Value::Win(d) = v {
            assert!(
                mates_within(&knight.position(i), d),
                "{}",
                knight.position(i).to_fen()
            );
        }
    }
    assert!(tables["KRvKN"].counts().wins[0] > 0);
}

#[test]
fn five_man_tables_follow_from_their_moves_too() {
    // K+R+N v K+R on the 37-cell board: every capture leads into a four-man table.
    let rules = tiny();
    // The table and those its captures lead to (what minimax over the moves reads).
    let tables = tables(&rules, &["KRNvKR", "KRNvK", "KRvKR", "KNvKR"]);
    check_against_minimax(&tables, &rules, "KRNvKR", 300);
}

#[test]
fn pawn_tables_follow_from_their_moves_in_each_pawn_rule() {
    // K+P v K: advances, long first moves and promotions into the piece tables, by
    // Gliński's pawns (3/4 stalemate), McCooey's and Peterson's (Grand: optional
    // promotion ranks, only to lost pieces).
    for (id, samples) in [("glinski", 600), ("mccooey", 300), ("grand", 300)] {
        let rules = Catalog::builtin()
            .get(id)
            .unwrap()
            .two_player_rules()
            .unwrap();
        let mut names = vec!["KPvK".to_string(), "KvK".to_string()];
        for k in rules.promotion_choices() {
            names.push(format!("K{}vK", rules.kind_info(*k).letter));
        }
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let tables = tables(&rules, &names);
        check_against_minimax(&tables, &rules, "KPvK", samples);
        let table = &tables["KPvK"];
        assert_eq!(
            table.symmetries(),
            2,
            "{id}: only the mirror keeps pawn moves"
        );
    }
}

#[test]
fn materials_are_read_with_clear_errors() {
    let rules = glinski();
    let pos =
        Position::from_fen(Arc::clone(&rules), "K1k1R1/7/8/9/10/11/10/9/8/7/6 b - 0 1").unwrap();
    assert_eq!(Material::of(&pos).unwrap().name(&rules), "KRvK");
    assert!(matches!(
        Material::of(&Position::start(Arc::clone(&rules))),
        Err(MaterialError::TooManyMen(_))
    ));
    let m = Material::parse("kqvkr", &rules).unwrap();
    assert_eq!(m.name(&rules), "KQvKR");
    assert_eq!(m.men(), 4);
    // Grand's Vizir is `V`, like the separator: a lower-case `v` separates.
    let grand = Catalog::builtin()
        .get("grand")
        .unwrap()
        .two_player_rules()
        .unwrap();
    let vizir = grand.kind_by_letter('V').unwrap();
    let m = Material::parse("KVvK", &grand).unwrap();
    assert_eq!((m.sides[0].len(), m.sides[1].len()), (2, 1));
    assert_eq!(m.sides[0][1], vizir);
    assert_eq!(m.name(&grand), "KVvK");
    assert_eq!(Material::parse("KvKV", &grand).unwrap().sides[1][1], vizir);
    assert_eq!(
        Material::parse("KQVKR", &rules).unwrap().name(&rules),
        "KQvKR"
    );
    for (text, error) in [
        ("KQ", MaterialError::Syntax("KQ".into())),
        ("KZvK", MaterialError::UnknownPiece('Z')),
        (
            "QvK",
            MaterialError::Royals {
                side: "White",
                count: 0,
            },
        ),
        ("KQRBvKR", MaterialError::TooManyMen(6)),
    ] {
        assert_eq!(Material::parse(text, &rules), Err(error.clone()), "{text}");
        assert!(!error.to_string().is_empty());
    }
}

#[test]
fn tables_without_the_defenders_checks_follow_from_the_moves_and_split_the_draws() {
    let rules = tiny();
    let names = ["KRvKN", "KRvK", "KvKN", "KvK"];
    let no_checks: HashMap<String, Table> = names
        .iter()
        .map(|n| {
            let m = Material::parse(n, &rules).unwrap();
            let t = Table::generate_without_checks(&rules, &m, Side::Black).unwrap();
            (n.to_string(), t)
        })
        .collect();
    let table = &no_checks["KRvKN"];
    let legal: Vec<(usize, Value)> = table.values().collect();
    let mut rng = StdRng::seed_from_u64(28);
    for _ in 0..300 {
        let (i, v) = legal[rng.random_range(0..legal.len())];
        let pos = table.position(i);
        let expected = from_children(&no_checks, &rules, &pos, Some(Side::Black));
        assert_eq!(expected, v, "without Black's checks: {}", pos.to_fen());
    }
    // The full table's draws: perpetual where one side mates once the other may not
    // give check; also where stalemates score (the split's own tables skip their
    // stalemate pass, these do not).
    assert_eq!(check_split(&rules, "KRvKN"), no_checks["KRvKN"].counts());
    let scoring = common::tiny_scoring_stalemates();
    let no_black = check_split(&scoring, "KRvKN");
    assert!(no_black.stalemate_wins.iter().sum::<u64>() > 0);
}

#[test]
fn the_split_of_draws_with_pawns_follows_the_tables_without_checks() {
    // The split grows its wins class by class, reading a pawn's advance (and the en
    // passant it allows) from a class done: checked here on each pawn rule.
    for id in ["glinski", "mccooey", "grand"] {
        let rules = common::pawn_rule_on_small_board(id);
        for name in ["KPvKN", "KNvKP"] {
            check_split(&rules, name);
        }
    }
    check_split(&common::pawns_both_sides(None), "KPvKP");
}

/// The perpetual-check draws of `name` in `rules` are the draws one side mates from
/// once the other may not check, by the full tables built without Black's checks and
/// without White's; the counts of the one without Black's are returned.
fn check_split(rules: &Arc<Rules>, name: &str) -> hexchess_tablebase::Counts {
    let material = Material::parse(name, rules).unwrap();
    let full = Table::generate(rules, &material).unwrap();
    let no_black = Table::generate_without_checks(rules, &material, Side::Black).unwrap();
    let without_white = Table::generate_without_checks(rules, &material, Side::White).unwrap();
    let (mut perpetual, mut fortress) = (0, 0);
    let draws = full
        .values()
        .filter(|(_, v)| matches!(v, Value::Draw | Value::DrawPerpetual));
    for (i, v) in draws {
        let pos = full.position(i);
        let mates = |t: &Table, side: Side| match t.probe(&pos).unwrap() {
            Value::Win(_) => pos.turn() == side,
            Value::Loss(_) => pos.turn() != side,
            _ => false,
        };
        let by_checks_only = mates(&no_black, Side::White) || mates(&without_white, Side::Black);
        match v {
            Value::DrawPerpetual => {
                perpetual += 1;
                assert!(by_checks_only, "{}", pos.to_fen());
            }
            Value::Draw => {
                fortress += 1;
                assert!(!by_checks_only, "{}", pos.to_fen());
            }
            _ => {}
        }
    }
    assert!(
        perpetual > 0 && fortress > 0,
        "{name}: {perpetual} perpetual, {fortress} fortress"
    );
    no_black.counts()
}

#[test]
fn generation_tells_its_progress_and_stops_when_asked() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let rules = glinski();
    let material = Material::parse("KRvK", &rules).unwrap();
    let mut lines = Vec::new();
    let stop = AtomicBool::new(false);
    let table =
        Table::generate_with(&rules, &material, &mut |l| lines.push(l.to_string()), &stop).unwrap();
    assert!(table.counts().wins[0] > 0);
    for expected in ["building KvK", "building KRvK", "  mates", "  stalemates"] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    // The draws' split: the table without the lone king's opponent's checks; none
    // without the lone king's (it is never the stronger side).
    assert!(
        lines.iter().any(|l| l.contains("Black gives no check")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("White gives no check")),
        "{lines:?}"
    );
    stop.store(true, Ordering::Relaxed);
    let stopped = Table::generate_with(&rules, &material, &mut |_| {}, &stop);
    assert_eq!(stopped.err(), Some(hexchess_tablebase::TableError::Stopped));
}

#[test]
fn any_number_of_threads_builds_the_same_table_byte_for_byte() {
    // Four men on the small board (captures into smaller tables, the perpetual-check
    // split, for either side): each pass shares its rounds out in chunks, so two and
    // three threads interleave differently. (docs/tablebases.md compares K+Q v K+R on
    // Gliński's board built on one and two threads the same way.)
    let tiny = tiny();
    for (rules, name) in [(&tiny, "KRvKN"), (&tiny, "KNvKR")] {
        let material = Material::parse(name, rules).unwrap();
        let never = AtomicBool::new(false);
        let one = Table::generate_on(rules, &material, &mut |_| {}, &never, 1).unwrap();
        for threads in [2, 3] {
            let many = Table::generate_on(rules, &material, &mut |_| {}, &never, threads).unwrap();
            assert!(
                many.to_bytes() == one.to_bytes(),
                "{name} on {threads} threads differs from one thread"
            );
        }
        assert!(one.counts().wins[0] > 0, "{name}: something is won");
    }
}

#[test]
fn pawns_on_both_sides_follow_from_their_moves_in_each_pawn_rule() {
    // K+P v K+P with the pawns of Gliński's file (a straight advance, captures on the
    // orthogonals, a double step and en passant), McCooey's (diagonal captures, the
    // centre pawn without a double step) and Peterson's (two advances, no double
    // step), on the 19-cell board.
    let names = [
        "KPvKP", "KPvK", "KvKP", "KNvKP", "KPvKN", "KNvKN", "KNvK", "KvKN", "KvK",
    ];
    for id in ["glinski", "mccooey", "grand"] {
        let rules = common::pawn_rule_on_small_board(id);
        let tables = tables(&rules, &names);
        check_against_minimax(&tables, &rules, "KPvKP", 1500);
        let table = &tables["KPvKP"];
        let counts = table.counts();
        assert!(
            counts.wins[0] > 0 && counts.draws[0] > 0,
            "{id}: K+P v K+P has wins and draws"
        );
        // En passant where the rule has it: some long advance gives the right.
        let gives_en_passant = table.values().any(|(i, _)| {
            let pos = table.position(i);
            pos.legal_moves().into_iter().any(|m| {
                let mut child = pos.clone();
                child.make_move(m);
                child.can_capture_en_passant()
            })
        });
        assert_eq!(gives_en_passant, rules.has_en_passant(), "{id}");
    }
}

#[test]
fn pawns_on_both_sides_follow_from_their_moves_en_passant_included() {
    let rules = common::pawns_both_sides(None);
    let names = [
        "KPvKP", "KPvK", "KvKP", "KNvKP", "KPvKN", "KNvKN", "KNvK", "KvKN", "KvK",
    ];
    let tables = tables(&rules, &names);
    check_against_minimax(&tables, &rules, "KPvKP", 3000);
    // Every position with a long advance the other side may take en passant: the
    // sample would seldom meet them.
    let table = &tables["KPvKP"];
    let mut seen = 0;
    for (i, v) in table.values() {
        let pos = table.position(i);
        let takes = pos.legal_moves().into_iter().any(|m| {
            let mut child = pos.clone();
            child.make_move(m);
            child.can_capture_en_passant()
        });
        if !takes {
            continue;
        }
        let v = if v == Value::DrawPerpetual {
            Value::Draw
        } else {
            v
        };
        assert_eq!(
            from_children(&tables, &rules, &pos, None),
            v,
            "{}",
            pos.to_fen()
        );
        seen += 1;
    }
    assert!(seen > 100, "only {seen} positions with en passant in reach");
    // Where the capture is on, the table does not answer: the position's moves do.
    let (i, _) = table.values().next().unwrap();
    let pos = table.position(i);
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.make_move(m);
        if child.can_capture_en_passant() {
            assert_eq!(table.probe(&child), None);
        }
    }
}
