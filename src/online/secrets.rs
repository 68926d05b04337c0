//! The secret each server gave this player, kept in `online-secrets.txt` in the data
//! folder: one line per server, `ADDRESS SECRET`. The secret is the only proof of who
//! an anonymous player is; losing the file means a new anonymous player next time.

use std::path::{Path, PathBuf};

use hexchess_files::Files;

/// Where this player's secrets are kept: a file among the player's files.
#[derive(Clone, Debug)]
pub struct SecretsFile {
    files: Files,
    path: PathBuf,
}

impl SecretsFile {
    /// `online-secrets.txt` in the data folder of `files`, when there is one.
    pub fn in_data_folder(files: &Files) -> Option<SecretsFile> {
        let path = files.data_dir()?.join("online-secrets.txt");
        Some(SecretsFile::at(files.clone(), path))
    }

    /// The file at `path` among `files`.
    pub fn at(files: Files, path: PathBuf) -> SecretsFile {
        SecretsFile { files, path }
    }

    /// The file's path, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The secret kept for `server`.
    pub fn read(&self, server: &str) -> Option<String> {
        let text = self.files.read_text(&self.path, 1 << 20).ok()?;
        text.lines().find_map(|line| {
            let (address, secret) = line.split_once(' ')?;
            (address == server).then(|| secret.trim().to_string())
        })
    }

    /// Keeps `secret` for `server` (the file written whole, the other servers' kept).
    pub fn write(&self, server: &str, secret: &str) -> std::io::Result<()> {
        if self.read(server).as_deref() == Some(secret) {
            return Ok(());
        }
        let old = self
            .files
            .read_text(&self.path, 1 << 20)
            .unwrap_or_default();
        let mut text: String = old
            .lines()
            .filter(|l| l.split_once(' ').is_some_and(|(a, _)| a != server))
            .map(|l| format!("{l}\n"))
            .collect();
        text.push_str(&format!("{server} {secret}\n"));
        // (The folder is made if missing.)
        self.files.write_atomic(&self.path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_kept_per_server() {
        let dir = std::env::temp_dir().join(format!("hexchess-secrets-{}", std::process::id()));
        let secrets = SecretsFile::at(Files::disk(), dir.join("online-secrets.txt"));
        let _ = std::fs::remove_file(secrets.path());
        assert_eq!(secrets.read("ws://a/socket"), None);
        secrets.write("ws://a/socket", "aaa").unwrap();
        secrets.write("ws://b/socket", "bbb").unwrap();
        secrets.write("ws://a/socket", "ccc").unwrap();
        assert_eq!(secrets.read("ws://a/socket").as_deref(), Some("ccc"));
        assert_eq!(secrets.read("ws://b/socket").as_deref(), Some("bbb"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
