//! Formulas to BDDs: the truth set of a formula in a knowledge structure
//! `(V, θ, O₁…Oₙ)`, as a function of the variables.
//!
//! Two states s, t of θ are a-related iff they agree on `O_a`, so
//! `K_a φ = ∀(V∖O_a)(θ → φ)`, `D_G φ` quantifies over `V ∖ ∪_{a∈G} O_a`,
//! `E_G` is a conjunction of K's and `C_G φ` the greatest fixpoint of
//! `X = E_G(φ ∧ X)` (φ at the end of every G-path of length ≥ 1, as the
//! explicit engine reads C). `[!ψ]φ` evaluates φ under the law θ ∧ ψ, and
//! `[E]φ` in the structure transformed by E, mapped back by quantifying
//! over the new variables. A truth set means something only inside θ.

use oxidd::{BooleanFunction, BooleanFunctionQuant, BooleanOperator, VarNo};

use super::law;
use super::transform;
use super::vars::{oom, Bdd, Res, State};
use crate::engine::event::EventModel;
use crate::engine::formula::{Agent, Atom, Formula};
use crate::engine::hash::FxMap;

/// The truth sets of atoms built before in one structure, by atom: an
/// atom's truth set depends on the structure's variables only, never on
/// the law, so a model keeps them for every formula asked of it (the
/// books check after a Go Fish move reads each of thirteen "holds every
/// card of rank r" in fifteen preconditions and once more before them).
#[derive(Default)]
pub(crate) struct Atoms(std::cell::RefCell<FxMap<Atom, Bdd>>);

/// At most this many atoms are kept with a model; then they are dropped
/// and kept again from empty.
const ATOMS: usize = 4096;

impl Atoms {
    /// The truth set of `a` in `st`, built once.
    pub fn get(&self, st: &State, a: &Atom) -> Res<Bdd> {
        if let Some(b) = self.0.borrow().get(a) {
            return Ok(b.clone());
        }
        let b = law::atom(st, a)?;
        let mut map = self.0.borrow_mut();
        if map.len() >= ATOMS {
            map.clear();
        }
        map.insert(a.clone(), b.clone());
        Ok(b)
    }
}

/// The truth set of `f` in the structure `st` with law `law`.
pub(crate) fn eval(st: &State, law: &Bdd, f: &Formula) -> Res<Bdd> {
    eval_in(st, law, f, &Atoms::default())
}

/// The truth set of `f` in the structure `st` with law `law`, reading and
/// keeping the truth sets of atoms in `atoms` (which must be `st`'s).
pub(crate) fn eval_in(st: &State, law: &Bdd, f: &Formula, atoms: &Atoms) -> Res<Bdd> {
    crate::engine::cancel::check()?;
    let meta = &*st.meta;
    let ev = |g: &Formula| eval_in(st, law, g, atoms);
    Ok(match f {
        Formula::Top => meta.top(),
        Formula::Bottom => meta.bot(),
        Formula::Atom(a) => atoms.get(st, a)?,
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
        Formula::K(a, g) => knows(st, law, st.observed(*a)?, &ev(g)?)?,
        Formula::M(a, g) => possible(st, law, st.observed(*a)?, &ev(g)?)?,
        Formula::Kw(a, g) => {
            let s = ev(g)?;
            let o = st.observed(*a)?;
            oom(knows(st, law, o, &s)?.or(&knows(st, law, o, &oom(s.not())?)?))?
        }
        Formula::E(g, h) => everybody(st, law, g, &ev(h)?)?,
        Formula::C(g, h) => common(st, law, g, &ev(h)?)?,
        Formula::D(g, h) => knows(st, law, &st.union_obs(g)?, &ev(h)?)?,
        Formula::Announce(psi, phi) | Formula::AnnounceDiamond(psi, phi) => {
            let ps = ev(psi)?;
            let inner = eval_in(st, &oom(law.and(&ps))?, phi, atoms)?;
            if matches!(f, Formula::Announce(..)) {
                oom(ps.imp(&inner))?
            } else {
                oom(ps.and(&inner))?
            }
        }
        Formula::Update(models, phi) => update(st, law, models, phi, false)?,
        Formula::UpdateDiamond(models, phi) => update(st, law, models, phi, true)?,
    })
}

/// `∀(V∖O)(θ → s)`: the states all of whose O-indistinguishable states are in `s`.
pub(crate) fn knows(st: &State, law: &Bdd, observed: &[VarNo], s: &Bdd) -> Res<Bdd> {
    let hidden = st.live_except(observed);
    let bad = oom(s.not())?;
    oom(st.meta.and_exists(law, &bad, &hidden)?.not())
}

/// `∃(V∖O)(θ ∧ s)`: the states with an O-indistinguishable state in `s`.
fn possible(st: &State, law: &Bdd, observed: &[VarNo], s: &Bdd) -> Res<Bdd> {
    st.meta.and_exists(law, s, &st.live_except(observed))
}

/// E_G: every agent of G knows.
fn everybody(st: &State, law: &Bdd, g: &[Agent], s: &Bdd) -> Res<Bdd> {
    let mut acc = st.meta.top();
    for &a in g {
        acc = oom(acc.and(&knows(st, law, st.observed(a)?, s)?))?;
    }
    Ok(acc)
}

/// C_G: the greatest fixpoint of `X = θ ∧ E_G(s ∧ X)`.
fn common(st: &State, law: &Bdd, g: &[Agent], s: &Bdd) -> Res<Bdd> {
    for &a in g {
        st.observed(a)?;
    }
    let mut x = law.clone();
    loop {
        crate::engine::cancel::check()?;
        let next = oom(everybody(st, law, g, &oom(s.and(&x))?)?.and(law))?;
        if next == x {
            return Ok(x);
        }
        x = next;
    }
}

/// \[E₁;…;Eₙ\]φ or ⟨E₁;…;Eₙ⟩φ: φ in the transformed structure, mapped back
/// with ∀ (box) or ∃ (diamond) over the new variables, through the
/// designated events only.
fn update(st: &State, law: &Bdd, models: &[EventModel], phi: &Formula, diamond: bool) -> Res<Bdd> {
    let mut cur_state = st.clone();
    let mut cur_law = law.clone();
    let mut chosen = st.meta.top();
    let mut fresh: Vec<VarNo> = Vec::new();
    for em in models {
        let t = transform::transform(&cur_state, &cur_law, em, None, None, true)?;
        chosen = oom(chosen.and(&t.designated))?;
        fresh.extend(&t.fresh);
        cur_state = t.state;
        cur_law = t.law;
    }
    let truth = eval(&cur_state, &cur_law, phi)?;
    let meta = &*st.meta;
    let context = oom(cur_law.and(&chosen))?;
    if fresh.is_empty() {
        // No new variables: the (only) event changes nothing.
        return if diamond {
            oom(context.and(&truth))
        } else {
            oom(context.imp(&truth))
        };
    }
    let cube = meta.cube(&fresh)?;
    if diamond {
        oom(context.apply_exists(BooleanOperator::And, &truth, &cube))
    } else {
        oom(context.apply_forall(BooleanOperator::Imp, &truth, &cube))
    }
}
