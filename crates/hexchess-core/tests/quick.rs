use hexchess_core::variant::builtin;
use hexchess_core::{Position, Rules};
use std::sync::Arc;

#[test]
fn quick() {
    for id in ["glinski", "mccooey", "grand", "standard"] {
        let spec = builtin(id).unwrap().unwrap();
        let rules = Arc::new(Rules::new(&spec).unwrap());
        let mut pos = Position::start(rules);
        println!("{id}: {}", pos.to_fen());
        for d in 1..=3 {
            println!("  d{d} {}", pos.perft(d));
        }
    }
}
