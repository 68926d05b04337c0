//! Who sits where: the one model of the players of the game on the board, for two
//! sides or more, at this screen or on a server. Everything else about the players is
//! read from it: whose moves the input takes, when the engine thinks and with what,
//! the labels, the names a record gives, what undo takes back.
//!
//! (The new-game menu and the settings file speak of a two-sided game in a shorthand,
//! [`Matchup`]; it only ever becomes seats.)

use hexchess_core::Side;
use hexchess_core::piece::MAX_SIDES;
use hexchess_engine::multi::Strategy;

use crate::game::CurrentGame;

/// Turns an engine seat at a game of more sides searches per move unless told
/// otherwise.
pub const SEAT_NODES: u32 = 3_000;

/// Who sits in one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// A person at this screen: the input takes their moves.
    Person,
    /// The engine. At a game of two sides it plays at the session's level; at a game of
    /// more, with its own strategy and budget.
    Engine(EngineSeat),
    /// Someone elsewhere (a person or the server's engine): a server sends this side's
    /// moves.
    Remote,
}

/// How an engine seat at a game of more sides plays: its strategy and how many turns
/// it searches per move (its strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EngineSeat {
    pub strategy: Strategy,
    pub nodes: u32,
}

impl EngineSeat {
    /// An engine seat of `strategy` at the usual budget.
    pub const fn new(strategy: Strategy) -> EngineSeat {
        EngineSeat {
            strategy,
            nodes: SEAT_NODES,
        }
    }
}

impl Default for EngineSeat {
    fn default() -> EngineSeat {
        EngineSeat::new(Strategy::Paranoid)
    }
}

impl Seat {
    /// An engine seat of the default strategy and budget.
    pub const ENGINE: Seat = Seat::Engine(EngineSeat::new(Strategy::Paranoid));

    /// The seat as the side panel and the window's title name it.
    pub fn label(self) -> String {
        match self {
            Seat::Person => "person".into(),
            Seat::Engine(e) => format!("engine ({})", e.strategy),
            Seat::Remote => "online".into(),
        }
    }

    /// The word [`Seat::parse`] reads back (a game file's `Seats` tag).
    pub fn token(self) -> String {
        match self {
            Seat::Person => "human".into(),
            Seat::Engine(e) => e.strategy.to_string(),
            Seat::Remote => "remote".into(),
        }
    }

    /// Reads `human`, `person`, `brs`, `paranoid`, `maxn` or `random` (a seat someone
    /// elsewhere holds is a server's to say, never a file's).
    pub fn parse(text: &str) -> Result<Seat, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" | "person" => Ok(Seat::Person),
            other => other.parse().map(|s| Seat::Engine(EngineSeat::new(s))),
        }
    }
}

/// The seats of the game on the board, one per side it may have (a game of two sides
/// reads the first two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seats {
    seat: [Seat; MAX_SIDES],
}

impl Default for Seats {
    /// You play White against engines.
    fn default() -> Seats {
        Seats::against_engines(Side::White)
    }
}

impl Seats {
    /// These seats, in side order.
    pub const fn new(seat: [Seat; MAX_SIDES]) -> Seats {
        Seats { seat }
    }

    /// You play `you`, engines the rest.
    pub fn against_engines(you: Side) -> Seats {
        let mut seats = Seats::engines();
        seats.seat[you.index()] = Seat::Person;
        seats
    }

    /// People at this screen in every seat.
    pub const fn people() -> Seats {
        Seats::new([Seat::Person; MAX_SIDES])
    }

    /// Engines in every seat.
    pub const fn engines() -> Seats {
        Seats::new([Seat::ENGINE; MAX_SIDES])
    }

    /// A game on a server: you hold `mine`; the server plays the rest.
    pub fn online(mine: &[Side]) -> Seats {
        let mut seats = Seats::new([Seat::Remote; MAX_SIDES]);
        for side in mine {
            seats.seat[side.index()] = Seat::Person;
        }
        seats
    }

    pub fn seat(&self, side: Side) -> Seat {
        self.seat[side.index()]
    }

    pub fn seat_mut(&mut self, side: Side) -> &mut Seat {
        &mut self.seat[side.index()]
    }

    /// Whether a person at this screen plays `side` (the input takes their moves).
    pub fn person(&self, side: Side) -> bool {
        self.seat(side) == Seat::Person
    }

    /// The engine seat at `side`, when the engine plays it.
    pub fn engine(&self, side: Side) -> Option<EngineSeat> {
        match self.seat(side) {
            Seat::Engine(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the engine moves for `side`.
    pub fn engine_plays(&self, side: Side) -> bool {
        self.engine(side).is_some()
    }

    /// Whether a server plays any seat: the game is an online one.
    pub fn is_online(&self) -> bool {
        self.seat.contains(&Seat::Remote)
    }

    /// The first `sides` seats.
    fn of(&self, sides: usize) -> &[Seat] {
        &self.seat[..sides.min(MAX_SIDES)]
    }

    /// How many of a game of `sides` sides' seats people at this screen hold.
    pub fn people_count(&self, sides: usize) -> usize {
        self.of(sides)
            .iter()
            .filter(|s| **s == Seat::Person)
            .count()
    }

    /// Whether engines hold every seat of a game of `sides` sides (a game to watch: it
    /// can be paused and stepped).
    pub fn engines_only(&self, sides: usize) -> bool {
        self.of(sides).iter().all(|s| matches!(s, Seat::Engine(_)))
    }

    /// Whether people at this screen hold every seat of a game of `sides` sides.
    pub fn people_only(&self, sides: usize) -> bool {
        self.people_count(sides) == sides.min(MAX_SIDES)
    }

    /// The engine's side when a game of `sides` sides is one person against the
    /// engine (a game of two sides only: that engine answers draw offers).
    pub fn engine_opponent(&self, sides: usize) -> Option<Side> {
        match Matchup::of(self)? {
            Matchup::You(you) if sides == 2 => Some(!you),
            _ => None,
        }
    }

    /// Who is meant when a person at this screen gives up: the side to move when a
    /// person plays it, else the first seat a person holds, else the side to move.
    pub fn resigning(&self, to_move: Side, sides: impl Iterator<Item = Side>) -> Side {
        if self.person(to_move) {
            return to_move;
        }
        sides
            .into_iter()
            .find(|s| self.person(*s))
            .unwrap_or(to_move)
    }

    /// The side the board faces in a game of more sides: the seat on move if a person
    /// plays it (people at one screen take turns), else the first person's seat.
    pub fn facing(&self, game: &CurrentGame) -> Side {
        let on_move = game.side_to_move();
        if self.person(on_move) {
            return on_move;
        }
        game.played
            .sides()
            .find(|s| self.person(*s))
            .unwrap_or(Side::White)
    }

    /// Who plays a game of `sides` sides, in a word or three.
    pub fn label(&self, sides: usize) -> String {
        if self.is_online() {
            return "Online".into();
        }
        match (Matchup::of(self), self.people_count(sides)) {
            (Some(two), _) if sides <= 2 => two.label().into(),
            (_, 0) => "Engines at a table".into(),
            (_, 1) => "You at a table".into(),
            _ => "People at a table".into(),
        }
    }

    /// Seats from a list (a game file's `Seats` tag, `--seats`): people and engine
    /// strategies in seat order, the rest engines. A word that names no player is
    /// refused.
    pub fn from_list<S: AsRef<str>>(words: &[S]) -> Result<Seats, String> {
        if words.len() > MAX_SIDES {
            return Err(format!("{} seats given; at most {MAX_SIDES}", words.len()));
        }
        let mut seats = Seats::engines();
        for (i, w) in words.iter().enumerate() {
            seats.seat[i] = Seat::parse(w.as_ref())?;
        }
        Ok(seats)
    }

    /// The seats as a game file's `Seats` tag writes them (`human,paranoid,human`).
    pub fn list_text(&self, sides: usize) -> String {
        let words: Vec<String> = self.of(sides).iter().map(|s| s.token()).collect();
        words.join(",")
    }

    /// The seats of a `Seats` tag; a word that names no player is a person's seat, and
    /// so is every seat the tag leaves out.
    pub fn parse_tag(text: &str) -> Seats {
        let mut seats = Seats::people();
        for (i, w) in text.split(',').filter(|w| !w.trim().is_empty()).enumerate() {
            if i < MAX_SIDES {
                seats.seat[i] = Seat::parse(w).unwrap_or(Seat::Person);
            }
        }
        seats
    }
}

/// Who plays a game of two sides, as the new-game menu offers it and the settings file
/// keeps it. Each is a whole set of seats, so a game of more sides started from it
/// seats the others as it says (engines against you, people with people).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Matchup {
    /// You play this side; engines the others.
    You(Side),
    /// Engines in every seat.
    Engines,
    /// People at this screen in every seat.
    People,
}

impl Matchup {
    /// The four the menu offers, in its order.
    pub const ALL: [Matchup; 4] = [
        Matchup::You(Side::White),
        Matchup::You(Side::Black),
        Matchup::Engines,
        Matchup::People,
    ];

    pub fn seats(self) -> Seats {
        match self {
            Matchup::You(side) => Seats::against_engines(side),
            Matchup::Engines => Seats::engines(),
            Matchup::People => Seats::people(),
        }
    }

    /// The matchup of a game of two sides' seats; none when a server plays one.
    pub fn of(seats: &Seats) -> Option<Matchup> {
        match (seats.seat(Side::White), seats.seat(Side::Black)) {
            (Seat::Remote, _) | (_, Seat::Remote) => None,
            (Seat::Person, Seat::Person) => Some(Matchup::People),
            (Seat::Person, _) => Some(Matchup::You(Side::White)),
            (_, Seat::Person) => Some(Matchup::You(Side::Black)),
            _ => Some(Matchup::Engines),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Matchup::You(Side::White) => "You (White) vs engine",
            Matchup::You(_) => "You (Black) vs engine",
            Matchup::Engines => "Engine vs engine",
            Matchup::People => "Two players",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matchup_is_a_whole_set_of_seats_and_reads_back_from_them() {
        for m in Matchup::ALL {
            assert_eq!(Matchup::of(&m.seats()), Some(m), "{m:?}");
        }
        // Against engines at a table: the third seat is an engine's, as it was.
        let you = Matchup::You(Side::Black).seats();
        assert!(you.person(Side::Black));
        assert!(you.engine_plays(Side::White) && you.engine_plays(Side::Third));
        assert_eq!(you.engine_opponent(2), Some(Side::White));
        assert_eq!(you.engine_opponent(3), None, "three sides: no one opponent");
        // Two players: a game of more sides seats people in every seat.
        assert!(Matchup::People.seats().people_only(4));
        assert_eq!(Matchup::People.seats().engine_opponent(2), None);
    }

    #[test]
    fn an_online_game_is_held_seats_and_the_servers() {
        let seats = Seats::online(&[Side::Black]);
        assert!(seats.is_online());
        assert!(seats.person(Side::Black) && !seats.person(Side::White));
        assert!(
            !seats.engine_plays(Side::White),
            "the server moves, not ours"
        );
        assert_eq!(Matchup::of(&seats), None);
        assert_eq!(seats.label(2), "Online");
        assert!(!Seats::default().is_online());
    }

    #[test]
    fn a_seats_tag_reads_people_and_strategies_and_writes_them_back() {
        let seats = Seats::parse_tag("human,brs,nonsense");
        assert_eq!(seats.seat(Side::White), Seat::Person);
        assert_eq!(
            seats.seat(Side::Black),
            Seat::Engine(EngineSeat::new(Strategy::BestReply))
        );
        assert_eq!(seats.seat(Side::Third), Seat::Person, "an unknown word");
        assert_eq!(seats.list_text(3), "human,brs,human");
        assert_eq!(seats.people_count(3), 2);
        // A list refuses what a tag forgives, and fills the rest with engines.
        assert!(Seats::from_list(&["human", "nonsense"]).is_err());
        let listed = Seats::from_list(&["human"]).unwrap();
        assert!(listed.engine_plays(Side::Black) && listed.engine_plays(Side::Third));
        assert!(Seats::from_list(&["human"; 5]).is_err());
    }

    #[test]
    fn who_resigns_is_a_person_at_this_screen() {
        let you = Seats::against_engines(Side::Black);
        let sides = || [Side::White, Side::Black].into_iter();
        assert_eq!(you.resigning(Side::White, sides()), Side::Black);
        assert_eq!(you.resigning(Side::Black, sides()), Side::Black);
        let people = Seats::people();
        assert_eq!(people.resigning(Side::White, sides()), Side::White);
        let engines = Seats::engines();
        assert_eq!(engines.resigning(Side::Black, sides()), Side::Black);
    }

    #[test]
    fn labels_say_who_plays() {
        assert_eq!(Seats::default().label(2), "You (White) vs engine");
        assert_eq!(Seats::engines().label(2), "Engine vs engine");
        assert_eq!(Seats::default().label(3), "You at a table");
        assert_eq!(Seats::engines().label(4), "Engines at a table");
        assert_eq!(Seats::people().label(3), "People at a table");
        assert!(Seats::engines().engines_only(3));
        assert!(!Seats::default().engines_only(2));
    }
}
