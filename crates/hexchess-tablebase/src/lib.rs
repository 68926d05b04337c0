//! Endgame tablebases for hexagonal chess: every position of a small ending
//! solved by retrograde analysis, for any variant and its own pieces.
//!
//! Tables are built in memory ([`Table::generate`]), give each position's value with its
//! distance ([`Table::probe`]), and are written to and read from files that refuse to
//! serve other rules ([`Table::write`], [`Table::read`]). Each position is stored once
//! under the board's symmetries, in one byte (docs/tablebases.md).
//!
//! ```
//! use std::sync::Arc;
//! use hexchess_core::Catalog;
//! use hexchess_tablebase::{Material, Table, Value};
//!
//! let catalog = Catalog::builtin();
//! let rules = catalog.get("glinski").unwrap().two_player_rules().unwrap();
//! let material = Material::parse("KQvK", &rules)?;
//! let table = Table::generate(&rules, &material)?;
//! // A position the table calls mate in one: some move mates.
//! let (i, _) = table.values().find(|(_, v)| *v == Value::Win(1)).expect("a mate in one");
//! let pos = table.position(i);
//! assert_eq!(table.probe(&pos), Some(Value::Win(1)));
//! let mates = pos.legal_moves().iter().any(|m| {
//!     let mut after = pos.clone();
//!     after.make_move(*m);
//!     after.in_check() && after.legal_moves().is_empty()
//! });
//! assert!(mates, "{}", pos.to_fen());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod build;
pub mod file;
mod index;
pub mod material;
pub mod table;

pub use build::{GenerateError, Restriction};
pub use file::{
    FORMAT_VERSION, MAX_FILE_BYTES, TableFileError, TableFolder, build_missing, default_dir,
    rules_fingerprint, table_path,
};
pub use material::{MAX_MEN, Material, MaterialError};
pub use table::{Counts, MAX_RULE_PLIES, RuleValue, Ruled, Table, TableError, Value, rule_plies};
