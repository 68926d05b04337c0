//! The file dialog of the panel's Open… and Save as… ([`crate::play::work::dialog`]),
//! collected by a system when the choice is made.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::game::GameNotice;
use crate::game::files::OpenFile;
use crate::play::work::Answer;
pub(super) use crate::play::work::dialog::Purpose;
use crate::play::work::dialog::{Dialog, picked_files};

/// The dialog waiting for the player's choice, if one is open.
#[derive(Resource, Default)]
pub(super) struct FileDialog {
    /// The purpose, and the dialog, whose answer is the path chosen.
    waiting: Option<(Purpose, Dialog)>,
}

/// A path chosen in a save dialog, for the panel to save to.
#[derive(Message, Clone, Debug)]
pub(super) struct SaveTo(pub PathBuf);

impl FileDialog {
    pub(super) fn is_open(&self) -> bool {
        self.waiting.is_some()
    }

    /// Opens the dialog for `purpose` ([`Dialog::open`]), unless one is open.
    pub(super) fn open(&mut self, purpose: Purpose, dir: PathBuf, name: String) {
        if self.is_open() {
            return;
        }
        self.waiting = Some((purpose, Dialog::open(purpose, dir, name)));
    }
}

/// Files a browser's picker has read since the last frame, opened as a dropped file
/// is.
pub(super) fn open_picked_files(mut open: MessageWriter<OpenFile>) {
    for path in picked_files() {
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
