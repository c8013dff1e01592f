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
}

/// The words of the game's moves and what they take.
const FORMS: &[MoveForm] = &[
    MoveForm {
        word: "place",
        args: &[ArgKind::Player, ArgKind::Slot],
    },
    MoveForm {
        word: "discard",
        args: &[ArgKind::Player, ArgKind::Card],
    },
    MoveForm {
        word: "glimpse",
        args: &[ArgKind::Player, ArgKind::Slot],
    },
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
        }
    }

    fn args(&self) -> Vec<Arg> {
        match *self {
            CaboMove::Place { player, slot } | CaboMove::Glimpse { player, slot } => {
                vec![Arg::Player(player), Arg::Slot(slot)]
            }
            CaboMove::Discard { player, kind } => vec![Arg::Player(player), Arg::Card(kind)],
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
            None => return Err(super::rules::foreign(g.as_ref())),
            },
            Move::Announce(_) | Move::Apply(..) => generic(table, model, &state, mv, label)?.0,
            _ => return Err(Refusal::new(
                "not-a-move-of-the-game",
                "Cabo: the moves are `peek`, `draw`, `place`, `discard`, `glimpse` (psychic players), announcements and `apply`",
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
            let shown = top.map_or("nothing".to_string(), |t| table.deck.kinds[t].name.clone());
            return Err(Refusal::new(
                "not-the-top-card",
                format!("Cabo: only the top of the open pile can be drawn, and it is {shown}"),
            ));
        }
    }
    Ok(())
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

/// `discard P C`: P puts the drawn card C face up on the open pile (public).
pub fn discard_events(table: &Table, player: Agent, kind: Kind, label: &str) -> EventModel {
    super::events::transfer(table, kind, table.hand(player), open_pile(table), label)
}

/// The event models of a move in `[move]φ`.
pub fn event_models(table: &Table, mv: &Move, label: &str) -> Result<Vec<EventModel>, Refusal> {
    Ok(vec![match mv.game::<CaboMove>() {
        Some(CaboMove::Place { player, slot }) => place_events(table, *player, *slot, label),
        Some(CaboMove::Discard { player, kind }) => discard_events(table, *player, *kind, label),
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
/// turn the player draws from the closed or the open pile, then places the
/// card into one of its slots or discards it. dealer has no "Cabo" call: the
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
            let mut moves: Vec<Move> = (0..table.locations.len())
                .filter(|&l| slot_owner(table, l) == Some(player))
                .map(|slot| Move::Game(Box::new(CaboMove::Place { player, slot })))
                .collect();
            moves.push(Move::Game(Box::new(CaboMove::Discard { player, kind })));
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
        if let Some(&top) = open_order(pos.state).last() {
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
