//! Results and how games ended, in the words of the PGN standard: the result token,
//! the `Termination` tag's values, and a game's end put into its tags.

#[cfg(doc)]
use crate::outcome::GameOutcome;
use crate::outcome::Termination;

/// One side's points as written in a result: `1`, `0`, `1/2`, `3/4`, `0.6`.
fn points(s: &str) -> Option<f64> {
    let number = |s: &str| {
        let ok = s.starts_with(|c: char| c.is_ascii_digit())
            && s.chars().all(|c| c.is_ascii_digit() || c == '.')
            && s.matches('.').count() <= 1;
        ok.then(|| s.parse::<f64>().ok()).flatten()
    };
    match s.split_once('/') {
        Some((a, b)) => {
            let b = number(b).filter(|b| *b > 0.0)?;
            Some(number(a)? / b)
        }
        None => number(s),
    }
}

/// Whether a token is a result, which ends a game's moves: `*`, or each side's points
/// joined by `-`, as [`GameOutcome::result_text`] writes them (`1-0`, `1/2-1/2`,
/// `3/4-1/4`, decimals such as `0.6-0.4` for a variant's own stalemate score) and as
/// it does for three or four sides too (`1-0-0`, `0-1/2-0-1/2`, `1/3-1/3-1/3`).
///
/// Points that add up to nothing are no result: `0-0` and `0-0-0` are castling written
/// with zeros.
pub fn is_result(tok: &str) -> bool {
    if tok == "*" {
        return true;
    }
    let parts: Vec<&str> = tok.split('-').collect();
    if !(2..=4).contains(&parts.len()) {
        return false;
    }
    let mut total = 0.0;
    for p in parts {
        match points(p) {
            Some(x) => total += x,
            None => return false,
        }
    }
    total > 0.0
}

/// The standard's `Termination` value for how a game ended. Whatever the rules
/// decided (checkmate, stalemate, a draw by rule) and whatever the players did
/// (resignation, agreement) is "normal"; the standard keeps its other values for games
/// ended from outside the play.
pub fn termination_tag(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate
        | Termination::Stalemate
        | Termination::Repetition
        | Termination::MoveRule
        | Termination::InsufficientMaterial
        | Termination::LastKingStanding
        | Termination::Resignation
        | Termination::Agreement
        | Termination::KingsExposed => "normal",
        Termination::Time => "time forfeit",
        Termination::Adjudication => "adjudication",
        Termination::IllegalMove => "rules infraction",
        Termination::Abandonment => "abandoned",
    }
}

/// The values the standard gives the `Termination` tag.
pub const TERMINATION_VALUES: [&str; 8] = [
    "abandoned",
    "adjudication",
    "death",
    "emergency",
    "normal",
    "rules infraction",
    "time forfeit",
    "unterminated",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_of_two_three_and_four_sides() {
        for r in [
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "3/4-1/4",
            "0.6-0.4",
            "0.35-0.65",
            "1-0-0",
            "1/3-1/3-1/3",
            "0-1/2-0-1/2",
        ] {
            assert!(is_result(r), "{r}");
        }
        for not in [
            "O-O",
            "O-O-O-Q",
            "e1-e2",
            "-1",
            "1-",
            "x-1",
            "0-0",
            "0-0-0",
            "1/0-0",
            "1-0-0-0-0",
            "1..2-0",
            "--",
        ] {
            assert!(!is_result(not), "{not}");
        }
    }

    #[test]
    fn every_termination_has_a_standard_value() {
        for t in Termination::ALL {
            assert!(TERMINATION_VALUES.contains(&termination_tag(t)), "{t}");
        }
        assert_eq!(termination_tag(Termination::Checkmate), "normal");
        assert_eq!(termination_tag(Termination::Time), "time forfeit");
    }

    #[test]
    fn a_shared_point_is_written_as_a_fraction() {
        use crate::Side;
        use crate::outcome::GameOutcome;
        let team = GameOutcome::shared(Termination::Checkmate, &[Side::Black, Side::Fourth], 4);
        assert_eq!(team.result_text(), "0-1/2-0-1/2");
        assert!(is_result(&team.result_text()));
        let three = GameOutcome::shared(
            Termination::Repetition,
            &[Side::White, Side::Black, Side::Third],
            3,
        );
        assert_eq!(three.result_text(), "1/3-1/3-1/3");
        assert!(is_result(&three.result_text()));
        assert!(three.is_draw());
        assert_eq!(three.winners().len(), 3);
    }
}
