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

/// The folder an environment variable names; set but empty counts as not set (an empty
/// path would otherwise mean the current folder, and files would land wherever the
/// program happened to start).
fn override_dir(variable: &str) -> Option<PathBuf> {
    folder_named(std::env::var_os(variable))
}

fn folder_named(value: Option<std::ffi::OsString>) -> Option<PathBuf> {
    value.filter(|v| !v.is_empty()).map(PathBuf::from)
}

fn project() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "hexchess")
}

/// Where variant files, endgame tables and the autosaved game live; `None` on a
/// system with no home folder.
pub fn data_dir() -> Option<PathBuf> {
    if crate::files::page_store().is_some() {
        return Some(PathBuf::from(PAGE_DATA));
    }
    override_dir("HEXCHESS_DATA_DIR").or_else(|| project().map(|p| p.data_dir().to_path_buf()))
}

/// The folders' names in a page store ([`crate::files::PageStore`]): keys of the
/// browser's storage, not folders on a disk.
pub const PAGE_DATA: &str = "/hexchess/data";
pub const PAGE_CONFIG: &str = "/hexchess/config";

/// Where the player's settings live; `None` on a system with no home folder.
pub fn config_dir() -> Option<PathBuf> {
    if crate::files::page_store().is_some() {
        return Some(PathBuf::from(PAGE_CONFIG));
    }
    override_dir("HEXCHESS_CONFIG_DIR").or_else(|| project().map(|p| p.config_dir().to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_variable_names_no_folder() {
        assert_eq!(folder_named(None), None);
        assert_eq!(folder_named(Some("".into())), None);
        assert_eq!(
            folder_named(Some("/tmp/x".into())),
            Some(PathBuf::from("/tmp/x"))
        );
    }
}
