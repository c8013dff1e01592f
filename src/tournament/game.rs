//! One game between strategies: the referee's seeded deal executed as
//! scenario text in a [`Session`], then, until the game is over, the
//! player to move asks its strategy (whose guards the session's engine
//! answers) and the chosen legal move is executed as a statement.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::cards::referee::{deal_lines, read_deck_line};
use crate::cards::{stopped, to_move, Referee, Size};
use crate::diag::Span;
use crate::interp::{Engine, Options, Session};
use crate::strategy::{Seated, Strategy};
use crate::syntax;

/// Which deal a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deal {
    /// The referee's deal of this size.
    Referee(Size),
    /// A deck line and a hand size, dealt to the referee's full-size
    /// players (`deck ranks A K Q J suits S H D C`, 3).
    Custom {
        /// The `deck ...` line.
        deck: String,
        /// Cards dealt to each player.
        hand: usize,
    },
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// The seats with the best score.
    pub winners: Vec<usize>,
    /// The moves played (draws included).
    pub turns: usize,
    /// The game reached its limit and ended as it stood (the Kemps
    /// report's 10,000 turns, on games where every player waits for
    /// knowledge; [`crate::cards::stopped`]).
    pub capped: bool,
}

/// The scenario text of a game's deal.
pub fn setup_text(game: &str, deal: &Deal, seed: u64) -> Result<String, String> {
    let referee = referee_of(game)?;
    Ok(match deal {
        Deal::Referee(size) => referee.setup(seed, *size),
        Deal::Custom { deck, hand } => {
            let full = referee.setup(0, Size::Full);
            let players = full
                .lines()
                .find_map(|l| l.strip_prefix("players "))
                .ok_or("the referee's deal names no players")?
                .to_string();
            let names: Vec<&str> = players.split_whitespace().collect();
            check_custom(deck, *hand, names.len())?;
            deal_lines(game, &names, deck, *hand, seed)
        }
    })
}

/// A custom deal is a deck line the scenario grammar reads and a hand of
/// at least one card for each of `players` from it: the reason if not
/// (the deck's own errors rendered against the line, as `--deck`).
pub fn check_custom(deck_line: &str, hand: usize, players: usize) -> Result<(), String> {
    let given = deck_line.trim_start_matches("deck").trim_start();
    let first = given.split_whitespace().next().unwrap_or("");
    if first != "deck" && crate::syntax::STATEMENT_KEYWORDS.contains(&first) {
        return Err(format!(
            "--deck takes the cards of a deck, such as `Q*4 A*4`, not a `{first}` statement"
        ));
    }
    let deck = read_deck_line(deck_line)
        .map_err(|d| d.render("--deck", deck_line, false).trim_end().to_string())?;
    let cards = deck.total() as usize;
    if hand == 0 || hand.saturating_mul(players) > cards {
        return Err(format!(
            "--hand {hand}: each of the {players} players needs at least one card, and the deck has {cards} ({} at most each)",
            cards / players.max(1)
        ));
    }
    Ok(())
}

/// The referee of a game, or an error naming the games that have one.
pub fn referee_of(game: &str) -> Result<&'static dyn Referee, String> {
    crate::play::refereed(game).map(|(_, referee)| referee)
}

/// A session with the deal of `setup` executed.
pub fn deal_session(setup: &str, engine: Engine) -> Result<Session, String> {
    let options = Options {
        engine,
        ..Options::default()
    };
    let mut session = Session::new(options);
    let scenario = syntax::parse(setup).map_err(|e| e[0].message.clone())?;
    for stmt in &scenario.statements {
        session
            .execute(stmt, setup)
            .map_err(|d| d.render("deal", setup, false))?;
    }
    session
        .finish(Span::new(0, 0))
        .map_err(|d| d.render("deal", setup, false))?;
    Ok(session)
}

/// The generator of seat `seat` in the game of `seed`.
pub fn seat_rng(seed: u64, seat: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(seat as u64 + 1);
    rng
}

/// The legal moves in the session's actual state, as statements.
pub fn legal_texts(referee: &dyn Referee, session: &Session) -> Vec<String> {
    let play = session.playing().expect("dealt");
    referee
        .legal_moves(&play.position())
        .iter()
        .map(|m| referee.move_text(&play.table, m))
        .collect()
}

/// Plays a game to its end, or to its limit (`max_moves` moves when
/// given, else the game's own: [`crate::cards::stopped`]), where it ends as
/// it stands (its scores so far, [`GameOutcome::capped`]): `seats[i]`
/// plays player `i`.
pub fn play_game(
    game: &str,
    deal: &Deal,
    seed: u64,
    seats: &[&Strategy],
    engine: Engine,
    max_moves: impl Into<Option<usize>>,
) -> Result<GameOutcome, String> {
    let max_moves = max_moves.into();
    let referee = referee_of(game)?;
    let psychic: Vec<usize> = (0..seats.len()).filter(|&s| seats[s].psychic()).collect();
    let setup = crate::cards::referee::with_psychic(&setup_text(game, deal, seed)?, &psychic);
    let mut session = deal_session(&setup, engine)?;
    let players = session.playing().expect("dealt").table.players.len();
    if players != seats.len() {
        return Err(format!(
            "{game} has {players} players and {} strategies were seated",
            seats.len()
        ));
    }
    let mut rngs: Vec<ChaCha8Rng> = (0..players).map(|s| seat_rng(seed, s)).collect();
    let seated: Vec<Seated> = {
        let table = &session.playing().expect("dealt").table;
        (0..players)
            .map(|s| Seated::new(seats[s], table, s))
            .collect::<Result<_, _>>()
            .map_err(|d| d.message.clone())?
    };
    let mut turns = 0;
    let capped = loop {
        let play = session.playing().expect("dealt");
        let pos = play.position();
        let Some(me) = to_move(referee, &pos, turns, max_moves) else {
            break stopped(referee, &pos, turns, max_moves).is_some();
        };
        let legal = legal_texts(referee, &session);
        let decision = seated[me]
            .choose(&mut session, &legal, &mut rngs[me])
            .map_err(|d| d.message.clone())?;
        let text = &legal[decision.index];
        let stmt = syntax::parse_statement(text)
            .map_err(|e| format!("`{text}`: {}", e[0].message))?
            .remove(0);
        session
            .execute(&stmt, text)
            .map_err(|d| format!("game {seed}: `{text}` refused: {}", d.message))?;
        turns += 1;
    };
    let pos = session.playing().expect("dealt").position();
    Ok(GameOutcome {
        scores: referee.scores(&pos),
        winners: referee.winners(&pos),
        turns,
        capped,
    })
}
