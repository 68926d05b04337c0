//! An independent, slow move generator written from the variant description alone
//! (walking cube vectors, no compiled tables, no pin logic), checked against the engine's
//! legal moves over thousands of positions of every built-in and shipped variant.
//! Legality is decided by writing the resulting position as FEN and asking whether the
//! side that moved is left in check, so the engine's pin and check handling is not used.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use hexchess_core::catalog::compile_two_player as compile;
use hexchess_core::variant::{MoveMode, Reach, Variant, VariantSpec, builtin, parse_variant};
use hexchess_core::{Hex, Piece, Position, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Records a candidate move: target, promotion letter, and extra board edits.
type Add<'a> = dyn FnMut(Hex, Option<char>, &[(Hex, Option<char>)]) + 'a;

/// The variants to check: built-ins and the mods in `variants/`.
fn specs() -> Vec<VariantSpec> {
    let mut v: Vec<VariantSpec> = ["glinski", "mccooey", "grand", "standard"]
        .iter()
        .map(|id| builtin(id).unwrap().unwrap())
        .collect();
    for file in ["mini.ron", "fairy.ron", "shafran.ron"] {
        let path = format!("{}/../../variants/{file}", env!("CARGO_MANIFEST_DIR"));
        if let Ok(text) = std::fs::read_to_string(&path) {
            v.push(parse_variant(&text, &path).unwrap_or_else(|e| panic!("{e}")));
        }
    }
    v
}

/// The position after moving `from` to `to` (with extra edits), as a FEN with the
/// opponent to move; `None` when the mover is left in check.
struct Board<'a> {
    pos: &'a Position,
    cells: HashMap<Hex, char>,
}

impl<'a> Board<'a> {
    fn new(pos: &'a Position) -> Board<'a> {
        let b = pos.rules().board();
        let cells = pos
            .pieces()
            .map(|(c, p)| (b.hex(c), pos.rules().piece_letter(p)))
            .collect();
        Board { pos, cells }
    }

    fn at(&self, h: Hex) -> Option<Piece> {
        self.cells
            .get(&h)
            .and_then(|l| self.pos.rules().piece_from_letter(*l))
    }

    fn on_board(&self, h: Hex) -> bool {
        self.pos.rules().board().cell(h).is_some()
    }

    /// Whether the position after these edits leaves the mover unattacked.
    fn legal_after(&self, edits: &[(Hex, Option<char>)]) -> bool {
        let mut cells = self.cells.clone();
        for (h, l) in edits {
            match l {
                Some(l) => cells.insert(*h, *l),
                None => cells.remove(h),
            };
        }
        let rules = self.pos.rules();
        let b = rules.board();
        let groups = common::placement(b, |c| cells.get(&b.hex(c)).copied());
        let them = !self.pos.turn();
        let castling = if rules.has_castling() { " -" } else { "" };
        let fen = format!("{groups} {}{castling} - 0 1", them.letter());
        // from_fen refuses a position where the side that just moved is in check.
        Position::from_fen(Arc::clone(self.pos.rules_arc()), &fen).is_ok()
    }
}

fn reference_moves(pos: &Position, spec: &VariantSpec) -> BTreeSet<String> {
    let rules = pos.rules();
    let b = rules.board();
    let board = Board::new(pos);
    let us = pos.turn();
    let sign: i8 = if us == Side::White { 1 } else { -1 };
    let name = |h: Hex| b.name(b.cell(h).unwrap()).to_string();
    let letter = |p: Piece| rules.piece_letter(p);
    let mut out = BTreeSet::new();
    let pawn_letter = spec.pawn.as_ref().map(|p| p.piece);
    for (cell, piece) in pos.pieces().filter(|(_, p)| p.side == us) {
        let from = b.hex(cell);
        let t = &spec.pieces[piece.kind.index()];
        let mine = letter(piece);
        let mut add = |to: Hex, promo: Option<char>, extra: &[(Hex, Option<char>)]| {
            let placed = promo.map_or(mine, |p| {
                if us == Side::White {
                    p
                } else {
                    p.to_ascii_lowercase()
                }
            });
            let mut edits = vec![(from, None), (to, Some(placed))];
            edits.extend_from_slice(extra);
            if board.legal_after(&edits) {
                let mut s = format!("{}{}", name(from), name(to));
                if let Some(p) = promo {
                    s.push(p.to_ascii_lowercase());
                }
                out.insert(s);
            }
        };
        if Some(t.letter) == pawn_letter {
            let pr = spec.pawn.as_ref().unwrap();
            let promotion = spec.promotion.as_ref();
            let choices: Vec<char> = promotion.map_or(Vec::new(), |p| {
                p.choices
                    .iter()
                    .copied()
                    .filter(|c| {
                        let k = rules.kind_by_letter(*c).unwrap();
                        !p.only_lost_pieces || pos.count(us, k) < rules.start_count(us, k)
                    })
                    .collect()
            });
            let push_with_promotions = |to: Hex, add: &mut Add| {
                let zone = promotion.is_some_and(|p| p.zone[us.index()].contains(&to));
                let optional =
                    promotion.is_some_and(|p| p.optional_zone[us.index()].contains(&to)) && !zone;
                if zone {
                    if choices.is_empty() && !promotion.unwrap().must_promote_to_enter {
                        add(to, None, &[]);
                    }
                    for c in &choices {
                        add(to, Some(*c), &[]);
                    }
                } else {
                    add(to, None, &[]);
                    if optional {
                        for c in &choices {
                            add(to, Some(*c), &[]);
                        }
                    }
                }
            };
            let longest = pr.long_first_moves[us.index()]
                .iter()
                .find(|(h, _)| *h == from)
                .map_or(1, |(_, n)| *n);
            for v in &pr.advance {
                let v = *v * sign;
                let one = from + v;
                if !board.on_board(one) || board.at(one).is_some() {
                    continue;
                }
                push_with_promotions(one, &mut add);
                let mut at = one;
                for _ in 1..longest {
                    let next = at + v;
                    if !board.on_board(next) || board.at(next).is_some() {
                        break;
                    }
                    add(next, None, &[]);
                    at = next;
                }
            }
            for v in &pr.capture {
                let to = from + *v * sign;
                if !board.on_board(to) {
                    continue;
                }
                if board.at(to).is_some_and(|p| p.side != us) {
                    push_with_promotions(to, &mut add);
                }
                if let Some(e) = pos.en_passant()
                    && e.targets.contains(b.cell(to).unwrap())
                {
                    add(to, None, &[(b.hex(e.victim), None)]);
                }
            }
            continue;
        }
        for atom in &t.atoms {
            for v in &atom.vectors {
                let v = *v * sign;
                let max = match atom.reach {
                    Reach::Leap => 1,
                    Reach::Slide { max } => max.map_or(usize::MAX, |m| m as usize),
                };
                let mut to = from;
                for _ in 0..max {
                    to = to + v;
                    if !board.on_board(to) {
                        break;
                    }
                    match board.at(to) {
                        None => {
                            if atom.mode != MoveMode::CaptureOnly {
                                add(to, None, &[]);
                            }
                        }
                        Some(p) => {
                            if p.side != us && atom.mode != MoveMode::MoveOnly {
                                add(to, None, &[]);
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
    // Castling: right kept, cells empty, not in check, no crossed cell attacked, and
    // not in check afterwards.
    for (i, c) in spec.castling()[us.index()].iter().enumerate() {
        if pos.castling_rights() >> (us.index() * 4 + i) & 1 == 0 || pos.in_check() {
            continue;
        }
        let line = |a: Hex, z: Hex| -> Vec<Hex> {
            let step = a.step_toward(z).unwrap();
            let mut v = Vec::new();
            let mut h = a;
            while h != z {
                h = h + step;
                v.push(h);
            }
            v
        };
        let mut must_be_empty: Vec<Hex> = line(c.king, c.rook);
        must_be_empty.extend(line(c.king, c.king_to));
        must_be_empty.extend(line(c.rook, c.rook_to));
        if must_be_empty
            .iter()
            .any(|h| *h != c.king && *h != c.rook && board.at(*h).is_some())
        {
            continue;
        }
        let crossed = line(c.king, c.king_to);
        let them = !us;
        if crossed
            .iter()
            .filter(|h| **h != c.king_to)
            .any(|h| pos.is_attacked(b.cell(*h).unwrap(), them))
        {
            continue;
        }
        let king = board.at(c.king).map(letter).unwrap();
        let rook = board.at(c.rook).map(letter).unwrap();
        let edits = [
            (c.king, None),
            (c.rook, None),
            (c.king_to, Some(king)),
            (c.rook_to, Some(rook)),
        ];
        if board.legal_after(&edits) {
            // The king takes its own rook, unless another castling takes the same rook:
            // then the king's destination names it (docs/rules.md §9.1).
            let castlings = spec.castling()[us.index()];
            let shared = castlings.iter().filter(|o| o.rook == c.rook).count() > 1;
            let target = if shared { c.king_to } else { c.rook };
            out.insert(format!("{}{}", name(c.king), name(target)));
        }
    }
    out
}

#[test]
fn the_engine_agrees_with_a_generator_written_from_the_rules_text() {
    let mut checked = 0;
    for spec in specs() {
        let rules = compile(spec.clone(), spec.id()).unwrap();
        for seed in 0..8 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut p = Position::start(Arc::clone(&rules));
            for _ in 0..90 {
                let engine: BTreeSet<String> = p
                    .legal_moves()
                    .into_iter()
                    .map(|m| p.move_to_lan(m))
                    .collect();
                let reference = reference_moves(&p, &spec);
                assert_eq!(engine, reference, "{}: {}", spec.id(), p.to_fen());
                checked += 1;
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Captures and special moves now and then, to reach varied positions.
                let special: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        p.is_capture(*m)
                            || m.promotion().is_some()
                            || m.castling().is_some()
                            || m.is_double_step()
                    })
                    .collect();
                let mv = if !special.is_empty() && rng.random_bool(0.4) {
                    special[rng.random_range(0..special.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                p.make_move(mv);
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}
