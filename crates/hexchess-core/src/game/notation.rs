//! How turns of a game of more sides are written (docs/rules.md §13.6): a turn is its
//! steps joined by `&` (`Nf3&Qd5`), a removal is `-` and the piece (`-Bf6`), a swap
//! the piece, `>` and the new kind (`Qd4>R`), a lost turn `--`.

use std::fmt;

use super::{Game, Step};
use crate::bitboard::CellSet;
use crate::moves::Move;
use crate::notation::MoveError;

/// Why a turn's text could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The game is over.
    GameOver,
    /// Nothing to read.
    Empty,
    /// A step that is not one in any notation, or not legal on the board.
    Step(MoveError),
    /// A legal move the rules of this turn forbid (a second move of the same piece,
    /// one past Peterson's limits, a move before a removal owed).
    NotAllowed(String),
    /// The text ends before the turn does (a removal with no move after it).
    Incomplete(String),
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::GameOver => f.write_str("the game is over"),
            TurnError::Empty => f.write_str("an empty turn"),
            TurnError::Step(e) => e.fmt(f),
            TurnError::NotAllowed(t) => write!(f, "'{t}' is not allowed in this turn"),
            TurnError::Incomplete(t) => write!(f, "'{t}' does not finish the turn"),
        }
    }
}

impl std::error::Error for TurnError {}

impl<B: CellSet> Game<B> {
    /// A step as text, for the position it is played from: a move in SAN (in a game of
    /// more sides without check marks: a check there may be on any opponent), or a
    /// removal or swap. A placement of a piece its side no longer holds (a step meant
    /// for another position: SAN would have to play it to mark a check) is written in
    /// long algebraic.
    pub fn step_text(&self, step: Step) -> String {
        match step {
            Step::Stop => String::new(),
            Step::Play(mv)
                if mv
                    .placed_kind()
                    .is_some_and(|k| self.pos.in_hand(self.pos.turn(), k) == 0) =>
            {
                self.pos.move_to_lan(mv)
            }
            Step::Play(mv) if mv.is_edit() => self.edit_text(mv),
            // Two sides: SAN with its check and mate marks, as every two-player record.
            Step::Play(mv) if self.multi.is_none() => self.pos.move_to_san(mv),
            Step::Play(mv) => self.pos.move_to_text_of_more_sides(mv),
        }
    }

    /// A step in long algebraic (for the protocol): `e3e5`, `-f6`, `d4>r`, and `--` for
    /// the end of a turn after its first move ([`Game::parse_step`] reads each back).
    pub fn step_lan(&self, step: Step) -> String {
        let rules = self.pos.rules();
        match step {
            Step::Stop => "--".to_string(),
            Step::Play(mv) if mv.is_edit() => match mv.promotion() {
                Some(k) => format!(
                    "{}>{}",
                    rules.board().name(mv.to()),
                    rules.kind_info(k).letter.to_ascii_lowercase()
                ),
                None => format!("-{}", rules.board().name(mv.to())),
            },
            Step::Play(mv) => self.pos.move_to_lan(mv),
        }
    }

    fn edit_text(&self, mv: Move) -> String {
        let rules = self.pos.rules();
        let cell = rules.board().name(mv.to());
        let letter = self
            .pos
            .piece_at(mv.to())
            .map_or('?', |p| rules.kind_info(p.kind).letter);
        match mv.promotion() {
            Some(k) => format!("{letter}{cell}>{}", rules.kind_info(k).letter),
            None => format!("-{letter}{cell}"),
        }
    }

    /// Reads one step (a move in either notation, a removal, a swap, or `--`: the end of
    /// a turn that could have had a second move) against the steps allowed now.
    pub fn parse_step(&self, text: &str) -> Result<Step, TurnError> {
        let t = text.trim();
        if self.end().is_some() {
            return Err(TurnError::GameOver);
        }
        if t.is_empty() {
            return Err(TurnError::Empty);
        }
        let allowed = self.steps();
        let step = if t == "--" {
            Step::Stop
        } else if t.starts_with('-') || t.contains('>') {
            Step::Play(self.parse_edit(t)?)
        } else {
            let mv = self.pos.parse_move(t).map_err(TurnError::Step)?;
            Step::Play(mv)
        };
        if allowed.contains(&step) {
            Ok(step)
        } else {
            Err(TurnError::NotAllowed(t.to_string()))
        }
    }

    /// `-Bf6` / `-f6` (a removal), `Qd4>R` / `d4>r` (a swap).
    fn parse_edit(&self, t: &str) -> Result<Move, TurnError> {
        let rules = self.pos.rules();
        let malformed = || TurnError::Step(MoveError::Malformed(t.to_string()));
        let cell_of = |s: &str| {
            let s = s.trim();
            let name = match s.chars().next() {
                Some(c) if c.is_ascii_uppercase() => &s[1..],
                _ => s,
            };
            rules.board().parse_cell(name).ok_or_else(malformed)
        };
        if let Some(rest) = t.strip_prefix('-') {
            return Ok(Move::removal(cell_of(rest)?));
        }
        let (from, to) = t.split_once('>').ok_or_else(malformed)?;
        let mut letters = to.trim().chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(malformed());
        };
        let kind = rules.kind_by_letter(letter).ok_or_else(malformed)?;
        Ok(Move::swap(cell_of(from)?, kind))
    }

    /// Plays a whole turn written as its steps joined by `&` (a removal first, if one
    /// is owed). On an error nothing changes.
    pub fn play_turn(&mut self, text: &str) -> Result<(), TurnError> {
        // Tried on a lean copy (a whole copy would cost the length of the game at
        // every turn), then played here.
        for step in self.lean().read_turn(text)? {
            self.play_unchecked(step);
        }
        Ok(())
    }

    /// The steps of the turn written as `text` (an engine's `bestmove` in a game of
    /// more sides), a `Stop` last when the turn could have had another move; nothing
    /// is played.
    pub fn turn_steps(&self, text: &str) -> Result<Vec<Step>, TurnError> {
        self.lean().read_turn(text)
    }

    /// Plays the turn written as `text` step by step; the steps played (a `Stop`
    /// last when the turn could have had another move), or why not (the game then
    /// left part way through the turn: the caller plays on a copy).
    pub(crate) fn read_turn(&mut self, text: &str) -> Result<Vec<Step>, TurnError> {
        let t = text.trim();
        let game = self;
        let mut steps = Vec::new();
        let us = game.side_to_move();
        let turns_before = game.turns().len();
        for part in t.split('&') {
            if game.turns().len() > turns_before {
                return Err(TurnError::NotAllowed(part.to_string()));
            }
            let step = game.parse_step(part)?;
            game.play_unchecked(step);
            steps.push(step);
        }
        if game.turns().len() == turns_before {
            // A turn that could have had a second move ends here.
            if game.steps().contains(&Step::Stop) && game.side_to_move() == us {
                game.play_unchecked(Step::Stop);
                steps.push(Step::Stop);
            } else {
                return Err(TurnError::Incomplete(t.to_string()));
            }
        }
        Ok(steps)
    }

    /// The last turn played as text (steps joined by `&`; `--` for a lost turn),
    /// written from the positions it was played in.
    pub fn turn_texts(&self) -> Vec<String> {
        let mut replay = Game::from_position(self.start_position(), self.start_owed);
        self.turns()
            .iter()
            .map(|(_, steps)| replay.write_turn(steps))
            .collect()
    }

    /// The FEN the game started from (with the removals owed then): with
    /// [`Game::turn_texts`] it sets the same game up again, its history included, as an
    /// engine is given a game (`position fen ... moves ...`) so that it sees
    /// repetitions.
    pub fn start_fen(&self) -> String {
        Game::from_position(self.start_position(), self.start_owed).to_fen()
    }

    /// Plays `steps` (a turn, or its start) without checking them, and writes them as
    /// the turn notation does: each step as played from its position, joined by `&`
    /// (a turn's closing stop unwritten), `--` for a turn with no step.
    pub fn write_turn(&mut self, steps: &[Step]) -> String {
        let mut texts = Vec::new();
        for &step in steps {
            if step != Step::Stop {
                texts.push(self.step_text(step));
            }
            self.play_unchecked(step);
        }
        if texts.is_empty() {
            return "--".to_string();
        }
        texts.join("&")
    }
}

/// Hex FEN of a game of more sides: the position's FEN, then `owe:` with each side
/// owing a removal and the least worth owed (`owe:c3`), when any does.
impl<B: CellSet> Game<B> {
    /// The game as hex FEN: the position's, with the removals owed appended
    /// (`owe:c3`) when a side owes one, so that [`Game::from_fen`] reads it back.
    pub fn to_fen(&self) -> String {
        let mut fen = self.pos.to_fen();
        let owing: Vec<String> = self
            .sides()
            .filter(|s| self.owed(*s) > 0)
            .map(|s| format!("{}{}", side_letter(s), self.owed(s)))
            .collect();
        if !owing.is_empty() {
            fen.push_str(" owe:");
            fen.push_str(&owing.join(","));
        }
        fen
    }

    /// Reads [`Game::to_fen`]'s text. A side without its royal piece is out; a side
    /// checkmated is under the freeze. The captures of a round in progress are not in
    /// the text: a game read from FEN starts its rounds afresh.
    pub fn from_fen(
        rules: std::sync::Arc<crate::rules::Rules<B>>,
        text: &str,
    ) -> Result<Game<B>, crate::fen::FenError> {
        let (pos, owed) = Game::read_fen(rules, text)?;
        Ok(Game::from_position(pos, owed))
    }

    /// The position and the removals owed of [`Game::to_fen`]'s text, for the
    /// constructors to make a game of.
    pub(crate) fn read_fen(
        rules: std::sync::Arc<crate::rules::Rules<B>>,
        text: &str,
    ) -> Result<(crate::position::Position<B>, [u16; crate::piece::MAX_SIDES]), crate::fen::FenError>
    {
        use crate::fen::FenError;
        let mut owed = [0u16; crate::piece::MAX_SIDES];
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        // Only a game of more sides owes removals (a fair exchange); in a two-player
        // game the field is one too many, as the position's FEN says.
        if rules.side_count() > 2
            && let Some(last) = fields.last()
            && let Some(list) = last.strip_prefix("owe:")
        {
            for entry in list.split(',') {
                let mut chars = entry.chars();
                let letter = chars
                    .next()
                    .ok_or_else(|| FenError::BadOwed(format!("an empty entry in '{last}'")))?;
                let side = crate::piece::Side::ALL[..rules.side_count()]
                    .iter()
                    .copied()
                    .find(|s| side_letter(*s) == letter)
                    .ok_or_else(|| {
                        FenError::BadOwed(format!("'{letter}' in '{last}' is not a side here"))
                    })?;
                let value: u16 = chars.as_str().parse().map_err(|_| {
                    FenError::BadOwed(format!("'{entry}' in '{last}' is not a side and a worth"))
                })?;
                owed[side.index()] = value;
            }
            fields.pop();
        }
        let pos = crate::position::Position::from_fen(rules, &fields.join(" "))?;
        Ok((pos, owed))
    }
}

/// The letter of a side in the FEN of more sides: w, b, c, d.
fn side_letter(side: crate::piece::Side) -> char {
    ['w', 'b', 'c', 'd'][side.index()]
}
