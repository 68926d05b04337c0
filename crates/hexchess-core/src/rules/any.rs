//! Rules with the cell sets their board needs, chosen per variant.

use std::sync::Arc;

use super::{Rules, RulesError};
use crate::bitboard::{Bitboard, CellSet, WideBitboard};
use crate::variant::Variant;

/// A variant compiled with the narrow cell sets (one 128-bit word, every board of up to
/// 128 cells: the fast path every two-player variant takes) or the wide ones (bigger
/// boards). A program holds this and dispatches once, at the top; everything below is
/// compiled for one width.
#[derive(Clone, Debug)]
pub enum AnyRules {
    /// A board of up to 128 cells, on [`Bitboard`]s.
    Narrow(Arc<Rules<Bitboard>>),
    /// A bigger board, on [`WideBitboard`]s.
    Wide(Arc<Rules<WideBitboard>>),
}

impl AnyRules {
    /// Compiles `v` with the narrowest cell sets its board fits in.
    pub fn compile(v: &dyn Variant) -> Result<AnyRules, RulesError> {
        if v.cells().len() <= Bitboard::CAPACITY {
            Ok(AnyRules::Narrow(Arc::new(Rules::compile(v)?)))
        } else {
            Ok(AnyRules::Wide(Arc::new(Rules::compile(v)?)))
        }
    }

    /// How many cells the board has.
    pub fn cell_count(&self) -> usize {
        match self {
            AnyRules::Narrow(r) => r.board().len(),
            AnyRules::Wide(r) => r.board().len(),
        }
    }

    /// How many sides play.
    pub fn side_count(&self) -> usize {
        match self {
            AnyRules::Narrow(r) => r.side_count(),
            AnyRules::Wide(r) => r.side_count(),
        }
    }
}
