//! One game for every variant, of two sides or more: the position, each side's standing
//! (playing, frozen by a checkmate, out), turns of one step or several (a removal owed, a
//! second move), the rounds' captures, the record of the turns played, and the end.
//!
//! A turn is played step by step ([`Game::steps`], [`Game::play`]); each step is a
//! [`Move`] (a move on the board, a placement in a setup phase, or a removal or swap
//! owed after a fair exchange) or [`Step::Stop`], which ends a turn that could have had
//! a second move. A two-player game's turns are one move each, and it ends as its
//! position does ([`Position::outcome`]); a game of more sides follows the rules its
//! variant adds ([`crate::multi`]).

mod attacks;
mod notation;
mod report;
mod start;
mod undo;

pub use notation::TurnError;
pub use report::{PlayError, StepReport};
pub use start::StartError;
pub use undo::Saved;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bitboard::{CellSet, WideBitboard};
use crate::moves::{Move, MoveList};
pub use crate::multi::rounds::MAX_TURN_MOVES;
use crate::multi::rounds::{CaptureLog, Captured, TurnCaptures};
use crate::multi::{Eliminated, Goal, MultiRules, Threat};
use crate::outcome::{GameOutcome, Repetitions, Termination};
use crate::piece::{Kind, MAX_SIDES, Piece, Side};
use crate::position::{Phase, Position};
use crate::rules::Rules;
use crate::short::ShortList;
use attacks::AttackMaps;

/// Where a side stands in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Standing {
    /// Moves in its turns.
    Playing,
    /// Checkmated with its royal piece still on the board: it loses its turns until the
    /// mate is lifted, and nobody may capture its other pieces meanwhile.
    Frozen,
    /// Its royal piece was captured: its army stays as obstacles and never moves.
    Out,
}

/// One step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A move on the board, or the removal or swap a fair exchange obliges
    /// ([`Move::is_edit`]).
    Play(Move),
    /// Ends a turn that could have had another move.
    Stop,
}

/// The most steps a turn may have: a removal or swap owed, then its moves, a
/// [`Step::Stop`] in place of the last of them.
pub const MAX_TURN_STEPS: usize = 1 + MAX_TURN_MOVES;

/// A turn's steps, kept inline (a search records one at every node).
pub type TurnSteps = ShortList<Step, MAX_TURN_STEPS>;

/// Sides, at most every side of the game.
pub(crate) type Sides = ShortList<Side, MAX_SIDES>;

impl TurnSteps {
    /// No steps yet.
    pub const EMPTY: TurnSteps = ShortList::new(Step::Stop);
}

/// Who ends a game at a draw its rules make automatic: a repetition, the move rule,
/// nothing but royal pieces left, both kings attacked at the reveal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Draws {
    /// The game itself, as its rules say: a record, the board, a search.
    #[default]
    ByRule,
    /// Whoever drives the game. A GUI talking to the engine judges the games it sends
    /// (it may play on past a repetition nobody claimed), so the engine's game takes
    /// every legal move after such a draw; only a checkmate, a stalemate or a side's
    /// royal piece taken ends it.
    Called,
}

/// The turn in progress.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnState {
    /// Moves played so far this turn.
    pub moves: u8,
    /// How many moves this turn may have, once fixed (0: not yet). It is fixed as its
    /// first move is played, from the threats as the turn began
    /// ([`Game::allowed_moves`]): a search's leaves never play, so they never weigh
    /// the threats.
    pub allowed: u8,
    /// The captures of this turn: (victim's side, kind).
    pub captures: TurnCaptures,
    /// The moves played so far (the rules of several moves look at them together).
    pub played: ShortList<Move, MAX_TURN_MOVES>,
}

impl Default for TurnState {
    fn default() -> Self {
        TurnState {
            moves: 0,
            allowed: 0,
            captures: ShortList::new(Captured::BLANK),
            played: ShortList::new(Move::from_bits(0)),
        }
    }
}

/// The board as a turn of several moves began, and what the mover attacked then (the
/// limits of `turn` compare the turn's end with it).
#[derive(Clone)]
pub(crate) struct TurnStart<B: CellSet> {
    pub pos: Position<B>,
    /// The mover's opponents then: a side whose king the turn takes still gives up
    /// only one piece in it.
    pub opponents: Sides,
    /// `[opponent]`: its pieces the mover attacked.
    pub attacked: [B; MAX_SIDES],
}

/// A game of more than two sides in progress (docs/rules.md §13).
#[derive(Clone)]
pub struct Game<B: CellSet = WideBitboard> {
    pub(crate) pos: Position<B>,
    /// What the rules of more sides add; `None` in a two-player game.
    pub(crate) multi: Option<MultiRules>,
    pub(crate) standing: [Standing; MAX_SIDES],
    /// `[side]`: the least worth of the piece it owes after a fair exchange (0: none).
    pub(crate) owed: [u16; MAX_SIDES],
    pub(crate) turn: TurnState,
    /// What the rules of several moves compare against; only in a turn of several.
    /// Shared: it holds a whole position, and a search saves the game at every step,
    /// inside such a turn too, where a shared start costs a count to copy.
    pub(crate) start: Option<Arc<TurnStart<B>>>,
    pub(crate) log: CaptureLog,
    /// The turns played, each as its steps.
    pub(crate) turns: Vec<(Side, TurnSteps)>,
    /// The steps of the turn in progress.
    pub(crate) steps: TurnSteps,
    /// The state's key at the start of every turn, for repetition.
    keys: Vec<u64>,
    /// Where the keys that count begin: those since the last capture or pawn move (no
    /// earlier state can come again). The earlier ones are kept, not dropped, so that
    /// a step taken back ([`Game::restore`]) finds them again.
    keys_from: usize,
    /// The move rule's count at the last key, to see when it has been reset.
    keys_halfmove: u16,
    /// Kinds each kind's powers properly contain (bit per kind), for swaps.
    pub(crate) weaker: [u32; crate::piece::MAX_KINDS],
    /// `[kind]`: the kinds of lesser worth than it by the threats' weighing (bit per
    /// kind), read once rather than weighed again at every threat.
    lesser: [u32; crate::piece::MAX_KINDS],
    end: Option<GameOutcome>,
    /// A two-player game's positions since the last capture or pawn move, counted for
    /// repetition as its position counts them (the en-passant right only when usable).
    repetitions: Repetitions,
    /// Where the game began, to write its turns again.
    origin: Position<B>,
    pub(crate) start_owed: [u16; MAX_SIDES],
    /// Who ends it at a draw by rule.
    draws: Draws,
    /// Every side's attack map. A turn's rules (who is in check, who threatens
    /// whom) and the engines' evaluation all read them, so each turn sweeps only the
    /// armies whose attacks the last turn changed.
    attacks: AttackMaps<B>,
    /// A list to find moves in at each turn's start, kept so as not to make one per
    /// turn (what it holds between turns means nothing).
    scratch: MoveList,
}

impl<B: CellSet> Game<B> {
    /// A game from the variant's starting position.
    pub fn new(rules: Arc<Rules<B>>) -> Game<B> {
        let pos = Position::start(rules);
        Game::from_position(pos, [0; MAX_SIDES])
    }

    /// A game from a position (in a game of more sides, a side without its royal
    /// piece is out) and the removals owed.
    pub fn from_position(pos: Position<B>, owed: [u16; MAX_SIDES]) -> Game<B> {
        Game::from_position_with(pos, owed, Draws::ByRule)
    }

    /// [`Game::from_position`], with its draws by rule ended by `draws` (already at the
    /// start: a FEN past the move rule is a draw, or not, from the first move).
    pub(crate) fn from_position_with(
        pos: Position<B>,
        owed: [u16; MAX_SIDES],
        draws: Draws,
    ) -> Game<B> {
        let multi = pos.rules().multiplayer().cloned();
        let repetitions = Repetitions::new(&pos);
        let weaker = crate::multi::rounds::weaker_kinds(pos.rules());
        let lesser = multi.as_ref().map_or([0; crate::piece::MAX_KINDS], |m| {
            lesser_kinds(m, pos.rules())
        });
        let mut origin = pos.clone();
        origin.clear_history();
        let mut game = Game {
            origin,
            start_owed: owed,
            pos,
            multi,
            standing: [Standing::Playing; MAX_SIDES],
            owed,
            turn: TurnState::default(),
            start: None,
            log: CaptureLog::default(),
            turns: Vec::new(),
            steps: TurnSteps::EMPTY,
            keys: Vec::new(),
            keys_from: 0,
            keys_halfmove: 0,
            weaker,
            lesser,
            end: None,
            repetitions,
            draws,
            attacks: AttackMaps::unknown(),
            scratch: MoveList::new(),
        };
        if game.multi.is_none() {
            game.check_end();
            game.begin_turn();
            return game;
        }
        // Sides out first, as in play: their armies attack nothing (no check, no pin)
        // when the others' standings are judged, so that a game read from a position
        // is the game played to it.
        for side in game.sides() {
            if !game.pos.royal_on_board(side) {
                game.knock_out(side);
            }
        }
        game.update_standings();
        game.check_end();
        game.begin_turn();
        game
    }

    /// A copy without the record of the game (turns played, the history of the
    /// position, the keys of positions that cannot come again), for searches that copy
    /// a game at every node: the rules and repetitions still apply.
    ///
    /// Its cost does not grow with the game (nothing of the record is copied), so a
    /// replay can try each turn on one before playing it.
    pub fn lean(&self) -> Game<B> {
        let pos = self.pos.without_history();
        Game {
            origin: pos.without_history(),
            pos,
            multi: self.multi.clone(),
            standing: self.standing,
            owed: self.owed,
            turn: self.turn,
            start: self.start.clone(),
            log: self.log,
            turns: Vec::new(),
            steps: self.steps,
            keys: self.keys[self.keys_from..].to_vec(),
            keys_from: 0,
            keys_halfmove: self.keys_halfmove,
            weaker: self.weaker,
            lesser: self.lesser,
            end: self.end,
            repetitions: self.repetitions.clone(),
            start_owed: self.owed,
            draws: self.draws,
            attacks: self.attacks.without_log(),
            scratch: MoveList::new(),
        }
    }

    /// The game with the turn handed to `side` now, as if the sides between lost theirs
    /// (for best-reply search, where one opponent answers out of turn). `None` when
    /// `side` is not playing or a turn is half played.
    pub fn handed_to(&self, side: Side) -> Option<Game<B>> {
        let mut g = self.clone();
        g.hand_to(side).then_some(g)
    }

    /// The game as it stood after its first `turns` turns (a turn in progress is
    /// dropped): what an undo or a step back through the move list shows. Replayed
    /// from the start, so standings, debts, repetitions and who calls its draws are the
    /// game's own.
    pub fn rewound(&self, turns: usize) -> Game<B> {
        let mut game = Game::from_position_with(self.origin.clone(), self.start_owed, self.draws);
        for (_, steps) in self.turns.iter().take(turns) {
            for step in steps {
                game.play_unchecked(*step);
            }
        }
        game
    }

    /// How the game ends when `side` loses off the board (its time runs out, it
    /// resigns): with two sides the other wins; with more, its opponents still in
    /// share the point, a team game's other team (docs/rules.md §13.6).
    pub fn lost_by(&self, side: Side, why: Termination) -> GameOutcome {
        let enemies = self.pos.rules().enemies(side);
        let winners: Vec<Side> = self
            .sides_in()
            .into_iter()
            .filter(|s| enemies.contains(s))
            .collect();
        let sides = self.pos.rules().side_count();
        if self.multi.is_some() && !winners.is_empty() {
            GameOutcome::shared(why, &winners, sides)
        } else {
            GameOutcome::win(!side, why)
        }
    }

    /// The position the game began from.
    pub fn start_position(&self) -> Position<B> {
        self.origin.clone()
    }

    /// Counts the sequences of whole turns `depth` turns deep (each turn with all its
    /// steps: a removal, one or two moves; a lost turn is no choice and not counted).
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_until(depth, &AtomicBool::new(false))
            .expect("nothing stops this count")
    }

    /// [`Game::perft`] that gives up once `stop` is set (read before each turn is
    /// played): `None` then.
    pub fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        self.lean().perft_in_place(depth, stop)
    }

    /// [`Game::perft_until`] on this game, every turn taken back after its count.
    fn perft_in_place(&mut self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        let mut total = 0;
        let whole = self.for_each_turn_mut(&mut |g, _| {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            match g.perft_in_place(depth - 1, stop) {
                Some(n) => {
                    total += n;
                    true
                }
                None => false,
            }
        });
        whole.then_some(total)
    }

    /// Calls `f` with the game after each whole turn the side to move may play, until
    /// `f` returns false; returns whether every turn was seen.
    pub fn for_each_turn(&self, f: &mut dyn FnMut(&Game<B>) -> bool) -> bool {
        self.clone().for_each_turn_mut(&mut |g, _| f(g))
    }

    /// Attaches `table` to the game's position ([`Position::attach_table`]): every
    /// step then keeps its sum over the pieces, so a search's evaluation reads it
    /// rather than visiting every piece at every leaf.
    pub fn attach_table(&mut self, table: Arc<crate::position::PieceSquareTable<B>>) {
        self.pos.attach_table(table);
    }

    /// The position on the board.
    pub fn position(&self) -> &Position<B> {
        &self.pos
    }

    /// Who ends this game at a draw by rule.
    pub fn draws(&self) -> Draws {
        self.draws
    }

    /// Hands the draws by rule to the game, or to its driver, from the next turn's end
    /// on (an end already reached stays). The engine's protocol keeps a game whose
    /// draws its GUI calls, and searches a copy that ends as the rules say.
    pub fn set_draws(&mut self, draws: Draws) {
        self.draws = draws;
    }

    /// The rules of more sides this game follows; `None` in a two-player game.
    pub fn multiplayer(&self) -> Option<&MultiRules> {
        self.multi.as_ref()
    }

    /// Whether more than two sides play.
    pub fn has_more_sides(&self) -> bool {
        self.multi.is_some()
    }

    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.pos.turn()
    }

    /// Where `side` stands.
    pub fn standing(&self, side: Side) -> Standing {
        self.standing[side.index()]
    }

    /// The least worth of the piece `side` must remove at its next turn (0: none).
    pub fn owed(&self, side: Side) -> u16 {
        self.owed[side.index()]
    }

    /// How many moves the turn in progress may have, and how many it has had.
    pub fn moves_this_turn(&self) -> (u8, u8) {
        (self.allowed_moves(), self.turn.moves)
    }

    /// The turns played so far, each with its side and steps.
    pub fn turns(&self) -> &[(Side, TurnSteps)] {
        &self.turns
    }

    /// Every move played on the board so far, oldest first (placements, removals and
    /// swaps included; a turn's stop is no move).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.turns
            .iter()
            .flat_map(|(_, steps)| steps.iter())
            .chain(self.steps.iter())
            .filter_map(|s| match s {
                Step::Play(mv) => Some(*mv),
                Step::Stop => None,
            })
    }

    /// The steps played so far in the turn in progress.
    pub fn current_steps(&self) -> &[Step] {
        &self.steps
    }

    /// Every step played so far, ends of turns (`Step::Stop`) included: the ply a
    /// server numbers the next step with.
    pub fn steps_played(&self) -> usize {
        self.turns
            .iter()
            .map(|(_, steps)| steps.len())
            .sum::<usize>()
            + self.steps.len()
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<&GameOutcome> {
        self.end.as_ref()
    }

    /// The sides of the variant in turn order.
    pub fn sides(&self) -> impl Iterator<Item = Side> + use<B> {
        let n = self.pos.rules().side_count();
        Side::ALL.into_iter().take(n)
    }

    /// The sides whose royal piece still stands.
    pub fn sides_in(&self) -> Vec<Side> {
        self.sides()
            .filter(|s| self.standing[s.index()] != Standing::Out)
            .collect()
    }

    /// How many sides are still in: [`Game::sides_in`] counted without a list (it is
    /// asked at every turn).
    fn live(&self) -> usize {
        self.sides()
            .filter(|s| self.standing[s.index()] != Standing::Out)
            .count()
    }

    /// Every step the side to move may take now.
    pub fn steps(&self) -> Vec<Step> {
        if self.end.is_some() {
            return Vec::new();
        }
        let us = self.pos.turn();
        if self.owed[us.index()] > 0 {
            return self.removals().into_iter().map(Step::Play).collect();
        }
        if self.turn.moves == 0 {
            return self.pos.legal_moves().into_iter().map(Step::Play).collect();
        }
        let mut out = vec![Step::Stop];
        out.extend(self.second_moves().into_iter().map(Step::Play));
        out
    }

    /// The [`Game::steps`] that capture or promote, in the same order. At a turn's
    /// start they are generated without the quiet moves: a search's quiescence asks
    /// at every node, where listing every move cost a quarter of its time.
    pub fn noisy_steps(&self) -> Vec<Step> {
        let us = self.pos.turn();
        if self.end.is_none() && self.owed[us.index()] == 0 && self.turn.moves == 0 {
            let mut moves = MoveList::new();
            self.pos.legal_noisy_moves_into(&mut moves);
            return moves.into_iter().map(Step::Play).collect();
        }
        self.steps()
            .into_iter()
            .filter(|s| match s {
                Step::Play(m) => {
                    !m.is_edit() && (self.pos.is_capture(*m) || m.promotion().is_some())
                }
                Step::Stop => false,
            })
            .collect()
    }

    /// Whether the side to move may end its turn now, after the first move of a turn
    /// that allows more: [`Game::steps`] lists [`Step::Stop`] then, and this says so
    /// without judging every second move.
    pub fn may_stop(&self) -> bool {
        self.end.is_none() && self.owed[self.pos.turn().index()] == 0 && self.turn.moves > 0
    }

    /// Plays one step without checking it: it must be one of [`Game::steps`] (a
    /// search's fast path; [`Game::play`] checks and reports).
    pub fn play_unchecked(&mut self, step: Step) {
        let us = self.pos.turn();
        self.steps.push(step);
        match step {
            Step::Stop => {
                self.end_turn(us);
            }
            Step::Play(mv) if mv.is_edit() => {
                self.attacks.board_changed();
                self.pos.make_move(mv);
                self.owed[us.index()] = 0;
            }
            Step::Play(mv) => self.play_move(us, mv),
        }
    }

    fn play_move(&mut self, us: Side, mv: Move) {
        self.fix_allowed();
        if self.turn.moves == 0 && self.turn.allowed > 1 {
            self.start = Some(Arc::new(self.turn_start(us)));
        }
        if self.record_move(us, mv) && self.has_second_move() {
            // The turn comes back for a second move (or a Stop).
            return;
        }
        self.end_turn(us);
    }

    /// Makes `mv`, a move of `us`'s turn, on the board and in the turn; true when the
    /// turn may have another move (the position is `us`'s to move again then).
    fn record_move(&mut self, us: Side, mv: Move) -> bool {
        if let Some(captured) = self.make_move_on_board(us, mv) {
            self.turn.captures.push(captured);
        }
        self.turn.moves += 1;
        self.turn.played.push(mv);
        let goes_on = self.turn.moves < self.turn.allowed && self.end.is_none();
        if goes_on {
            self.pos.make_pass(us);
        }
        goes_on
    }

    /// Plays `mv`, one of [`Game::steps`] at a turn's start, as a whole turn: the turn
    /// ends after it, as if a [`Step::Stop`] followed when a second move was allowed.
    /// False, and nothing played, when `mv` cannot begin a turn now (the turn has
    /// begun, a removal is owed first, the game is over).
    ///
    /// For a search's quiescence, which plays captures as turns of their own: whether
    /// a second move exists is never asked, and asking cost most of such a turn. The
    /// game after it is what the move and a stop leave, but its record: the turn is
    /// recorded as the move alone.
    pub fn play_as_whole_turn(&mut self, mv: Move) -> bool {
        let us = self.pos.turn();
        if self.end.is_some() || self.turn.moves > 0 || self.owed[us.index()] > 0 || mv.is_edit() {
            return false;
        }
        self.steps.push(Step::Play(mv));
        self.fix_allowed();
        self.record_move(us, mv);
        self.end_turn(us);
        true
    }

    /// Makes `us`'s move on the board; a royal piece taken puts its side out at once.
    /// The limits of a turn of two moves look ahead with it too, so that the side is
    /// out after the turn whichever move took the king. Returns the capture, if any.
    pub(crate) fn make_move_on_board(&mut self, us: Side, mv: Move) -> Option<Captured> {
        let victim = self.pos.piece_at(mv.to()).filter(|p| p.side != us);
        self.attacks
            .before_move(&self.pos, us, mv, victim.map(|v| v.side));
        self.pos.make_move(mv);
        let v = victim?;
        if self.pos.rules().is_royal(v.kind) {
            self.knock_out(v.side);
        }
        Some(Captured {
            by: us,
            victim: v.side,
            kind: v.kind,
        })
    }

    /// A side's royal piece was captured: it is out, its army stays as obstacles.
    fn knock_out(&mut self, side: Side) {
        self.standing[side.index()] = Standing::Out;
        self.owed[side.index()] = 0;
        self.pos.set_inert(side, true);
        self.refresh_immunity();
    }

    /// The pieces nobody may capture: frozen armies (but their royal pieces), and the
    /// armies of sides out unless the variant lets them be captured.
    fn refresh_immunity(&mut self) {
        let Some(multi) = &self.multi else {
            return;
        };
        let rules = self.pos.rules();
        let mut immune = B::EMPTY;
        for side in self.sides() {
            let cells = self.pos.side_cells(side);
            match self.standing[side.index()] {
                Standing::Playing => {}
                Standing::Frozen => {
                    let royal = rules
                        .kinds()
                        .filter(|k| rules.is_royal(*k))
                        .fold(B::EMPTY, |b, k| b | self.pos.kind_cells(side, k));
                    immune |= cells & !royal;
                }
                Standing::Out => {
                    if multi.eliminated == Eliminated::Obstacles {
                        immune |= cells;
                    }
                }
            }
        }
        self.pos.set_immune(immune);
    }

    /// The end of `us`'s turn: the capture log and its exchanges, every side's standing,
    /// the end of the game, and the turn to the next side that plays.
    fn end_turn(&mut self, us: Side) {
        let captures = self.turn.captures;
        let steps = std::mem::replace(&mut self.steps, TurnSteps::EMPTY);
        self.turns.push((us, steps));
        self.start = None;
        let live = self.live();
        if self.multi.is_none() {
            self.end_two_player_turn();
            return;
        }
        if let Some(fair) = self.multi.as_ref().and_then(|m| m.fair_exchange.as_ref()) {
            let mut playing = Sides::new(Side::White);
            for side in self.sides() {
                if self.standing[side.index()] == Standing::Playing {
                    playing.push(side);
                }
            }
            for (side, value) in self.log.record(us, captures, live, fair, &playing) {
                let owed = &mut self.owed[side.index()];
                *owed = (*owed).max(value);
            }
        } else {
            self.log.record_plain(us, captures);
        }
        self.update_standings();
        self.check_end();
        self.turn = TurnState::default();
        if self.end.is_some() {
            // A finished game still writes a position someone can read back: the side
            // to move is one whose royal piece stands.
            if !self.pos.royal_on_board(self.pos.turn()) {
                self.pos.make_pass(us);
            }
            return;
        }
        // After a move the position already gave the turn to the next seat; after a
        // Stop (or a removal alone) it is still `us`'s.
        if self.pos.turn() == us {
            let next = self.pos.rules().next_side(us);
            self.pos.make_pass(next);
        }
        self.begin_turn();
    }

    /// The end of a two-player turn (one move): the position is counted for repetition,
    /// the game ends as the position does, and the move already gave the turn on.
    fn end_two_player_turn(&mut self) {
        self.repetitions.note(&self.pos);
        self.check_end();
        self.turn = TurnState::default();
        self.begin_turn();
    }

    /// Every side's standing after a turn: out (royal piece gone), frozen (checkmated)
    /// or playing; and the immunity that follows.
    fn update_standings(&mut self) {
        if self.multi.is_none() {
            // Two sides: a mate or a stalemate ends the game; nobody is frozen or out.
            return;
        }
        for side in self.sides() {
            if self.standing[side.index()] != Standing::Out && !self.pos.royal_on_board(side) {
                self.knock_out(side);
            }
        }
        self.attacks.refresh(&self.pos, self.sides_out());
        for side in self.sides() {
            let i = side.index();
            if self.standing[i] == Standing::Out {
                continue;
            }
            self.standing[i] = if self.is_mated(side) {
                Standing::Frozen
            } else {
                Standing::Playing
            };
        }
        self.refresh_immunity();
    }

    /// Whether `side` is checkmated as the board stands: in check, with no legal move.
    pub(crate) fn is_mated(&self, side: Side) -> bool {
        self.in_check(side) && no_legal_move_on(&self.pos, side)
    }

    /// Whether `side`'s royal piece is attacked by a side still in the game.
    /// A setup phase has no check: pieces are placed, not played.
    pub fn in_check(&self, side: Side) -> bool {
        match self.attacks.fresh() {
            Some(maps) => royal_attacked(&self.pos, &self.standing, side, |e, royal| {
                maps[e.index()].contains(royal)
            }),
            None => in_check_on(&self.pos, &self.standing, side),
        }
    }

    /// Every cell each side still in attacks, the board as it stands (index by
    /// [`Side::index`]; a side out attacks nothing). Kept from turn to turn; only the
    /// maps a move changed are swept again.
    pub fn attack_maps(&self) -> [B; MAX_SIDES] {
        match self.attacks.fresh() {
            Some(maps) => *maps,
            None => AttackMaps::swept(&self.pos, self.sides_out()),
        }
    }

    /// A bit for each side out of the game.
    fn sides_out(&self) -> u8 {
        self.sides()
            .filter(|s| self.standing[s.index()] == Standing::Out)
            .fold(0, |out, s| out | 1 << s.index())
    }

    /// [`Game::attack_maps`], every army swept (what the kept maps must equal).
    #[cfg(test)]
    pub(crate) fn find_attacks(&self) -> [B; MAX_SIDES] {
        AttackMaps::swept(&self.pos, self.sides_out())
    }

    /// Ends the game when the goal is reached or a draw rule applies.
    fn check_end(&mut self) {
        if self.end.is_some() {
            return;
        }
        let Some(goal) = self.multi.as_ref().map(|m| m.goal) else {
            // Two sides: as the position ends, its repetitions counted as the game went.
            self.end = match self.draws {
                Draws::ByRule => self.repetitions.outcome(&self.pos),
                Draws::Called => self.pos.no_move_outcome(),
            };
            return;
        };
        let live = self.live();
        match goal {
            Goal::LastKingStanding => {
                if live == 1 {
                    self.finish(self.sides_in(), Termination::LastKingStanding);
                    return;
                }
                let frozen = || {
                    self.sides()
                        .filter(|s| self.standing[s.index()] == Standing::Frozen)
                };
                if live == 2 && frozen().count() == 1 {
                    let winner = self
                        .sides_in()
                        .into_iter()
                        .filter(|s| self.standing[s.index()] != Standing::Frozen)
                        .collect();
                    self.finish(winner, Termination::Checkmate);
                    return;
                }
            }
            Goal::FirstCheckmate => {
                let beaten = self
                    .sides()
                    .find(|s| self.standing[s.index()] != Standing::Playing);
                if let Some(loser) = beaten {
                    let enemies = self.pos.rules().enemies(loser).to_vec();
                    self.finish(enemies, Termination::Checkmate);
                    return;
                }
            }
        }
        if self.draws == Draws::ByRule && u32::from(self.pos.halfmove_clock()) >= 50 * live as u32 {
            self.finish(self.sides_in(), Termination::MoveRule);
        }
    }

    /// Ends the game: the point shared among `winners` (a side, a team, or every side
    /// still in for a draw).
    fn finish(&mut self, winners: Vec<Side>, termination: Termination) {
        let sides = self.pos.rules().side_count();
        self.end = Some(GameOutcome::shared(termination, &winners, sides));
    }

    /// The key of the state at a turn's start: the board, the side to move, standings
    /// and removals owed (what repetitions count, and a search's table keys by; the
    /// captures of the round so far, which later debts depend on, are not in it).
    pub fn state_key(&self) -> u64 {
        let mut h = self.pos.hash();
        for side in self.sides() {
            let i = side.index() as u64;
            let standing = self.standing[side.index()] as u64;
            h ^= (standing + 1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(7 * i as u32);
            h ^= (u64::from(self.owed[side.index()]) + 1)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                .rotate_left(11 + 5 * i as u32);
        }
        h
    }

    /// Gives the turn to the next side that plays: sides out are passed over, a frozen
    /// side loses its turn (it counts in the rounds), and a side with no move loses its
    /// turn too (two sides left: stalemate, a draw).
    fn begin_turn(&mut self) {
        if self.multi.is_none() {
            if self.end.is_none() {
                self.turn.allowed = 1;
            }
            return;
        }
        let mut lost_in_a_row = 0;
        while self.end.is_none() {
            let us = self.pos.turn();
            let live = self.live();
            match self.standing[us.index()] {
                Standing::Out => {
                    self.pass_to_next(us);
                    continue;
                }
                Standing::Frozen => {
                    self.lose_turn(us);
                    lost_in_a_row += 1;
                }
                Standing::Playing => {
                    if self.owed[us.index()] > 0 && self.removals().is_empty() {
                        self.owed[us.index()] = 0;
                    }
                    if self.owed[us.index()] > 0
                        || self.free_royal_step(us).is_some()
                        || self.pos.has_legal_move_with(&mut self.scratch)
                    {
                        self.note_repetition();
                        return;
                    }
                    if live == 2 {
                        self.finish(self.sides_in(), Termination::Stalemate);
                        return;
                    }
                    self.lose_turn(us);
                    lost_in_a_row += 1;
                }
            }
            if lost_in_a_row >= live {
                self.finish(self.sides_in(), Termination::Stalemate);
            }
        }
    }

    /// A cell `us`'s royal piece may step to that no enemy attacks, if there is one: a
    /// legal move read from the kept attack maps, without the pins and the move lists
    /// [`Position::has_legal_move`] works out (nearly every turn's start has one).
    ///
    /// Read only out of check. Then no slide reaches the royal piece's cell, so none
    /// reaches through it to a cell it steps to: the maps, found with the piece where it
    /// stands, tell the truth about those cells after the step. A cell of the maps is
    /// attacked or defended alike, so a capture found here takes an undefended piece.
    pub(crate) fn free_royal_step(&self, us: Side) -> Option<crate::Cell> {
        let maps = self.attacks.fresh()?;
        let pos = &self.pos;
        if pos.phase() != Phase::Play || pos.turn() != us || !pos.royal_on_board(us) {
            return None;
        }
        let rules = pos.rules();
        let king = pos.royal_cell(us);
        let attacked = rules
            .enemies(us)
            .iter()
            .filter(|e| self.standing[e.index()] != Standing::Out)
            .fold(B::EMPTY, |hit, e| hit | maps[e.index()]);
        if attacked.contains(king) {
            return None;
        }
        let kind = pos.piece_at(king)?.kind;
        let km = &rules.moves[us.index()][kind.index()];
        let i = king.index();
        let (mut to_empty, mut to_take) = (B::EMPTY, B::EMPTY);
        if km.has_leaps {
            to_empty = km.leap_any[i];
            to_take = km.leap_any[i];
        }
        if km.has_moded_leaps {
            to_empty |= km.leap_move[i];
            to_take |= km.leap_capture[i];
        }
        let steps = (to_empty & !pos.occupied()) | (to_take & pos.enemy_cells(us));
        (steps & !attacked).into_iter().next()
    }

    fn pass_to_next(&mut self, us: Side) {
        let next = self.pos.rules().next_side(us);
        self.pos.make_pass(next);
    }

    /// `us` loses its turn: recorded as an empty turn (it counts in the rounds).
    fn lose_turn(&mut self, us: Side) {
        self.turns.push((us, TurnSteps::EMPTY));
        self.log
            .record_plain(us, TurnCaptures::new(Captured::BLANK));
        self.pass_to_next(us);
    }

    /// Fixes how many moves the turn in progress may have, before its first move (a
    /// search fixes it once for all the turns it tries from a node).
    pub(crate) fn fix_allowed(&mut self) {
        if self.turn.moves == 0 {
            self.turn.allowed = self.allowed_moves();
        }
    }

    /// How many moves the turn in progress may have: as many as the opponents
    /// threatening the side to move as it began, when that is at least two and fewer
    /// than the sides in the game. 0 while a removal is owed first (the threats are
    /// weighed after it).
    fn allowed_moves(&self) -> u8 {
        let us = self.pos.turn();
        if self.turn.allowed > 0 || self.owed[us.index()] > 0 {
            return self.turn.allowed;
        }
        let defence = self.multi.as_ref().is_some_and(|m| m.defence);
        if !defence {
            return 1;
        }
        let attackers = self.threats_on(us).count();
        if attackers >= 2 && attackers < self.live() {
            attackers as u8
        } else {
            1
        }
    }

    /// Counts the state at a turn's start; a third time ends the game. Only states
    /// since the move rule's count last went down are kept: it goes down only after a
    /// capture, a pawn move or a placement, which no earlier state can come back from,
    /// so that the count costs the same however long the game.
    fn note_repetition(&mut self) {
        let key = self.state_key();
        let halfmove = self.pos.halfmove_clock();
        if halfmove == 0 || halfmove < self.keys_halfmove {
            self.keys_from = self.keys.len();
        }
        self.keys_halfmove = halfmove;
        self.keys.push(key);
        let since = &self.keys[self.keys_from..];
        #[cfg(test)]
        crate::work::add(since.len());
        // Counted whoever calls the draw, so that a copy handed back to the rules
        // counts what came before.
        if self.draws == Draws::ByRule && since.iter().filter(|k| **k == key).count() >= 3 {
            self.finish(self.sides_in(), Termination::Repetition);
        }
    }

    /// The opponents threatening `us` now (docs/rules.md §13.2): with `threat:
    /// Hanging` each gives check or attacks a piece it could win; with `Attack` each
    /// attacks any piece; with `Check` each gives check.
    pub fn threatening(&self, us: Side) -> Vec<Side> {
        self.threats_on(us).collect()
    }

    /// [`Game::threatening`], one opponent at a time.
    fn threats_on(&self, us: Side) -> impl Iterator<Item = Side> + '_ {
        let multi = self.multi.as_ref();
        let rules = self.pos.rules();
        let threat = multi.map(|m| m.threat);
        let targets = match threat {
            Some(Threat::Check) => B::from_cell(self.pos.royal_cell(us)),
            _ => self.pos.side_cells(us) & !self.pos.immune(),
        };
        // Two sides: nobody threatens in this sense (and no map is needed).
        let (enemies, attacks) = match multi {
            Some(_) => (rules.enemies(us), self.attack_maps()),
            None => (&[][..], [B::EMPTY; MAX_SIDES]),
        };
        enemies
            .iter()
            .copied()
            .filter(|them| self.standing[them.index()] != Standing::Out)
            .filter(move |them| {
                // The cells attacked at all, from the side's attack map; only
                // `Hanging` looks closer at each.
                let hit = attacks[them.index()] & targets;
                match threat {
                    Some(Threat::Hanging) => {
                        hit.any_cell(|c| self.threatens_hanging(*them, c, attacks[us.index()]))
                    }
                    _ => hit.any(),
                }
            })
    }

    /// Whether a `Hanging` threat is made on `us`'s piece on `c`, which `them`
    /// attacks: a royal piece, a piece `us` does not defend (`defended`: every cell
    /// `us` attacks), or one a lesser piece attacks.
    fn threatens_hanging(&self, them: Side, c: crate::Cell, defended: B) -> bool {
        let rules = self.pos.rules();
        let Some(target) = self.pos.piece_at(c).filter(|_| self.multi.is_some()) else {
            return false;
        };
        if rules.is_royal(target.kind) || !defended.contains(c) {
            return true;
        }
        let lesser = rules
            .kinds()
            .filter(|k| self.lesser[target.kind.index()] >> k.index() & 1 != 0)
            .fold(B::EMPTY, |b, k| b | self.pos.kind_cells(them, k));
        lesser.any() && self.pos.attacked_with(c, them, self.pos.occupied(), lesser)
    }

    /// Pieces of `side` of `kind` lost so far (its start count less those on the board),
    /// for swaps.
    pub(crate) fn lost(&self, side: Side, kind: Kind) -> u8 {
        let rules = self.pos.rules();
        rules
            .start_count(side, kind)
            .saturating_sub(self.pos.count(side, kind))
    }

    /// The piece on a cell, if any.
    pub(crate) fn piece_at(&self, c: crate::Cell) -> Option<Piece> {
        self.pos.piece_at(c)
    }
}

impl<B: CellSet> std::fmt::Debug for Game<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("position", &self.pos)
            .field("standing", &self.standing)
            .field("owed", &self.owed)
            .field("end", &self.end)
            .finish()
    }
}

/// Whether `side` is checkmated on `pos` with these standings: in check, with no
/// legal move.
/// `[kind]`: the kinds worth less than it by `multi`'s weighing (bit per kind).
fn lesser_kinds<B: CellSet>(
    multi: &MultiRules,
    rules: &Rules<B>,
) -> [u32; crate::piece::MAX_KINDS] {
    let mut out = [0; crate::piece::MAX_KINDS];
    for k in rules.kinds() {
        let worth = multi.worth(rules, k);
        out[k.index()] = rules
            .kinds()
            .filter(|l| multi.worth(rules, *l) < worth)
            .fold(0, |bits, l| bits | 1 << l.index());
    }
    out
}

pub(crate) fn is_mated_on<B: CellSet>(
    pos: &Position<B>,
    standing: &[Standing; MAX_SIDES],
    side: Side,
) -> bool {
    in_check_on(pos, standing, side) && no_legal_move_on(pos, side)
}

/// Whether `side` would have no legal move on `pos` if it were its turn.
fn no_legal_move_on<B: CellSet>(pos: &Position<B>, side: Side) -> bool {
    let mut pos = pos.without_history();
    if pos.turn() != side {
        pos.make_pass(side);
    }
    !pos.has_legal_move()
}

/// Whether `side`'s royal piece on `pos` is attacked by a side still in the game
/// (`standing`); a setup phase has no check.
pub(crate) fn in_check_on<B: CellSet>(
    pos: &Position<B>,
    standing: &[Standing; MAX_SIDES],
    side: Side,
) -> bool {
    royal_attacked(pos, standing, side, |e, royal| pos.is_attacked(royal, e))
}

/// Whether `side`'s royal piece is attacked by a side still in the game, as
/// `attacks(enemy, royal cell)` says (asked of the board, or read from attack maps).
fn royal_attacked<B: CellSet>(
    pos: &Position<B>,
    standing: &[Standing; MAX_SIDES],
    side: Side,
    attacks: impl Fn(Side, crate::Cell) -> bool,
) -> bool {
    if pos.phase() != Phase::Play || !pos.royal_on_board(side) {
        return false;
    }
    let royal = pos.royal_cell(side);
    pos.rules()
        .enemies(side)
        .iter()
        .filter(|e| standing[e.index()] != Standing::Out)
        .any(|e| attacks(*e, royal))
}
