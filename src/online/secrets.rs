//! The secret each server gave this player, kept in `online-secrets.txt` in the data
//! folder: one line per server, `ADDRESS SECRET`. The secret is the only proof of who
//! an anonymous player is; losing the file means a new anonymous player next time.

use std::path::{Path, PathBuf};

/// The file, in the per-user data folder.
pub fn default_file() -> Option<PathBuf> {
    hexchess_core::folders::data_dir().map(|d| d.join("online-secrets.txt"))
}

/// The secret kept for `server`.
pub fn read(file: &Path, server: &str) -> Option<String> {
    let text = hexchess_core::files::read_text(file, 1 << 20).ok()?;
    text.lines().find_map(|line| {
        let (address, secret) = line.split_once(' ')?;
        (address == server).then(|| secret.trim().to_string())
    })
}

/// Keeps `secret` for `server` (the file written whole, the other servers' kept).
pub fn write(file: &Path, server: &str, secret: &str) -> std::io::Result<()> {
    if read(file, server).as_deref() == Some(secret) {
        return Ok(());
    }
    let old = hexchess_core::files::read_text(file, 1 << 20).unwrap_or_default();
    let mut text: String = old
        .lines()
        .filter(|l| l.split_once(' ').is_some_and(|(a, _)| a != server))
        .map(|l| format!("{l}\n"))
        .collect();
    text.push_str(&format!("{server} {secret}\n"));
    // (The folder is made if missing.)
    hexchess_core::files::write_atomic(file, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_kept_per_server() {
        let dir = std::env::temp_dir().join(format!("hexchess-secrets-{}", std::process::id()));
        let file = dir.join("online-secrets.txt");
        let _ = std::fs::remove_file(&file);
        assert_eq!(read(&file, "ws://a/socket"), None);
        write(&file, "ws://a/socket", "aaa").unwrap();
        write(&file, "ws://b/socket", "bbb").unwrap();
        write(&file, "ws://a/socket", "ccc").unwrap();
        assert_eq!(read(&file, "ws://a/socket").as_deref(), Some("ccc"));
        assert_eq!(read(&file, "ws://b/socket").as_deref(), Some("bbb"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
