//! The game in a browser (`wasm32`): what a page has in place of a desktop's files,
//! threads and command line. On a desktop this folder is empty.
//!
//! - `store`: the player's files (settings, autosave, online secrets, uploads) in
//!   the page's `localStorage`, and saved games as downloads, behind
//!   [`hexchess_files::PageStore`] ([`player_files`]);
//! - `page`: the command line read from the page's address (`#challenge=CODE`,
//!   `?variant=mccooey`), files chosen with the browser's file picker;
//! - `worker`: the engine in its Web Worker, searched as the native opponent is;
//! - [`lines`]: the address and the worker's protocol lines as text (on every
//!   platform, so that they are tested everywhere).

pub mod lines;
#[cfg(target_arch = "wasm32")]
pub mod page;
#[cfg(target_arch = "wasm32")]
pub mod store;
#[cfg(target_arch = "wasm32")]
pub mod worker;

/// The player's files on this platform: the disk, or in a browser the page's storage
/// (every value made there reads and writes the same `localStorage`).
pub fn player_files() -> hexchess_files::Files {
    #[cfg(target_arch = "wasm32")]
    return hexchess_files::Files::pages(store::LocalStorage);
    #[cfg(not(target_arch = "wasm32"))]
    hexchess_files::Files::disk()
}

/// The command line a page's address gives (`?variant=mccooey`, `#challenge=CODE`), in
/// a browser; none on a desktop, whose process has its own.
pub fn page_args() -> Option<Vec<String>> {
    #[cfg(target_arch = "wasm32")]
    return Some(page::args());
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// A line the game writes to the browser's console at moments a test waits for (the
/// board shown, the engine's move, an online game joined): `hexchess: <what>`.
pub fn milestone(what: &str) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::log_1(&format!("hexchess: {what}").into());
    #[cfg(not(target_arch = "wasm32"))]
    let _ = what;
}
