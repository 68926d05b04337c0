//! The game's tests, in one binary: each module below was once a test binary of its
//! own, and each linked all of Bevy again (sixteen links of the same code on every
//! `cargo test`). One binary links once; the modules keep their own subjects. Only
//! `tests/engine_responsiveness.rs` stays apart: it times frames while the engine thinks,
//! and the other modules' engine threads would compete with it for the cores.

mod common;

mod analysis;
mod board_play;
mod confirm;
mod editor;
mod files;
mod game_review;
mod hover;
mod layout;
mod online_play;
mod online_table;
mod play_engine;
mod players;
mod prefs;
mod redraw;
mod sound;
mod table_play;
mod touch;
mod variant_reload;
mod variations;
