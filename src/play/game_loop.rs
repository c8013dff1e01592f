//! The game loop: a [`Match`] is a session of the scenario language dealt
//! the referee's typed deal ([`Session::deal`]) whose moves the players
//! choose among the referee's resolved moves, each played as it is
//! ([`Session::apply`]) and recorded as its statement, so that a played
//! game is an ordinary scenario from its first line to its last. A match
//! plays a game value ([`Game`]): one of dealer's games, found by name
//! ([`Match::new`]), or any other, such as a test's own ([`Match::of`]).

use std::rc::Rc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::cards::referee::final_expectations;
use crate::cards::{
    game_named, game_names, stopped, to_move, Deal as CardDeal, Game, Move, Position, Referee,
    Size, GAMES,
};
use crate::diag::{Diagnostic, Report, Span};
use crate::engine::Agent as Player;
use crate::interp::{Options, Output, Playing, Session};
use crate::syntax::{self, ast::StatementKind};

use super::agent::{agent_named, Agent, Legal, View};

/// Who sits at a seat: an agent with its own seeded generator, or a person.
pub enum Seat {
    /// A program choosing from its player's view.
    Agent {
        /// The agent.
        agent: Box<dyn Agent>,
        /// Its generator, seeded from the game's seed and the seat.
        rng: Box<ChaCha8Rng>,
    },
    /// A person, whose moves the front end reads.
    Person,
}

impl Seat {
    /// The seat's name in the game's header (`random`, `person`).
    pub fn name(&self) -> &str {
        match self {
            Seat::Agent { agent, .. } => agent.name(),
            Seat::Person => "person",
        }
    }
}

/// What finds the agent a name stands for when it is not one of
/// [`AGENTS`] (a strategy's agent), or says why there is none.
pub type Lookup<'a> = dyn FnMut(&str) -> Result<Box<dyn Agent>, Report> + 'a;

/// How a game ended (or stands, before its end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// The seats that won, as the game says ([`Referee::winners`]: the
    /// Cabo-like game's lowest score wins).
    pub winners: Vec<usize>,
    /// The moves played (draws included).
    pub turns: usize,
    /// The game reached its limit and ended as it stood (the Kemps
    /// report's 10,000 turns, on games where every player waits for
    /// knowledge; [`crate::cards::stopped`]).
    pub capped: bool,
}

/// A move that was played.
#[derive(Clone, Debug)]
pub struct Played {
    /// Who played it.
    pub player: Player,
    /// The move as a statement (`ask 1 2 Q`).
    pub text: String,
    /// What the rules did on their own (books laid down, turns passed).
    pub notes: Vec<String>,
    /// How long the interpreter and the engine took to play it.
    pub time: Duration,
}

/// A game being played: the session, the seats and the moves so far.
pub struct Match {
    game: Game,
    referee: &'static dyn Referee,
    seed: u64,
    /// The deal in the game's header (`size full`).
    deal: String,
    options: Options,
    session: Session,
    /// The deal, printed as the game's first statements.
    dealt: CardDeal,
    seats: Vec<Seat>,
    history: Vec<Played>,
    /// A command's `--max-moves`, instead of the game's own limit.
    cap: Option<usize>,
}

/// The generator of seat `seat` in the game of `seed`: the agent's there
/// ([`Match::agent_seat`]), so that the same seed gives the same game.
pub fn seat_rng(seed: u64, seat: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(seat as u64 + 1);
    rng
}

/// The games that can be played (those whose rules have a referee).
pub fn playable() -> Vec<&'static str> {
    GAMES
        .iter()
        .filter(|g| g.referee().is_some())
        .map(|g| g.name())
        .collect()
}

/// A game that can be played and its referee, or why not (no such game,
/// or one with no referee), naming the games that can be played.
pub fn refereed(game: &str) -> Result<(Game, &'static dyn Referee), Report> {
    let rules = game_named(game).ok_or_else(|| {
        Diagnostic::unlocated(
            "no-game",
            format!(
                "no game `{game}`; the games are: {}",
                game_names().join(", ")
            ),
        )
    })?;
    Ok((rules, referee_of(rules)?))
}

/// The referee of `game`, or why it cannot be played (it has none),
/// naming dealer's games that can be.
pub fn referee_of(game: Game) -> Result<&'static dyn Referee, Report> {
    game.referee().ok_or_else(|| {
        Report::from(Diagnostic::unlocated(
            "no-referee",
            format!(
                "{} has no referee, so it can be replayed but not played; the games to play are: {}",
                game.title(),
                playable().join(", ")
            ),
        ))
    })
}

/// A session of `game` dealt `deal` ([`Session::deal`]: no text is
/// printed or parsed); `game` need not be one of dealer's games.
pub fn dealt_session(game: Game, deal: &CardDeal, options: Options) -> Result<Session, Report> {
    if deal.game != game.name() {
        return Err(Report::from(Diagnostic::unlocated(
            "wrong-game",
            format!(
                "a deal of `{}` cannot start {} (`game {}`)",
                deal.game,
                game.title(),
                game.name()
            ),
        )));
    }
    let mut session = Session::with_games(options, &[game]);
    session.deal(deal)?;
    Ok(session)
}

/// A session with the scenario text `setup` executed (a deal and its
/// opening moves, written by hand): the tests deal hand-made states so.
/// A [`Match`] is dealt its typed deal instead ([`dealt_session`]).
pub fn deal_session(setup: &str, options: Options) -> Result<Session, Report> {
    let mut session = Session::new(options);
    let located = |d| Report::one("deal", setup, d);
    let scenario = syntax::parse(setup).map_err(|errors| {
        Report::new(
            "deal",
            setup,
            errors.iter().map(|e| e.to_diagnostic()).collect(),
        )
    })?;
    for stmt in &scenario.statements {
        session.execute(stmt, setup).map_err(located)?;
    }
    session.finish(Span::new(0, 0)).map_err(located)?;
    Ok(session)
}

impl Match {
    /// Deals dealer's game named `game`: [`Match::of`].
    pub fn new(game: &str, seed: u64, size: Size, options: Options) -> Result<Match, Report> {
        let (rules, _) = refereed(game)?;
        Match::of(rules, seed, size, options)
    }

    /// Deals `game` (any game value with a referee, in dealer's list or
    /// not): the referee's seeded deal of `size`, dealt to the session as
    /// it is. `seats` are filled in with [`Match::seat`].
    pub fn of(game: Game, seed: u64, size: Size, options: Options) -> Result<Match, Report> {
        let referee = referee_of(game)?;
        Match::dealt(
            game,
            referee.deal(seed, size),
            format!("size {size}"),
            options,
        )
    }

    /// Deals dealer's game named `game` from `dealt`: [`Match::dealt`].
    pub fn with_deal(
        game: &str,
        dealt: CardDeal,
        deal: String,
        options: Options,
    ) -> Result<Match, Report> {
        let (rules, _) = refereed(game)?;
        Match::dealt(rules, dealt, deal, options)
    }

    /// Deals `game` from `dealt` (the referee's deal, or a deck of one's
    /// own dealt by [`crate::cards::referee::dealt`]), handed to the
    /// session as it is ([`Session::deal`]); `deal` says which in the
    /// game's header (`size full`). The agents' generators are seeded by
    /// the deal's seed.
    pub fn dealt(
        game: Game,
        dealt: CardDeal,
        deal: String,
        options: Options,
    ) -> Result<Match, Report> {
        let referee = referee_of(game)?;
        let session = dealt_session(game, &dealt, options)?;
        Ok(Match {
            game,
            referee,
            seed: dealt.seed,
            deal,
            options,
            session,
            dealt,
            seats: Vec::new(),
            history: Vec::new(),
            cap: None,
        })
    }

    /// Seats the players: one seat per player, in seating order. The
    /// players of agents that read beyond what they know are declared so
    /// by the game's [`GameRules::reader_declaration`] (the deal is dealt
    /// again with the declaration, before any move).
    pub fn seat(&mut self, seats: Vec<Seat>) -> Result<(), Report> {
        let n = self.playing().table.players.len();
        if seats.len() != n {
            return Err(Report::from(Diagnostic::unlocated(
                "seats",
                format!(
                    "{} is played by {n} players ({}), and {} were given",
                    self.game.name(),
                    self.playing().table.players.join(", "),
                    seats.len()
                ),
            )));
        }
        let readers: Vec<usize> = (0..n)
            .filter(|&s| matches!(&seats[s], Seat::Agent { agent, .. } if agent.psychic()))
            .collect();
        if let Some(&first) = readers.first() {
            let Some(word) = self.referee.reader_declaration() else {
                return Err(Report::from(Diagnostic::unlocated(
                    "no-readers",
                    format!(
                        "the agent of player {} looks at cards unnoticed, and {} has no such players",
                        self.player_name(first),
                        self.game.title()
                    ),
                )));
            };
            let new: Vec<usize> = readers
                .into_iter()
                .filter(|s| !self.dealt.declared(word).contains(s))
                .collect();
            if !new.is_empty() {
                if !self.history.is_empty() {
                    return Err(Report::from(Diagnostic::unlocated(
                        "readers-late",
                        format!("`{word}` players are declared before the first move"),
                    )));
                }
                let dealt = self.dealt.clone().with_declared(word, &new);
                self.session = dealt_session(self.game, &dealt, self.options)?;
                self.dealt = dealt;
            }
        }
        self.seats = seats;
        Ok(())
    }

    /// A seat for an agent, its generator seeded by the game's seed and
    /// the seat's number, so that the same seed gives the same game.
    pub fn agent_seat(&self, agent: Box<dyn Agent>, seat: usize) -> Seat {
        Seat::Agent {
            agent,
            rng: Box::new(seat_rng(self.seed, seat)),
        }
    }

    /// Seats `agents` in seating order at every seat but the person's
    /// (`person`, if any), each with its generator ([`Match::agent_seat`]).
    pub fn seat_agents(
        &mut self,
        agents: Vec<Box<dyn Agent>>,
        person: Option<Player>,
    ) -> Result<(), Report> {
        let n = self.playing().table.players.len();
        let wanted = n - usize::from(person.is_some_and(|p| p < n));
        if agents.len() != wanted {
            return Err(self.wrong_count(wanted, agents.len(), person));
        }
        let mut agents = agents.into_iter();
        let seats = (0..n)
            .map(|seat| {
                if Some(seat) == person {
                    Seat::Person
                } else {
                    self.agent_seat(agents.next().expect("counted"), seat)
                }
            })
            .collect();
        self.seat(seats)
    }

    /// The one seat factory of every front end: seats agents by name at
    /// every seat but the person's, in seating order (one name stands for
    /// every such seat; none, for `random` at every seat). A name is an
    /// agent of [`AGENTS`], or else what `strategy` finds for it (a
    /// strategy's agent: from files at the terminal, built in only on the
    /// web page, timed by the benchmark).
    pub fn seat_named(
        &mut self,
        names: &[String],
        person: Option<Player>,
        strategy: &mut Lookup<'_>,
    ) -> Result<(), Report> {
        let n = self.playing().table.players.len();
        let wanted = n - usize::from(person.is_some_and(|p| p < n));
        let names: Vec<String> = match names {
            [] => vec!["random".to_string(); wanted],
            [one] => vec![one.clone(); wanted],
            many => many.to_vec(),
        };
        if names.len() != wanted {
            return Err(self.wrong_count(wanted, names.len(), person));
        }
        let agents = names
            .iter()
            .map(|name| match agent_named(name) {
                Some(agent) => Ok(agent),
                None => strategy(name),
            })
            .collect::<Result<Vec<_>, Report>>()?;
        self.seat_agents(agents, person)
    }

    /// The error of a seating with `given` agents for `wanted` seats.
    fn wrong_count(&self, wanted: usize, given: usize, person: Option<Player>) -> Report {
        let players = &self.playing().table.players;
        Report::from(Diagnostic::unlocated(
            "seats",
            format!(
                "{} has {} players ({}){}: give {wanted} agent(s) (or one for every seat), {given} given",
                self.game.name(),
                players.len(),
                players.join(", "),
                if person.is_some() {
                    " and you play one"
                } else {
                    ""
                },
            ),
        ))
    }

    /// The game's name (`gofish`).
    pub fn game(&self) -> &'static str {
        self.game.name()
    }

    /// The game played.
    pub fn rules(&self) -> Game {
        self.game
    }

    /// The seed of the deal and of the agents' generators.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The session's options (its engine).
    pub fn options(&self) -> Options {
        self.options
    }

    /// The session (read only: moves go through [`Match::play`]).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The table, the current model and the game state.
    pub fn playing(&self) -> &Playing {
        self.session.playing().expect("a match is dealt")
    }

    /// What the referee reads.
    pub fn position(&self) -> Position<'_> {
        self.playing().position()
    }

    /// The seats.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The moves played so far.
    pub fn history(&self) -> &[Played] {
        &self.history
    }

    /// Ends the game after `cap` moves instead of at the game's own limit
    /// ([`Referee::limit`]); `None` restores the game's limit.
    pub fn set_move_cap(&mut self, cap: Option<usize>) {
        self.cap = cap;
    }

    /// The player who moves next; `None` when the game is over (by its
    /// rules or at its limit: [`crate::cards::stopped`]).
    pub fn current_player(&self) -> Option<Player> {
        to_move(self.referee, &self.position(), self.history.len(), self.cap)
    }

    /// Whether the game is over: by its rules, or because it reached its
    /// limit ([`Match::stopped`]) and ends as it stands.
    pub fn is_over(&self) -> bool {
        self.referee.is_terminal(&self.position()) || self.stopped().is_some()
    }

    /// Why the game ended before its rules ended it (its limit: Kemps'
    /// 10,000 turns, [`crate::cards::MOVE_LIMIT`] moves, or the cap of
    /// [`Match::set_move_cap`]); `None` while it goes on or when its rules
    /// ended it.
    pub fn stopped(&self) -> Option<String> {
        stopped(self.referee, &self.position(), self.history.len(), self.cap)
    }

    /// The legal moves in the actual state, each with its statement (none
    /// once the game is over).
    pub fn legal_moves(&self) -> Vec<Legal> {
        if self.stopped().is_some() {
            return Vec::new();
        }
        legal_moves(self.referee, self.playing())
    }

    /// Each player's score.
    pub fn scores(&self) -> Vec<i64> {
        self.referee.scores(&self.position())
    }

    /// The winners (at the end of the game).
    pub fn winners(&self) -> Vec<Player> {
        self.referee.winners(&self.position())
    }

    /// A player's name.
    pub fn player_name(&self, p: Player) -> &str {
        &self.playing().table.players[p]
    }

    /// The score line: `1: 5  2: 4  3: 4`.
    pub fn score_line(&self) -> String {
        let scores = self.scores();
        scores
            .iter()
            .enumerate()
            .map(|(p, s)| format!("{}: {s}", self.player_name(p)))
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// Plays a move written as a statement (a person's line): parsed,
    /// resolved against the deal and played ([`Session::apply`]). On
    /// refusal the match is unchanged and the diagnostic (the rule quoted)
    /// is returned.
    pub fn play(&mut self, text: &str) -> Result<&Played, Diagnostic> {
        let mv = resolve(&self.session, text)?;
        self.apply(&mv, text.trim())
    }

    /// Plays one of the legal moves ([`Match::legal_moves`]), as it is:
    /// no text is parsed.
    pub fn play_legal(&mut self, legal: &Legal) -> Result<&Played, Diagnostic> {
        self.apply(&legal.mv, &legal.text)
    }

    /// Plays a resolved move whose statement is `text`, and records it.
    fn apply(&mut self, mv: &Move, text: &str) -> Result<&Played, Diagnostic> {
        let player = self.current_player();
        let started = Instant::now();
        let outputs = self.session.apply(mv, text)?;
        let time = started.elapsed();
        let notes = outputs
            .into_iter()
            .flat_map(|o| match o {
                Output::Moved { notes, .. } => notes,
                _ => Vec::new(),
            })
            .collect();
        self.history.push(Played {
            player: player.unwrap_or(0),
            text: text.to_string(),
            notes,
            time,
        });
        Ok(self.history.last().expect("just pushed"))
    }

    /// Whether the rules accept a move written as a statement, tried on a
    /// copy of the session.
    pub fn try_move(&self, text: &str) -> Result<(), Diagnostic> {
        let mv = resolve(&self.session, text)?;
        let mut copy = self.session.clone();
        copy.apply(&mv, text.trim()).map(|_| ())
    }

    /// The next seat's agent chooses one of the legal moves from its
    /// player's view, and the move is played. `None` when the game is over
    /// or a person is to move.
    pub fn agent_move(&mut self) -> Option<Result<&Played, Diagnostic>> {
        let player = self.current_player()?;
        let legal = self.legal_moves();
        let mut seats = std::mem::take(&mut self.seats);
        let chosen = match seats.get_mut(player) {
            Some(Seat::Agent { agent, rng }) => {
                let view = View::new(&self.session, player, &legal, &self.history);
                Some(agent.choose(&view, rng))
            }
            _ => None,
        };
        self.seats = seats;
        Some(match chosen? {
            Ok(i) => match legal.get(i) {
                Some(l) => self.play_legal(l),
                None => Err(Diagnostic::error(
                    "agent-choice",
                    format!(
                        "the agent of player {} chose move {i} of {}",
                        self.player_name(player),
                        legal.len()
                    ),
                    Span::new(0, 0),
                )),
            },
            Err(d) => Err(d),
        })
    }

    /// Plays agents' moves until the game is over, or a person is to move
    /// (the loop of tournaments, `bench --play` and `dealer play` between
    /// agents). An agent's error stops it, with the game as it stands.
    pub fn play_agents(&mut self) -> Result<(), Diagnostic> {
        while let Some(played) = self.agent_move() {
            played?;
        }
        Ok(())
    }

    /// How the game ended (or stands): scores, winners as the game says,
    /// moves, and whether it stopped at its limit.
    pub fn outcome(&self) -> GameOutcome {
        GameOutcome {
            scores: self.scores(),
            winners: self.winners(),
            turns: self.history.len(),
            capped: self.stopped().is_some(),
        }
    }

    /// Evaluates formulas (scenario syntax) in the actual world: [`ask`].
    pub fn ask_all(&self, formulas: &[String]) -> Result<Vec<bool>, Diagnostic> {
        ask(&self.session, formulas)
    }

    /// The whole game as a scenario: a header, the deal, a checkpoint
    /// before every move, every move, the final score and winners as a
    /// comment, the score as `expect score` lines that `dealer run` checks,
    /// and `expect` lines that pin where every card lies at the end.
    pub fn scenario(&self) -> String {
        let seats: Vec<&str> = self.seats.iter().map(Seat::name).collect();
        let mut out = format!(
            "# {} played by dealer: seed {}, {}, seats {}\n",
            self.game.name(),
            self.seed,
            self.deal,
            seats.join(",")
        );
        out.push_str("# replay: dealer run FILE; step through: dealer repl FILE (:goto turn N)\n");
        out.push_str(&self.dealt.to_text());
        for (i, played) in self.history.iter().enumerate() {
            out.push_str(&format!("checkpoint \"turn {}\"\n{}\n", i + 1, played.text));
        }
        out.push_str("checkpoint \"end\"\n");
        if let Some(why) = self.stopped() {
            out.push_str(&format!(
                "# the game ended as it stood at its limit: {why}\n"
            ));
        }
        if self.is_over() {
            out.push_str(&format!("# final score: {}\n", self.score_line()));
            let winners: Vec<&str> = self
                .winners()
                .into_iter()
                .map(|p| self.player_name(p))
                .collect();
            out.push_str(&format!("# winner(s): {}\n", winners.join(", ")));
        } else {
            out.push_str(&format!("# score so far: {}\n", self.score_line()));
        }
        for (p, score) in self.scores().iter().enumerate() {
            out.push_str(&format!("expect score {} = {score}\n", self.player_name(p)));
        }
        for line in final_expectations(&self.position()) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The model the session holds now (for timing and statistics).
    pub fn model(&self) -> Rc<dyn crate::engine::Backend> {
        Rc::clone(&self.playing().model)
    }
}

/// The legal moves of a session's game in its actual state, each with its
/// statement (also for a session that is not a [`Match`], such as the
/// REPL's).
pub fn legal_moves(referee: &dyn Referee, play: &Playing) -> Vec<Legal> {
    referee
        .legal_moves(&play.position())
        .into_iter()
        .map(|mv: Move| Legal {
            text: referee.move_text(&play.table, &mv),
            mv,
        })
        .collect()
}

/// Evaluates formulas (scenario syntax) in the actual world, each as a `?`
/// query through the parser and the interpreter, on a copy of `session`
/// (which is left as it was). An error names the formula that failed.
pub fn ask(session: &Session, formulas: &[String]) -> Result<Vec<bool>, Diagnostic> {
    let mut copy = session.clone();
    let mut answers = Vec::with_capacity(formulas.len());
    for f in formulas {
        let src = format!("? {f}");
        let stmt = syntax::parse(&src)
            .map_err(|e| e[0].to_diagnostic())?
            .statements
            .into_iter()
            .next()
            .ok_or_else(|| Diagnostic::error("empty", "no formula", Span::new(0, 0)))?;
        let out = copy.execute(&stmt, &src)?;
        answers.push(
            out.iter()
                .any(|o| matches!(o, Output::Answer { value: true, .. })),
        );
    }
    Ok(answers)
}

/// A line that must be one move, parsed and resolved against the deal.
fn resolve(session: &Session, text: &str) -> Result<Move, Diagnostic> {
    let scenario = syntax::parse(text).map_err(|e| e[0].to_diagnostic())?;
    let mut statements = scenario.statements.into_iter();
    match (statements.next(), statements.next()) {
        (Some(stmt), None) => match &stmt.kind {
            StatementKind::Move(m) => session.resolve_move(m),
            _ => Err(not_a_move(stmt.span)),
        },
        (Some(stmt), _) => Err(not_a_move(stmt.span)),
        (None, _) => Err(Diagnostic::error(
            "not-a-move",
            "no move",
            Span::new(0, text.len()),
        )),
    }
}

fn not_a_move(at: Span) -> Diagnostic {
    Diagnostic::error("not-a-move", "this is not a move", at)
        .with_label("expected one move")
        .with_help("type one move, such as one of `moves`, or a command (`help`)")
}
