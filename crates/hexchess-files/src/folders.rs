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

/// The data folder on a disk; `None` on a system with no home folder.
pub(crate) fn data_dir() -> Option<PathBuf> {
    override_dir("HEXCHESS_DATA_DIR").or_else(|| project().map(|p| p.data_dir().to_path_buf()))
}

/// The data folder's name in a page store ([`crate::PageStore`]): a prefix of the
/// browser's storage keys, not a folder on a disk.
pub const PAGE_DATA: &str = "/hexchess/data";
/// The config folder's name in a page store.
pub const PAGE_CONFIG: &str = "/hexchess/config";

/// The config folder on a disk; `None` on a system with no home folder.
pub(crate) fn config_dir() -> Option<PathBuf> {
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
