//! A static evaluation for games of more sides: one score per side, in centipawns.
//!
//! Material, pawns' progress, pieces near the centre, a king's attacked surroundings,
//! and pieces left attacked and undefended (a game of three is a game of hanging
//! pieces: two opponents can take). A side out scores far below everyone; a side under
//! a checkmate freeze is close to it.

use std::sync::Arc;

use hexchess_core::bitboard::CellSet;
use hexchess_core::game::{Game, Standing};
use hexchess_core::piece::{Kind, MAX_KINDS, MAX_SIDES, Piece, Side};
use hexchess_core::position::{PieceSquareTable, Position, TABLE_LANES};
use hexchess_core::{Hex, Rules};

/// A side out of the game: below anything a side still playing can score.
pub const OUT: i32 = -100_000;
/// A side under a checkmate freeze: lost unless another side lifts the mate.
const FROZEN: i32 = -5_000;

/// Worth of a piece kind in centipawns: the variant's value, else by its letter.
pub fn kind_value<B: CellSet>(rules: &Rules<B>, k: Kind) -> i32 {
    let info = rules.kind_info(k);
    if let Some(v) = info.value {
        return v;
    }
    match info.letter {
        'K' => 0,
        'Q' => 950,
        'R' => 500,
        'B' => 320,
        'N' => 330,
        'P' => 100,
        _ => 400,
    }
}

/// What the evaluation knows of a variant's board for endings, read once per search:
/// how many pawn steps each cell is from the side's promotion cells.
///
/// The plain evaluation rewards a pawn for nearing the centre, which on a board of
/// three or four armies is where a pawn is halfway: past it the reward fell and pawns
/// stopped there, and an extra pawn never became a queen. This counts the way to the
/// promotion cells instead.
#[derive(Clone, Debug, Default)]
pub struct Endgame {
    /// By side index, then cell index: pawn advances to the nearest promotion cell
    /// ([`Endgame::NO_WAY`] when none leads there).
    to_go: Vec<Vec<u8>>,
    /// By side index, then cell index: a pawn's worth there beyond its value
    /// ([`Endgame::progress_at`], found once).
    progress: Vec<Vec<i32>>,
}

impl Endgame {
    const NO_WAY: u8 = u8::MAX;

    /// Every cell's distance to promotion by pawn advances, for every side, by
    /// relaxing from the promotion cells back along the advances.
    pub fn new<B: CellSet>(rules: &Rules<B>) -> Endgame {
        let cells: Vec<_> = rules.board().cells().collect();
        let mut to_go = Vec::new();
        let mut progress = Vec::new();
        for side in (0..rules.side_count()).map(Side::from_index) {
            let zone = rules.promotion_zone(side);
            let mut steps: Vec<u8> = cells
                .iter()
                .map(|c| if zone.contains(*c) { 0 } else { Self::NO_WAY })
                .collect();
            let mut changed = rules.pawn_kind().is_some();
            while changed {
                changed = false;
                for c in &cells {
                    let next = rules
                        .pawn_advances(side, *c)
                        .map(|t| steps[t.index()])
                        .min()
                        .unwrap_or(Self::NO_WAY);
                    if next < Self::NO_WAY - 1 && next + 1 < steps[c.index()] {
                        steps[c.index()] = next + 1;
                        changed = true;
                    }
                }
            }
            let longest = steps
                .iter()
                .copied()
                .filter(|s| *s != Self::NO_WAY)
                .max()
                .unwrap_or(0);
            progress.push(
                steps
                    .iter()
                    .map(|s| Self::progress_at(*s, longest))
                    .collect(),
            );
            to_go.push(steps);
        }
        Endgame { to_go, progress }
    }

    /// Pawn advances from `c` to the promotion of `side`, if any way leads there.
    pub fn pawn_steps_to_go(&self, side: Side, c: hexchess_core::Cell) -> Option<u8> {
        let steps = *self.to_go.get(side.index())?.get(c.index())?;
        (steps != Self::NO_WAY).then_some(steps)
    }

    /// A pawn's worth beyond its value on `c`.
    fn pawn_progress(&self, side: Side, c: hexchess_core::Cell) -> i32 {
        self.progress
            .get(side.index())
            .and_then(|p| p.get(c.index()))
            .copied()
            .unwrap_or(0)
    }

    /// A pawn's worth beyond its value `to_go` advances from promotion, where the
    /// longest way is `longest`: for every step made on its way, and more as promotion
    /// nears (a pawn one step away is nearly a queen).
    fn progress_at(to_go: u8, longest: u8) -> i32 {
        if to_go == Self::NO_WAY {
            return 0;
        }
        let made = i32::from(longest.saturating_sub(to_go));
        let near = match to_go {
            0 | 1 => 160,
            2 => 90,
            3 => 40,
            _ => 0,
        };
        PAWN_STEP * made + near
    }
}

/// Worth of each step a pawn has made on its way to promotion.
const PAWN_STEP: i32 = 6;

/// Each side's score as the board stands (index by [`Side::index`]).
pub fn evaluate<B: CellSet>(game: &Game<B>) -> [i32; MAX_SIDES] {
    scores_with(game, false, None, None)
}

/// Each side's score by the refined judgement: [`evaluate`]'s, less the worth of a
/// removal the side owes (a fair exchange's debt is a piece as good as gone), and
/// with a point for every cell around its king it could step to (a king with nowhere
/// to go is near a mate; attacking it is what ends games).
pub fn judge<B: CellSet>(game: &Game<B>) -> [i32; MAX_SIDES] {
    scores_with(game, true, None, None)
}

/// Each side's score by the refined judgement with the knowledge of endings: pawns
/// valued by their way to promotion, and a side far ahead of a bare king paid for
/// driving it to the edge and bringing its own king near (what a mate needs; at a few
/// turns deep the search sees the mate only once both are done).
pub fn judge_endgame<B: CellSet>(game: &Game<B>, endgame: &Endgame) -> [i32; MAX_SIDES] {
    scores_with(game, true, Some(endgame), None)
}

/// Each side's score: by the refined judgement if `judged`, with the knowledge of
/// endings if `endgame` is given. `table` is the [`placement_table`] for that
/// `endgame`: when the game's position keeps its sum, each side's material and
/// placement are read from it.
pub fn scores_with<B: CellSet>(
    game: &Game<B>,
    judged: bool,
    endgame: Option<&Endgame>,
    table: Option<&Arc<PieceSquareTable<B>>>,
) -> [i32; MAX_SIDES] {
    let pos = game.position();
    let radius = pos.rules().board().radius();
    // Every cell each side attacks, found once a turn by the game's rules.
    let attacks = game.attack_maps();
    let values = kind_values(pos.rules());
    let placed = table.and_then(|t| pos.table_sum(t));
    let material = endgame.map(|_| material(game, &values));
    let mut out = [0; MAX_SIDES];
    for side in game.sides() {
        // A hunted king's checks are the hunt's noise, not its progress: a rook that
        // checks from afar would be paid at every turn.
        let hunted = material.as_ref().is_some_and(|m| is_hunted(game, side, m));
        // Every cell the side's enemies attack, read by both terms below.
        let attacked = pos
            .rules()
            .enemies(side)
            .iter()
            .fold(B::EMPTY, |hit, e| hit | attacks[e.index()]);
        let mut score = match placed {
            Some(sums) => sums[side.index()],
            None => placement(pos, side, radius, &values, endgame),
        };
        score += side_score(game, side, &attacks, attacked, &values, hunted);
        if judged {
            score += judgement(game, side, attacked);
        }
        if let Some(material) = &material {
            score += mop_up(game, side, material, radius);
        }
        out[side.index()] = match game.standing(side) {
            Standing::Out => OUT,
            Standing::Frozen => FROZEN + score,
            Standing::Playing => score,
        };
    }
    out
}

/// What the refined judgement adds to a side's score: its debt (fair-exchange values
/// are in pawns) and its king's free cells.
fn judgement<B: CellSet>(game: &Game<B>, side: Side, attacked: B) -> i32 {
    let pos = game.position();
    let rules = pos.rules();
    let debt = 100 * i32::from(game.owed(side));
    if !pos.royal_on_board(side) {
        return -debt;
    }
    let free = rules.steps_from(pos.royal_cell(side)) & !pos.side_cells(side) & !attacked;
    KING_ROOM * free.count() as i32 - debt
}

/// Worth of each cell a king could step to.
const KING_ROOM: i32 = 6;

/// A side's material and the placement of its pieces: each piece's value; toward the
/// centre, two points a ring for a piece and six for a pawn, or with the knowledge of
/// endings, a pawn's progress to promotion. What [`placement_table`] keeps per piece
/// and cell; added up here piece by piece when no table is kept.
fn placement<B: CellSet>(
    pos: &Position<B>,
    side: Side,
    radius: i32,
    values: &[i32; MAX_KINDS],
    endgame: Option<&Endgame>,
) -> i32 {
    pos.side_cells(side)
        .into_iter()
        .filter_map(|c| pos.piece_at(c).map(|p| (c, p.kind)))
        .map(|(c, kind)| {
            values[kind.index()] + placed_worth(pos.rules(), side, kind, c, radius, endgame)
        })
        .sum()
}

/// A piece's worth beyond its value for where it stands (nothing for a royal piece).
fn placed_worth<B: CellSet>(
    rules: &Rules<B>,
    side: Side,
    kind: Kind,
    c: hexchess_core::Cell,
    radius: i32,
    endgame: Option<&Endgame>,
) -> i32 {
    if rules.is_royal(kind) {
        return 0;
    }
    let rings = radius - rules.board().hex(c).length();
    match (Some(kind) == rules.pawn_kind(), endgame) {
        (true, Some(endgame)) => endgame.pawn_progress(side, c),
        (true, None) => 6 * rings,
        (false, _) => 2 * rings,
    }
}

/// Every side's [`placement`] as a table a position keeps summed move by move (lane
/// `side` of each of its pieces' entries): a search attaches it to its game, and the
/// evaluation at each leaf reads the sums instead of visiting every piece.
pub fn placement_table<B: CellSet>(
    rules: &Rules<B>,
    endgame: Option<&Endgame>,
) -> PieceSquareTable<B> {
    let mut table = PieceSquareTable::new();
    let radius = rules.board().radius();
    for side in (0..rules.side_count()).map(Side::from_index) {
        for k in rules.kinds() {
            let value = kind_value(rules, k);
            for c in rules.board().cells() {
                let mut lanes = [0; TABLE_LANES];
                lanes[side.index()] = value + placed_worth(rules, side, k, c, radius, endgame);
                table.set(Piece::new(side, k), c, lanes);
            }
        }
    }
    table
}

/// What a side's score adds to its material and placement, with every side's
/// `attacks` and the cells its enemies attack (read from them, not asked cell by
/// cell): attacks around its king, its pieces left attacked, and a check.
fn side_score<B: CellSet>(
    game: &Game<B>,
    side: Side,
    attacks: &[B; MAX_SIDES],
    attacked: B,
    values: &[i32; MAX_KINDS],
    hunted: bool,
) -> i32 {
    let pos = game.position();
    let rules = pos.rules();
    let mut score = 0;
    // Attacks on the cells around the king, for each royal piece.
    let royals: i32 = rules
        .kinds()
        .filter(|k| rules.is_royal(*k))
        .map(|k| i32::from(pos.count(side, k)))
        .sum();
    if royals > 0 {
        let king_zone = rules.steps_from(pos.royal_cell(side));
        score -= 15 * royals * (attacked & king_zone).count() as i32;
    }
    // Pieces left attacked: half their worth if undefended, an eighth if defended.
    let defended = attacks[side.index()];
    for c in pos.side_cells(side) & !pos.royals(side) & attacked & !pos.immune() {
        let Some(piece) = pos.piece_at(c) else {
            continue;
        };
        let value = values[piece.kind.index()];
        score -= if defended.contains(c) {
            value / 8
        } else {
            value / 2
        };
    }
    if !hunted && game.in_check(side) {
        score -= CHECKED;
    }
    score
}

/// What being in check costs a side (not a hunted bare king: see [`scores`]).
const CHECKED: i32 = 60;

/// Each side's material but its king's, by [`kind_value`] (index by [`Side::index`]).
fn material<B: CellSet>(game: &Game<B>, values: &[i32; MAX_KINDS]) -> [i32; MAX_SIDES] {
    let pos = game.position();
    let rules = pos.rules();
    let mut out = [0; MAX_SIDES];
    for side in game.sides() {
        out[side.index()] = rules
            .kinds()
            .filter(|k| !rules.is_royal(*k))
            .map(|k| i32::from(pos.count(side, k)) * values[k.index()])
            .sum();
    }
    out
}

/// [`kind_value`] of every kind of the variant (index by [`Kind::index`]), read once
/// per evaluation rather than once per piece.
fn kind_values<B: CellSet>(rules: &Rules<B>) -> [i32; MAX_KINDS] {
    let mut values = [0; MAX_KINDS];
    for k in rules.kinds() {
        values[k.index()] = kind_value(rules, k);
    }
    values
}

/// A bare king's enemy: at most this much left beside the king (a minor piece, or a
/// few pawns), which cannot keep a side far ahead from mating.
const BARE: i32 = 350;
/// Ahead by at least this (a rook, near enough), a side hunts a bare king.
const HUNTING_LEAD: i32 = 450;

/// Whether `hunter` hunts `prey`'s king: the prey is bare (at most [`BARE`] beside its
/// king), the hunter ahead of it by [`HUNTING_LEAD`], both kings standing.
fn hunts<B: CellSet>(
    game: &Game<B>,
    hunter: Side,
    prey: Side,
    material: &[i32; MAX_SIDES],
) -> bool {
    let pos = game.position();
    let theirs = material[prey.index()];
    game.standing(hunter) == Standing::Playing
        && game.standing(prey) != Standing::Out
        && pos.royal_on_board(hunter)
        && pos.royal_on_board(prey)
        && theirs <= BARE
        && material[hunter.index()] >= theirs + HUNTING_LEAD
}

/// Whether any enemy of `side` hunts its king.
fn is_hunted<B: CellSet>(game: &Game<B>, side: Side, material: &[i32; MAX_SIDES]) -> bool {
    let rules = game.position().rules();
    rules
        .enemies(side)
        .iter()
        .any(|e| hunts(game, *e, side, material))
}

/// What `side` earns for hunting every bare enemy king it is far ahead of: for the
/// king's distance from the centre (mates are given at the edge) and for its own
/// king's nearness to it (the mating side's king takes the flight cells).
fn mop_up<B: CellSet>(game: &Game<B>, side: Side, material: &[i32; MAX_SIDES], radius: i32) -> i32 {
    let pos = game.position();
    let rules = pos.rules();
    let board = rules.board();
    let mut bonus = 0;
    for prey in rules
        .enemies(side)
        .iter()
        .filter(|e| hunts(game, side, **e, material))
    {
        let king = board.hex(pos.royal_cell(*prey));
        let own_king = board.hex(pos.royal_cell(side));
        bonus += 10 * king.distance(Hex::new(0, 0)) + 4 * (2 * radius - king.distance(own_king));
    }
    bonus
}

/// A side's score against the others: its own less their mean, over every seat (a
/// side out counts at [`OUT`], so taking a king is worth far more than leaving its
/// side frozen).
pub fn relative(scores: &[i32; MAX_SIDES], side: Side, seats: usize) -> i32 {
    if seats < 2 {
        return scores[side.index()];
    }
    let others: i64 = (0..seats)
        .filter(|i| *i != side.index())
        .map(|i| i64::from(scores[i]))
        .sum();
    (i64::from(scores[side.index()]) - mean(others, seats - 1)) as i32
}

/// `sum / n`, rounded toward zero as `/` rounds. The counts here are one to three
/// sides, and a division by a number known when compiled is a multiplication: a
/// division by a count read at run time took a tenth of a leaf's time in a search.
fn mean(sum: i64, n: usize) -> i64 {
    match n {
        1 => sum,
        2 => sum / 2,
        3 => sum / 3,
        n => sum / n.max(1) as i64,
    }
}

/// A side's score against the others by the refined judgement: its team's mean (a
/// partner counts with it, not against it) less the enemies' mean and their best
/// halved each, so the side that leads is the one to attack.
pub fn judged_relative<B: CellSet>(scores: &[i32; MAX_SIDES], side: Side, rules: &Rules<B>) -> i32 {
    let enemies = rules.enemies(side);
    if enemies.is_empty() {
        return scores[side.index()];
    }
    // Read in place: this runs at every leaf.
    let score = |i: usize| i64::from(scores[i]);
    let (mut team_sum, mut team_len) = (0i64, 0usize);
    for i in (0..rules.side_count()).filter(|i| !enemies.iter().any(|e| e.index() == *i)) {
        team_sum += score(i);
        team_len += 1;
    }
    let own = mean(team_sum, team_len);
    let theirs = || enemies.iter().map(|e| score(e.index()));
    let average = mean(theirs().sum::<i64>(), enemies.len());
    let leader = theirs().max().unwrap_or(average);
    (own - (average + leader) / 2) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::catalog::Catalog;

    #[test]
    fn the_mean_rounds_as_a_division_does() {
        for sum in [-1_000_001i64, -7, -5, -1, 0, 1, 5, 7, 2_999_999] {
            for n in 1..=4usize {
                assert_eq!(mean(sum, n), sum / n as i64, "{sum} / {n}");
            }
        }
    }

    #[test]
    fn the_judgement_counts_a_partner_with_its_side_and_looks_at_the_leader() {
        let catalog = Catalog::builtin();
        let four = catalog.get("hexachess-4").expect("built in").rules();
        let me = Side::from_index(0);
        // 4-player: seats 0 and 2 are partners.
        let base = [1000; MAX_SIDES];
        let judged = |s: [i32; MAX_SIDES]| judged_relative(&s, me, four);
        let mut partner_up = base;
        partner_up[2] += 300;
        assert!(judged(partner_up) > judged(base));
        assert!(relative(&partner_up, me, 4) < relative(&base, me, 4));
        // 3-player: the same loss of an opponent's counts more when it is the leader's.
        let three = catalog.get("hexachess-3").expect("built in").rules();
        let scores = [1000, 1500, 800, 0];
        let judged3 = |s: [i32; MAX_SIDES]| judged_relative(&s, me, three);
        let (mut leader_down, mut trailer_down) = (scores, scores);
        leader_down[1] -= 300;
        trailer_down[2] -= 300;
        assert!(judged3(leader_down) > judged3(trailer_down));
        assert_eq!(
            relative(&leader_down, me, 3),
            relative(&trailer_down, me, 3),
            "the plain score cannot tell them apart"
        );
    }

    /// [`side_score`] the way it was first written, piece by piece: each piece's value
    /// read from its cell, its distance from the centre measured, its pawn's progress
    /// worked out from the steps still to go.
    fn side_score_piece_by_piece<B: CellSet>(
        game: &Game<B>,
        side: Side,
        endgame: Option<&Endgame>,
        hunted: bool,
    ) -> i32 {
        let pos = game.position();
        let rules = pos.rules();
        let radius = rules.board().radius();
        let attacks = game.attack_maps();
        let attacked = rules
            .enemies(side)
            .iter()
            .fold(B::EMPTY, |hit, e| hit | attacks[e.index()]);
        let defended = attacks[side.index()];
        let king_zone = if pos.royal_on_board(side) {
            rules.steps_from(pos.royal_cell(side))
        } else {
            B::EMPTY
        };
        let longest = |side: Side| {
            rules
                .board()
                .cells()
                .filter_map(|c| endgame?.pawn_steps_to_go(side, c))
                .max()
                .unwrap_or(0)
        };
        let mut score = 0;
        for c in pos.side_cells(side) {
            let piece = pos.piece_at(c).expect("a piece of the side");
            let value = kind_value(rules, piece.kind);
            score += value;
            if rules.is_royal(piece.kind) {
                score -= 15 * (attacked & king_zone).count() as i32;
                continue;
            }
            let from_centre = rules.board().hex(c).distance(Hex::new(0, 0));
            let is_pawn = Some(piece.kind) == rules.pawn_kind();
            match endgame {
                Some(e) if is_pawn => {
                    if let Some(to_go) = e.pawn_steps_to_go(side, c) {
                        let near = [160, 160, 90, 40].get(usize::from(to_go)).copied();
                        score += PAWN_STEP * i32::from(longest(side) - to_go) + near.unwrap_or(0);
                    }
                }
                _ => score += if is_pawn { 6 } else { 2 } * (radius - from_centre),
            }
            if attacked.contains(c) && !pos.immune().contains(c) {
                score -= if defended.contains(c) {
                    value / 8
                } else {
                    value / 2
                };
            }
        }
        if !hunted && game.in_check(side) {
            score -= CHECKED;
        }
        score
    }

    /// The score by parts ([`placement`], or the kept sum of [`placement_table`] where
    /// the game keeps it, and [`side_score`]) against [`side_score_piece_by_piece`] for
    /// every side of `game` (a side out too, as [`scores_with`] works every side out);
    /// with how many scores were compared (and how many of them read the kept sums),
    /// and how many pieces were attacked, pawns near promotion and immune pieces attacked.
    fn compare_scores<B: CellSet>(
        game: &Game<B>,
        endgame: &Endgame,
        kept: &Arc<PieceSquareTable<B>>,
    ) -> [usize; 5] {
        let pos = game.position();
        let rules = pos.rules();
        let radius = rules.board().radius();
        let mut tally = [0; 5];
        let attacks = game.attack_maps();
        let values = kind_values(rules);
        for side in game.sides() {
            let enemies = rules
                .enemies(side)
                .iter()
                .fold(B::EMPTY, |h, e| h | attacks[e.index()]);
            for (e, hunted) in [(None, false), (Some(endgame), false), (Some(endgame), true)] {
                let slow = side_score_piece_by_piece(game, side, e, hunted);
                let rest = side_score(game, side, &attacks, enemies, &values, hunted);
                let fast = placement(pos, side, radius, &values, e) + rest;
                assert_eq!(fast, slow, "{side:?}: {}", game.to_fen());
                tally[0] += 1;
                if let (Some(_), Some(sums)) = (e, pos.table_sum(kept)) {
                    assert_eq!(
                        sums[side.index()] + rest,
                        slow,
                        "{side:?}: {}",
                        game.to_fen()
                    );
                    tally[1] += 1;
                }
            }
            tally[2] += CellSet::count(pos.side_cells(side) & enemies) as usize;
            tally[4] += CellSet::count(pos.side_cells(side) & enemies & pos.immune()) as usize;
            tally[3] += pos
                .side_cells(side)
                .into_iter()
                .filter(|c| endgame.pawn_steps_to_go(side, *c).is_some_and(|t| t <= 3))
                .filter(|c| {
                    pos.piece_at(*c)
                        .is_some_and(|p| Some(p.kind) == rules.pawn_kind())
                })
                .count();
        }
        tally
    }

    /// The game read again from its position with the king of the side after the one
    /// to move taken off (that side is out).
    fn without_a_king<B: CellSet>(game: &Game<B>) -> Option<Game<B>> {
        let pos = game.position();
        let side = pos.rules().next_side(pos.turn());
        let mut setup = hexchess_core::setup::Setup::from_position(pos);
        setup.remove(pos.royal_cell(side))?;
        let pos = setup.validate().ok()?;
        Some(Game::from_position(pos, [0; MAX_SIDES]))
    }

    /// The evaluation by parts, and with the placement table kept summed through the
    /// game, gives every side the score the piece-by-piece one gives, at every turn of
    /// random 3- and 4-player games (captures favoured, so that pieces hang, kings are
    /// checked and taken, and pawns go far and promote), with and without the
    /// knowledge of endings.
    #[test]
    fn the_score_by_parts_and_from_kept_sums_is_the_score_piece_by_piece() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let catalog = Catalog::builtin();
        let mut tally = [0; 5];
        for (id, seed) in [
            ("hexachess-3", 5),
            ("hexachess-3", 6),
            ("hexachess-3", 8),
            ("hexachess-4", 7),
        ] {
            let rules = catalog.get(id).expect("built in").rules();
            let endgame = Endgame::new(rules);
            let kept = Arc::new(placement_table(rules, Some(&endgame)));
            let mut rng = StdRng::seed_from_u64(seed);
            let mut game = Game::new(Arc::clone(rules));
            game.attach_table(Arc::clone(&kept));
            for _ in 0..600 {
                if game.end().is_some() {
                    break;
                }
                // And now and then the game with a side's king gone: its army stays
                // as immune obstacles.
                let mut games = vec![game.clone()];
                if game.turns().len().is_multiple_of(10) {
                    games.extend(without_a_king(&game));
                }
                for game in &games {
                    let found = compare_scores(game, &endgame, &kept);
                    for (t, f) in tally.iter_mut().zip(found) {
                        *t += f;
                    }
                }
                let steps = game.steps();
                let captures: Vec<_> = steps
                    .iter()
                    .copied()
                    .filter(|s| matches!(s, hexchess_core::game::Step::Play(m) if game.position().is_capture(*m)))
                    .collect();
                let step = if !captures.is_empty() && rng.random_bool(0.8) {
                    captures[rng.random_range(0..captures.len())]
                } else {
                    steps[rng.random_range(0..steps.len())]
                };
                game.play_unchecked(step);
            }
        }
        let [compared, from_sums, hanging, progressed, immune] = tally;
        assert!(compared > 1000, "{compared} scores compared");
        assert!(from_sums > 500, "{from_sums} read from the kept sums");
        assert!(hanging > 100, "{hanging} pieces attacked");
        assert!(progressed > 10, "{progressed} pawns near promotion");
        assert!(immune > 10, "{immune} immune pieces attacked");
    }

    /// Pawn advances to promotion by a second method: forward, breadth first from the
    /// pawn's cell until a promotion cell is reached.
    fn steps_forward<B: CellSet>(
        rules: &Rules<B>,
        side: Side,
        from: hexchess_core::Cell,
    ) -> Option<u8> {
        let zone = rules.promotion_zone(side);
        let mut frontier = vec![from];
        let mut seen = vec![from];
        for steps in 0..=u8::MAX {
            if frontier.iter().any(|c| zone.contains(*c)) {
                return Some(steps);
            }
            let next: Vec<_> = frontier
                .iter()
                .flat_map(|c| rules.pawn_advances(side, *c))
                .filter(|c| !seen.contains(c))
                .collect();
            if next.is_empty() {
                return None;
            }
            seen.extend(&next);
            frontier = next;
        }
        None
    }

    #[test]
    fn a_pawns_way_to_promotion_is_counted_in_its_advances() {
        let catalog = Catalog::builtin();
        for id in ["hexachess-3", "hexachess-4", "glinski"] {
            let rules = catalog.get(id).expect("built in").rules();
            let endgame = Endgame::new(rules);
            let game = Game::new(std::sync::Arc::clone(rules));
            let pawn = rules.pawn_kind().expect("pawns");
            let mut pawns = 0;
            for (c, piece) in game.position().pieces().filter(|(_, p)| p.kind == pawn) {
                let to_go = endgame.pawn_steps_to_go(piece.side, c);
                assert_eq!(to_go, steps_forward(rules, piece.side, c), "{id}: {c:?}");
                assert!(
                    to_go.is_some_and(|n| n >= 4),
                    "{id}: a pawn at the start is far from promotion"
                );
                pawns += 1;
            }
            assert!(pawns > 0, "{id}");
            // A promotion cell is no step away.
            for side in game.sides() {
                let zone = rules.promotion_zone(side);
                for c in rules.board().cells().filter(|c| zone.contains(*c)) {
                    assert_eq!(endgame.pawn_steps_to_go(side, c), Some(0));
                }
            }
        }
    }

    #[test]
    fn a_side_far_ahead_is_paid_for_driving_a_bare_king_to_the_edge() {
        let catalog = Catalog::builtin();
        let rules = catalog.get("hexachess-3").expect("built in").rules();
        // Black: king, rook and two pawns; White and Red: bare kings. White's king on the
        // edge, then beside the centre (on the middle rank).
        let at_edge = "9/10/11/2bK9/13/14/15/16/17/16/7bP7/8bR5/13/12/2wK8/5bP3cK/9 b - 2 148";
        let at_centre = "9/10/11/2bK9/13/14/15/16/7wK9/16/7bP7/8bR5/13/12/11/5bP3cK/9 b - 2 148";
        let game =
            |fen: &str| Game::from_fen(std::sync::Arc::clone(rules), fen).expect("a valid FEN");
        let (edge, centre) = (game(at_edge), game(at_centre));
        let endgame = Endgame::new(rules);
        let black = Side::from_index(1);
        let white = Side::from_index(0);
        let gain =
            |f: &dyn Fn(&Game<hexchess_core::bitboard::WideBitboard>) -> [i32; MAX_SIDES]| {
                f(&edge)[black.index()] - f(&centre)[black.index()]
            };
        let with_endgame = gain(&|g| judge_endgame(g, &endgame));
        let without = gain(&|g| judge(g));
        assert!(
            with_endgame > without,
            "the hunt is paid: {with_endgame} against {without} without it"
        );
        // The bare king's own score does not take the bonus.
        let white_gain = judge_endgame(&edge, &endgame)[white.index()]
            - judge_endgame(&centre, &endgame)[white.index()];
        assert_eq!(
            white_gain,
            judge(&edge)[white.index()] - judge(&centre)[white.index()]
        );
        // Nobody is paid while the bare side has more than a minor piece.
        let material = material(&edge, &kind_values(edge.position().rules()));
        assert_eq!(material[white.index()], 0);
        assert!(material[black.index()] >= HUNTING_LEAD);
    }

    #[test]
    fn a_hunted_kings_checks_do_not_count_against_it() {
        let catalog = Catalog::builtin();
        let rules = catalog.get("hexachess-3").expect("built in").rules();
        // White's bare king in check from Black's rook (rook and pawns beside Black's
        // king), White to move.
        let fen = "9/10/11/2bK9/13/14/15/16/8wK8/16/7bP7/8bR5/13/12/11/5bP3cK/9 w - 2 148";
        let game = Game::from_fen(std::sync::Arc::clone(rules), fen).expect("a valid FEN");
        let white = Side::from_index(0);
        assert!(game.in_check(white));
        // White has nothing but its king: its score differs between the two
        // judgements only by the check's cost.
        let endgame = Endgame::new(rules);
        assert_eq!(
            judge_endgame(&game, &endgame)[white.index()] - judge(&game)[white.index()],
            CHECKED
        );
    }
}
