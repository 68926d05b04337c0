//! The trainer's endgame tables built off the frame: natively on a thread of their own,
//! written to the player's files as each is done; in a browser by an engine worker of
//! their own, whose tables come back as files into the page's store.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use hexchess_core::Rules;
use hexchess_files::Files;
use hexchess_tablebase::Material;

use super::Answer;

/// How long a table built for the trainer is kept: on disk natively; in a browser in
/// the page's memory (megabytes are too many for its storage).
#[cfg(not(target_arch = "wasm32"))]
pub const KEPT: &str = "it is saved for next time";
/// How long a table built for the trainer is kept: on disk natively; in a browser in
/// the page's memory (megabytes are too many for its storage).
#[cfg(target_arch = "wasm32")]
pub const KEPT: &str = "it is kept while this page is open";

/// What a build is asked: the tables `material` needs that are not in `dir` among
/// `files` yet.
pub struct TablebaseRequest {
    /// The player's files.
    pub files: Files,
    /// The folder of tables.
    pub dir: PathBuf,
    /// The variant's two-player rules.
    pub rules: Arc<Rules>,
    /// The ending, as its rules read it.
    pub material: Material,
    /// The variant's id and the ending's name (what a worker is told).
    pub variant: String,
    /// The ending's name (`KRvK`).
    pub ending: String,
}

/// A build running: its last progress line, and its answer when the frame asks.
pub struct TablebaseBuild {
    progress: Arc<Mutex<String>>,
    work: Work,
}

#[cfg(not(target_arch = "wasm32"))]
type Work = super::Job<Result<(), String>>;
#[cfg(target_arch = "wasm32")]
type Work = crate::web::worker::TablebaseBuild;

impl TablebaseBuild {
    /// Starts building what `request` asks for.
    pub fn start(request: TablebaseRequest) -> Result<TablebaseBuild, String> {
        let progress = Arc::new(Mutex::new(String::from("starting")));
        let work = begin(request, Arc::clone(&progress))?;
        Ok(TablebaseBuild { progress, work })
    }

    /// What it is doing (the build's last progress line).
    pub fn progress(&self) -> String {
        self.progress.lock().map(|p| p.clone()).unwrap_or_default()
    }

    /// Asks the build to stop (tables finished stay).
    pub fn stop(&self) {
        self.work.stop();
    }

    /// Whether it is done, and how it went.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn poll(&mut self) -> Answer<Result<(), String>> {
        self.work.poll()
    }

    /// Whether it is done, and how it went.
    #[cfg(target_arch = "wasm32")]
    pub fn poll(&mut self) -> Answer<Result<(), String>> {
        use crate::web::worker::Built;
        match self.work.poll() {
            Built::Working(Some(line)) => {
                if let Ok(mut p) = self.progress.lock() {
                    *p = line;
                }
                Answer::Pending
            }
            Built::Working(None) => Answer::Pending,
            Built::Done(outcome) => Answer::Ready(outcome),
        }
    }
}

/// On a thread: every core but the one the frames need.
#[cfg(not(target_arch = "wasm32"))]
fn begin(request: TablebaseRequest, progress: Arc<Mutex<String>>) -> Result<Work, String> {
    Ok(super::Job::start(
        "hexchess-tables",
        super::SMALL_STACK,
        move |halt| {
            let mut tell = |line: &str| {
                if let Ok(mut p) = progress.lock() {
                    *p = line.to_string();
                }
            };
            let threads = crate::machine::cores().saturating_sub(1).max(1);
            let folder = hexchess_tablebase::TableFolder {
                files: &request.files,
                dir: &request.dir,
            };
            hexchess_tablebase::build_missing(
                folder,
                &request.rules,
                &request.material,
                &mut tell,
                &halt,
                threads,
                &mut |_| {},
            )
        },
    ))
}

/// In a worker of its own, which knows the variant by id.
#[cfg(target_arch = "wasm32")]
fn begin(request: TablebaseRequest, progress: Arc<Mutex<String>>) -> Result<Work, String> {
    let _ = progress;
    crate::web::worker::TablebaseBuild::start(&request.variant, &request.ending)
}
