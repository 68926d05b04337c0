//! A game's moves with their variations, as an analysis board holds them: an arena of
//! nodes, each a move (its text, annotations and comments) with its continuations, the
//! first of which is the main line.
//!
//! Nodes live in one `Vec` and are named by [`NodeId`], so that a board can keep the id
//! of the move shown while the tree grows around it. A deleted node leaves a hole: ids
//! are never reused, so an id kept from before a deletion finds nothing rather than
//! another move.

use crate::piece::Side;

/// A node of a [`GameTree`]: the root (the start position) or a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where something was read: line and column (in characters), both counted from 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub column: usize,
}

impl Place {
    /// The place at `line` and `column`.
    pub const fn new(line: usize, column: usize) -> Place {
        Place { line, column }
    }
}

/// The move number a move is written under and the side that plays it: the position's
/// fullmove number and side to move before the move. The writer needs both to number
/// moves as the game went (a setup phase where one side places its whole hand, a side
/// of a game of more sides passed over), which the moves' order alone does not tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveNumber {
    /// The fullmove number (from 1).
    pub number: u32,
    /// The side that plays the move.
    pub side: Side,
}

impl MoveNumber {
    /// The game's first move when nothing else is known: 1, White.
    pub const START: MoveNumber = MoveNumber {
        number: 1,
        side: Side::White,
    };

    /// The next move's number in a two-player game, for nodes no replay has numbered.
    pub(crate) fn next_of_two(self) -> MoveNumber {
        let side = !self.side;
        MoveNumber {
            number: self.number + u32::from(side == Side::White),
            side,
        }
    }
}

/// One move (or the root) with what is written around it.
#[derive(Clone, Debug, Default)]
pub struct Node {
    san: String,
    nags: Vec<u8>,
    comment_before: String,
    comment_after: String,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    number: Option<MoveNumber>,
    place: Option<Place>,
}

impl Node {
    /// The move as written (SAN once replayed; empty for the root).
    pub fn san(&self) -> &str {
        &self.san
    }

    /// Numeric annotation glyphs, in order (`$1` is 1; `!` is read as 1, `?` as 2, `!!`
    /// 3, `??` 4, `!?` 5, `?!` 6).
    pub fn nags(&self) -> &[u8] {
        &self.nags
    }

    /// The comment written before the move (at the start of a variation, or after one).
    pub fn comment_before(&self) -> &str {
        &self.comment_before
    }

    /// The comment written after the move. For the root, the game's opening comment.
    pub fn comment_after(&self) -> &str {
        &self.comment_after
    }

    /// The move before this one (none for the first move of the game).
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The continuations: the first is the main line, the others its variations.
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }

    /// The move number and side to move before this move, once a replay has set it.
    /// For the root, the start position's.
    pub fn number(&self) -> Option<MoveNumber> {
        self.number
    }

    /// Where the move was read, for errors found when it is replayed.
    pub fn place(&self) -> Option<Place> {
        self.place
    }
}

/// Comments are kept as the writer can give them back: whitespace runs as one space
/// (a comment is wrapped like the moves), and `}`, which would end the comment in
/// PGN, as `)`.
fn clean_comment(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('}', ")")
}

/// A game's moves and variations (see the module's documentation).
#[derive(Clone, Debug)]
pub struct GameTree {
    nodes: Vec<Option<Node>>,
}

impl Default for GameTree {
    fn default() -> Self {
        GameTree::new()
    }
}

impl GameTree {
    /// A tree with the root alone: no moves yet.
    pub fn new() -> GameTree {
        GameTree {
            nodes: vec![Some(Node::default())],
        }
    }

    /// The start position.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The node, unless it was deleted (or belongs to another tree and is out of range).
    pub fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index()).and_then(Option::as_ref)
    }

    fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id.index()).and_then(Option::as_mut)
    }

    /// The continuations of `id` (none for a deleted node).
    /// The moves that follow `id`: the main line's first, then its variations.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.get(id).map_or(&[], |n| &n.children)
    }

    /// The move before `id` (the root for a first move; none for the root).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.get(id).and_then(|n| n.parent)
    }

    /// The move's text; empty for the root or a deleted node.
    pub fn san(&self, id: NodeId) -> &str {
        self.get(id).map_or("", |n| &n.san)
    }

    /// The main line: the first continuation of every node from the start.
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = self.root();
        while let Some(&next) = self.children(at).first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// The moves from the start up to and including `id` (empty for the root or a
    /// deleted node).
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(node) = self.get(at) {
            let Some(parent) = node.parent else { break };
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// Every move of the tree, each before its continuations (main line first).
    pub fn moves(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = self.children(self.root()).iter().rev().copied().collect();
        while let Some(id) = stack.pop() {
            out.push(id);
            stack.extend(self.children(id).iter().rev());
        }
        out
    }

    /// Plays `san` after `parent`: the existing continuation if the same text is already
    /// there, else a new one (the main line if it is the first, else a variation).
    ///
    /// # Panics
    /// If `parent` was deleted or is not a node of this tree.
    pub fn add_move(&mut self, parent: NodeId, san: &str) -> NodeId {
        if let Some(&existing) = self.children(parent).iter().find(|c| self.san(**c) == san) {
            return existing;
        }
        self.push_move(parent, san, None)
    }

    /// A new continuation of `parent`, even if the same move is already there: a file
    /// may give a variation that repeats the main move, and reading keeps what it says.
    pub(crate) fn push_move(&mut self, parent: NodeId, san: &str, place: Option<Place>) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.node_mut(parent)
            .expect("a live node of this tree")
            .children
            .push(id);
        self.nodes.push(Some(Node {
            san: san.to_string(),
            parent: Some(parent),
            place,
            ..Node::default()
        }));
        id
    }

    /// Makes the line through `id` the main line where it branches off: the nearest
    /// node from `id` back to the start that is a variation becomes its parent's first
    /// continuation, the others keeping their order (one level, as lichess's "promote
    /// variation"). Returns whether anything moved (not when `id` is on the main line
    /// of its branch all the way up).
    pub fn promote_variation(&mut self, id: NodeId) -> bool {
        let mut at = id;
        while let Some(parent) = self.parent(at) {
            let siblings = &self.children(parent);
            if let Some(i) = siblings.iter().position(|c| *c == at)
                && i > 0
            {
                let node = self.node_mut(parent).expect("a parent is live");
                let moved = node.children.remove(i);
                node.children.insert(0, moved);
                return true;
            }
            at = parent;
        }
        false
    }

    /// Removes the move `id` and everything after it. The root cannot be deleted.
    /// Returns whether anything was removed.
    pub fn delete(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.parent(id) else {
            return false;
        };
        if let Some(p) = self.node_mut(parent) {
            p.children.retain(|c| *c != id);
        }
        let mut stack = vec![id];
        while let Some(at) = stack.pop() {
            if let Some(node) = self.nodes.get_mut(at.index()).and_then(Option::take) {
                stack.extend(node.children);
            }
        }
        true
    }

    /// The comment before the first move of the game.
    pub fn comment(&self) -> &str {
        self.get(self.root())
            .map_or("", |n| n.comment_after.as_str())
    }

    /// Sets the comment before the first move (cleaned as
    /// [`GameTree::set_comment_after`] cleans).
    pub fn set_comment(&mut self, text: &str) {
        let root = self.root();
        self.set_comment_after(root, text);
    }

    /// Sets the comment before a move (whitespace runs become one space; see
    /// [`GameTree::set_comment_after`]). Nothing for a deleted node.
    pub fn set_comment_before(&mut self, id: NodeId, text: &str) {
        if let Some(n) = self.node_mut(id) {
            n.comment_before = clean_comment(text);
        }
    }

    /// Sets the comment after a move: whitespace runs become one space and `}` becomes
    /// `)`, as the text will read back from a file.
    pub fn set_comment_after(&mut self, id: NodeId, text: &str) {
        if let Some(n) = self.node_mut(id) {
            n.comment_after = clean_comment(text);
        }
    }

    /// Adds a comment after a move, after any comment already there.
    pub(crate) fn append_comment_after(&mut self, id: NodeId, text: &str) {
        let joined = match self.get(id) {
            Some(n) if !n.comment_after.is_empty() => format!("{} {text}", n.comment_after),
            _ => text.to_string(),
        };
        self.set_comment_after(id, &joined);
    }

    /// Adds a numeric annotation glyph to a move.
    pub fn add_nag(&mut self, id: NodeId, nag: u8) {
        if let Some(n) = self.node_mut(id) {
            n.nags.push(nag);
        }
    }

    /// Replaces the annotation glyphs (`$1` is `!`, ...) of move `id`.
    pub fn set_nags(&mut self, id: NodeId, nags: &[u8]) {
        if let Some(n) = self.node_mut(id) {
            n.nags = nags.to_vec();
        }
    }

    /// Replaces a move's text (a replay writes each move in canonical SAN).
    pub fn set_san(&mut self, id: NodeId, san: &str) {
        if let Some(n) = self.node_mut(id) {
            n.san = san.to_string();
        }
    }

    /// Sets the move number a move is written under (a replay sets every node's).
    pub fn set_number(&mut self, id: NodeId, number: MoveNumber) {
        if let Some(n) = self.node_mut(id) {
            n.number = Some(number);
        }
    }
}

/// Two trees are equal when they hold the same moves in the same order with the same
/// annotations and comments. Ids, move numbers and where moves were read are not
/// compared: a tree written and read back is equal to the one written.
impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        let mut stack = vec![(self.root(), other.root())];
        while let Some((a, b)) = stack.pop() {
            let (Some(x), Some(y)) = (self.get(a), other.get(b)) else {
                return false;
            };
            if x.san != y.san
                || x.nags != y.nags
                || x.comment_before != y.comment_before
                || x.comment_after != y.comment_after
                || x.children.len() != y.children.len()
            {
                return false;
            }
            stack.extend(x.children.iter().copied().zip(y.children.iter().copied()));
        }
        true
    }
}

impl Eq for GameTree {}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1. f6 (1. e5 c5 (1... d5)) 1... c5
    fn sample() -> (GameTree, [NodeId; 5]) {
        let mut t = GameTree::new();
        let f6 = t.add_move(t.root(), "f6");
        let e5 = t.add_move(t.root(), "e5");
        let c5 = t.add_move(e5, "c5");
        let d5 = t.add_move(e5, "d5");
        let c5b = t.add_move(f6, "c5");
        (t, [f6, e5, c5, d5, c5b])
    }

    #[test]
    fn adding_a_move_already_there_finds_it() {
        let (mut t, [f6, e5, ..]) = sample();
        assert_eq!(t.add_move(t.root(), "e5"), e5);
        assert_eq!(t.children(t.root()), [f6, e5]);
        assert_eq!(t.path_to(e5), [e5]);
        assert_eq!(t.parent(e5), Some(t.root()));
        assert_eq!(t.parent(t.root()), None);
    }

    #[test]
    fn promote_moves_the_branch_one_level_and_delete_takes_the_rest_away() {
        let (mut t, [f6, e5, c5, d5, c5b]) = sample();
        assert_eq!(t.main_line(), [f6, c5b]);
        // d5 is a variation inside the e5 variation: promoting it swaps d5 and c5 only.
        assert!(t.promote_variation(d5));
        assert_eq!(t.children(e5), [d5, c5]);
        assert_eq!(t.main_line(), [f6, c5b]);
        // Now d5 is first in its branch; promoting again lifts e5 above f6.
        assert!(t.promote_variation(d5));
        assert_eq!(t.main_line(), [e5, d5]);
        assert!(!t.promote_variation(d5), "already the main line");
        assert!(t.delete(e5));
        assert_eq!(t.main_line(), [f6, c5b]);
        assert!(t.get(c5).is_none() && t.get(d5).is_none());
        assert!(t.children(e5).is_empty() && t.path_to(d5).is_empty());
        assert!(!t.delete(t.root()));
        assert!(!t.delete(e5), "already gone");
        // A new move does not reuse a deleted id.
        let again = t.add_move(t.root(), "e5");
        assert_ne!(again, e5);
        assert_eq!(t.moves(), [f6, c5b, again]);
    }

    #[test]
    fn equality_follows_the_moves_not_the_ids() {
        let (mut a, [_, e5, ..]) = sample();
        let (b, _) = sample();
        assert_eq!(a, b);
        a.delete(e5);
        assert_ne!(a, b);
        let mut c = GameTree::new();
        c.add_move(c.root(), "f6");
        let c5 = c.add_move(NodeId(1), "c5");
        assert_eq!(a, c);
        c.set_comment_after(c5, "a  {good}\n move");
        assert_eq!(c.get(c5).unwrap().comment_after(), "a {good) move");
        assert_ne!(a, c);
    }
}
