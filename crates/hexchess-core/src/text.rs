//! Text as the project's files hold it: a byte order mark some editors write, and
//! bytes that are not UTF-8 in formats older than it. Pure functions: reading the
//! bytes is the files crate's job.

use std::borrow::Cow;

/// `text` without a leading byte order mark (U+FEFF), which Windows Notepad (and other
/// editors) write at the start of a file saved as UTF-8. Editors hide the mark, but the
/// project's parsers would read it as a stray character before the first line (RON:
/// "Expected opening `(`" at 1:1, in a file whose text is fine); so every reader of a
/// text format strips it before parsing. Line and column numbers of later errors
/// are then the ones the editor shows, which does not count the hidden mark. Only the
/// first one goes: a second is not a mark but a character of the text.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Text from bytes that should be UTF-8: valid UTF-8 as it is, and each byte of an
/// invalid sequence as the Latin-1 character of that value (`0xE9` is `é`). PGN files
/// were Latin-1 before they were UTF-8, so this reads both, and reads a UTF-8 file
/// with one stray byte without losing the rest.
pub fn decode_latin1_fallback(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let mut text = String::with_capacity(bytes.len() + 16);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        text.extend(chunk.invalid().iter().map(|&b| char::from(b)));
    }
    Cow::Owned(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_leading_byte_order_mark_is_stripped_and_nothing_else() {
        assert_eq!(strip_bom("\u{feff}(view: TwoD)\n"), "(view: TwoD)\n");
        assert_eq!(strip_bom("(view: TwoD)"), "(view: TwoD)");
        assert_eq!(strip_bom("\u{feff}\u{feff}x"), "\u{feff}x");
        assert_eq!(strip_bom("x\u{feff}"), "x\u{feff}");
        assert_eq!(strip_bom(""), "");
    }

    #[test]
    fn latin1_bytes_read_as_their_characters_and_utf8_stays_as_it_is() {
        assert_eq!(decode_latin1_fallback(b"caf\xe9 \xff"), "café ÿ");
        assert_eq!(decode_latin1_fallback("café".as_bytes()), "café");
        assert!(matches!(
            decode_latin1_fallback("ok".as_bytes()),
            Cow::Borrowed(_)
        ));
        // A valid sequence after an invalid one is kept whole.
        assert_eq!(decode_latin1_fallback(b"\xc3(\xc3\xa9"), "Ã(é");
    }
}
