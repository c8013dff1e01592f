//! Narration: what a move made known, computed from the models before and
//! after it.
//!
//! The facts narrated are the card atoms about hands: "player i holds (at
//! least n cards of) kind k" and "player i holds no k". Player p knows such
//! an atom when it holds in every world p considers possible (`K_p`); it is
//! common knowledge when it holds in every world reachable from the actual
//! world along the players' relations (`C`). Both are read off the model
//! through [`Backend::accessible`] and [`Backend::world`], so narration says
//! exactly what `K` and `C` would answer, and never what the rules did.

use crate::cards::rules::describe_player;
use crate::cards::Table;
use crate::engine::{Agent, Backend, GroupAccess, Kind, WorldId};

/// Models larger than this are not narrated (narration visits the worlds).
pub const MAX_NARRATED_WORLDS: u128 = 200_000;

/// A model is listed for narration only while its worlds times its
/// players (plus one, for the common set) are at most 20 times
/// [`MAX_NARRATED_WORLDS`]: listing writes every player's relation.
///
/// Narration reads each hand's count of each kind in every world each
/// player considers (and in the common set): when that is more than this
/// many counts (80 players in 100,000 worlds of 160 hands), the move is
/// not narrated, as a model over [`MAX_NARRATED_WORLDS`] is not.
pub const MAX_NARRATED_COUNTS: u128 = 20_000_000;

/// What is settled about each hand and kind in a set of worlds:
/// `bounds[hand][kind] = (least count, greatest count)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds(Vec<Vec<(u32, u32)>>);

/// What every player knows about the hands, and what is common knowledge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// One entry per player: the bounds over the worlds it considers possible.
    pub players: Vec<Bounds>,
    /// The bounds over the worlds reachable from the actual world.
    pub common: Bounds,
}

/// One card fact: `hand` holds at least `count` cards of `kind` (none when 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    /// The player whose hand it is.
    pub hand: Agent,
    /// The card kind.
    pub kind: Kind,
    /// At least this many; 0 means "holds none".
    pub count: u32,
}

/// What changed between two [`Knowledge`]s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Narration {
    /// Facts that became common knowledge.
    pub common: Vec<Fact>,
    /// Facts that stopped being common knowledge (and nothing replaced them).
    pub lost_common: Vec<Fact>,
    /// Per player, facts it newly knows that are not common knowledge.
    pub known: Vec<(Agent, Vec<Fact>)>,
}

/// The most players a step-by-step front end (the web lecture, the quiz)
/// narrates for.
pub const STEP_NARRATED_AGENTS: usize = 12;
/// The most worlds a step-by-step front end narrates: narration visits
/// every world for every player, and a symbolic model is listed first, so
/// a larger model would make each step wait seconds. (The REPL narrates up
/// to [`MAX_NARRATED_WORLDS`], when asked to.)
pub const STEP_NARRATED_WORLDS: u128 = 20_000;

/// Whether a step-by-step front end narrates the moves of `model`
/// ([`STEP_NARRATED_AGENTS`], [`STEP_NARRATED_WORLDS`]).
pub fn narrated_at_each_step(model: &dyn Backend) -> bool {
    model.agents() <= STEP_NARRATED_AGENTS
        && model.can_list()
        && model.world_count() <= STEP_NARRATED_WORLDS
}

/// [`knowledge`] of the last model asked about, kept: a move's "after" is
/// the next move's "before", so a front end that narrates step by step
/// (the quiz) visits each model's worlds once. The model is held, so a
/// new model is never mistaken for a freed one.
#[derive(Default)]
pub struct Narrator {
    last: std::cell::RefCell<Option<Narrated>>,
}

/// A model and what [`knowledge`] found in it.
type Narrated = (std::rc::Rc<dyn Backend>, Option<Knowledge>);

impl Narrator {
    /// [`knowledge`] of `model` (the model of a table's session).
    pub fn knowledge(&self, table: &Table, model: &std::rc::Rc<dyn Backend>) -> Option<Knowledge> {
        let mut last = self.last.borrow_mut();
        match &*last {
            Some((m, k)) if std::rc::Rc::ptr_eq(m, model) => k.clone(),
            _ => {
                let k = knowledge(table, &**model);
                *last = Some((model.clone(), k.clone()));
                k
            }
        }
    }
}

/// What each player knows and what is common knowledge about the hands;
/// `None` for models without cards or too large to visit.
pub fn knowledge(table: &Table, model: &dyn Backend) -> Option<Knowledge> {
    let hands = table.players.len();
    if table.deck.kinds.is_empty()
        || hands == 0
        || model.surely_unlistable()
        || model.listable().is_err()
        || model.world_count() > MAX_NARRATED_WORLDS
        || model.world_count() * (hands as u128 + 1) > MAX_NARRATED_WORLDS * 20
    {
        return None;
    }
    let actual = model.actual();
    let agents: Vec<Agent> = (0..hands).collect();
    let mut sets: Vec<Vec<WorldId>> = Vec::with_capacity(hands + 1);
    let per_world = (hands * table.deck.kinds.len()) as u128;
    let mut counts = 0u128;
    for p in 0..=hands {
        let set = if p < hands {
            model.accessible(p, actual)
        } else {
            model.group_accessible(GroupAccess::Common, &agents, actual)
        };
        counts += set.len() as u128 * per_world;
        if counts > MAX_NARRATED_COUNTS {
            return None;
        }
        sets.push(set);
    }
    let mut players = bounds(table, model, &sets);
    let common = players.pop()?;
    Some(Knowledge { players, common })
}

/// The bounds over each set of worlds, each world read once however many
/// sets hold it.
fn bounds(table: &Table, model: &dyn Backend, sets: &[Vec<WorldId>]) -> Vec<Bounds> {
    let hands = table.players.len();
    let kinds = table.deck.kinds.len();
    let mut holders: std::collections::HashMap<WorldId, Vec<usize>> = Default::default();
    for (i, set) in sets.iter().enumerate() {
        for &w in set {
            holders.entry(w).or_default().push(i);
        }
    }
    let mut b: Vec<Vec<Vec<(u32, u32)>>> =
        vec![vec![vec![(u32::MAX, 0); kinds]; hands]; sets.len()];
    for (w, sets) in holders {
        let view = model.world(w);
        for i in sets {
            for (h, row) in b[i].iter_mut().enumerate() {
                for (k, cell) in row.iter_mut().enumerate() {
                    let n = view.cards[table.hand(h)][k];
                    *cell = (cell.0.min(n), cell.1.max(n));
                }
            }
        }
    }
    b.into_iter().map(Bounds).collect()
}

impl Bounds {
    /// The strongest fact settled about `hand` and `kind`, if any.
    fn fact(&self, hand: Agent, kind: Kind) -> Option<Fact> {
        let (lo, hi) = self.0[hand][kind];
        if lo == u32::MAX {
            None
        } else if hi == 0 {
            Some(Fact {
                hand,
                kind,
                count: 0,
            })
        } else if lo > 0 {
            Some(Fact {
                hand,
                kind,
                count: lo,
            })
        } else {
            None
        }
    }

    /// Facts settled here and not in `before`, skipping the hand `own`.
    fn gained(&self, before: &Bounds, own: Option<Agent>) -> Vec<Fact> {
        let mut out = Vec::new();
        for hand in 0..self.0.len() {
            if Some(hand) == own {
                continue;
            }
            for kind in 0..self.0[hand].len() {
                if let Some(f) = self.fact(hand, kind) {
                    if before.fact(hand, kind) != Some(f) {
                        out.push(f);
                    }
                }
            }
        }
        out
    }

    /// Facts settled in `before` about which nothing is settled here.
    fn lost(&self, before: &Bounds) -> Vec<Fact> {
        let mut out = Vec::new();
        for hand in 0..self.0.len() {
            for kind in 0..self.0[hand].len() {
                if let (Some(f), None) = (before.fact(hand, kind), self.fact(hand, kind)) {
                    out.push(f);
                }
            }
        }
        out
    }

    /// Every fact settled here, skipping the hand `own`.
    pub fn facts(&self, own: Option<Agent>) -> Vec<Fact> {
        let empty = Bounds(vec![
            vec![(0, 1); self.0.first().map_or(0, Vec::len)];
            self.0.len()
        ]);
        self.gained(&empty, own)
    }
}

/// What became known between `before` and `after`.
pub fn narrate(before: &Knowledge, after: &Knowledge) -> Narration {
    let common = after.common.gained(&before.common, None);
    let lost_common = after.common.lost(&before.common);
    let known = after
        .players
        .iter()
        .zip(&before.players)
        .enumerate()
        .map(|(p, (a, b))| {
            let facts: Vec<Fact> = a
                .gained(b, Some(p))
                .into_iter()
                .filter(|f| after.common.fact(f.hand, f.kind) != Some(*f))
                .collect();
            (p, facts)
        })
        .filter(|(_, facts)| !facts.is_empty())
        .collect();
    Narration {
        common,
        lost_common,
        known,
    }
}

/// A fact in words: `player 1 holds QQ`, `player 2 holds no Q`.
pub fn fact_text(table: &Table, f: &Fact) -> String {
    let who = describe_player(table, f.hand);
    let name = &table.deck.kinds[f.kind].name;
    if f.count == 0 {
        return format!("{who} holds no {name}");
    }
    let sep = if table.deck.short_names() { "" } else { " " };
    let cards = vec![name.as_str(); f.count as usize].join(sep);
    format!("{who} holds {cards}")
}

/// Facts in words, grouped by hand: `player 1 holds QQ and no A, player 2 holds no Q or A`.
pub fn facts_text(table: &Table, facts: &[Fact]) -> String {
    let mut hands: Vec<Agent> = facts.iter().map(|f| f.hand).collect();
    hands.dedup();
    hands
        .iter()
        .map(|&h| {
            let held: Vec<&Fact> = facts
                .iter()
                .filter(|f| f.hand == h && f.count > 0)
                .collect();
            let none: Vec<&str> = facts
                .iter()
                .filter(|f| f.hand == h && f.count == 0)
                .map(|f| table.deck.kinds[f.kind].name.as_str())
                .collect();
            let mut text = match held.as_slice() {
                [] => format!("{} holds", describe_player(table, h)),
                _ => {
                    let cards: Vec<String> = held.iter().map(|f| fact_text(table, f)).collect();
                    let who = describe_player(table, h);
                    let strip = format!("{who} holds ");
                    let cards: Vec<&str> =
                        cards.iter().map(|c| c.trim_start_matches(&strip)).collect();
                    format!("{who} holds {}", cards.join(" "))
                }
            };
            if !none.is_empty() {
                let sep = if held.is_empty() { " no " } else { " and no " };
                text.push_str(sep);
                text.push_str(&none.join(" or "));
            }
            text
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The narration in lines: common knowledge first, then each player's news.
pub fn lines(table: &Table, n: &Narration) -> Vec<String> {
    let mut out = Vec::new();
    if !n.common.is_empty() {
        out.push(format!(
            "now common knowledge: {}",
            facts_text(table, &n.common)
        ));
    }
    if !n.lost_common.is_empty() {
        out.push(format!(
            "no longer common knowledge: {}",
            facts_text(table, &n.lost_common)
        ));
    }
    for (p, facts) in &n.known {
        out.push(format!(
            "{} now knows: {}",
            describe_player(table, *p),
            facts_text(table, facts)
        ));
    }
    if out.is_empty() {
        out.push("nobody learnt anything about the hands".into());
    }
    out
}

/// Everything known after a move, for `:narrate full`: the common knowledge,
/// then what each player knows beyond it about the other hands.
pub fn full_lines(table: &Table, k: &Knowledge) -> Vec<String> {
    let common = k.common.facts(None);
    let mut out = vec![format!(
        "common knowledge: {}",
        if common.is_empty() {
            "nothing about the hands".into()
        } else {
            facts_text(table, &common)
        }
    )];
    for (p, b) in k.players.iter().enumerate() {
        let facts: Vec<Fact> = b
            .facts(Some(p))
            .into_iter()
            .filter(|f| !common.contains(f))
            .collect();
        if !facts.is_empty() {
            out.push(format!(
                "{} also knows: {}",
                describe_player(table, p),
                facts_text(table, &facts)
            ));
        }
    }
    out
}
