//! A game's main line as the programs keep it: made from a game or a position as it is
//! played (the autosave, the server's record, a match's), and replayed into a game.
//! [`PgnGame`] is the one record type; what a program keeps of a game is its main line,
//! written as PGN.

use super::replay::{MoveAt, start_of};
use super::{PgnGame, ReplayError};
use crate::bitboard::CellSet;
use crate::catalog::Catalog;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;

impl PgnGame {
    /// A game of these tags whose main line is `turns`, each as written (a two-player
    /// move in SAN or long algebraic, a turn of more sides with its steps joined by
    /// `&`).
    pub fn from_turns(tags: Vec<(String, String)>, turns: &[String]) -> PgnGame {
        let mut game = PgnGame::new();
        game.tags = tags;
        let mut at = game.tree.root();
        for turn in turns {
            at = game.tree.add_move(at, turn);
        }
        game
    }

    /// The game so far: each turn as the game writes it, with the given tags;
    /// `Variant` and, for a non-standard start, `FEN` are filled in.
    pub fn from_game<B: CellSet>(
        game: &Game<B>,
        start_fen: Option<&str>,
        tags: &[(&str, String)],
    ) -> PgnGame {
        let tags = with_start(game.position().rules().id(), start_fen, tags);
        PgnGame::from_turns(tags, &game.turn_texts())
    }

    /// The moves played in `pos` (from its start) in SAN, with the given tags;
    /// `Variant` and, for a non-standard start, `FEN` are filled in.
    pub fn from_position(
        pos: &Position,
        start_fen: Option<&str>,
        tags: &[(&str, String)],
    ) -> PgnGame {
        let mut replay = pos.clone();
        let played: Vec<Move> = pos.moves_played().collect();
        for _ in 0..played.len() {
            replay.unmake_move();
        }
        let mut moves = Vec::new();
        for m in played {
            moves.push(replay.move_to_san(m));
            replay.make_move(m);
        }
        let tags = with_start(pos.rules().id(), start_fen, tags);
        PgnGame::from_turns(tags, &moves)
    }

    /// The main line's turns as written.
    pub fn main_line_turns(&self) -> Vec<&str> {
        self.tree
            .main_line()
            .into_iter()
            .map(|id| self.tree.san(id))
            .collect()
    }

    /// The game with its main line only: its tags, moves and where they were read, no
    /// variations, comments or annotations (what is loaded to play on from).
    pub fn main_line_only(&self) -> PgnGame {
        let mut line = PgnGame {
            tags: self.tags.clone(),
            number: self.number,
            line: self.line,
            ..PgnGame::new()
        };
        let mut at = line.tree.root();
        for id in self.tree.main_line() {
            let place = self.tree.get(id).and_then(|n| n.place());
            at = line.tree.push_move(at, self.tree.san(id), place);
        }
        line
    }

    /// Replays the main line into its game, of any number of sides, leaving the game
    /// as written: the variant from the catalog, the start (FEN tag or the variant's),
    /// every move (a whole turn with more sides) checked against the rules, and none
    /// after the rules have ended the game. Variations are not looked at
    /// ([`PgnGame::replay`] checks them all and rewrites the moves).
    pub fn replay_main_line(&self, catalog: &Catalog) -> Result<Game, ReplayError> {
        let mut played = start_of(
            catalog,
            self.variant(),
            self.tag("FEN"),
            self.number,
            self.line,
        )?;
        for (i, id) in self.tree.main_line().into_iter().enumerate() {
            let text = self.tree.san(id);
            let at = MoveAt {
                game: self.number,
                place: self
                    .tree
                    .get(id)
                    .and_then(|n| n.place())
                    .filter(|p| p.line > 0),
                ply: i + 1,
                text,
            };
            if let Some(outcome) = played.end() {
                return Err(at.after_end(*outcome));
            }
            played.play_turn(text).map_err(|e| at.bad(e.to_string()))?;
        }
        Ok(played)
    }
}

/// `Variant` first, then `tags`, then `FEN` for a set-up start.
fn with_start(
    variant: &str,
    start_fen: Option<&str>,
    tags: &[(&str, String)],
) -> Vec<(String, String)> {
    let mut all = vec![("Variant".to_string(), variant.to_string())];
    all.extend(tags.iter().map(|(k, v)| (k.to_string(), v.clone())));
    if let Some(fen) = start_fen {
        all.push(("FEN".into(), fen.to_string()));
    }
    all
}

#[cfg(test)]
mod tests {
    use super::super::read::tests::one;
    use super::*;
    use crate::pgn::read_games;

    #[test]
    fn writes_and_reads_back_a_game() {
        let catalog = Catalog::builtin();
        let mut pos = Position::start(catalog.get("glinski").unwrap().two_player_rules().unwrap());
        for m in ["f5f6", "c7c5", "Ni3", "Nc6", "e4e5"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mut game = PgnGame::from_position(&pos, None, &[("White", "A \"quoted\" name".into())]);
        game.set_tag("Result", "*");
        let text = game.to_string();
        assert!(text.contains("1. f6 c5 2. Ni3 Nc6 3. e5 *"), "{text}");
        let back = one(&text);
        assert_eq!(back, game);
        assert_eq!(back.tag("White"), Some("A \"quoted\" name"));
        assert_eq!(
            back.replay_main_line(&catalog).unwrap().to_fen(),
            pos.to_fen()
        );
    }

    #[test]
    fn reads_long_algebraic_comments_and_fen_starts() {
        let catalog = Catalog::builtin();
        let text = "[Variant \"mccooey\"]\n[FEN \"6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP2n1p1k/RP5pr/P6p/7/6 b - 0 1\"]\n\n1... g6f4 {mate} 0-1\n";
        let game = one(text);
        assert_eq!(game.main_line_turns(), vec!["g6f4"]);
        assert!(game.replay_main_line(&catalog).unwrap().end().is_some());
        let bad = one("[Variant \"glinski\"]\n\n1. f5f9 *");
        let err = bad.replay_main_line(&catalog).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("game 1, line 3, column 4: move 'f5f9' (ply 1)"),
            "{err}"
        );
        assert!(read_games("[Variant glinski]")[0].is_err());
    }

    /// The main line alone keeps where each move was read: its errors name the file's
    /// places as the whole game's do.
    #[test]
    fn the_main_line_alone_keeps_its_places_and_drops_the_rest() {
        let catalog = Catalog::builtin();
        let text = "[Variant \"glinski\"]\n\n1. f6 {good} (1. e5 c5) c5 2. f5f9 *\n";
        let game = one(text);
        let line = game.main_line_only();
        assert_eq!(line.main_line_turns(), ["f6", "c5", "f5f9"]);
        assert!(!line.to_string().contains('('), "{line}");
        assert!(!line.to_string().contains("good"), "{line}");
        let e = line.replay_main_line(&catalog).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("game 1, line 3, column 31: move 'f5f9' (ply 3)"),
            "{e}"
        );
    }

    /// Found while writing the rules reference: a variant scoring stalemate 0.6/0.4
    /// writes the result `0.6-0.4`, which the reader took for a move.
    #[test]
    fn every_result_a_variant_can_score_ends_the_moves() {
        for result in [
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "3/4-1/4",
            "1/4-3/4",
            "0.6-0.4",
            "0.35-0.65",
        ] {
            let text = format!("[Variant \"glinski\"]\n\n1. f6 c5 {result}\n");
            assert_eq!(one(&text).main_line_turns(), ["f6", "c5"], "{result}");
        }
        for not_result in ["O-O", "O-O-O-Q", "e1-e2", "-1", "1-", "x-1"] {
            assert!(!crate::pgn::is_result(not_result), "{not_result}");
        }
    }
}
