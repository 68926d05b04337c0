//! Swiss rounds by the FIDE Dutch system (C.04.3).

mod matching;
mod wide;
