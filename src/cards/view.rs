//! A game's knowledge views, the optional part of a game that says which
//! facts a player may want to look at while playing (`know`, `known`):
//! each [`Fact`] is an engine [`Formula`] built from the table, with the
//! scenario text that writes it (shown, never parsed). A game implements
//! [`GameView`] in its own file and returns it from
//! [`GameRules::view`](super::GameRules::view); a game without one gets
//! [`CARDS`], the facts about each card of each hand. The facts say what
//! to ask; only the engine says which hold.

use crate::engine::{Agent, Cmp, Formula, Kind, Loc};

use super::referee::Position;
use super::table::{LocKind, Table};

/// A fact a view may show: `K_1 hand2(Q)` shown as "player 2 holds Q".
#[derive(Clone, Debug)]
pub struct Fact {
    /// Whom it is about, as a heading (`player 2`).
    pub about: String,
    /// What kind of fact (`holds`, `has no`, `knows you hold`).
    pub label: String,
    /// The item (`Q`, `<8,4>`, `1.2`).
    pub item: String,
    /// The formula the engine decides.
    pub formula: Formula,
    /// The formula as scenario text (`K_1 hand2(Q*) >= 1`), to show.
    pub text: String,
}

/// Whose knowledge a hand's facts are about, and how they are worded: the
/// facts of player `knower` about the hand of `owner`, under the heading
/// `about`, each label starting with `prefix` (`knows you ` in the second
/// order view, where the owner is the viewer).
#[derive(Clone, Copy, Debug)]
pub struct About<'a> {
    /// Whose hand.
    pub owner: Agent,
    /// Who knows.
    pub knower: Agent,
    /// The heading (`player 2`).
    pub about: &'a str,
    /// Before each label: empty in the first order view.
    pub prefix: &'a str,
}

impl About<'_> {
    /// Whether the facts are about the viewer's own hand (the second order
    /// view), which changes the verb's person.
    pub fn yours(&self) -> bool {
        !self.prefix.is_empty()
    }

    /// A fact: `K_knower φ`, with `text` the text of φ.
    pub fn fact(&self, table: &Table, label: &str, item: String, phi: Formula, text: &str) -> Fact {
        Fact {
            about: self.about.to_string(),
            label: format!("{}{label}", self.prefix),
            item,
            formula: Formula::K(self.knower, Box::new(phi)),
            text: format!("K_{} {text}", table.players[self.knower]),
        }
    }
}

/// What a game's knowledge views list. Every method has a default: the
/// facts about each card of each hand, and nothing else.
pub trait GameView: Sync {
    /// The facts about a hand that one player may know
    /// ([`About::owner`]'s hand known by [`About::knower`]).
    fn hand(&self, table: &Table, who: About) -> Vec<Fact> {
        cards_held(table, who)
    }

    /// The `know` view's facts of player `me` beyond the hands.
    fn first_order(&self, pos: &Position, me: Agent) -> Vec<Fact> {
        let _ = (pos, me);
        Vec::new()
    }

    /// The `known` view's facts beyond the hands: what opponent `q` knows
    /// about `me`.
    fn second_order(&self, pos: &Position, me: Agent, q: Agent) -> Vec<Fact> {
        let _ = (pos, me, q);
        Vec::new()
    }
}

/// The view of a game without one of its own: each card of each hand.
#[derive(Debug)]
pub struct Cards;

impl GameView for Cards {}

/// The view of a game without one of its own.
pub static CARDS: Cards = Cards;

/// The hand's name in scenario text (`hand2`, `Bruno`).
fn hand_name(table: &Table, owner: Agent) -> (Loc, String) {
    let hand = table.hand(owner);
    (hand, table.location_name(hand))
}

/// For each card: the hand holds it.
pub fn cards_held(table: &Table, who: About) -> Vec<Fact> {
    let (hand, name) = hand_name(table, who.owner);
    let label = if who.yours() { "hold" } else { "holds" };
    (0..table.deck.kinds.len())
        .map(|k| {
            let card = table.deck.kinds[k].name.clone();
            let text = format!("{name}({card})");
            who.fact(table, label, card, Formula::holds(hand, k), &text)
        })
        .collect()
}

/// For each rank: the hand holds at least `at_least` of it (said with
/// `verb`: `hold`, `collect`), or holds none.
pub fn ranks_held(table: &Table, who: About, at_least: u32, verb: &str) -> Vec<Fact> {
    let (hand, name) = hand_name(table, who.owner);
    let mut facts = Vec::new();
    for (rank, kinds) in table.deck.ranks() {
        let pattern = rank_pattern(table, &rank, &kinds);
        let count = |cmp: Cmp, n: u32| Formula::count(hand, sorted(&kinds), cmp, n);
        let verb = format!("{verb}{}", if who.yours() { "" } else { "s" });
        facts.push(who.fact(
            table,
            &verb,
            rank.clone(),
            count(Cmp::Ge, at_least),
            &format!("{name}({pattern}) >= {at_least}"),
        ));
        let none = if who.yours() { "have no" } else { "has no" };
        facts.push(who.fact(
            table,
            none,
            rank,
            count(Cmp::Eq, 0),
            &format!("{name}({pattern}) = 0"),
        ));
    }
    facts
}

/// For each suit: the hand holds none of it.
pub fn suits_lacked(table: &Table, who: About) -> Vec<Fact> {
    let (hand, name) = hand_name(table, who.owner);
    let label = if who.yours() {
        "lack suit"
    } else {
        "lacks suit"
    };
    let mut suits: Vec<char> = Vec::new();
    for k in &table.deck.kinds {
        if let Some(s) = k.suit {
            if !suits.contains(&s) {
                suits.push(s);
            }
        }
    }
    suits
        .into_iter()
        .map(|suit| {
            let kinds: Vec<Kind> = (0..table.deck.kinds.len())
                .filter(|&k| table.deck.kinds[k].suit == Some(suit))
                .collect();
            who.fact(
                table,
                label,
                suit.to_string(),
                Formula::count(hand, kinds, Cmp::Eq, 0),
                &format!("{name}(*{suit}) = 0"),
            )
        })
        .collect()
}

/// `Kv_P loc`: for every kind, `p` knows whether it lies at `loc`.
pub fn knows_value(table: &Table, p: Agent, loc: Loc) -> Formula {
    Formula::And(
        (0..table.deck.kinds.len())
            .map(|k| Formula::Kw(p, Box::new(Formula::holds(loc, k))))
            .collect(),
    )
}

/// The slots of the table, with their owners and names.
pub fn slots(table: &Table) -> Vec<(Agent, Loc, String)> {
    table
        .locations
        .iter()
        .enumerate()
        .filter_map(|(l, loc)| match loc.kind {
            LocKind::Slot(owner, _) => Some((owner, l, table.location_name(l))),
            _ => None,
        })
        .collect()
}

/// The players other than `me`.
pub fn others(table: &Table, me: Agent) -> Vec<Agent> {
    (0..table.players.len()).filter(|&q| q != me).collect()
}

/// The pattern for every card of a rank (`Q*`, `6*`), or its one card.
fn rank_pattern(table: &Table, rank: &str, kinds: &[Kind]) -> String {
    match kinds {
        [one] => table.deck.kinds[*one].name.clone(),
        _ => format!("{rank}*"),
    }
}

/// The kinds sorted, as a count atom holds them.
fn sorted(kinds: &[Kind]) -> Vec<Kind> {
    let mut out = kinds.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}
