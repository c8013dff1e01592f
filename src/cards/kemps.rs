//! Kemps (`game kemps`), after the Kemps report (§1, §3.2, §4.3).
//!
//! - Three players hold four cards each; six cards lie face up on the
//!   `table`; the `discard` pile is face up too (both piles are created for
//!   the game unless the scenario declares them public).
//! - Players take turns clockwise. In a turn the turn player exchanges cards
//!   one at a time: `pick p C` takes C from the table, `discard p C` puts C
//!   from the hand on the table. Both are public transfers (the report's
//!   PICKED and DISCARDED announcements). During a turn the hand holds three
//!   to five cards; when the turn ends it must hold four.
//! - A turn ends with `pass p`, with `newtable`, or when the next player
//!   moves. After three consecutive turns without a pick a new table is
//!   dealt on its own (the report's variant); `newtable` deals one at once.
//! - A new table: the table goes to the discard pile (public), then six
//!   cards come face up from the stock, one public event per card; when the
//!   stock runs out, the discard pile is shuffled into it (public).
//! - `kemps p`: a public claim of four of a kind; its event model has one
//!   event per value ("p holds all four of value v"), and the four go down
//!   to p's books pile. A false claim is an error. The player then draws a
//!   new hand of four (private draws); when the stock and discard pile
//!   cannot give four cards, the game is over.

use std::rc::Rc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::diag::Diagnostic;
use crate::engine::{Agent, Backend, Event, EventModel, Formula, Kind, Loc, Post};

use super::deal::Deal;
use super::deck::Deck;
use super::events;
use super::game::{GameRules, Referee};
use super::generic::{generic, generic_event_models};
use super::referee::{books_laid, shuffled, Position, Size};
use super::rules::{
    actual_cards, describe_player, foreign, holds, not_in_game, Arg, ArgKind, GameAction,
    GameState, Move, MoveForm, Outcome, Refusal,
};
use super::table::{LocKind, Table};
use super::view::{ranks_held, About, Fact, GameView};

/// The moves of Kemps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KempsMove {
    /// `pick p C`: take C from the table.
    Pick {
        /// Who picks.
        player: Agent,
        /// The card.
        kind: Kind,
    },
    /// `discard p C`: put C from the hand on the table.
    Discard {
        /// Who discards.
        player: Agent,
        /// The card.
        kind: Kind,
    },
    /// `newtable`: the table to the discard pile, six fresh cards.
    NewTable,
    /// `kemps p`: a claim of four of a kind.
    Kemps(Agent),
    /// `pass p`: the turn player ends the turn.
    Pass(Agent),
}

use ArgKind::{Card as C, Player as P};

/// The words of Kemps' moves and what they take.
const FORMS: &[MoveForm] = &[
    MoveForm::new("pick", &[P, C]),
    MoveForm::new("discard", &[P, C]),
    MoveForm::new("newtable", &[]),
    MoveForm::new("kemps", &[P]),
    MoveForm::new("pass", &[P]),
];

impl GameAction for KempsMove {
    fn word(&self) -> &'static str {
        match self {
            KempsMove::Pick { .. } => "pick",
            KempsMove::Discard { .. } => "discard",
            KempsMove::NewTable => "newtable",
            KempsMove::Kemps(_) => "kemps",
            KempsMove::Pass(_) => "pass",
        }
    }

    fn args(&self) -> Vec<Arg> {
        match *self {
            KempsMove::Pick { player, kind } | KempsMove::Discard { player, kind } => {
                vec![Arg::Player(player), Arg::Card(kind)]
            }
            KempsMove::NewTable => Vec::new(),
            KempsMove::Kemps(p) | KempsMove::Pass(p) => vec![Arg::Player(p)],
        }
    }
}

fn make_move(word: &str, args: &[Arg]) -> Option<KempsMove> {
    Some(match (word, args) {
        ("pick", &[Arg::Player(player), Arg::Card(kind)]) => KempsMove::Pick { player, kind },
        ("discard", &[Arg::Player(player), Arg::Card(kind)]) => KempsMove::Discard { player, kind },
        ("newtable", []) => KempsMove::NewTable,
        ("kemps", &[Arg::Player(p)]) => KempsMove::Kemps(p),
        ("pass", &[Arg::Player(p)]) => KempsMove::Pass(p),
        _ => return None,
    })
}

/// The Kemps bookkeeping of the current turn (the game's own part of [`GameState`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KempsTurn {
    /// Whether the turn player has picked a card in this turn.
    pub picked: bool,
    /// How many turns in a row ended without a pick.
    pub idle: u32,
    /// How many times the discard pile was shuffled into the stock.
    pub reshuffles: u32,
    /// Whether the game is over (no new hand could be dealt after a Kemps).
    pub over: bool,
    /// How many turns have ended.
    pub turns: u32,
}

/// The Kemps part of a game state (a default one before the first move).
pub fn turn_state(state: &mut GameState) -> &mut KempsTurn {
    state.extra.get_or_default()
}

/// Whether the game is over.
pub fn is_over(state: &GameState) -> bool {
    state.extra.get::<KempsTurn>().is_some_and(|k| k.over)
}

const HAND: u32 = 4;
const TABLE: u32 = 6;
const IDLE_TURNS: u32 = 3;
/// The turns after which a game ends as it stands (report 000: "end the
/// game after 10000 turns").
pub const TURN_LIMIT: u32 = 10_000;
/// The moves a turn may take on average before a game ends as it stands
/// (a turn with one swap is `pick`, `discard`, `pass`).
const MOVES_A_TURN: usize = 4;

/// The table and the discard pile.
fn piles(table: &Table) -> Result<(Loc, Loc), Refusal> {
    let find = |name: &str| {
        table
            .find_location(name)
            .filter(|&l| table.locations[l].kind == LocKind::Pile)
            .ok_or_else(|| Refusal::new("kemps-piles", format!("Kemps needs a `{name}` pile")))
    };
    Ok((find("table")?, find("discard")?))
}

fn size(model: &dyn Backend, loc: Loc) -> u32 {
    actual_cards(model, loc).iter().sum()
}

fn cards(n: u32) -> String {
    let words = ["no card", "one", "two", "three", "four", "five", "six"];
    words
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// The rules' first step: three players, four cards each, six on the table.
pub fn start(table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
    let n = table.players.len();
    if n != 3 {
        return Err(Refusal::new(
            "kemps-players",
            format!("Kemps (as the report plays it) has exactly three players, not {n}"),
        ));
    }
    let (on_table, discard) = piles(table)?;
    for pile in [on_table, discard] {
        if table.locations[pile].seen_by.len() != n {
            return Err(Refusal::new(
                "kemps-piles",
                format!("Kemps: the {} is face up", table.locations[pile].name),
            )
            .help(format!(
                "declare it `pile {} public`",
                table.locations[pile].name
            )));
        }
    }
    for p in 0..n {
        let held = size(out.model.as_ref(), table.hand(p));
        if held != HAND {
            return Err(Refusal::new(
                "kemps-hand-size",
                format!(
                    "Kemps: a hand holds four cards; {} is dealt {}",
                    describe_player(table, p),
                    cards(held)
                ),
            ));
        }
    }
    let shown = size(out.model.as_ref(), on_table);
    if shown != TABLE {
        return Err(Refusal::new(
            "kemps-table-size",
            format!("Kemps: six cards are dealt face up to the table, not {shown}"),
        ));
    }
    Ok(out)
}

/// Plays a move by the rules of Kemps.
pub fn play(
    table: &Table,
    model: &Rc<dyn Backend>,
    state: &GameState,
    mv: &Move,
    label: &str,
    face_up: FaceUp,
) -> Result<Outcome, Refusal> {
    let mut out = Outcome {
        model: model.clone(),
        state: state.clone(),
        notes: Vec::new(),
    };
    let game = match mv {
        Move::Game(g) => match g.as_any().downcast_ref::<KempsMove>() {
            Some(k) => k,
            None => return Err(foreign(g.as_ref())),
        },
        Move::Announce(_) | Move::Show { .. } | Move::Reveal { .. } | Move::Apply(..) => {
            let (model, state) = generic(table, model, state, mv, label)?;
            return Ok(Outcome {
                model,
                state,
                notes: Vec::new(),
            });
        }
        Move::Ask { .. } => return Err(not_in_game("ask", "Go Fish and Kwartet")),
        _ => {
            return Err(Refusal::new(
                "kemps-move",
                "Kemps: cards move only by pick, discard, newtable and kemps",
            ))
        }
    };
    if is_over(state) {
        return Err(Refusal::new(
            "game-over",
            "Kemps: the game is over, no new hand could be dealt",
        ));
    }
    let turn = Turn {
        table,
        label,
        face_up,
    };
    match game {
        KempsMove::Pick { player, kind } => turn.pick(&mut out, *player, *kind)?,
        KempsMove::Discard { player, kind } => turn.discard(&mut out, *player, *kind)?,
        KempsMove::Pass(player) => turn.pass(&mut out, *player)?,
        KempsMove::NewTable => {
            turn.end(&mut out, false)?;
            turn.new_table(&mut out)?;
        }
        KempsMove::Kemps(player) => turn.claim(&mut out, *player)?,
    }
    Ok(out)
}

/// The event models of a move in `[move]φ`: picks, discards and claims.
pub fn event_models(table: &Table, mv: &Move, label: &str) -> Result<Vec<EventModel>, Refusal> {
    let (on_table, _) = piles(table)?;
    let game = match mv {
        Move::Game(g) => match g.as_any().downcast_ref::<KempsMove>() {
            Some(k) => k,
            None => return Err(foreign(g.as_ref())),
        },
        _ => return Ok(vec![generic_event_models(table, mv, label)?]),
    };
    match game {
        KempsMove::Pick { player, kind } => Ok(vec![events::transfer(
            table,
            *kind,
            on_table,
            table.hand(*player),
            label,
        )]),
        KempsMove::Discard { player, kind } => Ok(vec![events::transfer(
            table,
            *kind,
            table.hand(*player),
            on_table,
            label,
        )]),
        KempsMove::Kemps(player) => Ok(vec![claim_events(table, *player, label)?]),
        KempsMove::NewTable | KempsMove::Pass(_) => Err(Refusal::new(
            "kemps-not-in-formula",
            "Kemps: what a new table brings depends on the stock's order and reshuffles",
        )
        .help("play the move, then ask the question")),
    }
}

/// `kemps p`: one public event per value, "p holds all four of that
/// value", which lays them down to p's books pile.
pub fn claim_events(table: &Table, player: Agent, label: &str) -> Result<EventModel, Refusal> {
    let hand = table.hand(player);
    let books = table
        .books(player)
        .ok_or_else(|| Refusal::new("kemps-piles", "Kemps needs a books pile per player"))?;
    let events = table
        .deck
        .ranks()
        .into_iter()
        .map(|(rank, kinds)| Event {
            name: format!("four {rank}"),
            pre: events::holds_all(table, hand, &kinds),
            post: events::move_every_copy(table, &kinds, hand, books),
        })
        .collect();
    Ok(EventModel::public(label, table.players.len(), events))
}

/// The turn logic, with the table and the move's label.
struct Turn<'a> {
    table: &'a Table,
    label: &'a str,
    face_up: FaceUp,
}

impl Turn<'_> {
    fn who(&self, p: Agent) -> String {
        describe_player(self.table, p)
    }

    fn hand_size(&self, out: &Outcome, p: Agent) -> u32 {
        size(out.model.as_ref(), self.table.hand(p))
    }

    /// `p` moves: the turn player goes on, or the next player's turn begins.
    fn enter(&self, out: &mut Outcome, p: Agent) -> Result<(), Refusal> {
        let turn = out.state.turn;
        if p == turn {
            return Ok(());
        }
        let next = self.table.next_player(turn);
        if p != next {
            return Err(Refusal::new(
                "out-of-turn",
                format!(
                    "Kemps: it is {}'s turn and {} plays next, not {}",
                    self.who(turn),
                    self.who(next),
                    self.who(p)
                ),
            )
            .help(format!(
                "a turn without a move is `pass {}`",
                self.table.players[turn]
            )));
        }
        self.end(out, true)
    }

    /// Ends the turn: the hand must hold four cards; counts turns without a
    /// pick and deals a new table after three (when `auto`).
    fn end(&self, out: &mut Outcome, auto: bool) -> Result<(), Refusal> {
        let turn = out.state.turn;
        let held = self.hand_size(out, turn);
        if held != HAND {
            return Err(Refusal::new(
                "kemps-hand-size",
                format!(
                    "Kemps: a hand must hold four cards after the turn; {} holds {}",
                    self.who(turn),
                    cards(held)
                ),
            )
            .help(if held > HAND {
                "discard a card to the table first"
            } else {
                "pick a card from the table first"
            }));
        }
        let k = turn_state(&mut out.state);
        k.turns = k.turns.saturating_add(1);
        k.idle = if k.picked { 0 } else { k.idle + 1 };
        k.picked = false;
        out.state.turn = self.table.next_player(turn);
        out.notes
            .push(format!("{}'s turn", self.who(out.state.turn)));
        if auto && turn_state(&mut out.state).idle >= IDLE_TURNS {
            out.notes
                .push("three turns in a row without a pick: a new table".into());
            self.new_table(out)?;
        }
        Ok(())
    }

    /// `pass p`: p's turn ends without a further move (after the current
    /// turn, when p is the next player).
    fn pass(&self, out: &mut Outcome, p: Agent) -> Result<(), Refusal> {
        self.enter(out, p)?;
        self.end(out, true)
    }

    fn pick(&self, out: &mut Outcome, p: Agent, kind: Kind) -> Result<(), Refusal> {
        self.enter(out, p)?;
        let (on_table, _) = piles(self.table)?;
        holds(self.table, out.model.as_ref(), on_table, kind)?;
        if self.hand_size(out, p) > HAND {
            return Err(Refusal::new(
                "kemps-one-at-a-time",
                format!(
                    "Kemps: cards are exchanged one at a time; {} holds five and must discard first",
                    self.who(p)
                ),
            ));
        }
        let em = events::transfer(self.table, kind, on_table, self.table.hand(p), self.label);
        out.model = out.model.apply(&em, None)?;
        turn_state(&mut out.state).picked = true;
        Ok(())
    }

    fn discard(&self, out: &mut Outcome, p: Agent, kind: Kind) -> Result<(), Refusal> {
        self.enter(out, p)?;
        let (on_table, _) = piles(self.table)?;
        holds(self.table, out.model.as_ref(), self.table.hand(p), kind)?;
        if self.hand_size(out, p) < HAND {
            return Err(Refusal::new(
                "kemps-one-at-a-time",
                format!(
                    "Kemps: cards are exchanged one at a time; {} holds three and must pick first",
                    self.who(p)
                ),
            ));
        }
        let em = events::transfer(self.table, kind, self.table.hand(p), on_table, self.label);
        out.model = out.model.apply(&em, None)?;
        Ok(())
    }

    /// The table goes to the discard pile; six cards come up from the stock.
    fn new_table(&self, out: &mut Outcome) -> Result<(), Refusal> {
        let (on_table, discard) = piles(self.table)?;
        out.model = out.model.apply(
            &move_all(self.table, on_table, discard, "table to discard"),
            None,
        )?;
        turn_state(&mut out.state).idle = 0;
        for _ in 0..TABLE {
            if !self.refill(out)? {
                out.notes.push(format!(
                    "no cards left: the new table has {}",
                    cards(size(out.model.as_ref(), on_table))
                ));
                break;
            }
            self.turn_up(out, on_table)?;
        }
        out.notes.push("a new table".into());
        Ok(())
    }

    /// Makes sure the stock has a card, shuffling the discard pile into it
    /// when it is empty. `false` when there is no card anywhere.
    fn refill(&self, out: &mut Outcome) -> Result<bool, Refusal> {
        if size(out.model.as_ref(), self.table.stock()) > 0 {
            return Ok(true);
        }
        let (_, discard) = piles(self.table)?;
        let pile = actual_cards(out.model.as_ref(), discard);
        if pile.iter().all(|&n| n == 0) {
            return Ok(false);
        }
        let mut order: Vec<Kind> = (0..pile.len())
            .flat_map(|k| std::iter::repeat_n(k, pile[k] as usize))
            .collect();
        let state = &mut out.state;
        let seed = state
            .seed
            .wrapping_add(u64::from(turn_state(state).reshuffles) + 1);
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        state.stock_order = order;
        state.fixed = 0;
        turn_state(state).reshuffles += 1;
        let em = move_all(self.table, discard, self.table.stock(), "reshuffle");
        out.model = out.model.apply(&em, None)?;
        out.notes
            .push("the discard pile is shuffled into the stock".into());
        Ok(true)
    }

    /// Applies a per-kind stock event model with the stock's top card as the actual event.
    fn deal_top(&self, out: &mut Outcome, em: &EventModel) -> Result<(), Refusal> {
        let top = *out
            .state
            .stock_order
            .first()
            .ok_or_else(|| Refusal::new("empty-stock", "the stock is empty"))?;
        out.model = out.model.apply(em, Some(top))?;
        out.state.stock_order.remove(0);
        out.state.fixed = out.state.fixed.saturating_sub(1);
        Ok(())
    }

    /// The stock's top card turned face up onto `to`. Everyone tells the
    /// cards apart, so the model after the per-kind event model
    /// ([`face_up`]) with the top card's event is the model after that
    /// event alone: the worlds reachable from the actual one are those
    /// where the top card was in the stock, with it moved. That one event
    /// is applied ([`face_up_card`]) instead of one event per kind of the
    /// deck; [`GENERAL_FACE_UP`] applies the whole model.
    fn turn_up(&self, out: &mut Outcome, to: Loc) -> Result<(), Refusal> {
        if self.face_up == FaceUp::General {
            return self.deal_top(out, &face_up(self.table, to, "new table"));
        }
        let top = *out
            .state
            .stock_order
            .first()
            .ok_or_else(|| Refusal::new("empty-stock", "the stock is empty"))?;
        let em = face_up_card(self.table, to, top, "new table");
        out.model = out.model.apply(&em, Some(0))?;
        out.state.stock_order.remove(0);
        out.state.fixed = out.state.fixed.saturating_sub(1);
        Ok(())
    }

    /// `kemps p`: the claim, then a new hand from the stock.
    fn claim(&self, out: &mut Outcome, p: Agent) -> Result<(), Refusal> {
        let held = self.hand_size(out, p);
        let em = claim_events(self.table, p, self.label)?;
        if held != HAND || out.model.possible_events(&em)?.is_empty() {
            return Err(Refusal::new(
                "false-kemps",
                format!(
                    "Kemps: a Kemps is four cards of one value in a hand of four; {} has none",
                    self.who(p)
                ),
            ));
        }
        out.model = out.model.apply(&em, None)?;
        out.notes
            .push(format!("{} lays down four of a kind", self.who(p)));
        let (_, discard) = piles(self.table)?;
        let left = size(out.model.as_ref(), self.table.stock()) + size(out.model.as_ref(), discard);
        if left < HAND {
            turn_state(&mut out.state).over = true;
            out.notes
                .push("too few cards left for a new hand: the game is over".into());
            return Ok(());
        }
        for _ in 0..HAND {
            self.refill(out)?;
            let em = events::draw(self.table, p, self.table.stock(), "new hand");
            self.deal_top(out, &em)?;
        }
        out.notes.push(format!("{} draws a new hand", self.who(p)));
        Ok(())
    }
}

/// Every card at `from` goes to `to`, in public.
fn move_all(table: &Table, from: Loc, to: Loc, name: &str) -> EventModel {
    let event = Event {
        name: name.into(),
        pre: Formula::Top,
        post: vec![Post::MoveAll { from, to }],
    };
    EventModel::public(name, table.players.len(), vec![event])
}

/// The top card of the stock is turned face up onto `to`: event `k` is a card
/// of kind `k`, and everyone tells the events apart.
fn face_up(table: &Table, to: Loc, name: &str) -> EventModel {
    let events = (0..table.deck.kinds.len())
        .map(|kind| face_up_event(table, to, kind))
        .collect();
    EventModel::public(name, table.players.len(), events)
}

/// A card of kind `kind` moved from the stock onto `to`, where it was in
/// the stock.
fn face_up_event(table: &Table, to: Loc, kind: Kind) -> Event {
    let stock = table.stock();
    Event {
        name: table.deck.kinds[kind].name.clone(),
        pre: Formula::holds(stock, kind),
        post: vec![Post::Move {
            kind,
            from: stock,
            to,
            n: 1,
        }],
    }
}

/// The one event of [`face_up`] that happens: the top card, of kind
/// `kind`, turned face up onto `to` (in public, so its precondition, the
/// card in the stock, becomes common knowledge).
fn face_up_card(table: &Table, to: Loc, kind: Kind, name: &str) -> EventModel {
    let event = face_up_event(table, to, kind);
    EventModel::public(name, table.players.len(), vec![event])
}

/// How a new table's cards are turned up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceUp {
    /// By the top card's event alone (dealer's Kemps).
    TopCard,
    /// By the whole per-kind event model, one event per kind of the deck
    /// with the top card's the actual one: the general update the top
    /// card's event is checked against (the same moves and outcomes).
    General,
}

/// Kemps as dealer plays it (the game of the list of games).
pub const KEMPS: Kemps = Kemps {
    face_up: FaceUp::TopCard,
};

/// Kemps with every card of a new table turned up by the whole per-kind
/// event model ([`FaceUp::General`]): a game value of its own, for the
/// tests that check the top card's event against it.
pub static GENERAL_FACE_UP: Kemps = Kemps {
    face_up: FaceUp::General,
};

/// Kemps (`game kemps`).
///
/// The referee of Kemps (report 000): three players with four cards each
/// and six face up on the table, from the report's 20-card deck of Table 1
/// (ranks 2 to 6 in four suits; the game ends after one Kemps); for
/// teaching, the values 2 to 6 four times each, without suits. The
/// turn player picks a card from the table or discards one to it (one at a
/// time), and ends the turn with `pass` or `newtable` when holding four; any
/// player holding four of a kind may claim a Kemps. (A turn can also end by
/// the next player's move; the referee offers the explicit `pass` instead.)
/// The game ends when no new hand can be dealt after a Kemps; a player's
/// score is the number of Kemps claimed.
#[derive(Debug)]
pub struct Kemps {
    /// How a new table's cards are turned up.
    face_up: FaceUp,
}

impl GameRules for Kemps {
    fn referee(&self) -> Option<&dyn Referee> {
        Some(self)
    }

    fn name(&self) -> &'static str {
        "kemps"
    }

    fn title(&self) -> &'static str {
        "Kemps"
    }

    /// The face-up `table` and `discard` piles (unless the scenario declares
    /// them, e.g. `pile table public`) and a books pile per player.
    fn add_locations(&self, table: &mut Table) {
        for name in ["table", "discard"] {
            if table.find_location(name).is_none() {
                let everyone = (0..table.players.len()).collect();
                table.add_location(name.into(), LocKind::Pile, everyone);
            }
        }
        table.add_books();
    }

    fn start(&self, table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
        start(table, out)
    }

    fn move_forms(&self) -> &'static [MoveForm] {
        FORMS
    }

    fn make_move(&self, word: &str, args: &[Arg]) -> Option<Box<dyn GameAction>> {
        make_move(word, args).map(|m| Box::new(m) as Box<dyn GameAction>)
    }

    fn play(&self, pos: &Position, mv: &Move, label: &str) -> Result<Outcome, Refusal> {
        play(pos.table, pos.model, pos.state, mv, label, self.face_up)
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

/// `deck` shuffled by `seed` and dealt as the report does: four cards to
/// each of the three players, six face up on the table, the rest the stock.
fn dealt(deck: Deck, seed: u64) -> Deal {
    let mut cards = shuffled(&deck, seed).into_iter();
    let mut take = |n: usize| cards.by_ref().take(n).collect::<Vec<String>>();
    let players = ["1", "2", "3"];
    let mut parts: Vec<(String, Vec<String>)> = players
        .iter()
        .map(|p| (p.to_string(), take(HAND as usize)))
        .collect();
    parts.push(("table".into(), take(TABLE as usize)));
    Deal {
        game: "kemps".into(),
        seed,
        players: players.iter().map(|p| p.to_string()).collect(),
        deck,
        parts,
        stock: take(usize::MAX),
        ..Deal::default()
    }
}

impl Referee for Kemps {
    /// The report's start with the user's deck: four cards to each of the
    /// three players, six face up on the table, the rest the stock. A deck
    /// too small for that, a hand of another size, or a deck with a rank
    /// of other than four cards (a Kemps holds every card of its rank:
    /// with more it cannot be made, with fewer a hand would hold one
    /// without four of a kind) is refused.
    fn deal_custom(&self, seed: u64, deck: Deck, hand: usize) -> Result<Deal, Diagnostic> {
        if hand != HAND as usize {
            return Err(refused(format!(
                "--hand {hand}: Kemps deals {HAND} cards to each player (the report's rule; the table holds {TABLE})"
            )));
        }
        let need = 3 * HAND + TABLE;
        if deck.total() < need {
            return Err(refused(format!(
                "Kemps needs at least {need} cards (three hands of {HAND} and a table of {TABLE}); the deck has {}",
                deck.total()
            )));
        }
        let copies = |kinds: &[Kind]| kinds.iter().map(|&k| deck.kinds[k].copies).sum::<u32>();
        let odd: Vec<String> = deck
            .ranks()
            .iter()
            .filter(|(_, kinds)| copies(kinds) != HAND)
            .map(|(rank, kinds)| format!("{rank} has {}", copies(kinds)))
            .collect();
        if !odd.is_empty() {
            return Err(refused(format!(
                "a Kemps is the four cards of one rank in a hand of four, so every rank of a Kemps deck has four cards: {}",
                odd.join(", ")
            )));
        }
        Ok(dealt(deck, seed))
    }

    fn deal(&self, seed: u64, size: Size) -> Deal {
        let deck = match size {
            Size::Full => Deck::ranks_suits(&["2", "3", "4", "5", "6"], &['S', 'H', 'D', 'C']),
            Size::Teaching => Deck::values(2..=6, 4),
        };
        dealt(deck, seed)
    }

    fn is_terminal(&self, pos: &Position) -> bool {
        is_over(pos.state)
    }

    /// The report's rule: players who wait for knowledge may wait for
    /// ever, so "we simply decided to end the game after 10000 turns"
    /// (report 000, KB greedy). Within a turn, picks and discards may go
    /// on too: [`TURN_LIMIT`] turns, or four moves a turn on average,
    /// whichever comes first.
    fn limit(&self, pos: &Position, moves: usize) -> Option<String> {
        let turns = pos.state.extra.get::<KempsTurn>().map_or(0, |k| k.turns);
        if turns >= TURN_LIMIT {
            Some(format!("{TURN_LIMIT} turns, the Kemps report's limit"))
        } else {
            let most = TURN_LIMIT as usize * MOVES_A_TURN;
            (moves >= most)
                .then(|| format!("{most} moves ({MOVES_A_TURN} a turn for {TURN_LIMIT} turns)"))
        }
    }

    /// Every player's Kemps claim, then the turn player's picks, discards,
    /// `pass` and `newtable` that the hand's size allows.
    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if self.is_terminal(pos) {
            return Vec::new();
        }
        let table = pos.table;
        let Ok((on_table, _)) = piles(table) else {
            return Vec::new();
        };
        let mut moves: Vec<Move> = (0..table.players.len())
            .filter(|&p| has_kemps(pos, p))
            .map(|p| Move::Game(Box::new(KempsMove::Kemps(p))))
            .collect();
        let player = pos.state.turn;
        let held = pos.count(table.hand(player));
        if held <= HAND {
            for kind in pos.kinds_at(on_table) {
                moves.push(Move::Game(Box::new(KempsMove::Pick { player, kind })));
            }
        }
        if held >= HAND {
            for kind in pos.kinds_at(table.hand(player)) {
                moves.push(Move::Game(Box::new(KempsMove::Discard { player, kind })));
            }
        }
        if held == HAND {
            moves.push(Move::Game(Box::new(KempsMove::Pass(player))));
            moves.push(Move::Game(Box::new(KempsMove::NewTable)));
        }
        moves
    }

    fn scores(&self, pos: &Position) -> Vec<i64> {
        (0..pos.table.players.len())
            .map(|p| books_laid(pos, p))
            .collect()
    }
}

/// Whether `p` holds a whole rank in a hand of four (a Kemps to claim).
fn has_kemps(pos: &Position, p: Agent) -> bool {
    let table = pos.table;
    let hand = pos.cards(table.hand(p));
    let copies = table.deck.copies();
    hand.iter().sum::<u32>() == HAND
        && table
            .deck
            .ranks()
            .iter()
            .any(|(_, kinds)| kinds.iter().all(|&k| hand[k] == copies[k]))
}

/// Kemps' knowledge views: for each value, whether a hand collects two
/// or more of it, or holds none.
impl GameView for Kemps {
    fn hand(&self, table: &Table, who: About) -> Vec<Fact> {
        ranks_held(table, who, 2, "collect")
    }
}

/// A custom deal refused: the deck or the hand cannot make Kemps' start.
fn refused(message: String) -> Diagnostic {
    Diagnostic::unlocated("custom-deal", message)
}
