//! The engine's UCI-style text protocol, one command per line.
//!
//! Bad input never changes state: a malformed FEN or an illegal move answers
//! `info string error: ...` and the previous position stays.

use std::io::{self, Write};
use std::sync::Arc;

use crate::catalog::Catalog;
use crate::position::Position;
use crate::rules::Rules;

/// Whether the protocol loop should go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The deepest `go perft` accepted: deeper would run for days.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Protocol state: the variants, the current variant and position.
pub struct Engine {
    catalog: Catalog,
    rules: Arc<Rules>,
    position: Position,
}

impl Engine {
    /// An engine over a catalog, playing its first variant (Gliński for the built-ins).
    pub fn new(catalog: Catalog) -> Engine {
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
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Handles one line of input, writing replies to `out`.
    pub fn handle(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Flow> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(Flow::Continue);
        };
        match command {
            "uci" => self.uci(out)?,
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => self.position = Position::start(Arc::clone(&self.rules)),
            "setoption" => self.setoption(args, out)?,
            "position" => self.set_position(args, out)?,
            "go" => self.go(args, out)?,
            "d" => self.display(out)?,
            "quit" => return Ok(Flow::Quit),
            "stop" => {}
            _ => error(out, format!("unknown command '{command}'"))?,
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn uci(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "id name hexchess-engine {}", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "id author the hexchess developers")?;
        let vars: String = self
            .catalog
            .ids()
            .iter()
            .map(|id| format!(" var {id}"))
            .collect();
        writeln!(
            out,
            "option name UCI_Variant type combo default {}{vars}",
            self.rules.id()
        )?;
        writeln!(out, "uciok")
    }

    fn setoption(&mut self, args: &[&str], out: &mut dyn Write) -> io::Result<()> {
        // setoption name <name...> [value <value...>]
        let joined = args.join(" ");
        let Some(rest) = joined.strip_prefix("name ") else {
            return error(out, "expected 'setoption name <option> value <value>'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match self.catalog.get(value) {
                Some(entry) => {
                    self.rules = Arc::clone(&entry.rules);
                    self.position = Position::start(Arc::clone(&self.rules));
                    Ok(())
                }
                None => error(
                    out,
                    format!(
                        "unknown variant '{value}'; known: {}",
                        self.catalog.ids().join(", ")
                    ),
                ),
            },
            _ => error(out, format!("unknown option '{name}'")),
        }
    }

    fn set_position(&mut self, args: &[&str], out: &mut dyn Write) -> io::Result<()> {
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
                    Err(e) => return error(out, format!("bad FEN: {e}")),
                }
            }
            _ => return error(out, "expected 'position startpos|fen <hexfen> [moves ...]'"),
        };
        for text in moves {
            match pos.parse_move(text) {
                Ok(mv) => pos.make_move(mv),
                Err(e) => {
                    return error(
                        out,
                        format!("{e} (after {} moves); position unchanged", pos.ply_count()),
                    );
                }
            }
        }
        self.position = pos;
        Ok(())
    }

    fn go(&mut self, args: &[&str], out: &mut dyn Write) -> io::Result<()> {
        match args {
            ["perft", n] => match n.parse::<u32>() {
                Ok(depth) if (1..=MAX_PERFT_DEPTH).contains(&depth) => {
                    let mut pos = self.position.clone();
                    let mut lines: Vec<(String, u64)> = pos
                        .perft_divide(depth)
                        .into_iter()
                        .map(|(mv, n)| (pos.move_to_lan(mv), n))
                        .collect();
                    lines.sort();
                    let total: u64 = lines.iter().map(|l| l.1).sum();
                    for (mv, n) in lines {
                        writeln!(out, "{mv}: {n}")?;
                    }
                    writeln!(out)?;
                    writeln!(out, "Nodes searched: {total}")
                }
                _ => error(
                    out,
                    format!("perft depth must be 1 to {MAX_PERFT_DEPTH}, not '{n}'"),
                ),
            },
            _ => error(out, "search is not available yet; use 'go perft <depth>'"),
        }
    }

    fn display(&self, out: &mut dyn Write) -> io::Result<()> {
        let pos = &self.position;
        write!(out, "{}", pos.ascii())?;
        writeln!(out, "Variant: {}", self.rules.name())?;
        writeln!(out, "Fen: {}", pos.to_fen())?;
        writeln!(out, "Key: {:016X}", pos.hash())?;
        let checkers: Vec<&str> = pos
            .attackers(pos.royal_cell(pos.turn()), !pos.turn())
            .map(|c| self.rules.board().name(c))
            .collect();
        writeln!(out, "Checkers: {}", checkers.join(" "))
    }
}

fn error(out: &mut dyn Write, message: impl AsRef<str>) -> io::Result<()> {
    writeln!(out, "info string error: {}", message.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(engine: &mut Engine, line: &str) -> String {
        let mut out = Vec::new();
        engine.handle(line, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn bad_input_reports_an_error_and_keeps_the_position() {
        let mut e = Engine::new(Catalog::builtin());
        run(&mut e, "position startpos moves f5f6");
        let before = e.position().to_fen();
        for bad in [
            "position fen 6/P5p/RP4pr w - 0 1",
            "position fen",
            "position startpos moves f6f8",
            "position startpos moves f5f6 zz99",
            "position banana",
            "go perft 0",
            "go perft x",
            "setoption name UCI_Variant value nosuch",
            "frobnicate",
        ] {
            let reply = run(&mut e, bad);
            assert!(reply.starts_with("info string error: "), "{bad}: {reply}");
            assert_eq!(e.position().to_fen(), before, "{bad} changed the position");
        }
        assert_eq!(run(&mut e, "isready"), "readyok\n");
    }

    #[test]
    fn perft_lists_each_root_move_and_the_total() {
        let mut e = Engine::new(Catalog::builtin());
        run(&mut e, "setoption name UCI_Variant value mccooey");
        run(&mut e, "position startpos");
        let reply = run(&mut e, "go perft 2");
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
    fn uci_lists_every_variant() {
        let mut e = Engine::new(Catalog::builtin());
        let reply = run(&mut e, "uci");
        assert!(
            reply.contains("var glinski var mccooey var grand var standard"),
            "{reply}"
        );
        assert!(reply.ends_with("uciok\n"));
        assert_eq!(e.handle("quit", &mut Vec::new()).unwrap(), Flow::Quit);
    }
}
