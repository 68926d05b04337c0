//! Opening games, positions and variants from files and text: a game file (PGN, or the
//! text records of earlier versions) of one game or many, a position (hex FEN), or a
//! variant file (RON); from a path (the side panel, a file dropped on the window) or
//! from the clipboard. What cannot be read says which game, line and column, and
//! nothing else changes.

use hexchess_files::{Files, variants};

use crate::PlayerFiles;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;
use hexchess_core::Catalog;
use hexchess_core::Game;
use hexchess_core::pgn::{PgnGame, read_games};

use super::{CurrentGame, GameNotice, LoadRequest, NewGameRequest, Variants};

/// The largest file opened: a game file of this size holds tens of thousands of games.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Open this file (its kind by its extension: `.ron` a variant, `.fen` a position,
/// anything else a game file).
#[derive(Message, Clone, Debug)]
pub struct OpenFile(pub PathBuf);

/// Open this text (pasted): a game or games in PGN, or a position in hex FEN.
#[derive(Message, Clone, Debug)]
pub struct OpenText(pub String);

/// The whole tree of a game just loaded (its side lines, comments and annotations), for
/// the analysis board's tree of lines; sent with the [`LoadRequest`] of its main line.
#[derive(Message, Clone, Debug)]
pub struct LoadTree(pub hexchess_core::pgn::GameTree);

/// A two-player game read from a file, checked: its main line to load and, when every
/// side line replays too, its tree in canonical SAN.
pub fn loadable(game: &PgnGame, catalog: &Catalog) -> (PgnGame, Option<LoadTree>) {
    let mut checked = game.clone();
    let tree = checked.replay(catalog).ok().map(|_| LoadTree(checked.tree));
    (game.main_line_only(), tree)
}

/// The games of a file with more than one waiting for the player to pick one; with the games that could not be read.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameChoice {
    /// Where they came from: a file's path, or "the clipboard".
    pub source: String,
    pub games: Vec<PgnGame>,
    pub problems: Vec<String>,
}

/// What a file or text held.
#[derive(Clone, Debug)]
pub enum Opened {
    /// Games, with the problems of those that could not be read.
    Games {
        games: Vec<PgnGame>,
        problems: Vec<String>,
    },
    /// A position of this variant.
    Position { variant: String, fen: String },
    /// A variant file, now loaded: its id.
    Variant(String),
}

/// Reads pasted or loaded text: a hex FEN (tried on `current`'s variant first, then on
/// every other), else games in PGN.
pub fn open_text(text: &str, catalog: &Catalog, current: &str) -> Result<Opened, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("nothing to open: the text is empty".into());
    }
    if looks_like_fen(trimmed) {
        return fen_variant(trimmed, catalog, current).map(|variant| Opened::Position {
            variant,
            fen: trimmed.to_string(),
        });
    }
    let mut games = Vec::new();
    let mut problems = Vec::new();
    for game in read_games(text) {
        match game {
            Ok(g) => games.push(g),
            Err(e) => problems.push(e.to_string()),
        }
    }
    if games.is_empty() {
        return Err(problems
            .first()
            .cloned()
            .unwrap_or_else(|| "no game in the text".into()));
    }
    Ok(Opened::Games { games, problems })
}

/// One line of fields with ranks separated by `/`, and no tags or move numbers.
fn looks_like_fen(text: &str) -> bool {
    !text.contains('\n')
        && !text.starts_with('[')
        && text
            .split_whitespace()
            .next()
            .is_some_and(|f| f.contains('/'))
}

/// The variant a FEN is a position of: `current` if it reads there, else the first
/// other variant where it does; else why it reads in none (as `current` says).
fn fen_variant(fen: &str, catalog: &Catalog, current: &str) -> Result<String, String> {
    let fits = |id: &str| {
        catalog
            .get(id)
            .map(|e| Game::from_fen(std::sync::Arc::clone(e.rules()), fen))
    };
    match fits(current) {
        Some(Ok(_)) => return Ok(current.to_string()),
        Some(Err(e)) => {
            let other = catalog
                .ids()
                .into_iter()
                .find(|id| *id != current && matches!(fits(id), Some(Ok(_))));
            return other
                .map(str::to_string)
                .ok_or_else(|| format!("not a position of any variant: {e}"));
        }
        None => {}
    }
    Err(format!("unknown variant '{current}'"))
}

/// Reads a file: a variant file is loaded into `catalog`; any other is read as text.
pub fn open_path(
    files: &Files,
    path: &Path,
    catalog: &mut Catalog,
    current: &str,
) -> Result<Opened, String> {
    let name = path.display();
    if path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("ron"))
    {
        return match variants::load_file(files, catalog, path) {
            Ok(entry) => Ok(Opened::Variant(entry.id().to_string())),
            Err(e) => Err(e.to_string()),
        };
    }
    // A regular file only (a FIFO would wait forever); bytes that are not UTF-8 read as
    // Latin-1, PGN's own character set.
    let bytes = files
        .read_bytes(path, MAX_FILE_BYTES)
        .map_err(|e| e.to_string())?;
    let text = hexchess_core::text::decode_latin1_fallback(&bytes);
    open_text(&text, catalog, current).map_err(|e| format!("{name}: {e}"))
}

/// What opening a file or text asks of the game.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Opening<'w> {
    load: MessageWriter<'w, LoadRequest>,
    trees: MessageWriter<'w, LoadTree>,
    new_game: MessageWriter<'w, NewGameRequest>,
    notices: MessageWriter<'w, GameNotice>,
}

/// Files dropped on the window open as if chosen.
pub(super) fn open_dropped_files(
    mut drops: MessageReader<FileDragAndDrop>,
    mut open: MessageWriter<OpenFile>,
) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            open.write(OpenFile(path_buf.clone()));
        }
    }
}

/// Opens what was asked for: one game loads at once; several games (or one of an
/// unknown variant) wait in the [`GameChoice`]; a position or a variant starts a
/// new game.
pub(super) fn open_requests(
    (mut files, mut texts): (MessageReader<OpenFile>, MessageReader<OpenText>),
    player: Res<PlayerFiles>,
    mut variants: ResMut<Variants>,
    game: Res<CurrentGame>,
    mut choice: ResMut<GameChoice>,
    mut out: Opening,
) {
    let Opening {
        load,
        trees,
        new_game,
        notices,
    } = &mut out;
    let current = game.rules().id().to_string();
    let mut opened: Vec<(String, Result<Opened, String>)> = Vec::new();
    for OpenFile(path) in files.read() {
        let result = open_path(&player, path, &mut variants.0, &current);
        opened.push((path.display().to_string(), result));
    }
    for OpenText(text) in texts.read() {
        opened.push((
            "the clipboard".into(),
            open_text(text, &variants.0, &current),
        ));
    }
    for (source, result) in opened {
        match result {
            Err(e) => {
                notices.write(GameNotice(format!("cannot open: {e}")));
            }
            Ok(Opened::Position { variant, fen }) => {
                new_game.write(NewGameRequest {
                    variant: Some(variant),
                    fen: Some(fen),
                    moves: Vec::new(),
                });
            }
            Ok(Opened::Variant(id)) => {
                notices.write(GameNotice(format!("loaded the variant '{id}'")));
                crate::web::milestone(&format!("variant opened {id}"));
                new_game.write(NewGameRequest {
                    variant: Some(id),
                    fen: None,
                    moves: Vec::new(),
                });
            }
            Ok(Opened::Games { games, problems }) => {
                for p in &problems {
                    notices.write(GameNotice(format!("{source}: {p}")));
                }
                let known = variants.0.get(games[0].variant()).is_some();
                if games.len() == 1 && problems.is_empty() && known {
                    let (record, tree) = loadable(&games[0], &variants.0);
                    load.write(LoadRequest(record));
                    trees.write_batch(tree);
                } else {
                    *choice = GameChoice {
                        source,
                        games,
                        problems,
                    };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::Arc;

    #[test]
    fn text_opens_as_a_position_of_the_right_variant_or_as_games() {
        let catalog = Catalog::builtin();
        let start =
            |id: &str| hexchess_core::Position::start(Arc::clone(catalog.get(id).unwrap().rules()));
        let (grand, mccooey) = (start("grand"), start("mccooey"));
        // A Grand start pasted while Gliński is on the board: only Grand reads it. A
        // McCooey start fits Gliński's board too, and stays on it.
        let Ok(Opened::Position { variant, .. }) = open_text(&grand.to_fen(), &catalog, "glinski")
        else {
            panic!("a position")
        };
        assert_eq!(variant, "grand");
        let Ok(Opened::Position { variant, .. }) =
            open_text(&mccooey.to_fen(), &catalog, "glinski")
        else {
            panic!("a position")
        };
        assert_eq!(variant, "glinski");
        let two = "[Event \"a\"]\n\n1. f6 *\n\n[Event \"b\"]\n\n1. f6 c5 *\n\n[Event \"c\" oops]\n\n1. f6 *\n";
        let Ok(Opened::Games { games, problems }) = open_text(two, &catalog, "glinski") else {
            panic!("games")
        };
        assert_eq!(games.len(), 2);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("game 3, line 9"), "{problems:?}");
        for bad in ["", "   ", "6/7/8 w - 0 1", "[Event \"x\""] {
            assert!(open_text(bad, &catalog, "glinski").is_err(), "{bad:?}");
        }
    }
}
