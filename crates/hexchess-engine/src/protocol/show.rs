//! What `d` shows: the board, the variant and the FEN, then what matters for the number
//! of sides: for two, the position's key and the pieces giving check (as other engines
//! show them); for more, who moves and how many moves the turn has, where each side
//! stands, and how the game ended.

use hexchess_core::bitboard::CellSet;
use hexchess_core::game::{Game, Standing};
use hexchess_core::position::Position;

/// The lines every game shows first: the board, the variant's name, the FEN.
fn board_lines<B: CellSet>(pos: &Position<B>, fen: &str) -> String {
    let mut text = pos.ascii();
    text.push_str(&format!("Variant: {}\n", pos.rules().name()));
    text.push_str(&format!("Fen: {fen}\n"));
    text
}

/// A two-player game, shown from the position its search is given.
pub(crate) fn two_sides(pos: &Position) -> String {
    let mut text = board_lines(pos, &pos.to_fen());
    text.push_str(&format!("Key: {:016X}\n", pos.hash()));
    let checkers: Vec<&str> = pos
        .attackers(pos.royal_cell(pos.turn()), !pos.turn())
        .map(|c| pos.rules().board().name(c))
        .collect();
    text.push_str(&format!("Checkers: {}", checkers.join(" ")));
    text
}

/// A game of more sides: who moves, each side's standing and what it owes, the end.
pub(crate) fn more_sides(game: &Game) -> String {
    let rules = game.position().rules();
    let mut text = board_lines(game.position(), &game.to_fen());
    text.push_str(&format!(
        "To move: {} ({} move(s) this turn)\n",
        rules.side_name(game.side_to_move()),
        game.moves_this_turn().0.max(1)
    ));
    for side in game.sides() {
        let standing = match game.standing(side) {
            Standing::Playing => "playing",
            Standing::Frozen => "checkmated: loses its turns",
            Standing::Out => "out",
        };
        let owed = match game.owed(side) {
            0 => String::new(),
            v => format!(", owes a piece worth {v}"),
        };
        text.push_str(&format!("{}: {standing}{owed}\n", rules.side_name(side)));
    }
    if let Some(end) = game.end() {
        let names: Vec<&str> = end.winners().iter().map(|s| rules.side_name(*s)).collect();
        text.push_str(&format!(
            "Over: {:?}, {}",
            end.termination,
            names.join(" and ")
        ));
    }
    text.trim_end().to_string()
}
