//! How games end (docs/rules.md §5 and §6).

use std::collections::HashMap;
use std::fmt;

use crate::bitboard::CellSet;
use crate::piece::{MAX_SIDES, Points, Side};
use crate::position::{Phase, Position};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A royal piece with no escape: in two-player games the game's end; in a game of
    /// more sides, the last two sides' end (or a team game's first mate).
    Checkmate,
    /// Scored by the variant: a draw, or 3/4-1/4 in Gliński's chess; with more sides a
    /// draw among the sides still in.
    Stalemate,
    /// The same position occurred the variant's number of times (three by default).
    Repetition,
    /// The variant's number of plies (100) without a capture or pawn move; with more
    /// sides, fifty moves of every side still in.
    MoveRule,
    /// Nothing but royal pieces left.
    InsufficientMaterial,
    /// Every other side's royal piece was captured (games of more sides).
    LastKingStanding,
    /// A player resigned.
    Resignation,
    /// A player's clock ran out.
    Time,
    /// The players agreed to end the game (a draw, or with more sides points shared
    /// among the sides still in).
    Agreement,
    /// Decided by a match referee (game too long, or both engines agree it is lost).
    Adjudication,
    /// A player (an engine in a match) made an illegal or unreadable move.
    IllegalMove,
    /// A hidden deployment ended with both royal pieces attacked (Screen HexaChess).
    KingsExposed,
    /// A player stayed away from an online game on their turn, and an opponent claimed
    /// the game.
    Abandonment,
}

impl Termination {
    /// Every way a game can end.
    pub const ALL: [Termination; 13] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::MoveRule,
        Termination::InsufficientMaterial,
        Termination::LastKingStanding,
        Termination::Resignation,
        Termination::Time,
        Termination::Agreement,
        Termination::Adjudication,
        Termination::IllegalMove,
        Termination::KingsExposed,
        Termination::Abandonment,
    ];
}

impl Termination {
    /// The termination whose text (its `Display`) is `name`: how a protocol that
    /// sends the text is read back.
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.to_string() == name)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::MoveRule => "50-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::LastKingStanding => "last king standing",
            Termination::Resignation => "resignation",
            Termination::Time => "time",
            Termination::Agreement => "agreement",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMove => "illegal move",
            Termination::KingsExposed => "both kings attacked at the reveal",
            Termination::Abandonment => "abandonment",
        })
    }
}

/// A finished game of any number of sides: why it ended and each side's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameOutcome {
    /// Why it ended.
    pub termination: Termination,
    /// `[side]`: its points; only the first `sides` count.
    points: [Points; MAX_SIDES],
    sides: u8,
}

impl GameOutcome {
    /// Each of the `sides` seats' points, in seat order (at most [`MAX_SIDES`]).
    pub fn scored(termination: Termination, points: &[Points]) -> GameOutcome {
        let mut all = [Points::ZERO; MAX_SIDES];
        let sides = points.len().min(MAX_SIDES);
        all[..sides].copy_from_slice(&points[..sides]);
        GameOutcome {
            termination,
            points: all,
            sides: sides as u8,
        }
    }

    /// A win for `winner` in a two-player game.
    pub fn win(winner: Side, termination: Termination) -> GameOutcome {
        GameOutcome::shared(termination, &[winner], 2)
    }

    /// Half a point each in a two-player game.
    pub fn draw(termination: Termination) -> GameOutcome {
        GameOutcome::shared(termination, &Side::BOTH, 2)
    }

    /// The point shared equally among `winners` (the winning side or team, or the sides
    /// still in for a draw) in a game of `sides` seats; a third is written 1/3.
    pub fn shared(termination: Termination, winners: &[Side], sides: usize) -> GameOutcome {
        let share = Points::share(winners.len());
        let points: Vec<Points> = Side::ALL[..sides.min(MAX_SIDES)]
            .iter()
            .map(|s| {
                if winners.contains(s) {
                    share
                } else {
                    Points::ZERO
                }
            })
            .collect();
        GameOutcome::scored(termination, &points)
    }

    /// How many seats the game had.
    pub fn side_count(&self) -> usize {
        usize::from(self.sides)
    }

    /// The seats in order.
    fn sides(&self) -> &'static [Side] {
        &Side::ALL[..self.side_count()]
    }

    /// Points of one side.
    pub fn points(&self, side: Side) -> Points {
        if side.index() < self.side_count() {
            self.points[side.index()]
        } else {
            Points::ZERO
        }
    }

    /// The sides with the most points (several when they share it), in seat order.
    pub fn winners(&self) -> Vec<Side> {
        let best = self.sides().iter().map(|s| self.points(*s)).max();
        self.sides()
            .iter()
            .copied()
            .filter(|s| Some(self.points(*s)) == best && best > Some(Points::ZERO))
            .collect()
    }

    /// The one side with the most points, if one has more than every other.
    pub fn winner(&self) -> Option<Side> {
        match self.winners()[..] {
            [w] => Some(w),
            _ => None,
        }
    }

    /// Whether the game was drawn: the point shared (among every side, or in a game of
    /// more sides among those still in). A team's mate also shares the point, between
    /// allies: that is a win.
    pub fn is_draw(&self) -> bool {
        match self.termination {
            Termination::Checkmate | Termination::LastKingStanding => false,
            _ => self.winners().len() > 1,
        }
    }

    /// The result as a game record writes it: each side's points in seat order joined
    /// by `-`: `1-0`, `0-1`, `1/2-1/2`, `3/4-1/4`, `1-0-0`, `1/2-0-1/2`.
    pub fn result_text(&self) -> String {
        let points: Vec<String> = self
            .sides()
            .iter()
            .map(|s| self.points(*s).to_string())
            .collect();
        points.join("-")
    }

    /// A sentence for players: "White wins by checkmate", "Draw by repetition",
    /// "Black stalemated White: 3/4-1/4"; with more sides, what ended the game
    /// ("Last king standing", "Draw by stalemate").
    pub fn description(&self) -> String {
        if self.side_count() > 2 {
            return match (self.termination, self.is_draw()) {
                (Termination::LastKingStanding, _) => "Last king standing".to_string(),
                (Termination::Checkmate, _) => "Checkmate".to_string(),
                (Termination::MoveRule, true) => "Draw by the 50-move rule".to_string(),
                (t, true) => format!("Draw by {t}"),
                (t, false) => format!("Won by {t}"),
            };
        }
        match (self.termination, self.winner()) {
            (Termination::Stalemate, Some(w)) => {
                format!("{w} stalemated {}: {}", !w, self.result_text())
            }
            (Termination::Stalemate, None) => "Draw by stalemate".to_string(),
            (t, Some(w)) => format!("{w} wins by {t}"),
            (t, None) => format!("Draw by {t}"),
        }
    }
}

impl fmt::Display for GameOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result_text(), self.description())
    }
}

impl<B: CellSet> Position<B> {
    /// How the game stands if it is over by the rules alone (no resignation, clock or
    /// agreement): checkmate and stalemate first, since a move that mates or stalemates
    /// is scored as such even when it also completes a repetition or the 100th ply.
    ///
    /// In the setup phase only a side with nothing it may place ends the game (as a
    /// stalemate); the draw rules wait for the pieces to be on the board.
    pub fn outcome(&self) -> Option<GameOutcome> {
        self.outcome_counting(|| self.repetitions())
    }

    /// [`Position::outcome`], with how many times the position has occurred counted by
    /// `repetitions` (asked only when the other rules leave the game going).
    pub(crate) fn outcome_counting(
        &self,
        repetitions: impl FnOnce() -> usize,
    ) -> Option<GameOutcome> {
        if self.rules().side_count() > 2 {
            // How a game of more sides ends (king capture, frozen armies) is its own
            // rules' business: the 3- and 4-player games.
            return None;
        }
        if self.phase() == Phase::KingsExposed {
            return Some(GameOutcome::draw(Termination::KingsExposed));
        }
        if let Some(end) = self.no_move_outcome() {
            return Some(end);
        }
        if self.phase() == Phase::Setup {
            return None;
        }
        let draws = self.rules().draw_rules();
        if draws.bare_royals && self.only_royals_left() {
            return Some(GameOutcome::draw(Termination::InsufficientMaterial));
        }
        if draws.move_rule_plies > 0 && self.halfmove_clock() >= draws.move_rule_plies {
            return Some(GameOutcome::draw(Termination::MoveRule));
        }
        if draws.repetitions > 0 && repetitions() >= draws.repetitions as usize {
            return Some(GameOutcome::draw(Termination::Repetition));
        }
        None
    }

    /// The end of a two-player game whose side to move has no legal move: checkmate,
    /// or stalemate scored as the variant scores it. The one end no draw rule can
    /// stand in for, so a game whose draws are called by its driver
    /// ([`crate::game::Draws::Called`]) still ends here.
    pub(crate) fn no_move_outcome(&self) -> Option<GameOutcome> {
        if self.rules().side_count() > 2 || !self.legal_moves().is_empty() {
            return None;
        }
        let us = self.turn();
        if self.in_check() {
            return Some(GameOutcome::win(!us, Termination::Checkmate));
        }
        let score = self.rules().stalemate();
        let (white, black) = match us {
            Side::White => (score.stalemated, score.stalemating),
            _ => (score.stalemating, score.stalemated),
        };
        Some(GameOutcome::scored(Termination::Stalemate, &[white, black]))
    }

    /// How many times the current position has occurred in this game, itself included.
    /// Positions repeat only with the same side to move, so every other one is compared.
    pub fn repetitions(&self) -> usize {
        let h = self.hash();
        #[cfg(test)]
        crate::work::add(self.reversible_history().count());
        1 + self
            .reversible_history()
            .skip(1)
            .step_by(2)
            .filter(|old| *old == h)
            .count()
    }

    /// Whether nothing but the two royal pieces is left.
    pub fn only_royals_left(&self) -> bool {
        self.occupied().count() == 2
    }
}

/// How many times each position since the last capture or pawn move has occurred in a
/// game played move by move, kept as the game goes: [`Position::repetitions`] looks
/// back through the history at every call, so asking it after every move of a long game
/// without captures costs the square of its length (and the move rule, which bounds
/// that history, may be switched off by a variant).
#[derive(Clone, Debug, Default)]
pub struct Repetitions {
    counts: HashMap<u64, u32>,
}

impl Repetitions {
    /// The count of a game starting at `pos` (its earlier history, if any, is not
    /// looked at: as for a position read from a FEN).
    pub fn new<B: CellSet>(pos: &Position<B>) -> Repetitions {
        let mut r = Repetitions::default();
        r.note(pos);
        r
    }

    /// Counts `pos`, reached by a move; returns how many times it has now occurred.
    /// After a capture, a pawn move or a placement no earlier position can come again:
    /// they are forgotten.
    pub fn note<B: CellSet>(&mut self, pos: &Position<B>) -> usize {
        if pos.halfmove_clock() == 0 {
            self.counts.clear();
        }
        let n = self.counts.entry(pos.hash()).or_insert(0);
        *n = n.saturating_add(1);
        *n as usize
    }

    /// How many times `pos` (the last position noted) has occurred, itself included.
    pub fn count<B: CellSet>(&self, pos: &Position<B>) -> usize {
        self.counts.get(&pos.hash()).map_or(1, |n| *n as usize)
    }

    /// [`Position::outcome`] of `pos`, the last position noted, with its repetitions
    /// counted here.
    pub fn outcome<B: CellSet>(&self, pos: &Position<B>) -> Option<GameOutcome> {
        pos.outcome_counting(|| self.count(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_termination_reads_back_from_its_name() {
        for t in Termination::ALL {
            assert_eq!(Termination::from_name(&t.to_string()), Some(t));
        }
        assert_eq!(Termination::from_name("boredom"), None);
    }
}
