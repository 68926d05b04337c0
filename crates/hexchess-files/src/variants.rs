//! Variant files: found in the usual folders, read through [`Files`] with the checks of
//! every file (regular files only, a size limit, a byte that is not UTF-8 named by line
//! and column), and added to a [`Catalog`].

use std::path::{Path, PathBuf};

use hexchess_core::variant::{MAX_VARIANT_FILE_BYTES, VariantError, VariantSpec, parse_variant};
use hexchess_core::{Catalog, CatalogEntry};

use crate::{FileError, Files};

/// The built-ins plus the files in the usual folders (see [`default_dirs`]).
pub fn load_default(files: &Files) -> Catalog {
    let mut catalog = Catalog::builtin();
    for dir in default_dirs(files) {
        load_dir(files, &mut catalog, &dir);
    }
    catalog
}

/// `variants/` in the working directory and next to the executable, and the per-user
/// data folder's ([`Files::data_dir`]; `~/.local/share/hexchess/variants` on Linux).
pub fn default_dirs(files: &Files) -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("variants")];
    if let Ok(exe) = std::env::current_exe()
        && let Some(parent) = exe.parent()
    {
        dirs.push(parent.join("variants"));
    }
    if let Some(data) = files.data_dir() {
        dirs.push(data.join("variants"));
    }
    // The same folder reached twice (running from the project root) loads once.
    let mut seen = Vec::new();
    dirs.retain(|d| {
        let key = d.canonicalize().unwrap_or_else(|_| d.clone());
        if seen.contains(&key) {
            false
        } else {
            seen.push(key);
            true
        }
    });
    dirs
}

/// Loads every `*.ron` of a folder into `catalog`, in name order. A missing folder is
/// not an error; a file's error is kept in the catalog and the other variants stay
/// playable.
pub fn load_dir(files: &Files, catalog: &mut Catalog, dir: &Path) {
    let Ok(listing) = files.list_dir(dir) else {
        return;
    };
    let variant_files = listing
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "ron"));
    for path in variant_files {
        let _ = load_file(files, catalog, &path);
    }
}

/// Loads one file into `catalog` ([`Catalog::add_file`]); a file that cannot be read
/// leaves its error there too ([`Catalog::refuse_file`]).
pub fn load_file<'c>(
    files: &Files,
    catalog: &'c mut Catalog,
    path: &Path,
) -> Result<&'c CatalogEntry, VariantError> {
    match read_text(files, path) {
        Ok(text) => catalog.add_file(path, &text),
        Err(e) => {
            catalog.refuse_file(e.clone());
            Err(e)
        }
    }
}

/// Reads and checks a variant file: a regular file of at most
/// [`MAX_VARIANT_FILE_BYTES`] (a FIFO named `x.ron` is refused, not waited on).
pub fn read_spec(files: &Files, path: &Path) -> Result<VariantSpec, VariantError> {
    let text = read_text(files, path)?;
    parse_variant(&text, &path.display().to_string())
}

/// The text of a variant file: regular files only, within the size limit, and a byte
/// that is not UTF-8 named by line and column, as the variant's own errors are.
pub fn read_text(files: &Files, path: &Path) -> Result<String, VariantError> {
    let file = path.display().to_string();
    files
        .read_text(path, MAX_VARIANT_FILE_BYTES)
        .map_err(|e| match e {
            FileError::NotUtf8 {
                line,
                column,
                offset,
                ..
            } => VariantError::Syntax {
                file,
                line,
                column,
                message: format!("not UTF-8 text (byte {offset})"),
                hint: Some("save the file as UTF-8".to_string()),
            },
            FileError::Io { error, .. } => VariantError::Io {
                file,
                message: error.to_string(),
            },
            other => VariantError::Io {
                file,
                message: file_problem(&other),
            },
        })
}

/// What is wrong with a file, without its path (the error names the file already).
fn file_problem(e: &FileError) -> String {
    match e {
        FileError::NotAFile { what, .. } => format!("{what}, not a regular file"),
        FileError::TooLarge { limit, .. } => {
            format!("larger than {limit} bytes: not a variant file")
        }
        other => other.to_string(),
    }
}
