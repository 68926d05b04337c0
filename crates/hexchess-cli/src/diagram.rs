//! Board diagrams as SVG, for the rules reference: any variant, from its start, a FEN
//! or turns played, with marked cells and arrows. A game of more sides shows a frozen
//! army with a blue ring and an army out greyed.

use std::fmt::Write as _;

use hexchess_core::bitboard::CellSet;
use hexchess_core::game::{Draws, Game, Standing};
use hexchess_core::piece::{Piece, Side};
use hexchess_core::{Cell, Rules};

/// What to draw besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Cells ringed in orange.
    pub marks: Vec<String>,
    /// Arrows from cell to cell (`e1e5`, or `e1-e5`).
    pub arrows: Vec<String>,
    pub caption: Option<String>,
}

/// Cell size in SVG units (the circumradius of a cell).
const SIZE: f32 = 14.0;

/// A game as SVG: in a game of more sides each army as its side stands (a two-player
/// game's sides are always playing).
pub fn game_svg<B: CellSet>(game: &Game<B>, extras: &Extras) -> Result<String, String> {
    let pos = game.position();
    draw(
        pos.rules(),
        |c| pos.piece_at(c),
        |s| game.standing(s),
        extras,
    )
}

/// A side's colour: by its name when it is a colour's, else by seat.
fn side_colour<B: CellSet>(rules: &Rules<B>, side: Side) -> (&'static str, &'static str) {
    match rules.side_name(side).to_ascii_lowercase().as_str() {
        "white" => ("#fbfbf8", "#222"),
        "black" => ("#2b2b2b", "#f5f5f5"),
        "red" => ("#c8372d", "#fff"),
        "gold" | "yellow" => ("#e2b227", "#222"),
        "blue" => ("#2d6cc8", "#fff"),
        "green" => ("#2e8b57", "#fff"),
        _ => [
            ("#fbfbf8", "#222"),
            ("#2b2b2b", "#f5f5f5"),
            ("#c8372d", "#fff"),
            ("#2d6cc8", "#fff"),
        ][side.index()],
    }
}

fn draw<B: CellSet>(
    rules: &Rules<B>,
    piece_at: impl Fn(Cell) -> Option<Piece>,
    standing: impl Fn(Side) -> Standing,
    extras: &Extras,
) -> Result<String, String> {
    let board = rules.board();
    let layout = rules.layout();
    let centre = |c: Cell| {
        let (x, y) = layout.to_pixel(board.hex(c));
        (x * SIZE, -y * SIZE)
    };
    let cells: Vec<Cell> = board.cells().collect();
    let xs = cells.iter().map(|c| centre(*c).0);
    let ys = cells.iter().map(|c| centre(*c).1);
    let (min_x, max_x) = xs.fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (min_y, max_y) = ys.fold((f32::MAX, f32::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let pad = SIZE * 1.5;
    let caption_room = if extras.caption.is_some() {
        SIZE * 2.0
    } else {
        0.0
    };
    let (w, h) = (
        max_x - min_x + 2.0 * pad,
        max_y - min_y + 2.0 * pad + caption_room,
    );
    let (ox, oy) = (pad - min_x, pad - min_y);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:.0} {h:.0}" width="{w:.0}" height="{h:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        svg,
        r##"<defs><marker id="head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1f7a1f"/></marker></defs>"##
    );
    let _ = writeln!(
        svg,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let tones = ["#eed9b6", "#d5b48a", "#b48a62"];
    let corner_angle = match layout {
        hexchess_core::Layout::PointyTop => 30.0f32,
        hexchess_core::Layout::FlatTop => 0.0,
    };
    for &c in &cells {
        let (x, y) = centre(c);
        let points: Vec<String> = (0..6)
            .map(|k| {
                let a = (corner_angle + 60.0 * k as f32).to_radians();
                format!(
                    "{:.1},{:.1}",
                    x + ox + SIZE * a.cos(),
                    y + oy + SIZE * a.sin()
                )
            })
            .collect();
        let tone = tones[usize::from(board.hex(c).colour()) % 3];
        let _ = writeln!(
            svg,
            r##"<polygon points="{}" fill="{tone}" stroke="#8a6d4d" stroke-width="0.6"/>"##,
            points.join(" ")
        );
    }
    for name in &extras.marks {
        let c = board
            .parse_cell(name)
            .ok_or_else(|| format!("mark: '{name}' is not a cell of this board"))?;
        let (x, y) = centre(c);
        let _ = writeln!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#e67e22" stroke-width="2.5"/>"##,
            x + ox,
            y + oy,
            SIZE * 0.85
        );
    }
    for &c in &cells {
        let Some(p) = piece_at(c) else { continue };
        let (x, y) = centre(c);
        let (fill, ink) = side_colour(rules, p.side);
        let st = standing(p.side);
        let opacity = if st == Standing::Out { 0.35 } else { 1.0 };
        let letter = rules.kind_info(p.kind).letter;
        let _ = writeln!(
            svg,
            r##"<g opacity="{opacity}"><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{fill}" stroke="#111" stroke-width="0.8"/><text x="{:.1}" y="{:.1}" font-size="{:.0}" font-weight="bold" text-anchor="middle" fill="{ink}">{letter}</text></g>"##,
            x + ox,
            y + oy,
            SIZE * 0.68,
            x + ox,
            y + oy + SIZE * 0.36,
            SIZE
        );
        if st == Standing::Frozen && !rules.is_royal(p.kind) {
            let _ = writeln!(
                svg,
                r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#3aa0e8" stroke-width="2" stroke-dasharray="3,2"/>"##,
                x + ox,
                y + oy,
                SIZE * 0.8
            );
        }
    }
    for text in &extras.arrows {
        let (a, b) = split_arrow(text, |s| board.parse_cell(s))
            .ok_or_else(|| format!("arrow: '{text}' is not two cells of this board"))?;
        let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let shorten = SIZE * 0.55 / len;
        let _ = writeln!(
            svg,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#1f7a1f" stroke-width="3" marker-end="url(#head)" opacity="0.85"/>"##,
            x1 + ox + dx * shorten,
            y1 + oy + dy * shorten,
            x2 + ox - dx * shorten,
            y2 + oy - dy * shorten
        );
    }
    if let Some(caption) = &extras.caption {
        let _ = writeln!(
            svg,
            r##"<text x="{:.0}" y="{:.0}" font-size="13" text-anchor="middle" fill="#222">{}</text>"##,
            w / 2.0,
            h - SIZE * 0.8,
            escape(caption)
        );
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// `e1e5` or `e1-e5`: the two cells, split where the first cell name ends.
fn split_arrow(text: &str, parse: impl Fn(&str) -> Option<Cell>) -> Option<(Cell, Cell)> {
    if let Some((a, b)) = text.split_once('-') {
        return Some((parse(a)?, parse(b)?));
    }
    (2..text.len()).find_map(|i| {
        let (a, b) = text.split_at(i);
        Some((parse(a)?, parse(b)?))
    })
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Draws a variant by id or file, from its start or FEN after `turns` (moves, or whole
/// turns in a game of more sides). The moves go on past a draw by rule: a diagram may
/// show any position they reach.
pub fn run(
    variant: &str,
    fen: Option<&str>,
    turns: &[String],
    extras: &Extras,
) -> Result<String, String> {
    let entry = crate::entry_for(variant)?;
    let game = Game::from_moves_with(
        std::sync::Arc::clone(entry.rules()),
        fen,
        turns,
        Draws::Called,
    )
    .map_err(|e| e.to_string())?;
    game_svg(&game, extras)
}
