//! The Dutch pairing against bbpPairings, the FIDE-endorsed program: each file in
//! `tests/dutch/` is a whole tournament generated and paired round by round by
//! bbpPairings (`bbpPairings.exe --dutch -g CONFIG -o FILE -s SEED`; the folder's
//! README says which). Every round of it is paired again here from the tournament
//! as it stood before that round, and must come out as bbpPairings paired it: the
//! same boards with the same colours, the same bye.

use std::collections::BTreeSet;
use std::path::Path;

use hexchess_tournament::round_robin::Number;
use hexchess_tournament::swiss::{Board, pair_next_round};
use hexchess_tournament::trf::{self, Colour, RoundResult, Tournament};

/// Round `round` (from 1) as the file has it.
fn as_paired(t: &Tournament, round: usize) -> (BTreeSet<(u32, u32)>, Option<Number>) {
    let mut boards = BTreeSet::new();
    let mut bye = None;
    for p in &t.players {
        let Some(r) = p.rounds.get(round - 1) else {
            continue;
        };
        match (r.opponent, r.colour) {
            (Some(o), Some(Colour::White)) => {
                boards.insert((p.number.0, o.0));
            }
            _ if r.result == RoundResult::PairingBye => bye = Some(p.number),
            _ => {}
        }
    }
    (boards, bye)
}

fn tournaments() -> Vec<(String, Tournament)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dutch");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut t = trf::read(&text).unwrap();
            t.rounds = Some(
                t.players
                    .iter()
                    .map(|p| p.rounds.len() as u32)
                    .max()
                    .unwrap(),
            );
            (path.file_name().unwrap().to_string_lossy().into_owned(), t)
        })
        .collect()
}

#[test]
fn every_round_is_paired_as_bbp_pairings_paired_it() {
    let all = tournaments();
    assert!(all.len() >= 16, "the generated tournaments are there");
    let mut rounds = 0;
    let mut byes = 0;
    for (name, full) in &all {
        for round in 1..=full.rounds.unwrap() as usize {
            let before = full.before_round(round);
            let paired =
                pair_next_round(&before).unwrap_or_else(|e| panic!("{name}, round {round}: {e}"));
            let ours: BTreeSet<(u32, u32)> = paired
                .boards
                .iter()
                .map(|&Board { white, black }| (white.0, black.0))
                .collect();
            let (theirs, their_bye) = as_paired(full, round);
            assert_eq!(ours, theirs, "{name}, round {round}: the boards");
            assert_eq!(paired.bye, their_bye, "{name}, round {round}: the bye");
            rounds += 1;
            byes += usize::from(their_bye.is_some());
        }
    }
    assert!(
        rounds > 120 && byes > 20,
        "{rounds} rounds, {byes} byes checked"
    );
}
