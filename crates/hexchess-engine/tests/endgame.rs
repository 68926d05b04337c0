//! The engine with endgame tables: the table's best move at the root with its mate
//! score, exact scores for positions inside the search, and table files read from a
//! folder, a damaged one reported and left out.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod common;

use common::Session;
use hexchess_core::{Catalog, Position, Rules};
use hexchess_engine::endgame::TableValue;
use hexchess_engine::endgame::rank;
use hexchess_engine::{Score, SearchLimits, SearchOptions, SearchResult, Searcher, Tablebases};
use hexchess_files::Files;
use hexchess_tablebase::{Material, RuleValue, Table, Value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn glinski() -> Arc<Rules> {
    Catalog::builtin()
        .get("glinski")
        .unwrap()
        .two_player_rules()
        .unwrap()
}

fn table(rules: &Arc<Rules>, name: &str) -> Arc<Table> {
    Arc::new(Table::generate(rules, &Material::parse(name, rules).unwrap()).unwrap())
}

fn search(tables: &Arc<Tablebases>, pos: &Position, depth: u32) -> SearchResult {
    let mut s = Searcher::new(SearchOptions::default());
    s.set_tablebases(Arc::clone(tables));
    s.search(
        &mut pos.clone(),
        &SearchLimits::depth(depth),
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    )
}

/// The protocol's mate score for a table value.
fn mate_score(v: Value) -> Option<Score> {
    match v {
        Value::Win(d) => Some(Score::Mate((i32::from(d) + 1) / 2)),
        Value::Loss(d) => Some(Score::Mate(-i32::from(d) / 2)),
        _ => None,
    }
}

#[test]
fn with_a_table_the_engine_mates_soonest_and_defends_longest() {
    let rules = glinski();
    let krk = table(&rules, "KRvK");
    let tables = Arc::new(Tablebases::new(vec![
        Arc::clone(&krk),
        table(&rules, "KvK"),
    ]));
    let decided: Vec<(usize, Value)> = krk
        .values()
        .filter(|(_, v)| matches!(v, Value::Win(_)) || matches!(v, Value::Loss(d) if *d > 0))
        .collect();
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..40 {
        let (i, v) = decided[rng.random_range(0..decided.len())];
        let pos = krk.position(i);
        let result = search(&tables, &pos, 3);
        let mv = result.best.expect("a move");
        let mut after = pos.clone();
        after.make_move(mv);
        let got = tables.probe(&after).expect("in the table").for_mover();
        assert_eq!(rank(got), rank(v), "{}: played {mv:?}", pos.to_fen());
        assert_eq!(Some(result.score), mate_score(v), "{}", pos.to_fen());
    }
}

#[test]
fn inside_the_search_a_capture_into_a_table_scores_its_mate() {
    // K+R v K+N with the knight en prise: no table for the position itself, but the
    // capture leads into K+R v K, whose table gives a mate a depth-2 search could never
    // see by itself.
    let rules = glinski();
    let krk = table(&rules, "KRvK");
    let tables = Arc::new(Tablebases::new(vec![
        Arc::clone(&krk),
        table(&rules, "KvK"),
    ]));
    let board = rules.board();
    let cells: Vec<_> = board.cells().collect();
    let mut rng = StdRng::seed_from_u64(11);
    let mut checked = 0;
    while checked < 10 {
        // White king, rook, black king, knight on random cells, White to move.
        let men: Vec<_> = (0..4)
            .map(|_| cells[rng.random_range(0..cells.len())])
            .collect();
        let placement = hexchess_core::fen::placement_field(board, |c| {
            men.iter()
                .position(|m| *m == c)
                .map(|j| ['K', 'R', 'k', 'n'][j])
        });
        let Ok(pos) = Position::from_fen(Arc::clone(&rules), &format!("{placement} w - 0 1"))
        else {
            continue;
        };
        if pos.occupied().count() != 4 || pos.in_check() {
            continue;
        }
        // The best mate a capture of the knight gives, by the table.
        let best_capture = pos
            .legal_moves()
            .into_iter()
            .filter(|m| pos.is_capture(*m))
            .filter_map(|m| {
                let mut after = pos.clone();
                after.make_move(m);
                tables.probe(&after).map(|v| v.for_mover())
            })
            .max_by_key(|v| rank(*v));
        let Some(Value::Win(d)) = best_capture else {
            continue;
        };
        if d < 9 {
            continue; // a mate a plain depth-2 search might see by itself
        }
        assert!(tables.probe(&pos).is_none());
        let result = search(&tables, &pos, 2);
        let Score::Mate(n) = result.score else {
            panic!("{}: no mate seen ({:?})", pos.to_fen(), result.score);
        };
        assert!(
            n > 0 && n <= (i32::from(d) + 1) / 2,
            "{}: mate in {n}, table {d} plies",
            pos.to_fen()
        );
        checked += 1;
    }
}

#[test]
fn the_protocol_reads_tables_from_its_folder_and_reports_a_damaged_one() {
    let rules = glinski();
    let dir = std::env::temp_dir().join(format!("hexchess-engine-tb-{}", std::process::id()));
    let folder = dir.join("glinski");
    std::fs::create_dir_all(&folder).unwrap();
    let krk = table(&rules, "KRvK");
    krk.write(&Files::disk(), &folder.join("KRvK.htb")).unwrap();
    table(&rules, "KvK")
        .write(&Files::disk(), &folder.join("KvK.htb"))
        .unwrap();
    let (i, v) = krk
        .values()
        .find(|(i, v)| {
            matches!(v, Value::Win(d) if *d > 15) && krk.position(*i).turn().index() == 0
        })
        .unwrap();
    let fen = krk.position(i).to_fen();
    let Some(Score::Mate(n)) = mate_score(v) else {
        unreachable!()
    };
    let mut s = Session::new();
    let out = s.run(&[
        &format!("setoption name TablebasePath value {}", dir.display()),
        &format!("position fen {fen}"),
        "go depth 2",
    ]);
    assert!(out.contains(&format!("score mate {n} ")), "{out}");
    assert!(!out.contains("error"), "{out}");
    // A damaged file: reported, left out, and the search goes on without it.
    let mut bytes = std::fs::read(folder.join("KRvK.htb")).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(folder.join("KRvK.htb"), bytes).unwrap();
    let out = s.run(&[&format!("position fen {fen}"), "go depth 2"]);
    assert!(
        out.contains("info string error: endgame table left out"),
        "{out}"
    );
    assert!(out.contains("bestmove"), "{out}");
    assert!(!out.contains(&format!("score mate {n} ")), "{out}");
    // Switched off, no table is read.
    let out = s.run(&["setoption name Tablebases value false", "go depth 1"]);
    assert!(!out.contains("endgame table"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How a game played from a table position ended.
#[derive(Debug, PartialEq, Eq)]
enum Ending {
    /// The side to move at the start mated, in this many plies.
    Mated(usize),
    /// Drawn by the move rule, or anything else.
    Drawn,
}

/// Plays from `pos` until mate, the move rule or `limit` plies, each move chosen by
/// `choose`.
fn play_out(
    pos: &Position,
    limit: usize,
    choose: &mut dyn FnMut(&Position) -> hexchess_core::Move,
) -> Ending {
    let mut pos = pos.clone();
    let rule = pos.rules().draw_rules().move_rule_plies;
    for ply in 0..limit {
        if pos.legal_moves().is_empty() {
            return if pos.in_check() && ply % 2 == 0 {
                Ending::Drawn // the starting side was mated: not this test's case
            } else if pos.in_check() {
                Ending::Mated(ply)
            } else {
                Ending::Drawn
            };
        }
        if pos.halfmove_clock() >= rule {
            return Ending::Drawn;
        }
        let mv = choose(&pos);
        pos.make_move(mv);
    }
    Ending::Drawn
}

#[test]
fn with_the_clock_at_sixty_the_engine_still_wins_within_the_move_rule() {
    // K+R v K+N on Gliński's board: mates up to 109 plies, but the rook's side can
    // often win the knight sooner than the fastest mate goes. With 60 plies already
    // counted, a position where the fastest mate would capture too late: following the
    // distance to mate lets the rule draw; the engine, reading the distance to zeroing,
    // wins.
    let rules = glinski();
    let never = AtomicBool::new(false);
    let build = |name: &str| {
        let m = Material::parse(name, &rules).unwrap();
        Arc::new(Table::generate_on(&rules, &m, &mut |_| {}, &never, 2).unwrap())
    };
    let krkn = build("KRvKN");
    let tables = Arc::new(Tablebases::new(
        ["KRvK", "KvKN", "KNvK", "KvKR", "KvK"]
            .iter()
            .map(|n| build(n))
            .chain([Arc::clone(&krkn)])
            .collect(),
    ));
    // Where every fastest mate lets the count run out: the rook's side, choosing by
    // the mate value alone (as the engine did before the rule), gives the win away at
    // once, whichever of them it plays.
    let fastest_spoil = |p: &Position| {
        let ranked = tables.rank_moves(p).expect("every move in a table");
        let best = ranked.iter().map(|(_, v)| rank(v.value)).max().unwrap();
        ranked
            .iter()
            .filter(|(_, v)| rank(v.value) == best)
            .all(|(_, v)| v.rule_value() != RuleValue::Win)
    };
    let pos = krkn
        .values()
        .filter(|(i, v)| {
            matches!(v, Value::Win(d) if *d > 40)
                && krkn.rule_at(*i, 60).unwrap().value == RuleValue::Win
        })
        .map(|(i, _)| at_clock(&krkn.position(i), 60))
        .find(|p| p.turn().index() == 0 && fastest_spoil(p))
        .expect("a win the fastest mate lets the rule draw");
    assert_eq!(
        tables.probe_full(&pos).unwrap().rule_value(),
        RuleValue::Win
    );
    // The defence: whatever keeps the rule's draw, else the longest loss.
    let defence = |p: &Position| {
        let ranked = tables.rank_moves(p).unwrap();
        let held = |v: &TableValue| v.rule_value() != RuleValue::Loss;
        ranked
            .iter()
            .max_by_key(|(_, v)| (held(v), rank(v.value)))
            .unwrap()
            .0
    };
    let by_mate = |p: &Position| {
        let ranked = tables.rank_moves(p).unwrap();
        ranked.iter().max_by_key(|(_, v)| rank(v.value)).unwrap().0
    };
    // Without the rule's distances: a draw.
    let mut mate_first = |p: &Position| match p.turn().index() {
        0 => by_mate(p),
        _ => defence(p),
    };
    assert_eq!(
        play_out(&pos, 200, &mut mate_first),
        Ending::Drawn,
        "{}",
        pos.to_fen()
    );
    // The engine: a mate before the rule draws.
    let mut engine = |p: &Position| match p.turn().index() {
        0 => search(&tables, p, 2).best.expect("a move"),
        _ => defence(p),
    };
    let ending = play_out(&pos, 200, &mut engine);
    assert!(
        matches!(ending, Ending::Mated(n) if n % 2 == 1),
        "{}: {ending:?}",
        pos.to_fen()
    );
}

/// `pos` with the halfmove clock at `clock`.
fn at_clock(pos: &Position, clock: u16) -> Position {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let n = fields.len();
    let clock = clock.to_string();
    fields[n - 2] = &clock;
    Position::from_fen(Arc::clone(pos.rules_arc()), &fields.join(" ")).unwrap()
}

/// A 19-cell variant whose pawns step twice from their first cells and take en passant
/// (the tablebase crate's test variant).
fn pawns_both_sides() -> Arc<Rules> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hexchess-tablebase/tests/data/tiny-pawns.ron"
    );
    let text = std::fs::read_to_string(path).expect("the test variant");
    let spec = hexchess_core::variant::parse_variant(&text, "tiny-pawns.ron").unwrap();
    hexchess_core::catalog::compile_two_player(spec, "tiny-pawns.ron").unwrap()
}

#[test]
fn a_position_with_en_passant_on_is_read_from_its_moves() {
    // The tables keep each position without the right to take en passant; the engine
    // reads one where the capture is on from its moves. Where a long advance allows it,
    // the parent's stored value must be the best of its moves read so.
    let rules = pawns_both_sides();
    let names = [
        "KPvKP", "KPvK", "KvKP", "KNvKP", "KPvKN", "KNvKN", "KNvK", "KvKN", "KvK",
    ];
    let tables: Vec<Arc<Table>> = names.iter().map(|n| table(&rules, n)).collect();
    let kpkp = Arc::clone(&tables[0]);
    let tables = Tablebases::new(tables);
    let mut checked = 0;
    for (i, v) in kpkp.values() {
        let pos = kpkp.position(i);
        let mut on = false;
        let mut best: Option<TableValue> = None;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.make_move(m);
            on |= child.can_capture_en_passant();
            let got = tables.probe_full(&child).expect("every child read");
            let got = got.for_mover(child.halfmove_clock() == 0);
            if best.is_none_or(|b| got.rank() > b.rank()) {
                best = Some(got);
            }
        }
        if on {
            let v = if v == Value::DrawPerpetual {
                Value::Draw
            } else {
                v
            };
            let best = best.unwrap().value;
            let best = if best == Value::DrawPerpetual {
                Value::Draw
            } else {
                best
            };
            assert_eq!(best, v, "{}", pos.to_fen());
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}
