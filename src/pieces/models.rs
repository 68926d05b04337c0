//! Piece models: the shape each piece kind is drawn as, its side profile (also the 2D
//! image's silhouette) and its 3D model, built from the geometry in [`crate::look::mesh`].

use bevy::math::{Quat, Vec2, Vec3};

use crate::look::mesh::{Detail, MeshData, arc, ball, cuboid, extrude, lathe, split_lathe};

/// The shapes the game can draw a piece as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceShape {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    Vizir,
    WarMachine,
    Duke,
    /// Any other piece: a drum with its letter shown beside it.
    Token,
}

impl PieceShape {
    /// Every shape, in the order of the enum.
    pub const ALL: [PieceShape; 10] = [
        PieceShape::King,
        PieceShape::Queen,
        PieceShape::Rook,
        PieceShape::Bishop,
        PieceShape::Knight,
        PieceShape::Pawn,
        PieceShape::Vizir,
        PieceShape::WarMachine,
        PieceShape::Duke,
        PieceShape::Token,
    ];

    /// Whether the model carries a knight's head (turned a little toward the viewer so
    /// it reads as a horse from the usual camera angle).
    pub fn has_head(self) -> bool {
        matches!(
            self,
            PieceShape::Knight | PieceShape::WarMachine | PieceShape::Vizir | PieceShape::Duke
        )
    }

    /// The shape for a piece letter (the built-ins' letters; anything else is a token).
    pub fn for_letter(letter: char) -> PieceShape {
        match letter.to_ascii_uppercase() {
            'K' => PieceShape::King,
            'Q' => PieceShape::Queen,
            'R' => PieceShape::Rook,
            'B' => PieceShape::Bishop,
            'N' => PieceShape::Knight,
            'P' => PieceShape::Pawn,
            'V' => PieceShape::Vizir,
            'W' => PieceShape::WarMachine,
            'D' => PieceShape::Duke,
            _ => PieceShape::Token,
        }
    }

    /// Side view of the body (radius, height): also the 2D image's silhouette.
    pub fn profile(self, detail: Detail) -> Vec<Vec2> {
        let v = |r: f32, y: f32| Vec2::new(r, y);
        let mut p = vec![
            v(0.0, 0.0),
            v(0.5, 0.0),
            v(0.5, 0.07),
            v(0.44, 0.11),
            v(0.40, 0.15),
        ];
        match self {
            PieceShape::Pawn => {
                p.extend([
                    v(0.30, 0.20),
                    v(0.17, 0.44),
                    v(0.27, 0.48),
                    v(0.27, 0.52),
                    v(0.15, 0.56),
                ]);
                p.extend(arc(v(0.0, 0.74), 0.2, -64.0, 90.0, detail.arc_steps(12)));
            }
            PieceShape::Rook | PieceShape::WarMachine => {
                let top = if self == PieceShape::Rook { 1.08 } else { 0.82 };
                p.extend([
                    v(0.34, 0.2),
                    v(0.29, top - 0.26),
                    v(0.41, top - 0.2),
                    v(0.41, top),
                    v(0.29, top),
                    v(0.29, top - 0.06),
                    v(0.0, top - 0.06),
                ]);
            }
            PieceShape::Bishop => {
                p.extend([
                    v(0.31, 0.2),
                    v(0.19, 0.62),
                    v(0.31, 0.68),
                    v(0.31, 0.73),
                    v(0.17, 0.77),
                ]);
                p.extend([
                    v(0.22, 0.86),
                    v(0.23, MITRE_WIDEST),
                    v(0.19, 1.07),
                    v(0.09, 1.18),
                    v(0.0, 1.22),
                ]);
            }
            PieceShape::Queen => {
                p.extend([
                    v(0.36, 0.2),
                    v(0.21, 0.76),
                    v(0.34, 0.83),
                    v(0.34, 0.87),
                    v(0.22, 0.92),
                ]);
                p.extend([v(0.37, 1.14), v(0.30, 1.17), v(0.16, 1.13), v(0.0, 1.13)]);
            }
            PieceShape::King => {
                p.extend([
                    v(0.37, 0.2),
                    v(0.23, 0.8),
                    v(0.36, 0.88),
                    v(0.36, 0.92),
                    v(0.25, 0.97),
                ]);
                p.extend([v(0.33, 1.18), v(0.0, 1.2)]);
            }
            PieceShape::Duke => {
                // The king's body and collar; a crowned knight's head rides on it.
                p.extend([
                    v(0.37, 0.2),
                    v(0.23, 0.62),
                    v(0.36, 0.68),
                    v(0.36, 0.72),
                    v(0.0, 0.72),
                ]);
            }
            PieceShape::Knight => {
                p.extend([v(0.36, 0.2), v(0.30, 0.3), v(0.0, 0.3)]);
            }
            PieceShape::Vizir => {
                // A bishop's slender body and collar; a knight's head rides on it.
                p.extend([
                    v(0.31, 0.2),
                    v(0.19, 0.58),
                    v(0.32, 0.64),
                    v(0.32, 0.69),
                    v(0.0, 0.69),
                ]);
            }
            PieceShape::Token => {
                p.extend([v(0.42, 0.2), v(0.42, 0.42), v(0.3, 0.5), v(0.0, 0.52)]);
            }
        }
        p
    }

    /// The knight's head seen from the side (x forward, y up), base at y = 0.
    pub fn knight_head() -> Vec<Vec2> {
        [
            (-0.30, 0.0),
            (0.28, 0.0),
            (0.22, 0.22),
            (0.10, 0.36),
            (0.34, 0.44),
            (0.42, 0.52),
            (0.40, 0.62),
            (0.16, 0.78),
            (0.08, 0.92),
            (0.0, 0.82),
            (-0.12, 0.84),
            (-0.26, 0.66),
            (-0.32, 0.40),
        ]
        .into_iter()
        .map(|(x, y)| Vec2::new(x, y))
        .collect()
    }

    /// The 3D model, standing on y = 0, facing +X (turned to face the opponent when
    /// placed).
    pub fn model(self, detail: Detail) -> MeshData {
        let profile = self.profile(detail);
        let mut m = match self {
            PieceShape::Bishop => slit_mitre(&profile, detail),
            _ => lathe(&profile, detail.segments()),
        };
        match self {
            PieceShape::Rook => {
                // Six merlons on the crown.
                for i in 0..6 {
                    let a = (i as f32 * 60.0 + 30.0).to_radians();
                    let c = Vec3::new(a.cos() * 0.35, 1.13, a.sin() * 0.35);
                    m.merge(&cuboid(c, Vec3::new(0.13, 0.1, 0.13)).transformed(
                        Vec3::ZERO,
                        Quat::IDENTITY,
                        1.0,
                    ));
                }
            }
            PieceShape::Queen => {
                m.merge(&ball(Vec3::new(0.0, 1.24, 0.0), 0.1, detail));
                for i in 0..8 {
                    let a = (i as f32 * 45.0).to_radians();
                    m.merge(&ball(
                        Vec3::new(a.cos() * 0.33, 1.17, a.sin() * 0.33),
                        0.05,
                        detail,
                    ));
                }
            }
            PieceShape::King => {
                m.merge(&cuboid(
                    Vec3::new(0.0, 1.36, 0.0),
                    Vec3::new(0.07, 0.32, 0.07),
                ));
                m.merge(&cuboid(
                    Vec3::new(0.0, 1.40, 0.0),
                    Vec3::new(0.24, 0.07, 0.07),
                ));
            }
            PieceShape::Duke => {
                let head = extrude(&PieceShape::knight_head(), 0.22);
                m.merge(&head.transformed(Vec3::new(0.0, 0.72, 0.0), Quat::IDENTITY, 0.66));
                // A small coronet between the ears: royal-looking, but no cross.
                for (x, y) in [(-0.06, 1.32), (0.04, 1.35), (0.14, 1.3)] {
                    m.merge(&ball(Vec3::new(x, y, 0.0), 0.05, detail));
                }
            }
            PieceShape::Bishop => {
                m.merge(&ball(Vec3::new(0.0, 1.26, 0.0), 0.06, detail));
            }
            PieceShape::Knight => {
                let head = extrude(&PieceShape::knight_head(), 0.26);
                m.merge(&head.transformed(Vec3::new(0.0, 0.3, 0.0), Quat::IDENTITY, 1.0));
            }
            PieceShape::WarMachine => {
                // A tower carrying a knight's head: rook and knight in one.
                let head = extrude(&PieceShape::knight_head(), 0.22);
                m.merge(&head.transformed(Vec3::new(0.0, 0.76, 0.0), Quat::IDENTITY, 0.72));
            }
            PieceShape::Vizir => {
                let head = extrude(&PieceShape::knight_head(), 0.22);
                m.merge(&head.transformed(Vec3::new(0.0, 0.69, 0.0), Quat::IDENTITY, 0.66));
                // The bishop's ball, on the brow.
                m.merge(&ball(Vec3::new(0.03, 1.3, 0.0), 0.055, detail));
            }
            PieceShape::Pawn | PieceShape::Token => {}
        }
        m
    }
}

/// Where the bishop's mitre is widest: the slit runs from there to the top.
const MITRE_WIDEST: f32 = 0.95;

/// How wide the slit is (the model is a unit cell wide).
const SLIT: f32 = 0.09;

/// The bishop: its body lathed whole up to the mitre's widest point, the rest split by
/// the slit that tells a bishop from a pawn from above and from behind (the slit lies
/// along the way the piece faces, so a player sees it end on, as a line).
fn slit_mitre(profile: &[Vec2], detail: Detail) -> MeshData {
    let cut = profile
        .iter()
        .position(|p| (p.y - MITRE_WIDEST).abs() < 1e-4)
        .expect("the bishop's profile passes the mitre's widest point");
    let mut body = profile[..=cut].to_vec();
    body.push(Vec2::new(0.0, MITRE_WIDEST));
    let mut top = vec![Vec2::new(0.0, MITRE_WIDEST)];
    top.extend_from_slice(&profile[cut..]);
    let mut m = lathe(&body, detail.segments());
    m.merge(&split_lathe(&top, detail.segments(), SLIT));
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::look::mesh::tests::closed_and_consistent;
    use crate::look::mesh::triangulate;

    #[test]
    fn ear_clipping_covers_the_knight_head() {
        let head = PieceShape::knight_head();
        let tris = triangulate(&head);
        assert_eq!(tris.len(), head.len() - 2);
        let area = |p: &[Vec2]| {
            (0..p.len())
                .map(|i| p[i].perp_dot(p[(i + 1) % p.len()]))
                .sum::<f32>()
                .abs()
                / 2.0
        };
        let covered: f32 = tris
            .iter()
            .map(|t| area(&[head[t[0]], head[t[1]], head[t[2]]]))
            .sum();
        assert!(
            (covered - area(&head)).abs() < 1e-4,
            "{covered} vs {}",
            area(&head)
        );
    }

    #[test]
    fn every_piece_model_is_well_formed_and_distinct() {
        let shapes = PieceShape::ALL;
        for detail in [Detail::Fine, Detail::Coarse] {
            let mut signatures = Vec::new();
            for s in shapes {
                let m = s.model(detail);
                closed_and_consistent(&m);
                assert!(m.top() > 0.4 && m.top() < 1.6, "{s:?} height {}", m.top());
                signatures.push((m.positions.len(), (m.top() * 1000.0) as i32));
            }
            signatures.sort();
            signatures.dedup();
            assert_eq!(signatures.len(), shapes.len(), "two pieces share a model");
        }
    }

    #[test]
    fn the_bishops_mitre_is_open_along_its_slit_and_the_pawns_head_is_whole() {
        let in_slit = |m: &MeshData, from: f32, to: f32| {
            m.positions
                .iter()
                .filter(|p| p.y > from && p.y < to && p.z.abs() < SLIT / 2.0 - 1e-4)
                .count()
        };
        for detail in [Detail::Fine, Detail::Coarse] {
            let bishop = PieceShape::Bishop.model(detail);
            // Below the finial (which bridges the slit), nothing of the mitre lies in it.
            assert_eq!(in_slit(&bishop, MITRE_WIDEST + 1e-3, 1.19), 0, "{detail:?}");
            // The cut faces close each half, so the slit shows walls, not the inside.
            assert!(
                bishop
                    .normals
                    .iter()
                    .zip(&bishop.positions)
                    .any(|(n, p)| n.z.abs() == 1.0 && (p.z.abs() - SLIT / 2.0).abs() < 1e-5)
            );
            let pawn = PieceShape::Pawn.model(detail);
            assert!(in_slit(&pawn, 0.6, 1.0) > 0, "{detail:?}");
        }
    }

    #[test]
    fn coarse_models_keep_their_height_with_far_fewer_triangles() {
        for s in [
            PieceShape::King,
            PieceShape::Queen,
            PieceShape::Pawn,
            PieceShape::Duke,
        ] {
            let (fine, coarse) = (s.model(Detail::Fine), s.model(Detail::Coarse));
            assert!((fine.top() - coarse.top()).abs() < 0.02, "{s:?}");
            assert!(
                coarse.indices.len() * 2 < fine.indices.len(),
                "{s:?}: {} vs {} triangles",
                coarse.indices.len() / 3,
                fine.indices.len() / 3
            );
        }
    }
}
