//! The per-user folders hexchess keeps its files in, where each platform expects them
//! (found by the `directories` crate, which follows the XDG base directories on Linux,
//! the Known Folders on Windows and the Standard Directories on macOS):
//!
//! | | Linux | macOS | Windows |
//! |---|---|---|---|
//! | data (variants, tables, autosave) | `~/.local/share/hexchess` | `~/Library/Application Support/hexchess` | `%APPDATA%\hexchess\data` |
//! | config (settings) | `~/.config/hexchess` | `~/Library/Application Support/hexchess` | `%APPDATA%\hexchess\config` |
//!
//! `HEXCHESS_DATA_DIR` and `HEXCHESS_CONFIG_DIR` put either somewhere else (tests, a
//! portable install on a stick).

use std::path::PathBuf;

use directories::ProjectDirs;

fn project() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "hexchess")
}

/// Where variant files, endgame tables and the autosaved game live; `None` on a
/// system with no home folder.
pub fn data_dir() -> Option<PathBuf> {
    std::env::var_os("HEXCHESS_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| project().map(|p| p.data_dir().to_path_buf()))
}

/// Where the player's settings live; `None` on a system with no home folder.
pub fn config_dir() -> Option<PathBuf> {
    std::env::var_os("HEXCHESS_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| project().map(|p| p.config_dir().to_path_buf()))
}
