//! How a theme's marks look to players with colour-vision deficiencies, to check that a
//! theme keeps them apart: each colour is turned into what a protanope, deuteranope or
//! tritanope sees (Machado, Oliveira and Fernandes 2009, full severity, in linear RGB),
//! and marks are compared by their CIE 1976 colour difference (ΔE, in CIELAB) as they
//! appear laid over the board's cells.

use super::theme::{Rgb, Rgba, Theme};

/// How colours are seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vision {
    Normal,
    Protanopia,
    Deuteranopia,
    Tritanopia,
}

impl Vision {
    pub const ALL: [Vision; 4] = [
        Vision::Normal,
        Vision::Protanopia,
        Vision::Deuteranopia,
        Vision::Tritanopia,
    ];

    /// Machado et al.'s matrix for full severity (linear RGB in, linear RGB out).
    fn matrix(self) -> [[f64; 3]; 3] {
        match self {
            Vision::Normal => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            Vision::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Vision::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Vision::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        }
    }

    /// An sRGB colour (0-1) as this vision sees it, in CIELAB.
    pub fn lab(self, c: [f64; 3]) -> [f64; 3] {
        let linear = c.map(to_linear);
        let m = self.matrix();
        let seen: [f64; 3] = std::array::from_fn(|i| {
            (m[i][0] * linear[0] + m[i][1] * linear[1] + m[i][2] * linear[2]).clamp(0.0, 1.0)
        });
        linear_to_lab(seen)
    }
}

fn to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Linear sRGB (D65) to CIELAB.
fn linear_to_lab([r, g, b]: [f64; 3]) -> [f64; 3] {
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// CIE 1976 ΔE between two CIELAB colours.
pub fn delta_e(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// A translucent mark laid over a cell, as drawn (sRGB blending, as the overlay is).
fn over(mark: Rgba, cell: Rgb) -> [f64; 3] {
    let a = f64::from(mark.3);
    [
        f64::from(mark.0) * a + f64::from(cell.0) * (1.0 - a),
        f64::from(mark.1) * a + f64::from(cell.1) * (1.0 - a),
        f64::from(mark.2) * a + f64::from(cell.2) * (1.0 - a),
    ]
}

/// The least difference, under `vision`, between two of the theme's cell marks (last
/// move, selected, check, capture) laid over the same cell, or between a mark and the
/// bare cell, over every cell colour; with the two things compared.
pub fn weakest_contrast(theme: &Theme, vision: Vision) -> (f64, String) {
    let h = &theme.highlights;
    let marks = [
        ("last move", h.last_move),
        ("selected", h.selected),
        ("check", h.check),
        ("capture", h.capture),
        ("target", h.target),
    ];
    let mut weakest = (f64::MAX, String::new());
    for (i, &cell) in theme.board.cells.iter().enumerate() {
        let bare = vision.lab([cell.0, cell.1, cell.2].map(f64::from));
        for (k, &(name, mark)) in marks.iter().enumerate() {
            let seen = vision.lab(over(mark, cell));
            let d = delta_e(seen, bare);
            if d < weakest.0 {
                weakest = (d, format!("{name} on cell colour {i}"));
            }
            for &(other, mark2) in &marks[k + 1..] {
                let d = delta_e(seen, vision.lab(over(mark2, cell)));
                if d < weakest.0 {
                    weakest = (d, format!("{name} and {other} on cell colour {i}"));
                }
            }
        }
    }
    weakest
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The least ΔE the contrast theme keeps between any two marks, or a mark and its
    /// cell, for every vision. About 10 is "clearly different" at a glance.
    const CONTRAST_FLOOR: f64 = 12.0;

    #[test]
    fn the_simulation_keeps_greys_and_merges_red_with_green_for_a_deuteranope() {
        // Greys are seen as they are by every vision.
        for v in Vision::ALL {
            let grey = [0.5, 0.5, 0.5];
            assert!(
                delta_e(v.lab(grey), Vision::Normal.lab(grey)) < 1.0,
                "{v:?}"
            );
        }
        // A pure red and a green of the same lightness: far apart normally, close for a
        // deuteranope (the classic confusion the matrices model).
        let (red, green) = ([0.8, 0.3, 0.2], [0.45, 0.55, 0.2]);
        let normal = delta_e(Vision::Normal.lab(red), Vision::Normal.lab(green));
        let deutan = delta_e(
            Vision::Deuteranopia.lab(red),
            Vision::Deuteranopia.lab(green),
        );
        assert!(normal > 40.0 && deutan < normal / 3.0, "{normal} {deutan}");
    }

    #[test]
    fn the_contrast_theme_keeps_its_marks_apart_for_every_vision() {
        let theme = Theme::shipped("contrast").expect("shipped");
        for v in Vision::ALL {
            let (d, what) = weakest_contrast(&theme, v);
            assert!(d >= CONTRAST_FLOOR, "{v:?}: {what} differ by only {d:.1}");
        }
        // The classic theme is not made for it: some pair falls below the floor.
        let classic = Theme::default();
        let worst = Vision::ALL
            .iter()
            .map(|&v| weakest_contrast(&classic, v).0)
            .fold(f64::MAX, f64::min);
        assert!(worst < CONTRAST_FLOOR, "{worst}");
    }
}
