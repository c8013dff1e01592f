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
use crate::engine::deal::{pinned, unpinned, DealSpec};
use crate::engine::formula::{Atom, Cmp};
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
        let all: Vec<usize> = (0..self.parts.len()).collect();
        self.touched_law(&all)
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

    /// `here ∧ θ`, for `here` the cube of the actual values of the
    /// variables `seen` (sorted): `here` meets the deck first, then the
    /// factors of the locations not wholly seen. A location whose
    /// variables are all seen (the player's own hand, the piles everyone
    /// sees) needs no factor: the actual state is in θ, so its values
    /// satisfy that factor, and `here` already fixes them (conjoined
    /// after the other hands, it would be one more pass over the whole
    /// product). With the deck last, the hands the player does not see
    /// would be conjoined as if unrelated: where the whole deck is dealt
    /// (Kwartet), a product of three hands' counts. With the deck first,
    /// the cards the player sees are out of every other hand from the
    /// start.
    pub fn and_all(&self, st: &State, here: &Bdd, seen: &[VarNo]) -> Res<Bdd> {
        let mut acc = oom(here.and(&self.deck))?;
        for (l, f) in self.parts.iter().enumerate() {
            let Some(f) = f else { continue };
            if location_vars(st, l)
                .iter()
                .any(|v| seen.binary_search(v).is_err())
            {
                acc = oom(acc.and(f))?;
            }
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
        // The factors of kept locations none of whose variables is
        // quantified are conjoined after the quantification (they
        // mention none of its variables): a second-order query keeps the
        // asker's hand, whose factor then meets a small result instead
        // of riding through the product.
        let mut p = r.clone();
        let mut after = Vec::new();
        for &l in &kept {
            if let Some(Some(f)) = self.parts.get(l) {
                if location_vars(st, l).iter().all(|v| !quantified.contains(v)) {
                    after.push(f);
                } else {
                    p = oom(p.and(f))?;
                }
            }
        }
        out_vars.sort_unstable();
        let rest: Vec<VarNo> = vars
            .iter()
            .copied()
            .filter(|v| out_vars.binary_search(v).is_err())
            .collect();
        let mut x = meta.and_exists(&p, &m, &rest)?;
        for f in after {
            x = oom(x.and(f))?;
        }
        Ok(Some(x))
    }

    /// `∃V_U (Deck ∧ ∧_{u∈U} F_u)` for the locations `out` (U): what the
    /// deck and those locations' factors say of the other locations.
    pub fn marginal(&self, st: &State, out: &[usize]) -> Res<Bdd> {
        let meta = &*st.meta;
        let mut fs: Vec<&Bdd> = Vec::new();
        let mut vars = Vec::new();
        for &l in out {
            if let Some(Some(f)) = self.parts.get(l) {
                fs.push(f);
            }
            vars.extend(location_vars(st, l));
        }
        vars.sort_unstable();
        // The last factor meets the rest as they are quantified, in one
        // pass: no BDD of the whole conjunction is built.
        let Some(last) = fs.pop() else {
            return meta.exists(&self.deck, &vars);
        };
        let mut acc = self.deck.clone();
        for f in fs {
            acc = oom(acc.and(f))?;
        }
        meta.and_exists(&acc, last, &vars)
    }

    /// The locations whose factor leaves one value (a book pile that
    /// everyone has seen): an update runs on them too, as they cost
    /// nothing to conjoin, and otherwise what the update's result says of
    /// them could only be checked by projecting every location.
    pub fn determined(&self, st: &State) -> Vec<usize> {
        (0..st.meta.locs)
            .filter(|&l| match self.parts.get(l) {
                Some(Some(f)) => super::walk::one_model(f, &location_vars(st, l)),
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
    let mut acc = st.meta.top();
    for k in 0..st.meta.copies.len() {
        acc = oom(acc.and(&deck_of(st, k)?))?;
    }
    Ok(acc)
}

/// The deck after the facts `wider` got new variables (`st` before,
/// `state` after), from the deck before: the deck is a conjunction of one
/// conservation per kind over disjoint variables, so quantifying all of a
/// kind's variables out of it leaves the other kinds' as they were (and
/// drops its own, which some counts satisfy); conjoined with the new
/// conservation of each widened kind, that is the deck rebuilt for every
/// kind, for the cost of the widened kinds alone (checked against the
/// rebuilt deck in every test that widens a count).
fn widened_deck(st: &State, state: &State, before: &Bdd, wider: &[usize]) -> Res<Bdd> {
    let meta = &*st.meta;
    let mut kinds: Vec<usize> = wider.iter().map(|&f| f / meta.locs).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let old: Vec<VarNo> = kinds
        .iter()
        .flat_map(|&k| (0..meta.locs).flat_map(move |l| st.facts[meta.fact(k, l)].iter().copied()))
        .collect();
    let mut acc = meta.exists(before, &old)?;
    for k in kinds {
        acc = oom(acc.and(&deck_of(state, k)?))?;
    }
    debug_assert!(acc == deck(state)?, "the widened deck is the deck rebuilt");
    Ok(acc)
}

/// The deck over the variables of `st` from the deck `before` over those
/// of `was` (an update's states before and after): the deck before where
/// no count got other variables, else rebuilt for the kinds whose counts
/// did ([`widened_deck`]).
fn deck_after(was: &State, st: &State, before: &Bdd) -> Res<Bdd> {
    if was.derived != st.derived || was.facts.len() != st.facts.len() {
        return deck(st);
    }
    let changed: Vec<usize> = (0..st.facts.len())
        .filter(|&f| was.facts[f] != st.facts[f])
        .collect();
    if changed.is_empty() {
        debug_assert!(*before == deck(st)?, "the deck before is the deck rebuilt");
        return Ok(before.clone());
    }
    widened_deck(was, st, before, &changed)
}

/// The conservation of kind `k` alone: its copies outside the derived
/// stock are at most its copies (exactly, without a derived stock).
fn deck_of(st: &State, k: usize) -> Res<Bdd> {
    let meta = &*st.meta;
    let facts: Vec<&[VarNo]> = (0..meta.locs)
        .filter(|&l| st.derived != Some(l))
        .map(|l| st.facts[meta.fact(k, l)].as_slice())
        .collect();
    let items = weighted(&facts);
    if st.derived.is_some() {
        sum_le(meta, &items, meta.copies[k])
    } else {
        sum_eq(meta, &items, meta.copies[k])
    }
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

/// The factors of a plain deal's law (`law::plain`), written down
/// without building the law: each pinned location's as dealt, and each
/// open one's "it holds its size, and of each kind at most the copies not
/// pinned elsewhere" (`deal::unpinned`). Each is the law's projection on its location: any
/// such hand leaves cards enough to fill the other locations (every
/// location can hold every kind), so `Deck ∧` these factors is the law
/// that [`split`] would find (a test compares them).
pub(crate) fn of_deal(st: &State, spec: &DealSpec) -> Res<Factors> {
    let meta = &*st.meta;
    let kinds = meta.copies.len();
    let pins = pinned(spec);
    let (left, _) = unpinned(spec);
    let mut parts = Vec::with_capacity(meta.locs);
    for (l, &pinned) in pins.iter().enumerate() {
        if location_vars(st, l).is_empty() {
            parts.push(None);
            continue;
        }
        let fact = |k: usize| st.facts[meta.fact(k, l)].as_slice();
        let part = if pinned {
            let mut acc = meta.top();
            for k in 0..kinds {
                let x = super::vars::vec_of(meta, fact(k))?;
                acc = oom(acc.and(&super::vars::eq_const(meta, &x, spec.actual[l][k])?))?;
            }
            acc
        } else {
            let facts: Vec<&[VarNo]> = (0..kinds).map(fact).collect();
            let mut acc = sum_eq(meta, &weighted(&facts), spec.sizes[l])?;
            for k in (0..kinds).filter(|&k| left[k] < spec.sizes[l]) {
                acc = oom(acc.and(&sum_le(meta, &weighted(&[fact(k)]), left[k])?))?;
            }
            acc
        };
        parts.push(Some(part));
    }
    Ok(Factors {
        deck: deck(st)?,
        parts,
    })
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
    was: &State,
    st: &State,
    result: &Bdd,
    old: &Factors,
    reach: &Reach,
) -> Res<Option<Factors>> {
    if !applies(st) {
        return Ok(None);
    }
    let deck = deck_after(was, st, &old.deck)?;
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

/// A count that a public move changes: the fact and its value after the
/// move (the same in every state where the move happens).
struct Shift {
    fact: usize,
    after: u32,
}

/// The factors after a **public move of known cards**, without the
/// transformer: `None` when the move is not one (the caller runs the
/// general update, which gives the same model, or the same refusal).
///
/// A public move is an event `e` of `em` that every agent tells apart
/// from every other event, so that after the update only the states
/// where `e` happened remain: `θ ∧ pre_e`, with the counts `e` moves
/// changed. When the counts it changes have one value in every state of
/// `θ ∧ pre_e` (Kwartet's "q hands card c to p": q held c, p did not;
/// Go Fish's "q hands these suits of rank r to p"), the update renames
/// no state: it sets those counts to their new values, and every agent
/// still tells two states apart exactly when it did before, since what
/// it observes changed by the same amount everywhere. The new law is
/// then, exactly,
///
/// ```text
/// θ' = Deck ∧ ∧_l F'_l,   F'_l = (F_l ∧ pre_l)[moved_l := before] ∧ (moved_l = after)
/// ```
///
/// where `pre_e = ∧_l pre_l` splits by location (verified by BDD
/// equality). The deck is unchanged: a move between locations with
/// variables keeps every kind's total, so
/// `Deck[moved := before] = Deck[moved := after]`.
///
/// A card **turned up from the derived stock** (Kemps' new table: `e`
/// moves n cards of kind k from the stock to a location whose count of k
/// is known, and `pre_e` is exactly "the stock holds n of k") is the
/// same update with nothing to split: the stock has no variables, and
/// `Deck_k` over the moved count says "the copies outside the stock,
/// these n among them, are at most k's copies", which is
/// `Deck_k[moved := before] ∧ pre_e`. So `θ' = Deck ∧ ∧_l F'_l` with
/// `F'_l` as above and `pre_l` true: the precondition is absorbed by the
/// deck (checked against the general update on random games in
/// `tests.rs`).
///
/// Each condition is checked, and any doubt falls back to the general
/// update:
/// - every agent tells `e` apart from every other event;
/// - `e` moves cards only between locations that are not the derived
///   stock (or is one move out of it, as above, whose precondition is
///   checked by BDD equality; or moves all the cards of a location whose
///   factor leaves one value, each kind's known count, to a location with
///   variables or into the derived stock when it holds every copy of each
///   of its kinds: those kinds are then in no other location, which each
///   factor is told, since the deck no longer says it) and no location
///   keeps a count as a rest. A new count that
///   does not fit its variables (a pile empty at the deal has none) gets
///   its kind's full width in new variables that every agent observes:
///   their value is the same in every state;
/// - each moved count has one value under `Deck_k ∧ ∧_l ∃(others)(F_l ∧
///   pre_l)` for its kind k, a superset of `θ ∧ pre_e` on kind k's counts,
///   so it has one value in `θ ∧ pre_e` too;
/// - no event could move cards that are not there (the general update
///   refuses the whole model then): for each card an event moves out of a
///   location, `F_from ∧ ∃(others) pre ∧ count < needed` is empty, again
///   a superset of the states where it would be missing.
pub(crate) fn public_move(step: &Step) -> Res<Option<Made>> {
    let Step {
        st,
        factors,
        em,
        classes,
        pres,
        e,
        actual,
    } = *step;
    let meta = &*st.meta;
    if !applies(st) || st.rest.iter().any(Option::is_some) {
        return Ok(None);
    }
    if !classes
        .iter()
        .all(|c| c.iter().filter(|&&x| x == c[e]).count() == 1)
    {
        return Ok(None);
    }
    let plain = |l: usize| l < meta.locs && st.derived != Some(l);
    let posts = &em.events[e].post;
    // A card turned up from the derived stock: (kind, how many).
    let mut from_stock: Option<(usize, u32)> = None;
    // The cards e moves: (kind, from, to, how many).
    let mut moves: Vec<(usize, usize, usize, u32)> = Vec::new();
    for p in posts {
        match *p {
            Post::Move { kind, from, to, n } => moves.push((kind, from, to, n)),
            // Every card of a location whose contents everyone knows (a
            // table cleared): each kind's known count moves.
            Post::MoveAll { from, to }
                if posts.len() == 1 && plain(from) && factors.determined(st).contains(&from) =>
            {
                for kind in 0..meta.copies.len() {
                    let n = value_at(st, actual, meta.fact(kind, from));
                    if n > 0 {
                        moves.push((kind, from, to, n));
                    }
                }
            }
            _ => return Ok(None),
        }
    }
    // The kinds a known pile shuffled into the derived stock held: all
    // their copies, so no other location holds one (below).
    let mut into_stock: Vec<usize> = Vec::new();
    // The counts e changes, applied in order from the actual values.
    let mut shifts: Vec<Shift> = Vec::new();
    for (kind, from, to, n) in moves {
        if kind >= meta.copies.len() {
            return Ok(None);
        }
        if !plain(to) {
            let whole = matches!(posts[0], Post::MoveAll { .. });
            if st.derived != Some(to) || !whole || n != meta.copies[kind] {
                return Ok(None);
            }
            into_stock.push(kind);
        }
        if !plain(from) {
            if st.derived != Some(from) || posts.len() != 1 {
                return Ok(None);
            }
            from_stock = Some((kind, n));
        }
        let ends: &[(usize, bool)] = if from_stock.is_some() {
            &[(to, false)]
        } else if plain(to) {
            &[(from, true), (to, false)]
        } else {
            &[(from, true)]
        };
        for &(l, out) in ends {
            let f = meta.fact(kind, l);
            let i = match shifts.iter().position(|s| s.fact == f) {
                Some(i) => i,
                None => {
                    shifts.push(Shift {
                        fact: f,
                        after: value_at(st, actual, f),
                    });
                    shifts.len() - 1
                }
            };
            let s = &mut shifts[i];
            s.after = if out {
                match s.after.checked_sub(n) {
                    Some(x) => x,
                    None => return Ok(None),
                }
            } else {
                s.after.saturating_add(n)
            };
        }
    }
    // A count that outgrows its variables (a pile empty at the deal has
    // none) gets its kind's full width, as in the transformer.
    let fits = |width: usize, x: u32| width >= 32 || x >> width == 0;
    let mut wider: Vec<usize> = Vec::new();
    for s in &shifts {
        if !fits(st.facts[s.fact].len(), s.after) {
            if !fits(meta.full_width(s.fact / meta.locs), s.after) {
                return Ok(None);
            }
            wider.push(s.fact);
        }
    }
    if !no_missing_cards(st, factors, em, pres, e)? {
        return Ok(None);
    }
    let mut pre_at: Vec<Option<Bdd>> = vec![None; meta.locs];
    if let Some((kind, n)) = from_stock {
        // pre_e must be "the stock holds n of the kind" and nothing more:
        // the deck over the moved counts says exactly that.
        let stock = st.derived.expect("a move from the derived stock");
        if pres[e] != count_is(st, stock, kind, Cmp::Ge, n)? {
            return Ok(None);
        }
    } else if !split_by_location(st, &pres[e], &mut pre_at)? {
        return Ok(None);
    }
    let restricted = |l: usize| -> Res<Option<Bdd>> {
        Ok(match (&factors.parts[l], &pre_at[l]) {
            (Some(f), Some(p)) => Some(oom(f.and(p))?),
            (Some(f), None) => Some(f.clone()),
            (None, Some(p)) => Some(p.clone()),
            (None, None) => None,
        })
    };
    let g: Vec<Option<Bdd>> = (0..meta.locs).map(restricted).collect::<Res<_>>()?;
    // Each moved count has one value where e happens.
    let mut kinds: Vec<usize> = shifts.iter().map(|s| s.fact / meta.locs).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for &k in &kinds {
        let mut x = deck_of(st, k)?;
        for l in (0..meta.locs).filter(|&l| plain(l)) {
            let here = &st.facts[meta.fact(k, l)];
            if let (false, Some(gl)) = (here.is_empty(), &g[l]) {
                let mut others = location_vars(st, l);
                others.retain(|v| !here.contains(v));
                x = oom(x.and(&meta.exists(gl, &others)?))?;
            }
        }
        let moved: Vec<VarNo> = shifts
            .iter()
            .filter(|s| s.fact / meta.locs == k)
            .flat_map(|s| st.facts[s.fact].iter().copied())
            .collect();
        let known = meta.assignment(&moved, |v| actual[v as usize])?;
        if oom(x.and(&oom(known.not())?))?.satisfiable() {
            return Ok(None);
        }
    }
    // The new variables of the widened counts: a spare slot next to the
    // old ones. Every agent observes them: their value is the same in
    // every state, so observing them tells no two states apart, and
    // every agent can compute it (as after the transformer, where the
    // agents who can compute a new value observe it).
    let mut state = st.clone();
    for &f in &wider {
        let vars = meta.slot(&state.live, f, meta.full_width(f / meta.locs));
        state.add_live(&vars);
        for o in &mut state.obs {
            o.extend(&vars);
            o.sort_unstable();
            o.dedup();
        }
        let old = std::mem::replace(&mut state.facts[f], vars);
        state.drop_vars(&old);
    }
    // The new factors and actual state.
    let mut next = actual.to_vec();
    next.resize(meta.num_vars(), false);
    let mut parts = factors.parts.clone();
    for (l, part) in parts.iter_mut().enumerate() {
        let here: Vec<&Shift> = shifts.iter().filter(|s| s.fact % meta.locs == l).collect();
        if here.is_empty() {
            if pre_at[l].is_some() {
                *part = g[l].clone();
            }
            continue;
        }
        let mut old: Vec<VarNo> = Vec::new();
        let mut new: Vec<VarNo> = Vec::new();
        for s in &here {
            old.extend(&st.facts[s.fact]);
            for (i, &v) in state.facts[s.fact].iter().enumerate() {
                next[v as usize] = s.after >> i & 1 == 1;
                new.push(v);
            }
        }
        let before = meta.assignment(&old, |v| actual[v as usize])?;
        let after = meta.assignment(&new, |v| next[v as usize])?;
        let rest = match &g[l] {
            Some(gl) => meta.and_exists(gl, &before, &old)?,
            None => meta.top(),
        };
        *part = Some(oom(rest.and(&after))?);
    }
    // A kind shuffled into the stock whole is in no other location: the
    // deck said so while the pile held it, and each factor says so now.
    for &k in &into_stock {
        for (l, part) in parts.iter_mut().enumerate() {
            if !plain(l) || state.facts[meta.fact(k, l)].is_empty() {
                continue;
            }
            let none = count_is(&state, l, k, Cmp::Eq, 0)?;
            *part = Some(match part.take() {
                Some(f) => oom(f.and(&none))?,
                None => none,
            });
        }
    }
    // The deck over the new variables: the same sums.
    let deck = if wider.is_empty() {
        factors.deck.clone()
    } else {
        widened_deck(st, &state, &factors.deck, &wider)?
    };
    {
        use crate::engine::counters::{count, Counter};
        if from_stock.is_some() {
            count(Counter::TurnUp);
        }
        if posts.iter().any(|p| matches!(p, Post::MoveAll { .. })) {
            count(Counter::MoveAll);
        }
        if !into_stock.is_empty() {
            count(Counter::IntoStock);
        }
    }
    Ok(Some(Made {
        state,
        factors: Factors { deck, parts },
        actual: next,
    }))
}

/// Splits `pre` by location into `pre_at` (`∃(V∖vars_l) pre` for each
/// location it reads), verified: false unless `pre` is the conjunction
/// of its parts and reads only the locations' variables.
fn split_by_location(st: &State, pre: &Bdd, pre_at: &mut [Option<Bdd>]) -> Res<bool> {
    let meta = &*st.meta;
    let support = super::walk::support(pre);
    let mut covered = 0;
    let mut joined = meta.top();
    for (l, slot) in pre_at.iter_mut().enumerate() {
        let vars = location_vars(st, l);
        let n = vars
            .iter()
            .filter(|v| support.binary_search(v).is_ok())
            .count();
        if n == 0 {
            continue;
        }
        covered += n;
        // ∃(V∖vars) pre, quantifying only what pre reads.
        let mut out = support.clone();
        out.retain(|v| vars.binary_search(v).is_err());
        let p = meta.exists(pre, &out)?;
        joined = oom(joined.and(&p))?;
        *slot = Some(p);
    }
    Ok(covered == support.len() && joined == *pre)
}

/// A move to be made on the factors (`public_move`, `private_draw`):
/// the model's structure, factors and actual state, the event model with
/// each agent's partition of its events and each event's precondition,
/// and the event that happens.
#[derive(Clone, Copy)]
pub(crate) struct Step<'a> {
    pub st: &'a State,
    pub factors: &'a Factors,
    pub em: &'a EventModel,
    pub classes: &'a [Vec<u32>],
    pub pres: &'a [Bdd],
    pub e: usize,
    pub actual: &'a [bool],
}

/// A model made on the factors without the transformer.
pub(crate) struct Made {
    /// The variables and observations (new ones for a widened count).
    pub state: State,
    /// The law.
    pub factors: Factors,
    /// The actual state.
    pub actual: Vec<bool>,
}

/// The count of fact `f` in the state `actual`.
fn value_at(st: &State, actual: &[bool], f: usize) -> u32 {
    st.facts[f]
        .iter()
        .enumerate()
        .map(|(i, &v)| u32::from(actual[v as usize]) << i)
        .sum()
}

/// The states where `loc` holds `cmp n` copies of `kind`.
fn count_is(st: &State, loc: usize, kind: usize, cmp: Cmp, n: u32) -> Res<Bdd> {
    super::law::atom(
        st,
        &Atom::Count {
            loc,
            kinds: vec![kind],
            cmp,
            n,
        },
    )
}

/// Whether no event of `em` can move cards that are not there, by a
/// sufficient test on one location's factor at a time (see
/// [`public_move`]); `e`, the actual event, is checked there on its known
/// counts. False also when an event moves cards in a way the test does
/// not cover.
fn no_missing_cards(
    st: &State,
    factors: &Factors,
    em: &EventModel,
    pres: &[Bdd],
    e: usize,
) -> Res<bool> {
    let meta = &*st.meta;
    for (i, event) in em.events.iter().enumerate() {
        if i == e || !pres[i].satisfiable() {
            continue;
        }
        // (kind, from) → the copies needed there.
        let mut need: Vec<((usize, usize), u32)> = Vec::new();
        let mut into: Vec<(usize, usize)> = Vec::new();
        for p in &event.post {
            let Post::Move { kind, from, to, n } = *p else {
                return Ok(false);
            };
            if from >= meta.locs || to >= meta.locs || st.derived == Some(from) {
                return Ok(false);
            }
            if into.contains(&(kind, from)) {
                return Ok(false);
            }
            into.push((kind, to));
            match need.iter_mut().find(|(x, _)| *x == (kind, from)) {
                Some((_, m)) => *m = m.saturating_add(n),
                None => need.push(((kind, from), n)),
            }
        }
        for ((kind, from), n) in need {
            let short = count_is(st, from, kind, Cmp::Lt, n)?;
            // `short` and the factor read `from` alone, so meeting them
            // with pre_i is meeting them with its projection on `from`.
            let mut x = oom(short.and(&pres[i]))?;
            if let Some(f) = &factors.parts[from] {
                x = oom(x.and(f))?;
            }
            if x.satisfiable() {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The factors after a **private draw** from the derived stock, without
/// the transformer: `None` when the move is not one (the caller runs the
/// general update, which gives the same model).
///
/// A private draw has an event for each kind c that can be drawn, with
/// precondition "the stock holds a c" and postcondition "one c moves from
/// the stock to location h"; one agent (the drawer) tells every event
/// apart and every other agent none. When the drawer observes every
/// variable of h and no other agent observes any, the new law is
/// exactly
///
/// ```text
/// θ' = Deck ∧ F'_h ∧ ∧_{l≠h} F_l,   F'_h(H) = ∨_c (H_c ≥ 1 ∧ F_h(H - c))
/// ```
///
/// with the drawer observing its new hand: the map (s, c) ↦ s + c from
/// the product update onto θ' is a bisimulation. Forth: the others observe
/// nothing that changed; the drawer saw c and its old hand, so its new
/// hand. Back: a state u' of θ' that agrees with s + c on what an agent
/// observes is u + c for u = u' - c at h, a state of θ where the stock
/// holds c (`Deck(H - c, O) ∧ stock holds c` is `Deck(H, O)` when
/// `H_c ≥ 1`: the deck says "at most the copies" outside the stock), and
/// u agrees with s on what the agent observes (the drawer: its old hand
/// is H - c in both). So the drawer's old hand need not be remembered,
/// which the general update finds out by a test on the whole law (the
/// cleanup's step 4). Checked: the preconditions are exactly "the stock
/// holds c" (BDD equality), h keeps no rest, and no count at h can
/// outgrow its variables.
pub(crate) fn private_draw(step: &Step) -> Res<Option<Made>> {
    let Step {
        st,
        factors,
        em,
        classes,
        pres,
        e,
        actual,
    } = *step;
    let meta = &*st.meta;
    let Some(stock) = st.derived else {
        return Ok(None);
    };
    if !applies(st) || st.rest.iter().any(Option::is_some) || em.events.is_empty() {
        return Ok(None);
    }
    // One drawer, who tells every event apart; nobody else tells any.
    let n = em.events.len();
    let all_apart = |c: &Vec<u32>| {
        let mut d = c.clone();
        d.sort_unstable();
        d.dedup();
        d.len() == n
    };
    let drawers: Vec<usize> = (0..classes.len())
        .filter(|&a| all_apart(&classes[a]))
        .collect();
    let [drawer] = drawers[..] else {
        return Ok(None);
    };
    if (0..classes.len()).any(|a| a != drawer && classes[a].iter().any(|&c| c != classes[a][0])) {
        return Ok(None);
    }
    // Each event: one card of its own kind from the stock to h.
    let mut kinds: Vec<usize> = Vec::with_capacity(n);
    let mut hand = None;
    for (i, event) in em.events.iter().enumerate() {
        let [Post::Move {
            kind,
            from,
            to,
            n: 1,
        }] = event.post[..]
        else {
            return Ok(None);
        };
        if from != stock || to == stock || to >= meta.locs || kind >= meta.copies.len() {
            return Ok(None);
        }
        if *hand.get_or_insert(to) != to || kinds.contains(&kind) {
            return Ok(None);
        }
        if count_is(st, stock, kind, Cmp::Ge, 1)? != pres[i] {
            return Ok(None);
        }
        kinds.push(kind);
    }
    let Some(h) = hand else {
        return Ok(None);
    };
    // The drawer observes all of h, nobody else any of it.
    let vars = location_vars(st, h);
    let seen = |a: usize, v: &VarNo| st.obs[a].binary_search(v).is_ok();
    if !vars.iter().all(|v| seen(drawer, v))
        || (0..st.obs.len()).any(|a| a != drawer && vars.iter().any(|v| seen(a, v)))
    {
        return Ok(None);
    }
    let Some(f) = &factors.parts[h] else {
        return Ok(None);
    };
    let count_is = |bits: &[VarNo], x: u32| {
        meta.assignment(bits, |v| {
            let i = bits.iter().position(|&b| b == v).unwrap_or(0);
            x >> i & 1 == 1
        })
    };
    // Distinct cards (one bit a count, one copy a kind): one pass.
    let one_bit = kinds
        .iter()
        .all(|&k| meta.copies[k] == 1 && st.facts[meta.fact(k, h)].len() == 1);
    let mut terms: Vec<Bdd> = Vec::new();
    if one_bit {
        let mut draw: Vec<VarNo> = kinds
            .iter()
            .map(|&k| st.facts[meta.fact(k, h)][0])
            .collect();
        draw.sort_unstable();
        terms.push(super::walk::shift_in(meta, f, &draw)?);
    }
    for &k in kinds.iter().filter(|_| !one_bit) {
        let bits = &st.facts[meta.fact(k, h)];
        if bits.len() >= 32 {
            return Ok(None);
        }
        let top = (1u32 << bits.len()) - 1;
        // A count already at the most its variables hold could overflow,
        // unless that is all the copies (then the stock has none).
        if top < meta.copies[k] && oom(f.and(&count_is(bits, top)?))?.satisfiable() {
            return Ok(None);
        }
        for v in 1..=top.min(meta.copies[k]) {
            let before = meta.and_exists(f, &count_is(bits, v - 1)?, bits)?;
            terms.push(oom(before.and(&count_is(bits, v)?))?);
        }
    }
    // The disjunction in pairs: each term is a cofactor of F_h, and
    // joining them one by one would carry the growing disjunction
    // through every step.
    while terms.len() > 1 {
        let mut paired = Vec::with_capacity(terms.len().div_ceil(2));
        for pair in terms.chunks(2) {
            paired.push(match pair {
                [a, b] => oom(a.or(b))?,
                [a] => a.clone(),
                _ => unreachable!("chunks of two"),
            });
        }
        terms = paired;
    }
    let next_part = terms.pop().unwrap_or_else(|| meta.bot());
    let mut next = actual.to_vec();
    let bits = &st.facts[meta.fact(kinds[e], h)];
    let old = value_at(st, actual, meta.fact(kinds[e], h));
    for (i, &v) in bits.iter().enumerate() {
        next[v as usize] = (old + 1) >> i & 1 == 1;
    }
    let mut parts = factors.parts.clone();
    parts[h] = Some(next_part);
    Ok(Some(Made {
        state: st.clone(),
        factors: Factors {
            deck: factors.deck.clone(),
            parts,
        },
        actual: next,
    }))
}
