//! Flat piece images for the 2D view, drawn by the program from the same outlines the
//! 3D models are lathed from, so both views show the same set.

use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::math::Vec2;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use super::models::PieceShape;
use crate::look::theme::ImageColours;

/// Image size in pixels (square).
pub const SPRITE_SIZE: usize = 96;
/// Rows sampled per pixel row, for smooth edges.
const SUBROWS: usize = 4;

/// A shape to fill, in piece units: x across (centre 0), y up from the base.
fn silhouette(shape: PieceShape) -> Vec<Vec<Vec2>> {
    let profile = shape.profile(crate::look::mesh::Detail::Fine);
    let mut body: Vec<Vec2> = profile.iter().map(|p| Vec2::new(p.x, p.y)).collect();
    body.extend(profile.iter().rev().map(|p| Vec2::new(-p.x, p.y)));
    let mut parts = vec![body];
    let circle = |c: Vec2, r: f32| -> Vec<Vec2> {
        (0..24)
            .map(|i| {
                let a = i as f32 / 24.0 * std::f32::consts::TAU;
                c + Vec2::new(a.cos(), a.sin()) * r
            })
            .collect()
    };
    let rect = |c: Vec2, w: f32, h: f32| -> Vec<Vec2> {
        vec![
            c + Vec2::new(-w / 2.0, -h / 2.0),
            c + Vec2::new(w / 2.0, -h / 2.0),
            c + Vec2::new(w / 2.0, h / 2.0),
            c + Vec2::new(-w / 2.0, h / 2.0),
        ]
    };
    let head = |offset: Vec2, scale: f32| -> Vec<Vec2> {
        // Facing left in the picture.
        PieceShape::knight_head()
            .into_iter()
            .map(|p| Vec2::new(-p.x, p.y) * scale + offset)
            .collect()
    };
    match shape {
        PieceShape::King => {
            parts.push(rect(Vec2::new(0.0, 1.36), 0.08, 0.32));
            parts.push(rect(Vec2::new(0.0, 1.40), 0.26, 0.08));
        }
        PieceShape::Queen => {
            parts.push(circle(Vec2::new(0.0, 1.24), 0.1));
            for x in [-0.33, -0.17, 0.17, 0.33] {
                parts.push(circle(Vec2::new(x, 1.17), 0.055));
            }
        }
        PieceShape::Rook => {
            for x in [-0.3, 0.0, 0.3] {
                parts.push(rect(Vec2::new(x, 1.13), 0.13, 0.12));
            }
        }
        PieceShape::Bishop => parts.push(circle(Vec2::new(0.0, 1.23), 0.065)),
        PieceShape::Knight => parts.push(head(Vec2::new(0.0, 0.3), 1.0)),
        PieceShape::WarMachine => parts.push(head(Vec2::new(0.0, 0.76), 0.72)),
        PieceShape::Vizir => {
            parts.push(head(Vec2::new(0.0, 0.69), 0.66));
            parts.push(circle(Vec2::new(-0.03, 1.3), 0.055));
        }
        PieceShape::Duke => {
            parts.push(head(Vec2::new(0.0, 0.72), 0.66));
            for x in [0.06, -0.04, -0.14] {
                parts.push(circle(Vec2::new(x, 1.33), 0.05));
            }
        }
        PieceShape::Pawn | PieceShape::Token => {}
    }
    parts
}

/// A letter drawn on the body of a piece whose head is a knight's (the War Machine W,
/// the Vizir V, the Duke D), in the outline colour: at board size the small marks on
/// their heads did not tell them from a knight or from one another, a letter does.
/// Polygons in piece units, centred on the body.
fn emblem(shape: PieceShape) -> Vec<Vec<Vec2>> {
    let poly = |pts: &[(f32, f32)], lift: f32| -> Vec<Vec2> {
        pts.iter().map(|&(x, y)| Vec2::new(x, y + lift)).collect()
    };
    match shape {
        PieceShape::WarMachine => vec![poly(
            &[
                (-0.22, 0.30),
                (-0.14, 0.30),
                (-0.09, 0.12),
                (-0.035, 0.30),
                (0.035, 0.30),
                (0.09, 0.12),
                (0.14, 0.30),
                (0.22, 0.30),
                (0.13, 0.0),
                (0.06, 0.0),
                (0.0, 0.18),
                (-0.06, 0.0),
                (-0.13, 0.0),
            ],
            0.3,
        )],
        PieceShape::Vizir => vec![poly(
            &[
                (-0.15, 0.30),
                (-0.075, 0.30),
                (0.0, 0.08),
                (0.075, 0.30),
                (0.15, 0.30),
                (0.04, 0.0),
                (-0.04, 0.0),
            ],
            0.26,
        )],
        PieceShape::Duke => {
            // The upright, and the bowl as one band from its top round to its foot.
            let upright = poly(
                &[(-0.14, 0.0), (-0.07, 0.0), (-0.07, 0.30), (-0.14, 0.30)],
                0.3,
            );
            let arc = |r: f32, from: f32, to: f32, steps: usize| -> Vec<(f32, f32)> {
                (0..=steps)
                    .map(|i| {
                        let a = (from + (to - from) * i as f32 / steps as f32).to_radians();
                        (-0.07 + 0.02 + r * 1.05 * a.cos(), 0.15 + r * a.sin())
                    })
                    .collect()
            };
            let mut band = arc(0.15, 90.0, -90.0, 10);
            band.extend(arc(0.085, -90.0, 90.0, 10));
            vec![upright, poly(&band, 0.3)]
        }
        _ => Vec::new(),
    }
}

/// Coverage (0..1) of one polygon on the pixel grid, by even-odd scanline filling.
fn fill(poly: &[Vec2], to_px: impl Fn(Vec2) -> Vec2, coverage: &mut [f32]) {
    let pts: Vec<Vec2> = poly.iter().map(|p| to_px(*p)).collect();
    let n = pts.len();
    let mut xs = Vec::new();
    for row in 0..SPRITE_SIZE {
        for sub in 0..SUBROWS {
            let y = row as f32 + (sub as f32 + 0.5) / SUBROWS as f32;
            xs.clear();
            for i in 0..n {
                let (a, b) = (pts[i], pts[(i + 1) % n]);
                if (a.y <= y) != (b.y <= y) {
                    xs.push(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x));
                }
            }
            xs.sort_by(f32::total_cmp);
            for span in xs.chunks(2) {
                let [x0, x1] = span else { continue };
                let (x0, x1) = (
                    x0.clamp(0.0, SPRITE_SIZE as f32),
                    x1.clamp(0.0, SPRITE_SIZE as f32),
                );
                let mut px = x0.floor() as usize;
                while (px as f32) < x1 && px < SPRITE_SIZE {
                    let covered = (x1.min(px as f32 + 1.0) - x0.max(px as f32)).max(0.0);
                    coverage[row * SPRITE_SIZE + px] += covered / SUBROWS as f32;
                    px += 1;
                }
            }
        }
    }
}

/// Coverage of a whole shape (parts overlap: the maximum wins), shifted by `shift` px.
/// The shape is centred in the image, so short pieces sit mid-cell like tall ones.
fn shape_coverage(parts: &[Vec<Vec2>], shift: Vec2) -> Vec<f32> {
    coverage_placed(parts, middle_of(parts), shift)
}

/// The height halfway between a shape's lowest and highest points.
fn middle_of(parts: &[Vec<Vec2>]) -> f32 {
    let (lo, hi) = parts
        .iter()
        .flatten()
        .fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.y))
        });
    (lo + hi) / 2.0
}

/// Coverage of `parts` with the height `middle` at the image's centre (a mark drawn on
/// a shape is placed as the shape is).
fn coverage_placed(parts: &[Vec<Vec2>], middle: f32, shift: Vec2) -> Vec<f32> {
    let scale = SPRITE_SIZE as f32 / 1.7;
    let to_px = |p: Vec2| {
        let half = SPRITE_SIZE as f32 / 2.0;
        Vec2::new(half + p.x * scale, half - (p.y - middle) * scale) + shift
    };
    let mut total = vec![0f32; SPRITE_SIZE * SPRITE_SIZE];
    for part in parts {
        let mut c = vec![0f32; SPRITE_SIZE * SPRITE_SIZE];
        fill(part, to_px, &mut c);
        for (t, v) in total.iter_mut().zip(c) {
            *t = t.max(v.min(1.0));
        }
    }
    total
}

/// RGBA pixels of a piece image: `fill` inside, `outline` around it.
pub fn piece_pixels(shape: PieceShape, fill_rgb: [u8; 3], outline_rgb: [u8; 3]) -> Vec<u8> {
    pixels(shape, fill_rgb, outline_rgb, &emblem(shape))
}

/// [`piece_pixels`] with `marks` drawn on the body.
fn pixels(
    shape: PieceShape,
    fill_rgb: [u8; 3],
    outline_rgb: [u8; 3],
    marks: &[Vec<Vec2>],
) -> Vec<u8> {
    let parts = silhouette(shape);
    let inner = shape_coverage(&parts, Vec2::ZERO);
    let letter = coverage_placed(marks, middle_of(&parts), Vec2::ZERO);
    // The outline: the shape drawn at small offsets all round.
    let mut outer = inner.clone();
    for i in 0..12 {
        let a = i as f32 / 12.0 * std::f32::consts::TAU;
        let c = shape_coverage(&parts, Vec2::new(a.cos(), a.sin()) * 2.4);
        for (o, v) in outer.iter_mut().zip(c) {
            *o = o.max(v);
        }
    }
    let mut out = Vec::with_capacity(SPRITE_SIZE * SPRITE_SIZE * 4);
    for ((i, o), m) in inner.iter().zip(&outer).zip(&letter) {
        // Inside the body, the letter in the outline colour.
        let i = i * (1.0 - m);
        let mix = |f: u8, l: u8| (f as f32 * i + l as f32 * (1.0 - i)).round() as u8;
        out.extend_from_slice(&[
            mix(fill_rgb[0], outline_rgb[0]),
            mix(fill_rgb[1], outline_rgb[1]),
            mix(fill_rgb[2], outline_rgb[2]),
            (o * 255.0).round() as u8,
        ]);
    }
    out
}

/// A piece image as a texture, in a theme's colours.
pub fn piece_image(shape: PieceShape, colours: ImageColours) -> Image {
    let (fill, outline) = (colours.fill.into(), colours.outline.into());
    Image::new(
        Extent3d {
            width: SPRITE_SIZE as u32,
            height: SPRITE_SIZE as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        piece_pixels(shape, fill, outline),
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_have_an_opaque_body_a_transparent_surround_and_an_outline() {
        for shape in [
            PieceShape::King,
            PieceShape::Knight,
            PieceShape::Pawn,
            PieceShape::Rook,
        ] {
            let px = piece_pixels(shape, [255, 255, 255], [0, 0, 0]);
            assert_eq!(px.len(), SPRITE_SIZE * SPRITE_SIZE * 4);
            let at =
                |x: usize, y: usize| &px[(y * SPRITE_SIZE + x) * 4..(y * SPRITE_SIZE + x) * 4 + 4];
            // Corners are empty; the middle is filled with the body colour.
            assert_eq!(at(0, 0)[3], 0, "{shape:?}");
            let middle = at(SPRITE_SIZE / 2 + 2, SPRITE_SIZE / 2 + 8);
            assert_eq!(middle, &[255, 255, 255, 255], "{shape:?}");
            let opaque = px.chunks(4).filter(|p| p[3] > 200).count();
            let outline = px.chunks(4).filter(|p| p[3] > 200 && p[0] < 60).count();
            assert!(opaque > SPRITE_SIZE * SPRITE_SIZE / 10, "{shape:?}");
            assert!(outline > SPRITE_SIZE, "{shape:?} has no outline");
        }
    }
}

#[cfg(test)]
mod emblem_tests {
    use super::*;

    /// Pixels of the body (white without marks) that the marks turn dark.
    fn marked(shape: PieceShape) -> usize {
        let (white, black) = ([255, 255, 255], [0, 0, 0]);
        let plain = pixels(shape, white, black, &[]);
        let shown = piece_pixels(shape, white, black);
        plain
            .chunks(4)
            .zip(shown.chunks(4))
            .filter(|(p, q)| p == &[255, 255, 255, 255] && q[0] < 60)
            .count()
    }

    #[test]
    fn the_knight_headed_pieces_carry_their_letter_on_the_body() {
        // A letter's strokes cover well over a hundred pixels of a 96-pixel image.
        for shape in [PieceShape::WarMachine, PieceShape::Vizir, PieceShape::Duke] {
            let n = marked(shape);
            assert!(n > 100, "{shape:?}: {n} pixels of letter");
        }
        assert_eq!(marked(PieceShape::Knight), 0, "the knight has none");
        // And the letters differ: the three images are not the same picture.
        let image = |s| piece_pixels(s, [255, 255, 255], [0, 0, 0]);
        assert_ne!(image(PieceShape::Vizir), image(PieceShape::Duke));
    }
}
