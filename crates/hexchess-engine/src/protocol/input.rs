//! Lines of protocol input from a stream of bytes, whatever the bytes are.
//!
//! A GUI, a script or a broken pipe may send anything, and one bad line must cost the
//! engine nothing but that line:
//!
//! - A line ends at LF, at CR LF, or at a CR alone (old Mac text, some terminals): CR
//!   ends a line, and the empty line between a CR and its LF is passed over like any
//!   blank line.
//! - A line that is not UTF-8 (a Latin-1 `é`, a lone continuation byte, an overlong
//!   form, a surrogate, a byte UTF-8 never uses) is refused with the offset of its first
//!   bad byte; so is a line with a NUL byte, which no command has and C programs read as
//!   the end of the text. A byte-order mark at the start of a line is dropped.
//! - A line longer than the limit is refused, and the rest of it is read past without
//!   being kept: an endless line costs no memory.

use std::io::{self, BufRead};

/// One line of input, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line of text (without its end).
    Line(String),
    /// A line that cannot be a command: why, for `info string error: ...`.
    Refused(String),
    /// The end of the input.
    End,
}

/// Reads [`Input`]s from a byte stream, keeping at most `limit` bytes of a line.
pub struct Lines<R> {
    reader: R,
    limit: usize,
    line: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, each at most `limit` bytes.
    pub fn new(reader: R, limit: usize) -> Lines<R> {
        Lines {
            reader,
            limit,
            line: Vec::new(),
        }
    }

    /// The next line; an error only when reading itself fails.
    pub fn next_line(&mut self) -> io::Result<Input> {
        self.line.clear();
        let mut length = 0usize;
        let mut ended = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            let (part, used) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(end) => {
                    ended = true;
                    (&buf[..end], end + 1)
                }
                None => (buf, buf.len()),
            };
            length = length.saturating_add(part.len());
            if length <= self.limit {
                self.line.extend_from_slice(part);
            }
            self.reader.consume(used);
            if ended {
                break;
            }
        }
        if !ended && length == 0 {
            return Ok(Input::End);
        }
        Ok(self.judge(length))
    }

    /// The line read (`length` bytes in all) as text, or why it is refused.
    fn judge(&mut self, length: usize) -> Input {
        if length > self.limit {
            self.line.clear();
            return Input::Refused(format!(
                "line of {length} bytes, longer than the {} the engine reads; ignored",
                self.limit
            ));
        }
        let text = match std::str::from_utf8(&self.line) {
            Ok(text) => text,
            Err(e) => {
                let at = e.valid_up_to();
                return Input::Refused(format!(
                    "line is not UTF-8 text (byte {at}: 0x{:02x}); ignored",
                    self.line[at]
                ));
            }
        };
        if let Some(at) = text.bytes().position(|b| b == 0) {
            return Input::Refused(format!("line has a NUL byte (byte {at}); ignored"));
        }
        Input::Line(hexchess_core::text::strip_bom(text).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8], limit: usize) -> Vec<Input> {
        // A tiny buffer: lines cross buffer boundaries.
        let reader = io::BufReader::with_capacity(3, bytes);
        let mut lines = Lines::new(reader, limit);
        let mut out = Vec::new();
        loop {
            match lines.next_line().unwrap() {
                Input::End => return out,
                input => out.push(input),
            }
        }
    }

    fn line(text: &str) -> Input {
        Input::Line(text.to_string())
    }

    #[test]
    fn lines_end_at_lf_cr_lf_or_cr_and_the_last_needs_no_end() {
        assert_eq!(
            all(b"uci\r\nisready\rgo\nd", 100),
            [
                line("uci"),
                line(""),
                line("isready"),
                line("go"),
                line("d")
            ]
        );
        assert_eq!(all(b"", 100), []);
        assert_eq!(all(b"\n", 100), [line("")]);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_by_offset() {
        for (bytes, at) in [
            (&b"ab\xffcd"[..], 2),
            (b"\x80", 0),
            (b"x\xc0\xaf", 1),
            (b"xy\xed\xa0\x80", 2),
            (b"\xf4\x90\x80\x80", 0),
            (b"caf\xc3", 3),
        ] {
            let got = all(bytes, 100);
            let [Input::Refused(why)] = &got[..] else {
                panic!("{bytes:?}: {got:?}")
            };
            assert!(why.contains(&format!("byte {at}:")), "{bytes:?}: {why}");
        }
        // The lines around a bad one are read as they are.
        assert_eq!(all(b"isready\n\xe9\nisready\n", 100)[2], line("isready"));
    }

    #[test]
    fn a_nul_byte_is_refused_and_a_byte_order_mark_dropped() {
        let got = all(b"is\0ready\n\xef\xbb\xbfuci\n", 100);
        assert!(matches!(&got[0], Input::Refused(w) if w.contains("NUL") && w.contains("byte 2")));
        assert_eq!(got[1], line("uci"));
    }

    #[test]
    fn an_over_long_line_is_refused_whole_and_not_kept() {
        let mut bytes = vec![b'x'; 50];
        bytes.extend_from_slice(b"\nshort\n");
        let got = all(&bytes, 10);
        assert!(
            matches!(&got[0], Input::Refused(w) if w.contains("50 bytes")),
            "{got:?}"
        );
        assert_eq!(got[1], line("short"));
        // Exactly at the limit is fine.
        assert_eq!(all(b"0123456789\n", 10), [line("0123456789")]);
        let mut reader = Lines::new(io::BufReader::with_capacity(4, &bytes[..]), 10);
        let _ = reader.next_line();
        assert!(reader.line.capacity() < 64, "the long line was not kept");
    }
}
