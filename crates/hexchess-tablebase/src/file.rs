//! Tables on disk: a header that says which variant, which men and which rules the
//! table was built for, the values, and a checksum. A table built from other rules (a
//! variant file changed since) or a damaged file is refused with the reason, never
//! read wrong and never a panic.
//!
//! Layout, little-endian: the magic `HEXCHTB1`; the format version (u32); the rules'
//! fingerprint (u64, [`rules_fingerprint`]); the variant id and the material name, each a
//! u16 length and UTF-8 bytes; the number of slots (u64); the first stalemate code
//! (u8); the move rule's plies the table keeps results under (u8, 0 for none); one byte
//! per slot (the codes of [`crate::table`]); with a rule, one more byte per slot (its
//! codes); a CRC-32 of everything before it.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use hexchess_core::{Bitboard, Piece, Rules, Side};
use hexchess_files::{FileError, Files};

use crate::material::Material;
use crate::table::Table;

const MAGIC: &[u8; 8] = b"HEXCHTB1";
/// The format this code writes and reads.
pub const FORMAT_VERSION: u32 = 3;

/// The most slots a table may have: the builder refuses larger tables
/// ([`crate::TableError::TooLarge`]).
pub const MAX_POSITIONS: u64 = u32::MAX as u64 * 4;

/// The longest header: magic, version, fingerprint, two texts of at most `u16::MAX`
/// bytes with their lengths, the slot count, the first stalemate code and the rule's
/// plies.
const MAX_HEADER: u64 = 8 + 4 + 8 + 2 * (2 + u16::MAX as u64) + 8 + 1 + 1;

/// The largest table file there can be: the longest header, the most slots with two
/// bytes each, the checksum. Reading stops past it (a file that large is not a table).
pub const MAX_FILE_BYTES: u64 = MAX_HEADER + 2 * MAX_POSITIONS + 4;

/// Tells the temporary files of one process apart.
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// A new temporary path in `path`'s folder, for writing a file to rename over it.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "table".to_string());
    path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        TEMPORARIES.fetch_add(1, Ordering::Relaxed)
    ))
}

/// A file that could not be read, as a table file error (the path said once).
fn file_error(e: FileError) -> TableFileError {
    let path = e.path().to_path_buf();
    let message = match &e {
        FileError::Io { error, .. } => error.to_string(),
        FileError::NotAFile { what, .. } => format!("{what}, not a regular file"),
        FileError::TooLarge { limit, .. } => {
            format!("larger than {limit} bytes, the largest table file: not a table")
        }
        other => other.to_string(),
    };
    TableFileError::Io { path, message }
}

/// The per-user folder tables live in (`<data>/hexchess/tables`), when there is one.
pub fn default_dir(files: &Files) -> Option<PathBuf> {
    files.data_dir().map(|d| d.join("tables"))
}

/// Where the table of `material` in `rules`' variant lives under `dir`:
/// `<dir>/<variant>/<material>.htb`.
pub fn table_path(dir: &Path, rules: &Rules, material: &Material) -> PathBuf {
    dir.join(rules.id())
        .join(format!("{}.htb", material.name(rules)))
}

/// A folder of tables among a program's files: where [`build_missing`] looks and writes.
#[derive(Clone, Copy, Debug)]
pub struct TableFolder<'a> {
    /// The program's files (a disk, or a page's store).
    pub files: &'a Files,
    /// The folder, as [`default_dir`] names it or a player chose.
    pub dir: &'a Path,
}

/// Builds every table `material` needs (itself and the endings its captures reach)
/// that the folder does not hold yet, smallest first, each written as soon as it is done,
/// so a stop keeps what was finished. `progress` hears each build's lines (after the
/// table's name); `written` is told each file written. Each build makes its smaller
/// tables again in memory: they are small. The builds run on `threads` threads.
pub fn build_missing(
    folder: TableFolder<'_>,
    rules: &Arc<Rules>,
    material: &Material,
    progress: &mut dyn FnMut(&str),
    stop: &std::sync::atomic::AtomicBool,
    threads: usize,
    written: &mut dyn FnMut(&Path),
) -> Result<(), String> {
    let TableFolder { files, dir } = folder;
    let mut needed = material.endings_reached(rules);
    needed.reverse();
    for m in needed {
        let path = table_path(dir, rules, &m);
        if Table::read(files, &path, rules).is_ok_and(|t| t.material() == &m) {
            continue;
        }
        let name = m.name(rules);
        let mut tell = |line: &str| progress(&format!("{name}: {}", line.trim()));
        if files.store().is_none()
            && let Some(parent) = path.parent()
        {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        Table::generate_into(files, rules, &m, &path, &mut tell, stop, threads)
            .map_err(|e| e.to_string())?;
        written(&path);
    }
    Ok(())
}

/// Why a table file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableFileError {
    /// The system could not read or write it.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// Not a table file at all.
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// A table of another format version.
    Version {
        /// The file.
        path: PathBuf,
        /// The version it has.
        found: u32,
    },
    /// Built for another variant.
    OtherVariant {
        /// The file.
        path: PathBuf,
        /// The variant it was built for.
        found: String,
    },
    /// Built from other rules than the variant's now (its file changed since).
    OtherRules {
        /// The file.
        path: PathBuf,
    },
    /// Its material cannot be a table of this variant.
    BadMaterial {
        /// The file.
        path: PathBuf,
        /// What is wrong with the material.
        message: String,
    },
    /// Shorter or longer than its header says.
    Length {
        /// The file.
        path: PathBuf,
        /// The length its header says, in bytes.
        expected: u64,
        /// The length it has.
        found: u64,
    },
    /// The checksum does not match: the file is damaged.
    Corrupt {
        /// The file.
        path: PathBuf,
    },
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableFileError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            TableFileError::NotATable { path } => {
                write!(f, "{}: not a hexchess table file", path.display())
            }
            TableFileError::Version { path, found } => write!(
                f,
                "{}: table format {found}; this version reads {FORMAT_VERSION}",
                path.display()
            ),
            TableFileError::OtherVariant { path, found } => {
                write!(f, "{}: a table of variant '{found}'", path.display())
            }
            TableFileError::OtherRules { path } => write!(
                f,
                "{}: built from other rules than the variant's now (its file changed?); build it again",
                path.display()
            ),
            TableFileError::BadMaterial { path, message } => {
                write!(f, "{}: {message}", path.display())
            }
            TableFileError::Length {
                path,
                expected,
                found,
            } => write!(
                f,
                "{}: {found} bytes where the header promises {expected}: truncated or damaged",
                path.display()
            ),
            TableFileError::Corrupt { path } => {
                write!(
                    f,
                    "{}: the checksum does not match: the file is damaged",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for TableFileError {}

/// A fingerprint of everything a table's values depend on: the board's cells, each
/// kind's letter, whether it is royal, where each piece reaches from each cell on an
/// empty board (moves, leaps, slide lines), the pawns' moves and promotions, and the
/// stalemate score, and the move rule the table keeps results under. A variant file
/// changed in any of these gives another fingerprint.
pub fn rules_fingerprint(rules: &Rules) -> u64 {
    let mut h = Fnv::new();
    let board = rules.board();
    for c in board.cells() {
        let x = board.hex(c);
        h.bytes(&[x.q() as u8, x.r() as u8]);
    }
    for k in rules.kinds() {
        let info = rules.kind_info(k);
        h.bytes(info.letter.to_string().as_bytes());
        h.bytes(&[u8::from(info.royal), u8::from(info.pawn)]);
        for side in Side::BOTH {
            let piece = Piece::new(side, k);
            for c in board.cells() {
                let e = Bitboard::EMPTY;
                h.bits(rules.reach(piece, c, e, e, e));
                h.bits(rules.leap_targets(piece, c));
                for line in rules.slide_lines(piece, c) {
                    h.bits(line);
                }
            }
        }
    }
    // Pawns: their advances (each line, in order), captures, where they promote, and
    // to what.
    for side in Side::BOTH {
        for c in board.cells() {
            for line in rules.pawn_advance_lines(side, c) {
                h.bits(line.into_iter().collect());
            }
            h.bits(rules.pawn_captures(side, c));
            h.bytes(&[
                u8::from(rules.is_promotion_cell(side, c)),
                u8::from(rules.is_optional_promotion_cell(side, c)),
            ]);
        }
    }
    for k in rules.promotion_choices() {
        h.bytes(rules.kind_info(*k).letter.to_string().as_bytes());
    }
    h.bytes(&[u8::from(rules.promotes_only_to_lost_pieces())]);
    let s = rules.stalemate();
    h.bytes(&s.stalemated.millis().to_le_bytes());
    h.bytes(&s.stalemating.millis().to_le_bytes());
    h.bytes(&[crate::table::rule_plies(rules).unwrap_or(0)]);
    h.finish()
}

/// FNV-1a, 64 bits: a fingerprint, not a defence against tampering.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, data: &[u8]) {
        for b in data {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn bits(&mut self, set: Bitboard) {
        for c in set {
            self.bytes(&(c.index() as u16).to_le_bytes());
        }
        self.bytes(&[0xff]);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// CRC-32 (IEEE), bit by bit: tables are written and read rarely.
fn crc32(data: &[u8]) -> u32 {
    !crc32_update(!0, data)
}

/// The CRC-32 register after `data`, from `crc` (start with `!0`, finish with `!`).
fn crc32_update(mut crc: u32, data: &[u8]) -> u32 {
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    crc
}

/// Everything before the codes of `table`'s file, with the move rule's `plies` (0 for
/// none): magic, version, fingerprint, names, counts.
fn header(table: &Table, plies: u8) -> Vec<u8> {
    let rules = table.rules();
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&rules_fingerprint(rules).to_le_bytes());
    for text in [rules.id().to_string(), table.material().name(rules)] {
        out.extend_from_slice(&(text.len() as u16).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    out.extend_from_slice(&(table.len() as u64).to_le_bytes());
    out.push(table.stalemate_base());
    out.push(plies);
    out
}

/// A table file being written a part at a time: into a new temporary file beside its
/// path, flushed to the disk and renamed over the path by [`TableWriter::finish`]; left
/// unfinished (an error, a stop), the temporary file is removed and any older table
/// stays whole. What lets a build write its values before its move rule's pass turns
/// them into the rule's codes (see [`Table::generate_into`]).
pub(crate) struct TableWriter {
    path: PathBuf,
    tmp: PathBuf,
    out: Option<std::io::BufWriter<std::fs::File>>,
    crc: u32,
}

impl TableWriter {
    /// Starts the file of `table` (its values may be unfinished: only its material,
    /// rules, slots and stalemate code are read) at `path`, with the header for a move
    /// rule of `plies` (0 for none). A path that is not a regular file is refused.
    pub(crate) fn create(
        path: &Path,
        table: &Table,
        plies: u8,
    ) -> Result<TableWriter, TableFileError> {
        check_writable(&Files::disk(), path)?;
        let tmp = temporary_beside(path);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| io_error(path, e))?;
        let mut writer = TableWriter {
            path: path.to_path_buf(),
            tmp,
            out: Some(std::io::BufWriter::new(file)),
            crc: !0,
        };
        writer.write(&header(table, plies))?;
        Ok(writer)
    }

    /// Appends `bytes` to the file.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> Result<(), TableFileError> {
        let out = self.out.as_mut().expect("not finished");
        for chunk in bytes.chunks(1 << 20) {
            self.crc = crc32_update(self.crc, chunk);
            out.write_all(chunk).map_err(|e| io_error(&self.path, e))?;
        }
        Ok(())
    }

    /// Ends the file with its checksum, flushes it to the disk and renames it over the
    /// path.
    pub(crate) fn finish(mut self) -> Result<(), TableFileError> {
        let mut out = self.out.take().expect("not finished");
        let done = out
            .write_all(&(!self.crc).to_le_bytes())
            .and_then(|()| out.into_inner().map_err(|e| e.into_error()))
            .and_then(|file| file.sync_all())
            .and_then(|()| std::fs::rename(&self.tmp, &self.path));
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        done.map_err(|e| io_error(&self.path, e))
    }
}

impl Drop for TableWriter {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Refuses a path a table cannot be written to: one that names something other than a
/// regular file (a FIFO would block the write, a folder cannot be replaced).
pub(crate) fn check_writable(files: &Files, path: &Path) -> Result<(), TableFileError> {
    match files.check_regular(path) {
        Err(e) if !e.is_not_found() => Err(file_error(e)),
        _ => Ok(()),
    }
}

/// An error writing the table file at `path`.
fn io_error(path: &Path, e: std::io::Error) -> TableFileError {
    TableFileError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

impl Table {
    /// Everything before the codes: magic, version, fingerprint, names, counts.
    fn header(&self) -> Vec<u8> {
        header(self, self.rule_codes().map_or(0, |r| r.plies))
    }

    /// The codes after the header: the values, then the rule's.
    fn bodies(&self) -> impl Iterator<Item = &[u8]> {
        std::iter::once(self.codes()).chain(self.rule_codes().map(|r| r.codes.as_slice()))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.header();
        for body in self.bodies() {
            out.extend_from_slice(body);
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Writes the table to `path`, all or nothing, streaming it (no second copy of the
    /// codes in memory): into a new temporary file beside it, flushed to the disk, then
    /// renamed over `path`, as [`Files::write_atomic`] does. A crash, a full disk or a
    /// refused write leaves any older table whole, and a path that is not a regular
    /// file (a FIFO would block the write) is refused. Where `files` are a page store's
    /// ([`hexchess_files::PageStore`]), the bytes go there.
    pub fn write(&self, files: &Files, path: &Path) -> Result<(), TableFileError> {
        if files.store().is_some() {
            // No disk: the store takes the whole file at once.
            return files
                .write_atomic(path, &self.to_bytes())
                .map_err(|e| io_error(path, e));
        }
        let plies = self.rule_codes().map_or(0, |r| r.plies);
        let mut file = TableWriter::create(path, self, plies)?;
        for body in self.bodies() {
            file.write(body)?;
        }
        file.finish()
    }

    /// Reads a table of `rules`' variant from `path`, refusing one built from other
    /// rules or damaged. Only a regular file is opened (a FIFO named like a table would
    /// block the reading until something writes into it), and only one no larger than
    /// the largest table file, [`MAX_FILE_BYTES`].
    pub fn read(files: &Files, path: &Path, rules: &Arc<Rules>) -> Result<Table, TableFileError> {
        let bytes = files.read_bytes(path, MAX_FILE_BYTES).map_err(file_error)?;
        Table::from_owned_bytes(bytes, path, rules)
    }

    /// Reads a table from a file's bytes; `path` names it in errors.
    pub fn from_bytes(
        bytes: &[u8],
        path: &Path,
        rules: &Arc<Rules>,
    ) -> Result<Table, TableFileError> {
        Table::from_owned_bytes(bytes.to_vec(), path, rules)
    }

    /// Reads a table from a file's bytes, keeping their buffer for the codes (a table
    /// read takes its size in memory once, not twice).
    fn from_owned_bytes(
        mut owned: Vec<u8>,
        path: &Path,
        rules: &Arc<Rules>,
    ) -> Result<Table, TableFileError> {
        let bytes = owned.as_slice();
        let path_buf = || path.to_path_buf();
        let mut r = Reader { bytes, at: 0 };
        if r.take(8) != Some(MAGIC.as_slice()) {
            return Err(TableFileError::NotATable { path: path_buf() });
        }
        let not_a_table = || TableFileError::NotATable { path: path_buf() };
        let version = r.u32().ok_or_else(not_a_table)?;
        if version != FORMAT_VERSION {
            return Err(TableFileError::Version {
                path: path_buf(),
                found: version,
            });
        }
        let fingerprint = r.u64().ok_or_else(not_a_table)?;
        let id = r.text().ok_or_else(not_a_table)?;
        let material = r.text().ok_or_else(not_a_table)?;
        let positions = r.u64().ok_or_else(not_a_table)?;
        let stalemate_base = r.take(1).ok_or_else(not_a_table)?[0];
        let plies = r.take(1).ok_or_else(not_a_table)?[0];
        let bodies = if plies == 0 { 1 } else { 2 };
        let expected = (r.at as u64)
            .saturating_add(positions.saturating_mul(bodies))
            .saturating_add(4);
        if bytes.len() as u64 != expected {
            return Err(TableFileError::Length {
                path: path_buf(),
                expected,
                found: bytes.len() as u64,
            });
        }
        let body = bytes.len() - 4;
        let stored = u32::from_le_bytes(bytes[body..].try_into().expect("four bytes"));
        if crc32(&bytes[..body]) != stored {
            return Err(TableFileError::Corrupt { path: path_buf() });
        }
        if id != rules.id() {
            return Err(TableFileError::OtherVariant {
                path: path_buf(),
                found: id,
            });
        }
        let rule = crate::table::rule_plies(rules);
        if fingerprint != rules_fingerprint(rules) || rule.unwrap_or(0) != plies {
            return Err(TableFileError::OtherRules { path: path_buf() });
        }
        let material =
            Material::parse(&material, rules).map_err(|e| TableFileError::BadMaterial {
                path: path_buf(),
                message: e.to_string(),
            })?;
        let start = r.at;
        let values_end = start + positions as usize;
        let rule = rule.map(|plies| crate::table::RuleCodes {
            plies,
            codes: take_tail(&mut owned, values_end, body, 1 << 26),
        });
        owned.truncate(values_end);
        owned.drain(..start);
        let table = Table::from_codes(rules, &material, owned, stalemate_base);
        table
            .map(|t| t.with_rule(rule))
            .ok_or(TableFileError::Length {
                path: path_buf(),
                expected: 0,
                found: positions,
            })
    }
}

/// Reads the header's fields in turn; `None` past the end.
/// Moves `bytes[from..to]` into a vector of its own and cuts `bytes` to `from`, giving
/// the moved part's memory back `piece` bytes at a time as it goes (from the end), so that
/// reading a table with the move rule's codes peaks near the file's size, not one and a
/// half times it (a five-man table: 2.2 GB, not 3.2).
fn take_tail(bytes: &mut Vec<u8>, from: usize, to: usize, piece: usize) -> Vec<u8> {
    bytes.truncate(to);
    // Zeroed pages from the system, each taken only when written.
    let mut tail = vec![0u8; to - from];
    let mut end = to;
    while end > from {
        let start = end.saturating_sub(piece).max(from);
        tail[start - from..end - from].copy_from_slice(&bytes[start..end]);
        bytes.truncate(start);
        bytes.shrink_to_fit();
        end = start;
    }
    tail
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn text(&mut self) -> Option<String> {
        let len = u16::from_le_bytes(self.take(2)?.try_into().ok()?) as usize;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::{crc32, crc32_update};

    #[test]
    fn the_tail_moves_whole_piece_by_piece_and_the_rest_stays() {
        let bytes: Vec<u8> = (0..100u8).collect();
        for piece in [1, 7, 30, 1000] {
            let mut rest = bytes.clone();
            let tail = super::take_tail(&mut rest, 40, 96, piece);
            assert_eq!(tail, bytes[40..96], "piece {piece}");
            assert_eq!(rest, bytes[..40], "piece {piece}");
        }
    }

    #[test]
    fn crc32_of_the_standard_check_string() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        // In pieces, as files are written.
        assert_eq!(
            !crc32_update(crc32_update(!0, b"1234"), b"56789"),
            0xCBF4_3926
        );
    }
}
