//! Peterson's rules for more players (docs/rules.md §13) on positions built for each:
//! turns of two moves and their limits, king capture and frozen armies, the checkmate
//! freeze, fair exchange with its removal and swap, and the counts from the start.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::naive::naive_moves;
use hexchess_core::bitboard::{CellSet, WideBitboard};
use hexchess_core::game::{Game, Standing, Step, TurnError, TurnSteps};
use hexchess_core::variant::{VariantSpec, parse_variant};
use hexchess_core::{Hex, Move, Points, Position, Rules, Side, Termination};

const WHITE: Side = Side::White;
/// The second seat, on the upper-left edge (named Black in the file).
const BLACK: Side = Side::Black;
/// The third seat, on the upper-right edge (named Red).
const RED: Side = Side::Third;

fn spec() -> VariantSpec {
    parse_variant(
        include_str!("../../../variants/hexachess-3.ron"),
        "hexachess-3.ron",
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn rules() -> Arc<Rules<WideBitboard>> {
    Arc::new(Rules::<WideBitboard>::compile(&spec()).unwrap())
}

/// A game from pieces given by cube coordinates (`(q, r, "wK")`), `turn` to move.
fn game(pieces: &[(i8, i8, &str)], turn: char, owe: &str) -> Game<WideBitboard> {
    let rules = rules();
    let board = rules.board();
    let by_cell: HashMap<_, _> = pieces
        .iter()
        .map(|(q, r, t)| (board.cell(Hex::new(*q, *r)).expect("on the board"), *t))
        .collect();
    let placement =
        hexchess_core::fen::placement_tokens(board, |c| by_cell.get(&c).map(|t| t.to_string()));
    let fen = format!("{placement} {turn} - 0 1 {owe}");
    Game::from_fen(rules, fen.trim()).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn cell(g: &Game<WideBitboard>, q: i8, r: i8) -> hexchess_core::Cell {
    g.position().rules().board().cell(Hex::new(q, r)).unwrap()
}

fn mv(g: &Game<WideBitboard>, from: (i8, i8), to: (i8, i8)) -> Step {
    Step::Play(Move::new(cell(g, from.0, from.1), cell(g, to.0, to.1)))
}

/// The kings on their starting cells (White f1, the others turned).
const KINGS: [(i8, i8, &str); 3] = [(5, -8, "wK"), (-8, 3, "bK"), (3, 5, "cK")];

fn with_kings(extra: &[(i8, i8, &'static str)]) -> Vec<(i8, i8, &'static str)> {
    KINGS.iter().chain(extra).copied().collect()
}

#[test]
fn the_start_counts_agree_with_a_second_generator() {
    let spec = spec();
    let g = Game::new(rules());
    assert_eq!(g.side_to_move(), WHITE);
    assert_eq!(g.position().rules().side_name(BLACK), "Black");
    let first = naive_moves(g.position(), &spec) as u64;
    assert_eq!(g.perft(1), first);
    // Two turns: nobody is threatened by two opponents yet, so each turn is one move
    // and the count is the core's two-ply perft, and the second generator's.
    let mut pos = Position::start(rules());
    let mut naive_two = 0;
    for m in pos.legal_moves() {
        pos.make_move(m);
        naive_two += naive_moves(&pos, &spec) as u64;
        pos.unmake_move();
    }
    assert_eq!(g.perft(2), naive_two);
    assert_eq!(g.perft(2), pos.perft(2));
}

#[test]
fn a_side_threatened_by_both_opponents_moves_two_pieces() {
    // White's rook on the centre is attacked along its rank by Black's rook from the
    // left and Red's from the right.
    let mut g = game(
        &with_kings(&[(0, 0, "wR"), (-4, 0, "bR"), (4, 0, "cR"), (2, -6, "wN")]),
        'w',
        "",
    );
    assert_eq!(g.threatening(WHITE), vec![BLACK, RED]);
    assert_eq!(g.moves_this_turn(), (2, 0));
    // A knight move first; the second step may stop, or move another piece.
    g.play_unchecked(mv(&g, (2, -6), (3, -4)));
    assert_eq!(g.side_to_move(), WHITE);
    let steps = g.steps();
    assert!(steps.contains(&Step::Stop));
    let knight = cell(&g, 3, -4);
    assert!(steps.iter().all(|s| match s {
        Step::Play(m) => m.from() != knight,
        Step::Stop => true,
    }));
    assert!(steps.contains(&mv(&g, (0, 0), (0, 1))));
    g.play_unchecked(mv(&g, (0, 0), (0, 1)));
    assert_eq!(g.side_to_move(), BLACK);
    let texts = g.turn_texts();
    assert_eq!(texts.len(), 1);
    assert!(texts[0].contains('&'), "{texts:?}");
    // The text plays the same turn again.
    let mut again = game(
        &with_kings(&[(0, 0, "wR"), (-4, 0, "bR"), (4, 0, "cR"), (2, -6, "wN")]),
        'w',
        "",
    );
    again.play_turn(&texts[0]).unwrap();
    assert_eq!(again.to_fen(), g.to_fen());

    // With only one opponent threatening, one move.
    let g = game(&with_kings(&[(0, 0, "wR"), (-4, 0, "bR")]), 'w', "");
    assert_eq!(g.threatening(WHITE), vec![BLACK]);
    assert_eq!(g.moves_this_turn(), (1, 0));
}

#[test]
fn two_moves_capture_at_most_one_piece_of_each_opponent() {
    // The rook can take Black's rook; the queen can take a Black knight once the rook
    // has left its file; Black's and Red's bishops threaten White's rook (a rook is
    // worth more than a bishop, so it could be won).
    let mut g = game(
        &with_kings(&[
            (0, 0, "wR"),
            (-4, 0, "bR"),
            (-2, -2, "bB"),
            (2, -4, "cB"),
            (0, -3, "wQ"),
            (0, 2, "bN"),
        ]),
        'w',
        "",
    );
    assert_eq!(g.moves_this_turn().0, 2);
    g.play_unchecked(mv(&g, (0, 0), (-4, 0)));
    let steps = g.steps();
    let knight_capture = mv(&g, (0, -3), (0, 2));
    assert!(
        !steps.contains(&knight_capture),
        "a second capture from Black"
    );
    // After a first move that takes nothing, the queen may take the knight.
    let mut fresh = game(
        &with_kings(&[
            (0, 0, "wR"),
            (-4, 0, "bR"),
            (-2, -2, "bB"),
            (2, -4, "cB"),
            (0, -3, "wQ"),
            (0, 2, "bN"),
        ]),
        'w',
        "",
    );
    fresh.play_unchecked(mv(&fresh, (0, 0), (1, -1)));
    assert!(
        fresh.steps().contains(&knight_capture),
        "{:?}",
        fresh.steps()
    );
}

/// Red's king in the right corner, White's rooks on the ranks through it and beside
/// it; `mating` says whether the rook on the king's rank is there yet.
fn corner_mate(
    red_king: &'static str,
    black_king: (i8, i8, &'static str),
    extra: &[(i8, i8, &'static str)],
    mating: bool,
) -> Game<WideBitboard> {
    let mut pieces = vec![
        (5, -8, "wK"),
        black_king,
        (8, 0, red_king),
        (4, 4, "cP"),
        (-3, 1, "wR"),
        (-3, -1, "wR"),
        if mating {
            (-4, 0, "wR")
        } else {
            (-4, -2, "wR")
        },
    ];
    pieces.retain(|p| !p.2.is_empty());
    pieces.extend_from_slice(extra);
    game(&pieces, 'w', "")
}

#[test]
fn a_captured_king_leaves_its_army_as_obstacles() {
    // Red is checkmated (frozen) and White takes its king.
    let mut g = corner_mate("cK", (-8, 3, "bK"), &[(4, -2, "bR")], true);
    assert_eq!(g.standing(RED), Standing::Frozen);
    g.play_unchecked(mv(&g, (-4, 0), (8, 0)));
    assert_eq!(g.standing(RED), Standing::Out);
    assert_eq!(g.side_to_move(), BLACK);
    let pawn = cell(&g, 4, 4);
    assert!(g.position().immune().contains(pawn));
    // Black's rook reaches the pawn's file but may not take it.
    assert!(
        g.position()
            .legal_moves()
            .iter()
            .any(|m| m.from() == cell(&g, 4, -2))
    );
    assert!(g.steps().iter().all(|s| match s {
        Step::Play(m) => m.to() != pawn,
        Step::Stop => true,
    }));
    // Two sides are left: the game goes on between them, Red passed over.
    assert!(g.end().is_none());
    assert_eq!(g.sides_in(), vec![WHITE, BLACK]);
    let b = g.steps()[0];
    g.play_unchecked(b);
    assert_eq!(g.side_to_move(), WHITE);
}

#[test]
fn a_checkmated_side_loses_its_turns_until_the_mate_is_lifted() {
    let mut g = corner_mate("cK", (-8, 3, "bK"), &[(1, 3, "bN")], false);
    assert_eq!(g.standing(RED), Standing::Playing);
    let pawn = cell(&g, 4, 4);
    assert!(!g.position().immune().contains(pawn));
    g.play_unchecked(mv(&g, (-4, -2), (-4, 0)));
    assert_eq!(g.standing(RED), Standing::Frozen, "{}", g.to_fen());
    assert!(g.position().immune().contains(pawn));
    assert!(
        !g.position().immune().contains(cell(&g, 8, 0)),
        "the king is not immune"
    );
    // If Black plays elsewhere, Red loses its turn.
    let mut elsewhere = g.clone();
    elsewhere.play_unchecked(mv(&elsewhere, (-8, 3), (-7, 3)));
    assert_eq!(elsewhere.side_to_move(), WHITE);
    assert_eq!(elsewhere.turns().last().unwrap(), &(RED, TurnSteps::EMPTY));
    // Black's knight blocks the check: the mate is lifted and Red moves.
    g.play_unchecked(mv(&g, (1, 3), (2, 0)));
    assert_eq!(g.standing(RED), Standing::Playing);
    assert!(!g.position().immune().contains(pawn));
    assert_eq!(g.side_to_move(), RED);
}

#[test]
fn with_two_sides_left_checkmate_ends_the_game() {
    // Red is out (no king, its pawn stays); White mates Black in the corner.
    let mut g = corner_mate("bK", (0, 0, ""), &[], false);
    assert_eq!(g.standing(RED), Standing::Out);
    g.play_unchecked(mv(&g, (-4, -2), (-4, 0)));
    let end = g.end().expect("the game is over");
    assert_eq!(end.termination, Termination::Checkmate);
    assert_eq!(end.winners(), vec![WHITE]);
}

/// White's rook may take Black's knight and Black's rook retake; Red plays elsewhere.
fn exchange_game() -> Game<WideBitboard> {
    game(
        &with_kings(&[
            (0, 0, "wR"),
            (0, 3, "bN"),
            (-3, 3, "bR"),
            (6, 2, "cQ"),
            (4, 3, "cN"),
            (5, 1, "cP"),
        ]),
        'w',
        "",
    )
}

#[test]
fn an_exchange_between_two_sides_costs_the_third_a_piece() {
    // White's rook takes Black's knight, Black's rook takes White's rook; Red played
    // elsewhere and owes a piece worth at least 3 (the knight) at its next turn.
    let mut g = exchange_game();
    let owed_before = g.owed(RED);
    assert_eq!(owed_before, 0);
    g.play_unchecked(mv(&g, (0, 0), (0, 3)));
    g.play_unchecked(mv(&g, (-3, 3), (0, 3)));
    assert_eq!(g.owed(RED), 0, "the round (White, Black, Red) is not over");
    let red_quiet = quiet(&g);
    g.play_unchecked(red_quiet);
    assert_eq!(g.owed(RED), 3);
    assert!(g.to_fen().ends_with(" owe:c3"), "{}", g.to_fen());
    // White and Black play on; at Red's turn it must remove first.
    g.play_unchecked(quiet(&g));
    g.play_unchecked(quiet(&g));
    assert_eq!(g.side_to_move(), RED);
    let steps = g.steps();
    let removals: Vec<Move> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Play(m) if m.is_edit() => Some(*m),
            _ => None,
        })
        .collect();
    assert_eq!(removals.len(), steps.len(), "only removals before the move");
    // The queen or the knight (worth 9 and 3), never the pawn (1) or the king.
    let removed: Vec<_> = removals
        .iter()
        .filter(|m| m.promotion().is_none())
        .map(|m| g.position().piece_at(m.to()).unwrap().kind)
        .collect();
    let rules = g.position().rules();
    let mut letters: Vec<char> = removed.iter().map(|k| rules.kind_info(*k).letter).collect();
    letters.sort();
    assert_eq!(letters, vec!['N', 'Q']);
    let queen = cell(&g, 6, 2);
    g.play_unchecked(Step::Play(Move::removal(queen)));
    assert_eq!(g.owed(RED), 0);
    assert!(g.position().piece_at(queen).is_none());
    assert_eq!(g.side_to_move(), RED, "the removal comes before the move");
}

/// A step that takes nothing.
fn quiet(g: &Game<WideBitboard>) -> Step {
    g.steps()
        .into_iter()
        .find(|s| matches!(s, Step::Play(m) if !m.is_edit() && g.position().piece_at(m.to()).is_none()))
        .expect("a quiet move")
}

#[test]
fn a_queen_may_be_swapped_for_a_lost_rook_instead() {
    // Red has lost its rooks and bishops (none on the board): its queen may become
    // one of them, on its own cell, instead of a removal.
    let g = game(&with_kings(&[(2, 2, "cQ"), (5, 1, "cP")]), 'c', "owe:c3");
    let rules = g.position().rules();
    let rook = rules.kind_by_letter('R').unwrap();
    let bishop = rules.kind_by_letter('B').unwrap();
    let knight = rules.kind_by_letter('N').unwrap();
    let queen = cell(&g, 2, 2);
    let steps = g.steps();
    assert!(steps.contains(&Step::Play(Move::swap(queen, rook))));
    assert!(steps.contains(&Step::Play(Move::swap(queen, bishop))));
    // A knight's powers are not in a queen's.
    assert!(!steps.contains(&Step::Play(Move::swap(queen, knight))));
    let mut after = g.clone();
    after.play_unchecked(Step::Play(Move::swap(queen, rook)));
    assert_eq!(after.position().piece_at(queen).unwrap().kind, rook);
    assert_eq!(after.owed(RED), 0);
}

#[test]
fn turns_are_written_and_read_back() {
    let mut g = Game::new(rules());
    let first = g.steps()[0];
    let text = g.step_text(first);
    g.play_turn(&text).unwrap();
    assert_eq!(g.turn_texts(), vec![text.clone()]);
    assert!(g.play_turn("zz99").is_err());
    assert_eq!(g.turns().len(), 1, "a bad turn changes nothing");
    let fen = g.to_fen();
    let back = Game::from_fen(rules(), &fen).unwrap();
    assert_eq!(back.to_fen(), fen);
}

fn four() -> (VariantSpec, Arc<Rules<WideBitboard>>) {
    let spec = parse_variant(
        include_str!("../../../variants/hexachess-4.ron"),
        "hexachess-4.ron",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let rules = Arc::new(Rules::<WideBitboard>::compile(&spec).unwrap());
    (spec, rules)
}

#[test]
fn the_four_player_board_seats_partners_opposite_and_nobody_is_attacked_at_the_start() {
    let (spec, rules) = four();
    assert_eq!(spec.cells.len(), 269);
    let g = Game::new(Arc::clone(&rules));
    let names: Vec<&str> = g.sides().map(|s| rules.side_name(s)).collect();
    assert_eq!(names, ["White", "Black", "Gold", "Red"]);
    // Partners opposite: White's ally is Gold (turned half round), Black's is Red.
    assert_eq!(rules.enemies(Side::White), &[Side::Black, Side::Fourth]);
    assert_eq!(rules.enemies(Side::Black), &[Side::Third, Side::White]);
    // Every army has the 3-player army's pieces; no piece attacks another army.
    let pos = g.position();
    for side in g.sides() {
        assert_eq!(CellSet::count(pos.side_cells(side)), 20, "{side:?}");
        for them in rules.enemies(side) {
            for c in pos.side_cells(side) {
                assert!(!pos.is_attacked(c, *them), "{side:?} attacked by {them:?}");
            }
        }
        // The three bishops stand on three colours.
        let bishop = rules.kind_by_letter('B').unwrap();
        let colours: std::collections::HashSet<_> = pos
            .kind_cells(side, bishop)
            .into_iter()
            .map(|c| rules.board().hex(c).colour())
            .collect();
        assert_eq!(colours.len(), 3);
    }
}

#[test]
fn the_four_player_start_counts_agree_with_a_second_generator() {
    let (spec, rules) = four();
    let g = Game::new(Arc::clone(&rules));
    let mut pos = Position::start(rules);
    assert_eq!(g.perft(1), naive_moves(&pos, &spec) as u64);
    let mut naive_two = 0;
    for m in pos.legal_moves() {
        pos.make_move(m);
        naive_two += naive_moves(&pos, &spec) as u64;
        pos.unmake_move();
    }
    assert_eq!(g.perft(2), naive_two);
}

#[test]
fn in_the_team_game_the_first_checkmate_wins_for_the_team() {
    // Black's king (the second seat) in the right-hand corner, mated by White's rooks
    // as in the 3-player test; Gold and Red stand far away.
    let (_, rules) = four();
    let board = rules.board();
    let pieces: &[(i8, i8, &str)] = &[
        (4, -9, "wK"),
        (9, 0, "bK"),
        (-4, 9, "cK"),
        (-9, 4, "dK"),
        (-3, 1, "wR"),
        (-3, -1, "wR"),
        (-4, -2, "wR"),
    ];
    let by_cell: HashMap<_, _> = pieces
        .iter()
        .map(|(q, r, t)| (board.cell(Hex::new(*q, *r)).expect("on the board"), *t))
        .collect();
    let placement =
        hexchess_core::fen::placement_tokens(board, |c| by_cell.get(&c).map(|t| t.to_string()));
    let mut g = Game::from_fen(Arc::clone(&rules), &format!("{placement} w - 0 1")).unwrap();
    // The king's cells are on the ranks 1, 0 and -1: two rooks hold 1 and -1, the
    // third comes to 0.
    let mate = mv(&g, (-4, -2), (-4, 0));
    assert!(g.steps().contains(&mate));
    g.play_unchecked(mate);
    let end = g.end().expect("over");
    assert_eq!(end.termination, Termination::Checkmate);
    assert_eq!(end.winners(), vec![Side::White, Side::Third]);
    assert_eq!(end.points(Side::Third), Points::HALF);
}

/// The 3-player rules with one option of the `multiplayer` section changed.
fn rules_with(from: &str, to: &str) -> Arc<Rules<WideBitboard>> {
    let text = include_str!("../../../variants/hexachess-3.ron");
    assert!(text.contains(from));
    let spec = parse_variant(&text.replace(from, to), "hexachess-3.ron").unwrap();
    Arc::new(Rules::<WideBitboard>::compile(&spec).unwrap())
}

fn game_in(
    rules: Arc<Rules<WideBitboard>>,
    pieces: &[(i8, i8, &str)],
    turn: char,
) -> Game<WideBitboard> {
    let board = rules.board();
    let by_cell: HashMap<_, _> = pieces
        .iter()
        .map(|(q, r, t)| (board.cell(Hex::new(*q, *r)).expect("on the board"), *t))
        .collect();
    let placement =
        hexchess_core::fen::placement_tokens(board, |c| by_cell.get(&c).map(|t| t.to_string()));
    Game::from_fen(Arc::clone(&rules), &format!("{placement} {turn} - 0 1")).unwrap()
}

#[test]
fn two_moves_make_at_most_one_new_threat_per_opponent_unless_it_forks() {
    // As in the two-attacker test; Black pawns on h7... (4,-2) and (-6,1): the knight's
    // move attacks one, the rook's move to i10 the other.
    let base = [
        (0, 0, "wR"),
        (-4, 0, "bR"),
        (4, 0, "cR"),
        (2, -6, "wN"),
        (4, -2, "bP"),
        (-6, 1, "bP"),
    ];
    let mut g = game(&with_kings(&base), 'w', "");
    assert_eq!(g.moves_this_turn().0, 2);
    g.play_unchecked(mv(&g, (2, -6), (3, -4)));
    let rook_up = mv(&g, (0, 0), (0, 1));
    assert!(
        !g.steps().contains(&rook_up),
        "a second new threat on Black"
    );
    // With a Red pawn on the rook's new rank, the rook's attack on Black's pawn also
    // hits Red: it does not count against Black.
    let mut forked: Vec<_> = with_kings(&base);
    forked.push((5, 1, "cP"));
    let mut g = game(&forked, 'w', "");
    g.play_unchecked(mv(&g, (2, -6), (3, -4)));
    assert!(g.steps().contains(&rook_up), "{:?}", g.steps());
}

#[test]
fn a_mate_that_needs_both_moves_is_not_allowed() {
    // Red's king in the r9 corner; White's rook on the rank above holds it; one rook
    // can reach the rank below, another the king's rank. Black's rook and Red's
    // bishop both attack White's knight, so White has two moves.
    let pieces = |below_ready: bool| {
        let mut p = vec![
            (5, -8, "wK"),
            (-8, 3, "bK"),
            (8, 0, "cK"),
            (-3, 1, "wR"),
            (-4, -2, "wR"),
            (0, -5, "wN"),
            (-3, -5, "bR"),
            (4, -7, "cB"),
        ];
        p.push(if below_ready {
            (-2, -1, "wR")
        } else {
            (-2, -4, "wR")
        });
        p
    };
    let mut g = game(&pieces(false), 'w', "");
    assert_eq!(
        g.moves_this_turn().0,
        2,
        "{:?} {}",
        g.threatening(WHITE),
        g.to_fen()
    );
    g.play_unchecked(mv(&g, (-2, -4), (-2, -1)));
    let check = mv(&g, (-4, -2), (-4, 0));
    assert!(g.position().is_legal(match check {
        Step::Play(m) => m,
        Step::Stop => unreachable!(),
    }));
    assert!(!g.steps().contains(&check), "the mate needs both moves");
    // When the rank below is already held, the check alone mates: allowed as the
    // second move.
    let mut g = game(&pieces(true), 'w', "");
    g.play_unchecked(mv(&g, (0, -5), (1, -3)));
    assert!(g.steps().contains(&check), "{:?}", g.steps());
    g.play_unchecked(check);
    assert_eq!(g.standing(RED), Standing::Frozen);
}

#[test]
fn threatened_reads_as_the_variant_says() {
    // Black's bishop attacks White's pawn from afar; the pawn is defended by White's
    // knight. Red's rook attacks White's undefended rook.
    let pieces = with_kings(&[
        (0, -2, "wP"),
        (-1, -4, "wN"),
        (-6, 1, "bB"),
        (1, 3, "wR"),
        (1, -1, "cR"),
    ]);
    let hanging = game(&pieces, 'w', "");
    assert_eq!(hanging.threatening(WHITE), vec![RED]);
    assert_eq!(hanging.moves_this_turn().0, 1);
    let attack = game_in(
        rules_with("threat: Hanging", "threat: Attack"),
        &pieces,
        'w',
    );
    assert_eq!(attack.threatening(WHITE), vec![BLACK, RED]);
    assert_eq!(attack.moves_this_turn().0, 2);
    let check = game_in(rules_with("threat: Hanging", "threat: Check"), &pieces, 'w');
    assert!(check.threatening(WHITE).is_empty());
    // A rook in the pawn's place, still defended by the knight: the bishop is worth
    // less than it, so Black threatens too.
    let rook_for_pawn = with_kings(&[
        (0, -2, "wR"),
        (-1, -4, "wN"),
        (-6, 1, "bB"),
        (1, 3, "wR"),
        (1, -1, "cR"),
    ]);
    let hanging = game(&rook_for_pawn, 'w', "");
    assert_eq!(hanging.threatening(WHITE), vec![BLACK, RED]);
}

#[test]
fn a_side_out_may_leave_capturable_pieces_when_the_variant_says_so() {
    let pieces = [
        (5, -8, "wK"),
        (-8, 3, "bK"),
        (8, 0, "cK"),
        (4, 4, "cP"),
        (-3, 1, "wR"),
        (-3, -1, "wR"),
        (-4, 0, "wR"),
        (4, -2, "bR"),
    ];
    let mut g = game_in(
        rules_with("eliminated: Obstacles", "eliminated: Capturable"),
        &pieces,
        'w',
    );
    g.play_unchecked(mv(&g, (-4, 0), (8, 0)));
    assert_eq!(g.standing(RED), Standing::Out);
    let pawn = cell(&g, 4, 4);
    assert!(!g.position().immune().contains(pawn));
    assert!(g.steps().contains(&mv(&g, (4, -2), (4, 4))));
}

#[test]
fn a_removal_never_takes_the_king_or_uncovers_it() {
    // Red owes 1; its knight stands between White's rook and Red's king: removing it
    // would leave the king attacked, so only the pawn may go.
    let g = game(
        &[
            (5, -8, "wK"),
            (-8, 3, "bK"),
            (3, 5, "cK"),
            (3, 0, "wR"),
            (3, 2, "cN"),
            (6, 0, "cP"),
        ],
        'c',
        "owe:c1",
    );
    let steps = g.steps();
    assert_eq!(steps, vec![Step::Play(Move::removal(cell(&g, 6, 0)))]);
}

/// Black's rook on d17 can take Red's king on i17; Red's knight, bishop and rook stand
/// round White's king on f1.
const BEFORE_RED_IS_OUT: &str =
    "5wK3/10/11/5wP6/13/14/9wR5/16/17/3bP8cR3/4bB10/bK10cB2/6cN6/12/8wQ2/10/3bR4cK b - 0 1";
/// The same position after `d17i17`: Red is out, White to move.
const RED_IS_OUT: &str =
    "5wK3/10/11/5wP6/13/14/9wR5/16/17/3bP8cR3/4bB10/bK10cB2/6cN6/12/8wQ2/10/8bR w - 0 1";

#[test]
fn a_side_out_read_from_a_fen_attacks_nothing() {
    let mut played = Game::from_fen(rules(), BEFORE_RED_IS_OUT).unwrap();
    played.play_turn("d17i17").unwrap();
    assert_eq!(played.to_fen(), RED_IS_OUT);
    let read = Game::from_fen(rules(), RED_IS_OUT).unwrap();
    assert_eq!(read.standing(RED), Standing::Out);
    // Red's army is an obstacle: it guards none of the cells round White's king.
    for turn in ["f1e1", "f1f2", "f1g3"] {
        assert_eq!(read.clone().play_turn(turn), Ok(()), "{turn}");
    }
    assert_eq!(read.perft(1), 92);
    assert_eq!(read.perft(2), played.perft(2));
}

#[test]
fn a_new_attack_is_excused_only_when_the_piece_making_it_forks() {
    // White's pawn on i7 hangs to Black's rook on n7 and Red's bishop on o10: two
    // moves. The rook to p9 attacks Black's rook on n7 and Red's bishop (a fork); the
    // other rook to e17 then attacks Black's king on a17 and the rook on n7 as well.
    // Two of White's new attacks on Black (e17's) hit no other side: refused, though
    // the rook on n7 is also attacked by the forking rook.
    let fen = "5wK3/10/3wN7/12/13/14/8wP3bR2/3wR12/4wR12/13cB2/15/14/13/11cK/11/2bP7/bK8 w - 0 1";
    let g = Game::from_fen(rules(), fen).unwrap();
    assert_eq!(g.moves_this_turn(), (2, 0));
    assert_eq!(g.clone().play_turn("e9p9"), Ok(()));
    assert_eq!(
        g.clone().play_turn("e9p9&d8e17"),
        Err(TurnError::NotAllowed("d8e17".into()))
    );
    assert_eq!(g.perft(1), 4_360);
}

#[test]
fn a_piece_newly_attacked_twice_is_two_attacks() {
    // White's rook on i9 hangs to Black's rook on e9 and Red's on n9: two moves. The
    // knight e7-f10 attacks Black's pawn on g12, which the rook on c5 behind it now
    // attacks too; then the rook i9-h8 would attack Black's pawn on b8 and Red's on m8
    // (a fork).
    let base = [
        (0, 0, "wR"),
        (-4, 0, "bR"),
        (4, 0, "cR"),
        (-2, -2, "wN"),
        (-2, 3, "bP"),
        (-6, -1, "bP"),
        (4, -1, "cP"),
    ];
    let with_rook_behind: Vec<_> = with_kings(&base)
        .into_iter()
        .chain([(-2, -4, "wR")])
        .collect();
    let mut g = game(&with_rook_behind, 'w', "");
    assert_eq!(g.moves_this_turn(), (2, 0));
    g.play_unchecked(mv(&g, (-2, -2), (-3, 1)));
    // Three new attacks on Black; two of them, the knight's and the rook's on g12,
    // are made by pieces that attack nothing of Red's: refused.
    let fork = mv(&g, (0, 0), (0, -1));
    assert!(!g.steps().contains(&fork), "{}", g.to_fen());
    // Without the rook on c5, one attack that is not a fork: allowed.
    let mut g = game(&with_kings(&base), 'w', "");
    g.play_unchecked(mv(&g, (-2, -2), (-3, 1)));
    assert!(g.steps().contains(&fork), "{}", g.to_fen());
}

/// Red to move with two; its queen on c2 can take White's king on c1.
const RED_MAY_TAKE_THE_KING: &str = "2wKwN3wBwB/2cQ7/wP5wP4/3bRwPwP2cR2cP/10wP2/14/bPbB5cB6cN/3bP2wP2wPcP5/bK2bP3bP2cP1cN4/bN1bPbP7cP4/11cP2cB/2bP6cP2cK1/1bNbP5bB4/3bP8/4bPcP4wB/10/2bP6 c - 0 59";

#[test]
fn taking_a_king_with_either_move_leaves_the_limits_the_same() {
    let g = Game::from_fen(rules(), RED_MAY_TAKE_THE_KING).unwrap();
    assert_eq!(g.moves_this_turn(), (2, 0));
    // The bishop to f3 attacks White's pawn on e4 and bishop on h1: once White's king
    // is taken they are obstacles, which nobody threatens.
    for turn in ["c2c1&h7f3", "h7f3&c2c1"] {
        assert_eq!(g.clone().play_turn(turn), Ok(()), "{turn}");
    }
    // The bishop to b4 attacks Black's pawn on d8 and White's pawn on k8; the queen on
    // c1 attacks Black's pawn on c17. With White out the pawn on k8 is an obstacle,
    // so the bishop forks nothing: two new threats on Black.
    for turn in ["h7b4&c2c1", "c2c1&h7b4"] {
        assert!(
            matches!(g.clone().play_turn(turn), Err(TurnError::NotAllowed(_))),
            "{turn}"
        );
    }
    assert_order_does_not_matter(&g);
}

#[test]
fn a_side_taken_out_in_the_turn_still_gives_up_only_one_piece() {
    // Where the army of a side out may be captured: White's king and its pawn on l5
    // (or its bishop on i1) are two captures from one opponent, whichever comes first.
    let rules = rules_with("eliminated: Obstacles", "eliminated: Capturable");
    let g = Game::from_fen(rules, RED_MAY_TAKE_THE_KING).unwrap();
    for turn in ["m4l5&c2c1", "c2c1&m4l5", "i4i1&c2c1", "c2c1&i4i1"] {
        assert!(
            matches!(g.clone().play_turn(turn), Err(TurnError::NotAllowed(_))),
            "{turn}"
        );
    }
    assert_order_does_not_matter(&g);
}

/// Every turn of two moves allowed in `g` is allowed in the other order too, whenever
/// that order is legal move by move (limit 5 judges each move on its own board).
fn assert_order_does_not_matter(g: &Game<WideBitboard>) {
    let us = g.side_to_move();
    let seconds = |first: Move| {
        let mut after = g.clone();
        after.play_unchecked(Step::Play(first));
        (after.side_to_move() == us).then(|| (after.position().legal_moves(), after.steps()))
    };
    let firsts = g.position().legal_moves();
    let table: HashMap<Move, _> = firsts
        .iter()
        .filter_map(|m| Some((*m, seconds(*m)?)))
        .collect();
    for (a, (_, allowed)) in &table {
        for step in allowed {
            let Step::Play(b) = *step else { continue };
            let Some((legal, reversed)) = table.get(&b) else {
                continue;
            };
            if legal.contains(a) {
                assert!(
                    reversed.contains(&Step::Play(*a)),
                    "{a:?} then {b:?}, not the other way"
                );
            }
        }
    }
}

#[test]
fn the_attacks_found_in_one_sweep_are_those_found_cell_by_cell() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    // Random games of three and four sides, captures favoured so that pieces come
    // under attack; at each turn's start, every side's attacks on every other side.
    for (rules, seed) in [(rules(), 3), (rules(), 4), (four().1, 5)] {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut g = Game::new(Arc::clone(&rules));
        let mut checked = 0;
        for _ in 0..300 {
            if g.end().is_some() {
                break;
            }
            let pos = g.position();
            // Each side's pieces, and the empty cells (a king's surroundings).
            let empty: WideBitboard = rules
                .board()
                .cells()
                .filter(|c| pos.piece_at(*c).is_none())
                .collect();
            for them in g.sides() {
                for targets in g.sides().map(|s| pos.side_cells(s)).chain([empty]) {
                    let by_cell: WideBitboard = targets
                        .into_iter()
                        .filter(|c| pos.is_attacked(*c, them))
                        .collect();
                    assert_eq!(pos.attacked_among(them, targets), by_cell, "{}", g.to_fen());
                    checked += CellSet::count(by_cell);
                }
            }
            let steps = g.steps();
            let captures: Vec<Step> = steps
                .iter()
                .copied()
                .filter(|s| matches!(s, Step::Play(m) if pos.is_capture(*m)))
                .collect();
            let pick = if !captures.is_empty() && rng.random_bool(0.7) {
                captures[rng.random_range(0..captures.len())]
            } else {
                steps[rng.random_range(0..steps.len())]
            };
            g.play(pick).unwrap();
        }
        assert!(checked > 100, "only {checked} attacked pieces seen");
    }
}

/// What anyone can see of a game.
fn seen(g: &Game<WideBitboard>) -> String {
    let sides: Vec<_> = g.sides().map(|s| (g.standing(s), g.owed(s))).collect();
    format!(
        "{} {:x} {:?} {:?} {:?} {} {:?} {:?} {:?}",
        g.to_fen(),
        g.position().hash(),
        sides,
        g.side_to_move(),
        g.end(),
        g.turns().len(),
        g.current_steps(),
        g.steps(),
        g.position().immune().into_iter().collect::<Vec<_>>(),
    )
}

/// Every step of `g`, and one more after it, taken back leaves `g` as it was.
fn check_every_step_taken_back(g: &mut Game<WideBitboard>) {
    let before = seen(g);
    for step in g.steps() {
        let saved = g.save();
        g.play_unchecked(step);
        if let Some(next) = g.steps().first() {
            g.play_unchecked(*next);
        }
        g.restore(saved);
        assert_eq!(seen(g), before, "after {step:?}");
    }
}

#[test]
fn freezes_king_captures_mates_and_debts_are_taken_back_with_their_steps() {
    // Red frozen; White's next steps include taking its king (out).
    let mut g = corner_mate("cK", (-8, 3, "bK"), &[(4, -2, "bR")], true);
    check_every_step_taken_back(&mut g);
    // A step freezes Red; then Black's knight may lift the mate.
    let mut g = corner_mate("cK", (-8, 3, "bK"), &[(1, 3, "bN")], false);
    check_every_step_taken_back(&mut g);
    g.play_unchecked(mv(&g, (-4, -2), (-4, 0)));
    assert_eq!(g.standing(RED), Standing::Frozen);
    check_every_step_taken_back(&mut g);
    // Two sides left: a step mates and ends the game.
    let mut g = corner_mate("bK", (0, 0, ""), &[], false);
    check_every_step_taken_back(&mut g);
    // An exchange, then the third side's debt and its removals.
    let mut g = exchange_game();
    g.play_unchecked(mv(&g, (0, 0), (0, 3)));
    check_every_step_taken_back(&mut g);
    g.play_unchecked(mv(&g, (-3, 3), (0, 3)));
    check_every_step_taken_back(&mut g);
    g.play_unchecked(quiet(&g));
    assert_eq!(g.owed(RED), 3);
    for _ in 0..3 {
        check_every_step_taken_back(&mut g);
        let first = g.steps()[0];
        g.play_unchecked(first);
    }
}

#[test]
fn a_pawn_move_names_its_from_cell_and_every_turn_reads_back() {
    // The first round: each side's pawn moves read alike (SAN's shortest hint gave
    // `a4`, `ee4` and `c13d13` in one list).
    let mut g = Game::new(rules());
    for (lan, text) in [("e3e4", "e3e4"), ("c13d13", "c13d13"), ("n11m11", "n11m11")] {
        let step = g.parse_step(lan).unwrap();
        assert_eq!(g.step_text(step), text);
        g.play(step).unwrap();
    }
    assert_eq!(g.turn_texts(), ["e3e4", "c13d13", "n11m11"]);
    // Pieces keep SAN.
    let knight = g.parse_step("b1c4").unwrap();
    assert_eq!(g.step_text(knight), "Nc4");

    // A long game of steps chosen by a fixed sequence: every pawn step names its
    // from-cell (with `x` when it takes), and the turns written play the same game.
    let mut g = Game::new(rules());
    let mut seed = 0x2545_f491_u64;
    let (mut pawn_moves, mut pawn_captures) = (0, 0);
    for _ in 0..400 {
        if g.end().is_some() {
            break;
        }
        let steps = g.steps();
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let step = steps[(seed >> 33) as usize % steps.len()];
        if let Step::Play(m) = step {
            let pos = g.position();
            let board = pos.rules().board();
            let pawn = pos.piece_at(m.from()).map(|p| p.kind) == pos.rules().pawn_kind();
            if pawn && m.placed_kind().is_none() && !m.is_edit() {
                let text = g.step_text(step);
                assert!(text.starts_with(board.name(m.from())), "{text}");
                assert_eq!(text.contains('x'), pos.is_capture(m), "{text}");
                pawn_moves += 1;
                pawn_captures += usize::from(pos.is_capture(m));
            }
        }
        g.play(step).unwrap();
    }
    assert!(
        pawn_moves > 20 && pawn_captures > 0,
        "{pawn_moves} {pawn_captures}"
    );
    // The list holds whole turns: the one in progress is ended first.
    while !g.current_steps().is_empty() && g.end().is_none() {
        let steps = g.steps();
        let step = if steps.contains(&Step::Stop) {
            Step::Stop
        } else {
            steps[0]
        };
        g.play(step).unwrap();
    }
    let texts = g.turn_texts();
    let mut again = Game::new(rules());
    for t in &texts {
        again.play_turn(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    assert_eq!(again.to_fen(), g.to_fen());
}
