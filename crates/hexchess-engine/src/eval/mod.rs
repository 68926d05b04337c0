//! Static evaluation computed from a variant's geometry and data, so a new variant file
//! gets a sensible evaluation with no code.
//!
//! Every table here is derived from [`Rules`]: piece values from mobility on an open
//! board (unless the file sets them), centralisation from how much more a piece reaches
//! on each cell, pawn advancement from the number of advances left to the promotion zone,
//! passed-pawn masks from the pawns' own move and capture vectors, king zones and pawn
//! shields from the drawing's forward direction. Both sides' tables are built from their
//! own vectors and zones, so a position and its colour-mirrored twin score the same.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

mod tables;

use hexchess_core::bitboard::Bitboard;
use hexchess_core::piece::{Kind, MAX_KINDS, Piece, Side};
use hexchess_core::position::{Phase as GamePhase, PieceSquareTable, Position};
use hexchess_core::rules::Rules;

/// A middlegame and an endgame score, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phased {
    /// The middlegame score.
    pub mg: i32,
    /// The endgame score.
    pub eg: i32,
}

impl Phased {
    /// A middlegame and an endgame score.
    pub const fn new(mg: i32, eg: i32) -> Phased {
        Phased { mg, eg }
    }
}

impl std::ops::AddAssign for Phased {
    fn add_assign(&mut self, o: Phased) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::SubAssign for Phased {
    fn sub_assign(&mut self, o: Phased) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

/// A kind whose mobility and attacks on the enemy king count.
#[derive(Clone, Copy, Debug)]
struct MobileKind {
    kind: Kind,
    /// Centipawns per reachable cell, times four.
    weight: Phased,
    /// Reach on an average cell of an empty board, a third of it: the zero point.
    base: i32,
    /// Weight of its attacks near the enemy king.
    heavy: i32,
}

/// The positional terms an evaluation may leave out, as a set: matches of the engine
/// against itself without one of them show what it is worth. Material and placement
/// are always counted (the search keeps them summed move by move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EvalTerms(u8);

impl EvalTerms {
    /// Reachable cells of each piece but pawns and royals.
    pub const MOBILITY: EvalTerms = EvalTerms(1);
    /// Pieces reaching the enemy royal piece's neighbourhood.
    pub const KING_ATTACK: EvalTerms = EvalTerms(2);
    /// Own pawns in front of the royal piece.
    pub const PAWN_SHIELD: EvalTerms = EvalTerms(4);
    /// Pawns no enemy pawn can stop, more the further they are.
    pub const PASSED_PAWNS: EvalTerms = EvalTerms(8);
    /// No term: material and placement alone.
    pub const NONE: EvalTerms = EvalTerms(0);
    /// Every term.
    pub const ALL: EvalTerms = EvalTerms(15);

    /// Each term with the name the protocol's options give it.
    pub const NAMED: [(&'static str, EvalTerms); 4] = [
        ("Mobility", EvalTerms::MOBILITY),
        ("KingAttack", EvalTerms::KING_ATTACK),
        ("PawnShield", EvalTerms::PAWN_SHIELD),
        ("PassedPawns", EvalTerms::PASSED_PAWNS),
    ];

    /// Whether every term of `other` is on here.
    pub const fn contains(self, other: EvalTerms) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether some term of `other` is on here.
    pub const fn intersects(self, other: EvalTerms) -> bool {
        self.0 & other.0 != 0
    }

    /// These terms and those of `other`.
    pub const fn with(self, other: EvalTerms) -> EvalTerms {
        EvalTerms(self.0 | other.0)
    }

    /// These terms but those of `other`.
    pub const fn without(self, other: EvalTerms) -> EvalTerms {
        EvalTerms(self.0 & !other.0)
    }
}

/// How much of the evaluation to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalMode {
    /// Material and placement, and these positional terms.
    Terms(EvalTerms),
    /// Material only (a baseline opponent for matches).
    Material,
}

impl EvalMode {
    /// Every term: the engine's own evaluation.
    pub const FULL: EvalMode = EvalMode::Terms(EvalTerms::ALL);
}

/// Probability of a slide step staying unblocked when deriving values from mobility.
const OPEN_RAY: f64 = 0.7;

/// The scales of the evaluation's positional ideas: the tables are derived from the
/// variant's geometry and multiplied by these, so one set serves every variant.
/// `hexchess-engine tune` fits them to game results (see `hexchess_lab::tune`).
/// Read from RON, a weight left out keeps its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvalWeights {
    /// Pawn placement: a pawn one step from promotion over one at home, centipawns
    /// (middlegame, endgame).
    pub pawn_advance: [i32; 2],
    /// Pawn placement: a pawn on the centre cell over one on the rim (middlegame).
    pub pawn_centre: i32,
    /// Royal placement: the middlegame cost of standing on the far side of the board.
    pub king_forward: i32,
    /// Royal placement: the endgame gain of the centre cell over the rim.
    pub king_centre: i32,
    /// Other pieces' placement: per cell more reach from here than on an average cell,
    /// in tenths of a centipawn (middlegame, endgame).
    pub piece_reach: [i32; 2],
    /// Mobility: a kind's weight per reachable cell is this over the square root of its
    /// average reach, in quarter centipawns (middlegame, endgame).
    pub mobility: [i32; 2],
    /// King attack: the danger is (attack units)² × attackers × this / 64.
    pub king_danger: i32,
    /// Pawn shield: per own pawn in front of the royal piece (at most three count).
    pub shield: i32,
    /// Passed pawn: the endgame bonus of a passed pawn at home, and what it gains on its
    /// way to promotion (growing with the square of the distance covered); the
    /// middlegame bonus is half.
    pub passed: [i32; 2],
}

/// The placement weights were set by hand; the dynamic ones (mobility, king danger,
/// shield, passed pawns) were then fitted by `hexchess-engine tune --freeze` (placement
/// kept) to 3,500 games of the engine against itself at 20 ms per move, and the fit
/// beat the hand-set (40, 40), 8, 12, (10, 120) by +29 ± 21 Elo over 800 Gliński games
/// at 20 ms per move. Tuning the placement weights too drove them towards zero and lost
/// (-21 ± 28): the engine's own games hardly show what its placement keeps it from.
impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            pawn_advance: [20, 40],
            pawn_centre: 8,
            king_forward: 60,
            king_centre: 30,
            piece_reach: [30, 20],
            mobility: [25, 0],
            king_danger: 5,
            shield: 7,
            passed: [0, 183],
        }
    }
}

/// The weights in RON, on one line: what the protocol's `EvalWeights` option reads.
impl std::fmt::Display for EvalWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&ron::to_string(self).map_err(|_| std::fmt::Error)?)
    }
}

/// A weight outside [`EvalWeights::RANGE`]: which one, and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightError {
    /// Its name as [`EvalWeights::NAMES`] gives it (`mobility.mg`).
    pub field: &'static str,
    /// The value refused.
    pub value: i32,
}

impl std::fmt::Display for WeightError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (min, max) = (EvalWeights::RANGE.start(), EvalWeights::RANGE.end());
        write!(
            f,
            "{} is {}; each weight is {min} to {max}",
            self.field, self.value
        )
    }
}

impl std::error::Error for WeightError {}

impl EvalWeights {
    /// How many numbers the weights hold.
    pub const LEN: usize = 13;

    /// The range of every weight: ten times the largest default and beyond anything
    /// tuning reached, yet small enough that no term overflows its sum however many
    /// pieces the board holds (unbounded weights made `go` loop or report mates).
    pub const RANGE: std::ops::RangeInclusive<i32> = -1000..=1000;

    /// The first weight outside [`EvalWeights::RANGE`], if any.
    pub fn check(&self) -> Result<(), WeightError> {
        match self
            .to_vec()
            .into_iter()
            .zip(EvalWeights::NAMES)
            .find(|(v, _)| !EvalWeights::RANGE.contains(v))
        {
            Some((value, field)) => Err(WeightError { field, value }),
            None => Ok(()),
        }
    }

    /// Every weight moved into [`EvalWeights::RANGE`]: what an evaluator is built from,
    /// whoever made the weights.
    pub fn clamped(&self) -> EvalWeights {
        let (min, max) = (*EvalWeights::RANGE.start(), *EvalWeights::RANGE.end());
        let v: Vec<i32> = self.to_vec().iter().map(|w| (*w).clamp(min, max)).collect();
        EvalWeights::from_slice(&v).unwrap_or_default()
    }

    /// Names of the numbers of [`EvalWeights::to_vec`], for reports.
    pub const NAMES: [&'static str; EvalWeights::LEN] = [
        "pawn_advance.mg",
        "pawn_advance.eg",
        "pawn_centre",
        "king_forward",
        "king_centre",
        "piece_reach.mg",
        "piece_reach.eg",
        "mobility.mg",
        "mobility.eg",
        "king_danger",
        "shield",
        "passed.base",
        "passed.advance",
    ];

    /// The weights as a flat list, in declaration order (for tuning).
    pub fn to_vec(&self) -> Vec<i32> {
        let w = self;
        vec![
            w.pawn_advance[0],
            w.pawn_advance[1],
            w.pawn_centre,
            w.king_forward,
            w.king_centre,
            w.piece_reach[0],
            w.piece_reach[1],
            w.mobility[0],
            w.mobility[1],
            w.king_danger,
            w.shield,
            w.passed[0],
            w.passed[1],
        ]
    }

    /// The inverse of [`EvalWeights::to_vec`]; `None` unless `v` has [`EvalWeights::LEN`]
    /// numbers.
    pub fn from_slice(v: &[i32]) -> Option<EvalWeights> {
        let v: &[i32; EvalWeights::LEN] = v.try_into().ok()?;
        Some(EvalWeights {
            pawn_advance: [v[0], v[1]],
            pawn_centre: v[2],
            king_forward: v[3],
            king_centre: v[4],
            piece_reach: [v[5], v[6]],
            mobility: [v[7], v[8]],
            king_danger: v[9],
            shield: v[10],
            passed: [v[11], v[12]],
        })
    }
}

/// Evaluation tables for one variant.
#[derive(Clone, Debug)]
pub struct Evaluator {
    values: [i32; MAX_KINDS],
    /// `[side][cell]`: cells where an enemy pawn would stop a pawn of `side` on `cell`.
    passed_stoppers: [Vec<Bitboard>; 2],
    /// `[side][cell]`: advances a pawn still needs to reach a promotion cell.
    pawn_steps: [Vec<u8>; 2],
    /// Per cell: the royal piece's neighbourhood (cells within two steps).
    king_zone: Vec<Bitboard>,
    /// `[side][cell]`: neighbours in front of a royal piece on `cell`.
    shield: [Vec<Bitboard>; 2],
    /// Non-pawn, non-royal material of both sides at the start: the opening phase.
    start_phase: i32,
    /// Per piece and cell: material plus placement (middlegame, endgame), White
    /// positive, and the piece's share of the game phase: the cheap terms, which a
    /// search keeps summed in its position (see [`Evaluator::attach`]).
    placed: Arc<PieceSquareTable>,
    /// `[side * MAX_KINDS + kind]`: a piece in hand's share of `placed` (see
    /// `tables::hand_values`); empty without a setup phase.
    in_hand: Vec<[i32; 3]>,
    /// The kinds scored for mobility and king attack (neither pawn nor royal).
    mobile: Vec<MobileKind>,
    pawn: Option<Kind>,
    /// Kinds neither royal nor pawn: the material null-move pruning looks at.
    piece_kinds: Vec<Kind>,
    kinds: Vec<Kind>,
    /// `[steps left]`: a passed pawn's bonus (middlegame, endgame).
    passed_bonus: Vec<Phased>,
    king_danger: i32,
    shield_bonus: i32,
}

impl Evaluator {
    /// The evaluation of `rules`' variant with the tuned weights.
    pub fn new(rules: &Rules) -> Evaluator {
        Evaluator::with_weights(rules, &EvalWeights::default())
    }

    /// An evaluator whose positional ideas weigh `w` (each moved into
    /// [`EvalWeights::RANGE`] first).
    pub fn with_weights(rules: &Rules, w: &EvalWeights) -> Evaluator {
        tables::build(rules, &w.clamped())
    }

    /// Has `pos` keep this evaluator's material and placement summed as it moves, so that
    /// evaluating it does not add up every piece (for a search; undo with
    /// [`Position::detach_table`]).
    pub fn attach(&self, pos: &mut Position) {
        pos.attach_table(Arc::clone(&self.placed));
    }

    /// Material value of a kind in centipawns (0 for royal pieces).
    #[inline]
    pub fn value(&self, k: Kind) -> i32 {
        self.values[k.index()]
    }

    /// Non-pawn, non-royal material of one side: zero means only pawns are left, where
    /// null-move pruning is unsafe (zugzwang).
    pub fn piece_material(&self, pos: &Position, side: Side) -> i32 {
        let mut total = 0;
        for &k in &self.piece_kinds {
            total += self.values[k.index()] * pos.count(side, k) as i32;
        }
        total
    }

    /// The evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position, mode: EvalMode) -> i32 {
        self.evaluate_within(pos, mode, -LAZY_OFF, LAZY_OFF)
    }

    /// Like [`Evaluator::evaluate`], but when the cheap terms alone put the score far
    /// outside `alpha..beta`, the expensive ones (mobility, king safety) are skipped:
    /// they cannot bring it back inside.
    pub fn evaluate_within(&self, pos: &Position, mode: EvalMode, alpha: i32, beta: i32) -> i32 {
        self.evaluate_lazy(pos, mode, alpha, beta).0
    }

    /// [`Evaluator::evaluate_within`], also telling whether the score is the full
    /// evaluation (worth caching) or only the cheap estimate.
    pub fn evaluate_lazy(
        &self,
        pos: &Position,
        mode: EvalMode,
        alpha: i32,
        beta: i32,
    ) -> (i32, bool) {
        let sign = match pos.turn() {
            Side::White => 1,
            _ => -1,
        };
        let terms = match mode {
            EvalMode::Material => {
                let balance = self.material(pos, Side::White) - self.material(pos, Side::Black);
                return (sign * balance.clamp(-MAX_EVAL, MAX_EVAL), true);
            }
            EvalMode::Terms(terms) => terms,
        };
        let (cheap_terms, phase) = self.static_terms(pos, terms);
        if pos.phase() != GamePhase::Play {
            // While pieces are in hand, no king need be on the board and nothing can
            // attack yet: placement and the hands are the evaluation.
            let (held, held_phase) = self.hand_terms(pos);
            let mut all = cheap_terms;
            all += held;
            return (sign * self.blend(all, phase + held_phase), true);
        }
        let cheap = sign * self.blend(cheap_terms, phase);
        if cheap + LAZY_MARGIN <= alpha || cheap - LAZY_MARGIN >= beta {
            return (cheap, false);
        }
        let mut all = cheap_terms;
        // The engine's own evaluation has every term: compiled apart so that it pays
        // nothing for the switches.
        all += if terms == EvalTerms::ALL {
            self.dynamic_terms::<true>(pos, terms)
        } else {
            self.dynamic_terms::<false>(pos, terms)
        };
        (sign * self.blend(all, phase), true)
    }

    /// Material on the board and in hand.
    fn material(&self, pos: &Position, side: Side) -> i32 {
        self.kinds
            .iter()
            .map(|&k| self.values[k.index()] * (pos.count(side, k) + pos.in_hand(side, k)) as i32)
            .sum()
    }

    /// White-minus-Black worth of the pieces in hand, and their share of the game phase.
    fn hand_terms(&self, pos: &Position) -> (Phased, i32) {
        let mut score = Phased::default();
        let mut phase = 0;
        for side in Side::BOTH {
            for &k in &self.kinds {
                let n = i32::from(pos.in_hand(side, k));
                if n == 0 {
                    continue;
                }
                let [mg, eg, ph] = self.in_hand[side.index() * MAX_KINDS + k.index()];
                score += Phased::new(mg * n, eg * n);
                phase += ph * n;
            }
        }
        (score, phase)
    }

    /// The middlegame and endgame scores weighed by the phase, within [`MAX_EVAL`].
    /// Scores and phases of real games fit 32-bit arithmetic, which is cheaper (a
    /// 64-bit division cost the bench 4%); a board of many valuable pieces takes the
    /// 64-bit way.
    #[inline]
    fn blend(&self, score: Phased, phase: i32) -> i32 {
        let phase = phase.min(self.start_phase);
        let small = |x: i32| x.unsigned_abs() <= BLEND_SMALL_SCORE;
        if self.start_phase <= BLEND_SMALL_PHASE && small(score.mg) && small(score.eg) {
            // At most BLEND_SMALL_SCORE × BLEND_SMALL_PHASE < 2³¹, and the result is at
            // most the larger score: below MAX_EVAL.
            return (score.mg * phase + score.eg * (self.start_phase - phase)) / self.start_phase;
        }
        let (phase, start) = (i64::from(phase), i64::from(self.start_phase));
        let blended = (i64::from(score.mg) * phase + i64::from(score.eg) * (start - phase)) / start;
        blended.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }

    /// White-minus-Black material, placement and passed pawns, and the game phase.
    fn static_terms(&self, pos: &Position, terms: EvalTerms) -> (Phased, i32) {
        let [mg, eg, phase, _] = pos.table_total(&self.placed);
        let mut score = Phased::new(mg, eg);
        if let Some(pawn) = self.pawn
            && terms.contains(EvalTerms::PASSED_PAWNS)
        {
            for side in Side::BOTH {
                let s = side.index();
                let enemy_pawns = pos.kind_cells(!side, pawn);
                let mut acc = Phased::default();
                for c in pos.kind_cells(side, pawn) {
                    if (self.passed_stoppers[s][c.index()] & enemy_pawns).is_empty() {
                        // Passed: nothing but pieces can stop it.
                        acc += self.passed_bonus[self.pawn_steps[s][c.index()] as usize];
                    }
                }
                if side == Side::White {
                    score += acc;
                } else {
                    score -= acc;
                }
            }
        }
        (score, phase)
    }

    /// White-minus-Black mobility, king attack and pawn shield.
    /// `ALL`: every term, whatever `terms` says.
    #[inline(always)]
    fn dynamic_terms<const ALL: bool>(&self, pos: &Position, terms: EvalTerms) -> Phased {
        let mobility = ALL || terms.contains(EvalTerms::MOBILITY);
        let king_attack = ALL || terms.contains(EvalTerms::KING_ATTACK);
        let shield = ALL || terms.contains(EvalTerms::PAWN_SHIELD);
        let reach_counts =
            ALL || terms.intersects(EvalTerms::MOBILITY.with(EvalTerms::KING_ATTACK));
        let rules = pos.rules();
        let occupied = pos.occupied();
        let mut score = Phased::default();
        for side in Side::BOTH {
            let s = side.index();
            let own = pos.side_cells(side);
            let enemy = pos.side_cells(!side);
            let zone = self.king_zone[pos.royal_cell(!side).index()];
            let mut acc = Phased::default();
            let mut attack_units = 0;
            let mut attackers = 0;
            for m in self.mobile.iter().filter(|_| reach_counts) {
                let pieces = pos.kind_cells(side, m.kind);
                if pieces.is_empty() {
                    continue;
                }
                let piece = Piece::new(side, m.kind);
                for c in pieces {
                    let reach = rules.reach(piece, c, own, enemy, occupied);
                    if mobility {
                        let mob = reach.count() as i32 - m.base;
                        acc.mg += m.weight.mg * mob / 4;
                        acc.eg += m.weight.eg * mob / 4;
                    }
                    let near = (reach & zone).count() as i32;
                    if king_attack && near > 0 {
                        attackers += 1;
                        attack_units += near * m.heavy;
                    }
                }
            }
            if attackers >= 2 {
                // In 64 bits: valuable pieces make many attack units.
                let units = i64::from(attack_units);
                let danger =
                    units * units * i64::from(attackers) * i64::from(self.king_danger) / 64;
                acc.mg += danger.clamp(-500, 500) as i32;
                acc.eg += (danger / 4).clamp(-120, 120) as i32;
            }
            if let Some(p) = self.pawn
                && shield
            {
                let royal = pos.royal_cell(side);
                let shield =
                    (pos.kind_cells(side, p) & self.shield[s][royal.index()]).count() as i32;
                acc.mg += self.shield_bonus * shield.min(3);
            }
            if side == Side::White {
                score += acc;
            } else {
                score -= acc;
            }
        }
        score
    }
}

/// The largest evaluation in centipawns, either way: two hundred pawns, well below the
/// mate scores, so that no material or position, however lopsided, reads as a mate
/// (the search adds a level's noise and margins to it, still far from them; the search
/// checks the distance where it defines the mate scores).
pub const MAX_EVAL: i32 = 20_000;

/// Scores and a phase within these blend in 32 bits (see `Evaluator::blend`).
const BLEND_SMALL_SCORE: u32 = 16_383;
const BLEND_SMALL_PHASE: i32 = 65_536;
const _: () = assert!(BLEND_SMALL_SCORE as i64 * BLEND_SMALL_PHASE as i64 <= i32::MAX as i64);
const _: () = assert!((BLEND_SMALL_SCORE as i32) < MAX_EVAL);

/// Bounds so wide that lazy evaluation never cuts.
const LAZY_OFF: i32 = 1_000_000;
/// The most the dynamic terms are expected to move a score.
const LAZY_MARGIN: i32 = 350;

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::variant::builtin;
    use std::sync::Arc;

    fn rules(id: &str) -> Arc<Rules> {
        Arc::new(Rules::new(&builtin(id).unwrap().unwrap()).unwrap())
    }

    #[test]
    fn derived_values_are_in_the_usual_order() {
        let r = rules("grand");
        let e = Evaluator::new(&r);
        let v = |l: char| e.value(r.kind_by_letter(l).unwrap());
        assert_eq!(v('P'), 100);
        assert_eq!(v('K'), 0);
        assert!(v('N') > 250 && v('N') < 400, "N {}", v('N'));
        assert!(v('B') > 250 && v('B') < 450, "B {}", v('B'));
        assert!(v('R') > v('B') && v('R') > v('N'));
        assert!(v('Q') > v('R') + v('B'));
        assert!(v('V') > v('B') && v('W') > v('R'));
    }

    #[test]
    fn the_sum_kept_by_moves_matches_adding_up_every_piece() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        for id in ["glinski", "grand"] {
            let mut p = Position::start(rules(id));
            let e = Evaluator::new(p.rules());
            e.attach(&mut p);
            let mut rng = StdRng::seed_from_u64(3);
            let mut played = 0;
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves[rng.random_range(0..moves.len())]);
                played += 1;
                let mut plain = p.clone();
                plain.detach_table();
                assert!(p.table_sum(&e.placed).is_some());
                assert!(plain.table_sum(&e.placed).is_none());
                assert_eq!(
                    e.evaluate(&p, EvalMode::FULL),
                    e.evaluate(&plain, EvalMode::FULL),
                    "{}",
                    p.to_fen()
                );
            }
            // Taking every move back restores the sum of the start.
            for _ in 0..played {
                p.unmake_move();
            }
            let mut fresh = Position::start(rules(id));
            e.attach(&mut fresh);
            assert_eq!(p.table_sum(&e.placed), fresh.table_sum(&e.placed));
        }
    }

    #[test]
    fn start_positions_are_level() {
        for id in ["glinski", "mccooey", "grand", "standard"] {
            let p = Position::start(rules(id));
            let e = Evaluator::new(p.rules());
            let score = e.evaluate(&p, EvalMode::FULL);
            assert!(score.abs() < 60, "{id}: {score}");
        }
    }

    /// Gliński with every cell but the two kings' filled with White queens.
    fn board_of_queens(turn: char) -> String {
        let lengths = [6usize, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6];
        let last = lengths.len() - 1;
        let files: Vec<String> = lengths
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let mut cells = vec!['Q'; n];
                if i == 0 {
                    cells[0] = 'K';
                }
                if i == last {
                    cells[n - 1] = 'k';
                }
                cells.into_iter().collect()
            })
            .collect();
        format!("{} {turn} - 0 1", files.join("/"))
    }

    #[test]
    fn no_evaluation_reaches_the_mate_band_whatever_it_adds_up() {
        let r = rules("glinski");
        let extreme = [i32::MAX, i32::MIN, 0, 1];
        let crowded = Position::from_fen(Arc::clone(&r), &board_of_queens('b')).unwrap();
        let start = Position::start(Arc::clone(&r));
        for (i, &x) in extreme.iter().enumerate() {
            let y = extreme[(i + 1) % extreme.len()];
            let w = EvalWeights {
                pawn_advance: [x, y],
                pawn_centre: x,
                king_forward: y,
                king_centre: x,
                piece_reach: [y, x],
                mobility: [x, y],
                king_danger: y,
                shield: x,
                passed: [y, x],
            };
            let e = Evaluator::with_weights(&r, &w);
            for pos in [&crowded, &start] {
                for mode in [EvalMode::FULL, EvalMode::Material] {
                    let score = e.evaluate(pos, mode);
                    assert!(
                        score.abs() <= MAX_EVAL && MAX_EVAL < crate::MATE_BOUND,
                        "{w}: {score} at {}",
                        pos.to_fen()
                    );
                }
            }
        }
        // The default weights on the crowded board: as large as an evaluation goes.
        let e = Evaluator::new(&r);
        assert_eq!(e.evaluate(&crowded, EvalMode::FULL), -MAX_EVAL);
    }
}
