//! The law kept as factors: `θ = Deck ∧ F₁ ∧ … ∧ Fₙ`, one factor per
//! location over that location's count variables, and `Deck` the deck's
//! conservation (each kind's copies outside the derived stock are at most
//! its copies, or exactly them when there is no derived stock).
//!
//! Why: in a card game every public fact and every private draw is about
//! one hand, and the hands are tied only by the deck. A law over all
//! hands at once must carry every hand's running size along the variable
//! order, so it grows as the product of the hands' possibilities (70,000 to
//! 200,000 nodes in a full-deck Go Fish game), while each factor stays a
//! few hundred nodes.
//!
//! Exactness does not rest on the game: every factored form is verified by
//! BDD equality before it is kept, and anything that does not split is
//! kept whole.
//! - [`split`] factors a law: each factor is the law's projection on one
//!   location, and the split is kept only if `Deck ∧ ∧ Fₗ` is the law.
//! - An update that moves cards only at the locations T runs the usual
//!   transformer and cleanup on `Deck ∧ ∧_{l∈T} Fₗ` alone (see
//!   [`Factors::touched_law`]). The other factors R do not mention a
//!   variable the update renames or quantifies, so `∃old (θ ∧ …) =
//!   R ∧ ∃old (Deck ∧ F_T ∧ …)`: the new law is the result times R, exactly.
//!   The cleanup's tests, run on the weaker law, only ever conclude what
//!   they would conclude on the new law (a variable determined by what an
//!   agent observes under the weaker law is so in its subset, the result
//!   times R; a group of history variables independent of the rest under
//!   it stays so, as R does not mention them). [`rejoin`] then splits the result again (verified
//!   the same way); if it does not split, the update is made again on the
//!   whole law, exactly as without factors, and the model keeps its law
//!   whole from then on.

use oxidd::{BooleanFunction, Function, VarNo};

use super::local::modal;
use super::vars::{oom, sum_eq, sum_le, weighted, Bdd, Res, State};
use crate::engine::{EventModel, Post};

/// A law as factors (see the module documentation).
#[derive(Clone)]
pub(crate) struct Factors {
    /// The deck's conservation over the present variables.
    pub deck: Bdd,
    /// Each location's factor (`None`: the location has no variables).
    pub parts: Vec<Option<Bdd>>,
}

impl Factors {
    /// The whole law.
    pub fn whole(&self) -> Res<Bdd> {
        let mut acc = self.deck.clone();
        for f in self.parts.iter().flatten() {
            acc = oom(acc.and(f))?;
        }
        Ok(acc)
    }

    /// `Deck ∧` the factors of `locs`.
    pub fn touched_law(&self, locs: &[usize]) -> Res<Bdd> {
        let mut acc = self.deck.clone();
        for &l in locs {
            if let Some(Some(f)) = self.parts.get(l) {
                acc = oom(acc.and(f))?;
            }
        }
        Ok(acc)
    }

    /// `here ∧ θ`, conjoined factor by factor starting from `here` (a
    /// cube of observed values), so that no intermediate result is larger
    /// than the restricted law.
    pub fn and_all(&self, here: &Bdd) -> Res<Bdd> {
        let mut acc = here.clone();
        for f in self.parts.iter().flatten() {
            acc = oom(acc.and(f))?;
        }
        oom(acc.and(&self.deck))
    }

    /// The nodes of all factors (shared nodes counted once per factor).
    pub fn node_count(&self) -> usize {
        self.parts
            .iter()
            .flatten()
            .chain(std::iter::once(&self.deck))
            .map(Function::node_count)
            .sum()
    }
}

/// The present variables of location `l` (every kind's count there).
pub(crate) fn location_vars(st: &State, l: usize) -> Vec<VarNo> {
    let meta = &*st.meta;
    let mut vars: Vec<VarNo> = (0..meta.copies.len())
        .flat_map(|k| st.facts[meta.fact(k, l)].iter().copied())
        .collect();
    vars.sort_unstable();
    vars
}

/// Whether factors can describe laws of this structure at all: no
/// propositions and no history, event or class variables (every live
/// variable holds a count).
pub(crate) fn applies(st: &State) -> bool {
    st.props.is_empty() && st.live == st.current()
}

/// The deck's conservation over the present variables of `st`.
pub(crate) fn deck(st: &State) -> Res<Bdd> {
    let meta = &*st.meta;
    let mut acc = meta.top();
    for k in 0..meta.copies.len() {
        let facts: Vec<&[VarNo]> = (0..meta.locs)
            .filter(|&l| st.derived != Some(l))
            .map(|l| st.facts[meta.fact(k, l)].as_slice())
            .collect();
        let items = weighted(&facts);
        let d = if st.derived.is_some() {
            sum_le(meta, &items, meta.copies[k])?
        } else {
            sum_eq(meta, &items, meta.copies[k])?
        };
        acc = oom(acc.and(&d))?;
    }
    Ok(acc)
}

/// The factors of `law`, if it splits (verified; `None` otherwise).
pub(crate) fn split(st: &State, law: &Bdd) -> Res<Option<Factors>> {
    if !applies(st) {
        return Ok(None);
    }
    let meta = &*st.meta;
    let deck = deck(st)?;
    let mut parts = Vec::with_capacity(meta.locs);
    let mut acc = deck.clone();
    for l in 0..meta.locs {
        let vars = location_vars(st, l);
        if vars.is_empty() {
            parts.push(None);
            continue;
        }
        let f = meta.exists(law, &st.live_except(&vars))?;
        acc = oom(acc.and(&f))?;
        parts.push(Some(f));
    }
    Ok((acc == *law).then_some(Factors { deck, parts }))
}

/// The law after an update that ran on the factors of `touched` only:
/// `result` is the new law of those factors (and the deck), `old` the
/// factors before. Returns the new factors when the result splits
/// (verified), else `None` (the caller updates the whole law instead).
pub(crate) fn rejoin(
    st: &State,
    result: &Bdd,
    old: &Factors,
    touched: &[usize],
) -> Res<Option<Factors>> {
    if !applies(st) {
        return Ok(None);
    }
    let meta = &*st.meta;
    let deck = deck(st)?;
    let mut parts = Vec::with_capacity(meta.locs);
    let mut acc = deck.clone();
    for l in 0..meta.locs {
        let vars = location_vars(st, l);
        if vars.is_empty() {
            parts.push(None);
            continue;
        }
        // What the result says of location l alone (for an untouched
        // location usually ⊤, or what the deck already implies).
        let here = meta.exists(result, &st.live_except(&vars))?;
        acc = oom(acc.and(&here))?;
        let part = match old.parts.get(l) {
            Some(Some(f)) if !touched.contains(&l) => oom(f.and(&here))?,
            _ => here,
        };
        parts.push(Some(part));
    }
    Ok((acc == *result).then_some(Factors { deck, parts }))
}

/// The locations whose counts the moves of `em` change (the derived
/// stock left out: it has no variables), when `em` can be applied to the
/// factors: its preconditions are about cards only (no knowledge, which
/// reads the whole law) and it sets no proposition.
pub(crate) fn touched(st: &State, em: &EventModel) -> Option<Vec<usize>> {
    let mut locs = Vec::new();
    for e in &em.events {
        if modal(&e.pre) {
            return None;
        }
        for p in &e.post {
            match p {
                Post::Move { from, to, .. } | Post::MoveAll { from, to } => {
                    locs.extend([*from, *to]);
                }
                Post::Set(..) => return None,
            }
        }
    }
    locs.retain(|&l| st.derived != Some(l));
    locs.sort_unstable();
    locs.dedup();
    Some(locs)
}
