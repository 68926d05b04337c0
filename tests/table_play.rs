//! A game of more sides in the headless app: a table starts from a request, a person
//! plays by clicks (a second move or ending the turn, a removal owed), engine seats
//! play their turns, the pieces shown follow the game, and leaving brings the
//! two-player board back.

mod common;

use std::time::Duration;

use bevy::prelude::*;
use hexchess::board::{CellTile, cell_world};
use hexchess::game::{GameState, Seating};
use hexchess::input::PointerCell;
use hexchess::look::Settings;
use hexchess::pieces::PieceView;
use hexchess::play::{Mode, Session};
use hexchess::table::{SeatPlayer, TableRequest, TableState};
use hexchess_core::Cell;
use hexchess_core::game::{Standing, Step};
use hexchess_engine::multi::Strategy;

fn app() -> App {
    let session = Session {
        mode: Mode::HumanVsHuman,
        ..Session::default()
    };
    let frame = Some(Duration::from_millis(20));
    let mut app = common::headless_app("glinski", None, Settings::default(), session, frame);
    app.update();
    app
}

fn start(app: &mut App, variant: &str, seats: Vec<SeatPlayer>, turns: &[&str]) {
    start_at(app, variant, seats, None, turns);
}

fn start_at(
    app: &mut App,
    variant: &str,
    seats: Vec<SeatPlayer>,
    fen: Option<&str>,
    turns: &[&str],
) {
    app.world_mut().write_message(TableRequest::Start {
        variant: variant.into(),
        seats,
        fen: fen.map(str::to_string),
        turns: turns.iter().map(|t| t.to_string()).collect(),
    });
    for _ in 0..4 {
        app.update();
    }
}

fn table(app: &App) -> &TableState {
    app.world().resource::<TableState>()
}

fn cell(app: &App, name: &str) -> Cell {
    table(app)
        .game
        .position()
        .rules()
        .board()
        .parse_cell(name)
        .unwrap()
}

fn click(app: &mut App, name: &str) {
    let c = cell(app, name);
    let world = cell_world(table(app).game.position().rules(), c);
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

/// Frames until nothing moves, then the pieces shown must be the game's.
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
    let mut actual: Vec<(usize, usize, usize)> = table(app)
        .game
        .position()
        .pieces()
        .map(|(c, p)| (c.index(), p.side.index(), p.kind.index()))
        .collect();
    shown.sort();
    actual.sort();
    assert_eq!(shown, actual);
}

#[test]
fn people_play_a_game_of_three_by_clicks() {
    let mut app = app();
    start(&mut app, "hexachess-3", vec![SeatPlayer::Human; 3], &[]);
    assert_eq!(
        *app.world().resource::<State<Seating>>().get(),
        Seating::Table
    );
    let tiles = app
        .world_mut()
        .query::<&CellTile>()
        .iter(app.world())
        .map(|t| t.0)
        .collect::<std::collections::HashSet<_>>()
        .len();
    assert_eq!(tiles, 217, "the table's board replaced the two-player one");
    settle_and_compare(&mut app);
    // White: e3 to e4 by two clicks.
    click(&mut app, "e3");
    assert_eq!(table(&app).selected, Some(cell(&app, "e3")));
    click(&mut app, "e4");
    assert_eq!(table(&app).game.turns().len(), 1);
    settle_and_compare(&mut app);
    // A click on another side's piece selects nothing.
    click(&mut app, "e4");
    assert_eq!(table(&app).selected, None);
}

#[test]
fn a_second_move_is_played_or_the_turn_ended_from_the_board_and_panel() {
    let mut app = app();
    // After these turns White is threatened by both opponents (two moves).
    let turns = [
        "e3e4", "c13d13", "l13l12", "d1e15", "c14d14", "i17n9", "e15g15", "a15g7", "n9l13",
        "g15n7", "a14n7", "l13m7",
    ];
    start(&mut app, "hexachess-3", vec![SeatPlayer::Human; 3], &turns);
    let (allowed, _) = table(&app).game.moves_this_turn();
    assert_eq!(allowed, 2);
    let first = table(&app)
        .game
        .steps()
        .into_iter()
        .find_map(|s| match s {
            Step::Play(m) if table(&app).game.position().piece_at(m.to()).is_none() => Some(m),
            _ => None,
        })
        .unwrap();
    let (from, to) = {
        let b = table(&app).game.position().rules().board();
        (
            b.name(first.from()).to_string(),
            b.name(first.to()).to_string(),
        )
    };
    click(&mut app, &from);
    click(&mut app, &to);
    assert_eq!(
        table(&app).game.turns().len(),
        turns.len(),
        "the turn goes on"
    );
    assert!(table(&app).game.steps().contains(&Step::Stop));
    app.world_mut()
        .write_message(TableRequest::Step(Step::Stop));
    app.update();
    assert_eq!(table(&app).game.turns().len(), turns.len() + 1);
    settle_and_compare(&mut app);
}

#[test]
fn engine_seats_play_their_turns_and_leaving_restores_the_two_player_board() {
    let mut app = app();
    start(
        &mut app,
        "hexachess-4",
        vec![SeatPlayer::Engine(Strategy::Random); 4],
        &[],
    );
    app.world_mut().resource_mut::<TableState>().nodes = 50;
    for _ in 0..400 {
        app.update();
        if table(&app).game.turns().len() >= 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(table(&app).game.turns().len() >= 4, "the engines played");
    assert!(
        table(&app)
            .game
            .sides()
            .all(|s| table(&app).game.standing(s) != Standing::Out)
    );
    settle_and_compare(&mut app);
    app.world_mut().write_message(TableRequest::Leave);
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(
        *app.world().resource::<State<Seating>>().get(),
        Seating::Duel
    );
    assert!(app.world().get_resource::<TableState>().is_none());
    let pieces = app
        .world_mut()
        .query::<&PieceView>()
        .iter(app.world())
        .count();
    assert_eq!(
        pieces,
        app.world()
            .resource::<GameState>()
            .position
            .pieces()
            .count()
    );
}

#[test]
fn a_promotion_waits_for_the_piece_chosen() {
    let mut app = app();
    // White's pawn on b9 reaches Black's edge on a10.
    let fen = "5wK3/10/11/12/13/14/15/16/1wP15/16/15/bK13/13/11cK/11/10/9 w - 0 1";
    start_at(
        &mut app,
        "hexachess-3",
        vec![SeatPlayer::Human; 3],
        Some(fen),
        &[],
    );
    click(&mut app, "b9");
    click(&mut app, "a10");
    assert_eq!(table(&app).game.turns().len(), 0, "no piece chosen yet");
    assert_eq!(
        table(&app).promoting,
        Some((cell(&app, "b9"), cell(&app, "a10")))
    );
    let rook = table(&app)
        .game
        .position()
        .rules()
        .kind_by_letter('R')
        .unwrap();
    let step = table(&app)
        .game
        .steps()
        .into_iter()
        .find(|s| matches!(s, Step::Play(m) if m.promotion() == Some(rook)))
        .unwrap();
    app.world_mut().write_message(TableRequest::Step(step));
    app.update();
    let promoted = table(&app)
        .game
        .position()
        .piece_at(cell(&app, "a10"))
        .unwrap();
    assert_eq!(promoted.kind, rook);
    settle_and_compare(&mut app);
}
