//! Game records: PGN-style tags, then the moves in SAN with move numbers.
//!
//! ```text
//! [Variant "glinski"]
//! [Date "2026.11.22"]
//! [White "Player"]
//! [Black "hexchess-engine"]
//! [Result "1-0"]
//!
//! 1. f5f6 ... 1-0
//! ```
//! A `FEN` tag gives the start position when it is not the variant's. Reading is
//! [`crate::pgn`]'s reader: SAN or long algebraic moves, move numbers, comments and
//! variations (a record keeps the main line), and a result token. A record is one
//! game; a file of several is read with [`GameRecord::parse_all`].

use std::fmt;

use crate::catalog::Catalog;
use crate::game::Game;
use crate::moves::Move;
use crate::pgn::replay::{MoveAt, start_of};
use crate::pgn::{PgnGame, Place, ReadError, ReplayError, read_games};
use crate::position::Position;

/// A parsed or to-be-written game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Tags in order (`Variant`, `Date`, `White`, `Black`, `Result`, `FEN`, ...).
    pub tags: Vec<(String, String)>,
    /// Moves in SAN as written.
    pub moves: Vec<String>,
    /// Where the record was read, for its errors to name (nothing for a record made
    /// here).
    source: Source,
}

/// Where a record was read: its game's number in the file and the line the game
/// begins on (0 for a record made here), and each move's place.
#[derive(Clone, Debug, Default)]
struct Source {
    game: usize,
    line: usize,
    places: Vec<Place>,
}

/// Two records are equal when they have the same tags and moves, wherever they were
/// read.
impl PartialEq for GameRecord {
    fn eq(&self, other: &GameRecord) -> bool {
        self.tags == other.tags && self.moves == other.moves
    }
}

impl Eq for GameRecord {}

/// Why a record could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not PGN as [`crate::pgn::read_games`] reads it.
    Read(ReadError),
    /// The text holds this many games where one was expected: read them with
    /// [`GameRecord::parse_all`].
    SeveralGames(usize),
    /// The record does not replay: an unknown variant, a bad FEN, a move that is not
    /// legal or that comes after the end of the game; with the game's number and the
    /// line (and column) in its file when it was read from one.
    Replay(ReplayError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Read(e) => e.fmt(f),
            RecordError::SeveralGames(n) => {
                write!(f, "{n} games where one was expected")
            }
            RecordError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<&PgnGame> for GameRecord {
    /// The game's tags as given and its main line as written (comments, annotations
    /// and variations left out).
    fn from(game: &PgnGame) -> GameRecord {
        let line = game.tree.main_line();
        let node = |id| game.tree.get(id);
        GameRecord {
            tags: game.tags.clone(),
            moves: line
                .iter()
                .map(|id| game.tree.san(*id).to_string())
                .collect(),
            source: Source {
                game: game.number,
                line: game.line,
                places: line
                    .iter()
                    .map(|id| node(*id).and_then(|n| n.place()).unwrap_or_default())
                    .collect(),
            },
        }
    }
}

impl GameRecord {
    /// A record of these tags and moves, made here (its errors name no file).
    pub fn new(tags: Vec<(String, String)>, moves: Vec<String>) -> GameRecord {
        GameRecord {
            tags,
            moves,
            source: Source::default(),
        }
    }

    /// The record's tags and moves as a game to write in PGN. A `Termination` tag in our
    /// records' words (`checkmate`, `time`) becomes the standard's value, and the word,
    /// where the standard's value is "normal", a final comment.
    pub fn to_pgn(&self) -> PgnGame {
        let mut game = PgnGame::new();
        game.tags = self.tags.clone();
        let mut at = game.tree.root();
        for san in &self.moves {
            at = game.tree.add_move(at, san);
        }
        if let Some(t) = game
            .tag("Termination")
            .and_then(crate::pgn::result::our_termination)
        {
            let value = crate::pgn::termination_tag(t);
            game.set_tag("Termination", value);
            if value == "normal" {
                let mut word = t.to_string();
                if let Some(first) = word.get_mut(..1) {
                    first.make_ascii_uppercase();
                }
                game.add_final_comment(&word);
            }
        }
        game
    }

    /// A record of `game` so far: each turn as the game writes it (a two-player move in
    /// SAN, a turn of more sides with its steps joined by `&`), with the given tags;
    /// `Variant` and, for a non-standard start, `FEN` are filled in.
    pub fn from_game<B: crate::bitboard::CellSet>(
        game: &Game<B>,
        start_fen: Option<&str>,
        tags: &[(&str, String)],
    ) -> GameRecord {
        let mut all: Vec<(String, String)> =
            vec![("Variant".into(), game.position().rules().id().to_string())];
        for (k, v) in tags {
            all.push((k.to_string(), v.clone()));
        }
        if let Some(f) = start_fen {
            all.push(("FEN".into(), f.to_string()));
        }
        GameRecord::new(all, game.turn_texts())
    }

    /// A record of the moves played in `pos` (from its start), with the given tags;
    /// `Variant` and, for a non-standard start, `FEN` are filled in.
    pub fn from_position(
        pos: &Position,
        start_fen: Option<&str>,
        tags: &[(&str, String)],
    ) -> GameRecord {
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
        let mut all: Vec<(String, String)> = vec![("Variant".into(), pos.rules().id().to_string())];
        for (k, v) in tags {
            all.push((k.to_string(), v.clone()));
        }
        if let Some(f) = start_fen {
            all.push(("FEN".into(), f.to_string()));
        }
        GameRecord::new(all, moves)
    }

    /// The value of tag `key`, if the record has it.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, in its place if it is already there, else last.
    pub fn set_tag(&mut self, key: &str, value: impl Into<String>) {
        match self.tags.iter_mut().find(|(k, _)| k == key) {
            Some(t) => t.1 = value.into(),
            None => self.tags.push((key.to_string(), value.into())),
        }
    }

    /// Reads a record: the one game of `text` (no game: an empty record). A text of
    /// several games is refused with their number rather than read in part: see
    /// [`GameRecord::parse_all`].
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let mut games = read_games(text);
        match games.len() {
            0 => Ok(GameRecord::new(Vec::new(), Vec::new())),
            1 => games
                .remove(0)
                .map(|g| GameRecord::from(&g))
                .map_err(RecordError::Read),
            n => Err(RecordError::SeveralGames(n)),
        }
    }

    /// Reads every game of a file of records (or of any PGN file), each on its own:
    /// a game that cannot be read is an error in its place, and the games after it
    /// are still read.
    pub fn parse_all(text: &str) -> Vec<Result<GameRecord, RecordError>> {
        read_games(text)
            .into_iter()
            .map(|g| g.map(|g| GameRecord::from(&g)).map_err(RecordError::Read))
            .collect()
    }

    /// Every game of a file of records given as its bytes: [`GameRecord::parse_all`]
    /// of the bytes read as [`crate::pgn::read_games_from_bytes`] reads them (UTF-8,
    /// and any other byte as its Latin-1 character).
    pub fn parse_all_bytes(bytes: &[u8]) -> Vec<Result<GameRecord, RecordError>> {
        GameRecord::parse_all(&crate::text::decode_latin1_fallback(bytes))
    }

    /// Replays the record into its game, of any number of sides: the variant from the
    /// catalog, the start (FEN tag or the variant's), every move (a whole turn with more
    /// sides) checked against the rules, and none after the rules have ended the game.
    pub fn replay(&self, catalog: &Catalog) -> Result<Game, RecordError> {
        let Source { game, line, .. } = self.source;
        let variant = self.tag("Variant").unwrap_or("glinski");
        let mut played =
            start_of(catalog, variant, self.tag("FEN"), game, line).map_err(RecordError::Replay)?;
        for (i, text) in self.moves.iter().enumerate() {
            let at = MoveAt {
                game,
                place: self.source.places.get(i).copied().filter(|p| p.line > 0),
                ply: i + 1,
                text,
            };
            if let Some(outcome) = played.end() {
                return Err(RecordError::Replay(at.after_end(*outcome)));
            }
            played
                .play_turn(text)
                .map_err(|e| RecordError::Replay(at.bad(e.to_string())))?;
        }
        Ok(played)
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{k} \"{v}\"]")?;
        }
        writeln!(f)?;
        // Black moves first in a FEN start with "b": number from there.
        let black_first = self
            .tag("FEN")
            .is_some_and(|fen| fen.split_whitespace().nth(1) == Some("b"));
        let first_number: usize = self
            .tag("FEN")
            .and_then(|fen| fen.split_whitespace().nth(4))
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        let mut line = String::new();
        let push = |tok: String, line: &mut String, f: &mut fmt::Formatter<'_>| -> fmt::Result {
            if line.len() + tok.len() + 1 > 80 {
                writeln!(f, "{}", line.trim_end())?;
                line.clear();
            }
            line.push_str(&tok);
            line.push(' ');
            Ok(())
        };
        for (i, m) in self.moves.iter().enumerate() {
            let ply = i + usize::from(black_first);
            let number = first_number + ply / 2;
            if ply % 2 == 0 {
                push(format!("{number}. {m}"), &mut line, f)?;
            } else if i == 0 {
                push(format!("{number}... {m}"), &mut line, f)?;
            } else {
                push(m.clone(), &mut line, f)?;
            }
        }
        push(self.tag("Result").unwrap_or("*").to_string(), &mut line, f)?;
        writeln!(f, "{}", line.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back_a_game() {
        let catalog = Catalog::builtin();
        let mut pos = Position::start(catalog.get("glinski").unwrap().two_player_rules().unwrap());
        for m in ["f5f6", "c7c5", "Ni3", "Nc6", "e4e5"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mut rec =
            GameRecord::from_position(&pos, None, &[("White", "A \"quoted\" name".into())]);
        rec.set_tag("Result", "*");
        let text = rec.to_string();
        assert!(text.contains("1. f6 c5 2. Ni3 Nc6 3. e5 *"), "{text}");
        let back = GameRecord::parse(&text).unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.replay(&catalog).unwrap().to_fen(), pos.to_fen());
    }

    #[test]
    fn reads_long_algebraic_comments_and_fen_starts() {
        let catalog = Catalog::builtin();
        let text = "[Variant \"mccooey\"]\n[FEN \"6/7/P6p/RP5pr/QNP4pnq/BBBP3pbbb/KNP2n1p1k/RP5pr/P6p/7/6 b - 0 1\"]\n\n1... g6f4 {mate} 0-1\n";
        let rec = GameRecord::parse(text).unwrap();
        assert_eq!(rec.moves, vec!["g6f4"]);
        let game = rec.replay(&catalog).unwrap();
        assert!(game.end().is_some());
        let bad = GameRecord::parse("[Variant \"glinski\"]\n\n1. f5f9 *").unwrap();
        let err = bad.replay(&catalog).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("game 1, line 3, column 4: move 'f5f9' (ply 1)"),
            "{err}"
        );
        assert!(GameRecord::parse("[Variant glinski]").is_err());
    }

    /// A file of several games used to be read as one game of all their moves.
    #[test]
    fn several_games_are_refused_as_one_and_read_as_many() {
        let catalog = Catalog::builtin();
        let one = "[Event \"a\"]\n\n1. f6 c5 *\n";
        let two = "[Event \"b \\\\ c\"]\n\n1. e5 *\n";
        let text = format!("{one}\n{two}\n{one}");
        assert_eq!(GameRecord::parse(&text), Err(RecordError::SeveralGames(3)));
        assert!(
            GameRecord::parse(&text)
                .unwrap_err()
                .to_string()
                .starts_with("3 games")
        );
        let all = GameRecord::parse_all(&text);
        assert_eq!(all.len(), 3);
        let second = all[1].as_ref().unwrap();
        assert_eq!(second.tag("Event"), Some("b \\ c"));
        assert_eq!(second.moves, ["e5"]);
        // A backslash is escaped when written, and reads back.
        assert_eq!(GameRecord::parse(&second.to_string()).as_ref(), Ok(second));
        assert!(
            all.iter()
                .all(|r| r.as_ref().unwrap().replay(&catalog).is_ok())
        );
        // A bad game is an error in its place.
        let bad = format!("{one}\n[Event \"x\"]\n\n1. f6 ( c5 *\n\n{one}");
        let all = GameRecord::parse_all(&bad);
        assert!(all[0].is_ok() && all[2].is_ok());
        let e = all[1].as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            "game 2, line 7, column 7: unclosed variation"
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
            let rec = GameRecord::parse(&text).unwrap();
            assert_eq!(rec.moves, ["f6", "c5"], "{result}");
        }
        for not_result in ["O-O", "O-O-O-Q", "e1-e2", "-1", "1-", "x-1"] {
            assert!(!crate::pgn::is_result(not_result), "{not_result}");
        }
    }
}
