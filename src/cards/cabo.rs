//! The Cabo-like game (`game cabo`), after the Cabo report.
//!
//! - Every player has four face-down slots `P.1`..`P.4` (one card each,
//!   seen by no one), created by the game; the deal fills them. The closed
//!   pile is the `stock`; the game adds a public pile `open` (the open pile).
//! - `peek P P.n`: P looks at one of its own slots (private: the others see
//!   that P looked, not what P saw).
//! - On P's turn: `draw P` takes the top of the closed pile (only P sees it);
//!   `draw P from open: C` takes the top of the open pile (public). Then
//!   `place P P.n` puts the drawn card into slot P.n, and the old card goes
//!   face up to the open pile (everyone sees the old card, only P — and
//!   whoever saw the draw — knows the new one); or `discard P C` puts the
//!   drawn card face up on the open pile. The turn then passes.
//! - The special cards are the values 10 (peek), 11 (spy) and 12 (swap).
//!   One drawn from the closed pile may be played for its action instead:
//!   `look P s` (peek: P looks at its own slot s), `spy P s` (P looks at
//!   another player's slot s), `swap P s t` (P's slot s and another
//!   player's slot t change cards, unseen). The special goes face up to the
//!   open pile and the turn passes. A special on top of the open pile
//!   cannot be drawn.
//! - `psychic P...`, the game's declaration (before the deal's first
//!   move): the players the referee offers `glimpse P s`, a look at any
//!   slot that the others do not notice. The game keeps them in its part of
//!   the table ([`Psychic`]).
//! - Strategies (regular, paranoid, psychic) are not rules: what the others
//!   read into a move is made explicit by the scenario with `announce`, and
//!   a secret move nobody notices is a written event model (`apply`).

use std::rc::Rc;

use crate::engine::{Agent, Backend, Event, EventModel, Formula, Kind, Loc, Post, Relation};

use super::deal::Deal;
use super::game::{GameRules, Referee};
use super::generic::{generic, generic_event_models};
use super::referee::{best, shuffled, Position, Size};
use super::rules::{
    actual_cards, check_turn, describe_location, describe_player, hand_size, holds, Arg, ArgKind,
    DeclarationForm, GameAction, GameState, Move, MoveForm, Outcome, Refusal,
};
use super::table::{LocKind, Table};
use super::view::{knows_value, others, slots, About, Fact, GameView};

/// The slots each player has.
pub const SLOTS: u32 = 4;

/// A special card of the Cabo-like game: the cards of value 10, 11 and 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// 10: look at one of one's own cards (`look P s`).
    Peek,
    /// 11: look at another player's card (`spy P s`).
    Spy,
    /// 12: swap one of one's cards with another player's, unseen (`swap P s t`).
    Swap,
}

impl Special {
    /// The three, by value.
    pub const ALL: [Special; 3] = [Special::Peek, Special::Spy, Special::Swap];

    /// The card's value (its rank in the deck).
    pub fn value(self) -> u32 {
        match self {
            Special::Peek => 10,
            Special::Spy => 11,
            Special::Swap => 12,
        }
    }

    /// The card's name: `peek`, `spy`, `swap`.
    pub fn name(self) -> &'static str {
        match self {
            Special::Peek => "peek",
            Special::Spy => "spy",
            Special::Swap => "swap",
        }
    }

    /// The move that plays it.
    pub fn word(self) -> &'static str {
        match self {
            Special::Peek => "look",
            Special::Spy => "spy",
            Special::Swap => "swap",
        }
    }
}

/// The special card a kind is, if any.
pub fn special_of(table: &Table, kind: Kind) -> Option<Special> {
    let value = table.deck.kinds.get(kind)?.value?;
    Special::ALL.into_iter().find(|s| s.value() == value)
}

/// The deck's kind of a special card, if the deck has it.
pub fn special_kind(table: &Table, special: Special) -> Option<Kind> {
    table
        .deck
        .kinds
        .iter()
        .position(|k| k.value == Some(special.value()))
}

/// `12 (swap)`, `4`: a card as the game's messages name it.
fn card_name(table: &Table, kind: Kind) -> String {
    let name = &table.deck.kinds[kind].name;
    match special_of(table, kind) {
        Some(s) => format!("{name} ({})", s.name()),
        None => name.clone(),
    }
}

/// The moves of the Cabo-like game (besides `peek` and `draw`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaboMove {
    /// `place P s`: the drawn card into slot s, the old one face up.
    Place {
        /// Who places.
        player: Agent,
        /// The slot.
        slot: Loc,
    },
    /// `discard P C`: the drawn card face up on the open pile.
    Discard {
        /// Who discards.
        player: Agent,
        /// The card.
        kind: Kind,
    },
    /// `glimpse P s`: a psychic player secretly looks at slot s.
    Glimpse {
        /// Who looks.
        player: Agent,
        /// The slot.
        slot: Loc,
    },
    /// `look P s`: P plays the drawn peek card (10) to look at its own slot s.
    Look {
        /// Who looks.
        player: Agent,
        /// The own slot.
        slot: Loc,
    },
    /// `spy P s`: P plays the drawn spy card (11) to look at another
    /// player's slot s.
    Spy {
        /// Who looks.
        player: Agent,
        /// The other player's slot.
        slot: Loc,
    },
    /// `swap P s t`: P plays the drawn swap card (12): its slot s and
    /// another player's slot t change cards, and nobody sees them.
    Swap {
        /// Who swaps.
        player: Agent,
        /// The own slot.
        own: Loc,
        /// The other player's slot.
        other: Loc,
    },
}

/// The words of the game's moves and what they take.
const FORMS: &[MoveForm] = &[
    MoveForm::new("place", &[ArgKind::Player, ArgKind::Slot]),
    MoveForm::new("discard", &[ArgKind::Player, ArgKind::Card]),
    MoveForm::new("glimpse", &[ArgKind::Player, ArgKind::Slot]),
    MoveForm::new("look", &[ArgKind::Player, ArgKind::Slot]),
    MoveForm::new("spy", &[ArgKind::Player, ArgKind::Slot]),
    MoveForm::new("swap", &[ArgKind::Player, ArgKind::Slot, ArgKind::Slot]),
];

/// The game's declaration: `psychic P...`, the players the referee
/// offers `glimpse` (the Cabo report's psychic agent).
const DECLARATIONS: &[DeclarationForm] = &[DeclarationForm {
    word: "psychic",
    args: &[ArgKind::Player],
    repeated: true,
}];

/// The players declared `psychic`, in the order declared (the game's
/// part of the table, [`Table::game_setup`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Psychic(pub Vec<Agent>);

/// The players declared `psychic` at `table`.
pub fn psychic(table: &Table) -> &[Agent] {
    table.game_setup.get::<Psychic>().map_or(&[], |p| &p.0)
}

/// `psychic P...`: the players, each once, after those declared before.
fn declare_psychic(table: &mut Table, args: &[Arg]) {
    let declared = &mut table.game_setup.get_or_default::<Psychic>().0;
    for arg in args {
        if let Arg::Player(p) = *arg {
            if !declared.contains(&p) {
                declared.push(p);
            }
        }
    }
}

impl GameAction for CaboMove {
    fn word(&self) -> &'static str {
        match self {
            CaboMove::Place { .. } => "place",
            CaboMove::Discard { .. } => "discard",
            CaboMove::Glimpse { .. } => "glimpse",
            CaboMove::Look { .. } => "look",
            CaboMove::Spy { .. } => "spy",
            CaboMove::Swap { .. } => "swap",
        }
    }

    fn args(&self) -> Vec<Arg> {
        match *self {
            CaboMove::Place { player, slot }
            | CaboMove::Glimpse { player, slot }
            | CaboMove::Look { player, slot }
            | CaboMove::Spy { player, slot } => vec![Arg::Player(player), Arg::Slot(slot)],
            CaboMove::Discard { player, kind } => vec![Arg::Player(player), Arg::Card(kind)],
            CaboMove::Swap { player, own, other } => {
                vec![Arg::Player(player), Arg::Slot(own), Arg::Slot(other)]
            }
        }
    }
}

/// The open pile's cards, bottom first (the last one is on top), and the
/// slots each psychic player has glimpsed at since their card last changed
/// (the referee offers a glimpse at each once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenPile(pub Vec<Kind>, pub Vec<(Agent, Loc)>);

/// Adds the slots `P.1`..`P.4` of every player and the public pile `open`.
pub fn add_locations(table: &mut Table) {
    for p in 0..table.players.len() {
        for n in 1..=SLOTS {
            let name = format!("{}.{n}", table.players[p]);
            if table.find_location(&name).is_none() {
                table.add_location(name, LocKind::Slot(p, n), Vec::new());
            }
        }
    }
    if table.find_location("open").is_none() {
        let everyone = (0..table.players.len()).collect();
        table.add_location("open".into(), LocKind::Pile, everyone);
    }
}

fn open_pile(table: &Table) -> Loc {
    table
        .find_location("open")
        .expect("Cabo tables have an open pile")
}

fn slot_owner(table: &Table, loc: Loc) -> Option<Agent> {
    match table.locations[loc].kind {
        LocKind::Slot(p, _) => Some(p),
        _ => None,
    }
}

/// Checks the deal (one card in every slot, value cards) and records the open pile.
pub fn start(table: &Table, mut out: Outcome) -> Result<Outcome, Refusal> {
    if let Some(k) = table.deck.kinds.iter().find(|k| k.value.is_none()) {
        return Err(Refusal::new(
            "bad-deck",
            format!("Cabo: cards are values, and `{}` is none", k.name),
        )
        .help("declare a range of values, e.g. `deck 0..3*3`"));
    }
    for (loc, l) in table.locations.iter().enumerate() {
        let n: u32 = actual_cards(out.model.as_ref(), loc).iter().sum();
        if matches!(l.kind, LocKind::Slot(..)) && n != 1 {
            return Err(Refusal::new(
                "bad-deal",
                format!(
                    "Cabo: every player has four face-down cards, one per slot; slot {} holds {n}",
                    l.name
                ),
            )
            .help(format!("deal one card to each slot: `deal {}: C`", l.name)));
        }
    }
    let open = actual_cards(out.model.as_ref(), open_pile(table));
    let order = (0..open.len())
        .flat_map(|k| std::iter::repeat_n(k, open[k] as usize))
        .collect();
    out.state.extra.set(OpenPile(order, Vec::new()));
    Ok(out)
}

fn open_order(state: &GameState) -> Vec<Kind> {
    state
        .extra
        .get::<OpenPile>()
        .map_or_else(Vec::new, |p| p.0.clone())
}

/// Plays a move by the rules of the Cabo-like game.
pub fn play(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    mv: &Move,
    label: &str,
) -> Result<Outcome, Refusal> {
    let mut state = state.clone();
    let mut notes = Vec::new();
    let model =
        match mv {
            Move::Peek { player, slot } => {
                own_slot(table, *player, *slot, "peeks")?;
                generic(table, model, &state, mv, label)?.0
            }
            Move::Draw { player, kind, from } => {
                check_draw(table, model.as_ref(), &state, *player, *kind, *from)?;
                let (model, mut next) = generic(table, model, &state, mv, label)?;
                if *from == open_pile(table) {
                    if let Some(OpenPile(o, _)) = open_mut(&mut next) {
                        o.pop();
                    }
                }
                state = next;
                model
            }
            Move::Game(g) => match g.as_any().downcast_ref::<CaboMove>() {
            Some(CaboMove::Place { player, slot }) => {
                check_holding(table, model.as_ref(), &state, *player)?;
                own_slot(table, *player, *slot, "places a card")?;
                let old = first_kind(&actual_cards(model.as_ref(), *slot));
                let model = model.apply(&place_events(table, *player, *slot, label), None)?;
                push_open(&mut state, old);
                forget_glimpses(&mut state, *slot);
                pass(table, &mut state, &mut notes);
                model
            }
            Some(CaboMove::Discard { player, kind }) => {
                check_holding(table, model.as_ref(), &state, *player)?;
                holds(table, model.as_ref(), table.hand(*player), *kind)?;
                let em = discard_events(table, *player, *kind, label);
                let model = model.apply(&em, None)?;
                push_open(&mut state, *kind);
                pass(table, &mut state, &mut notes);
                model
            }
            Some(CaboMove::Glimpse { player, slot }) => {
                check_glimpse(table, model.as_ref(), &state, *player, *slot)?;
                let seen = first_kind(&actual_cards(model.as_ref(), *slot));
                let em = super::events::glimpse(table, *player, *slot, label);
                let model = model.apply(&em, Some(seen))?;
                if let Some(OpenPile(_, g)) = open_mut(&mut state) {
                    g.push((*player, *slot));
                }
                model
            }
            Some(action @ (CaboMove::Look { .. } | CaboMove::Spy { .. } | CaboMove::Swap { .. })) => {
                let (special, models) = check_special(table, model.as_ref(), &state, action, label)?;
                let mut model = model.clone();
                for em in &models {
                    model = model.apply(em, None)?;
                }
                push_open(&mut state, special);
                if let CaboMove::Swap { own, other, .. } = action {
                    forget_glimpses(&mut state, *own);
                    forget_glimpses(&mut state, *other);
                }
                pass(table, &mut state, &mut notes);
                model
            }
            None => return Err(super::rules::foreign(g.as_ref())),
            },
            Move::Announce(_) | Move::Apply(..) => generic(table, model, &state, mv, label)?.0,
            _ => return Err(Refusal::new(
                "not-a-move-of-the-game",
                "Cabo: the moves are `peek`, `draw`, `place`, `discard`, `look`, `spy`, `swap` (the special cards), `glimpse` (psychic players), announcements and `apply`",
            )),
        };
    Ok(Outcome {
        model,
        state,
        notes,
    })
}

fn first_kind(cards: &[u32]) -> Kind {
    cards.iter().position(|&n| n > 0).unwrap_or(0)
}

/// The game's own state, when the deal has set it.
fn open_mut(state: &mut GameState) -> Option<&mut OpenPile> {
    state.extra.get_mut()
}

fn push_open(state: &mut GameState, kind: Kind) {
    if let Some(OpenPile(o, _)) = open_mut(state) {
        o.push(kind);
    }
}

fn glimpsed(state: &GameState) -> &[(Agent, Loc)] {
    state.extra.get::<OpenPile>().map_or(&[], |p| &p.1)
}

/// A slot's card changed: glimpses at it are old news.
fn forget_glimpses(state: &mut GameState, slot: Loc) {
    if let Some(OpenPile(_, g)) = open_mut(state) {
        g.retain(|&(_, s)| s != slot);
    }
}

fn pass(table: &Table, state: &mut GameState, notes: &mut Vec<String>) {
    state.turn = table.next_player(state.turn);
    notes.push(format!("{}'s turn", describe_player(table, state.turn)));
}

fn own_slot(table: &Table, player: Agent, slot: Loc, verb: &str) -> Result<(), Refusal> {
    if slot_owner(table, slot) == Some(player) {
        return Ok(());
    }
    let owner = slot_owner(table, slot).map_or_else(
        || describe_location(table, slot),
        |o| describe_player(table, o),
    );
    Err(Refusal::new(
        "not-own-slot",
        format!(
            "Cabo: a player {verb} only at their own face-down cards, and {} is {owner}'s",
            table.locations[slot].name
        ),
    ))
}

fn check_draw(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    player: Agent,
    kind: Option<Kind>,
    from: Loc,
) -> Result<(), Refusal> {
    check_turn("Cabo", table, state, player)?;
    if hand_size(table, model, player) > 0 {
        return Err(Refusal::new(
            "already-drawn",
            format!(
                "Cabo: a turn draws one card, and {} holds one: place or discard it",
                describe_player(table, player)
            ),
        ));
    }
    let open = open_pile(table);
    if from != table.stock() && from != open {
        return Err(Refusal::new(
            "bad-pile",
            "Cabo: a player draws from the closed pile (`draw P`) or the open pile (`draw P from open: C`)",
        ));
    }
    if from == open {
        let top = open_order(state).last().copied();
        if top != kind {
            let shown = top.map_or("nothing".to_string(), |t| card_name(table, t));
            return Err(Refusal::new(
                "not-the-top-card",
                format!("Cabo: only the top of the open pile can be drawn, and it is {shown}"),
            ));
        }
        if let Some(t) = top.filter(|&t| special_of(table, t).is_some()) {
            return Err(Refusal::new(
                "special-on-open-pile",
                format!(
                    "Cabo: a special card on the open pile cannot be drawn, and its top is {}",
                    card_name(table, t)
                ),
            )
            .help("draw from the closed pile: `draw P`"));
        }
    }
    Ok(())
}

/// Checks a special card's move (`look`, `spy`, `swap`): on the player's
/// turn, holding the drawn special that the move plays, at slots of the
/// right owners. Gives the special's kind and the move's event models.
fn check_special(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    action: &CaboMove,
    label: &str,
) -> Result<(Kind, Vec<EventModel>), Refusal> {
    let player = match *action {
        CaboMove::Look { player, .. }
        | CaboMove::Spy { player, .. }
        | CaboMove::Swap { player, .. } => player,
        _ => unreachable!("only the special cards' moves are checked here"),
    };
    check_holding(table, model, state, player)?;
    let special = match action {
        CaboMove::Look { .. } => Special::Peek,
        CaboMove::Spy { .. } => Special::Spy,
        _ => Special::Swap,
    };
    let held = first_kind(&actual_cards(model, table.hand(player)));
    let kind = special_kind(table, special).filter(|&k| k == held);
    let Some(kind) = kind else {
        return Err(Refusal::new(
            "not-the-special",
            format!(
                "Cabo: `{}` plays the {} card ({}), and {} holds {}",
                special.word(),
                special.name(),
                special.value(),
                describe_player(table, player),
                card_name(table, held)
            ),
        )
        .help("place the card (`place P s`) or discard it (`discard P C`)"));
    };
    match *action {
        CaboMove::Look { slot, .. } => own_slot(table, player, slot, "looks with the peek card")?,
        CaboMove::Spy { slot, .. } => other_slot(table, player, slot, "spies")?,
        CaboMove::Swap { own, other, .. } => {
            own_slot(table, player, own, "swaps")?;
            other_slot(table, player, other, "swaps")?;
        }
        _ => {}
    }
    Ok((kind, special_events(table, action, kind, label)))
}

/// The event models of a special card's move, in order: the special goes
/// face up to the open pile (public), then its action.
fn special_events(table: &Table, action: &CaboMove, kind: Kind, label: &str) -> Vec<EventModel> {
    let (player, action_model) = match *action {
        CaboMove::Look { player, slot } | CaboMove::Spy { player, slot } => {
            (player, super::events::peek(table, player, slot, label))
        }
        CaboMove::Swap { player, own, other } => (player, swap_events(table, own, other, label)),
        _ => unreachable!("only the special cards' moves have special events"),
    };
    vec![discard_events(table, player, kind, label), action_model]
}

/// `s` must be a slot of a player other than `player`.
fn other_slot(table: &Table, player: Agent, slot: Loc, verb: &str) -> Result<(), Refusal> {
    match slot_owner(table, slot) {
        Some(o) if o != player => Ok(()),
        owner => Err(Refusal::new(
            "not-other-slot",
            format!(
                "Cabo: a player {verb} only at another player's face-down cards, and {} is {}",
                table.locations[slot].name,
                owner.map_or_else(
                    || describe_location(table, slot),
                    |_| format!("{}'s own", describe_player(table, player))
                )
            ),
        )),
    }
}

/// A glimpse: by a psychic player, on its turn before it draws, at a slot.
fn check_glimpse(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    player: Agent,
    slot: Loc,
) -> Result<(), Refusal> {
    if !psychic(table).contains(&player) {
        return Err(Refusal::new(
            "not-psychic",
            format!(
                "Cabo: only a psychic player glimpses, and {} is not one",
                describe_player(table, player)
            ),
        )
        .help(format!(
            "declare it before the deal: `psychic {}`",
            table.players[player]
        )));
    }
    check_turn("Cabo", table, state, player)?;
    if hand_size(table, model, player) > 0 {
        return Err(Refusal::new(
            "already-drawn",
            "Cabo: a psychic player glimpses before it draws",
        ));
    }
    if slot_owner(table, slot).is_none() {
        return Err(Refusal::new(
            "not-a-slot",
            format!(
                "Cabo: a glimpse looks at a face-down card, and {} is none",
                table.locations[slot].name
            ),
        ));
    }
    Ok(())
}

fn check_holding(
    table: &Table,
    model: &dyn Backend,
    state: &GameState,
    player: Agent,
) -> Result<(), Refusal> {
    check_turn("Cabo", table, state, player)?;
    if hand_size(table, model, player) == 0 {
        return Err(Refusal::new(
            "nothing-drawn",
            format!(
                "Cabo: {} has drawn no card to place or discard",
                describe_player(table, player)
            ),
        )
        .help("draw first: `draw P` or `draw P from open: C`"));
    }
    Ok(())
}

/// `place P s`: one event per (drawn card h, old card k): pre P holds h and
/// s holds k; post k goes face up to the open pile, h into s. P tells every
/// event apart; the others see k (it is face up) but not h.
pub fn place_events(table: &Table, player: Agent, slot: Loc, label: &str) -> EventModel {
    let kinds = table.deck.kinds.len();
    let (hand, open) = (table.hand(player), open_pile(table));
    let mut events = Vec::new();
    let mut seen = Vec::new();
    for h in 0..kinds {
        for k in 0..kinds {
            events.push(Event {
                name: format!(
                    "{} for {}",
                    table.deck.kinds[h].name, table.deck.kinds[k].name
                ),
                pre: Formula::And(vec![Formula::holds(hand, h), Formula::holds(slot, k)]),
                post: vec![
                    Post::Move {
                        kind: k,
                        from: slot,
                        to: open,
                        n: 1,
                    },
                    Post::Move {
                        kind: h,
                        from: hand,
                        to: slot,
                        n: 1,
                    },
                ],
            });
            seen.push(k);
        }
    }
    let all: Vec<usize> = (0..events.len()).collect();
    let relations = (0..table.players.len())
        .map(|a| {
            Relation::Partition(if a == player {
                all.clone()
            } else {
                seen.clone()
            })
        })
        .collect();
    EventModel {
        name: label.into(),
        events,
        relations,
        designated: Vec::new(),
    }
}

/// `swap P s t` (after the swap card went face up): one event per (card a
/// in s, card b in t), post a moves to t and b to s. No one tells the
/// events apart: everyone sees which two slots change cards, nobody sees
/// the cards (what one knew of a card, one knows of its new slot).
pub fn swap_events(table: &Table, own: Loc, other: Loc, label: &str) -> EventModel {
    let kinds = table.deck.kinds.len();
    let mut events = Vec::new();
    for a in 0..kinds {
        for b in 0..kinds {
            events.push(Event {
                name: format!(
                    "{} for {}",
                    table.deck.kinds[a].name, table.deck.kinds[b].name
                ),
                pre: Formula::And(vec![Formula::holds(own, a), Formula::holds(other, b)]),
                post: vec![
                    Post::Move {
                        kind: a,
                        from: own,
                        to: other,
                        n: 1,
                    },
                    Post::Move {
                        kind: b,
                        from: other,
                        to: own,
                        n: 1,
                    },
                ],
            });
        }
    }
    EventModel::semi_private(label, table.players.len(), &[], events)
}

/// `discard P C`: P puts the drawn card C face up on the open pile (public).
pub fn discard_events(table: &Table, player: Agent, kind: Kind, label: &str) -> EventModel {
    super::events::transfer(table, kind, table.hand(player), open_pile(table), label)
}

/// The event models of a move in `[move]φ`.
pub fn event_models(table: &Table, mv: &Move, label: &str) -> Result<Vec<EventModel>, Refusal> {
    Ok(vec![match mv.game::<CaboMove>() {
        Some(CaboMove::Place { player, slot }) => place_events(table, *player, *slot, label),
        Some(CaboMove::Discard { player, kind }) => discard_events(table, *player, *kind, label),
        Some(action @ (CaboMove::Look { .. } | CaboMove::Spy { .. } | CaboMove::Swap { .. })) => {
            let special = match action {
                CaboMove::Look { .. } => Special::Peek,
                CaboMove::Spy { .. } => Special::Spy,
                _ => Special::Swap,
            };
            let kind = special_kind(table, special).ok_or_else(|| {
                Refusal::new(
                    "no-special-card",
                    format!(
                        "Cabo: `{}` plays the {} card ({}), and this deck has none",
                        special.word(),
                        special.name(),
                        special.value()
                    ),
                )
            })?;
            return Ok(special_events(table, action, kind, label));
        }
        _ => generic_event_models(table, mv, label)?,
    }])
}

/// The Cabo-like game (`game cabo`).
///
/// The referee of the Cabo-like game (report 001): four players with four
/// face-down slots each, values 0 to 12 four times (52 cards), one card face
/// up on the open pile and the rest in the closed pile; for teaching, two
/// players and the values 0 to 3 three times. After the deal every player
/// peeks at its first two slots (the report's look at two own cards). On a
/// turn the player draws from the closed or the open pile (not a special
/// card on it), then places the card into one of its slots or discards it,
/// or plays a special card (10 peek, 11 spy, 12 swap) drawn from the closed
/// pile for its action. dealer has no "Cabo" call: the
/// game ends when the closed pile is empty at the start of a turn. A
/// player's score is the sum of its slots' values; the lowest sum wins.
#[derive(Debug)]
pub struct Cabo;

impl GameRules for Cabo {
    fn referee(&self) -> Option<&dyn Referee> {
        Some(self)
    }

    fn name(&self) -> &'static str {
        "cabo"
    }

    fn title(&self) -> &'static str {
        "the Cabo-like game"
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

    fn declaration_forms(&self) -> &'static [DeclarationForm] {
        DECLARATIONS
    }

    fn declare(&self, table: &mut Table, word: &str, args: &[Arg]) -> Result<(), Refusal> {
        match word {
            "psychic" => {
                declare_psychic(table, args);
                Ok(())
            }
            _ => Err(Refusal::new(
                "unknown-declaration",
                format!("{} has no declaration `{word}`", self.title()),
            )),
        }
    }

    fn reader_declaration(&self) -> Option<&'static str> {
        Some(DECLARATIONS[0].word)
    }

    /// A psychic player's strategy may read any card: it glimpses.
    fn reads_beyond_knowledge(&self, table: &Table, player: Agent) -> bool {
        psychic(table).contains(&player)
    }

    fn make_move(&self, word: &str, args: &[Arg]) -> Option<Box<dyn GameAction>> {
        let m = match (word, args) {
            ("place", &[Arg::Player(player), Arg::Slot(slot)]) => CaboMove::Place { player, slot },
            ("discard", &[Arg::Player(player), Arg::Card(kind)]) => {
                CaboMove::Discard { player, kind }
            }
            ("glimpse", &[Arg::Player(player), Arg::Slot(slot)]) => {
                CaboMove::Glimpse { player, slot }
            }
            ("look", &[Arg::Player(player), Arg::Slot(slot)]) => CaboMove::Look { player, slot },
            ("spy", &[Arg::Player(player), Arg::Slot(slot)]) => CaboMove::Spy { player, slot },
            ("swap", &[Arg::Player(player), Arg::Slot(own), Arg::Slot(other)]) => {
                CaboMove::Swap { player, own, other }
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
        _state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Vec<EventModel>, Refusal> {
        event_models(table, mv, label)
    }

    // The referee.
    fn view(&self) -> Option<&dyn GameView> {
        Some(self)
    }
}

impl Referee for Cabo {
    fn deal(&self, seed: u64, size: Size) -> Deal {
        // At the report's size the players do not count cards, as in the
        // report ("none of the agents count cards"): 13^16 worlds at the
        // deal. The teaching deck keeps exact counting.
        use super::deal::Opening;
        use super::deck::Deck;
        let (players, deck, uncounted): (&[&str], Deck, bool) = match size {
            Size::Full => (&["1", "2", "3", "4"], Deck::values(0..=12, 4), true),
            Size::Teaching => (&["1", "2"], Deck::values(0..=3, 3), false),
        };
        let mut cards = shuffled(&deck, seed).into_iter();
        let mut parts = Vec::new();
        for p in players {
            for n in 1..=SLOTS {
                let card = cards.next().expect("enough cards");
                parts.push((format!("{p}.{n}"), vec![card]));
            }
        }
        parts.push(("open".into(), vec![cards.next().expect("enough cards")]));
        let opening = players
            .iter()
            .enumerate()
            .flat_map(|(seat, p)| {
                [1, 2].map(|n| Opening::Peek {
                    player: seat,
                    place: format!("{p}.{n}"),
                })
            })
            .collect();
        Deal {
            game: "cabo".into(),
            seed,
            players: players.iter().map(|p| p.to_string()).collect(),
            deck,
            uncounted,
            parts,
            stock: cards.collect(),
            opening,
            declarations: Vec::new(),
        }
    }

    fn is_terminal(&self, pos: &Position) -> bool {
        let table = pos.table;
        pos.count(table.stock()) == 0
            && (0..table.players.len()).all(|p| pos.count(table.hand(p)) == 0)
    }

    /// With empty hands: draw from the closed pile or take the open pile's
    /// top; holding the drawn card: place it into an own slot or discard it.
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if self.is_terminal(pos) {
            return Vec::new();
        }
        let table = pos.table;
        let player = pos.state.turn;
        if let Some(&kind) = pos.kinds_at(table.hand(player)).first() {
            let own: Vec<Loc> = (0..table.locations.len())
                .filter(|&l| slot_owner(table, l) == Some(player))
                .collect();
            let theirs: Vec<Loc> = (0..table.locations.len())
                .filter(|&l| slot_owner(table, l).is_some_and(|o| o != player))
                .collect();
            let mut moves: Vec<Move> = own
                .iter()
                .map(|&slot| Move::Game(Box::new(CaboMove::Place { player, slot })))
                .collect();
            moves.push(Move::Game(Box::new(CaboMove::Discard { player, kind })));
            let special: Vec<CaboMove> = match special_of(table, kind) {
                None => Vec::new(),
                Some(Special::Peek) => own
                    .iter()
                    .map(|&slot| CaboMove::Look { player, slot })
                    .collect(),
                Some(Special::Spy) => theirs
                    .iter()
                    .map(|&slot| CaboMove::Spy { player, slot })
                    .collect(),
                Some(Special::Swap) => own
                    .iter()
                    .flat_map(|&own| {
                        theirs
                            .iter()
                            .map(move |&other| CaboMove::Swap { player, own, other })
                    })
                    .collect(),
            };
            moves.extend(special.into_iter().map(|m| Move::Game(Box::new(m)) as Move));
            return moves;
        }
        let mut moves = Vec::new();
        if psychic(table).contains(&player) {
            let done = glimpsed(pos.state);
            moves.extend(
                (0..table.locations.len())
                    .filter(|&l| slot_owner(table, l).is_some() && !done.contains(&(player, l)))
                    .map(|slot| Move::Game(Box::new(CaboMove::Glimpse { player, slot }))),
            );
        }
        if pos.count(table.stock()) > 0 {
            moves.push(Move::Draw {
                player,
                kind: None,
                from: table.stock(),
            });
        }
        let open_top = open_order(pos.state).last().copied();
        if let Some(top) = open_top.filter(|&t| special_of(table, t).is_none()) {
            moves.push(Move::Draw {
                player,
                kind: Some(top),
                from: open_pile(table),
            });
        }
        moves
    }

    fn scores(&self, pos: &Position) -> Vec<i64> {
        let table = pos.table;
        let mut sums = vec![0i64; table.players.len()];
        for l in 0..table.locations.len() {
            if let Some(p) = slot_owner(table, l) {
                for k in pos.kinds_at(l) {
                    let value = table.deck.kinds[k].value.unwrap_or(0);
                    sums[p] += i64::from(value) * i64::from(pos.cards(l)[k]);
                }
            }
        }
        sums
    }

    /// The lowest sum wins.
    fn winners(&self, pos: &Position) -> Vec<Agent> {
        best(&self.scores(pos), false)
    }
}

/// The Cabo-like game's knowledge views: nothing about a hand as a whole,
/// and what is known of each slot's card, to depth 3.
impl GameView for Cabo {
    fn hand(&self, _table: &Table, _who: About) -> Vec<Fact> {
        Vec::new()
    }

    /// Depth 1 and 2: the slots whose card `me` knows, and the slots `me`
    /// knows an opponent knows.
    fn first_order(&self, pos: &Position, me: Agent) -> Vec<Fact> {
        let table = pos.table;
        let m = &table.players[me];
        let mut facts = Vec::new();
        for (_, loc, slot) in slots(table) {
            facts.push(Fact {
                about: "depth 1".into(),
                label: "you know the card in".into(),
                item: slot.clone(),
                formula: knows_value(table, me, loc),
                text: format!("Kv_{m} {slot}"),
            });
            for q in others(table, me) {
                let n = &table.players[q];
                facts.push(Fact {
                    about: "depth 2".into(),
                    label: format!("you know player {n} knows the card in"),
                    item: slot.clone(),
                    formula: Formula::K(me, Box::new(knows_value(table, q, loc))),
                    text: format!("K_{m} Kv_{n} {slot}"),
                });
            }
        }
        facts
    }

    /// Depths 1-3 about `me`'s slots from opponent `q`'s side.
    fn second_order(&self, pos: &Position, me: Agent, q: Agent) -> Vec<Fact> {
        let table = pos.table;
        let (m, n) = (&table.players[me], &table.players[q]);
        let about = format!("player {n}");
        let k = |p: Agent, phi: Formula| Formula::K(p, Box::new(phi));
        let mut facts = Vec::new();
        for (owner, loc, slot) in slots(table) {
            if owner != me {
                continue;
            }
            let kv = |p: Agent| knows_value(table, p, loc);
            for (label, formula, text) in [
                ("knows the card in your", kv(q), format!("Kv_{n} {slot}")),
                (
                    "knows you know the card in your",
                    k(q, kv(me)),
                    format!("K_{n} Kv_{m} {slot}"),
                ),
                (
                    "you know it knows the card in your",
                    k(me, kv(q)),
                    format!("K_{m} Kv_{n} {slot}"),
                ),
                (
                    "knows you know it knows your",
                    k(q, k(me, kv(q))),
                    format!("K_{n} K_{m} Kv_{n} {slot}"),
                ),
            ] {
                facts.push(Fact {
                    about: about.clone(),
                    label: label.into(),
                    item: slot.clone(),
                    formula,
                    text,
                });
            }
        }
        facts
    }
}
