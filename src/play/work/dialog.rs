//! Choosing a file: the system's own open and save dialogs, run on a thread of their
//! own (a dialog blocks until the player chooses); in a browser the page's file picker
//! (the file comes back through [`picked_files`]) and downloads for a save.
//!
//! Where the platform has no dialog to offer (a Linux desktop without the portal
//! service), the dialog answers as if cancelled and the path field still works.

use std::path::PathBuf;

use super::{Answer, Job, SMALL_STACK};

/// What a dialog is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A game, position or variant file to open.
    Open,
    /// Where to save the game as PGN.
    Save,
}

/// A dialog waiting for the player's choice; its answer is the path chosen (none:
/// cancelled, or a picker whose file comes later through [`picked_files`]).
pub struct Dialog(Job<Option<PathBuf>>);

impl Dialog {
    /// Opens the dialog for `purpose`, starting in `dir`, suggesting `name` for a save.
    pub fn open(purpose: Purpose, dir: PathBuf, name: String) -> Dialog {
        Dialog(start(purpose, dir, name))
    }

    /// The choice, once made (given once), without waiting.
    pub fn poll(&mut self) -> Answer<Option<PathBuf>> {
        self.0.poll()
    }
}

/// The system's dialog on a thread. A dialog cannot be stopped: it waits for the
/// player, whatever the flag says.
#[cfg(not(target_arch = "wasm32"))]
fn start(purpose: Purpose, dir: PathBuf, name: String) -> Job<Option<PathBuf>> {
    Job::start("hexchess-file-dialog", SMALL_STACK, move |_| {
        let dialog = rfd::AsyncFileDialog::new()
            .set_directory(&dir)
            .add_filter("Games and positions", &["pgn", "txt", "fen", "ron"])
            .add_filter("Everything", &["*"]);
        let chosen = match purpose {
            Purpose::Open => pollster::block_on(dialog.pick_file()),
            Purpose::Save => pollster::block_on(
                dialog
                    .set_file_name(name)
                    .add_filter("PGN", &["pgn"])
                    .save_file(),
            ),
        };
        chosen.map(|f| f.path().to_path_buf())
    })
}

/// In a browser: "open" shows the page's file picker (the file comes back through
/// [`picked_files`]); "save" answers at once with a path in the downloads folder, which
/// the page store turns into a download.
#[cfg(target_arch = "wasm32")]
fn start(purpose: Purpose, dir: PathBuf, name: String) -> Job<Option<PathBuf>> {
    let _ = dir;
    let answer = match purpose {
        Purpose::Open => {
            crate::web::page::pick_file();
            None
        }
        Purpose::Save => Some(PathBuf::from(crate::web::store::DOWNLOADS).join(name)),
    };
    Job::start("hexchess-file-dialog", SMALL_STACK, move |_| answer)
}

/// Files the browser's picker has read since the last call (none on a desktop, whose
/// dialog answers with its path).
pub fn picked_files() -> Vec<PathBuf> {
    #[cfg(target_arch = "wasm32")]
    return crate::web::page::take_picked();
    #[cfg(not(target_arch = "wasm32"))]
    Vec::new()
}
