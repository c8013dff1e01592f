//! The referee of a played game: whose turn it is, the legal moves, the end
//! and the score, all read from the actual state (the actual world of the
//! model, through the [`Backend`], and the [`GameState`]), and a seeded deal
//! written as scenario text, so that a played game goes through the parser
//! and the interpreter like any scenario.
//!
//! A game has a referee when [`GameRules::referee`](super::GameRules::referee)
//! returns one. The referee never says what anyone knows: agents ask the
//! engine. Its moves are resolved [`Move`]s; [`Referee::move_text`](super::Referee::move_text) writes
//! one in scenario syntax, and playing it means executing that text as a
//! statement of the session.

use std::rc::Rc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::diag::Diagnostic;
use crate::engine::{Agent, Backend, Kind};

use super::deal::Deal;
use super::deck::Deck;
use super::rules::{action_text, GameState, Move};
use super::table::{LocKind, Table};

/// What the referee reads: the table, the current model and the game state.
#[derive(Clone, Copy)]
pub struct Position<'a> {
    /// Players, deck and locations.
    pub table: &'a Table,
    /// The current model; the referee reads only its actual world, and a
    /// move played from here starts from it.
    pub model: &'a Rc<dyn Backend>,
    /// Turn, due draws, stock order, the game's own state.
    pub state: &'a GameState,
}

impl Position<'_> {
    /// The cards at `loc` in the actual world, per kind.
    pub fn cards(&self, loc: usize) -> Vec<u32> {
        self.table.real_cards(&**self.model, loc)
    }

    /// How many cards lie at `loc` in the actual world.
    pub fn count(&self, loc: usize) -> u32 {
        self.cards(loc).iter().sum()
    }

    /// The kinds at `loc` in the actual world (each once).
    pub fn kinds_at(&self, loc: usize) -> Vec<Kind> {
        let cards = self.cards(loc);
        (0..cards.len()).filter(|&k| cards[k] > 0).collect()
    }
}

/// Which deal [`Referee::setup`](super::Referee::setup) writes. Written `full` or `small`
/// (`teaching` too) by every front end: `--size` of the commands and the
/// play page's request read it with [`std::str::FromStr`] (and clap's
/// [`clap::ValueEnum`], which lists the values in `--help`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// The report's deck and number of players.
    Full,
    /// A smaller deck for teaching, whose models the explicit engine holds.
    Teaching,
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Size::Full => "full",
            Size::Teaching => "small",
        })
    }
}

impl std::str::FromStr for Size {
    type Err = String;

    fn from_str(s: &str) -> Result<Size, String> {
        match s {
            "full" => Ok(Size::Full),
            "small" | "teaching" => Ok(Size::Teaching),
            other => Err(format!(
                "size `{other}`: `full` (the report's deck and players) or `small` (a deck for teaching)"
            )),
        }
    }
}

impl clap::ValueEnum for Size {
    fn value_variants<'a>() -> &'a [Size] {
        &[Size::Full, Size::Teaching]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(match self {
            Size::Full => clap::builder::PossibleValue::new("full")
                .help("The report's deck and number of players"),
            Size::Teaching => clap::builder::PossibleValue::new("small")
                .alias("teaching")
                .help("A small deck for teaching"),
        })
    }
}

/// The most moves a game is played for when its rules have not ended it
/// (a game whose players wait for ever, or ask each other for the same
/// cards in a cycle): the game then ends as it stands. No game played to
/// its end by the shipped strategies comes near it (Go Fish at 52 cards
/// takes about 84 moves, Kwartet's 52 cards about 96).
pub const MOVE_LIMIT: usize = 5_000;

/// Why a game ends before its rules end it, or `None` when it goes on
/// (or its rules have ended it): `cap` moves when a cap is given (a
/// command's `--max-moves`), else the game's own limit
/// ([`Referee::limit`](super::Referee::limit)). Every loop that plays a game (play, the web play
/// page, tournaments, `bench --play`) asks this one function after each
/// move, so that a seed has one outcome in all of them.
pub fn stopped(
    referee: &dyn super::Referee,
    pos: &Position,
    moves: usize,
    cap: Option<usize>,
) -> Option<String> {
    if referee.is_terminal(pos) {
        return None;
    }
    match cap {
        Some(cap) if moves >= cap => Some(format!("{cap} moves (--max-moves)")),
        Some(_) => None,
        None => referee.limit(pos, moves),
    }
}

/// The player who moves next under [`stopped`]: `None` when the game is
/// over by its rules or ends at its limit.
pub fn to_move(
    referee: &dyn super::Referee,
    pos: &Position,
    moves: usize,
    cap: Option<usize>,
) -> Option<Agent> {
    if stopped(referee, pos, moves, cap).is_some() {
        return None;
    }
    referee.current_player(pos)
}

/// The players with the highest (`high`) or lowest score.
pub fn best(scores: &[i64], high: bool) -> Vec<Agent> {
    let target = if high {
        scores.iter().max()
    } else {
        scores.iter().min()
    };
    let Some(&target) = target else {
        return Vec::new();
    };
    (0..scores.len()).filter(|&p| scores[p] == target).collect()
}

/// A move in scenario syntax. An ask for several kinds asks for their rank.
///
/// # Panics
///
/// On an announcement or a declared event model (`apply`), which no
/// referee offers: their formula or event model has no text here.
pub fn move_text(table: &Table, mv: &Move) -> String {
    let player = |p: Agent| table.players[p].clone();
    let card = |k: Kind| table.deck.kinds[k].name.clone();
    let loc = |l: usize| table.locations[l].name.clone();
    match mv {
        Move::Ask {
            asker,
            asked,
            kinds,
        } => {
            let what = match kinds.as_slice() {
                [k] => card(*k),
                _ => table.deck.kinds[kinds[0]].rank_name(),
            };
            format!("ask {} {} {what}", player(*asker), player(*asked))
        }
        Move::Draw {
            player: p,
            kind,
            from,
        } if *from == table.stock() => match kind {
            Some(k) => format!("draw {}: {}", player(*p), card(*k)),
            None => format!("draw {}", player(*p)),
        },
        Move::Draw {
            player: p,
            kind,
            from,
        } => format!(
            "draw {} from {}: {}",
            player(*p),
            loc(*from),
            kind.map_or_else(String::new, card)
        ),
        Move::Peek { player: p, slot } => format!("peek {} {}", player(*p), loc(*slot)),
        Move::Reveal { player: p, kind } => format!("reveal {} {}", player(*p), card(*kind)),
        Move::Show { from, to, kind } => {
            format!("show {} -> {} {}", player(*from), player(*to), card(*kind))
        }
        Move::Transfer { kind, from, to } => {
            format!("move {} from {} -> {}", card(*kind), loc(*from), loc(*to))
        }
        Move::Game(g) => action_text(table, g.as_ref()),
        Move::Announce(_) | Move::Apply(..) => {
            unreachable!("a referee offers no announcement or declared event")
        }
    }
}

/// Every card of `deck` (each kind's name as many times as its copies,
/// kind by kind), shuffled by a ChaCha8 generator seeded with `seed`, so
/// that the same seed gives the same order on every machine.
pub fn shuffled(deck: &Deck, seed: u64) -> Vec<String> {
    let mut cards = deck.cards();
    cards.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    cards
}

/// A custom deal gives at least one card of `deck` to each of `players`:
/// the reason if not.
pub fn check_hand(deck: &Deck, hand: usize, players: usize) -> Result<(), Diagnostic> {
    let cards = deck.total() as usize;
    if hand == 0 || hand.saturating_mul(players) > cards {
        return Err(Diagnostic::unlocated(
            "custom-deal",
            format!(
                "--hand {hand}: each of the {players} players needs at least one card, and the deck has {cards} ({} at most each)",
                cards / players.max(1)
            ),
        ));
    }
    Ok(())
}

/// Deals `hand` cards to each player from the top of `deck` shuffled by
/// `seed` ([`shuffled`]); the rest is the stock, in order.
pub fn dealt(game: &str, players: &[&str], deck: Deck, hand: usize, seed: u64) -> Deal {
    let mut cards = shuffled(&deck, seed).into_iter();
    let parts = players
        .iter()
        .map(|p| (p.to_string(), cards.by_ref().take(hand).collect()))
        .collect();
    Deal {
        game: game.into(),
        seed,
        players: players.iter().map(|p| p.to_string()).collect(),
        deck,
        parts,
        stock: cards.collect(),
        ..Deal::default()
    }
}

/// The `expect` lines that pin down where every card lies at the end:
/// each location's number of cards, and how many of each kind it holds in
/// the actual world, as common knowledge for the face-up locations.
pub fn final_expectations(pos: &Position) -> Vec<String> {
    let table = pos.table;
    let mut lines = Vec::new();
    for (loc, l) in table.locations.iter().enumerate() {
        let name = table.location_name(loc);
        lines.push(format!("expect {name} = {}", pos.count(loc)));
        let public = matches!(l.kind, LocKind::Books(_)) || l.seen_by.len() == table.players.len();
        let cards = pos.cards(loc);
        for k in pos.kinds_at(loc) {
            let card = &table.deck.kinds[k].name;
            let c = if public { "C " } else { "" };
            lines.push(format!("expect {c}{name}({card}) = {}", cards[k]));
        }
    }
    lines
}

/// How many whole ranks (books, sets) lie in player `p`'s books pile.
pub fn books_laid(pos: &Position, p: Agent) -> i64 {
    let Some(books) = pos.table.books(p) else {
        return 0;
    };
    let cards = pos.cards(books);
    let copies = pos.table.deck.copies();
    pos.table
        .deck
        .ranks()
        .iter()
        .filter(|(_, kinds)| kinds.iter().all(|&k| cards[k] == copies[k]))
        .count() as i64
}

/// The players with at least one card in hand, other than `p`.
pub fn others_holding(pos: &Position, p: Agent) -> Vec<Agent> {
    (0..pos.table.players.len())
        .filter(|&q| q != p && pos.count(pos.table.hand(q)) > 0)
        .collect()
}
