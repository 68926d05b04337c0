//! Procedural geometry: hex cells, rings and frames, and the tools piece models are
//! built with (lathed bodies, extruded profiles, boxes, balls).
//!
//! Everything is built as plain [`MeshData`] first (positions, normals, triangles), so
//! the shapes are testable without a renderer, then converted to a Bevy [`Mesh`].

use bevy::asset::RenderAssetUsages;
use bevy::math::{Quat, Vec2, Vec3};
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};

/// Triangles with per-vertex normals.
#[derive(Clone, Debug, Default)]
pub struct MeshData {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub indices: Vec<u32>,
}

impl MeshData {
    /// Appends another mesh.
    pub fn merge(&mut self, other: &MeshData) {
        let base = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.normals.extend_from_slice(&other.normals);
        self.indices.extend(other.indices.iter().map(|i| i + base));
    }

    /// Moves, rotates and scales every vertex (scale first, then rotation, then move).
    pub fn transformed(mut self, translation: Vec3, rotation: Quat, scale: f32) -> MeshData {
        for p in &mut self.positions {
            *p = rotation * (*p * scale) + translation;
        }
        for n in &mut self.normals {
            *n = (rotation * *n).normalize_or_zero();
        }
        self
    }

    /// Highest point, for stacking parts.
    pub fn top(&self) -> f32 {
        self.positions.iter().map(|p| p.y).fold(f32::MIN, f32::max)
    }

    pub fn into_mesh(self) -> Mesh {
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, self.normals)
        .with_inserted_indices(Indices::U32(self.indices))
    }
}

/// How finely curved surfaces are cut into triangles.
///
/// Software rasterisers shade whole 4x4 pixel blocks per triangle, so a piece made of
/// a thousand triangles a few pixels wide costs them many times its area; there the
/// models are built coarser. GPUs get the fine cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    #[default]
    Fine,
    Coarse,
}

impl Detail {
    /// The cut a rasteriser can afford: coarse where pixels are shaded on the CPU.
    pub fn for_rasteriser(rasteriser: crate::machine::Rasteriser) -> Detail {
        match rasteriser {
            crate::machine::Rasteriser::Gpu => Detail::Fine,
            crate::machine::Rasteriser::Software => Detail::Coarse,
        }
    }

    /// Segments around a surface of revolution.
    pub fn segments(self) -> usize {
        match self {
            Detail::Fine => 28,
            Detail::Coarse => 12,
        }
    }

    /// Steps along an arc drawn with `fine` steps at full detail.
    pub fn arc_steps(self, fine: usize) -> usize {
        match self {
            Detail::Fine => fine,
            Detail::Coarse => (fine / 3).max(2),
        }
    }
}

/// A surface of revolution around the Y axis. `profile` lists (radius, height) points
/// from the bottom of the axis to its top; normals are smoothed along the profile
/// except at sharp corners (more than 50 degrees), which stay crisp.
pub fn lathe(profile: &[Vec2], segments: usize) -> MeshData {
    lathe_between(profile, segments, 0.0, std::f32::consts::TAU)
}

/// A lathed shape cut in two by the XY plane, the halves `gap` apart along Z and each
/// closed by its flat cut face: a bishop's mitre with its slit. `segments` is for the
/// whole turn, as in [`lathe`].
pub fn split_lathe(profile: &[Vec2], segments: usize, gap: f32) -> MeshData {
    use std::f32::consts::PI;
    let half = (segments / 2).max(2);
    // The cut face: the profile out along +X, back down along -X (one point on the axis).
    let mut face: Vec<Vec2> = profile.to_vec();
    face.extend(
        profile
            .iter()
            .rev()
            .filter(|p| p.x > 1e-6)
            .map(|p| Vec2::new(-p.x, p.y)),
    );
    face.dedup_by(|a, b| a.distance(*b) < 1e-6);
    let tris = triangulate(&face);
    let mut m = MeshData::default();
    // Angles 0 to PI sweep +Z; their cut face looks toward -Z, into the gap.
    for (from, side) in [(0.0, 1.0_f32), (PI, -1.0)] {
        let mut shell = lathe_between(profile, half, from, from + PI);
        let base = shell.positions.len() as u32;
        let normal = Vec3::new(0.0, 0.0, -side);
        for p in &face {
            shell.positions.push(Vec3::new(p.x, p.y, 0.0));
            shell.normals.push(normal);
        }
        for t in &tris {
            let [a, b, c] = t.map(|i| base + i as u32);
            // `triangulate` winds counter-clockwise seen from +Z.
            shell
                .indices
                .extend_from_slice(&if side > 0.0 { [a, c, b] } else { [a, b, c] });
        }
        m.merge(&shell.transformed(Vec3::new(0.0, 0.0, side * gap / 2.0), Quat::IDENTITY, 1.0));
    }
    m
}

/// The surface of revolution swept from angle `from` to `to` (radians, from +X toward
/// +Z).
fn lathe_between(profile: &[Vec2], segments: usize, from: f32, to: f32) -> MeshData {
    let mut m = MeshData::default();
    let n = profile.len();
    for i in 0..n.saturating_sub(1) {
        let (a, b) = (profile[i], profile[i + 1]);
        let dir = (b - a).normalize_or_zero();
        // Outward normal of the segment in the (r, y) plane.
        let seg_normal = Vec2::new(dir.y, -dir.x);
        let smooth = |k: usize| -> Vec2 {
            let mut acc = seg_normal;
            if k > 0 && k < n - 1 {
                let (p, q) = (profile[k - 1], profile[k + 1]);
                let other = if k == i {
                    (profile[k] - p).normalize_or_zero()
                } else {
                    (q - profile[k]).normalize_or_zero()
                };
                let other_normal = Vec2::new(other.y, -other.x);
                if other_normal.dot(seg_normal) > 0.64 {
                    acc = (seg_normal + other_normal).normalize_or_zero();
                }
            }
            acc
        };
        let (na, nb) = (smooth(i), smooth(i + 1));
        let base = m.positions.len() as u32;
        for s in 0..=segments {
            let t = from + (to - from) * s as f32 / segments as f32;
            let (sin, cos) = t.sin_cos();
            for (p, nn) in [(a, na), (b, nb)] {
                m.positions.push(Vec3::new(p.x * cos, p.y, p.x * sin));
                m.normals
                    .push(Vec3::new(nn.x * cos, nn.y, nn.x * sin).normalize_or_zero());
            }
        }
        for s in 0..segments as u32 {
            let (a0, b0, a1, b1) = (
                base + 2 * s,
                base + 2 * s + 1,
                base + 2 * s + 2,
                base + 2 * s + 3,
            );
            m.indices.extend_from_slice(&[a0, b0, a1, a1, b0, b1]);
        }
    }
    m
}

/// Points on a circular arc in the (r, y) plane, for round heads and domes.
pub fn arc(center: Vec2, radius: f32, from_deg: f32, to_deg: f32, steps: usize) -> Vec<Vec2> {
    (0..=steps)
        .map(|i| {
            let a = (from_deg + (to_deg - from_deg) * i as f32 / steps as f32).to_radians();
            center + Vec2::new(a.cos(), a.sin()) * radius
        })
        .collect()
}

/// Triangulates a simple polygon (either winding) by ear clipping.
pub fn triangulate(poly: &[Vec2]) -> Vec<[usize; 3]> {
    let n = poly.len();
    if n < 3 {
        return Vec::new();
    }
    let area: f32 = (0..n)
        .map(|i| poly[i].perp_dot(poly[(i + 1) % n]))
        .sum::<f32>()
        / 2.0;
    let ccw = area > 0.0;
    let mut idx: Vec<usize> = (0..n).collect();
    let mut out = Vec::new();
    let mut guard = 0;
    while idx.len() > 3 && guard < 10 * n * n {
        guard += 1;
        let m = idx.len();
        let mut clipped = false;
        for i in 0..m {
            let (ia, ib, ic) = (idx[(i + m - 1) % m], idx[i], idx[(i + 1) % m]);
            let (a, b, c) = (poly[ia], poly[ib], poly[ic]);
            let cross = (b - a).perp_dot(c - b);
            if (cross > 0.0) != ccw || cross.abs() < 1e-9 {
                continue;
            }
            let inside = idx
                .iter()
                .any(|&j| j != ia && j != ib && j != ic && point_in_triangle(poly[j], a, b, c));
            if !inside {
                out.push(if ccw { [ia, ib, ic] } else { [ia, ic, ib] });
                idx.remove(i);
                clipped = true;
                break;
            }
        }
        if !clipped {
            break;
        }
    }
    if idx.len() == 3 {
        let (a, b, c) = (idx[0], idx[1], idx[2]);
        out.push(if ccw { [a, b, c] } else { [a, c, b] });
    }
    out
}

fn point_in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    let d1 = (b - a).perp_dot(p - a);
    let d2 = (c - b).perp_dot(p - b);
    let d3 = (a - c).perp_dot(p - c);
    let neg = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let pos = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(neg && pos)
}

/// A flat polygon in the XY plane extruded along Z by `depth`, centred on Z = 0.
pub fn extrude(poly: &[Vec2], depth: f32) -> MeshData {
    let mut m = MeshData::default();
    let tris = triangulate(poly);
    let h = depth / 2.0;
    for (z, normal, flip) in [(h, Vec3::Z, false), (-h, Vec3::NEG_Z, true)] {
        let base = m.positions.len() as u32;
        for p in poly {
            m.positions.push(Vec3::new(p.x, p.y, z));
            m.normals.push(normal);
        }
        for t in &tris {
            let [a, b, c] = t.map(|i| base + i as u32);
            m.indices
                .extend_from_slice(&if flip { [a, c, b] } else { [a, b, c] });
        }
    }
    // Side walls, with flat normals facing out of the polygon.
    let area: f32 = (0..poly.len())
        .map(|i| poly[i].perp_dot(poly[(i + 1) % poly.len()]))
        .sum();
    let sign = if area > 0.0 { 1.0 } else { -1.0 };
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let e = (b - a).normalize_or_zero();
        let out = Vec3::new(e.y, -e.x, 0.0) * sign;
        let base = m.positions.len() as u32;
        for p in [
            Vec3::new(a.x, a.y, h),
            Vec3::new(b.x, b.y, h),
            Vec3::new(a.x, a.y, -h),
            Vec3::new(b.x, b.y, -h),
        ] {
            m.positions.push(p);
            m.normals.push(out);
        }
        let quad = [base, base + 2, base + 1, base + 1, base + 2, base + 3];
        if sign > 0.0 {
            m.indices.extend_from_slice(&quad);
        } else {
            m.indices
                .extend_from_slice(&[quad[0], quad[2], quad[1], quad[3], quad[5], quad[4]]);
        }
    }
    m
}

/// An axis-aligned box centred on `center`.
pub fn cuboid(center: Vec3, size: Vec3) -> MeshData {
    let mut m = MeshData::default();
    let h = size / 2.0;
    let faces = [
        (Vec3::X, Vec3::Y, Vec3::Z),
        (Vec3::NEG_X, Vec3::Y, Vec3::NEG_Z),
        (Vec3::Y, Vec3::Z, Vec3::X),
        (Vec3::NEG_Y, Vec3::X, Vec3::Z),
        (Vec3::Z, Vec3::X, Vec3::Y),
        (Vec3::NEG_Z, Vec3::Y, Vec3::X),
    ];
    for (n, u, v) in faces {
        let base = m.positions.len() as u32;
        for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            m.positions.push(center + (n + u * su + v * sv) * h);
            m.normals.push(n);
        }
        // Wind counter-clockwise seen from outside.
        if u.cross(v).dot(n) > 0.0 {
            m.indices
                .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
        } else {
            m.indices
                .extend_from_slice(&[base, base + 2, base + 1, base, base + 3, base + 2]);
        }
    }
    m
}

/// A UV sphere, for balls on crowns and coronets.
pub fn ball(center: Vec3, radius: f32, detail: Detail) -> MeshData {
    let around = match detail {
        Detail::Fine => 16,
        Detail::Coarse => 8,
    };
    lathe(
        &arc(Vec2::ZERO, radius, -90.0, 90.0, detail.arc_steps(10)),
        around,
    )
    .transformed(center, Quat::IDENTITY, 1.0)
}

/// A hexagonal prism with its top face at y = 0 and bottom at -height; `flat_top`
/// puts a vertex on the X axis (flat-top boards), otherwise on the Z axis.
pub fn hex_prism(circumradius: f32, height: f32, flat_top: bool) -> MeshData {
    let corners: Vec<Vec2> = (0..6)
        .map(|i| {
            let a = (60.0 * i as f32 + if flat_top { 0.0 } else { 30.0 }).to_radians();
            Vec2::new(a.cos(), a.sin()) * circumradius
        })
        .collect();
    // Extruded along Z, then turned so the polygon lies in XZ with its top facing +Y.
    let rot = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    extrude(&corners, height).transformed(Vec3::new(0.0, -height / 2.0, 0.0), rot, 1.0)
}

/// A flat hexagon (or hexagonal ring when `inner > 0`) in the XZ plane facing up.
pub fn hex_ring(outer: f32, inner: f32, flat_top: bool) -> MeshData {
    let corner = |r: f32, i: usize| {
        let a = (60.0 * i as f32 + if flat_top { 0.0 } else { 30.0 }).to_radians();
        Vec3::new(a.cos() * r, 0.0, -a.sin() * r)
    };
    let mut m = MeshData::default();
    if inner <= 0.0 {
        m.positions.push(Vec3::ZERO);
        m.normals.push(Vec3::Y);
        for i in 0..6 {
            m.positions.push(corner(outer, i));
            m.normals.push(Vec3::Y);
        }
        for i in 0..6u32 {
            m.indices.extend_from_slice(&[0, 1 + i, 1 + (i + 1) % 6]);
        }
    } else {
        for i in 0..6 {
            m.positions.push(corner(outer, i));
            m.positions.push(corner(inner, i));
            m.normals.push(Vec3::Y);
            m.normals.push(Vec3::Y);
        }
        for i in 0..6u32 {
            let (o0, i0, o1, i1) = (2 * i, 2 * i + 1, 2 * ((i + 1) % 6), 2 * ((i + 1) % 6) + 1);
            // Counter-clockwise seen from above, so the ring faces up.
            m.indices.extend_from_slice(&[o0, o1, i0, o1, i1, i0]);
        }
    }
    m
}

/// The visible part of a raised hexagonal frame: a flat rim from `inner` to `outer` at
/// y = 0 and the outer walls down to -height. It has no caps: the cell it frames covers
/// the middle and nothing looks at the bottom, and a software rasteriser pays for every
/// hidden pixel it is given.
pub fn hex_frame(outer: f32, inner: f32, height: f32, flat_top: bool) -> MeshData {
    let mut m = hex_ring(outer, inner, flat_top);
    let prism = hex_prism(outer, height, flat_top);
    let walls: Vec<u32> = prism
        .indices
        .chunks(3)
        .filter(|t| prism.normals[t[0] as usize].y.abs() < 0.5)
        .flatten()
        .copied()
        .collect();
    m.merge(&MeshData {
        positions: prism.positions,
        normals: prism.normals,
        indices: walls,
    });
    m
}

/// A flat disc in the XZ plane facing up.
pub fn disc(radius: f32, segments: usize) -> MeshData {
    let mut m = MeshData::default();
    m.positions.push(Vec3::ZERO);
    m.normals.push(Vec3::Y);
    for s in 0..segments {
        let a = s as f32 / segments as f32 * std::f32::consts::TAU;
        m.positions
            .push(Vec3::new(a.cos() * radius, 0.0, -a.sin() * radius));
        m.normals.push(Vec3::Y);
    }
    for s in 0..segments as u32 {
        m.indices
            .extend_from_slice(&[0, 1 + s, 1 + (s + 1) % segments as u32]);
    }
    m
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn closed_and_consistent(m: &MeshData) {
        assert_eq!(m.positions.len(), m.normals.len());
        assert_eq!(m.indices.len() % 3, 0);
        assert!(m.indices.iter().all(|i| (*i as usize) < m.positions.len()));
        assert!(
            m.normals
                .iter()
                .all(|n| (n.length() - 1.0).abs() < 1e-3 || *n == Vec3::ZERO)
        );
    }

    /// Every triangle of a flat mesh must wind counter-clockwise seen from above, or
    /// the renderer culls it.
    fn faces_up(m: &MeshData) {
        for t in m.indices.chunks(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
            assert!((b - a).cross(c - a).y > 0.0, "a triangle faces down");
        }
    }

    /// Every triangle winds so that it faces the way its corners' normals point (the
    /// renderer culls the others), or is degenerate.
    fn faces_out(m: &MeshData) {
        for t in m.indices.chunks(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
            let facing = (b - a).cross(c - a);
            if facing.length() < 1e-7 {
                continue;
            }
            let normal: Vec3 = [t[0], t[1], t[2]]
                .map(|i| m.normals[i as usize])
                .into_iter()
                .sum();
            assert!(facing.dot(normal) > 0.0, "a triangle faces in: {a} {b} {c}");
        }
    }

    #[test]
    fn a_split_lathe_is_two_closed_halves_a_gap_apart() {
        let profile = [
            Vec2::new(0.0, 0.0),
            Vec2::new(0.3, 0.0),
            Vec2::new(0.2, 0.5),
            Vec2::new(0.0, 0.6),
        ];
        let whole = lathe(&profile, 16);
        faces_out(&whole);
        let m = split_lathe(&profile, 16, 0.1);
        closed_and_consistent(&m);
        faces_out(&m);
        assert!(m.positions.iter().all(|p| p.z.abs() >= 0.05 - 1e-6));
        // Each half has its cut face: flat on the gap, facing into it.
        for side in [1.0, -1.0] {
            let face = m
                .positions
                .iter()
                .zip(&m.normals)
                .filter(|(p, n)| (p.z - side * 0.05).abs() < 1e-6 && n.z == -side)
                .count();
            assert_eq!(face, 2 * profile.len() - 2, "side {side}");
        }
        assert!((m.top() - whole.top()).abs() < 1e-6);
    }

    #[test]
    fn flat_overlays_face_up() {
        for flat in [true, false] {
            faces_up(&hex_ring(1.0, 0.0, flat));
            faces_up(&hex_ring(1.0, 0.7, flat));
        }
        faces_up(&disc(0.3, 16));
    }

    #[test]
    fn hex_frame_is_a_rim_and_outward_walls() {
        for flat in [true, false] {
            let m = hex_frame(1.1, 0.9, 0.3, flat);
            closed_and_consistent(&m);
            assert!(m.top().abs() < 1e-5);
            let mut rim = 0;
            let mut walls = 0;
            for t in m.indices.chunks(3) {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
                let facing = (b - a).cross(c - a).normalize();
                let centre = (a + b + c) / 3.0;
                if facing.y > 0.99 {
                    rim += 1;
                    let r = Vec2::new(centre.x, centre.z).length();
                    assert!(r > 0.85, "the rim leaves the middle open");
                } else {
                    walls += 1;
                    assert!(facing.y.abs() < 1e-4, "no caps");
                    let out = Vec2::new(centre.x, centre.z);
                    assert!(
                        out.dot(Vec2::new(facing.x, facing.z)) > 0.0,
                        "walls face out"
                    );
                }
            }
            assert_eq!((rim, walls), (12, 12));
        }
    }

    #[test]
    fn hex_prism_top_faces_up_at_zero() {
        let m = hex_prism(1.0, 0.2, true);
        closed_and_consistent(&m);
        assert!((m.top()).abs() < 1e-5);
        let ups = m.normals.iter().filter(|n| n.y > 0.99).count();
        assert_eq!(ups, 6, "one upward face of six corners");
    }
}
