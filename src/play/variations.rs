//! The moves tried on the analysis board, kept as a tree: the game's moves are its main
//! line, and a move played from an earlier position starts a side line instead of
//! losing what followed. The tree follows the game (any move, undo, load or new game)
//! rather than driving it: the game's line is always one path of the tree, and going to
//! another path is a [`LineRequest`]. A game opened from a file brings its side lines,
//! comments and annotations; a game saved while its tree has side lines keeps them.

use bevy::prelude::*;
use hexchess_core::pgn::{GameTree, NodeId};
use hexchess_core::{Move, Side, Step};

use super::analysis::Analysis;
use crate::game::files::LoadTree;
use crate::game::{BoardPosition, CurrentGame, GameSet, LineRequest, ReviewRequest, UndoRequest};

/// The tree of lines, the game's start it grows from, and where the board is in it.
#[derive(Resource, Clone, Debug)]
pub struct Variations {
    pub tree: GameTree,
    /// The start's FEN: another start is another tree.
    start: String,
    /// The node of the position on the board.
    pub at: Option<NodeId>,
    /// The start's side to move and move number, for numbering the tree's moves.
    pub start_turn: Side,
    pub start_number: u32,
}

impl Default for Variations {
    fn default() -> Variations {
        Variations {
            tree: GameTree::new(),
            start: String::new(),
            at: None,
            start_turn: Side::White,
            start_number: 1,
        }
    }
}

/// Edit the tree: go to a node's position, promote its line, or delete it and what
/// follows.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariationRequest {
    GoTo(NodeId),
    Promote(NodeId),
    Delete(NodeId),
}

pub struct VariationsPlugin;

impl Plugin for VariationsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Variations>()
            .add_message::<VariationRequest>()
            .add_systems(
                Update,
                (
                    rewind_to_the_position_shown,
                    follow_the_game,
                    answer_requests,
                )
                    .chain()
                    .in_set(GameSet::View),
            );
    }
}

impl Variations {
    /// The tree, if it is of `game` (the same start) and holds more than the game's
    /// line: side lines, comments or annotations worth saving with it.
    pub fn worth_saving(&self, game: &CurrentGame) -> Option<&GameTree> {
        let tree = &self.tree;
        let rich = tree.moves().into_iter().any(|n| {
            tree.children(n).len() > 1
                || tree.get(n).is_some_and(|node| {
                    !node.comment_after().is_empty()
                        || !node.comment_before().is_empty()
                        || !node.nags().is_empty()
                })
        }) || tree.children(tree.root()).len() > 1
            || !tree.comment().is_empty();
        (rich && self.start == game.start_position().to_fen()).then_some(tree)
    }

    /// The moves from the start to `node`, read on `start`; `None` if one no longer
    /// reads (it cannot, unless the tree was edited by hand).
    fn moves_to(&self, start: &BoardPosition, node: NodeId) -> Option<Vec<Move>> {
        let mut p = start.clone();
        let mut out = Vec::new();
        for id in self.tree.path_to(node) {
            let mv = p.parse_move(self.tree.san(id)).ok()?;
            p.make_move(mv);
            out.push(mv);
        }
        Some(out)
    }

    /// The main line from `node` on (first children), as moves after `moves`.
    fn continuation(&self, start: &BoardPosition, moves: &[Move], node: NodeId) -> Vec<Move> {
        let mut p = start.clone();
        for &mv in moves {
            p.make_move(mv);
        }
        let mut out = Vec::new();
        let mut at = node;
        while let Some(&next) = self.tree.children(at).first() {
            let Ok(mv) = p.parse_move(self.tree.san(next)) else {
                break;
            };
            p.make_move(mv);
            out.push(mv);
            at = next;
        }
        out
    }
}

/// On the analysis board an earlier position shown becomes the board's position (its
/// later moves wait as redo), so that a move played there starts a side line.
fn rewind_to_the_position_shown(
    analysis: Res<Analysis>,
    game: Res<CurrentGame>,
    mut review: MessageWriter<ReviewRequest>,
    mut undo: MessageWriter<UndoRequest>,
) {
    let Some(shown) = game.viewing.filter(|_| analysis.on) else {
        return;
    };
    let back = game.turn_count().saturating_sub(shown);
    review.write(ReviewRequest(None));
    if back > 0 {
        undo.write(UndoRequest(back));
    }
}

/// Grows the tree with the game's line (the moves played and those waiting as redo).
/// A game loaded from a file brings its own tree (side lines, comments) along.
fn follow_the_game(
    mut variations: ResMut<Variations>,
    mut loaded: MessageReader<LoadTree>,
    game: Res<CurrentGame>,
) {
    let loaded = loaded.read().last().cloned();
    // The tree of lines is a two-player game's (its moves in SAN).
    if (!game.is_changed() && loaded.is_none()) || game.has_more_sides() {
        return;
    }
    let start = game.start_position();
    let fen = start.to_fen();
    let fresh = |tree| Variations {
        tree,
        start: fen.clone(),
        at: None,
        start_turn: start.turn(),
        start_number: start.fullmove_number(),
    };
    if let Some(LoadTree(tree)) = loaded {
        *variations = fresh(tree);
    }
    if variations.start != fen {
        *variations = fresh(GameTree::new());
    }
    let tree = &mut variations.tree;
    let mut node = tree.root();
    let mut p = start;
    for mv in game.position().moves_played() {
        node = tree.add_move(node, &p.move_to_san(mv));
        p.make_move(mv);
    }
    let here = node;
    let redo = game.redo.iter().rev().flatten();
    for step in redo {
        let Step::Play(mv) = *step else { break };
        if !p.is_legal(mv) {
            break;
        }
        node = tree.add_move(node, &p.move_to_san(mv));
        p.make_move(mv);
    }
    variations.at = Some(here);
}

fn answer_requests(
    mut requests: MessageReader<VariationRequest>,
    mut variations: ResMut<Variations>,
    game: Res<CurrentGame>,
    mut lines: MessageWriter<LineRequest>,
) {
    for request in requests.read() {
        let start = game.start_position();
        let target = match *request {
            VariationRequest::GoTo(node) => Some(node),
            VariationRequest::Promote(node) => {
                variations.tree.promote_variation(node);
                None
            }
            VariationRequest::Delete(node) => {
                let parent = variations.tree.parent(node);
                let on_it = variations
                    .at
                    .is_some_and(|at| variations.tree.path_to(at).contains(&node));
                variations.tree.delete(node);
                // The board leaves a line that is gone.
                on_it.then_some(parent).flatten()
            }
        };
        let Some(node) = target else {
            continue;
        };
        if let Some(moves) = variations.moves_to(&start, node) {
            let then = variations.continuation(&start, &moves, node);
            lines.write(LineRequest { moves, then });
        }
    }
}
