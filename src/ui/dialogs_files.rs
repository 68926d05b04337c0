//! The system's own open and save dialogs, run on a thread of their own (a dialog
//! blocks until the player chooses) and collected by a system when the choice is made.
//! Where the platform has no dialog to offer (a Linux desktop without the portal
//! service), the dialog answers as if cancelled and the path field still works.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use bevy::prelude::*;

use crate::game::GameNotice;
use crate::game::files::OpenFile;

/// What a dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Purpose {
    Open,
    Save,
}

/// The dialog waiting for the player's choice, if one is open.
#[derive(Resource, Default)]
pub(super) struct FileDialog {
    /// The purpose, and where the dialog's thread sends the choice (behind a lock: a
    /// resource is shared between threads, a receiver alone may not be).
    waiting: Option<(Purpose, Mutex<Receiver<Option<PathBuf>>>)>,
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
    pub(super) fn open(&mut self, purpose: Purpose, dir: PathBuf, name: String) {
        if self.is_open() {
            return;
        }
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("hexchess-file-dialog".into())
            .spawn(move || {
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
                let _ = tx.send(chosen.map(|f| f.path().to_path_buf()));
            });
        if spawned.is_ok() {
            self.waiting = Some((purpose, Mutex::new(rx)));
        }
    }
}

/// A choice made: open the file, or save to it.
pub(super) fn collect_choices(
    mut dialog: ResMut<FileDialog>,
    mut open: MessageWriter<OpenFile>,
    mut save: MessageWriter<SaveTo>,
    mut notices: MessageWriter<GameNotice>,
) {
    let Some((purpose, rx)) = &dialog.waiting else {
        return;
    };
    let purpose = *purpose;
    let received = match rx.lock() {
        Ok(rx) => rx.try_recv(),
        Err(_) => Err(TryRecvError::Disconnected),
    };
    let chosen = match received {
        Err(TryRecvError::Empty) => return,
        Ok(chosen) => chosen,
        Err(TryRecvError::Disconnected) => {
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
