//! A game of more sides in the headless app, through the same resource, requests and
//! views as a two-player game: a table starts from the new-game request, a person plays
//! by clicks (a second move or ending the turn, a removal owed, a promotion chosen),
//! engine seats play their turns, undo takes back whole turns, the move list steps back
//! through earlier turns, every seat has a clock, and the pieces shown follow the game.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use hexchess::board::{CellTile, Selection, cell_world};
use hexchess::game::{CurrentGame, RedoRequest, ReviewRequest, StepRequest, UndoRequest};
use hexchess::input::{PendingPromotion, PointerCell, PromotionChoice};
use hexchess::look::Settings;
use hexchess::pieces::PieceView;
use hexchess::play::{Clocks, EngineSeat, Seat, Seats, Session, StartGame, TimeControl};
use hexchess_core::game::{Standing, Step};
use hexchess_core::{Cell, Side, Termination};
use hexchess_engine::multi::Strategy;

fn app() -> App {
    let session = Session {
        seats: Seats::people(),
        ..Session::default()
    };
    let frame = Some(Duration::from_millis(20));
    let mut app = common::headless_app("glinski", None, Settings::default(), session, frame);
    app.update();
    app
}

fn seats(players: &[Seat]) -> Seats {
    let mut seats = Seats::default();
    for (side, seat) in Side::ALL.into_iter().zip(players) {
        *seats.seat_mut(side) = *seat;
    }
    seats
}

/// A quick engine seat: random moves after a short search.
const RANDOM: Seat = Seat::Engine(EngineSeat {
    strategy: Strategy::Random,
    nodes: 50,
});

fn start(app: &mut App, variant: &str, seats: Seats, turns: &[&str]) {
    start_at(app, variant, seats, None, turns, None);
}

fn start_at(
    app: &mut App,
    variant: &str,
    seats: Seats,
    fen: Option<&str>,
    turns: &[&str],
    time_control: Option<TimeControl>,
) {
    app.world_mut().write_message(StartGame {
        variant: variant.into(),
        seats,
        level: hexchess::play::DEFAULT_LEVEL,
        time_control,
        fen: fen.map(str::to_string),
        moves: turns.iter().map(|t| t.to_string()).collect(),
    });
    for _ in 0..4 {
        app.update();
    }
}

fn game(app: &App) -> &CurrentGame {
    app.world().resource::<CurrentGame>()
}

fn cell(app: &App, name: &str) -> Cell {
    game(app).rules().board().parse_cell(name).unwrap()
}

fn click(app: &mut App, name: &str) {
    let c = cell(app, name);
    let world = cell_world(game(app).rules(), c);
    *app.world_mut().resource_mut::<PointerCell>() = PointerCell {
        cell: Some(c),
        world: Some(world),
    };
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(MouseButton::Left);
    app.update();
    let mut b = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
    b.release(MouseButton::Left);
    b.clear();
    app.update();
}

/// Frames until nothing moves, then the pieces shown must be those of the position
/// the board shows.
fn settle_and_compare(app: &mut App) {
    for _ in 0..300 {
        app.update();
        if !hexchess::pieces::animation::animating(app.world_mut()) {
            break;
        }
    }
    app.update();
    let mut shown: Vec<(usize, usize, usize)> = app
        .world_mut()
        .query::<&PieceView>()
        .iter(app.world())
        .map(|v| (v.cell.index(), v.piece.side.index(), v.piece.kind.index()))
        .collect();
    let mut actual: Vec<(usize, usize, usize)> = game(app)
        .displayed()
        .pieces()
        .map(|(c, p)| (c.index(), p.side.index(), p.kind.index()))
        .collect();
    shown.sort();
    actual.sort();
    assert_eq!(shown, actual);
}

#[test]
fn people_play_a_game_of_three_by_clicks_on_the_one_board() {
    let mut app = app();
    start(&mut app, "hexachess-3", seats(&[Seat::Person; 3]), &[]);
    assert_eq!(game(&app).side_count(), 3);
    let tiles = app
        .world_mut()
        .query::<&CellTile>()
        .iter(app.world())
        .map(|t| t.0)
        .collect::<std::collections::HashSet<_>>()
        .len();
    assert_eq!(tiles, 217, "the board of three replaced the two-player one");
    settle_and_compare(&mut app);
    // White: e3 to e4 by two clicks.
    click(&mut app, "e3");
    assert_eq!(
        app.world().resource::<Selection>().from,
        Some(cell(&app, "e3"))
    );
    click(&mut app, "e4");
    assert_eq!(game(&app).turn_count(), 1);
    settle_and_compare(&mut app);
    // A click on another side's piece selects nothing.
    click(&mut app, "e4");
    assert_eq!(app.world().resource::<Selection>().from, None);
}

/// Turns after which White is threatened by both opponents (two moves).
const TWO_MOVES: [&str; 12] = [
    "e3e4", "c13d13", "l13l12", "d1e15", "c14d14", "i17n9", "e15g15", "a15g7", "n9l13", "g15n7",
    "a14n7", "l13m7",
];

#[test]
fn a_second_move_is_played_or_the_turn_ended_and_undo_takes_back_the_whole_turn() {
    let mut app = app();
    start(
        &mut app,
        "hexachess-3",
        seats(&[Seat::Person; 3]),
        &TWO_MOVES,
    );
    let before = game(&app).played.to_fen();
    let (allowed, _) = game(&app).played.moves_this_turn();
    assert_eq!(allowed, 2);
    let first = game(&app)
        .played
        .steps()
        .into_iter()
        .find_map(|s| match s {
            Step::Play(m) if game(&app).position().piece_at(m.to()).is_none() => Some(m),
            _ => None,
        })
        .unwrap();
    let (from, to) = {
        let b = game(&app).rules().board();
        (
            b.name(first.from()).to_string(),
            b.name(first.to()).to_string(),
        )
    };
    click(&mut app, &from);
    click(&mut app, &to);
    assert_eq!(game(&app).turn_count(), TWO_MOVES.len(), "the turn goes on");
    assert!(game(&app).played.steps().contains(&Step::Stop));
    app.world_mut().write_message(StepRequest(Step::Stop));
    app.update();
    assert_eq!(game(&app).turn_count(), TWO_MOVES.len() + 1);
    settle_and_compare(&mut app);
    // Undo: the whole turn (both of its steps) goes; redo plays it again.
    app.world_mut().write_message(UndoRequest(1));
    app.update();
    assert_eq!(game(&app).turn_count(), TWO_MOVES.len());
    assert_eq!(game(&app).played.to_fen(), before);
    settle_and_compare(&mut app);
    app.world_mut().write_message(RedoRequest(1));
    app.update();
    assert_eq!(game(&app).turn_count(), TWO_MOVES.len() + 1);
    // Half a turn taken back: only the step played so far goes.
    app.world_mut().write_message(UndoRequest(1));
    app.update();
    click(&mut app, &from);
    click(&mut app, &to);
    assert_eq!(game(&app).played.current_steps().len(), 1);
    app.world_mut().write_message(UndoRequest(0));
    app.update();
    assert_eq!(game(&app).played.to_fen(), before);
    assert_eq!(game(&app).turn_count(), TWO_MOVES.len());
}

#[test]
fn undo_against_engines_goes_back_to_the_persons_turn() {
    let mut app = app();
    let table = seats(&[Seat::Person, RANDOM, RANDOM]);
    start(
        &mut app,
        "hexachess-3",
        table,
        &["e3e4", "c13d13", "l13l12"],
    );
    assert_eq!(game(&app).side_to_move(), Side::White);
    let turns = hexchess::play::undo_turns(game(&app), app.world().resource::<Session>());
    assert_eq!(turns, 3, "back over both engines' turns to White's own");
    app.world_mut().write_message(UndoRequest(turns));
    app.update();
    assert_eq!(game(&app).turn_count(), 0);
    assert_eq!(game(&app).side_to_move(), Side::White);
}

#[test]
fn the_move_list_steps_back_through_earlier_turns() {
    let mut app = app();
    start(
        &mut app,
        "hexachess-3",
        seats(&[Seat::Person; 3]),
        &TWO_MOVES,
    );
    let live = game(&app).played.to_fen();
    app.world_mut().write_message(ReviewRequest(Some(3)));
    app.update();
    let three = hexchess_core::Game::from_moves(
        std::sync::Arc::clone(&Catalogue::get("hexachess-3")),
        None,
        &TWO_MOVES[..3],
    )
    .unwrap();
    assert_eq!(game(&app).displayed_game().to_fen(), three.to_fen());
    settle_and_compare(&mut app);
    // Nothing is played while an earlier turn is shown.
    click(&mut app, "e4");
    click(&mut app, "e5");
    assert_eq!(game(&app).played.to_fen(), live);
    app.world_mut().write_message(ReviewRequest(None));
    app.update();
    settle_and_compare(&mut app);
}

struct Catalogue;

impl Catalogue {
    fn get(
        id: &str,
    ) -> std::sync::Arc<hexchess_core::Rules<hexchess_core::bitboard::WideBitboard>> {
        let catalog = hexchess_core::Catalog::builtin();
        std::sync::Arc::clone(catalog.get(id).unwrap().rules())
    }
}

#[test]
fn every_seat_has_a_clock_from_the_second_round_and_a_flag_ends_the_game_for_the_others() {
    let mut app = app();
    let tc = TimeControl {
        base: Duration::from_secs(1),
        increment: Duration::from_millis(500),
    };
    start_at(
        &mut app,
        "hexachess-3",
        seats(&[Seat::Person; 3]),
        None,
        &[],
        Some(tc),
    );
    let left = |app: &App, side: Side| app.world().resource::<Clocks>().left(side).unwrap();
    let sides = [Side::White, Side::Black, Side::Third];
    for _ in 0..5 {
        app.update();
    }
    for side in sides {
        assert_eq!(
            left(&app, side),
            tc.base,
            "no clock runs before the first move"
        );
    }
    // The first round: each move adds its increment; no time was spent on it.
    let play_any = |app: &mut App| {
        let step = game(app).played.steps()[0];
        app.world_mut().write_message(StepRequest(step));
        app.update();
        app.update();
    };
    for _ in sides {
        play_any(&mut app);
    }
    assert_eq!(game(&app).turn_count(), 3);
    let after_round = tc.base + tc.increment;
    // White's has run a frame or two since (frames of 20 ms).
    let just_started =
        |t: Duration| t < after_round && t + Duration::from_millis(100) > after_round;
    assert_eq!(left(&app, Side::Black), after_round);
    assert_eq!(left(&app, Side::Third), after_round);
    app.update();
    let start_white = left(&app, Side::White);
    assert!(
        just_started(start_white),
        "White's clock runs: {start_white:?}"
    );
    assert_eq!(left(&app, Side::Black), after_round, "Black's waits");
    // White moves (the increment); an undo gives back what the turn took.
    play_any(&mut app);
    assert!(
        left(&app, Side::White) > start_white,
        "the increment is White's"
    );
    app.update();
    assert!(left(&app, Side::Black) < after_round, "Black's clock runs");
    app.world_mut().write_message(UndoRequest(1));
    app.update();
    assert_eq!(game(&app).turn_count(), 3);
    assert_eq!(left(&app, Side::Black), after_round, "given back");
    assert_eq!(left(&app, Side::Third), after_round);
    let white = left(&app, Side::White);
    assert!(
        just_started(white),
        "White's time as the turn began: {white:?}"
    );
    // White moves again; Black lets its time run out: the two others share the win.
    play_any(&mut app);
    for _ in 0..200 {
        app.update();
        if game(&app).outcome().is_some() {
            break;
        }
    }
    let end = game(&app).outcome().expect("the flag fell");
    assert_eq!(end.termination, Termination::Time);
    assert_eq!(end.winners(), vec![Side::White, Side::Third]);
}

#[test]
fn engine_seats_play_their_turns_and_a_two_player_game_brings_its_board_back() {
    let mut app = app();
    let table = seats(&[RANDOM; 4]);
    start(&mut app, "hexachess-4", table, &[]);
    for _ in 0..400 {
        app.update();
        if game(&app).turn_count() >= 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(game(&app).turn_count() >= 4, "the engines played");
    assert!(
        game(&app)
            .played
            .sides()
            .all(|s| game(&app).played.standing(s) != Standing::Out)
    );
    settle_and_compare(&mut app);
    app.world_mut().write_message(StartGame {
        variant: "glinski".into(),
        seats: Seats::people(),
        level: hexchess::play::DEFAULT_LEVEL,
        time_control: None,
        fen: None,
        moves: Vec::new(),
    });
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(game(&app).side_count(), 2);
    settle_and_compare(&mut app);
}

#[test]
fn a_promotion_waits_for_the_piece_chosen() {
    let mut app = app();
    // White's pawn on b9 reaches Black's edge on a10.
    let fen = "5wK3/10/11/12/13/14/15/16/1wP15/16/15/bK13/13/11cK/11/10/9 w - 0 1";
    start_at(
        &mut app,
        "hexachess-3",
        seats(&[Seat::Person; 3]),
        Some(fen),
        &[],
        None,
    );
    click(&mut app, "b9");
    click(&mut app, "a10");
    assert_eq!(game(&app).turn_count(), 0, "no piece chosen yet");
    let rook = game(&app).rules().kind_by_letter('R').unwrap();
    let choice = app
        .world()
        .resource::<PendingPromotion>()
        .moves
        .iter()
        .position(|m| m.promotion() == Some(rook))
        .expect("the rook is offered");
    app.world_mut().write_message(PromotionChoice(Some(choice)));
    app.update();
    app.update();
    let promoted = game(&app).position().piece_at(cell(&app, "a10")).unwrap();
    assert_eq!(promoted.kind, rook);
    settle_and_compare(&mut app);
}

#[test]
fn the_analysis_board_finds_a_whole_turn_for_the_side_on_move() {
    use hexchess::play::analysis::{Analysis, AnalysisRequest};

    let mut app = app();
    start(
        &mut app,
        "hexachess-3",
        seats(&[Seat::Person; 3]),
        &TWO_MOVES,
    );
    app.world_mut().write_message(AnalysisRequest::On);
    let mut found = None;
    for _ in 0..6000 {
        app.update();
        let shown = game(&app).displayed();
        found = app.world().resource::<Analysis>().best_turn_for(&shown);
        if found.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let steps = found.expect("a turn found");
    // The turn is the side on move's, whole: played step by step it ends the turn.
    let mut g = game(&app).played.clone();
    let before = g.turns().len();
    for step in &steps {
        g.play(*step).expect("each step allowed");
    }
    assert_eq!(g.turns().len(), before + 1, "{steps:?}");
    // Nobody's seat plays while the analysis is on, and it follows the position shown.
    app.world_mut().write_message(ReviewRequest(Some(3)));
    // (A debug build searches slowly: up to a minute on a busy machine.)
    for _ in 0..6000 {
        app.update();
        let shown = game(&app).displayed();
        if let Some(turn) = app.world().resource::<Analysis>().best_turn_for(&shown) {
            let mut earlier = game(&app).displayed_game();
            assert_eq!(earlier.side_to_move(), Side::White);
            for step in &turn {
                earlier.play(*step).expect("a turn of the position shown");
            }
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!(
        "no turn for the earlier position: {} turns, viewing {:?}",
        game(&app).turn_count(),
        game(&app).viewing
    );
}

/// Runs the app until `done` or `limit` updates (a short sleep each, for the engine's
/// threads), and says whether `done` came.
fn run_for(app: &mut App, limit: usize, done: impl Fn(&App) -> bool) -> bool {
    for _ in 0..limit {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    false
}

#[test]
fn an_engines_table_pauses_and_steps_one_turn_at_a_time() {
    let mut app = app();
    start(&mut app, "hexachess-3", seats(&[RANDOM; 3]), &[]);
    app.world_mut().resource_mut::<Session>().paused = true;
    // A turn begun before the pause may end; then nothing more is played.
    run_for(&mut app, 300, |_| false);
    let held = game(&app).turn_count();
    assert!(held <= 1, "{held} turns played after the pause");
    assert!(!run_for(&mut app, 300, |a| game(a).turn_count() > held));
    // A step plays one whole turn, then it holds again.
    app.world_mut().resource_mut::<Session>().step = true;
    assert!(run_for(&mut app, 2_000, |a| game(a).turn_count() > held));
    assert!(!run_for(&mut app, 300, |a| game(a).turn_count() > held + 1));
    assert!(
        !app.world().resource::<Session>().step,
        "the step was taken"
    );
    // Resumed, the engines play on.
    app.world_mut().resource_mut::<Session>().paused = false;
    assert!(run_for(&mut app, 2_000, |a| game(a).turn_count() > held + 2));
}
