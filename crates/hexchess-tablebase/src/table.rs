//! Building a table by retrograde analysis, and reading values from it.
//!
//! Every arrangement of the men on the board, with either side to move, gets an index
//! (no symmetry reduction yet: see docs/tablebases.md). Three passes:
//!
//! 1. **Legality**: an arrangement is legal when no two men share a cell and the side
//!    not to move is not in check.
//! 2. **Forward, once**: for each legal position, its quiet legal moves are counted,
//!    and its captures are read from the smaller tables (built first): a capture that
//!    mates, or escapes mate, is noted. No move at all is mate or stalemate.
//! 3. **Backward, by levels** of plies to mate: from each position lost in `d` plies,
//!    every position that can move to it (a quiet move played backwards) wins in `d + 1`;
//!    from each position won in `d`, every position that can move to it loses one way
//!    out, and when none is left it is lost in `d + 1` (or later, if a capture loses
//!    more slowly).
//!
//! Values are distances to mate in plies, from the side to move's view: even is a loss
//! (0: mated now), odd a win (1: mate in one). Where the variant scores being stalemated
//! below a draw (Gliński: 1/4), a second pass does the same over what is left with
//! stalemates as the ends, so a side that cannot mate but can force stalemate is told
//! apart from a draw. What is left then is a draw.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use hexchess_core::{Bitboard, Cell, Piece, Position, Rules, Side};

use crate::material::Material;

/// What a position is worth to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Mates in this many plies (odd: 1 is mate in one).
    Win(u16),
    /// Is mated in this many plies (even: 0 is mated now).
    Loss(u16),
    /// Cannot be mated, but stalemates the opponent in this many plies (odd), where
    /// the variant scores stalemate above a draw for the side that gives it (Gliński).
    StalemateWin(u16),
    /// Cannot mate and is stalemated in this many plies (even: 0 is stalemated now).
    StalemateLoss(u16),
    /// Neither side can force mate or (where it counts) stalemate, and the defence
    /// needs no checks: a fortress.
    Draw,
    /// A draw only because the defender may give check: forbid its checks and the other
    /// side mates (McCooey's perpetual-check draw).
    DrawPerpetual,
}

impl Value {
    /// This value of a position seen by the side that moved into it: one ply further,
    /// and the other way round.
    pub fn for_mover(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::StalemateWin(d) => Value::StalemateLoss(d + 1),
            Value::StalemateLoss(d) => Value::StalemateWin(d + 1),
            Value::Draw => Value::Draw,
            Value::DrawPerpetual => Value::DrawPerpetual,
        }
    }
}

const ILLEGAL: u16 = u16::MAX;
/// Neither side forces mate or stalemate: a draw.
const UNKNOWN: u16 = u16::MAX - 1;
/// Stalemate distances are stored from here (mates below).
const STALEMATE: u16 = 0x4000;
/// A draw only thanks to checks.
const PERPETUAL: u16 = u16::MAX - 2;
/// Capture results: no capture wins (for `best_capture_win`), none loses slowest.
const NONE: u16 = u16::MAX;

/// Why a table cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// A piece whose quiet moves cannot be played backwards (a move from `a` to `b`
    /// without one from `b` to `a`), which retrograde analysis needs.
    Irreversible { piece: String },
    /// The board has too many cells for this many men in one table.
    TooLarge { positions: u64 },
    /// Stopped before it was done (the stop flag was raised).
    Stopped,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Irreversible { piece } => write!(
                f,
                "the {piece}'s moves cannot be played backwards, which a table needs"
            ),
            TableError::Stopped => write!(f, "stopped before the table was done"),
            TableError::TooLarge { positions } => {
                write!(f, "{positions} positions are too many for one table")
            }
        }
    }
}

impl std::error::Error for TableError {}

/// One ending's values, and the smaller tables its captures lead to.
pub struct Table {
    rules: Arc<Rules>,
    material: Material,
    /// The men in index order: White's, then Black's.
    men: Vec<Piece>,
    /// Board cells by index.
    cells: Vec<Cell>,
    /// Per index: distance to mate in plies, [`UNKNOWN`] for no forced mate, or
    /// [`ILLEGAL`].
    dtm: Vec<u16>,
}

impl Table {
    /// Builds the table of `material` in `rules`' variant, and every smaller table its
    /// captures reach.
    pub fn generate(rules: &Arc<Rules>, material: &Material) -> Result<Table, TableError> {
        Table::generate_with(rules, material, &mut |_| {}, &AtomicBool::new(false))
    }

    /// Like [`Table::generate`], telling `progress` what it is doing (a line per table
    /// and pass), and giving up with [`TableError::Stopped`] soon after `stop` is
    /// raised (from another thread: a game's menu, Ctrl-C).
    pub fn generate_with(
        rules: &Arc<Rules>,
        material: &Material,
        progress: &mut dyn FnMut(&str),
        stop: &AtomicBool,
    ) -> Result<Table, TableError> {
        let mut ctl = Control { progress, stop };
        let mut built = HashMap::new();
        build(rules, material, None, &mut built, &mut ctl)?;
        let mut table = built.remove(&(material.clone(), None)).expect("just built");
        // The draws split: a draw is a perpetual-check draw when the other side would
        // mate were the side that holds it not allowed to give check.
        for defender in 0..2 {
            build(rules, material, Some(defender), &mut built, &mut ctl)?;
            let no_checks = &built[&(material.clone(), Some(defender))];
            let per_side = table.dtm.len() / 2;
            for i in 0..table.dtm.len() {
                if table.dtm[i] != UNKNOWN {
                    continue;
                }
                let stm = i / per_side;
                let attacker_mates = match no_checks.dtm[i] {
                    d if d >= STALEMATE => false,
                    d if d % 2 == 1 => stm != defender,
                    _ => stm == defender,
                };
                if attacker_mates {
                    table.dtm[i] = PERPETUAL;
                }
            }
        }
        Ok(table)
    }

    /// The table of `material` as it would be were `defender` not allowed to give check
    /// (a position where its only moves give check is lost for it): what tells
    /// perpetual-check draws from fortresses. Its draws are not split.
    pub fn generate_without_checks(
        rules: &Arc<Rules>,
        material: &Material,
        defender: Side,
    ) -> Result<Table, TableError> {
        let mut built = HashMap::new();
        let key = (material.clone(), Some(defender.index()));
        let stop = AtomicBool::new(false);
        let mut ctl = Control {
            progress: &mut |_| {},
            stop: &stop,
        };
        build(rules, material, key.1, &mut built, &mut ctl)?;
        Ok(built.remove(&key).expect("just built"))
    }

    pub fn material(&self) -> &Material {
        &self.material
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The stored value codes, one per index (for files).
    pub(crate) fn codes(&self) -> &[u16] {
        &self.dtm
    }

    /// A table from stored codes; `None` when there are not as many as the material
    /// has positions on this board.
    pub(crate) fn from_codes(
        rules: &Arc<Rules>,
        material: &Material,
        codes: Vec<u16>,
    ) -> Option<Table> {
        let men: Vec<Piece> = Side::BOTH
            .iter()
            .flat_map(|s| material.sides[s.index()].iter().map(|k| Piece::new(*s, *k)))
            .collect();
        let cells: Vec<Cell> = rules.board().cells().collect();
        let expected = 2usize.checked_mul(cells.len().checked_pow(men.len() as u32)?)?;
        (codes.len() == expected).then(|| Table {
            rules: Arc::clone(rules),
            material: material.clone(),
            men,
            cells,
            dtm: codes,
        })
    }

    /// Positions indexed (legal or not), with either side to move.
    pub fn len(&self) -> usize {
        self.dtm.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dtm.is_empty()
    }

    /// The value of `pos`, or `None` when its men are not this table's material.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        let i = self.index_of(pos)?;
        Some(decode(self.dtm[i]))
    }

    /// Every legal position's index with its value (for statistics and tests).
    pub fn values(&self) -> impl Iterator<Item = (usize, Value)> + '_ {
        self.dtm
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != ILLEGAL)
            .map(|(i, v)| (i, decode(*v)))
    }

    /// The position at a legal index.
    pub fn position(&self, index: usize) -> Position {
        let (stm, cells) = self.decode_index(index);
        let board = self.rules.board();
        let at = |c: Cell| {
            (0..self.men.len())
                .find(|&j| self.cells[cells[j]] == c)
                .map(|j| self.rules.piece_letter(self.men[j]))
        };
        let fen = format!(
            "{} {} - 0 1",
            hexchess_core::fen::placement_field(board, at),
            if stm == 0 { 'w' } else { 'b' }
        );
        Position::from_fen(Arc::clone(&self.rules), &fen).expect("a legal index reads")
    }

    fn index_of(&self, pos: &Position) -> Option<usize> {
        if !Arc::ptr_eq(pos.rules_arc(), &self.rules) && pos.rules().id() != self.rules.id() {
            return None;
        }
        let mut cells = [0usize; 4];
        let mut used = Bitboard::EMPTY;
        for (j, man) in self.men.iter().enumerate() {
            // The first cell holding such a man not taken by an earlier one.
            let c = pos
                .kind_cells(man.side, man.kind)
                .find(|c| !used.contains(*c))?;
            used.insert(c);
            cells[j] = c.index();
        }
        if used.count() as usize != pos.occupied().count() as usize {
            return None;
        }
        Some(index(
            pos.turn().index(),
            &cells[..self.men.len()],
            self.cells.len(),
        ))
    }

    fn decode_index(&self, i: usize) -> (usize, [usize; 4]) {
        decode_index(i, self.men.len(), self.cells.len())
    }
}

fn decode(v: u16) -> Value {
    match v {
        UNKNOWN | ILLEGAL => Value::Draw,
        PERPETUAL => Value::DrawPerpetual,
        d if (STALEMATE..PERPETUAL).contains(&d) && (d - STALEMATE) % 2 == 1 => {
            Value::StalemateWin(d - STALEMATE)
        }
        d if (STALEMATE..PERPETUAL).contains(&d) => Value::StalemateLoss(d - STALEMATE),
        d if d % 2 == 1 => Value::Win(d),
        d => Value::Loss(d),
    }
}

fn index(stm: usize, cells: &[usize], n: usize) -> usize {
    cells.iter().fold(stm, |acc, c| acc * n + c)
}

fn decode_index(mut i: usize, k: usize, n: usize) -> (usize, [usize; 4]) {
    let mut cells = [0usize; 4];
    for j in (0..k).rev() {
        cells[j] = i % n;
        i /= n;
    }
    (i, cells)
}

/// Builds `material`'s table into `built`, after the smaller ones its captures reach.
/// Tables built so far, by material and the side forbidden to give check (if any).
type Built = HashMap<(Material, Option<usize>), Table>;

/// Where a build reports its progress and looks for a stop.
struct Control<'a> {
    progress: &'a mut dyn FnMut(&str),
    stop: &'a AtomicBool,
}

impl Control<'_> {
    fn check(&self) -> Result<(), TableError> {
        if self.stop.load(Ordering::Relaxed) {
            Err(TableError::Stopped)
        } else {
            Ok(())
        }
    }
}

fn build(
    rules: &Arc<Rules>,
    material: &Material,
    no_checks: Option<usize>,
    built: &mut Built,
    ctl: &mut Control,
) -> Result<(), TableError> {
    let key = (material.clone(), no_checks);
    if built.contains_key(&key) {
        return Ok(());
    }
    for side in 0..2 {
        // Every man but the royal one (first) can be captured.
        for i in 1..material.sides[side].len() {
            build(rules, &material.without(side, i), no_checks, built, ctl)?;
        }
    }
    let what = match no_checks {
        None => String::new(),
        Some(0) => " without White's checks".to_string(),
        Some(_) => " without Black's checks".to_string(),
    };
    (ctl.progress)(&format!("building {}{what}", material.name(rules)));
    let table = Builder::new(rules, material, no_checks)?.run(built, ctl)?;
    built.insert(key, table);
    Ok(())
}

/// The arrangement of the men at one index.
struct Arrangement {
    stm: usize,
    /// Each man's cell index.
    cells: [usize; 4],
    /// `[side]`: the cells of that side's men.
    sides: [Bitboard; 2],
}

struct Builder<'a> {
    rules: &'a Arc<Rules>,
    material: Material,
    /// The side whose checking moves are left out (for the perpetual-check split).
    no_checks: Option<usize>,
    men: Vec<Piece>,
    cells: Vec<Cell>,
    n: usize,
}

impl<'a> Builder<'a> {
    fn new(
        rules: &'a Arc<Rules>,
        material: &Material,
        no_checks: Option<usize>,
    ) -> Result<Builder<'a>, TableError> {
        let men: Vec<Piece> = Side::BOTH
            .iter()
            .flat_map(|s| material.sides[s.index()].iter().map(|k| Piece::new(*s, *k)))
            .collect();
        let cells: Vec<Cell> = rules.board().cells().collect();
        let n = cells.len();
        let positions = 2 * (n as u64).pow(men.len() as u32);
        if positions > u32::MAX as u64 {
            return Err(TableError::TooLarge { positions });
        }
        let builder = Builder {
            rules,
            material: material.clone(),
            no_checks,
            men,
            cells,
            n,
        };
        builder.check_reversible()?;
        Ok(builder)
    }

    /// Every man's quiet moves on an empty board can be played backwards.
    fn check_reversible(&self) -> Result<(), TableError> {
        for man in &self.men {
            for &c in &self.cells {
                for t in self.quiet(*man, c, Bitboard::EMPTY, Bitboard::EMPTY) {
                    if !self
                        .quiet(*man, t, Bitboard::EMPTY, Bitboard::EMPTY)
                        .contains(c)
                    {
                        return Err(TableError::Irreversible {
                            piece: self.rules.kind_info(man.kind).name.clone(),
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// Quiet targets of `man` on `from`, with `own` and `enemy` the men of its side and
    /// the other (itself excluded).
    fn quiet(&self, man: Piece, from: Cell, own: Bitboard, enemy: Bitboard) -> Bitboard {
        let occupied = own | enemy;
        self.rules.reach(man, from, own, enemy, occupied) & !occupied
    }

    fn arrangement(&self, i: usize) -> Option<Arrangement> {
        let (stm, cells) = decode_index(i, self.men.len(), self.n);
        let mut sides = [Bitboard::EMPTY; 2];
        for (j, man) in self.men.iter().enumerate() {
            let c = self.cells[cells[j]];
            if (sides[0] | sides[1]).contains(c) {
                return None;
            }
            sides[man.side.index()].insert(c);
        }
        Some(Arrangement { stm, cells, sides })
    }

    /// Whether `side`'s royal man is attacked in `a`.
    fn in_check(&self, a: &Arrangement, side: usize) -> bool {
        let royal = self
            .men
            .iter()
            .position(|m| m.side.index() == side)
            .expect("each side has its royal man first");
        let target = self.cells[a.cells[royal]];
        let occupied = a.sides[0] | a.sides[1];
        self.men.iter().enumerate().any(|(j, m)| {
            m.side.index() != side
                && self
                    .rules
                    .reach(
                        *m,
                        self.cells[a.cells[j]],
                        a.sides[1 - side],
                        a.sides[side],
                        occupied,
                    )
                    .contains(target)
        })
    }

    fn run(self, built: &Built, ctl: &mut Control) -> Result<Table, TableError> {
        let total = 2 * self.n.pow(self.men.len() as u32);
        let legal: Vec<bool> = (0..total)
            .map(|i| {
                self.arrangement(i)
                    .is_some_and(|a| !self.in_check(&a, 1 - a.stm))
            })
            .collect();
        let mut dtm = vec![UNKNOWN; total];
        let mut stalemates = Vec::new();
        let mut degree = vec![0u16; total];
        let mut slowest = vec![0u16; total];
        let mut candidates: Vec<Vec<u32>> = Vec::new();
        let mut frontier: Vec<Vec<u32>> = vec![Vec::new()];
        // The mate pass: mates are the ends, stalemates ways out.
        for i in 0..total {
            if i % (1 << 20) == 0 {
                ctl.check()?;
            }
            if !legal[i] {
                dtm[i] = ILLEGAL;
                continue;
            }
            let a = self.arrangement(i).expect("legal");
            let moves = self.forward(&a, &legal, built, &dtm, Pass::Mate);
            if moves.quiet == 0 && moves.captures == 0 {
                // Checkmated, or (perpetual-check split) left only checks: lost.
                if self.in_check(&a, a.stm) || moves.checks_left_out > 0 {
                    dtm[i] = 0;
                    frontier[0].push(i as u32);
                } else {
                    stalemates.push(i as u32);
                }
                continue;
            }
            self.start(i, &moves, &mut degree, &mut slowest, &mut candidates);
        }
        (ctl.progress)("  mates");
        self.settle(
            0,
            &mut dtm,
            &legal,
            &mut degree,
            &slowest,
            candidates,
            frontier,
            ctl,
        )?;
        // The stalemate pass, where being stalemated is worse than a draw: over what the
        // mate pass left, stalemates are the ends; a move into a mate lost is no way out.
        if self.rules.stalemate().stalemated.millis() < 500 {
            let mut candidates: Vec<Vec<u32>> = Vec::new();
            degree.fill(0);
            slowest.fill(0);
            for i in 0..total {
                if i % (1 << 20) == 0 {
                    ctl.check()?;
                }
                if dtm[i] != UNKNOWN || stalemates.binary_search(&(i as u32)).is_ok() {
                    continue;
                }
                let a = self.arrangement(i).expect("legal");
                let moves = self.forward(&a, &legal, built, &dtm, Pass::Stalemate);
                self.start(i, &moves, &mut degree, &mut slowest, &mut candidates);
            }
            let frontier = vec![stalemates];
            (ctl.progress)("  stalemates");
            self.settle(
                STALEMATE,
                &mut dtm,
                &legal,
                &mut degree,
                &slowest,
                candidates,
                frontier,
                ctl,
            )?;
        }
        Ok(Table {
            rules: Arc::clone(self.rules),
            material: self.material,
            men: self.men,
            cells: self.cells,
            dtm,
        })
    }

    /// Sets a position up for the backward pass from its moves: how many ways out it has
    /// (one more if a capture wins or escapes: then it is never lost), when a capture
    /// wins, and when, if every move loses, it is lost.
    fn start(
        &self,
        i: usize,
        moves: &Forward,
        degree: &mut [u16],
        slowest: &mut [u16],
        candidates: &mut Vec<Vec<u32>>,
    ) {
        degree[i] = moves.quiet.min(u16::MAX as usize - 1) as u16;
        if moves.best_win != NONE {
            at_level(candidates, moves.best_win, i);
        }
        if moves.escape || moves.best_win != NONE {
            degree[i] = degree[i].saturating_add(1);
        }
        slowest[i] = moves.slowest_loss;
        if degree[i] == 0 && moves.slowest_loss > 0 {
            at_level(candidates, moves.slowest_loss, i);
        }
    }

    /// The backward pass by levels: values `base + level`, even lost, odd won.
    #[allow(clippy::too_many_arguments)]
    fn settle(
        &self,
        base: u16,
        dtm: &mut [u16],
        legal: &[bool],
        degree: &mut [u16],
        slowest: &[u16],
        mut candidates: Vec<Vec<u32>>,
        mut frontier: Vec<Vec<u32>>,
        ctl: &mut Control,
    ) -> Result<(), TableError> {
        let mut level: u16 = 0;
        while (level as usize) < frontier.len() || (level as usize) < candidates.len() {
            ctl.check()?;
            if frontier.len() <= level as usize {
                frontier.resize(level as usize + 1, Vec::new());
            }
            if level == 0 {
                for &i in &frontier[0] {
                    dtm[i as usize] = base;
                }
            }
            if let Some(list) = candidates.get(level as usize) {
                for &i in list {
                    if dtm[i as usize] == UNKNOWN {
                        dtm[i as usize] = base + level;
                        frontier[level as usize].push(i);
                    }
                }
            }
            let current = std::mem::take(&mut frontier[level as usize]);
            for &i in &current {
                let a = self.arrangement(i as usize).expect("legal");
                for pred in self.predecessors(&a, legal) {
                    if dtm[pred] != UNKNOWN {
                        continue;
                    }
                    if level.is_multiple_of(2) {
                        dtm[pred] = base + level + 1;
                        at_level(&mut frontier, level + 1, pred);
                    } else {
                        degree[pred] -= 1;
                        if degree[pred] == 0 {
                            let loss = (level + 1).max(slowest[pred]);
                            if loss == level + 1 {
                                dtm[pred] = base + loss;
                                at_level(&mut frontier, loss, pred);
                            } else {
                                at_level(&mut candidates, loss, pred);
                            }
                        }
                    }
                }
            }
            level += 1;
        }
        Ok(())
    }

    /// The legal moves of the side to move in `a`, as `pass` sees them: quiet ones into
    /// this table counted (in the stalemate pass only those not yet settled), captures
    /// read from the smaller tables.
    fn forward(
        &self,
        a: &Arrangement,
        legal: &[bool],
        built: &Built,
        dtm: &[u16],
        pass: Pass,
    ) -> Forward {
        let mut f = Forward {
            quiet: 0,
            captures: 0,
            checks_left_out: 0,
            best_win: NONE,
            slowest_loss: 0,
            escape: false,
        };
        let stm = a.stm;
        let occupied = a.sides[0] | a.sides[1];
        for (j, man) in self.men.iter().enumerate() {
            if man.side.index() != stm {
                continue;
            }
            let from = self.cells[a.cells[j]];
            let reach = self
                .rules
                .reach(*man, from, a.sides[stm], a.sides[1 - stm], occupied);
            for t in reach {
                let mut cells = a.cells;
                cells[j] = t.index();
                // (Perpetual-check split: a legal checking move is left out, counted.)
                let check_left_out = self.no_checks == Some(stm) && self.gives_check(a, j, t);
                if !a.sides[1 - stm].contains(t) {
                    let child = index(1 - stm, &cells[..self.men.len()], self.n);
                    if check_left_out {
                        f.checks_left_out += usize::from(legal[child]);
                        continue;
                    }
                    let counts = match pass {
                        Pass::Mate => legal[child],
                        // Settled children are mates the opponent gives: no way out.
                        Pass::Stalemate => legal[child] && dtm[child] == UNKNOWN,
                    };
                    if counts {
                        f.quiet += 1;
                    }
                    continue;
                }
                let Some(code) = self.capture_value(&cells, j, t, stm, built) else {
                    continue;
                };
                if check_left_out {
                    f.checks_left_out += 1;
                    continue;
                }
                f.captures += 1;
                match (pass, code) {
                    (Pass::Mate, d) if d < STALEMATE => {
                        if d.is_multiple_of(2) {
                            f.best_win = f.best_win.min(d + 1);
                        } else {
                            f.slowest_loss = f.slowest_loss.max(d + 1);
                        }
                    }
                    (Pass::Mate, _) => f.escape = true,
                    // A capture into a mate: the opponent's (won by the mate pass
                    // already) is no way out here.
                    (Pass::Stalemate, d) if d < STALEMATE => {}
                    (Pass::Stalemate, UNKNOWN) => f.escape = true,
                    (Pass::Stalemate, d) => {
                        let d = d - STALEMATE;
                        if d.is_multiple_of(2) {
                            f.best_win = f.best_win.min(d + 1);
                        } else {
                            f.slowest_loss = f.slowest_loss.max(d + 1);
                        }
                    }
                }
            }
        }
        f
    }

    /// The value code of the position a capture by man `j` on `t` leads to, in the
    /// smaller table; `None` when that position is illegal (the mover left in check).
    fn capture_value(
        &self,
        cells: &[usize; 4],
        j: usize,
        t: Cell,
        stm: usize,
        built: &Built,
    ) -> Option<u16> {
        let victim = (0..self.men.len())
            .find(|&q| self.men[q].side.index() != stm && cells[q] == t.index() && q != j)
            .expect("an enemy man on the target");
        let side_of = self.men[victim].side.index();
        let first = self
            .men
            .iter()
            .position(|m| m.side.index() == side_of)
            .expect("each side has men");
        let table = &built[&(
            self.material.without(side_of, victim - first),
            self.no_checks,
        )];
        let mut rest: Vec<usize> = cells[..self.men.len()].to_vec();
        rest.remove(victim);
        let code = table.dtm[index(1 - stm, &rest, self.n)];
        (code != ILLEGAL).then_some(code)
    }

    /// Whether man `j` moving to `t` in `a` gives check.
    fn gives_check(&self, a: &Arrangement, j: usize, t: Cell) -> bool {
        let stm = a.stm;
        let mut after = Arrangement {
            stm: 1 - stm,
            cells: a.cells,
            sides: a.sides,
        };
        after.sides[stm].remove(self.cells[a.cells[j]]);
        after.sides[stm].insert(t);
        after.sides[1 - stm].remove(t);
        after.cells[j] = t.index();
        // A captured man keeps its cell index, but its side's set no longer holds it,
        // and it attacks nothing: only the mover's side attacks the king checked.
        self.in_check(&after, 1 - stm)
    }

    /// The legal positions from which a quiet move leads to `a`: a man of the side that
    /// just moved, played back along its own moves.
    fn predecessors(&self, a: &Arrangement, legal: &[bool]) -> Vec<usize> {
        let mover = 1 - a.stm;
        let mut out = Vec::new();
        // Every move into a check is a checking move: none for a side left without them.
        if self.no_checks == Some(mover) && self.in_check(a, a.stm) {
            return out;
        }
        for (j, man) in self.men.iter().enumerate() {
            if man.side.index() != mover {
                continue;
            }
            let at = self.cells[a.cells[j]];
            let mut own = a.sides[mover];
            own.remove(at);
            for from in self.quiet(*man, at, own, a.sides[a.stm]) {
                let mut cells = a.cells;
                cells[j] = from.index();
                let pred = index(mover, &cells[..self.men.len()], self.n);
                if legal[pred] {
                    out.push(pred);
                }
            }
        }
        out
    }
}

/// Which backward pass a forward look serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// Mates are the ends.
    Mate,
    /// Stalemates are the ends, among positions the mate pass left.
    Stalemate,
}

/// Adds position `i` to the list for `level`.
fn at_level(lists: &mut Vec<Vec<u32>>, level: u16, i: usize) {
    if lists.len() <= level as usize {
        lists.resize(level as usize + 1, Vec::new());
    }
    lists[level as usize].push(i as u32);
}

/// A position's legal moves, as the forward pass sees them.
struct Forward {
    /// Quiet moves (into this table).
    quiet: usize,
    /// Captures (into smaller tables).
    captures: usize,
    /// Legal-looking moves left out because they give check (perpetual-check split).
    checks_left_out: usize,
    /// The fastest mate a capture gives, in plies; [`NONE`] if none does.
    best_win: u16,
    /// The slowest a losing capture is mated in (0 if none loses).
    slowest_loss: u16,
    /// A capture reaches a position with no forced mate.
    escape: bool,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Table({}, {} positions)",
            self.material.name(&self.rules),
            self.dtm.len()
        )
    }
}

/// How many legal positions of each side to move have each kind of value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `[side to move]` for each class, from the side to move's view.
    pub wins: [u64; 2],
    pub stalemate_wins: [u64; 2],
    pub draws: [u64; 2],
    pub draws_perpetual: [u64; 2],
    pub stalemate_losses: [u64; 2],
    pub losses: [u64; 2],
    /// The longest mate, in plies, and where.
    pub longest: u16,
    pub longest_at: Option<usize>,
}

impl Counts {
    /// Legal positions with `side` to move.
    pub fn legal(&self, side: usize) -> u64 {
        self.wins[side]
            + self.stalemate_wins[side]
            + self.draws[side]
            + self.draws_perpetual[side]
            + self.stalemate_losses[side]
            + self.losses[side]
    }
}

impl Table {
    /// The counts of values by side to move.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        let per_side = self.dtm.len() / 2;
        for (i, v) in self.values() {
            let side = i / per_side;
            match v {
                Value::Win(d) | Value::Loss(d) => {
                    if matches!(v, Value::Win(_)) {
                        c.wins[side] += 1;
                    } else {
                        c.losses[side] += 1;
                    }
                    if d > c.longest {
                        c.longest = d;
                        c.longest_at = Some(i);
                    }
                }
                Value::StalemateWin(_) => c.stalemate_wins[side] += 1,
                Value::StalemateLoss(_) => c.stalemate_losses[side] += 1,
                Value::Draw => c.draws[side] += 1,
                Value::DrawPerpetual => c.draws_perpetual[side] += 1,
            }
        }
        c
    }
}
