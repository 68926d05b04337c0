//! Fitting the evaluation's weights to game results (Texel's tuning method).
//!
//! Every quiet position of a set of finished games is a sample labelled with the game's
//! result for White. The evaluation predicts that result through a logistic curve,
//! `1 / (1 + 10^(-k·score/400))`; the tuner first fits `k` to the starting weights, then
//! changes one weight at a time, keeping each change that lowers the mean squared
//! prediction error. A position is quiet when its side to move is not in check and has
//! no capture or promotion that wins material: there the static evaluation is what a
//! search would settle on, so a wrong prediction is the evaluation's fault alone.
//!
//! One game in ten is held out: its samples never steer the tuning, and their error
//! before and after shows whether the new weights predict games better or only fit the
//! positions they were tuned on.

use std::sync::Arc;

use hexchess_core::catalog::Catalog;
use hexchess_core::moves::MoveList;
use hexchess_core::pgn::{PgnGame, ReplayError};
use hexchess_core::piece::Side;
use hexchess_core::position::Position;
use hexchess_core::rules::Rules;
use hexchess_engine::eval::{EvalMode, EvalWeights, Evaluator};
use hexchess_engine::see::see;

/// One labelled position.
#[derive(Clone)]
pub struct Sample {
    /// The position, as the game reached it.
    pub position: Position,
    /// The game's result for White: 1, 1/2, 0, or the variant's stalemate share.
    pub result: f64,
}

/// The samples of one variant (one evaluator serves them all).
pub struct VariantSamples {
    /// The variant.
    pub rules: Arc<Rules>,
    /// Its positions.
    pub samples: Vec<Sample>,
}

/// Samples by variant, split into a training and a held-out part.
#[derive(Default)]
pub struct SampleSet {
    /// The positions the weights are fitted to.
    pub training: Vec<VariantSamples>,
    /// The positions kept apart, to see whether a fit holds beyond them.
    pub held_out: Vec<VariantSamples>,
    /// Games added so far (counting those that gave no sample).
    pub games: usize,
}

impl SampleSet {
    /// Adds the quiet positions of one game from its `skip_plies`-th ply on (the plies
    /// before are the opening book's, and say little about the evaluation); every tenth
    /// game goes to the held-out part. A game without a result (`*`) adds nothing.
    /// Returns how many samples the game gave.
    pub fn add_game(
        &mut self,
        record: &PgnGame,
        catalog: &Catalog,
        skip_plies: usize,
    ) -> Result<usize, ReplayError> {
        let Some(result) = record.tag("Result").and_then(white_score) else {
            return Ok(0);
        };
        let mut found = Vec::new();
        let mut scratch = MoveList::new();
        let mut evaluator: Option<Evaluator> = None;
        let mut ply = 0;
        let game = record.replay_main_line(catalog)?;
        // The tuner fits the two-player evaluation: other games have nothing for it.
        let Some(rules) = catalog
            .get(game.position().rules().id())
            .and_then(|e| e.two_player_rules())
        else {
            return Ok(0);
        };
        let end = game.replay_on(rules, |pos| {
            ply += 1;
            if ply <= skip_plies || pos.outcome().is_some() {
                return;
            }
            // Every position of a game has the same rules.
            let eval = evaluator.get_or_insert_with(|| Evaluator::new(pos.rules()));
            if is_quiet(pos, eval, &mut scratch) {
                found.push(detached(pos));
            }
        });
        let part = if self.games % 10 == 9 {
            &mut self.held_out
        } else {
            &mut self.training
        };
        self.games += 1;
        let added = found.len();
        let rules = end.rules_arc();
        let samples = found
            .into_iter()
            .map(|position| Sample { position, result });
        match part.iter_mut().find(|g| Arc::ptr_eq(&g.rules, rules)) {
            Some(group) => group.samples.extend(samples),
            None => part.push(VariantSamples {
                rules: Arc::clone(rules),
                samples: samples.collect(),
            }),
        }
        Ok(added)
    }

    /// Samples in the training part.
    pub fn training_len(&self) -> usize {
        self.training.iter().map(|g| g.samples.len()).sum()
    }

    /// Samples in the held-out part.
    pub fn held_out_len(&self) -> usize {
        self.held_out.iter().map(|g| g.samples.len()).sum()
    }
}

/// A result as a record writes it, as White's share of the point: `1-0`, `0-1`,
/// `1/2-1/2`, `3/4-1/4`, `1/4-3/4`. `None` for an unfinished game (`*`) or anything else.
pub fn white_score(result: &str) -> Option<f64> {
    let (white, _) = result.split_once('-')?;
    match white.trim() {
        "1" => Some(1.0),
        "0" => Some(0.0),
        "1/2" => Some(0.5),
        "3/4" => Some(0.75),
        "1/4" => Some(0.25),
        _ => None,
    }
}

/// Not in check, and no capture or promotion wins material by static exchange.
pub fn is_quiet(pos: &Position, eval: &Evaluator, scratch: &mut MoveList) -> bool {
    if pos.in_check() {
        return false;
    }
    pos.legal_noisy_moves_into(scratch);
    scratch
        .iter()
        .all(|&mv| mv.promotion().is_none() && see(pos, eval, mv) <= 0)
}

/// The same position without the moves that led to it (a sample needs only the board;
/// the history of every position of every game would not fit in memory).
fn detached(pos: &Position) -> Position {
    let mut p = pos.clone();
    p.clear_history();
    p
}

/// The logistic curve from a White-positive score in centipawns to White's expected
/// share of the point.
pub fn expected(score: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score as f64 / 400.0))
}

/// Mean squared difference between the results and what the evaluation with `weights`
/// predicts, over every sample of `groups`, computed on `threads` threads.
pub fn mean_error(groups: &[VariantSamples], weights: &EvalWeights, k: f64, threads: usize) -> f64 {
    let mut total = 0.0;
    let mut count = 0usize;
    for group in groups {
        let eval = Evaluator::with_weights(&group.rules, weights);
        let chunk = group.samples.len().div_ceil(threads.max(1)).max(1);
        total += std::thread::scope(|scope| {
            let handles: Vec<_> = group
                .samples
                .chunks(chunk)
                .map(|part| scope.spawn(|| squared_errors(part, &eval, k)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("an error sum does not panic"))
                .sum::<f64>()
        });
        count += group.samples.len();
    }
    if count == 0 {
        0.0
    } else {
        total / count as f64
    }
}

fn squared_errors(samples: &[Sample], eval: &Evaluator, k: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let own = eval.evaluate(&s.position, EvalMode::FULL);
            let white = match s.position.turn() {
                Side::White => own,
                _ => -own,
            };
            let e = s.result - expected(white, k);
            e * e
        })
        .sum()
}

/// The scale `k` of the logistic curve that makes `weights` predict `groups` best
/// (golden-section search between 0.05 and 5).
pub fn fit_scale(groups: &[VariantSamples], weights: &EvalWeights, threads: usize) -> f64 {
    let error = |k: f64| mean_error(groups, weights, k, threads);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let mut a = hi - ratio * (hi - lo);
    let mut b = lo + ratio * (hi - lo);
    let (mut fa, mut fb) = (error(a), error(b));
    while hi - lo > 0.002 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - ratio * (hi - lo);
            fa = error(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + ratio * (hi - lo);
            fb = error(b);
        }
    }
    (lo + hi) / 2.0
}

/// Where the tuning stands after a sweep over every weight.
#[derive(Clone, Debug)]
pub struct TuneProgress {
    /// Sweeps done.
    pub sweep: usize,
    /// The mean squared error on the training samples.
    pub error: f64,
    /// The curve's scale refitted to the weights.
    pub k: f64,
    /// The weights so far.
    pub weights: EvalWeights,
}

/// Lowers the training error by changing one weight at a time: each weight moves by its
/// step while that helps (up to eight steps a sweep), in whichever direction helps; when
/// a sweep changes nothing the steps are halved, and the tuning ends when a sweep with
/// steps of one changes nothing, or after `sweeps` sweeps. Weights stay at zero or above
/// (each is the size of an idea whose sign the evaluation fixes).
///
/// After every sweep the curve's scale `k` is refitted. Material, which the weights do
/// not touch, dominates the score: with `k` fixed, shrinking every positional weight
/// would pass for progress merely by making the predictions less confident; with `k`
/// free, a weight changes only when it ranks positions better.
///
/// `frozen[i]` keeps weight `i` (in [`EvalWeights::NAMES`] order) as it starts.
pub fn tune(
    set: &SampleSet,
    start: &EvalWeights,
    frozen: &[bool; EvalWeights::LEN],
    mut k: f64,
    sweeps: usize,
    threads: usize,
    mut progress: impl FnMut(&TuneProgress),
) -> EvalWeights {
    let weights = |v: &[i32]| EvalWeights::from_slice(v).expect("the tuner keeps every weight");
    let error = |v: &[i32], k: f64| mean_error(&set.training, &weights(v), k, threads);
    let mut best = start.to_vec();
    let mut best_error = error(&best, k);
    let mut steps: Vec<i32> = best.iter().map(|w| (w.abs() / 4).max(1)).collect();
    for sweep in 1..=sweeps {
        let mut changed = false;
        for i in (0..best.len()).filter(|i| !frozen[*i]) {
            for direction in [1, -1] {
                let mut moved = false;
                for _ in 0..8 {
                    let mut candidate = best.clone();
                    candidate[i] += direction * steps[i];
                    // Weights stay positive, and within what the engine accepts.
                    if candidate[i] < 0 || !EvalWeights::RANGE.contains(&candidate[i]) {
                        break;
                    }
                    let e = error(&candidate, k);
                    if e >= best_error {
                        break;
                    }
                    best = candidate;
                    best_error = e;
                    moved = true;
                }
                if moved {
                    changed = true;
                    break;
                }
            }
        }
        let refitted = fit_scale(&set.training, &weights(&best), threads);
        let refitted_error = error(&best, refitted);
        if refitted_error < best_error {
            k = refitted;
            best_error = refitted_error;
        }
        progress(&TuneProgress {
            sweep,
            error: best_error,
            k,
            weights: weights(&best),
        });
        if !changed {
            if steps.iter().all(|s| *s == 1) {
                break;
            }
            for s in &mut steps {
                *s = (*s / 2).max(1);
            }
        }
    }
    weights(&best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexchess_core::variant::builtin;

    #[test]
    fn results_read_as_whites_share() {
        assert_eq!(white_score("1-0"), Some(1.0));
        assert_eq!(white_score("0-1"), Some(0.0));
        assert_eq!(white_score("1/2-1/2"), Some(0.5));
        assert_eq!(white_score("3/4-1/4"), Some(0.75));
        assert_eq!(white_score("1/4-3/4"), Some(0.25));
        assert_eq!(white_score("*"), None);
    }

    #[test]
    fn the_curve_is_even_at_zero_and_rises_with_the_score() {
        assert!((expected(0, 1.0) - 0.5).abs() < 1e-12);
        assert!(expected(100, 1.0) > expected(50, 1.0));
        assert!((expected(400, 1.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected(-300, 0.8) + expected(300, 0.8) - 1.0).abs() < 1e-12);
    }

    fn rules(id: &str) -> Arc<Rules> {
        Arc::new(Rules::new(&builtin(id).unwrap().unwrap()).unwrap())
    }

    #[test]
    fn a_position_with_a_winning_capture_or_a_check_is_not_quiet() {
        let r = rules("glinski");
        let eval = Evaluator::new(&r);
        let mut scratch = MoveList::new();
        assert!(is_quiet(
            &Position::start(Arc::clone(&r)),
            &eval,
            &mut scratch
        ));
        let after = |moves: &str| {
            let mut pos = Position::start(Arc::clone(&r));
            for m in moves.split_whitespace() {
                let mv = pos.parse_move(m).unwrap();
                pos.make_move(mv);
            }
            pos
        };
        // 1. e6 g5 leaves the pawn on g5 to the one on f5 (fxg5 wins a pawn).
        assert!(!is_quiet(&after("e6 g5"), &eval, &mut scratch));
        // 1. e6 f6: exf6 only trades pawns.
        assert!(is_quiet(&after("e6 f6"), &eval, &mut scratch));
        // From a game of the match tool: 9. Qxe10+ gives check.
        let check = "Bh4 Be9 Nhf4 Ndf8 e6 g5 fxg5 Nxg5 Ne4 Rk4 exf7 Nxf3 Kxf3 Bxh4 Nxh4 exf7 Qxe10";
        assert!(after(check).in_check());
        assert!(!is_quiet(&after(check), &eval, &mut scratch));
    }

    /// Positions of random games (quiet ones, from the tenth ply on), each with the
    /// game record that leads to it.
    fn random_games(r: &Arc<Rules>, games: usize, seed: u64) -> Vec<Position> {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let mut ends = Vec::new();
        for _ in 0..games {
            let mut pos = Position::start(Arc::clone(r));
            for _ in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.random_range(0..moves.len())]);
            }
            ends.push(pos);
        }
        ends
    }

    #[test]
    fn every_tenth_game_is_held_out() {
        let r = rules("glinski");
        let catalog = Catalog::builtin();
        let mut set = SampleSet::default();
        let mut added = Vec::new();
        for end in random_games(&r, 20, 1) {
            let record = PgnGame::from_position(&end, None, &[("Result", "1-0".into())]);
            added.push(set.add_game(&record, &catalog, 10).unwrap());
        }
        // A game without a result gives nothing.
        let unfinished = PgnGame::from_position(&random_games(&r, 1, 2)[0], None, &[]);
        assert_eq!(set.add_game(&unfinished, &catalog, 10).unwrap(), 0);
        assert_eq!(set.games, 20);
        assert_eq!(set.held_out_len(), added[9] + added[19]);
        assert_eq!(
            set.training_len() + set.held_out_len(),
            added.iter().sum::<usize>()
        );
        assert!(set.training_len() > 20, "{} samples", set.training_len());
        assert!(
            set.training[0]
                .samples
                .iter()
                .all(|s| s.result == 1.0 && s.position.ply_count() == 0)
        );
    }

    #[test]
    fn tuning_finds_the_weights_that_made_the_results() {
        // Label quiet positions of random games with what weights that value mobility
        // and the pawn shield more would predict; tuning from the defaults must move
        // towards them and predict the labels better.
        let r = rules("glinski");
        let target = EvalWeights {
            mobility: [70, 70],
            shield: 30,
            ..EvalWeights::default()
        };
        let judge = Evaluator::with_weights(&r, &target);
        let k = 0.5;
        let mut scratch = MoveList::new();
        let mut samples = Vec::new();
        for end in random_games(&r, 60, 3) {
            let mut pos = end;
            while pos.ply_count() > 10 {
                if is_quiet(&pos, &judge, &mut scratch) {
                    let own = judge.evaluate(&pos, EvalMode::FULL);
                    let white = if pos.turn() == Side::White { own } else { -own };
                    samples.push(Sample {
                        position: detached(&pos),
                        result: expected(white, k),
                    });
                }
                pos.unmake_move();
            }
        }
        let set = SampleSet {
            training: vec![VariantSamples {
                rules: Arc::clone(&r),
                samples,
            }],
            held_out: Vec::new(),
            games: 60,
        };
        let start = EvalWeights::default();
        let mut sweeps = 0;
        let mut frozen = [false; EvalWeights::LEN];
        let tuned = tune(&set, &start, &frozen, k, 30, 2, |_| sweeps += 1);
        assert!(sweeps > 0);
        let error = |w: &EvalWeights| mean_error(&set.training, w, k, 2);
        assert!(error(&tuned) < error(&start) / 4.0, "{tuned}");
        assert!((tuned.mobility[0] - 70).abs() < 15, "{tuned}");
        assert!((tuned.shield - 30).abs() < 10, "{tuned}");

        // A frozen weight keeps its value.
        frozen[EvalWeights::NAMES
            .iter()
            .position(|n| *n == "shield")
            .unwrap()] = true;
        let partly = tune(&set, &start, &frozen, k, 30, 2, |_| {});
        assert_eq!(partly.shield, start.shield);
        assert!(
            (partly.mobility[0] - 70).abs() < (start.mobility[0] - 70).abs(),
            "{partly}"
        );
    }
}
