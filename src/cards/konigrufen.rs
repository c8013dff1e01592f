//! Königrufen (`game konigrufen`), after the Königrufen report.
//!
//! - Four players and a tarock deck (`deck tarock ...`): four suits and the
//!   trumps `T1`..`T21`, `SKUS` (the highest). Every player has a public
//!   pile `played_P` (`played1` for numbered players) where the cards they
//!   play stay, so who played what remains a fact of every world.
//! - `call P K`: the declarer calls a king, once, before the first card is
//!   played. The call is public and says nothing about the cards (the
//!   declarer may call a king they hold and play alone). The partner is
//!   whoever holds the called king: `partner(P)` is the atom "P holds the
//!   called king or has played it".
//! - `play P C`: it is P's turn; P holds C; when a trick is led, P follows the
//!   led suit if able, and otherwise plays a trump if able. The move is one
//!   public event whose precondition is that rule: "P holds C, and if C is
//!   not of the led suit, P holds no card of it (and, if C is no trump,
//!   no trump either)". Playing off-suit thus makes "P has no card of the led
//!   suit" common knowledge by product update.
//! - After four cards the trick goes to the highest trump, or else the
//!   highest card of the led suit; its winner leads the next trick.
//! - `highest(P)`: P holds the highest trump not yet played.

use std::rc::Rc;

use crate::diag::Diagnostic;
use crate::engine::{Agent, Backend, Cmp, Event, EventModel, Formula, Kind, Loc, Post};
use crate::syntax::ast::Name;

use super::deal::Deal;
use super::deck::{tarock_ranks, CardKind, Deck};
use super::game::{GameRules, Referee};
use super::generic::{generic, generic_event_models};
use super::referee::{dealt, Position, Size};
use super::rules::{
    actual_cards, check_turn, describe_player, foreign, holds, Arg, ArgKind, GameAction, GameState,
    Move, MoveForm, Outcome, Refusal,
};
use super::table::{LocKind, Table};
use super::view::{suits_lacked, About, Fact, GameView};

/// The moves of Königrufen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KonigrufenMove {
    /// `call P K`: the declarer calls a king.
    Call {
        /// The declarer.
        player: Agent,
        /// The king called.
        kind: Kind,
    },
    /// `play P C`: a card to the current trick.
    Play {
        /// Who plays.
        player: Agent,
        /// The card.
        kind: Kind,
    },
}

/// The words of Königrufen's moves and what they take.
const FORMS: &[MoveForm] = &[
    MoveForm::new("call", &[ArgKind::Player, ArgKind::Card]),
    MoveForm::new("play", &[ArgKind::Player, ArgKind::Card]),
];

impl GameAction for KonigrufenMove {
    fn word(&self) -> &'static str {
        match self {
            KonigrufenMove::Call { .. } => "call",
            KonigrufenMove::Play { .. } => "play",
        }
    }

    fn args(&self) -> Vec<Arg> {
        match *self {
            KonigrufenMove::Call { player, kind } | KonigrufenMove::Play { player, kind } => {
                vec![Arg::Player(player), Arg::Card(kind)]
            }
        }
    }
}

/// The call and the trick in progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tricks {
    /// The declarer, once a king is called.
    pub declarer: Option<Agent>,
    /// The called king.
    pub called: Option<Kind>,
    /// The cards of the current trick, in the order played.
    pub trick: Vec<(Agent, Kind)>,
    /// Each finished trick: its winner and its cards.
    pub won: Vec<(Agent, Vec<Kind>)>,
}

/// The name of player `p`'s pile of played cards: `played1`, `played_Bruno`.
pub fn played_name(player: &str) -> String {
    if player.chars().all(|c| c.is_ascii_digit()) {
        format!("played{player}")
    } else {
        format!("played_{player}")
    }
}

/// Adds a public `played` pile per player.
pub fn add_locations(table: &mut Table) {
    let everyone: Vec<Agent> = (0..table.players.len()).collect();
    for p in 0..table.players.len() {
        let name = played_name(&table.players[p]);
        if table.find_location(&name).is_none() {
            table.add_location(name, LocKind::Pile, everyone.clone());
        }
    }
}

/// Player `p`'s pile of played cards.
fn played(table: &Table, p: Agent) -> Loc {
    table
        .find_location(&played_name(&table.players[p]))
        .expect("Königrufen tables have played piles")
}

fn tricks(state: &GameState) -> Tricks {
    state.extra.get::<Tricks>().cloned().unwrap_or_default()
}

/// A card's suit (`T` for trumps) and its strength within the suit.
fn strength(card: &CardKind) -> (char, u32) {
    let suit = card.suit.unwrap_or('?');
    if suit == 'T' {
        return ('T', card.value.unwrap_or(0));
    }
    let ranks = tarock_ranks(suit);
    let rank = card.rank.as_deref().unwrap_or("");
    let pos = ranks.iter().position(|r| *r == rank).unwrap_or(ranks.len());
    (suit, (ranks.len() - pos) as u32)
}

fn suit_word(suit: char) -> &'static str {
    match suit {
        'H' => "heart",
        'D' => "diamond",
        'S' => "spade",
        'C' => "club",
        _ => "trump",
    }
}

/// Checks the table after the deal: four players, a tarock deck.
pub fn start(table: &Table, mut out: Outcome) -> Result<Outcome, Refusal> {
    if table.players.len() != 4 {
        return Err(Refusal::new(
            "bad-table",
            format!(
                "Königrufen is played by four players; this scenario has {}",
                table.players.len()
            ),
        ));
    }
    if let Some(k) = table.deck.kinds.iter().find(|k| k.suit.is_none()) {
        return Err(Refusal::new(
            "bad-deck",
            format!("Königrufen is played with tarock cards, and `{}` is none", k.name),
        )
        .help("declare the deck as `deck tarock`, `deck tarock reduced` or `deck tarock T1 T21 SKUS KH ...`"));
    }
    out.state.extra.set(Tricks::default());
    Ok(out)
}

/// Plays a move by the rules of Königrufen.
pub fn play(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    mv: &Move,
    label: &str,
) -> Result<Outcome, Refusal> {
    match mv {
        Move::Game(g) => match g.as_any().downcast_ref::<KonigrufenMove>() {
            Some(KonigrufenMove::Call { player, kind }) => {
                call(table, model, state, *player, *kind, label)
            }
            Some(KonigrufenMove::Play { player, kind }) => {
                play_card(table, model, state, *player, *kind, label)
            }
            None => Err(foreign(g.as_ref())),
        },
        Move::Announce(_) | Move::Apply(..) => {
            let (model, state) = generic(table, model, state, mv, label)?;
            Ok(Outcome {
                model,
                state,
                notes: Vec::new(),
            })
        }
        _ => Err(Refusal::new(
            "not-a-move-of-the-game",
            "Königrufen: the moves are `call`, `play` and announcements",
        )
        .help("cards change hands only by being played to a trick")),
    }
}

/// `call P K`.
fn call(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    player: Agent,
    kind: Kind,
    label: &str,
) -> Result<Outcome, Refusal> {
    let mut t = tricks(state);
    if let (Some(d), Some(k)) = (t.declarer, t.called) {
        return Err(Refusal::new(
            "already-called",
            format!(
                "Königrufen: a king is called once, and {} has called {}",
                describe_player(table, d),
                table.deck.kinds[k].name
            ),
        ));
    }
    let card = &table.deck.kinds[kind];
    if card.rank.as_deref() != Some("K") || card.suit == Some('T') {
        return Err(Refusal::new(
            "not-a-king",
            format!(
                "Königrufen: the declarer calls a king, and {} is not one",
                card.name
            ),
        ));
    }
    let em = EventModel::announcement(label, table.players.len(), Formula::Top);
    let model = model.apply(&em, None)?;
    t.declarer = Some(player);
    t.called = Some(kind);
    let mut state = state.clone();
    state.extra.set(t);
    let notes = vec![format!(
        "{} is the declarer; whoever holds {} is the partner",
        describe_player(table, player),
        card.name
    )];
    Ok(Outcome {
        model,
        state,
        notes,
    })
}

/// Checks a play against the rules in the actual world.
fn check_play(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    player: Agent,
    kind: Kind,
) -> Result<(), Refusal> {
    let t = tricks(state);
    if t.called.is_none() {
        return Err(Refusal::new(
            "no-king-called",
            "Königrufen: the declarer calls a king before the first card is played",
        )
        .help("write e.g. `call Bruno KH` first"));
    }
    let who = describe_player(table, player);
    check_turn("Königrufen", table, state, player)?;
    holds(table, model, table.hand(player), kind)?;
    let Some(&(_, lead)) = t.trick.first() else {
        return Ok(());
    };
    let led = strength(&table.deck.kinds[lead]).0;
    let suit = strength(&table.deck.kinds[kind]).0;
    let hand = actual_cards(model, table.hand(player));
    let has = |s: char| suit_kinds(table, s).iter().any(|&k| hand[k] > 0);
    if suit != led && has(led) {
        return Err(Refusal::new(
            "must-follow-suit",
            format!(
                "Königrufen: {who} must follow suit: {who} holds a {}",
                suit_word(led)
            ),
        ));
    }
    if suit != led && suit != 'T' && has('T') {
        return Err(Refusal::new(
            "must-trump",
            format!(
                "Königrufen: {who} must play a trump: {who} holds no {} but holds a trump",
                suit_word(led)
            ),
        ));
    }
    Ok(())
}

/// The kinds of a suit (`T`: the trumps).
fn suit_kinds(table: &Table, suit: char) -> Vec<Kind> {
    (0..table.deck.kinds.len())
        .filter(|&k| table.deck.kinds[k].suit == Some(suit))
        .collect()
}

/// The play's event model: one public event, "P plays C", whose
/// precondition is the rule of following suit given the led suit.
pub fn play_events(
    table: &Table,
    led: Option<char>,
    player: Agent,
    kind: Kind,
    label: &str,
) -> EventModel {
    let hand = table.hand(player);
    let mut pre = vec![Formula::holds(hand, kind)];
    let suit = strength(&table.deck.kinds[kind]).0;
    if let Some(led) = led.filter(|&l| l != suit) {
        pre.push(Formula::count(hand, suit_kinds(table, led), Cmp::Eq, 0));
        if suit != 'T' {
            pre.push(Formula::count(hand, suit_kinds(table, 'T'), Cmp::Eq, 0));
        }
    }
    let event = Event {
        name: table.deck.kinds[kind].name.clone(),
        pre: Formula::And(pre),
        post: vec![Post::Move {
            kind,
            from: hand,
            to: played(table, player),
            n: 1,
        }],
    };
    EventModel::public(label, table.players.len(), vec![event])
}

fn led_suit(table: &Table, t: &Tricks) -> Option<char> {
    t.trick
        .first()
        .map(|&(_, k)| strength(&table.deck.kinds[k]).0)
}

/// `play P C`.
fn play_card(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    player: Agent,
    kind: Kind,
    label: &str,
) -> Result<Outcome, Refusal> {
    check_play(table, model.as_ref(), state, player, kind)?;
    let mut t = tricks(state);
    let em = play_events(table, led_suit(table, &t), player, kind, label);
    let model = model.apply(&em, None)?;
    let mut state = state.clone();
    let mut notes = Vec::new();
    t.trick.push((player, kind));
    state.turn = table.next_player(player);
    if t.trick.len() == table.players.len() {
        let winner = trick_winner(table, &t.trick);
        notes.push(format!("{} wins the trick", describe_player(table, winner)));
        t.won
            .push((winner, t.trick.iter().map(|&(_, k)| k).collect()));
        t.trick.clear();
        state.turn = winner;
    }
    state.extra.set(t);
    Ok(Outcome {
        model,
        state,
        notes,
    })
}

/// The highest trump, or else the highest card of the led suit.
fn trick_winner(table: &Table, trick: &[(Agent, Kind)]) -> Agent {
    let led = strength(&table.deck.kinds[trick[0].1]).0;
    let key = |&(_, k): &(Agent, Kind)| {
        let (suit, n) = strength(&table.deck.kinds[k]);
        (u32::from(suit == 'T') * 2 + u32::from(suit == led), n)
    };
    trick
        .iter()
        .max_by_key(|c| key(c))
        .map(|c| c.0)
        .unwrap_or(0)
}

/// The event models of a move in `[move]φ`.
pub fn event_models(
    table: &Table,
    state: Option<&GameState>,
    mv: &Move,
    label: &str,
) -> Result<Vec<EventModel>, Refusal> {
    let t = state.map(tricks).unwrap_or_default();
    Ok(vec![match mv {
        Move::Game(g) => match g.as_any().downcast_ref::<KonigrufenMove>() {
            Some(KonigrufenMove::Play { player, kind }) => {
                play_events(table, led_suit(table, &t), *player, *kind, label)
            }
            Some(KonigrufenMove::Call { .. }) => {
                EventModel::announcement(label, table.players.len(), Formula::Top)
            }
            None => return Err(foreign(g.as_ref())),
        },
        _ => generic_event_models(table, mv, label)?,
    }])
}

/// The game's atoms: `partner(P)` (P holds or has played the called king)
/// and `highest(P)` (P holds the highest trump not yet played). `None` when
/// `name` is neither.
pub fn atom(
    table: &Table,
    state: &GameState,
    name: &Name,
    arg: &Name,
) -> Result<Option<Formula>, Diagnostic> {
    if table.find_location(&name.text).is_some() {
        return Ok(None);
    }
    match name.text.as_str() {
        "partner" => {
            let p = table.player(arg)?;
            let Some(king) = tricks(state).called else {
                return Err(Diagnostic::error(
                    "no-king-called",
                    "`partner(...)` means \u{201c}holds the called king\u{201d}, and no king is called yet",
                    name.span.to(arg.span),
                )
                .with_help("write the `call` first, e.g. `call Bruno KH`"));
            };
            Ok(Some(partner(table, king, p)))
        }
        "highest" => {
            let p = table.player(arg)?;
            Ok(Some(highest(table, p)))
        }
        _ => Ok(None),
    }
}

/// P holds the called king or has played it.
pub fn partner(table: &Table, king: Kind, p: Agent) -> Formula {
    Formula::Or(vec![
        Formula::holds(table.hand(p), king),
        Formula::holds(played(table, p), king),
    ])
}

/// P holds a trump and every higher trump of the deck has been played.
pub fn highest(table: &Table, p: Agent) -> Formula {
    let trumps = suit_kinds(table, 'T');
    let value = |k: Kind| table.deck.kinds[k].value.unwrap_or(0);
    let is_played = |k: Kind| {
        Formula::Or(
            (0..table.players.len())
                .map(|q| Formula::holds(played(table, q), k))
                .collect(),
        )
    };
    Formula::Or(
        trumps
            .iter()
            .map(|&t| {
                let mut all = vec![Formula::holds(table.hand(p), t)];
                all.extend(
                    trumps
                        .iter()
                        .filter(|&&u| value(u) > value(t))
                        .map(|&u| is_played(u)),
                );
                Formula::And(all)
            })
            .collect(),
    )
}

/// Königrufen (`game konigrufen`).
///
/// The referee of Königrufen (report 004): Bruno, Jakob, Katrin and Nadine
/// with twelve cards each from the report's 48-card deck (`deck tarock
/// reduced`); for teaching, the eight cards of scenarios/konigrufen/teams.deal,
/// two each. The first player calls a king, then every trick is played;
/// the game ends when every card is played. Each player's score is its
/// team's count (the declarer and the holder of the called king against the
/// other two): the points of the cards its tricks took, less two for every
/// three cards, rounded to the nearest point. The team with the higher
/// count wins.
#[derive(Debug)]
pub struct Konigrufen;

impl GameRules for Konigrufen {
    fn name(&self) -> &'static str {
        "konigrufen"
    }

    fn title(&self) -> &'static str {
        "Königrufen"
    }

    fn add_locations(&self, table: &mut Table) {
        add_locations(table);
    }

    fn start(&self, table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
        start(table, out)
    }

    fn move_forms(&self) -> &'static [MoveForm] {
        FORMS
    }

    fn make_move(&self, word: &str, args: &[Arg]) -> Option<Box<dyn GameAction>> {
        let m = match (word, args) {
            ("call", &[Arg::Player(player), Arg::Card(kind)]) => {
                KonigrufenMove::Call { player, kind }
            }
            ("play", &[Arg::Player(player), Arg::Card(kind)]) => {
                KonigrufenMove::Play { player, kind }
            }
            _ => return None,
        };
        Some(Box::new(m))
    }

    fn play(&self, pos: &Position, mv: &Move, label: &str) -> Result<Outcome, Refusal> {
        play(pos.table, pos.model, pos.state, mv, label)
    }

    fn event_models(
        &self,
        table: &Table,
        state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Vec<EventModel>, Refusal> {
        event_models(table, Some(state), mv, label)
    }

    fn atom(
        &self,
        table: &Table,
        state: &GameState,
        name: &Name,
        arg: &Name,
    ) -> Result<Option<Formula>, Diagnostic> {
        atom(table, state, name, arg)
    }

    fn words(&self) -> &'static [&'static str] {
        &["partner", "highest"]
    }

    fn referee(&self) -> Option<&dyn Referee> {
        Some(self)
    }

    fn view(&self) -> Option<&dyn GameView> {
        Some(self)
    }
}

impl Referee for Konigrufen {
    // The referee.
    fn card_points(&self, card: &CardKind) -> i64 {
        card_points(card)
    }

    /// Within its suit; a trump (22 of them) above every suit card.
    fn card_strength(&self, card: &CardKind) -> i64 {
        let (suit, n) = strength(card);
        i64::from(n) + if suit == 'T' { 100 } else { 0 }
    }

    fn deal(&self, seed: u64, size: Size) -> Deal {
        let players = ["Bruno", "Jakob", "Katrin", "Nadine"];
        match size {
            Size::Full => dealt("konigrufen", &players, Deck::tarock(true), 12, seed),
            Size::Teaching => dealt(
                "konigrufen",
                &players,
                Deck::tarock_cards(&["KH", "QH", "1H", "2H", "KS", "QS", "9S", "T4"]),
                2,
                seed,
            ),
        }
    }

    fn is_terminal(&self, pos: &Position) -> bool {
        let table = pos.table;
        tricks(pos.state).called.is_some()
            && (0..table.players.len()).all(|p| pos.count(table.hand(p)) == 0)
    }

    /// Before the call, the first player calls one of the suits' kings;
    /// then the turn player plays a card that follows the rules.
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if self.is_terminal(pos) {
            return Vec::new();
        }
        let table = pos.table;
        let player = pos.state.turn;
        let t = tricks(pos.state);
        if t.called.is_none() {
            return (0..table.deck.kinds.len())
                .filter(|&k| {
                    let card = &table.deck.kinds[k];
                    card.rank.as_deref() == Some("K") && card.suit != Some('T')
                })
                .map(|kind| Move::Game(Box::new(KonigrufenMove::Call { player, kind })))
                .collect();
        }
        playable(pos, &t, player)
            .into_iter()
            .map(|kind| Move::Game(Box::new(KonigrufenMove::Play { player, kind })))
            .collect()
    }

    fn scores(&self, pos: &Position) -> Vec<i64> {
        let table = pos.table;
        let n = table.players.len();
        let t = tricks(pos.state);
        let (Some(declarer), Some(king)) = (t.declarer, t.called) else {
            return vec![0; n];
        };
        let partner = (0..n)
            .find(|&p| pos.cards(played(table, p))[king] > 0 || pos.cards(table.hand(p))[king] > 0);
        let team = |p: Agent| p == declarer || Some(p) == partner;
        let mut thirds = [0i64; 2];
        for (winner, cards) in &t.won {
            let side = usize::from(team(*winner));
            for &k in cards {
                thirds[side] += 3 * card_points(&table.deck.kinds[k]) - 2;
            }
        }
        let points = thirds.map(|x| (x + 1).div_euclid(3));
        (0..n).map(|p| points[usize::from(team(p))]).collect()
    }
}

/// A card's points in the count (report 004): king 5, queen 4, cavalier 3,
/// jack 2, the trumps 1 and 21 and the Sküs 5, every other card 1.
fn card_points(card: &CardKind) -> i64 {
    match (card.suit, card.rank.as_deref(), card.value) {
        (Some('T'), _, Some(1 | 21 | 22)) => 5,
        (Some('T'), _, _) => 1,
        (_, Some("K"), _) => 5,
        (_, Some("Q"), _) => 4,
        (_, Some("C"), _) => 3,
        (_, Some("J"), _) => 2,
        _ => 1,
    }
}

/// The cards that follow the rules in `p`'s hand: the led suit if `p` holds
/// one, else a trump if `p` holds one, else any card.
fn playable(pos: &Position, t: &Tricks, p: Agent) -> Vec<Kind> {
    let table = pos.table;
    let held = pos.kinds_at(table.hand(p));
    let suit = |k: Kind| strength(&table.deck.kinds[k]).0;
    let Some(led) = led_suit(table, t) else {
        return held;
    };
    for wanted in [led, 'T'] {
        let of: Vec<Kind> = held
            .iter()
            .copied()
            .filter(|&k| suit(k) == wanted)
            .collect();
        if !of.is_empty() {
            return of;
        }
    }
    held
}

/// Königrufen's knowledge views: the suits a hand lacks, and, once a king
/// is called, who is known to be (or not to be) the declarer's partner.
impl GameView for Konigrufen {
    fn hand(&self, table: &Table, who: About) -> Vec<Fact> {
        suits_lacked(table, who)
    }

    fn first_order(&self, pos: &Position, me: Agent) -> Vec<Fact> {
        let players: Vec<Agent> = (0..pos.table.players.len()).collect();
        partners(pos, me, &players, None)
    }

    fn second_order(&self, pos: &Position, me: Agent, q: Agent) -> Vec<Fact> {
        let about = format!("player {}", pos.table.players[q]);
        partners(pos, q, &[me], Some(&about))
    }
}

/// What `knower` knows of each of `players` being the partner (`K
/// partner(P)`, `K !partner(P)`), under the heading `teams`, or, with
/// `about`, as what the opponent knows of the viewer. None before a king
/// is called: `partner` means nothing yet.
fn partners(pos: &Position, knower: Agent, players: &[Agent], about: Option<&str>) -> Vec<Fact> {
    let Some(king) = tricks(pos.state).called else {
        return Vec::new();
    };
    let table = pos.table;
    let k = &table.players[knower];
    let (heading, yes, no) = match about {
        Some(about) => (
            about.to_string(),
            "knows you are the partner",
            "knows you are not the partner",
        ),
        None => ("teams".to_string(), "partner", "not partner"),
    };
    let mut facts = Vec::new();
    for &p in players {
        let name = &table.players[p];
        let is = partner(table, king, p);
        facts.push(Fact {
            about: heading.clone(),
            label: yes.into(),
            item: name.clone(),
            formula: Formula::K(knower, Box::new(is.clone())),
            text: format!("K_{k} partner({name})"),
        });
        facts.push(Fact {
            about: heading.clone(),
            label: no.into(),
            item: name.clone(),
            formula: Formula::K(knower, Box::new(is.not())),
            text: format!("K_{k} !partner({name})"),
        });
    }
    facts
}
