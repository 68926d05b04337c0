//! The endgame trainer: a won position of a small ending, played against perfect
//! defence from the endgame tables, with the distance to mate after every move and the
//! move where a win slipped.
//!
//! Wins are the move rule's (a draw after so many plies without a capture or pawn
//! move): a drill starts only where the win can be had within the rule, and a move that
//! keeps the mate but lets the rule draw (a cursed win) has let the win slip.
//!
//! The tables come from the per-user data folder (`hexchess-engine tb generate` writes
//! them there); a missing one is built on a thread the first time (K+Q v K+R takes
//! about half a minute) and saved for next time. The engine opponent reads the same
//! folder in every game, so it defends perfectly here.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use hexchess_core::{Position, Rules, Side};
use hexchess_engine::endgame::TableValue;
use hexchess_engine::{Skill, TablebaseShelf, Tablebases};
use hexchess_files::Files;
use hexchess_tablebase::{Material, RuleValue, Table, Value, default_dir};
use rand::Rng;

use super::seats::Seats;
use super::session::StartGame;
use super::work::Answer;
use super::work::tablebases::{TablebaseBuild, TablebaseRequest};
use crate::PlayerFiles;
use crate::game::{BoardChanged, CurrentGame, GameNotice, GameSet, Variants};

/// The endings offered, White's men first: each is a win for White in most positions.
pub const ENDINGS: [&str; 9] = [
    "KQvK", "KRvK", "KPvK", "KNNvK", "KBNvK", "KRvKN", "KRvKB", "KQvKR", "KQvKB",
];

/// Which won position to start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Any position White wins.
    Random,
    /// A position where White mates in this many moves (the nearest there is).
    MateIn(u16),
}

/// Start a drill: `ending` of `variant` from a won position.
#[derive(Message, Clone, Debug)]
pub struct StartDrill {
    pub variant: String,
    pub ending: String,
    pub target: Target,
}

/// What the table says about one move of the drill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The move in SAN, with its move number.
    pub san: String,
    /// The position after it, for its side to move.
    pub after: TableValue,
    /// The mover had a win within the move rule and this move let it go (to a cursed
    /// win, a draw or worse).
    pub slipped: bool,
    /// The mover still wins, but more slowly than the best move would.
    pub slower: bool,
    /// The table's best move here, in SAN, when this one was not as good.
    pub best: Option<String>,
}

/// A drill under way.
#[derive(Clone, Debug)]
pub struct Drill {
    pub ending: String,
    /// The side the player has (the stronger one).
    pub player: Side,
    /// The position's value for its side to move now.
    pub now: Option<TableValue>,
    /// Each move since the start, judged.
    pub verdicts: Vec<Verdict>,
    /// The start position: a game from it is this drill's.
    start_fen: String,
    /// The position's ply count at the start, once the game has begun.
    start_ply: Option<usize>,
}

impl Drill {
    /// The first move that let a win go, if any.
    pub fn slip(&self) -> Option<&Verdict> {
        self.verdicts.iter().find(|v| v.slipped)
    }
}

/// A table being built off the frame.
pub struct Building {
    pub ending: String,
    /// The build (its progress lines: [`TablebaseBuild::progress`]).
    pub build: TablebaseBuild,
    request: StartDrill,
}

impl Building {
    /// Asks the build to stop; the drill is not started.
    pub fn cancel(&self) {
        self.build.stop();
    }
}

/// The trainer's state.
#[derive(Resource)]
pub struct Trainer {
    pub drill: Option<Drill>,
    pub building: Option<Building>,
    /// The tables of the position on the board, when there are (any game).
    pub tables: Arc<Tablebases>,
    /// The tables read so far, from the player's files (where builds write too).
    shelf: TablebaseShelf,
    /// The position `tables` were looked up for.
    looked_up: Option<(u64, usize)>,
}

pub struct TrainerPlugin;

impl Plugin for TrainerPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Trainer>()
            .add_message::<StartDrill>()
            .add_systems(
                Update,
                (start_drills, finish_builds).chain().in_set(GameSet::Input),
            )
            .add_systems(
                Update,
                (look_up_tables, judge_moves)
                    .chain()
                    .after(GameSet::Apply)
                    .before(GameSet::View),
            );
    }
}

impl FromWorld for Trainer {
    /// No drill yet; tables in the [`PlayerFiles`].
    fn from_world(world: &mut World) -> Trainer {
        let files = world.resource::<PlayerFiles>().0.clone();
        Trainer {
            drill: None,
            building: None,
            tables: Arc::default(),
            shelf: TablebaseShelf::new(files),
            looked_up: None,
        }
    }
}

impl Trainer {
    /// The folder tables are kept in.
    fn table_dir(&self) -> Option<PathBuf> {
        default_dir(self.shelf.files())
    }
}

/// A drill asked for: started at once when its tables are on disk, else they are built
/// first on a thread.
fn start_drills(
    mut requests: MessageReader<StartDrill>,
    variants: Res<Variants>,
    mut trainer: ResMut<Trainer>,
    mut notices: MessageWriter<GameNotice>,
    mut start_game: MessageWriter<StartGame>,
) {
    for request in requests.read() {
        let Some(rules) = variants
            .0
            .get(&request.variant)
            .and_then(|e| e.two_player_rules())
        else {
            notices.write(GameNotice(format!("unknown variant '{}'", request.variant)));
            continue;
        };
        let material = match Material::parse(&request.ending, &rules) {
            Ok(m) => m,
            Err(e) => {
                notices.write(GameNotice(format!("{}: {e}", request.ending)));
                continue;
            }
        };
        let Some(dir) = trainer.table_dir() else {
            notices.write(GameNotice(
                "no per-user data folder for endgame tables here".into(),
            ));
            continue;
        };
        match load_all(&mut trainer, &dir, &rules, &material) {
            Ok(tables) => begin(
                &mut trainer,
                tables,
                &material,
                request,
                &mut notices,
                &mut start_game,
            ),
            // Missing, or from other rules or damaged: (re)built on a thread first.
            Err(_) => match build_off_the_frame(
                trainer.shelf.files().clone(),
                dir,
                rules,
                material,
                request.clone(),
            ) {
                Ok(building) => trainer.building = Some(building),
                Err(e) => {
                    notices.write(GameNotice(format!("{}: {e}", request.ending)));
                }
            },
        }
    }
}

/// Builds every table `material` needs that is not in `dir` yet, and saves each, off
/// the frame ([`TablebaseBuild`]).
fn build_off_the_frame(
    files: Files,
    dir: PathBuf,
    rules: Arc<Rules>,
    material: Material,
    request: StartDrill,
) -> Result<Building, String> {
    let build = TablebaseBuild::start(TablebaseRequest {
        files,
        dir,
        rules,
        material,
        variant: request.variant.clone(),
        ending: request.ending.clone(),
    })?;
    Ok(Building {
        ending: request.ending.clone(),
        build,
        request,
    })
}

/// A finished build starts its drill (or says why it could not).
fn finish_builds(
    mut trainer: ResMut<Trainer>,
    variants: Res<Variants>,
    mut notices: MessageWriter<GameNotice>,
    mut start_game: MessageWriter<StartGame>,
) {
    let Some(building) = trainer.building.as_mut() else {
        return;
    };
    let outcome = match building.build.poll() {
        Answer::Pending => return,
        Answer::Ready(outcome) => outcome,
        Answer::Lost => Err("the table build failed".into()),
    };
    let request = trainer.building.take().expect("checked").request;
    match outcome {
        Err(e) => {
            notices.write(GameNotice(format!("{}: {e}", request.ending)));
        }
        Ok(()) => {
            let Some(entry) = variants.0.get(&request.variant) else {
                return;
            };
            let Some(rules) = entry.two_player_rules() else {
                return;
            };
            let (Some(dir), Ok(material)) = (
                trainer.table_dir(),
                Material::parse(&request.ending, &rules),
            ) else {
                return;
            };
            match load_all(&mut trainer, &dir, &rules, &material) {
                Ok(tables) => begin(
                    &mut trainer,
                    tables,
                    &material,
                    &request,
                    &mut notices,
                    &mut start_game,
                ),
                Err(errors) => {
                    for e in errors {
                        notices.write(GameNotice(e));
                    }
                }
            }
        }
    }
}

/// Every table a drill of `material` needs, read from `dir`; why not, when one is
/// missing or cannot be used.
fn load_all(
    trainer: &mut Trainer,
    dir: &std::path::Path,
    rules: &Arc<Rules>,
    material: &Material,
) -> Result<Tablebases, Vec<String>> {
    let needed = material.endings_reached(rules);
    let (tables, mut errors) = trainer.shelf.for_material(dir, rules, material);
    if tables.len() < needed.len() && errors.is_empty() {
        errors.push(format!(
            "{} of {} tables missing",
            needed.len() - tables.len(),
            needed.len()
        ));
    }
    if errors.is_empty() {
        Ok(tables)
    } else {
        Err(errors)
    }
}

/// Picks the start and starts the game: the player has White's men against the engine
/// at full strength (which defends by the tables).
fn begin(
    trainer: &mut Trainer,
    tables: Tablebases,
    material: &Material,
    request: &StartDrill,
    notices: &mut MessageWriter<GameNotice>,
    start_game: &mut MessageWriter<StartGame>,
) {
    let Some(own) = tables.table_of(material) else {
        notices.write(GameNotice(format!("no table for {}", request.ending)));
        return;
    };
    let Some(start) = pick_start(&own, request.target) else {
        notices.write(GameNotice(format!(
            "{}: no won position for White in this variant",
            request.ending
        )));
        return;
    };
    trainer.drill = Some(Drill {
        ending: request.ending.clone(),
        player: Side::White,
        now: tables.probe_full(&start),
        verdicts: Vec::new(),
        start_fen: start.to_fen(),
        start_ply: None,
    });
    trainer.tables = Arc::new(tables);
    trainer.looked_up = None;
    crate::web::milestone(&format!("drill started {}", request.ending));
    start_game.write(StartGame {
        variant: request.variant.clone(),
        seats: Seats::against_engines(Side::White),
        level: Skill::FULL,
        time_control: None,
        fen: Some(start.to_fen()),
        moves: Vec::new(),
    });
}

/// A position White to move wins within the move rule (with the count at zero, where
/// the table keeps the rule): any, or one nearest mate in `n` moves. One pass over
/// the table, drawing among the equally good by reservoir sampling (no list of millions
/// of candidates), then one of the position's images under the board's symmetries, so
/// the same family does not always look the same.
pub fn pick_start(table: &Table, target: Target) -> Option<Position> {
    let mut rng = rand::rng();
    let wanted = match target {
        Target::Random => None,
        Target::MateIn(n) => Some(2 * n.max(1) - 1),
    };
    // (distance from the wanted length, slot, how many seen at that distance)
    let mut pick: Option<(u16, usize, u64)> = None;
    for (i, v) in table.values() {
        let Value::Win(d) = v else {
            continue;
        };
        let cursed = table
            .rule_at(i, 0)
            .is_some_and(|r| r.value != RuleValue::Win);
        if d < 2 || cursed || table.side_to_move(i) != Side::White {
            continue;
        }
        let gap = wanted.map_or(0, |w| d.abs_diff(w));
        pick = match pick {
            Some((best, _, _)) if gap > best => pick,
            Some((best, chosen, seen)) if gap == best => {
                let seen = seen + 1;
                let chosen = if rng.random_range(0..seen) == 0 {
                    i
                } else {
                    chosen
                };
                Some((best, chosen, seen))
            }
            _ => Some((gap, i, 1)),
        };
    }
    let (_, i, _) = pick?;
    let g = rng.random_range(0..table.symmetries());
    Some(table.position_under(i, g))
}

/// The tables for the position on the board, looked up when it changes: the drill's
/// own, or any on disk for a small ending in another game.
pub(super) fn look_up_tables(
    game: Res<CurrentGame>,
    mut trainer: ResMut<Trainer>,
    mut notices: MessageWriter<GameNotice>,
) {
    let key = (game.position().hash(), game.position().ply_count());
    if trainer.looked_up == Some(key) {
        return;
    }
    trainer.looked_up = Some(key);
    // The tables are two-player positions on the engine's cell sets.
    let Some(position) = game.two_player_position() else {
        return;
    };
    if trainer.drill.is_some() && trainer.tables.probe(&position).is_some() {
        return;
    }
    let Some(dir) = trainer.table_dir() else {
        return;
    };
    let trainer = &mut *trainer;
    // A file that cannot be used is said once (the shelf remembers it until it changes).
    let (tables, errors) = trainer.shelf.for_position(&dir, &position);
    for e in errors {
        notices.write(GameNotice(format!("endgame table left out: {e}")));
    }
    trainer.tables = Arc::new(tables);
}

/// After each move of a drill: the table's verdict on it, and the value now. A take-back
/// forgets the verdicts past the position now; a game from another start ends the drill.
fn judge_moves(
    mut changes: MessageReader<BoardChanged>,
    game: Res<CurrentGame>,
    mut trainer: ResMut<Trainer>,
) {
    let trainer = &mut *trainer;
    for change in changes.read() {
        let Some(drill) = trainer.drill.as_mut() else {
            continue;
        };
        match change {
            BoardChanged::Reset { .. } => {
                if game.start_fen.as_deref() != Some(drill.start_fen.as_str()) {
                    trainer.drill = None;
                    continue;
                }
                let start = *drill
                    .start_ply
                    .get_or_insert_with(|| game.position().ply_count());
                let made = game.position().ply_count().saturating_sub(start);
                drill.verdicts.truncate(made);
                drill.now = game
                    .two_player_position()
                    .and_then(|p| trainer.tables.probe_full(&p));
            }
            BoardChanged::Played(_) => judge_last_move(drill, &trainer.tables, &game),
        }
    }
}

/// Judges the game's last move with the tables.
fn judge_last_move(drill: &mut Drill, tables: &Tablebases, game: &CurrentGame) {
    let start = drill.start_ply.unwrap_or(0);
    let made = game.position().ply_count().saturating_sub(start);
    // A move after a take-back: forget the verdicts past the position it was made from.
    drill.verdicts.truncate(made.saturating_sub(1));
    let Some(now) = game.two_player_position() else {
        return;
    };
    let Some(last) = now.last_move() else {
        return;
    };
    let mut before = now.clone();
    before.unmake_move();
    let after = tables.probe_full(&now);
    drill.now = after;
    let (Some(after), Some(ranked)) = (after, tables.rank_moves(&before)) else {
        return;
    };
    let Some(&(best_move, best)) = ranked.first() else {
        return;
    };
    let got = after.for_mover(now.halfmove_clock() == 0);
    let wins = |v: TableValue| v.rule_value() == RuleValue::Win;
    let slipped = wins(best) && !wins(got);
    let slower = !slipped && got.rank() < best.rank();
    let san = game
        .move_texts()
        .last()
        .cloned()
        .unwrap_or_else(|| before.move_to_san(last));
    drill.verdicts.push(Verdict {
        san,
        after,
        slipped,
        slower,
        best: (slipped || slower).then(|| before.move_to_san(best_move)),
    });
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use hexchess_core::{Catalog, Position, Side, Step};
    use hexchess_engine::Tablebases;
    use hexchess_tablebase::{Material, RuleValue, Table, Value};

    use super::{Drill, Target, judge_last_move, pick_start};
    use crate::game::CurrentGame;

    fn krk() -> (Arc<Table>, Arc<Tablebases>) {
        let rules = Catalog::builtin()
            .get("glinski")
            .unwrap()
            .two_player_rules()
            .unwrap();
        let krk =
            Arc::new(Table::generate(&rules, &Material::parse("KRvK", &rules).unwrap()).unwrap());
        let kk =
            Arc::new(Table::generate(&rules, &Material::parse("KvK", &rules).unwrap()).unwrap());
        (Arc::clone(&krk), Arc::new(Tablebases::new(vec![krk, kk])))
    }

    #[test]
    fn a_drill_starts_from_a_win_for_white_near_the_distance_asked() {
        let (table, _) = krk();
        for n in [3u16, 10, 20] {
            let pos = pick_start(&table, Target::MateIn(n)).unwrap();
            assert_eq!(pos.turn(), Side::White);
            let Some(Value::Win(d)) = table.probe(&pos) else {
                panic!("{} is no win", pos.to_fen());
            };
            // K+R v K's longest mate is 40 plies: every distance up to it is there.
            assert_eq!(d, 2 * n - 1, "{}", pos.to_fen());
        }
        let pos = pick_start(&table, Target::Random).unwrap();
        assert!(matches!(table.probe(&pos), Some(Value::Win(_))));
    }

    #[test]
    fn a_move_that_keeps_the_mate_but_lets_the_move_rule_draw_has_let_the_win_slip() {
        let (table, tables) = krk();
        // A won position with just enough plies left on the clock, and a move that still
        // mates by the table's distance but not before the rule draws.
        let (start, cursing) = table
            .values()
            .filter(|(i, v)| matches!(v, Value::Win(_)) && table.side_to_move(*i) == Side::White)
            .find_map(|(i, _)| {
                let dtz = table.rule_at(i, 0)?.dtz?;
                let fen = table.position(i).to_fen();
                let mut fields: Vec<String> = fen.split_whitespace().map(String::from).collect();
                let n = fields.len();
                fields[n - 2] = (100 - dtz).to_string();
                let pos = Position::from_fen(Arc::clone(table.rules()), &fields.join(" ")).ok()?;
                let ranked = tables.rank_moves(&pos)?;
                let cursing = ranked.iter().find(|(_, v)| {
                    matches!(v.value, Value::Win(_)) && v.rule_value() == RuleValue::CursedWin
                })?;
                Some((pos, cursing.0))
            })
            .expect("such a position");
        let mut game = on_the_board(&start);
        let mut drill = krk_drill(&start, &tables);
        assert_eq!(drill.now.unwrap().rule_value(), RuleValue::Win);
        game.played.play(Step::Play(cursing)).unwrap();
        judge_last_move(&mut drill, &tables, &game);
        let v = &drill.verdicts[0];
        // Black to move is mated by the table, but the rule saves it.
        assert!(matches!(v.after.value, Value::Loss(_)), "{v:?}");
        assert_eq!(v.after.rule_value(), RuleValue::BlessedLoss);
        assert!(v.slipped && v.best.is_some(), "{v:?}");
    }

    /// A K+R v K drill from `start`, begun.
    fn krk_drill(start: &Position, tables: &Tablebases) -> Drill {
        Drill {
            ending: "KRvK".into(),
            player: Side::White,
            now: tables.probe_full(start),
            verdicts: Vec::new(),
            start_fen: start.to_fen(),
            start_ply: Some(start.ply_count()),
        }
    }

    /// A game on the board from `start` (a two-player position of the drill's variant).
    fn on_the_board(start: &Position) -> CurrentGame {
        let catalog = hexchess_core::Catalog::builtin();
        let entry = catalog.get(start.rules().id()).unwrap();
        CurrentGame::from_moves(entry, Some(&start.to_fen()), &[] as &[&str]).unwrap()
    }

    fn narrow(game: &CurrentGame) -> Position {
        game.two_player_position().unwrap()
    }

    #[test]
    fn each_move_is_judged_and_a_slipped_win_is_named_with_the_move_that_kept_it() {
        let (table, tables) = krk();
        let start = pick_start(&table, Target::MateIn(8)).unwrap();
        let mut game = on_the_board(&start);
        let mut drill = krk_drill(&start, &tables);
        // The table's best move: judged good.
        let best = tables.rank_moves(&start).unwrap()[0].0;
        game.played.play(Step::Play(best)).unwrap();
        judge_last_move(&mut drill, &tables, &game);
        assert_eq!(drill.verdicts.len(), 1);
        assert!(!drill.verdicts[0].slipped && !drill.verdicts[0].slower);
        assert_eq!(drill.now, tables.probe_full(&narrow(&game)));
        // Black's best reply, then a White move that hangs the rook, if there is one:
        // the win slips, and the verdict names a move that kept it.
        let reply = tables.rank_moves(&narrow(&game)).unwrap()[0].0;
        game.played.play(Step::Play(reply)).unwrap();
        judge_last_move(&mut drill, &tables, &game);
        let ranked = tables.rank_moves(&narrow(&game)).unwrap();
        if let Some(&(blunder, _)) = ranked
            .iter()
            .find(|(_, v)| !matches!(v.value, Value::Win(_)))
        {
            game.played.play(Step::Play(blunder)).unwrap();
            judge_last_move(&mut drill, &tables, &game);
            let v = drill.verdicts.last().unwrap();
            assert!(v.slipped, "{v:?}");
            assert_eq!(drill.slip(), Some(v));
            assert!(v.best.is_some());
        }
        // A slower win: marked slower, not slipped.
        let mut game2 = on_the_board(&start);
        let mut drill2 = drill.clone();
        drill2.verdicts.clear();
        let ranked = tables.rank_moves(&start).unwrap();
        let best_rank = ranked[0].1.rank();
        if let Some(&(slow, _)) = ranked
            .iter()
            .find(|(_, v)| v.rule_value() == RuleValue::Win && v.rank() < best_rank)
        {
            game2.played.play(Step::Play(slow)).unwrap();
            judge_last_move(&mut drill2, &tables, &game2);
            assert!(drill2.verdicts[0].slower && !drill2.verdicts[0].slipped);
        }
    }
}
