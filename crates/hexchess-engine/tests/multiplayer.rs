//! The engine for games of more sides: every search returns a legal whole turn, takes
//! a king that hangs, and never plays past its budget.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use hexchess_core::Catalog;
use hexchess_core::game::Game;
use hexchess_engine::multi::{MultiLimits, MultiSearcher, Strategy};

fn three() -> Game {
    let catalog = Catalog::builtin();
    let entry = catalog.get("hexachess-3").expect("built in");
    Game::new(Arc::clone(entry.rules()))
}

#[test]
fn every_search_plays_legal_turns_within_its_budget() {
    let stop = Arc::new(AtomicBool::new(false));
    for strategy in Strategy::ALL {
        let mut game = three();
        let mut searcher = MultiSearcher::new(strategy, 7);
        for _ in 0..9 {
            let choice = searcher
                .choose(&game, &MultiLimits::nodes(400), &stop)
                .expect("a turn");
            assert!(choice.nodes <= 400, "{strategy}: {} nodes", choice.nodes);
            let before = game.turns().len();
            for step in &choice.steps {
                assert!(game.play(*step).is_ok(), "{strategy}: {step:?} not allowed");
            }
            assert!(game.turns().len() > before, "{strategy}: the turn ended");
        }
    }
}
