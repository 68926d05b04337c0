//! The system's own open and save dialogs, run on a thread of their own (a dialog
//! blocks until the player chooses) and collected by a system when the choice is made.
//! Where the platform has no dialog to offer (a Linux desktop without the portal
//! service), the dialog answers as if cancelled and the path field still works.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::game::GameNotice;
use crate::game::files::OpenFile;
use crate::play::work::{Answer, Job, SMALL_STACK};

/// What a dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Purpose {
    Open,
    Save,
}

/// The dialog waiting for the player's choice, if one is open.
#[derive(Resource, Default)]
pub(super) struct FileDialog {
    /// The purpose, and the dialog's thread, whose answer is the path chosen.
    waiting: Option<(Purpose, Job<Option<PathBuf>>)>,
}

/// A path chosen in a save dialog, for the panel to save to.
#[derive(Message, Clone, Debug)]
pub(super) struct SaveTo(pub PathBuf);

impl FileDialog {
    pub(super) fn is_open(&self) -> bool {
        self.waiting.is_some()
    }

    /// Opens the system's dialog for `purpose`, starting in `dir`, suggesting `name`
    /// for a save.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn open(&mut self, purpose: Purpose, dir: PathBuf, name: String) {
        if self.is_open() {
            return;
        }
        // A dialog cannot be stopped: it waits for the player, whatever the flag says.
        let job = Job::start("hexchess-file-dialog", SMALL_STACK, move |_| {
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
        });
        self.waiting = Some((purpose, job));
    }

    /// In a browser: "open" shows the page's file picker (the file comes back through
    /// [`crate::web::page::take_picked`]); "save" answers at once with a path in the
    /// downloads folder, which the page store turns into a download.
    #[cfg(target_arch = "wasm32")]
    pub(super) fn open(&mut self, purpose: Purpose, dir: PathBuf, name: String) {
        let _ = dir;
        let answer = match purpose {
            Purpose::Open => {
                crate::web::page::pick_file();
                None
            }
            Purpose::Save => Some(PathBuf::from(crate::web::store::DOWNLOADS).join(name)),
        };
        let job = Job::start("hexchess-file-dialog", SMALL_STACK, move |_| answer);
        self.waiting = Some((purpose, job));
    }
}

/// Files the browser's picker has read since the last frame, opened as a dropped
/// file is.
#[cfg(target_arch = "wasm32")]
pub(super) fn open_picked_files(mut open: MessageWriter<OpenFile>) {
    for path in crate::web::page::take_picked() {
        open.write(OpenFile(path));
    }
}

/// A choice made: open the file, or save to it.
pub(super) fn collect_choices(
    mut dialog: ResMut<FileDialog>,
    mut open: MessageWriter<OpenFile>,
    mut save: MessageWriter<SaveTo>,
    mut notices: MessageWriter<GameNotice>,
) {
    let Some((purpose, job)) = dialog.waiting.as_mut() else {
        return;
    };
    let purpose = *purpose;
    let chosen = match job.poll() {
        Answer::Pending => return,
        Answer::Ready(chosen) => chosen,
        Answer::Lost => {
            notices.write(GameNotice("the file dialog could not open".into()));
            None
        }
    };
    dialog.waiting = None;
    match (purpose, chosen) {
        (Purpose::Open, Some(path)) => {
            open.write(OpenFile(path));
        }
        (Purpose::Save, Some(path)) => {
            save.write(SaveTo(path));
        }
        (_, None) => {}
    }
}
