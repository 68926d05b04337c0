//! Tournaments (issue 67): the Dutch pairing as a command.

use std::process::Command;

use hexchess_tournament::trf::{self, Colour};

const BINARY: &str = env!("CARGO_BIN_EXE_hexchess-server");

/// A tournament bbpPairings generated and paired (the tournament crate's test
/// data): the round it paired third.
fn before_round_three() -> (trf::Tournament, String) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hexchess-tournament/tests/dutch/02-9-players-5-rounds-feat.trf"
    );
    let mut full = trf::read(&std::fs::read_to_string(path).unwrap()).unwrap();
    full.rounds = Some(5);
    let mut boards = Vec::new();
    let mut bye = None;
    for p in &full.players {
        let r = p.rounds[2];
        match (r.opponent, r.colour) {
            (Some(o), Some(Colour::White)) => boards.push(format!("{} {}", p.number, o)),
            _ if r.result == trf::RoundResult::PairingBye => bye = Some(p.number),
            _ => {}
        }
    }
    boards.sort();
    boards.extend(bye.map(|b| format!("{b} 0")));
    (full.before_round(3), boards.join("\n"))
}

#[test]
fn pair_swiss_prints_the_next_round_as_the_pairing_programs_do() {
    let (before, expected) = before_round_three();
    let dir = std::env::temp_dir().join(format!("hexchess-pair-swiss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("round3.trf");
    std::fs::write(&file, trf::write(&before)).unwrap();
    let out = Command::new(BINARY)
        .arg("pair-swiss")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.remove(0).parse::<usize>().unwrap(),
        lines.len(),
        "the count comes first"
    );
    let byes: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.ends_with(" 0"))
        .collect();
    let mut boards: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.ends_with(" 0"))
        .collect();
    boards.sort();
    boards.extend(byes);
    assert_eq!(boards.join("\n"), expected, "bbpPairings's third round");

    // A fault names the file, the line and the column, and nothing is printed.
    let bad = dir.join("bad.trf");
    std::fs::write(&bad, trf::write(&before).replace("XXR 5", "XXR five")).unwrap();
    let out = Command::new(BINARY)
        .arg("pair-swiss")
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("bad.trf: line 2, column 5: rounds"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}
