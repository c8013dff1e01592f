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
//!   [`Factors::touched_law`]; T also holds the locations whose factor
//!   leaves one value, [`Factors::determined`]: they cost nothing). The
//!   other factors R do not mention a variable the update renames or
//!   quantifies, so `∃old (θ ∧ …) = R ∧ ∃old (Deck ∧ F_T ∧ …)`: the new
//!   law is the result times R, exactly.
//!   The cleanup's tests, run on the weaker law, only ever conclude what
//!   they would conclude on the new law (a variable determined by what an
//!   agent observes under the weaker law is so in its subset, the result
//!   times R; a group of history variables independent of the rest under
//!   it stays so, as R does not mention them). [`rejoin`] then splits the
//!   result again, projecting it on T and on the locations the
//!   preconditions count at, and on every location only if that fails
//!   (verified the same way); if it does not split, the update is made
//!   again on the whole law, exactly as without factors, and the model
//!   keeps its law whole from then on.
//! - A nested knowledge query asks `∃V (θ ∧ r)` for a set r over a few
//!   locations: the other locations are quantified out of `Deck ∧` their
//!   factors once per model ([`Factors::marginal`]), and r meets that
//!   marginal and its own locations' factors ([`Factors::and_exists`]),
//!   so θ itself is not built.

use oxidd::{BooleanFunction, Function, VarNo};

use super::vars::{oom, sum_eq, sum_le, weighted, Bdd, Res, State};
use crate::engine::formula::Atom;
use crate::engine::{EventModel, Formula, Post};

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

    /// `Deck ∧` the factors of `locs`, the smallest conjoined first (a
    /// determined location's factor is a cube that simplifies the rest).
    pub fn touched_law(&self, locs: &[usize]) -> Res<Bdd> {
        let mut fs: Vec<&Bdd> = locs
            .iter()
            .filter_map(|&l| self.parts.get(l).and_then(Option::as_ref))
            .collect();
        fs.sort_by_cached_key(|f| f.node_count());
        let mut acc = self.deck.clone();
        for f in fs {
            acc = oom(acc.and(f))?;
        }
        Ok(acc)
    }

    /// `here ∧ θ`: `here` (a cube of observed values) meets the deck
    /// first, then each factor. With the deck last, the hands the player
    /// does not see were conjoined as if unrelated: where the whole deck
    /// is dealt (Kwartet), a product of three hands' counts, and a
    /// player's first query after a move took up to a second. With the
    /// deck first, the cards the player sees are out of every other hand
    /// from the start.
    pub fn and_all(&self, here: &Bdd) -> Res<Bdd> {
        let mut acc = oom(here.and(&self.deck))?;
        for f in self.parts.iter().flatten() {
            acc = oom(acc.and(f))?;
        }
        Ok(acc)
    }

    /// `∃vars (θ ∧ r)` without θ: the locations `r` does not read and
    /// whose variables are all quantified (U) are quantified first, once
    /// per model, in the marginal `∃V_U (Deck ∧ ∧_{u∈U} F_u)` that
    /// `marginal(U)` returns; then `r ∧` the other factors meet it in
    /// one pass. Exact, since neither `r` nor the other factors mention
    /// a variable of U. `None` when U would be empty (nothing to gain over
    /// the whole law).
    pub fn and_exists(
        &self,
        st: &State,
        r: &Bdd,
        vars: &[VarNo],
        marginal: impl Fn(&[usize]) -> Res<Bdd>,
    ) -> Res<Option<Bdd>> {
        let meta = &*st.meta;
        let quantified: rustc_hash::FxHashSet<VarNo> = vars.iter().copied().collect();
        let read: rustc_hash::FxHashSet<VarNo> = super::walk::support(r).into_iter().collect();
        let mut kept = Vec::new();
        let mut out = Vec::new();
        let mut out_vars = Vec::new();
        for l in 0..meta.locs {
            let lv = location_vars(st, l);
            if lv.is_empty() {
                continue;
            }
            if lv
                .iter()
                .all(|v| quantified.contains(v) && !read.contains(v))
            {
                out.push(l);
                out_vars.extend(lv);
            } else {
                kept.push(l);
            }
        }
        if out.is_empty() {
            return Ok(None);
        }
        let m = marginal(&out)?;
        let mut p = r.clone();
        for &l in &kept {
            if let Some(Some(f)) = self.parts.get(l) {
                p = oom(p.and(f))?;
            }
        }
        out_vars.sort_unstable();
        let rest: Vec<VarNo> = vars
            .iter()
            .copied()
            .filter(|v| out_vars.binary_search(v).is_err())
            .collect();
        Ok(Some(meta.and_exists(&p, &m, &rest)?))
    }

    /// `∃V_U (Deck ∧ ∧_{u∈U} F_u)` for the locations `out` (U): what the
    /// deck and those locations' factors say of the other locations.
    pub fn marginal(&self, st: &State, out: &[usize]) -> Res<Bdd> {
        let meta = &*st.meta;
        let mut acc = self.deck.clone();
        let mut vars = Vec::new();
        for &l in out {
            if let Some(Some(f)) = self.parts.get(l) {
                acc = oom(acc.and(f))?;
            }
            vars.extend(location_vars(st, l));
        }
        vars.sort_unstable();
        meta.exists(&acc, &vars)
    }

    /// The locations whose factor leaves one value (a book pile that
    /// everyone has seen): an update runs on them too, as they cost
    /// nothing to conjoin, and otherwise what the update's result says of
    /// them could only be checked by projecting every location.
    pub fn determined(&self, st: &State) -> Vec<usize> {
        (0..st.meta.locs)
            .filter(|&l| match self.parts.get(l) {
                Some(Some(f)) => super::walk::count(f, &location_vars(st, l)) == 1,
                _ => false,
            })
            .collect()
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
    let deck = deck(st)?;
    let parts = project(st, law, &[], &deck, &[], |_| true)?;
    Ok(parts.map(|parts| Factors { deck, parts }))
}

/// The law after an update that ran on the factors of `reach.moved`
/// only: `result` is the new law of those factors (and the deck), `old`
/// the factors before. Returns the new factors when the result splits
/// (verified), else `None` (the caller updates the whole law instead).
///
/// First only the locations the update moved cards at or counted at are
/// projected, and every other factor stays as it was: `θ = Deck ∧ ∧ Fₗ`
/// stays exact whenever `Deck ∧` those projections is the result, as the
/// new law is the result times the factors of the locations not moved at.
/// Only if that fails is every location projected, so that what the
/// result implies of a location through the deck joins its factor.
pub(crate) fn rejoin(
    st: &State,
    result: &Bdd,
    old: &Factors,
    reach: &Reach,
) -> Res<Option<Factors>> {
    if !applies(st) {
        return Ok(None);
    }
    let deck = deck(st)?;
    for all in [false, true] {
        let look = |l: usize| all || reach.moved.contains(&l) || reach.read.contains(&l);
        if let Some(parts) = project(st, result, &old.parts, &deck, &reach.moved, look)? {
            return Ok(Some(Factors { deck, parts }));
        }
    }
    Ok(None)
}

/// The factors after an update (or of a law, with no old factors): each
/// location in `moved` gets the result's projection on it; each other
/// location its old factor, joined with the result's projection on it
/// when `look` says so. `None` unless `deck ∧` the projections is
/// `result` (verified by BDD equality).
fn project(
    st: &State,
    result: &Bdd,
    old: &[Option<Bdd>],
    deck: &Bdd,
    moved: &[usize],
    look: impl Fn(usize) -> bool,
) -> Res<Option<Vec<Option<Bdd>>>> {
    let meta = &*st.meta;
    let mut parts = Vec::with_capacity(meta.locs);
    let mut acc = deck.clone();
    for l in 0..meta.locs {
        let vars = location_vars(st, l);
        if vars.is_empty() {
            parts.push(None);
            continue;
        }
        let was = old.get(l).cloned().flatten();
        if !look(l) {
            parts.push(was);
            continue;
        }
        let here = meta.exists(result, &st.live_except(&vars))?;
        acc = oom(acc.and(&here))?;
        parts.push(Some(match was {
            Some(f) if !moved.contains(&l) => oom(f.and(&here))?,
            _ => here,
        }));
    }
    Ok((acc == *result).then_some(parts))
}

/// Where an update by an event model reaches (the derived stock left
/// out: it has no variables, and the deck speaks for it).
pub(crate) struct Reach {
    /// The locations whose counts its moves change and the
    /// [`Factors::determined`] ones: the update runs on their factors.
    pub moved: Vec<usize>,
    /// The locations its preconditions count at: the result may say more
    /// of them than their factors did.
    pub read: Vec<usize>,
}

/// Where an update by `em` on `factors` reaches, when `em` can be applied
/// to them: its preconditions are about card counts only (no knowledge,
/// which reads the whole law, and no proposition or variable) and it sets
/// no proposition. The determined locations are among the moved ones.
pub(crate) fn touched(st: &State, em: &EventModel, factors: &Factors) -> Option<Reach> {
    let mut moved = Vec::new();
    let mut read = Vec::new();
    for e in &em.events {
        if !counted_at(&e.pre, &mut read) {
            return None;
        }
        for p in &e.post {
            match p {
                Post::Move { from, to, .. } | Post::MoveAll { from, to } => {
                    moved.extend([*from, *to]);
                }
                Post::Set(..) => return None,
            }
        }
    }
    moved.extend(factors.determined(st));
    for locs in [&mut moved, &mut read] {
        locs.retain(|&l| st.derived != Some(l));
        locs.sort_unstable();
        locs.dedup();
    }
    Some(Reach { moved, read })
}

/// Adds the locations a formula counts cards at to `out`; false if it
/// reads anything else (a proposition, a variable, or knowledge).
fn counted_at(f: &Formula, out: &mut Vec<usize>) -> bool {
    match f {
        Formula::Top | Formula::Bottom => true,
        Formula::Atom(Atom::Count { loc, .. }) => {
            out.push(*loc);
            true
        }
        Formula::Not(g) => counted_at(g, out),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().all(|g| counted_at(g, out)),
        Formula::Implies(a, b) | Formula::Iff(a, b) => counted_at(a, out) && counted_at(b, out),
        _ => false,
    }
}
