//! The engine's UCI-style text protocol, one command per line.
//!
//! Searches run on their own thread, so `stop`, `isready` and `quit` are answered at
//! once. Bad input never changes state: a malformed FEN or an illegal move answers
//! `info string error: ...` and the previous position stays.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::Techniques;
use crate::eval::{EvalMode, EvalTerms, EvalWeights};
use crate::{
    Clock, MAX_MULTI_PV, MAX_THREADS, RunningSearch, SearchLimits, SearchOptions, Searcher, Skill,
    bench,
};
use hexchess_core::catalog::Catalog;
use hexchess_core::position::Position;
use hexchess_core::rules::Rules;

/// Whether the protocol loop should go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Where replies go; shared with the search thread.
pub type SharedOut = Arc<Mutex<dyn Write + Send>>;

/// The deepest `go perft` accepted: deeper would run for days.
pub const MAX_PERFT_DEPTH: u32 = 12;
/// The largest hash table accepted, in megabytes.
pub const MAX_HASH_MB: usize = 16 * 1024;

/// Protocol state: the variants, the current variant and position, the searcher.
pub struct Engine {
    catalog: Catalog,
    rules: Arc<Rules>,
    position: Position,
    out: SharedOut,
    searcher: Option<Searcher>,
    running: Option<RunningSearch>,
}

/// Writes one line to the shared output, ignoring a closed pipe (nothing to tell).
fn say(out: &SharedOut, line: impl AsRef<str>) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{}", line.as_ref());
    let _ = w.flush();
}

fn error(out: &SharedOut, message: impl AsRef<str>) {
    say(out, format!("info string error: {}", message.as_ref()));
}

impl Engine {
    /// An engine over a catalog, playing its first variant (Gliński for the built-ins).
    pub fn new(catalog: Catalog, out: SharedOut) -> Engine {
        let rules = Arc::clone(
            &catalog
                .entries()
                .first()
                .expect("the built-in variants always load")
                .rules,
        );
        let position = Position::start(Arc::clone(&rules));
        Engine {
            catalog,
            rules,
            position,
            out,
            searcher: Some(Searcher::new(SearchOptions::default())),
            running: None,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.is_finished())
    }

    /// Stops a running search and waits for its `bestmove`.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop();
            let (searcher, _) = r.join();
            self.searcher = Some(searcher);
        }
    }

    /// Waits for a running search to finish on its own (after its `bestmove`).
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let (searcher, _) = r.join();
            self.searcher = Some(searcher);
        }
    }

    fn searcher(&mut self) -> &mut Searcher {
        // A finished search hands its searcher back first.
        if self.running.as_ref().is_some_and(|r| r.is_finished()) {
            self.stop();
        }
        if self.searcher.is_none() {
            self.stop();
        }
        self.searcher
            .get_or_insert_with(|| Searcher::new(SearchOptions::default()))
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &str) -> Flow {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Flow::Continue;
        };
        match command {
            "uci" => self.uci(),
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.stop();
                self.searcher().clear();
                self.position = Position::start(Arc::clone(&self.rules));
            }
            "setoption" => self.setoption(args),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "bench" => self.bench(args),
            "d" => self.display(),
            "quit" => {
                self.stop();
                return Flow::Quit;
            }
            _ => error(&self.out, format!("unknown command '{command}'")),
        }
        Flow::Continue
    }

    fn uci(&self) {
        let o = &self.out;
        say(
            o,
            format!("id name hexchess-engine {}", env!("CARGO_PKG_VERSION")),
        );
        say(o, "id author the hexchess developers");
        let vars: String = self
            .catalog
            .ids()
            .iter()
            .map(|id| format!(" var {id}"))
            .collect();
        say(
            o,
            format!(
                "option name UCI_Variant type combo default {}{vars}",
                self.rules.id()
            ),
        );
        say(
            o,
            format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MB}"),
        );
        say(
            o,
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        );
        say(
            o,
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"),
        );
        say(
            o,
            format!(
                "option name Skill type spin default {full} min {min} max {full}",
                full = Skill::FULL,
                min = Skill::MIN
            ),
        );
        say(o, "option name Pruning type check default true");
        for (name, _) in TECHNIQUES {
            say(o, format!("option name {name} type check default true"));
        }
        say(
            o,
            "option name Eval type combo default Full var Full var Material",
        );
        for (name, _) in EvalTerms::NAMED {
            say(o, format!("option name {name} type check default true"));
        }
        say(o, "option name MaxDepth type spin default 0 min 0 max 127");
        say(
            o,
            format!(
                "option name EvalWeights type string default {}",
                EvalWeights::default()
            ),
        );
        say(o, "uciok");
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <name...> [value <value...>]
        let joined = args.join(" ");
        let Some(rest) = joined.strip_prefix("name ") else {
            return error(
                &self.out,
                "expected 'setoption name <option> value <value>'",
            );
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        self.stop();
        let mut options = *self.searcher().options();
        let bad = |what: &str| format!("bad value '{value}' for {name}: {what}");
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                return match self.catalog.get(value) {
                    Some(entry) => {
                        self.rules = Arc::clone(&entry.rules);
                        self.position = Position::start(Arc::clone(&self.rules));
                    }
                    None => error(
                        &self.out,
                        format!(
                            "unknown variant '{value}'; known: {}",
                            self.catalog.ids().join(", ")
                        ),
                    ),
                };
            }
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => options.hash_mb = mb,
                _ => return error(&self.out, bad(&format!("expected 1 to {MAX_HASH_MB}"))),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => options.threads = n,
                _ => return error(&self.out, bad(&format!("expected 1 to {MAX_THREADS}"))),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_MULTI_PV).contains(&n) => options.multi_pv = n,
                _ => return error(&self.out, bad(&format!("expected 1 to {MAX_MULTI_PV}"))),
            },
            "skill" => match value.parse::<Skill>() {
                Ok(s) => options.skill = s,
                Err(e) => return error(&self.out, format!("{name}: {e}")),
            },
            "pruning" => match parse_check(value) {
                Some(on) => options.techniques.set_pruning(on),
                None => return error(&self.out, bad("expected true or false")),
            },
            "eval" => match value.to_ascii_lowercase().as_str() {
                "full" => options.eval = EvalMode::FULL,
                "material" => options.eval = EvalMode::Material,
                _ => return error(&self.out, bad("expected Full or Material")),
            },
            "evalweights" => match ron::from_str::<EvalWeights>(value) {
                Ok(w) => options.weights = w,
                Err(e) => {
                    return error(
                        &self.out,
                        bad(&format!(
                            "{e} (expected for example {})",
                            EvalWeights::default()
                        )),
                    );
                }
            },
            "maxdepth" => match value.parse::<u32>() {
                Ok(0) => options.max_depth = None,
                Ok(d) if d < 128 => options.max_depth = Some(d),
                _ => return error(&self.out, bad("expected 0 (no limit) to 127")),
            },
            other => {
                let technique = TECHNIQUES
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(other))
                    .map(|&(_, field)| field);
                let term = EvalTerms::NAMED
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(other))
                    .map(|&(_, term)| term);
                if technique.is_none() && term.is_none() {
                    return error(&self.out, format!("unknown option '{name}'"));
                }
                let Some(on) = parse_check(value) else {
                    return error(&self.out, bad("expected true or false"));
                };
                if let Some(field) = technique {
                    *field(&mut options.techniques) = on;
                }
                if let Some(term) = term {
                    let EvalMode::Terms(terms) = options.eval else {
                        return error(
                            &self.out,
                            format!(
                                "{name} is a term of the full evaluation; set Eval to Full first"
                            ),
                        );
                    };
                    options.eval = EvalMode::Terms(if on {
                        terms.with(term)
                    } else {
                        terms.without(term)
                    });
                }
            }
        }
        self.searcher().set_options(options);
    }

    fn set_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|a| *a == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut pos = match setup.split_first() {
            Some((&"startpos", [])) => Position::start(Arc::clone(&self.rules)),
            Some((&"fen", fen)) if !fen.is_empty() => {
                match Position::from_fen(Arc::clone(&self.rules), &fen.join(" ")) {
                    Ok(p) => p,
                    Err(e) => return error(&self.out, format!("bad FEN: {e}")),
                }
            }
            _ => {
                return error(
                    &self.out,
                    "expected 'position startpos|fen <hexfen> [moves ...]'",
                );
            }
        };
        for text in moves {
            match pos.parse_move(text) {
                Ok(mv) => pos.make_move(mv),
                Err(e) => {
                    return error(
                        &self.out,
                        format!("{e} (after {} moves); position unchanged", pos.ply_count()),
                    );
                }
            }
        }
        self.stop();
        self.position = pos;
    }

    fn go(&mut self, args: &[&str]) {
        if let ["perft", n] = args {
            return self.perft(n);
        }
        let limits = match parse_limits(args) {
            Ok(l) => l,
            Err(e) => return error(&self.out, e),
        };
        self.stop();
        let searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(SearchOptions::default()));
        let info_out = Arc::clone(&self.out);
        let done_out = Arc::clone(&self.out);
        self.running = Some(RunningSearch::start(
            move || searcher,
            self.position.clone(),
            limits,
            move |pos, info| say(&info_out, info.to_uci(pos)),
            move |pos, result| match result.best {
                Some(m) => say(&done_out, format!("bestmove {}", pos.move_to_lan(m))),
                None => say(&done_out, "bestmove (none)"),
            },
        ));
    }

    fn perft(&mut self, n: &str) {
        match n.parse::<u32>() {
            Ok(depth) if (1..=MAX_PERFT_DEPTH).contains(&depth) => {
                let mut pos = self.position.clone();
                let mut lines: Vec<(String, u64)> = pos
                    .perft_divide(depth)
                    .into_iter()
                    .map(|(mv, n)| (pos.move_to_lan(mv), n))
                    .collect();
                lines.sort();
                let total: u64 = lines.iter().map(|l| l.1).sum();
                let mut text = String::new();
                for (mv, n) in lines {
                    text.push_str(&format!("{mv}: {n}\n"));
                }
                text.push_str(&format!("\nNodes searched: {total}"));
                say(&self.out, text);
            }
            _ => error(
                &self.out,
                format!("perft depth must be 1 to {MAX_PERFT_DEPTH}, not '{n}'"),
            ),
        }
    }

    fn bench(&mut self, args: &[&str]) {
        let depth = match args.first().map(|d| d.parse::<u32>()) {
            None => bench::BENCH_DEPTH,
            Some(Ok(d)) if (1..=30).contains(&d) => d,
            Some(_) => return error(&self.out, "usage: bench [depth 1..30]"),
        };
        self.stop();
        let out = Arc::clone(&self.out);
        let lines = bench::run(depth, EvalMode::FULL, |l| {
            say(
                &out,
                format!(
                    "info string bench {} {} nodes {} time {} bestmove {}",
                    l.variant, l.fen, l.nodes, l.millis, l.best
                ),
            );
        });
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        let millis: u128 = lines.iter().map(|l| l.millis).sum::<u128>().max(1);
        say(&self.out, format!("Nodes searched: {nodes}"));
        say(
            &self.out,
            format!("Nodes/second: {}", nodes as u128 * 1000 / millis),
        );
    }

    fn display(&mut self) {
        let pos = &self.position;
        let mut text = pos.ascii();
        text.push_str(&format!("Variant: {}\n", self.rules.name()));
        text.push_str(&format!("Fen: {}\n", pos.to_fen()));
        text.push_str(&format!("Key: {:016X}\n", pos.hash()));
        let checkers: Vec<&str> = pos
            .attackers(pos.royal_cell(pos.turn()), !pos.turn())
            .map(|c| self.rules.board().name(c))
            .collect();
        text.push_str(&format!("Checkers: {}", checkers.join(" ")));
        say(&self.out, text);
    }
}

/// Reads `go` arguments: `depth N`, `nodes N`, `movetime MS`, `wtime MS btime MS winc MS
/// binc MS movestogo N`, `infinite`.
fn parse_limits(args: &[&str]) -> Result<SearchLimits, String> {
    let mut limits = SearchLimits::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        if key == "infinite" {
            limits.infinite = true;
            i += 1;
            continue;
        }
        let Some(value) = args.get(i + 1) else {
            return Err(format!("'go {key}' needs a value"));
        };
        let number = |what: &str| -> Result<u64, String> {
            value
                .parse::<i64>()
                .map(|v| v.max(0) as u64)
                .map_err(|_| format!("bad {what} '{value}'"))
        };
        let ms = |what: &str| number(what).map(Duration::from_millis);
        match key {
            "depth" => limits.depth = Some(number("depth")?.clamp(1, 127) as u32),
            "nodes" => limits.nodes = Some(number("nodes")?.max(1)),
            "movetime" => limits.movetime = Some(ms("movetime")?),
            "wtime" => {
                clock.white = ms("wtime")?;
                has_clock = true;
            }
            "btime" => {
                clock.black = ms("btime")?;
                has_clock = true;
            }
            "winc" => clock.white_increment = ms("winc")?,
            "binc" => clock.black_increment = ms("binc")?,
            "movestogo" => clock.moves_to_go = Some(number("movestogo")?.clamp(1, 1000) as u32),
            _ => return Err(format!("unknown 'go' argument '{key}'")),
        }
        i += 2;
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    Ok(limits)
}

/// Reads stdin line by line until `quit` or end of input, writing to stdout.
pub fn run_stdio(catalog: Catalog) -> io::Result<()> {
    let out: SharedOut = Arc::new(Mutex::new(io::stdout()));
    let mut engine = Engine::new(catalog, out);
    let stdin = io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        if stdin.read_line(&mut line)? == 0 {
            engine.stop();
            return Ok(());
        }
        if engine.handle(&line) == Flow::Quit {
            return Ok(());
        }
    }
}

/// The search techniques the protocol can switch one by one, by option name.
type TechniqueField = fn(&mut Techniques) -> &mut bool;
const TECHNIQUES: [(&str, TechniqueField); 5] = [
    ("NullMove", |t| &mut t.null_move),
    ("Reductions", |t| &mut t.reductions),
    ("Futility", |t| &mut t.futility),
    ("CheckExtension", |t| &mut t.check_extension),
    ("Aspiration", |t| &mut t.aspiration),
];

/// A check option's value.
fn parse_check(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Session {
        engine: Engine,
        buffer: Arc<Mutex<Vec<u8>>>,
    }

    impl Session {
        fn new() -> Session {
            let buffer = Arc::new(Mutex::new(Vec::new()));
            let out: SharedOut = buffer.clone();
            Session {
                engine: Engine::new(Catalog::builtin(), out),
                buffer,
            }
        }

        /// Sends a line; returns what was written since the last call.
        fn send(&mut self, line: &str) -> String {
            self.engine.handle(line);
            self.take()
        }

        fn take(&mut self) -> String {
            let mut b = self.buffer.lock().unwrap();
            String::from_utf8(std::mem::take(&mut *b)).unwrap()
        }

        /// Runs `go` to the end; returns everything it printed, after checking that
        /// the last line names a legal move.
        fn go_to_the_end(&mut self, go: &str) -> String {
            self.engine.handle(go);
            self.engine.wait();
            let reply = self.take();
            let best = reply
                .lines()
                .last()
                .and_then(|l| l.strip_prefix("bestmove "))
                .unwrap_or_else(|| panic!("no bestmove last: {reply}"));
            assert!(self.engine.position().parse_move(best).is_ok(), "{best}");
            reply
        }
    }

    #[test]
    fn bad_input_reports_an_error_and_keeps_the_position() {
        let mut s = Session::new();
        s.send("position startpos moves f5f6");
        let before = s.engine.position().to_fen();
        for bad in [
            "position fen 6/P5p/RP4pr w - 0 1",
            "position fen",
            "position startpos moves f6f8",
            "position startpos moves f5f6 zz99",
            "position banana",
            "go perft 0",
            "go perft x",
            "go depth",
            "go wtime soon",
            "go sideways 3",
            "setoption name UCI_Variant value nosuch",
            "setoption name Hash value 0",
            "setoption name Threads value 0",
            "setoption name Threads value 65",
            "setoption name Threads value two",
            "setoption name MultiPV value 0",
            "setoption name MultiPV value 65",
            "setoption name Skill value 21",
            "setoption name Skill value 0",
            "setoption name Colour value red",
            "frobnicate",
        ] {
            let reply = s.send(bad);
            assert!(reply.starts_with("info string error: "), "{bad}: {reply}");
            assert_eq!(
                s.engine.position().to_fen(),
                before,
                "{bad} changed the position"
            );
        }
        assert_eq!(s.send("isready"), "readyok\n");
    }

    #[test]
    fn techniques_and_evaluation_terms_switch_one_by_one() {
        let mut s = Session::new();
        let uci = s.send("uci");
        for name in [
            "Pruning",
            "NullMove",
            "Reductions",
            "Futility",
            "CheckExtension",
            "Aspiration",
            "Mobility",
            "KingAttack",
            "PawnShield",
            "PassedPawns",
        ] {
            assert!(
                uci.contains(&format!("option name {name} type check default true")),
                "{name}: {uci}"
            );
        }
        let options = |s: &mut Session| *s.engine.searcher().options();
        assert_eq!(s.send("setoption name NullMove value false"), "");
        assert_eq!(s.send("setoption name aspiration value false"), "");
        let t = options(&mut s).techniques;
        assert!(!t.null_move && !t.aspiration);
        assert!(t.reductions && t.futility && t.check_extension);
        s.send("setoption name Pruning value true");
        assert!(options(&mut s).techniques.null_move);
        s.send("setoption name Pruning value false");
        let t = options(&mut s).techniques;
        assert!(!t.null_move && !t.reductions && !t.futility && t.check_extension);

        assert_eq!(s.send("setoption name Mobility value false"), "");
        s.send("setoption name PassedPawns value false");
        let expected = EvalTerms::ALL
            .without(EvalTerms::MOBILITY)
            .without(EvalTerms::PASSED_PAWNS);
        assert_eq!(options(&mut s).eval, EvalMode::Terms(expected));
        s.send("setoption name Mobility value true");
        assert_eq!(
            options(&mut s).eval,
            EvalMode::Terms(expected.with(EvalTerms::MOBILITY))
        );

        // Bad values and a term of an evaluation that has none change nothing.
        let before = options(&mut s);
        for bad in [
            "setoption name NullMove value maybe",
            "setoption name KingAttack value 1",
        ] {
            let reply = s.send(bad);
            assert!(reply.starts_with("info string error: bad value"), "{reply}");
        }
        assert_eq!(options(&mut s), before);
        s.send("setoption name Eval value Material");
        let reply = s.send("setoption name PawnShield value false");
        assert!(reply.contains("set Eval to Full first"), "{reply}");
        assert_eq!(options(&mut s).eval, EvalMode::Material);
        s.send("setoption name Eval value Full");
        assert_eq!(options(&mut s).eval, EvalMode::FULL);
    }

    #[test]
    fn evaluation_weights_are_set_in_ron_and_bad_ones_change_nothing() {
        let mut s = Session::new();
        let uci = s.send("uci");
        let defaults = EvalWeights::default();
        assert!(uci.contains(&format!(
            "option name EvalWeights type string default {defaults}"
        )));
        // Weights left out keep their defaults.
        assert_eq!(
            s.send("setoption name EvalWeights value (shield: 20, passed: (5, 150))"),
            ""
        );
        let set = s.engine.searcher().options().weights;
        assert_eq!(
            set,
            EvalWeights {
                shield: 20,
                passed: [5, 150],
                ..defaults
            }
        );
        for bad in [
            "setoption name EvalWeights value (shield: many)",
            "setoption name EvalWeights value (colour: 3)",
            "setoption name EvalWeights value shield: 3",
        ] {
            let reply = s.send(bad);
            assert!(
                reply.starts_with("info string error: bad value"),
                "{bad}: {reply}"
            );
            assert_eq!(s.engine.searcher().options().weights, set, "{bad}");
        }
        // The printed defaults read back as the defaults.
        s.send(&format!("setoption name EvalWeights value {defaults}"));
        assert_eq!(s.engine.searcher().options().weights, defaults);
    }

    #[test]
    fn perft_lists_each_root_move_and_the_total() {
        let mut s = Session::new();
        s.send("setoption name UCI_Variant value mccooey");
        s.send("position startpos");
        let reply = s.send("go perft 2");
        let lines: Vec<&str> = reply.lines().collect();
        assert_eq!(lines.last(), Some(&"Nodes searched: 947"));
        let moves: Vec<&&str> = lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .collect();
        assert_eq!(moves.len(), 31);
        let sum: u64 = moves
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, 947);
    }

    #[test]
    fn uci_lists_every_variant_and_option() {
        let mut s = Session::new();
        let reply = s.send("uci");
        assert!(
            reply.contains("var glinski var mccooey var grand var standard"),
            "{reply}"
        );
        assert!(reply.contains("option name Hash type spin"), "{reply}");
        assert!(
            reply.contains("option name Threads type spin default 1 min 1 max 64"),
            "{reply}"
        );
        assert!(
            reply.contains("option name MultiPV type spin default 1 min 1 max 64"),
            "{reply}"
        );
        assert!(reply.ends_with("uciok\n"));
        assert_eq!(s.engine.handle("quit"), Flow::Quit);
    }

    #[test]
    fn go_depth_reports_info_and_a_legal_bestmove() {
        let mut s = Session::new();
        s.send("position startpos moves f5f6");
        let reply = s.go_to_the_end("go depth 3");
        assert!(reply.contains("info depth 3 "), "{reply}");
    }

    #[test]
    fn hash_size_changes_take_effect() {
        let mut s = Session::new();
        s.send("setoption name Hash value 2");
        assert_eq!(s.engine.searcher().hash_mb(), 2);
        s.send("setoption name Hash value 32");
        assert_eq!(s.engine.searcher().hash_mb(), 32);
        // Not `send`: a search this short may finish (and print its bestmove) before
        // `send` would collect the output, which would then be lost to this check.
        s.engine.handle("go depth 2");
        s.engine.stop();
        assert!(s.take().contains("bestmove"));
    }

    #[test]
    fn threads_option_sets_the_search_threads() {
        let mut s = Session::new();
        assert_eq!(s.engine.searcher().options().threads, 1);
        s.send("setoption name Threads value 2");
        assert_eq!(s.engine.searcher().options().threads, 2);
        let reply = s.go_to_the_end("go depth 6");
        assert!(reply.contains("info depth 6 "), "{reply}");
    }

    #[test]
    fn multipv_reports_that_many_lines_best_first() {
        let mut s = Session::new();
        s.send("setoption name MultiPV value 3");
        let reply = s.go_to_the_end("go depth 5");
        let last: Vec<&str> = reply
            .lines()
            .filter(|l| l.starts_with("info depth 5 "))
            .collect();
        assert_eq!(last.len(), 3, "{reply}");
        let field = |line: &str, name: &str| -> String {
            let mut words = line.split_whitespace();
            words.find(|w| *w == name);
            words.next().unwrap_or_default().to_string()
        };
        let ranks: Vec<String> = last.iter().map(|l| field(l, "multipv")).collect();
        assert_eq!(ranks, ["1", "2", "3"], "{reply}");
        let scores: Vec<i32> = last
            .iter()
            .map(|l| field(l, "cp").parse().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{reply}");
        let firsts: Vec<String> = last.iter().map(|l| field(l, "pv")).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let best = reply
            .lines()
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .unwrap();
        assert_eq!(best, firsts[0], "{reply}");
        // One line again: no multipv field.
        s.send("setoption name MultiPV value 1");
        let reply = s.go_to_the_end("go depth 3");
        assert!(!reply.contains("multipv"), "{reply}");
    }
}
