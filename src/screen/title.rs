//! The window's title: the game and who plays it, as a task bar lists windows
//! ("hexchess — Gliński — Player vs hexchess-engine (level 11)").

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::game::CurrentGame;
use crate::play::Session;

/// The title for the game on the board.
pub fn window_title(game: &CurrentGame, session: &Session) -> String {
    let name = game.rules().name();
    if game.has_more_sides() {
        let who: Vec<String> = game
            .played
            .sides()
            .map(|s| session.seats.seat(s).label())
            .collect();
        return format!("hexchess — {name} — {}", who.join(", "));
    }
    let players = session.players(game.side_count());
    format!("hexchess — {name} — {} vs {}", players.white, players.black)
}

/// Keeps the title up to date (set only when it changes: the platform is told each
/// time).
pub(super) fn name_the_window(
    game: Res<CurrentGame>,
    session: Res<Session>,
    mut window: Query<&mut Window, With<PrimaryWindow>>,
) {
    let Ok(mut w) = window.single_mut() else {
        return;
    };
    let title = window_title(&game, &session);
    if w.title != title {
        w.title = title;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{Seat, Seats};
    use hexchess_core::Catalog;
    use hexchess_core::Side;

    #[test]
    fn the_title_names_the_variant_and_the_players() {
        let catalog = Catalog::builtin();
        let game = CurrentGame::new(catalog.get("mccooey").unwrap());
        let session = Session {
            seats: Seats::against_engines(Side::Black),
            ..Session::default()
        };
        assert_eq!(
            window_title(&game, &session),
            "hexchess — McCooey — hexchess-engine (level 11) vs Player"
        );
        let three = CurrentGame::new(catalog.get("hexachess-3").unwrap());
        let mut seats = Seats::default();
        *seats.seat_mut(Side::Third) = Seat::Person;
        let table = Session {
            seats,
            ..Session::default()
        };
        assert_eq!(
            window_title(&three, &table),
            "hexchess — 3-player Hexachess — person, engine (paranoid), person"
        );
    }
}
