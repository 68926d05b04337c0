//! The window's title: the game and who plays it, as a task bar lists windows
//! ("hexchess — Gliński — Player vs hexchess-engine (level 11)").

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::game::{GameState, Seating};
use crate::play::Session;
use crate::table::TableState;

/// The title for the game on the board.
pub fn window_title(
    seating: Seating,
    game: &GameState,
    session: &Session,
    table: Option<&TableState>,
) -> String {
    match (seating, table) {
        (Seating::Table, Some(t)) => {
            let seats: Vec<String> = t.seats.iter().map(|s| s.label()).collect();
            format!(
                "hexchess — {} — {}",
                t.game.position().rules().name(),
                seats.join(", ")
            )
        }
        _ => {
            let players = session.players();
            format!(
                "hexchess — {} — {} vs {}",
                game.rules().name(),
                players.white,
                players.black
            )
        }
    }
}

/// Keeps the title up to date (set only when it changes: the platform is told each
/// time).
pub(super) fn name_the_window(
    seating: Res<State<Seating>>,
    game: Res<GameState>,
    session: Res<Session>,
    table: Option<Res<TableState>>,
    mut window: Query<&mut Window, With<PrimaryWindow>>,
) {
    let Ok(mut w) = window.single_mut() else {
        return;
    };
    let title = window_title(*seating.get(), &game, &session, table.as_deref());
    if w.title != title {
        w.title = title;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::Catalog;
    use hexchess_core::Side;

    #[test]
    fn the_title_names_the_variant_and_the_players() {
        let catalog = Catalog::builtin();
        let game = GameState::new(catalog.get("mccooey").unwrap().two_player_rules().unwrap());
        let session = Session {
            mode: crate::play::Mode::HumanVsEngine { human: Side::Black },
            ..Session::default()
        };
        assert_eq!(
            window_title(Seating::Duel, &game, &session, None),
            "hexchess — McCooey — hexchess-engine (level 11) vs Player"
        );
    }
}
