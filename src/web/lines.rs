//! The text the browser game reads and writes, apart from the browser so that it is
//! tested on every platform: the page's address as a command line, and the engine
//! protocol's lines to and from the worker.

use hexchess_core::{Game, Position};
use hexchess_engine::multi::Strategy;
use hexchess_engine::{Question, Score, SearchInfo, SearchLimits, SearchOptions};

/// The options of an address's query (`?a=b&c`) and fragment (`#challenge=CODE`),
/// with `server` the socket of the page's own host: `?variant=mccooey&fresh` is
/// `--variant mccooey --fresh`, and `#challenge=CODE` is `--online SERVER
/// --online-join CODE`.
pub fn from_address(search: &str, hash: &str, server: Option<&str>) -> Vec<String> {
    let mut args = Vec::new();
    for pair in search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        args.push(format!("--{}", decode(name)));
        let value = decode(value);
        if !value.is_empty() {
            args.push(value);
        }
    }
    if let Some(code) = hash.trim_start_matches('#').strip_prefix("challenge=") {
        args.push("--online".into());
        if let Some(server) = server {
            args.push(server.to_string());
        }
        args.push("--online-join".into());
        args.push(decode(code));
    }
    args
}

/// `%xx` and `+` as an address writes them; a `%` not followed by two hex digits is
/// kept as written, and so is text whose bytes are not UTF-8.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |at: usize| {
            bytes
                .get(at)
                .and_then(|&b| (b as char).to_digit(16))
                .map(|d| d as u8)
        };
        match (bytes[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(high), Some(low)) => {
                out.push(high * 16 + low);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// `position fen <start> moves <turn> ...`: the game from its start, so that the
/// engine has its history (it sees repetitions coming) and not the position alone.
pub fn position_line(game: &Game) -> String {
    let mut line = format!("position fen {}", game.start_fen());
    let turns = game.turn_texts();
    if !turns.is_empty() {
        line.push_str(" moves ");
        line.push_str(&turns.join(" "));
    }
    line
}

/// What a worker is told for `question`: the variant, the strength, how many lines,
/// how a game of more sides is searched, the game so far, and the `go`. The worker's
/// engine picks the search from the game, as the native one does.
pub fn engine_lines(
    question: &Question,
    options: &SearchOptions,
    strategy: Strategy,
) -> Vec<String> {
    let game = question.game();
    vec![
        format!(
            "setoption name UCI_Variant value {}",
            game.position().rules().id()
        ),
        format!("setoption name Skill value {}", options.skill.level()),
        format!("setoption name MultiPV value {}", options.multi_pv.max(1)),
        format!("setoption name MultiSearch value {}", strategy.name()),
        position_line(game),
        go_line(question.limits()),
    ]
}

/// The protocol's `go` for these limits (always one that ends by itself).
pub fn go_line(limits: &SearchLimits) -> String {
    if let Some(c) = &limits.clock {
        return format!(
            "go wtime {} btime {} winc {} binc {}",
            c.white.as_millis(),
            c.black.as_millis(),
            c.white_increment.as_millis(),
            c.black_increment.as_millis()
        );
    }
    let mut line = String::from("go");
    if let Some(d) = limits.depth {
        line.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        line.push_str(&format!(" nodes {n}"));
    }
    let time = limits.movetime.map_or(1000, |t| t.as_millis().max(1));
    if limits.movetime.is_some() || line == "go" {
        line.push_str(&format!(" movetime {time}"));
    }
    line
}

/// An `info depth ... score ... pv ...` line of a completed depth, read back.
pub fn read_info(position: &Position, line: &str) -> Option<SearchInfo> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || !words.contains(&"pv") || words.contains(&"currmove") {
        return None;
    }
    let number = |name: &str| -> Option<u64> {
        let at = words.iter().position(|w| *w == name)?;
        words.get(at + 1)?.parse().ok()
    };
    let at = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    let score = match *words.get(at + 1)? {
        "cp" => Score::Cp(value),
        "mate" => Score::Mate(value),
        _ => return None,
    };
    if words.contains(&"lowerbound") || words.contains(&"upperbound") {
        return None;
    }
    let pv_at = words.iter().position(|w| *w == "pv")?;
    let mut p = position.without_history();
    let mut pv = Vec::new();
    for w in &words[pv_at + 1..] {
        let Ok(m) = p.parse_move(w) else { break };
        p.make_move(m);
        pv.push(m);
    }
    Some(SearchInfo {
        depth: number("depth")? as u32,
        seldepth: number("seldepth").unwrap_or(0) as u32,
        score,
        nodes: number("nodes").unwrap_or(0),
        nps: number("nps").unwrap_or(0),
        time_ms: number("time").unwrap_or(0),
        hashfull: number("hashfull").unwrap_or(0) as u32,
        pv,
        multipv: number("multipv").map(|k| k as u32),
        bound: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn an_address_reads_as_the_command_line() {
        assert_eq!(
            from_address("?variant=mccooey&fresh&level=5", "", None),
            ["--variant", "mccooey", "--fresh", "--level", "5"]
        );
        assert_eq!(
            from_address("", "#challenge=Q7KD3MPA", Some("ws://host:7474/socket")),
            [
                "--online",
                "ws://host:7474/socket",
                "--online-join",
                "Q7KD3MPA"
            ]
        );
        assert_eq!(
            from_address("?fen=6%2F7+w&x=%zz%4", "", None),
            ["--fen", "6/7 w", "--x", "%zz%4"]
        );
        assert!(from_address("?", "#", None).is_empty());
    }

    #[test]
    fn every_go_the_worker_gets_ends_by_itself() {
        let line = go_line(&SearchLimits::movetime(700));
        assert_eq!(line, "go movetime 700");
        assert_eq!(go_line(&SearchLimits::depth(6)), "go depth 6");
        assert_eq!(go_line(&SearchLimits::default()), "go movetime 1000");
        let clock = SearchLimits {
            clock: Some(hexchess_engine::Clock {
                white: Duration::from_secs(60),
                black: Duration::from_millis(59_500),
                white_increment: Duration::from_secs(2),
                black_increment: Duration::from_secs(2),
                moves_to_go: None,
            }),
            ..SearchLimits::default()
        };
        assert_eq!(
            go_line(&clock),
            "go wtime 60000 btime 59500 winc 2000 binc 2000"
        );
    }

    /// A native protocol engine, its output kept.
    fn engine() -> (
        hexchess_engine::protocol::Engine,
        std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    ) {
        let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let shared: hexchess_engine::protocol::SharedOut = out.clone();
        let engine = hexchess_engine::protocol::Engine::new(
            hexchess_core::Catalog::builtin(),
            hexchess_files::Files::disk(),
            shared,
        );
        (engine, out)
    }

    #[test]
    fn the_worker_is_given_the_game_history_and_all() {
        let catalog = hexchess_core::Catalog::builtin();
        let rules = std::sync::Arc::clone(catalog.get("glinski").unwrap().rules());
        let start =
            Game::from_moves(std::sync::Arc::clone(&rules), None, &["f5f6", "c7c5"]).unwrap();
        let mut game = Game::from_fen(rules, &start.to_fen()).unwrap();
        for t in ["Ni3", "Nk6", "Nh1", "Nh9", "Ni3", "Nk6", "Nh1"] {
            game.play_turn(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        }
        let options = SearchOptions {
            skill: hexchess_engine::Skill::new(7).unwrap(),
            multi_pv: 3,
            ..SearchOptions::default()
        };
        let glinski = catalog.get("glinski").unwrap().two_player_rules();
        let question = Question::new(game.clone(), glinski, SearchLimits::movetime(50));
        let lines = engine_lines(&question, &options, Strategy::Paranoid);
        assert_eq!(lines[0], "setoption name UCI_Variant value glinski");
        assert_eq!(lines[1], "setoption name Skill value 7");
        assert_eq!(lines[2], "setoption name MultiPV value 3");
        assert_eq!(lines[5], "go movetime 50");
        let (mut e, out) = engine();
        for line in &lines[..5] {
            e.handle(line);
        }
        assert!(
            out.lock().unwrap().is_empty(),
            "{}",
            String::from_utf8_lossy(&out.lock().unwrap())
        );
        assert_eq!(e.game().to_fen(), game.to_fen());
        assert_eq!(
            e.game().turns().len(),
            game.turns().len(),
            "the history is there"
        );
        // The engine sees what the history means: one more knight move back repeats
        // the position a third time, and ends the engine's game as it ends ours.
        e.handle(&format!("{} Nh9", position_line(&game)));
        game.play_turn("Nh9").unwrap();
        assert!(game.end().is_some());
        assert!(e.position().unwrap().outcome().is_some());

        // A table: whole turns, within nodes and a time.
        let three = std::sync::Arc::clone(catalog.get("hexachess-3").unwrap().rules());
        let table = Game::from_moves(three, None, &["e3e4", "c13d13", "l13l12"]).unwrap();
        let limits = SearchLimits {
            nodes: Some(300),
            movetime: Some(Duration::from_millis(1500)),
            ..SearchLimits::default()
        };
        let question = Question::new(table.clone(), None, limits);
        let lines = engine_lines(&question, &SearchOptions::default(), Strategy::BestReply);
        assert_eq!(lines[3], "setoption name MultiSearch value brs");
        assert_eq!(lines[5], "go nodes 300 movetime 1500");
        let (mut e, out) = engine();
        for line in &lines[..5] {
            e.handle(line);
        }
        assert!(
            out.lock().unwrap().is_empty(),
            "{}",
            String::from_utf8_lossy(&out.lock().unwrap())
        );
        assert_eq!(e.game().to_fen(), table.to_fen());
    }

    #[test]
    fn an_info_line_reads_back_as_the_engine_wrote_it() {
        let catalog = hexchess_core::Catalog::builtin();
        let rules = catalog.get("glinski").unwrap().two_player_rules().unwrap();
        let pos = Position::start(rules);
        let m1 = pos.parse_move("f5f6").unwrap();
        let mut after = pos.clone();
        after.make_move(m1);
        let m2 = after.parse_move("c7c6").unwrap();
        let info = SearchInfo {
            depth: 7,
            seldepth: 12,
            score: Score::Mate(-3),
            nodes: 12_345,
            nps: 99_000,
            time_ms: 125,
            hashfull: 4,
            pv: vec![m1, m2],
            multipv: None,
            bound: None,
        };
        let line = info.to_uci(&pos);
        assert_eq!(read_info(&pos, &line), Some(info));
        // A PV that stops being legal is cut where it does; bounds and currmove
        // lines are no completed depth.
        let cut = read_info(&pos, "info depth 2 score cp 5 nodes 9 pv f5f6 zz99").unwrap();
        assert_eq!(cut.pv, vec![m1]);
        assert!(read_info(&pos, "info depth 3 score cp 5 lowerbound nodes 9 pv f5f6").is_none());
        assert!(read_info(&pos, "info depth 3 currmove f5f6 currmovenumber 1").is_none());
        assert!(read_info(&pos, "bestmove f5f6").is_none());
        let second = read_info(&pos, "info depth 4 multipv 2 score cp -3 pv f5f6").unwrap();
        assert_eq!(second.multipv, Some(2));
    }
}
