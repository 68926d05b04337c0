//! From RON text to a checked [`VariantSpec`], reporting every problem at once.

use std::collections::{HashMap, HashSet};

use super::def::*;
use super::error::{Problem, VariantError};
use super::locate::Locations;
use super::{
    Atom, CastlingRule, DrawRules, MoveMode, PawnRules, PieceType, Placement, PromotionRules,
    Reach, SetupPhase, SideSpec, StalemateScore, VariantSpec,
};
use crate::board::{Board, Naming};
use crate::fen;
use crate::hex::{DIAGONAL, Hex, KNIGHT, ORTHOGONAL};
use crate::multi::{FairExchange, Goal, MultiRules};
use crate::piece::{MAX_KINDS, MAX_SIDES, Points, Side};

/// The schema version this build reads.
pub const FORMAT_VERSION: u32 = 1;

/// The largest variant file read: the biggest shipped one is a few kilobytes, so a
/// file this large is not a variant, and reading it whole would only fill the memory.
pub const MAX_VARIANT_FILE_BYTES: u64 = 1 << 20;

/// The most a piece may be worth, in centipawns: a hundred pawns, more than any piece
/// of a playable variant, and small enough that the engine's sums of values (up to a
/// board of 128 cells full of such pieces), its move ordering and the exchange values
/// never overflow. Larger values made the search loop or read material as a mate; the
/// evaluation also saturates below the mate scores, whatever the values add up to.
pub const MAX_PIECE_VALUE: i32 = 10_000;

/// Parses and checks variant source text; `file` names it in error messages. A leading
/// byte order mark is skipped ([`crate::text::strip_bom`]), so a file saved by Windows
/// Notepad reads as it shows, and its errors name the lines and columns shown.
pub fn parse_variant(source: &str, file: &str) -> Result<VariantSpec, VariantError> {
    // Both the parser and the locations of problems read the text without the mark.
    let source = crate::text::strip_bom(source);
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let def: VariantDef = options.from_str(source).map_err(|e| VariantError::Syntax {
        file: file.to_string(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
        hint: super::error::syntax_hint(&e.code),
    })?;
    let mut checker = Checker {
        problems: Vec::new(),
        locations: Locations::scan(source),
        sides: SideSpec::two(),
    };
    match checker.check(&def) {
        Some(spec) if checker.problems.is_empty() => Ok(spec),
        _ => Err(VariantError::Invalid {
            file: file.to_string(),
            problems: checker.problems,
        }),
    }
}

struct Checker {
    problems: Vec<Problem>,
    locations: Locations,
    /// The variant's sides, read first: zones and setups depend on them.
    sides: Vec<SideSpec>,
}

impl Checker {
    fn report(&mut self, path: impl Into<String>, message: impl Into<String>) {
        let path = path.into();
        let (line, column) = match self.locations.find(&path) {
            Some((l, c)) => (Some(l), Some(c)),
            None => (None, None),
        };
        self.problems.push(Problem {
            line,
            column,
            path,
            message: message.into(),
            hint: None,
        });
    }

    fn vector(&mut self, path: String, v: VectorDef) -> Option<Hex> {
        let (q, r, s) = v;
        match Hex::cube(q, r, s) {
            Some(h) if h == Hex::ORIGIN => {
                self.report(path, "the zero vector (0, 0, 0) goes nowhere");
                None
            }
            Some(h) if h.length() > 30 => {
                self.report(
                    path,
                    format!("vector ({q}, {r}, {s}) is longer than any board"),
                );
                None
            }
            Some(h) => Some(h),
            None => {
                self.report(
                    path,
                    format!(
                        "({q}, {r}, {s}) is not a cube vector: q + r + s must be 0, here it is {}",
                        q + r + s
                    ),
                );
                None
            }
        }
    }

    /// The format version, the id and the name.
    fn check_header(&mut self, def: &VariantDef) {
        if def.format_version != FORMAT_VERSION {
            self.report(
                "format_version",
                format!(
                    "format_version {} is not supported; this version of hexchess reads {FORMAT_VERSION}",
                    def.format_version
                ),
            );
        }
        if def.id.is_empty()
            || !def
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
        {
            self.report(
                "id",
                format!(
                    "id {:?} must be non-empty lower-case letters, digits, '-' or '_'",
                    def.id
                ),
            );
        }
        if def.name.trim().is_empty() {
            self.report("name", "the name is empty");
        }
    }

    /// The pawn section's piece `l` must be declared, not royal, and move by the pawn
    /// section only.
    fn check_pawn_piece(&mut self, l: char, pieces: &[PieceType]) {
        match pieces.iter().find(|p| p.letter == l) {
            None => self.report(
                "pawn.piece",
                format!("pawn piece '{l}' is not declared in pieces"),
            ),
            Some(p) if p.royal => {
                self.report("pawn.piece", format!("pawn piece '{l}' may not be royal"))
            }
            Some(p) if !p.atoms.is_empty() => {
                let i = pieces.iter().position(|q| q.letter == l).expect("found");
                self.report(
                    format!("pieces[{i}].moves"),
                    format!("pawn piece '{l}' moves by the pawn section; leave its `moves` out"),
                )
            }
            Some(_) => {}
        }
    }

    fn check(&mut self, def: &VariantDef) -> Option<VariantSpec> {
        self.check_header(def);

        let board = self.board(&def.board);
        let pieces = self.pieces(&def.pieces);
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();

        if let Some(pawn) = &def.pawn {
            self.check_pawn_piece(pawn.piece, &pieces);
        }

        let board = board?;
        self.sides = self.sides(def.sides.as_deref());
        let setup = self.setup(&def.setup, &board, &letters);
        let setup_phase = def
            .setup_phase
            .as_ref()
            .map(|d| self.setup_phase(d, &board, &letters, &setup));
        self.check_royals(&setup, setup_phase.as_ref(), &pieces);
        let pawn = def.pawn.as_ref().map(|p| self.pawn(p, &board, &setup));
        let promotion = match (&def.promotion, &pawn) {
            (Some(pr), Some(pawn)) => Some(self.promotion(pr, &board, &pieces, pawn)),
            (Some(_), None) => {
                self.report(
                    "promotion",
                    "promotion needs a pawn section: nothing else promotes",
                );
                None
            }
            (None, _) => None,
        };
        let stalemate = self.stalemate(&def.stalemate);
        let castling = self.castling(
            &def.castling,
            def.castling_black.as_deref(),
            &board,
            &setup,
            &pieces,
        );
        if self.sides.len() > 2 {
            self.check_two_player_only(def);
        }
        let multiplayer = self.multiplayer(def.multiplayer.as_ref(), &pieces);
        if setup_phase.is_some() && castling.iter().any(|c| !c.is_empty()) {
            self.report(
                "setup_phase",
                "a variant with a setup phase cannot have castling: nothing starts on its castling cells",
            );
        }

        Some(VariantSpec {
            id: def.id.clone(),
            name: def.name.clone(),
            description: def.description.clone(),
            layout: board.layout(),
            naming: board.naming(),
            cells: board.cells().map(|c| board.hex(c)).collect(),
            pieces,
            setup,
            pawn,
            promotion,
            stalemate,
            draws: DrawRules {
                repetitions: def.draws.repetitions,
                move_rule_plies: def.draws.move_rule_plies,
                bare_royals: def.draws.bare_royals,
            },
            castling,
            setup_phase,
            sides: self.sides.clone(),
            multiplayer,
        })
    }

    /// The rules of a game of more sides: Peterson's defaults when the section is
    /// absent; refused with two sides; fair exchange must value every non-royal kind.
    fn multiplayer(
        &mut self,
        def: Option<&MultiplayerDef>,
        pieces: &[PieceType],
    ) -> Option<MultiRules> {
        let n = self.sides.len();
        let Some(def) = def else {
            return (n > 2).then(MultiRules::default);
        };
        if n <= 2 {
            self.report(
                "multiplayer",
                "the multiplayer section is for games of more than two sides",
            );
            return None;
        }
        let fair_exchange = def.fair_exchange.as_ref().map(|values| {
            let mut out = [0u16; MAX_KINDS];
            for (i, (letter, value)) in values.iter().enumerate() {
                let path = format!("multiplayer.fair_exchange[{i}]");
                match pieces.iter().position(|p| p.letter == *letter) {
                    None => self.report(path, format!("no piece has the letter {letter:?}")),
                    Some(k) if pieces[k].royal => self.report(
                        path,
                        format!("{letter:?} is royal: a royal piece is never removed"),
                    ),
                    Some(_) if *value == 0 => {
                        self.report(path, "a value is at least 1".to_string())
                    }
                    Some(k) => out[k] = *value,
                }
            }
            for (k, p) in pieces.iter().enumerate() {
                if !p.royal && out[k] == 0 && !values.iter().any(|v| v.0 == p.letter) {
                    self.report(
                        "multiplayer.fair_exchange",
                        format!("{:?} ({}) has no value", p.letter, p.name),
                    );
                }
            }
            FairExchange { values: out }
        });
        let teams = self.sides.iter().any(|s| s.team.is_some());
        if def.goal == Goal::FirstCheckmate && !teams {
            self.report(
                "multiplayer.goal",
                "FirstCheckmate is a team game's goal: give the sides teams",
            );
        }
        Some(MultiRules {
            defence: def.defence,
            threat: def.threat,
            fair_exchange,
            eliminated: def.eliminated,
            goal: def.goal,
        })
    }

    /// What only two-player variants have for now: castling, en passant and long first
    /// moves, a setup phase, Black's array mirrored.
    fn check_two_player_only(&mut self, def: &VariantDef) {
        let n = self.sides.len();
        if !def.castling.is_empty() {
            self.report(
                "castling",
                format!("castling needs two sides; this variant has {n}"),
            );
        }
        if def.setup_phase.is_some() {
            self.report(
                "setup_phase",
                format!("a setup phase needs two sides; this variant has {n}"),
            );
        }
        if let Some(p) = &def.pawn
            && (p.en_passant || !matches!(p.double_step, DoubleStepDef::Never))
        {
            self.report(
                "pawn",
                format!("long first moves and en passant need two sides; this variant has {n}"),
            );
        }
        if let SetupDef::Pieces { black, .. } = &def.setup
            && !matches!(black, BlackSetupDef::Rotated)
        {
            self.report("setup", format!("with {n} sides every other side's array is White's turned: write `black: Rotated`"));
        }
    }

    /// The setup phase: White's hand and zone, Black's the same pieces on the mirrored
    /// cells; the zone must have room for the hand beside the starting array.
    fn setup_phase(
        &mut self,
        def: &SetupPhaseDef,
        board: &Board,
        letters: &[char],
        setup: &[Placement],
    ) -> SetupPhase {
        let mut hand = Vec::new();
        for (i, &(letter, count)) in def.hand.iter().enumerate() {
            let path = format!("setup_phase.hand[{i}]");
            if !letters.contains(&letter) {
                self.report(
                    path,
                    format!(
                        "unknown piece '{letter}'; declared pieces are {}",
                        letter_list(letters)
                    ),
                );
            } else if count == 0 {
                self.report(
                    path,
                    format!("no '{letter}' to place: give a count of at least 1"),
                );
            } else if hand.iter().any(|(l, _)| *l == letter) {
                self.report(path, format!("'{letter}' is listed twice in the hand"));
            } else {
                hand.push((letter, count));
            }
        }
        let total: u32 = hand.iter().map(|(_, n)| u32::from(*n)).sum();
        if total == 0 {
            self.report(
                "setup_phase.hand",
                "the hand is empty: there is nothing to place",
            );
        }
        let zone = self.zone("setup_phase.zone", &def.zone, board, None);
        for side in Side::BOTH {
            let free = zone[side.index()]
                .iter()
                .filter(|h| !setup.iter().any(|p| p.cell == **h))
                .count() as u32;
            if free < total {
                self.report(
                    "setup_phase.zone",
                    format!("{side}'s zone has {free} free cells for {total} pieces in hand"),
                );
            }
        }
        for (i, letter) in def.distinct_colours.iter().enumerate() {
            let path = format!("setup_phase.distinct_colours[{i}]");
            let in_hand = hand
                .iter()
                .find(|(l, _)| l == letter)
                .map_or(0, |(_, n)| *n);
            let on_board = setup
                .iter()
                .filter(|p| p.side == Side::White && p.piece == *letter)
                .count();
            if in_hand == 0 {
                self.report(path, format!("'{letter}' is not in the hand"));
            } else if usize::from(in_hand) + on_board > 3 {
                self.report(
                    path,
                    format!("{} pieces '{letter}' cannot stand on different colours: a hex board has three", usize::from(in_hand) + on_board),
                );
            }
        }
        let mut zones = zone.into_iter();
        SetupPhase {
            hand: [hand.clone(), hand],
            zone: [
                zones.next().unwrap_or_default(),
                zones.next().unwrap_or_default(),
            ],
            order: def.order,
            hidden: def.hidden,
            distinct_colours: def.distinct_colours.clone(),
        }
    }

    fn castling(
        &mut self,
        defs: &[CastlingDef],
        black_defs: Option<&[CastlingDef]>,
        board: &Board,
        setup: &[Placement],
        pieces: &[PieceType],
    ) -> [Vec<CastlingRule>; 2] {
        let mut out: [Vec<CastlingRule>; 2] = [Vec::new(), Vec::new()];
        let mut lists: Vec<(Side, &str, &[CastlingDef])> = vec![(Side::White, "castling", defs)];
        if let Some(b) = black_defs {
            lists.push((Side::Black, "castling_black", b));
        }
        for (side, field, list) in lists {
            if list.len() > MAX_CASTLINGS {
                self.report(
                    field,
                    format!(
                        "{} castling moves; at most {MAX_CASTLINGS} per side are supported",
                        list.len()
                    ),
                );
                continue;
            }
            for (i, d) in list.iter().enumerate() {
                let path = format!("{field}[{i}]");
                let Some(rule) = self.castling_rule(side, &path, i, d, board, setup, pieces) else {
                    continue;
                };
                if side == Side::White && black_defs.is_none() {
                    match mirrored_castling(board, &rule) {
                        Some(black) => out[1].push(black),
                        None => self.report(path, "the mirror image of this castling for Black leaves the board; give castling_black"),
                    }
                }
                out[side.index()].push(rule);
            }
        }
        out
    }

    /// One castling of `side`: its cells on the board, a royal piece and a non-royal one
    /// starting on them, and straight lines to move along.
    #[allow(clippy::too_many_arguments)]
    fn castling_rule(
        &mut self,
        side: Side,
        path: &str,
        i: usize,
        d: &CastlingDef,
        board: &Board,
        setup: &[Placement],
        pieces: &[PieceType],
    ) -> Option<CastlingRule> {
        let royal = |letter: char| pieces.iter().any(|p| p.letter == letter && p.royal);
        let king = self.cell(board, format!("{path}.king"), &d.king);
        let rook = self.cell(board, format!("{path}.rook"), &d.rook);
        let king_to = self.cell(board, format!("{path}.king_to"), &d.king_to);
        let rook_to = self.cell(board, format!("{path}.rook_to"), &d.rook_to);
        let (king, rook, king_to, rook_to) = (king?, rook?, king_to?, rook_to?);
        let at = |h: Hex| setup.iter().find(|p| p.side == side && p.cell == h);
        if !at(king).is_some_and(|p| royal(p.piece)) {
            self.report(
                format!("{path}.king"),
                format!("no royal piece of {side} starts on {}", d.king),
            );
        }
        if at(rook).is_none_or(|p| royal(p.piece)) {
            self.report(
                format!("{path}.rook"),
                format!("no non-royal piece of {side} starts on {}", d.rook),
            );
        }
        for (a, b, what) in [
            (king, king_to, "king_to"),
            (rook, rook_to, "rook_to"),
            (king, rook, "rook"),
        ] {
            if a.step_toward(b).is_none() {
                self.report(
                    format!("{path}.{what}"),
                    "the cells are not on one orthogonal or diagonal line".to_string(),
                );
            }
        }
        let notation = d
            .notation
            .clone()
            .unwrap_or_else(|| default_castling_notation(i));
        Some(CastlingRule {
            king,
            rook,
            king_to,
            rook_to,
            notation,
        })
    }

    fn board(&mut self, def: &BoardDef) -> Option<Board> {
        let cells = match &def.shape {
            ShapeDef::Hexagon(radius) => {
                if *radius == 0 || *radius > 9 {
                    self.report(
                        "board.shape[0]",
                        format!("radius {radius} is not supported: use 1 to 9 (a radius-9 board has 271 cells, the most that fit)"),
                    );
                    return None;
                }
                Board::hexagon_cells(*radius)
            }
            ShapeDef::Cells(list) => {
                let mut cells = Vec::new();
                for (i, v) in list.iter().enumerate() {
                    let (q, r, s) = *v;
                    match Hex::cube(q, r, s) {
                        Some(h) if h.length() <= 40 => cells.push(h),
                        _ => self.report(
                            format!("board.shape[0][{i}]"),
                            format!("({q}, {r}, {s}) is not a cube coordinate: q + r + s must be 0 and each part at most 40 in size"),
                        ),
                    }
                }
                cells
            }
        };
        let naming = match def.naming {
            Some(NamingDef::Files) => Naming::Files,
            Some(NamingDef::Ranks) => Naming::Ranks,
            Some(NamingDef::SlantedRanks) => Naming::SlantedRanks,
            None => Naming::default_for(def.layout),
        };
        match Board::new(def.layout, naming, &cells) {
            Ok(b) => Some(b),
            Err(e) => {
                self.report("board.shape", e.to_string());
                None
            }
        }
    }

    fn pieces(&mut self, defs: &[PieceDef]) -> Vec<PieceType> {
        if defs.is_empty() {
            self.report("pieces", "no pieces are declared");
        }
        if defs.len() > MAX_KINDS {
            self.report(
                "pieces",
                format!(
                    "{} piece types are declared; at most {MAX_KINDS} are supported",
                    defs.len()
                ),
            );
        }
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (i, p) in defs.iter().enumerate() {
            let path = format!("pieces[{i}]");
            if !p.letter.is_ascii_uppercase() {
                self.report(
                    format!("{path}.letter"),
                    format!("letter '{}' must be an upper-case ASCII letter (Black's pieces use the lower case)", p.letter),
                );
            } else if !seen.insert(p.letter) {
                self.report(
                    format!("{path}.letter"),
                    format!("letter '{}' is used by two pieces", p.letter),
                );
            }
            if let Some(v) = p.value
                && !(0..=MAX_PIECE_VALUE).contains(&v)
            {
                self.report(
                    format!("{path}.value"),
                    format!(
                        "value {v} is out of range: a piece is worth 0 to {MAX_PIECE_VALUE} centipawns (a pawn is 100)"
                    ),
                );
            }
            let mut atoms = Vec::new();
            for (j, m) in p.moves.iter().enumerate() {
                if let Some(a) = self.atom(format!("{path}.moves[{j}]"), m, MoveMode::MoveOrCapture)
                {
                    atoms.push(a);
                }
            }
            out.push(PieceType {
                letter: p.letter,
                name: p.name.clone(),
                royal: p.royal,
                atoms,
                value: p.value,
            });
        }
        out
    }

    fn atom(&mut self, path: String, m: &MoveDef, mode: MoveMode) -> Option<Atom> {
        let (reach, dirs) = match m {
            MoveDef::Step(d) | MoveDef::Leap(d) => (Reach::Leap, d),
            MoveDef::Slide(d) => (Reach::Slide { max: None }, d),
            MoveDef::SlideUpTo(d, n) => {
                if *n == 0 {
                    self.report(
                        format!("{path}[1]"),
                        "a slide of at most 0 steps never moves",
                    );
                }
                (Reach::Slide { max: Some(*n) }, d)
            }
            MoveDef::MoveOnly(inner) | MoveDef::CaptureOnly(inner) => {
                let m2 = if matches!(m, MoveDef::MoveOnly(_)) {
                    MoveMode::MoveOnly
                } else {
                    MoveMode::CaptureOnly
                };
                if mode != MoveMode::MoveOrCapture && mode != m2 {
                    self.report(
                        path.clone(),
                        "MoveOnly and CaptureOnly cannot be combined: such an atom never moves",
                    );
                    return None;
                }
                return self.atom(format!("{path}[0]"), inner, m2);
            }
        };
        let vectors = match dirs {
            DirectionsDef::Orthogonal => ORTHOGONAL.to_vec(),
            DirectionsDef::Diagonal => DIAGONAL.to_vec(),
            DirectionsDef::Knight => KNIGHT.to_vec(),
            DirectionsDef::Vectors(list) => {
                if list.is_empty() {
                    self.report(format!("{path}[0]"), "the vector list is empty");
                }
                list.iter()
                    .enumerate()
                    .filter_map(|(k, v)| self.vector(format!("{path}[0][0][{k}]"), *v))
                    .collect()
            }
        };
        Some(Atom {
            reach,
            vectors,
            mode,
        })
    }

    fn cell(&mut self, board: &Board, path: String, name: &str) -> Option<Hex> {
        match board.parse_cell(name) {
            Some(c) => Some(board.hex(c)),
            None => {
                self.report(path, format!("cell \"{name}\" is not on the board"));
                None
            }
        }
    }

    fn placements(
        &mut self,
        path: &str,
        list: &[(char, Vec<String>)],
        board: &Board,
        letters: &[char],
    ) -> Vec<(char, Hex, String)> {
        let mut out = Vec::new();
        for (i, (letter, cells)) in list.iter().enumerate() {
            let known = letters.contains(letter);
            if !known {
                self.report(
                    format!("{path}[{i}][0]"),
                    format!(
                        "unknown piece '{letter}'; declared pieces are {}",
                        letter_list(letters)
                    ),
                );
            }
            for (j, name) in cells.iter().enumerate() {
                let cell_path = format!("{path}[{i}][1][{j}]");
                if let Some(h) = self.cell(board, cell_path.clone(), name)
                    && known
                {
                    out.push((*letter, h, cell_path));
                }
            }
        }
        out
    }

    fn setup(&mut self, def: &SetupDef, board: &Board, letters: &[char]) -> Vec<Placement> {
        match def {
            SetupDef::Pieces { white, black } => self.setup_pieces(white, black, board, letters),
            SetupDef::Fen(text) => self.setup_fen(text, board, letters),
        }
    }

    /// A setup listed piece by piece: White's, then Black's (listed too, or White's
    /// mirrored).
    fn setup_pieces(
        &mut self,
        white: &[(char, Vec<String>)],
        black: &BlackSetupDef,
        board: &Board,
        letters: &[char],
    ) -> Vec<Placement> {
        let mut placer = Placer::default();
        let whites = self.placements("setup.white", white, board, letters);
        for (letter, h, path) in &whites {
            placer.place(self, board, Side::White, *letter, *h, path.clone());
        }
        match black {
            BlackSetupDef::Mirror => {
                for (letter, h, path) in &whites {
                    let m = board.layout().mirror(*h);
                    if board.cell(m).is_none() {
                        let name = board.name(board.cell(*h).expect("on the board"));
                        self.report(
                            path.clone(),
                            format!("the mirror image of {name} for Black is not on the board"),
                        );
                    } else {
                        let path = format!("{path} (mirrored for Black)");
                        placer.place(self, board, Side::Black, *letter, m, path);
                    }
                }
            }
            BlackSetupDef::Pieces(list) => {
                for (letter, h, path) in self.placements("setup.black[0]", list, board, letters) {
                    placer.place(self, board, Side::Black, letter, h, path);
                }
            }
            BlackSetupDef::Rotated => {
                let sides = self.sides.clone();
                for (i, side) in sides.iter().enumerate().skip(1) {
                    for (letter, h, path) in &whites {
                        let turned = h.rotated(side.rotation);
                        if board.cell(turned).is_none() {
                            let name = board.name(board.cell(*h).expect("on the board"));
                            self.report(
                                path.clone(),
                                format!("{name} turned for {} is not on the board", side.name),
                            );
                        } else {
                            let path = format!("{path} (turned for {})", side.name);
                            placer.place(self, board, Side::from_index(i), *letter, turned, path);
                        }
                    }
                }
            }
        }
        placer.setup
    }

    /// A setup given as the placement field of a hex FEN.
    fn setup_fen(&mut self, text: &str, board: &Board, letters: &[char]) -> Vec<Placement> {
        let groups = text.split_whitespace().next().unwrap_or("");
        match fen::parse_placement(board, letters, self.sides.len(), groups) {
            Ok(list) => list
                .into_iter()
                .map(|(cell, side, kind)| Placement {
                    side,
                    piece: letters[kind],
                    cell: board.hex(cell),
                })
                .collect(),
            Err(e) => {
                self.report("setup[0]", format!("bad FEN: {e}"));
                Vec::new()
            }
        }
    }

    /// Each side must start with exactly one royal piece, on the board or in hand.
    fn check_royals(
        &mut self,
        setup: &[Placement],
        phase: Option<&SetupPhase>,
        pieces: &[PieceType],
    ) {
        let royal = |letter: char| pieces.iter().any(|t| t.letter == letter && t.royal);
        for side in Side::BOTH {
            let in_hand: usize = phase.map_or(0, |ph| {
                ph.hand[side.index()]
                    .iter()
                    .filter(|(l, _)| royal(*l))
                    .map(|(_, n)| usize::from(*n))
                    .sum()
            });
            let royals = in_hand
                + setup
                    .iter()
                    .filter(|p| p.side == side && royal(p.piece))
                    .count();
            if royals != 1 {
                let what = if royals == 0 {
                    "no".to_string()
                } else {
                    royals.to_string()
                };
                self.report(
                    "setup",
                    format!("{side} has {what} royal pieces; each side needs exactly one (mark a piece `royal: true`)"),
                );
            }
        }
    }

    fn pawn(&mut self, def: &PawnDef, board: &Board, setup: &[Placement]) -> PawnRules {
        let vectors = |this: &mut Checker, name: &str, list: &[VectorDef]| -> Vec<Hex> {
            list.iter()
                .enumerate()
                .filter_map(|(i, v)| this.vector(format!("pawn.{name}[{i}]"), *v))
                .collect()
        };
        let advance = vectors(self, "advance", &def.advance);
        let capture = vectors(self, "capture", &def.capture);
        if def.advance.is_empty() {
            self.report("pawn.advance", "pawns need at least one advance vector");
        }
        let mut long: [Vec<(Hex, u8)>; 2] = [Vec::new(), Vec::new()];
        match &def.double_step {
            DoubleStepDef::Never => {}
            DoubleStepDef::FromStartCells | DoubleStepDef::FromStartCellsExcept(_) => {
                let names: &[String] = match &def.double_step {
                    DoubleStepDef::FromStartCellsExcept(names) => names,
                    _ => &[],
                };
                let except: Vec<Hex> = names
                    .iter()
                    .enumerate()
                    .filter_map(|(i, n)| self.cell(board, format!("pawn.double_step[0][{i}]"), n))
                    .collect();
                for side in Side::BOTH {
                    let excluded: Vec<Hex> = match side {
                        Side::White => except.clone(),
                        _ => except.iter().map(|h| board.layout().mirror(*h)).collect(),
                    };
                    long[side.index()] = setup
                        .iter()
                        .filter(|p| {
                            p.side == side && p.piece == def.piece && !excluded.contains(&p.cell)
                        })
                        .map(|p| (p.cell, 2))
                        .collect();
                }
            }
            DoubleStepDef::FromCells(list) => {
                let with_two: Vec<(String, u8)> = list.iter().map(|n| (n.clone(), 2)).collect();
                long = self.long_moves(board, &with_two, false);
            }
            DoubleStepDef::FromCellsUpTo(list) => {
                long = self.long_moves(board, list, true);
            }
            DoubleStepDef::PerSide { white, black } => {
                long = [
                    self.listed_long_moves(board, "white", white),
                    self.listed_long_moves(board, "black", black),
                ];
            }
        }
        PawnRules {
            piece: def.piece,
            advance,
            capture,
            long_first_moves: long,
            en_passant: def.en_passant,
        }
    }

    /// Named cells with a longest first move, for one side as written.
    fn listed_long_moves(
        &mut self,
        board: &Board,
        side: &str,
        list: &[(String, u8)],
    ) -> Vec<(Hex, u8)> {
        let mut out = Vec::new();
        for (i, (n, steps)) in list.iter().enumerate() {
            if !(2..=12).contains(steps) {
                self.report(
                    format!("pawn.double_step.{side}[{i}][1]"),
                    format!("a first move of {steps} cells: use 2 to 12 (1 is every pawn move)"),
                );
            } else if let Some(h) = self.cell(board, format!("pawn.double_step.{side}[{i}][0]"), n)
            {
                out.push((h, *steps));
            }
        }
        out
    }

    /// Named cells with a longest first move, for White and mirrored for Black.
    fn long_moves(
        &mut self,
        board: &Board,
        list: &[(String, u8)],
        counted: bool,
    ) -> [Vec<(Hex, u8)>; 2] {
        let mut out: [Vec<(Hex, u8)>; 2] = [Vec::new(), Vec::new()];
        for (i, (n, steps)) in list.iter().enumerate() {
            let path = if counted {
                format!("pawn.double_step[0][{i}][0]")
            } else {
                format!("pawn.double_step[0][{i}]")
            };
            if !(2..=12).contains(steps) {
                self.report(
                    format!("pawn.double_step[0][{i}][1]"),
                    format!("a first move of {steps} cells: use 2 to 12 (1 is every pawn move)"),
                );
                continue;
            }
            if let Some(h) = self.cell(board, path.clone(), n) {
                out[0].push((h, *steps));
                match board.cell(board.layout().mirror(h)) {
                    Some(m) => out[1].push((board.hex(m), *steps)),
                    None => self.report(
                        path,
                        format!("the mirror image of {n} for Black is not on the board"),
                    ),
                }
            }
        }
        out
    }

    /// A zone for each side; `FarEdge` needs the pawn's moves (`pawn`). Cells and ranks
    /// are White's: Black's are their mirror image in a two-player game, and every other
    /// side's are turned by its rotation in a game of more.
    fn zone(
        &mut self,
        path: &str,
        def: &ZoneDef,
        board: &Board,
        pawn: Option<&PawnRules>,
    ) -> Vec<Vec<Hex>> {
        let sides = self.sides.clone();
        let mut white = Vec::new();
        match def {
            ZoneDef::Nowhere => return vec![Vec::new(); sides.len()],
            ZoneDef::FarEdge => {
                let Some(pawn) = pawn else {
                    self.report(
                        path,
                        "`FarEdge` is a promotion zone; name cells or ranks here",
                    );
                    return vec![Vec::new(); sides.len()];
                };
                // For each side: cells from which none of its advances stays on the board.
                return sides
                    .iter()
                    .map(|side| {
                        board
                            .cells()
                            .filter(|c| {
                                pawn.advance
                                    .iter()
                                    .all(|v| board.offset(*c, v.rotated(side.rotation)).is_none())
                            })
                            .map(|c| board.hex(c))
                            .collect()
                    })
                    .collect();
            }
            ZoneDef::Cells(names) => {
                for (i, n) in names.iter().enumerate() {
                    if let Some(h) = self.cell(board, format!("{path}[0][{i}]"), n) {
                        white.push(h);
                    }
                }
            }
            ZoneDef::Ranks(ranks) => {
                for (i, rank) in ranks.iter().enumerate() {
                    let cells: Vec<Hex> = board
                        .cells()
                        .filter(|c| board.rank(*c) == *rank)
                        .map(|c| board.hex(c))
                        .collect();
                    if cells.is_empty() {
                        self.report(
                            format!("{path}[0][{i}]"),
                            format!("the board has no rank {rank}"),
                        );
                    }
                    white.extend(cells);
                }
            }
        }
        let mut out = vec![white.clone()];
        for side in &sides[1..] {
            let mut cells = Vec::new();
            for h in &white {
                let image = if sides.len() == 2 {
                    board.layout().mirror(*h)
                } else {
                    h.rotated(side.rotation)
                };
                match board.cell(image) {
                    Some(m) => cells.push(board.hex(m)),
                    None => {
                        let name = board.name(board.cell(*h).expect("on the board"));
                        self.report(
                            path,
                            format!("the image of {name} for {} is not on the board", side.name),
                        )
                    }
                }
            }
            out.push(cells);
        }
        out
    }

    /// The sides: two facing each other unless the file lists them (2 to 4, each turned
    /// a multiple of 60 degrees from White's view, names unique).
    fn sides(&mut self, defs: Option<&[SideDef]>) -> Vec<SideSpec> {
        let Some(defs) = defs else {
            return SideSpec::two();
        };
        if !(2..=MAX_SIDES).contains(&defs.len()) {
            self.report(
                "sides",
                format!(
                    "{} sides listed; a variant has 2 to {MAX_SIDES}",
                    defs.len()
                ),
            );
            return SideSpec::two();
        }
        let mut out: Vec<SideSpec> = Vec::new();
        for (i, d) in defs.iter().enumerate() {
            let path = format!("sides[{i}]");
            if d.rotation % 60 != 0 || d.rotation >= 360 {
                self.report(
                    format!("{path}.rotation"),
                    format!(
                        "rotation {} is not one of 0, 60, 120, 180, 240, 300",
                        d.rotation
                    ),
                );
            }
            if d.name.trim().is_empty() || out.iter().any(|o| o.name == d.name) {
                self.report(
                    format!("{path}.name"),
                    format!("side name {:?} is empty or used twice", d.name),
                );
            }
            out.push(SideSpec {
                name: d.name.clone(),
                rotation: (d.rotation / 60 % 6) as u8,
                team: d.team,
            });
        }
        if out.len() == 2 && (out[0].rotation, out[1].rotation) != (0, 3) {
            self.report(
                "sides",
                "two sides face each other: rotations 0 and 180 (Black's moves are White's turned round)",
            );
        }
        out
    }

    fn promotion(
        &mut self,
        def: &PromotionDef,
        board: &Board,
        pieces: &[PieceType],
        pawn: &PawnRules,
    ) -> PromotionRules {
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        if def.choices.is_empty() {
            self.report("promotion.choices", "there is nothing to promote to");
        }
        for (i, c) in def.choices.iter().enumerate() {
            let path = format!("promotion.choices[{i}]");
            match pieces.iter().find(|p| p.letter == *c) {
                None => self.report(
                    path,
                    format!(
                        "unknown piece '{c}'; declared pieces are {}",
                        letter_list(&letters)
                    ),
                ),
                Some(p) if p.royal => self.report(
                    path,
                    format!("'{c}' is royal; a pawn may not promote to a royal piece"),
                ),
                Some(_) if *c == pawn.piece => self.report(path, "a pawn cannot promote to a pawn"),
                Some(_) => {}
            }
        }
        let zone = self.zone("promotion.zone", &def.zone, board, Some(pawn));
        let optional_zone = self.zone(
            "promotion.optional_zone",
            &def.optional_zone,
            board,
            Some(pawn),
        );
        if zone[0].is_empty() && optional_zone[0].is_empty() {
            self.report("promotion.zone", "no cell is in the promotion zone");
        }
        PromotionRules {
            choices: def.choices.clone(),
            zone,
            optional_zone,
            only_lost_pieces: def.only_lost_pieces,
            must_promote_to_enter: def.must_promote_to_enter,
        }
    }

    fn stalemate(&mut self, def: &StalemateDef) -> StalemateScore {
        let points = |this: &mut Checker, name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Points::from_millis((v * 1000.0).round() as u16).expect("in range")
            } else {
                this.report(
                    format!("stalemate.{name}"),
                    format!("{v} is not a score between 0 and 1"),
                );
                Points::HALF
            }
        };
        StalemateScore {
            stalemating: points(self, "stalemating", def.stalemating),
            stalemated: points(self, "stalemated", def.stalemated),
        }
    }
}

/// The most castling moves a side may have (rights are bits of a byte).
pub const MAX_CASTLINGS: usize = 4;

/// `O-O`, `O-O-O`, `O-O-3`, `O-O-4`: how unnamed castlings are written.
pub fn default_castling_notation(i: usize) -> String {
    match i {
        0 => "O-O".into(),
        1 => "O-O-O".into(),
        n => format!("O-O-{}", n + 1),
    }
}

fn letter_list(letters: &[char]) -> String {
    letters
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
/// White's castling seen in the board's mirror, for Black; `None` when a cell of it has
/// no mirror image on the board.
fn mirrored_castling(board: &Board, rule: &CastlingRule) -> Option<CastlingRule> {
    let m = |h: Hex| board.cell(board.layout().mirror(h)).map(|c| board.hex(c));
    Some(CastlingRule {
        king: m(rule.king)?,
        rook: m(rule.rook)?,
        king_to: m(rule.king_to)?,
        rook_to: m(rule.rook_to)?,
        notation: rule.notation.clone(),
    })
}

/// Pieces placed so far, and where each came from in the file (to name the other
/// piece when two share a cell).
#[derive(Default)]
struct Placer {
    occupied: HashMap<Hex, String>,
    setup: Vec<Placement>,
}

impl Placer {
    fn place(
        &mut self,
        checker: &mut Checker,
        board: &Board,
        side: Side,
        letter: char,
        h: Hex,
        path: String,
    ) {
        if let Some(first) = self.occupied.get(&h) {
            let name = board.name(board.cell(h).expect("on the board"));
            let other = match checker.locations.find(first) {
                Some((l, c)) => format!("line {l}, column {c}"),
                None => first.clone(),
            };
            checker.report(
                path,
                format!("two pieces on {name} (the other is placed at {other})"),
            );
        } else {
            self.occupied.insert(h, path);
            self.setup.push(Placement {
                side,
                piece: letter,
                cell: h,
            });
        }
    }
}
