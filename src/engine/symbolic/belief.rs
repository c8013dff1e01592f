//! Belief structures: a knowledge structure whose agents' relations are
//! not all "agrees on what I observe" (as in SMCDEL's K structures).
//!
//! A belief structure `(V, θ, O₁…Oₙ, W, Ω₁…Ωₙ)` keeps the knowledge
//! structure's variables, law and observations, and adds belief
//! variables W (the event variables of the belief events applied so far)
//! and for each agent a relation Ω_a over two copies of them: `W*`, the
//! value at the state the agent is in, and W, at the state it considers.
//! Agent a considers t possible at s iff s and t agree on `O_a` and
//! `Ω_a(s(W) as W*, t(W))`. A knowledge structure is the case W = ∅; the
//! product update with an event model `(E, R, pre, post)` is the
//! transformer of `transform::belief_transform` (fresh ē, the new law
//! and postconditions) and `Ω'_a = Ω_a ∧ R_a(ē*, ē)`: a pair (s, e) and
//! (t, f) are a-related iff s and t are and e R_a f, the product's
//! relation. Only W gets a second copy: the observed variables need none
//! (they are shared by s and t), so a relation costs the few event bits
//! of the belief events, not a doubled deal.
//!
//! `K_a φ` is `¬(∃(V∖O_a)(θ ∧ Ω_a ∧ ¬φ))[W* := W]`: quantify what a does
//! not observe (t's values, W among them) and read s's W back off W*.
//! E, C (a greatest fixpoint), D (observations pooled, the Ω's
//! conjoined), announcements and updates inside formulas follow.
//!
//! A model enters this representation at the first event model whose
//! relation is not an equivalence (`SymbolicModel::apply`); every S5
//! model keeps its knowledge structure. After an update, variables every
//! agent observes take their actual value and history variables that no
//! agent observes and no Ω reads are quantified out: both keep every
//! state's bisimulation class.

use std::cell::OnceCell;
use std::rc::Rc;

use num_bigint::BigUint;
use oxidd::Subst;
use oxidd::{BooleanFunction, BooleanFunctionQuant, Function, FunctionSubst, VarNo};

use super::counts;
use super::derived;
use super::eval::Atoms;
use super::transform;
use super::vars::{eq_const, oom, vec_of, Bdd, Res, State};
use super::walk;
use super::SymbolicLimits;
use crate::engine::event::{EventId, EventModel, Relation};
use crate::engine::formula::{Agent, Formula};
use crate::engine::translate::Lister;
use crate::engine::{Backend, EngineError, ExplicitModel, Representation, WorldId, WorldView};

/// The belief part of a structure: the belief variables, their copies
/// and each agent's relation on them.
#[derive(Clone)]
pub(crate) struct Beliefs {
    /// The belief variables W, in the order they were made.
    pub w: Vec<VarNo>,
    /// `star[i]`: the copy of `w[i]` that holds the value at the state an
    /// agent is in (never in the vocabulary: no state has it).
    pub star: Vec<VarNo>,
    /// Ω_a over `star` and `w`, one per agent.
    pub omega: Vec<Bdd>,
}

/// A structure with its belief part, as an evaluation reads it.
#[derive(Clone)]
struct Structure {
    st: State,
    bel: Beliefs,
}

/// A belief structure behind the [`Backend`] interface. Cheap to clone,
/// immutable.
#[derive(Clone)]
pub struct BeliefModel {
    inner: Rc<Inner>,
}

struct Inner {
    s: Structure,
    law: Bdd,
    /// The actual state's value of every variable (by number).
    actual: Vec<bool>,
    limits: SymbolicLimits,
    reach: OnceCell<Bdd>,
    /// Each agent's successors of the actual state (made when first asked).
    considered: Vec<OnceCell<Bdd>>,
    /// States and distinct present values among the reachable states.
    counts: OnceCell<(BigUint, BigUint)>,
    listed: OnceCell<Option<ExplicitModel>>,
    atoms: Atoms,
}

impl std::fmt::Debug for BeliefModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BeliefModel")
            .field("variables", &self.inner.s.st.live.len())
            .field("belief variables", &self.inner.s.bel.w.len())
            .finish()
    }
}

/// The most relation pairs a listing writes out (beyond it the model is
/// not listed): a listing of 200,000 worlds where an agent considers
/// them all would have 4·10^10.
const MOST_PAIRS: usize = 20_000_000;

/// Whether some relation of `em` is not an equivalence (a belief event model).
pub(crate) fn is_belief(em: &EventModel) -> bool {
    !matches!(crate::engine::translate::event_classes(em), Ok(Some(_)))
}

/// Whether `f` applies a belief event model somewhere.
pub(crate) fn needs_beliefs(f: &Formula) -> bool {
    f.any_update(|ms| ms.iter().any(is_belief))
}

/// Each agent's successor lists of the events of `em`, checked as the
/// explicit engine checks them.
fn event_successors(st: &State, em: &EventModel) -> Res<Vec<Vec<Vec<usize>>>> {
    let bad = |why: String| EngineError::Malformed(format!("event model `{}`: {why}", em.name));
    let n = em.events.len();
    if em.relations.len() != st.obs.len() {
        return Err(bad(format!(
            "{} relations for {} agents",
            em.relations.len(),
            st.obs.len()
        )));
    }
    if let Some(e) = em.designated.iter().find(|&&e| e >= n) {
        return Err(bad(format!("designated event {e} out of range")));
    }
    em.relations
        .iter()
        .map(|r| match r {
            Relation::Partition(class) if class.len() == n => Ok((0..n)
                .map(|e| (0..n).filter(|&f| class[f] == class[e]).collect())
                .collect()),
            Relation::Partition(class) => Err(bad(format!(
                "a partition of {} elements, expected {n}",
                class.len()
            ))),
            Relation::General(succ) if succ.len() == n => {
                if let Some(y) = succ.iter().flatten().find(|&&y| y >= n) {
                    return Err(bad(format!(
                        "successor {y} out of range (fewer than {n} elements)"
                    )));
                }
                Ok(succ.clone())
            }
            Relation::General(succ) => Err(bad(format!(
                "successor lists for {} elements, expected {n}",
                succ.len()
            ))),
        })
        .collect()
}

/// The classes of an agent's relation on the events `kept` (renumbered
/// from 0 in order), when it is an equivalence there.
fn classes_of(succ: &[Vec<usize>], kept: &[usize]) -> Option<Vec<u32>> {
    let related = |x: usize, y: usize| succ[x].contains(&y);
    for &x in kept {
        for &y in kept {
            if related(x, y) != related(y, x) {
                return None;
            }
            if related(x, y) && kept.iter().any(|&z| related(y, z) && !related(x, z)) {
                return None;
            }
        }
        if !related(x, x) {
            return None;
        }
    }
    let mut class: Vec<u32> = Vec::with_capacity(kept.len());
    for (i, &x) in kept.iter().enumerate() {
        let c = (0..i)
            .find(|&j| related(x, kept[j]))
            .map_or_else(|| class.iter().max().map_or(0, |&m| m + 1), |j| class[j]);
        class.push(c);
    }
    Some(class)
}

/// The events reachable from `e` along the agents' arrows, in order.
fn reachable_events(succ: &[Vec<Vec<usize>>], n: usize, e: usize) -> Vec<usize> {
    let mut keep = vec![false; n];
    keep[e] = true;
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        for s in succ {
            for &y in &s[x] {
                if !keep[y] {
                    keep[y] = true;
                    stack.push(y);
                }
            }
        }
    }
    (0..n).filter(|&f| keep[f]).collect()
}

/// A transformed belief structure, before any cleanup.
struct Updated {
    s: Structure,
    law: Bdd,
    designated: Bdd,
    /// The new variables of the states (event bits, new values).
    fresh: Vec<VarNo>,
    event_bits: Vec<VarNo>,
    defs: Vec<(VarNo, Bdd)>,
    kept: Vec<EventId>,
}

impl Structure {
    /// `Ω_a`, or for a group the conjunction of its members' (⊤ for none).
    fn omega(&self, group: &[Agent]) -> Res<Bdd> {
        let mut acc = self.st.meta.top();
        for &a in group {
            self.st.observed(a)?;
            acc = oom(acc.and(&self.bel.omega[a]))?;
        }
        Ok(acc)
    }

    /// `x[W* := W]`.
    fn unstar(&self, x: &Bdd) -> Res<Bdd> {
        if self.bel.w.is_empty() {
            return Ok(x.clone());
        }
        let ws = self
            .bel
            .w
            .iter()
            .map(|&v| self.st.meta.var(v))
            .collect::<Res<Vec<_>>>()?;
        let subst = Subst::new(self.bel.star.clone(), ws);
        oom(x.substitute(&subst))
    }

    /// `x[stars := ws]`.
    fn unstar_some(&self, x: &Bdd, stars: &[VarNo], ws: &[VarNo]) -> Res<Bdd> {
        if stars.is_empty() {
            return Ok(x.clone());
        }
        let ws = ws
            .iter()
            .map(|&v| self.st.meta.var(v))
            .collect::<Res<Vec<_>>>()?;
        let subst = Subst::new(stars.to_vec(), ws);
        oom(x.substitute(&subst))
    }

    /// The belief variables `observed` leaves out, and their copies.
    fn unobserved(&self, observed: &[VarNo]) -> (Vec<VarNo>, Vec<VarNo>) {
        self.bel
            .w
            .iter()
            .zip(&self.bel.star)
            .filter(|(w, _)| observed.binary_search(w).is_err())
            .map(|(&w, &s)| (w, s))
            .unzip()
    }

    /// `x[W := W*]` for the belief variables `ws` and their copies `stars`.
    fn star(&self, x: &Bdd, ws: &[VarNo], stars: &[VarNo]) -> Res<Bdd> {
        if ws.is_empty() {
            return Ok(x.clone());
        }
        let stars = stars
            .iter()
            .map(|&v| self.st.meta.var(v))
            .collect::<Res<Vec<_>>>()?;
        let subst = Subst::new(ws.to_vec(), stars);
        oom(x.substitute(&subst))
    }

    /// The states with a `group`-successor (relations intersected, as
    /// for D) in `s`: `(∃(V∖O)(θ ∧ Ω ∧ s))[W* := W]`.
    fn possible(&self, law: &Bdd, group: &[Agent], s: &Bdd) -> Res<Bdd> {
        let seen = self.st.union_obs(group)?;
        let hidden = self.st.live_except(&seen);
        let omega = self.omega(group)?;
        let meta = &*self.st.meta;
        if omega.valid() {
            return meta.and_exists(law, s, &hidden);
        }
        let lo = oom(law.and(&omega))?;
        self.unstar(&meta.and_exists(&lo, s, &hidden)?)
    }

    /// The states all of whose `group`-successors are in `s`.
    fn knows(&self, law: &Bdd, group: &[Agent], s: &Bdd) -> Res<Bdd> {
        oom(self.possible(law, group, &oom(s.not())?)?.not())
    }

    /// The states of θ that some state of `set` has as an a-successor.
    fn successors(&self, law: &Bdd, a: Agent, set: &Bdd) -> Res<Bdd> {
        let st = &self.st;
        let meta = &*st.meta;
        let seen = st.observed(a)?;
        let (ws, stars) = self.unobserved(seen);
        let mut keep: Vec<VarNo> = seen.to_vec();
        keep.extend(&ws);
        keep.sort_unstable();
        let projected = meta.exists(set, &st.live_except(&keep))?;
        // A belief variable a observes (the cleanup may have made a
        // observe one its observations determine) has one value at both
        // ends of a step.
        let (seen_w, seen_star): (Vec<VarNo>, Vec<VarNo>) = self
            .bel
            .w
            .iter()
            .zip(&self.bel.star)
            .filter(|(w, _)| seen.binary_search(w).is_ok())
            .map(|(&w, &s)| (w, s))
            .unzip();
        let omega = &self.unstar_some(&self.bel.omega[a], &seen_star, &seen_w)?;
        let image = if omega.valid() {
            meta.exists(&projected, &ws)?
        } else {
            meta.and_exists(&self.star(&projected, &ws, &stars)?, omega, &stars)?
        };
        oom(law.and(&image))
    }

    /// The truth set of `f` under `law`.
    fn truth(&self, law: &Bdd, f: &Formula, atoms: &Atoms) -> Res<Bdd> {
        crate::engine::cancel::check()?;
        let meta = &*self.st.meta;
        let ev = |g: &Formula| self.truth(law, g, atoms);
        Ok(match f {
            Formula::Top => meta.top(),
            Formula::Bottom => meta.bot(),
            Formula::Atom(a) => atoms.get(&self.st, a)?,
            Formula::Not(g) => oom(ev(g)?.not())?,
            Formula::And(gs) => {
                let mut acc = meta.top();
                for g in gs {
                    acc = oom(acc.and(&ev(g)?))?;
                }
                acc
            }
            Formula::Or(gs) => {
                let mut acc = meta.bot();
                for g in gs {
                    acc = oom(acc.or(&ev(g)?))?;
                }
                acc
            }
            Formula::Implies(a, b) => oom(ev(a)?.imp(&ev(b)?))?,
            Formula::Iff(a, b) => oom(ev(a)?.equiv(&ev(b)?))?,
            Formula::K(a, g) => self.knows(law, &[*a], &ev(g)?)?,
            Formula::M(a, g) => self.possible(law, &[*a], &ev(g)?)?,
            Formula::Kw(a, g) => {
                let s = ev(g)?;
                let yes = self.knows(law, &[*a], &s)?;
                oom(yes.or(&self.knows(law, &[*a], &oom(s.not())?)?))?
            }
            Formula::E(g, h) => self.everybody(law, g, &ev(h)?)?,
            Formula::C(g, h) => {
                let s = ev(h)?;
                let mut x = law.clone();
                loop {
                    crate::engine::cancel::check()?;
                    let next = oom(self.everybody(law, g, &oom(s.and(&x))?)?.and(law))?;
                    if next == x {
                        break x;
                    }
                    x = next;
                }
            }
            Formula::D(g, h) => self.knows(law, g, &ev(h)?)?,
            Formula::Announce(psi, phi) | Formula::AnnounceDiamond(psi, phi) => {
                let ps = ev(psi)?;
                let inner = self.truth(&oom(law.and(&ps))?, phi, atoms)?;
                if matches!(f, Formula::Announce(..)) {
                    oom(ps.imp(&inner))?
                } else {
                    oom(ps.and(&inner))?
                }
            }
            Formula::Update(models, phi) => self.update_in(law, models, phi, false, atoms)?,
            Formula::UpdateDiamond(models, phi) => self.update_in(law, models, phi, true, atoms)?,
        })
    }

    /// The truth sets of the preconditions of `em` under `law`.
    fn pres(&self, law: &Bdd, em: &EventModel, atoms: &Atoms) -> Res<Vec<Bdd>> {
        em.events
            .iter()
            .map(|e| self.truth(law, &e.pre, atoms))
            .collect()
    }

    /// E_G: every agent of G knows (true for the empty group).
    fn everybody(&self, law: &Bdd, g: &[Agent], s: &Bdd) -> Res<Bdd> {
        let mut acc = self.st.meta.top();
        for &a in g {
            acc = oom(acc.and(&self.knows(law, &[a], s)?))?;
        }
        Ok(acc)
    }

    /// `[E₁;…;Eₙ]φ` or `⟨E₁;…;Eₙ⟩φ`: φ in the transformed structure, mapped
    /// back over the new variables through the designated events.
    fn update_in(
        &self,
        law: &Bdd,
        models: &[EventModel],
        phi: &Formula,
        diamond: bool,
        atoms: &Atoms,
    ) -> Res<Bdd> {
        let meta = &*self.st.meta;
        let mut cur = self.clone();
        let mut cur_law = law.clone();
        let mut chosen = meta.top();
        let mut fresh: Vec<VarNo> = Vec::new();
        let mut own_atoms: Option<Atoms> = None;
        for em in models {
            let at = own_atoms.as_ref().unwrap_or(atoms);
            let pres = cur.pres(&cur_law, em, at)?;
            let u = cur.transform(&cur_law, em, pres, None)?;
            chosen = oom(chosen.and(&u.designated))?;
            fresh.extend(&u.fresh);
            cur = u.s;
            cur_law = u.law;
            own_atoms = Some(Atoms::default());
        }
        let at = own_atoms.as_ref().unwrap_or(atoms);
        let truth = cur.truth(&cur_law, phi, at)?;
        let context = oom(cur_law.and(&chosen))?;
        if fresh.is_empty() {
            return if diamond {
                oom(context.and(&truth))
            } else {
                oom(context.imp(&truth))
            };
        }
        let cube = meta.cube(&fresh)?;
        if diamond {
            oom(context.apply_exists(oxidd::BooleanOperator::And, &truth, &cube))
        } else {
            oom(context.apply_forall(oxidd::BooleanOperator::Imp, &truth, &cube))
        }
    }

    /// The product update's transformer: `pres` are the preconditions
    /// under `law`; with `actual`, only the events reachable from it
    /// along the agents' arrows are kept (the others give states
    /// unreachable from the actual one).
    fn transform(
        &self,
        law: &Bdd,
        em: &EventModel,
        pres: Vec<Bdd>,
        actual: Option<EventId>,
    ) -> Res<Updated> {
        let succ = event_successors(&self.st, em)?;
        let n = em.events.len();
        let plain_sets = em.events.iter().all(|e| {
            e.post
                .iter()
                .all(|p| !matches!(p, crate::engine::Post::Set(_, f) if super::local::modal(f)))
        });
        if plain_sets && !is_belief(em) {
            // Every relation an equivalence: the knowledge transformer,
            // whose agents observe their class of the event (observing
            // it is the product's relation on the events), and Ω stays.
            let t = transform::transform(&self.st, law, em, Some(pres), actual, true)?;
            return Ok(Updated {
                s: Structure {
                    st: t.state,
                    bel: self.bel.clone(),
                },
                law: t.law,
                designated: t.designated,
                fresh: t.fresh,
                event_bits: t.event_bits,
                defs: t.defs,
                kept: t.kept,
            });
        }
        let kept = match actual {
            Some(e) => reachable_events(&succ, n, e),
            None => (0..n).collect(),
        };
        let atoms = Atoms::default();
        let truth = |phi: &Formula| self.truth(law, phi, &atoms);
        let t =
            transform::belief_transform(&self.st, law, em, pres, &kept, actual.is_some(), &truth)?;
        let meta = &*self.st.meta;
        let bits = t.event_bits.clone();
        let star = meta.fresh(bits.len());
        let index_of = |e: EventId| kept.iter().position(|&k| k == e);
        let now = vec_of(meta, &bits)?;
        let before = vec_of(meta, &star)?;
        let mut bel = self.bel.clone();
        let mut st = t.state;
        let mut law = t.law;
        let mut fresh = t.fresh;
        let mut defs = t.defs;
        let is_event: Vec<Bdd> = (0..kept.len())
            .map(|i| eq_const(meta, &now, i as u32))
            .collect::<Res<_>>()?;
        let mut made: Vec<(Vec<u32>, Vec<VarNo>)> = Vec::new();
        for (a, s) in succ.iter().enumerate() {
            // An agent whose relation on the kept events is an
            // equivalence observes its class of the event (all of ē when
            // it tells every event apart), as in a knowledge structure;
            // only the others get a conjunct of Ω.
            if let Some(class) = classes_of(s, &kept) {
                let count = class.iter().max().map_or(0, |&c| c as usize + 1);
                let seen: Vec<VarNo> = if count == kept.len() {
                    bits.clone()
                } else if count <= 1 {
                    Vec::new()
                } else if let Some((_, vars)) = made.iter().find(|(c, _)| *c == class) {
                    vars.clone()
                } else {
                    let vars = meta.fresh(super::vars::width_for(count as u32 - 1));
                    for (i, &v) in vars.iter().enumerate() {
                        let mut value = meta.bot();
                        for (e, &c) in class.iter().enumerate() {
                            if c >> i & 1 == 1 {
                                value = oom(value.or(&is_event[e]))?;
                            }
                        }
                        law = oom(law.and(&oom(meta.var(v)?.equiv(&value))?))?;
                        defs.push((v, value));
                    }
                    st.add_live(&vars);
                    fresh.extend(&vars);
                    made.push((class, vars.clone()));
                    vars
                };
                st.obs[a].extend(seen);
                st.obs[a].sort_unstable();
                st.obs[a].dedup();
                continue;
            }
            let mut r = meta.bot();
            for (i, &e) in kept.iter().enumerate() {
                let mut to = meta.bot();
                for &f in &s[e] {
                    if let Some(j) = index_of(f) {
                        to = oom(to.or(&eq_const(meta, &now, j as u32)?))?;
                    }
                }
                r = oom(r.or(&oom(eq_const(meta, &before, i as u32)?.and(&to))?))?;
            }
            bel.omega[a] = oom(bel.omega[a].and(&r))?;
        }
        bel.w.extend(&bits);
        bel.star.extend(&star);
        Ok(Updated {
            s: Structure { st, bel },
            law,
            designated: t.designated,
            fresh,
            event_bits: bits,
            defs,
            kept,
        })
    }
}

impl BeliefModel {
    /// The belief structure of a knowledge structure: W empty.
    pub(crate) fn of_knowledge(
        st: State,
        law: Bdd,
        actual: Vec<bool>,
        limits: SymbolicLimits,
    ) -> BeliefModel {
        let omega = vec![st.meta.top(); st.obs.len()];
        let s = Structure {
            st,
            bel: Beliefs {
                w: Vec::new(),
                star: Vec::new(),
                omega,
            },
        };
        BeliefModel::new(s, law, actual, limits)
    }

    fn new(s: Structure, law: Bdd, actual: Vec<bool>, limits: SymbolicLimits) -> BeliefModel {
        let agents = s.st.obs.len();
        BeliefModel {
            inner: Rc::new(Inner {
                s,
                law,
                actual,
                limits,
                reach: OnceCell::new(),
                considered: (0..agents).map(|_| OnceCell::new()).collect(),
                counts: OnceCell::new(),
                listed: OnceCell::new(),
                atoms: Atoms::default(),
            }),
        }
    }

    fn st(&self) -> &State {
        &self.inner.s.st
    }

    /// The number of belief variables (event bits of belief events kept).
    pub fn belief_variables(&self) -> usize {
        self.inner.s.bel.w.len()
    }

    fn retry<T>(&self, op: impl Fn() -> Res<T>) -> Res<T> {
        self.st().meta.retry(op)
    }

    /// The states reachable from the actual state along every agent's
    /// relation (computed once).
    fn reach(&self) -> Res<Bdd> {
        if let Some(r) = self.inner.reach.get() {
            return Ok(r.clone());
        }
        let s = &self.inner.s;
        let st = &s.st;
        let law = &self.inner.law;
        let start = oom(law.and(
            &st.meta
                .assignment(&st.live, |v| self.inner.actual[v as usize])?,
        ))?;
        let agents = st.obs.len();
        let mut reached = start;
        let mut unchanged = 0;
        let mut i = 0;
        while agents > 0 && unchanged < agents {
            crate::engine::cancel::check()?;
            let next = oom(reached.or(&s.successors(law, i, &reached)?))?;
            // A step of a belief relation is not idempotent (unlike a
            // knowledge structure's): every agent, the one that just
            // added states included, must add nothing in a row.
            if next == reached {
                unchanged += 1;
            } else {
                unchanged = 0;
                reached = next;
            }
            i = (i + 1) % agents;
        }
        Ok(self.inner.reach.get_or_init(|| reached).clone())
    }

    /// The law to evaluate `f` under: the reachable states when `f`
    /// reads the whole model, else θ.
    fn law_for(&self, f: &Formula) -> Res<Bdd> {
        if super::reads_whole_model(f) {
            self.reach()
        } else {
            Ok(self.inner.law.clone())
        }
    }

    fn at_actual(&self, t: &Bdd) -> bool {
        walk::value_at(t, &self.inner.actual)
    }

    /// Whether `f` holds at the actual state: its boolean structure and
    /// its outermost K, M and Kw read at the actual state (`K_a φ`: no
    /// state of a's considered set lies outside φ's truth set), anything
    /// else through its truth set.
    fn holds_here(&self, f: &Formula) -> Res<bool> {
        let at = |g: &Formula| self.holds_here(g);
        Ok(match f {
            Formula::Top => true,
            Formula::Bottom => false,
            Formula::Not(g) => !at(g)?,
            Formula::And(gs) => {
                for g in gs {
                    if !at(g)? {
                        return Ok(false);
                    }
                }
                true
            }
            Formula::Or(gs) => {
                for g in gs {
                    if at(g)? {
                        return Ok(true);
                    }
                }
                false
            }
            Formula::Implies(a, b) => !at(a)? || at(b)?,
            Formula::Iff(a, b) => at(a)? == at(b)?,
            Formula::K(a, g) => !self.meets(*a, &oom(self.set_of(g)?.not())?)?,
            Formula::M(a, g) => self.meets(*a, &self.set_of(g)?)?,
            Formula::Kw(a, g) => {
                let t = self.set_of(g)?;
                !self.meets(*a, &oom(t.not())?)? || !self.meets(*a, &t)?
            }
            _ => self.at_actual(&self.set_of(f)?),
        })
    }

    /// The truth set of `f` (under the reachable states when it reads the
    /// whole model).
    fn set_of(&self, f: &Formula) -> Res<Bdd> {
        let law = self.law_for(f)?;
        self.inner.s.truth(&law, f, &self.inner.atoms)
    }

    /// Whether some state agent a considers possible at the actual state lies in `s`.
    fn meets(&self, a: Agent, s: &Bdd) -> Res<bool> {
        Ok(oom(self.considered(a)?.and(s))?.satisfiable())
    }

    /// The states a considers possible at the actual state: θ, what a
    /// observes as it is, and Ω_a with the actual belief values as W*
    /// (kept with the model).
    fn considered(&self, a: Agent) -> Res<Bdd> {
        let inner = &*self.inner;
        let st = &inner.s.st;
        st.observed(a)?;
        if let Some(c) = inner.considered[a].get() {
            return Ok(c.clone());
        }
        let meta = &*st.meta;
        let bel = &inner.s.bel;
        let here = meta.assignment(st.observed(a)?, |v| inner.actual[v as usize])?;
        let was = |v: VarNo| {
            bel.star
                .iter()
                .position(|&x| x == v)
                .is_some_and(|i| inner.actual[bel.w[i] as usize])
        };
        let from = meta.assignment(&bel.star, was)?;
        let omega = meta.and_exists(&bel.omega[a], &from, &bel.star)?;
        let c = oom(oom(inner.law.and(&here))?.and(&omega))?;
        Ok(inner.considered[a].get_or_init(|| c).clone())
    }

    /// States and distinct present values among the reachable states (or
    /// among those `agent` considers possible at the actual state).
    fn state_counts(&self, agent: Option<Agent>) -> Res<(BigUint, BigUint)> {
        if agent.is_none() {
            if let Some(c) = self.inner.counts.get() {
                return Ok(c.clone());
            }
        }
        let st = self.st();
        let set = match agent {
            None => self.reach()?,
            Some(a) => {
                let here = st
                    .meta
                    .assignment(&st.live, |v| self.inner.actual[v as usize])?;
                let here = oom(self.inner.law.and(&here))?;
                self.inner.s.successors(&self.inner.law, a, &here)?
            }
        };
        let r = counts::state_and_value_counts(st, &set)?;
        if agent.is_none() {
            let _ = self.inner.counts.set(r.clone());
        }
        Ok(r)
    }

    /// The listed model, when the reachable states are at most
    /// `limits.list` and their relations not too many pairs.
    fn listed(&self) -> Option<&ExplicitModel> {
        self.inner
            .listed
            .get_or_init(|| {
                let (states, _) = self.retry(|| self.state_counts(None)).ok()?;
                if walk::saturate(&states) > self.inner.limits.list {
                    return None;
                }
                let reach = self.retry(|| self.reach()).ok()?;
                self.materialize(&reach).ok().flatten()
            })
            .as_ref()
    }

    /// The states of `set` as an explicit model: one world per state,
    /// agent a's successors the states that agree on `O_a` and whose
    /// belief variables Ω_a relates; contracted. `None` when the
    /// relations would have more than [`MOST_PAIRS`] pairs.
    fn materialize(&self, set: &Bdd) -> Res<Option<ExplicitModel>> {
        let s = &self.inner.s;
        let st = &s.st;
        let meta = &*st.meta;
        let vocab = &st.live;
        let pos = |v: VarNo| vocab.binary_search(&v).ok();
        let super::counts::Positions {
            fact: fact_pos,
            prop: prop_pos,
            obs: obs_pos,
        } = super::counts::Positions::of(st);
        let w_pos: Vec<Option<usize>> = s.bel.w.iter().map(|&v| pos(v)).collect();
        let target: Vec<bool> = vocab
            .iter()
            .map(|&v| self.inner.actual[v as usize])
            .collect();
        let mut lister = Lister::new(meta.copies.clone(), meta.locs, meta.props, st.obs.len());
        let mut actual_world = 0usize;
        let mut counts = vec![0u32; fact_pos.len()];
        let mut seen_by: Vec<Vec<Vec<bool>>> = vec![Vec::new(); st.obs.len()];
        let mut beliefs: Vec<Vec<bool>> = Vec::new();
        walk::models(set, vocab, &mut |values| {
            if values == target.as_slice() {
                actual_world = lister.len();
            }
            let bit = |p: &Option<usize>| p.is_some_and(|i| values[i]);
            for (count, pos) in counts.iter_mut().zip(&fact_pos) {
                *count = pos
                    .iter()
                    .enumerate()
                    .map(|(i, p)| u32::from(bit(p)) << i)
                    .sum();
            }
            derived::fill_all(st, &mut counts);
            for (a, ps) in obs_pos.iter().enumerate() {
                seen_by[a].push(ps.iter().map(|&i| values[i]).collect());
            }
            beliefs.push(w_pos.iter().map(bit).collect());
            let labels = vec![Vec::new(); obs_pos.len()];
            lister.push(&counts, prop_pos.iter().map(bit), labels);
        });
        let n = lister.len();
        let mut pairs = 0usize;
        let mut relations = Vec::with_capacity(st.obs.len());
        for (a, labels) in seen_by.iter().enumerate() {
            // The worlds by what a observes, then by their belief values.
            let mut groups: rustc_hash::FxHashMap<&[bool], Vec<usize>> = Default::default();
            for (x, l) in labels.iter().enumerate() {
                groups.entry(l.as_slice()).or_default().push(x);
            }
            let omega = &s.bel.omega[a];
            let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
            let mut related: rustc_hash::FxHashMap<(Vec<bool>, Vec<bool>), bool> =
                Default::default();
            for members in groups.values() {
                let mut by_w: rustc_hash::FxHashMap<&[bool], Vec<usize>> = Default::default();
                for &x in members {
                    by_w.entry(beliefs[x].as_slice()).or_default().push(x);
                }
                for (from, xs) in &by_w {
                    let mut to: Vec<usize> = Vec::new();
                    for (onto, ys) in &by_w {
                        let key = (from.to_vec(), onto.to_vec());
                        let yes = *related.entry(key).or_insert_with(|| {
                            let mut env = vec![false; meta.num_vars()];
                            for (i, (&sv, &wv)) in s.bel.star.iter().zip(&s.bel.w).enumerate() {
                                env[sv as usize] = from[i];
                                env[wv as usize] = onto[i];
                            }
                            walk::value_at(omega, &env)
                        });
                        if yes {
                            to.extend(ys);
                        }
                    }
                    to.sort_unstable();
                    pairs = pairs.saturating_add(to.len().saturating_mul(xs.len()));
                    if pairs > MOST_PAIRS {
                        return Ok(None);
                    }
                    for &x in xs.iter() {
                        succ[x] = to.clone();
                    }
                }
            }
            relations.push(Relation::General(succ));
        }
        lister.finish_with(actual_world, &relations).map(Some)
    }

    /// Product update with `em`, then the cleanup.
    fn update(&self, em: &EventModel, chosen: Option<EventId>) -> Res<BeliefModel> {
        let inner = &*self.inner;
        let s = &inner.s;
        let whole = em.events.iter().any(|e| {
            super::reads_whole_model(&e.pre)
                || e.post.iter().any(
                    |p| matches!(p, crate::engine::Post::Set(_, f) if super::reads_whole_model(f)),
                )
        });
        let law = if whole {
            self.reach()?
        } else {
            inner.law.clone()
        };
        event_successors(&s.st, em)?;
        let pres = s.pres(&law, em, &inner.atoms)?;
        let possible: Vec<bool> = pres.iter().map(|p| self.at_actual(p)).collect();
        let e = crate::engine::event::choose(em, &possible, chosen)?;
        let u = match s.transform(&law, em, pres.clone(), Some(e)) {
            Err(EngineError::MissingCards { .. }) if !whole => {
                // θ may hold unreachable states the explicit model does not have.
                let reach = self.reach()?;
                let pres = s.pres(&reach, em, &inner.atoms)?;
                s.transform(&reach, em, pres, Some(e))?
            }
            other => other?,
        };
        let mut actual = inner.actual.clone();
        actual.resize(s.st.meta.num_vars(), false);
        let position = u.kept.iter().position(|&k| k == e).unwrap_or(0);
        for (i, &v) in u.event_bits.iter().enumerate() {
            actual[v as usize] = position >> i & 1 == 1;
        }
        for (v, def) in &u.defs {
            let value = def.eval(actual.iter().enumerate().map(|(x, &b)| (x as VarNo, b)));
            actual[*v as usize] = value;
        }
        let mut next = u.s;
        let law = cleanup(&mut next, u.law, &actual, &u.fresh)?;
        Ok(BeliefModel::new(next, law, actual, inner.limits))
    }
}

/// The belief structure of an explicit model whose relations need not be
/// equivalences (a written `model { ... }` with belief arrows): the
/// facts and propositions, a world index w̄ as the belief variables, no
/// observations, and `Ω_a(w̄*, w̄)` the pairs of a's relation:
/// `θ = ∨_w (w̄ = w ∧ values(w))`.
pub(crate) fn from_explicit(m: &ExplicitModel, limits: &SymbolicLimits) -> Res<BeliefModel> {
    let (kinds, locations, n) = (m.copies().len(), m.locations(), m.len());
    let meta = super::new_meta(
        limits,
        m.copies().to_vec(),
        locations,
        m.props(),
        usize::MAX,
    );
    let facts: Vec<Vec<VarNo>> = (0..kinds * locations)
        .map(|f| meta.fresh(meta.full_width(f / locations.max(1))))
        .collect();
    let props = meta.fresh(m.props());
    let width = super::vars::width_for(n.saturating_sub(1) as u32);
    let index = meta.fresh(width);
    let star = meta.fresh(width);
    let agents = m.agents();
    let mut live: Vec<VarNo> = facts.iter().flatten().copied().collect();
    live.extend(&props);
    live.extend(&index);
    live.sort_unstable();
    let st = State {
        meta: meta.clone(),
        facts,
        derived: None,
        rest: Vec::new(),
        props,
        obs: vec![Vec::new(); agents],
        live,
    };
    let mut actual = vec![false; meta.num_vars()];
    let mut law = meta.bot();
    for w in 0..n {
        let view = m.world(w);
        let mut values: Vec<(VarNo, bool)> = Vec::new();
        let mut put = |vars: &[VarNo], value: u32| {
            for (i, &v) in vars.iter().enumerate() {
                values.push((v, value >> i & 1 == 1));
            }
        };
        for k in 0..kinds {
            for l in 0..locations {
                put(&st.facts[meta.fact(k, l)], view.cards[l][k]);
            }
        }
        for (p, &v) in st.props.iter().enumerate() {
            put(&[v], u32::from(view.props[p]));
        }
        put(&index, w as u32);
        if w == m.actual() {
            for &(v, b) in &values {
                actual[v as usize] = b;
            }
        }
        let vars: Vec<VarNo> = values.iter().map(|&(v, _)| v).collect();
        let cube = meta.assignment(&vars, |v| values.iter().any(|&(x, b)| x == v && b))?;
        law = oom(law.or(&cube))?;
    }
    let now = vec_of(&meta, &index)?;
    let before = vec_of(&meta, &star)?;
    let mut omega = Vec::with_capacity(agents);
    for a in 0..agents {
        let mut r = meta.bot();
        for w in 0..n {
            let mut to = meta.bot();
            for v in m.accessible(a, w) {
                to = oom(to.or(&eq_const(&meta, &now, v as u32)?))?;
            }
            r = oom(r.or(&oom(eq_const(&meta, &before, w as u32)?.and(&to))?))?;
        }
        omega.push(r);
    }
    let s = Structure {
        st,
        bel: Beliefs {
            w: index,
            star,
            omega,
        },
    };
    Ok(BeliefModel::new(s, law, actual, *limits))
}

/// Keeps a belief structure small after an update, keeping every state's
/// bisimulation class: the knowledge structure's cleanup (`cleanup.rs`)
/// with the belief variables held as present values, so that none is
/// forgotten. Its steps stay sound with the Ω's: each keeps "agree on
/// `O_a`" within θ (steps 1-3), or forgets variables that no Ω reads and
/// whose forgetting keeps the belief values of every state (steps 4-5).
/// `fresh` are the variables the update made.
fn cleanup(s: &mut Structure, law: Bdd, actual: &[bool], fresh: &[VarNo]) -> Res<Bdd> {
    let st = &mut s.st;
    let props = st.props.len();
    st.props.extend(&s.bel.w);
    let current = st.current();
    let fresh_current: Vec<VarNo> = fresh
        .iter()
        .copied()
        .filter(|v| current.binary_search(v).is_ok())
        .collect();
    let none = |_: VarNo| None;
    let result = super::cleanup::cleanup(st, law, actual, &fresh_current, &none, true);
    st.props.truncate(props);
    result
}

impl Backend for BeliefModel {
    fn eval_actual(&self, f: &Formula) -> Result<bool, EngineError> {
        self.retry(|| self.holds_here(f))
    }

    fn eval_valid(&self, f: &Formula) -> Result<bool, EngineError> {
        self.retry(|| {
            let reach = self.reach()?;
            let t = self.inner.s.truth(&reach, f, &self.inner.atoms)?;
            Ok(oom(reach.imp(&t))?.valid())
        })
    }

    fn eval_at(&self, f: &Formula, w: WorldId) -> Result<bool, EngineError> {
        super::eval_at_listed(self.listed(), f, w, || self.eval_actual(f))
    }

    fn satisfying(&self, f: &Formula) -> Result<Vec<WorldId>, EngineError> {
        super::satisfying_listed(self.listed(), f, || self.eval_actual(f))
    }

    fn apply(
        &self,
        model: &EventModel,
        actual: Option<EventId>,
    ) -> Result<Rc<dyn Backend>, EngineError> {
        let next = self.retry(|| self.update(model, actual))?;
        Ok(Rc::new(next))
    }

    fn possible_events(&self, model: &EventModel) -> Result<Vec<EventId>, EngineError> {
        event_successors(self.st(), model)?;
        let pres = self.retry(|| {
            let whole = model
                .events
                .iter()
                .any(|e| super::reads_whole_model(&e.pre));
            let law = if whole {
                self.reach()?
            } else {
                self.inner.law.clone()
            };
            self.inner.s.pres(&law, model, &self.inner.atoms)
        })?;
        Ok((0..pres.len())
            .filter(|&e| self.at_actual(&pres[e]))
            .collect())
    }

    fn world_count(&self) -> u128 {
        walk::saturate(&self.world_count_big())
    }

    fn world_count_big(&self) -> BigUint {
        match self.retry(|| self.state_counts(None)) {
            Ok((s, v)) if s == v => s,
            Ok((s, _)) => self.listed().map_or(s, |m| BigUint::from(m.len())),
            Err(_) => BigUint::from(u128::MAX),
        }
    }

    fn considers_big(&self, agent: Agent) -> BigUint {
        match self.retry(|| self.state_counts(Some(agent))) {
            Ok((s, v)) if s == v => s,
            Ok((s, _)) => self
                .listed()
                .map_or(s, |m| BigUint::from(m.considers(agent))),
            Err(_) => BigUint::from(0u32),
        }
    }

    fn considers(&self, agent: Agent) -> u128 {
        walk::saturate(&self.considers_big(agent))
    }

    fn actual(&self) -> WorldId {
        self.listed().map_or(0, |m| m.actual())
    }

    fn accessible(&self, agent: Agent, w: WorldId) -> Vec<WorldId> {
        match self.listed() {
            Some(m) => m.accessible(agent, w),
            None => Vec::new(),
        }
    }

    fn group_accessible(
        &self,
        access: crate::engine::GroupAccess,
        group: &[Agent],
        w: WorldId,
    ) -> Vec<WorldId> {
        match self.listed() {
            Some(m) => m.group_accessible(access, group, w),
            None => Vec::new(),
        }
    }

    fn is_s5(&self) -> bool {
        self.listed().is_some_and(|m| m.is_s5())
    }

    fn as_explicit(&self) -> Option<&ExplicitModel> {
        self.listed()
    }

    fn world(&self, w: WorldId) -> WorldView {
        match self.listed() {
            Some(m) if w < m.len() => m.world(w),
            _ => self.actual_world(),
        }
    }

    fn agents(&self) -> usize {
        self.st().obs.len()
    }

    fn actual_world(&self) -> WorldView {
        let cards = self.actual_cards();
        let st = self.st();
        WorldView {
            id: self.actual(),
            cards,
            props: st
                .props
                .iter()
                .map(|&v| self.inner.actual[v as usize])
                .collect(),
        }
    }

    fn actual_cards(&self) -> crate::engine::Allocation {
        let st = self.st();
        let meta = &*st.meta;
        let value = |vars: &[VarNo]| -> u32 {
            vars.iter()
                .enumerate()
                .map(|(i, &v)| u32::from(self.inner.actual[v as usize]) << i)
                .sum()
        };
        let mut counts: Vec<u32> = st.facts.iter().map(|f| value(f)).collect();
        derived::fill_all(st, &mut counts);
        (0..meta.locs)
            .map(|l| {
                (0..meta.copies.len())
                    .map(|k| counts[meta.fact(k, l)])
                    .collect()
            })
            .collect()
    }

    fn listable(&self) -> Result<(), EngineError> {
        if self.listed().is_some() {
            return Ok(());
        }
        let count = self
            .retry(|| self.state_counts(None))
            .map_or(u128::MAX, |(s, _)| walk::saturate(&s));
        Err(EngineError::TooManyWorlds {
            count,
            budget: self.inner.limits.list,
        })
    }

    fn counts_exact(&self) -> bool {
        match self.retry(|| self.state_counts(None)) {
            Ok((s, v)) => s == v || self.listed().is_some(),
            Err(_) => false,
        }
    }

    fn representation(&self) -> Representation {
        Representation::Symbolic {
            nodes: self.inner.law.node_count(),
            variables: self.st().live.len(),
            factored: false,
            collect_from: self.inner.limits.collect_from,
        }
    }
}
