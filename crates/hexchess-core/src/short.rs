//! Lists with a small bound known from the rules, kept inline: a turn's steps, its
//! moves, its captures. A search saves and plays these at every node, where a heap
//! list per turn was a tenth of a turn's cost (an allocation to push, another to copy,
//! a free to take back).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// At most `N` items of a `Copy` type, in order, without a heap. The unused slots hold
/// a blank the list was made with and are never read.
///
/// Pushing past `N` is a broken invariant of the caller (each use states its bound
/// from the rules), and panics as an index out of range would.
#[derive(Clone, Copy)]
pub struct ShortList<T: Copy, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Copy, const N: usize> ShortList<T, N> {
    /// An empty list whose unused slots hold `blank`.
    pub const fn new(blank: T) -> Self {
        ShortList {
            len: 0,
            items: [blank; N],
        }
    }

    /// A list of `items`, `None` when they are more than `N`.
    pub fn from_slice(blank: T, items: &[T]) -> Option<Self> {
        let mut list = ShortList::new(blank);
        if items.len() > N {
            return None;
        }
        list.items[..items.len()].copy_from_slice(items);
        list.len = items.len() as u8;
        Some(list)
    }

    /// Adds `item` at the end.
    pub fn push(&mut self, item: T) {
        let len = usize::from(self.len);
        assert!(len < N, "a short list holds at most {N} items");
        self.items[len] = item;
        self.len += 1;
    }

    /// Takes the last item off.
    pub fn pop(&mut self) -> Option<T> {
        let len = self.len.checked_sub(1)?;
        self.len = len;
        Some(self.items[usize::from(len)])
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        if len < usize::from(self.len) {
            self.len = len as u8;
        }
    }

    /// Drops the first `n` items (all of them when `n` is more).
    pub fn drop_front(&mut self, n: usize) {
        let len = usize::from(self.len);
        let n = n.min(len);
        self.items.copy_within(n..len, 0);
        self.len = (len - n) as u8;
    }

    /// Drops every item.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The items as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<T: Copy, const N: usize> Deref for ShortList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> DerefMut for ShortList<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..usize::from(self.len)]
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a ShortList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for ShortList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Eq, const N: usize> Eq for ShortList<T, N> {}

impl<T: Copy + Hash, const N: usize> Hash for ShortList<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for ShortList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_pops_truncates_and_drops_from_the_front_like_a_vec() {
        let mut list = ShortList::<u32, 4>::new(0);
        let mut vec = Vec::new();
        for x in [7, 3, 9, 1] {
            list.push(x);
            vec.push(x);
        }
        assert_eq!(list.as_slice(), vec.as_slice());
        assert_eq!(ShortList::<u32, 4>::from_slice(0, &vec), Some(list));
        assert_eq!(ShortList::<u32, 3>::from_slice(0, &vec), None);
        assert_eq!(list.pop(), vec.pop());
        list.drop_front(1);
        vec.drain(..1);
        assert_eq!(list.as_slice(), &[3, 9]);
        assert_eq!(list.as_slice(), vec.as_slice());
        list.truncate(1);
        assert_eq!(list.as_slice(), &[3]);
        list.drop_front(5);
        assert!(list.is_empty());
        assert_eq!(list.pop(), None);
        // Slots left by a pop hold stale items; equality reads only the list's own.
        let mut other = ShortList::<u32, 4>::new(0);
        other.push(8);
        other.clear();
        assert_eq!(other, list);
    }

    #[test]
    #[should_panic(expected = "at most 2")]
    fn a_push_past_the_bound_is_refused() {
        let mut list = ShortList::<u8, 2>::new(0);
        for x in 0..3 {
            list.push(x);
        }
    }
}
