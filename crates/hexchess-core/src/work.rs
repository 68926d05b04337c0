//! A count of the work done, for tests that show how a cost grows (twice the plies,
//! twice the work) without timing anything: moves made, history entries copied or
//! looked through. Counted per thread, so that tests running side by side do not mix.

use std::cell::Cell;

thread_local! {
    static DONE: Cell<u64> = const { Cell::new(0) };
}

/// Counts `n` units of work.
pub(crate) fn add(n: usize) {
    DONE.with(|d| d.set(d.get() + n as u64));
}

/// The work counted on this thread since the last call, and a new count begun.
pub(crate) fn take() -> u64 {
    DONE.with(|d| d.replace(0))
}
