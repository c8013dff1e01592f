//! Truth at the actual state, read through the states the agents consider
//! possible.
//!
//! `K_a φ` holds at the actual state s iff φ holds at every θ-state that
//! agrees with s on `O_a`: the set `C_a = θ ∧ (O_a = s|O_a)`. Fixing a's
//! observed variables (its hand, in a card game) makes `C_a` much smaller
//! than θ, so `K_a φ` at s is one conjunction with a small BDD instead of
//! a quantification over the whole law (`∀(V∖O_a)(θ → φ)`), which
//! `eval.rs` computes for every state at once. Nested knowledge follows the
//! same way: `K_a K_b φ` holds at s iff φ holds at every θ-state that
//! agrees on `O_b` with some state of `C_a`, the set
//! `θ ∧ ∃(V∖O_b) C_a`. Anything else is evaluated by `eval.rs` and read at
//! the states in question, so every answer is the one `eval.rs` gives at
//! the actual state (the tests compare the two on random formulas).

use oxidd::BooleanFunction;

use oxidd::VarNo;

use super::vars::{oom, Bdd, Res, State};
use crate::engine::counters::{self, Counter};
use crate::engine::formula::{Agent, Atom, Formula};

/// What the local evaluation reads of a model.
pub(crate) struct Here<'a> {
    /// The variables and observations.
    pub st: &'a State,
    /// `∃vars (θ ∧ r)`, in one pass where possible: no BDD of `θ ∧ r` is
    /// kept (θ may be kept as factors, `factors.rs`).
    pub law_and_exists: &'a dyn Fn(&Bdd, &[VarNo]) -> Res<Bdd>,
    /// `∃(V∖keep) x` for a set x of states and a sorted set of
    /// variables `keep`, kept with the model.
    pub project: &'a dyn Fn(&Bdd, &[VarNo]) -> Res<Bdd>,
    /// `∃(V∖keep)(θ ∧ r)` for a set r of states and a sorted set of
    /// variables `keep`, kept with the model (θ is not built).
    pub law_project: &'a dyn Fn(&Bdd, &[VarNo]) -> Res<Bdd>,
    /// The truth set of a formula on the whole structure (`eval.rs`).
    pub whole: &'a dyn Fn(&Formula) -> Res<Bdd>,
    /// Whether a truth set holds at the actual state.
    pub at_actual: &'a dyn Fn(&Bdd) -> bool,
    /// `C_a`: the states agent a considers possible at the actual state.
    pub considered: &'a dyn Fn(Agent) -> Res<Bdd>,
    /// The states a group considers possible together (its distributed
    /// knowledge) at the actual state.
    pub considered_by: &'a dyn Fn(&[Agent]) -> Res<Bdd>,
    /// Whether some state of a set takes a value at a variable
    /// (`walk::values_taken`, kept with the model for each set).
    pub takes: &'a dyn Fn(&Bdd, VarNo, bool) -> Res<bool>,
    /// The cube of the actual values of what a group observes, when its
    /// considered set is better left unbuilt ([`Set::Considered`]).
    pub unbuilt: &'a dyn Fn(&[Agent]) -> Res<Option<Bdd>>,
    /// Whether θ surely implies a set of states, by the factor of the one
    /// location it reads (false when that does not decide it).
    pub law_implies: &'a dyn Fn(&Bdd) -> Res<bool>,
    /// Whether a count atom holds at the actual state, read from the
    /// actual counts (`None`: ask its truth set).
    pub count_here: &'a dyn Fn(&Atom) -> Option<bool>,
    /// Whether a state of agent a's considered set in a set of states is
    /// found near the actual state, without the considered set (false:
    /// none found, build the set to decide).
    pub witness: &'a dyn Fn(Agent, &Bdd) -> Res<bool>,
}

impl Here<'_> {
    /// Whether `f` holds at the actual state.
    pub fn holds(&self, f: &Formula) -> Res<bool> {
        crate::engine::cancel::check()?;
        if !modal(f) {
            return self.facts_hold(f);
        }
        Ok(match f {
            Formula::Top => true,
            Formula::Bottom => false,
            Formula::Not(g) => !self.holds(g)?,
            Formula::And(gs) => {
                for (i, g) in gs.iter().enumerate() {
                    if !self.holds(g)? {
                        self.settle(&gs[i + 1..])?;
                        return Ok(false);
                    }
                }
                true
            }
            Formula::Or(gs) => {
                for (i, g) in gs.iter().enumerate() {
                    if self.holds(g)? {
                        self.settle(&gs[i + 1..])?;
                        return Ok(true);
                    }
                }
                false
            }
            Formula::Implies(a, b) => {
                if self.holds(a)? {
                    self.holds(b)?
                } else {
                    self.settle(std::slice::from_ref(&**b))?;
                    true
                }
            }
            Formula::Iff(a, b) => self.holds(a)? == self.holds(b)?,
            Formula::K(a, g) | Formula::M(a, g) if self.seen_by(*a, g)? => self.holds(g)?,
            Formula::Kw(a, g) if self.seen_by(*a, g)? => true,
            Formula::K(a, g) => self.valid_within(&self.considered_set(&[*a])?, g)?,
            Formula::M(a, g) => {
                let s = (self.whole)(g)?;
                self.meets_set(&self.considered_set(&[*a])?, &s)?
            }
            Formula::Kw(a, g) => {
                let s = (self.whole)(g)?;
                let c = self.considered_set(&[*a])?;
                !self.meets_set(&c, &oom(s.not())?)? || !self.meets_set(&c, &s)?
            }
            Formula::E(group, g) => {
                for &a in group {
                    if !self.valid_within(&self.considered_set(&[a])?, g)? {
                        self.settle(std::slice::from_ref(&**g))?;
                        return Ok(false);
                    }
                }
                true
            }
            Formula::D(group, g) if !group.is_empty() => {
                self.valid_within(&self.considered_set(group)?, g)?
            }
            _ => (self.at_actual)(&(self.whole)(f)?),
        })
    }

    /// Whether `g`, a formula of present facts, is seen to hold at every
    /// θ-state from the factors of the locations it reads: then every
    /// agent knows it at every θ-state, and every set asked of is one of
    /// θ-states. In a card game, what the public record says of a hand
    /// (a player asked for a rank, so holds it) is in that hand's factor,
    /// and `K_a K_b hand_a(r)` then needs no projection of `C_a` through
    /// b's eyes.
    fn valid_everywhere(&self, g: &Formula) -> Res<bool> {
        if modal(g) {
            return Ok(false);
        }
        (self.law_implies)(&(self.whole)(g)?)
    }

    /// Whether `K_b g` is cheaply seen to fail at the actual state: g is
    /// a formula of present facts about a few locations and b's
    /// considered set is left unbuilt, so `K_b g` there is a projection
    /// made from the factors. Every set asked of holds the actual state,
    /// and the successors of such a set hold b's considered set, so then
    /// `K_b g` fails on the set too. A second-order query (`K_a K_b g`)
    /// projects the whole of a's considered set through b's eyes: a
    /// product of the hands, where b's own view at the actual state is
    /// a restriction of the marginals (`Set::Considered`).
    fn fails_here(&self, b: Agent, g: &Formula) -> Res<bool> {
        if modal(g) {
            return Ok(false);
        }
        let Some(here) = (self.unbuilt)(&[b])? else {
            return Ok(false);
        };
        let truth = (self.whole)(g)?;
        if self.few_locations(&super::walk::support(&truth)).is_none() {
            return Ok(false);
        }
        Ok(!self.valid_within(&Set::Considered(vec![b], here), g)?)
    }

    /// The states `group` considers possible together at the actual
    /// state: built, or left as `θ ∧ here` when the model says so.
    fn considered_set(&self, group: &[Agent]) -> Res<Set> {
        if let Some(here) = (self.unbuilt)(group)? {
            return Ok(Set::Considered(group.to_vec(), here));
        }
        if let [a] = group {
            return Ok(Set::Lazy(*a));
        }
        Ok(Set::Built(self.build(group)?))
    }

    /// The considered set of `group`, built.
    fn build(&self, group: &[Agent]) -> Res<Bdd> {
        match group {
            [a] => (self.considered)(*a),
            _ => (self.considered_by)(group),
        }
    }

    /// Whether some state of the set `x` is in `s`.
    fn meets_set(&self, x: &Set, s: &Bdd) -> Res<bool> {
        match x {
            Set::Built(x) => self.meets(x, s),
            Set::Lazy(a) => Ok(self.found_near(*a, s)? || self.meets(&self.build(&[*a])?, s)?),
            Set::InLaw(r) => {
                // θ ∧ r ∧ s, asked as ∃V: no BDD of θ ∧ r is built. When
                // s reads a few locations K only, θ ∧ r is projected on K
                // once per model and r (the queries about each kind of
                // one hand share it): ∃V(θ ∧ r ∧ s) = ∃K(∃(V∖K)(θ ∧ r) ∧ s).
                if let Some(keep) = self.few_locations(&super::walk::support(s)) {
                    let p = (self.law_project)(r, &keep)?;
                    let meta = &*self.st.meta;
                    return Ok(meta.and_exists(&p, s, &keep)?.satisfiable());
                }
                let r = oom(r.and(s))?;
                Ok((self.law_and_exists)(&r, &self.st.live)?.satisfiable())
            }
            Set::Considered(group, here) => {
                // C = θ ∧ here, so ∃(V∖K) C = ∃(V∖K)(θ ∧ here): the same
                // projection as of the built set, made from the factors.
                let support = super::walk::support(s);
                let Some(keep) = self.few_locations(&support) else {
                    if let [a] = group[..] {
                        if self.found_near(a, s)? {
                            return Ok(true);
                        }
                    }
                    return self.meets(&self.build(group)?, s);
                };
                let p = (self.law_project)(here, &keep)?;
                counters::count(Counter::Unbuilt);
                if let Some(answer) = self.meets_at_one(&p, s, &support)? {
                    return Ok(answer);
                }
                Ok(self.st.meta.and_exists(&p, s, &keep)?.satisfiable())
            }
        }
    }

    /// Whether a state of agent a's considered set in `s` is found near
    /// the actual state, without the set (false: none found).
    fn found_near(&self, a: Agent, s: &Bdd) -> Res<bool> {
        let found = (self.witness)(a, s)?;
        if found {
            counters::count(Counter::Witnessed);
        }
        Ok(found)
    }

    /// Whether `f`, a formula of present facts, holds at the actual
    /// state: each count atom read off the actual counts, any other
    /// atom's truth set (kept with the model) read there, and the
    /// connectives applied to the answers. A guard such as
    /// Königrufen's "every other player has played as many cards as I"
    /// is a conjunction of dozens of implications between counts; its
    /// BDD was built whole only to be read at one state. Every operand is
    /// read, without short cuts, so an atom the model refuses is refused
    /// here too.
    fn facts_hold(&self, f: &Formula) -> Res<bool> {
        Ok(match f {
            Formula::Top => true,
            Formula::Bottom => false,
            Formula::Not(g) => !self.facts_hold(g)?,
            Formula::And(gs) => {
                let mut all = true;
                for g in gs {
                    all &= self.facts_hold(g)?;
                }
                all
            }
            Formula::Or(gs) => {
                let mut any = false;
                for g in gs {
                    any |= self.facts_hold(g)?;
                }
                any
            }
            Formula::Implies(a, b) => {
                let a = self.facts_hold(a)?;
                !a | self.facts_hold(b)?
            }
            Formula::Iff(a, b) => self.facts_hold(a)? == self.facts_hold(b)?,
            Formula::Atom(a) => match (self.count_here)(a) {
                Some(b) => b,
                None => (self.at_actual)(&(self.whole)(f)?),
            },
            _ => (self.at_actual)(&(self.whole)(f)?),
        })
    }

    /// Whether `g` is a formula of present facts that reads only what
    /// agent `a` observes (its own hand). Every state `a` considers
    /// possible agrees with the actual one there, so `K_a g` and `M_a g`
    /// hold iff g holds at the actual state, and `Kw_a g` holds: no
    /// considered set is needed (a player asking what it knows of its
    /// own hand built one after every move).
    fn seen_by(&self, a: Agent, g: &Formula) -> Res<bool> {
        if modal(g) {
            return Ok(false);
        }
        let seen = self.st.observed(a)?;
        Ok(super::walk::support(&(self.whole)(g)?)
            .iter()
            .all(|v| seen.binary_search(v).is_ok()))
    }

    /// Evaluates the operands a short cut skipped when they can fail (an
    /// update whose move lacks cards in some state is an error in
    /// `eval.rs` and in the explicit engine, whatever the other operands
    /// say), so that the answer, or the error, is the one `eval.rs` gives.
    fn settle(&self, skipped: &[Formula]) -> Res<()> {
        for g in skipped.iter().filter(|g| may_fail(g)) {
            (self.whole)(g)?;
        }
        Ok(())
    }

    /// Whether `x ∧ s` is satisfiable, asked as `∃V (x ∧ s)` over the
    /// live variables: the product is quantified as it is built, so no
    /// node of `x ∧ s` is made (a variable left out of V would only leave
    /// a larger BDD, never a different answer).
    ///
    /// When `s` reads the variables of a few locations only (a query
    /// about one hand), `x` is first projected on those locations'
    /// variables, once per model and set (`∃V(x ∧ s) = ∃K(∃(V∖K)x ∧ s)`
    /// for K ⊇ the support of s): the many queries about the same hand
    /// then meet a small BDD instead of the whole of `x`.
    fn meets(&self, x: &Bdd, s: &Bdd) -> Res<bool> {
        let support = super::walk::support(s);
        if let Some(answer) = self.meets_at_one(x, s, &support)? {
            return Ok(answer);
        }
        if let Some(keep) = self.few_locations(&support) {
            let p = (self.project)(x, &keep)?;
            return Ok(self.st.meta.and_exists(&p, s, &keep)?.satisfiable());
        }
        Ok(self.st.meta.and_exists(x, s, &self.st.live)?.satisfiable())
    }

    /// Whether some state of `x` is in `s`, when `s` reads one variable
    /// (a card of one copy at one place, as in most of Kwartet's
    /// queries): s is v or ¬v, and the values every variable takes in x
    /// are found in one pass over x. `None` for any other `s`.
    fn meets_at_one(&self, x: &Bdd, s: &Bdd, support: &[VarNo]) -> Res<Option<bool>> {
        let [v] = support[..] else {
            return Ok(None);
        };
        let positive = *s == self.st.meta.var(v)?;
        Ok(Some((self.takes)(x, v, positive)?))
    }

    /// The variables of the locations `vars` reads (`locations_of`) when
    /// they are few enough to project on: some, and at most half the
    /// live variables. `None` otherwise (a query about every hand).
    fn few_locations(&self, vars: &[VarNo]) -> Option<Vec<VarNo>> {
        let keep = self.locations_of(vars);
        (!keep.is_empty() && keep.len() * 2 <= self.st.live.len()).then_some(keep)
    }

    /// Every variable of the locations that hold a variable of `vars`,
    /// and the variables of `vars` that belong to no location, sorted.
    fn locations_of(&self, vars: &[VarNo]) -> Vec<VarNo> {
        let meta = &*self.st.meta;
        let mut keep: Vec<VarNo> = Vec::new();
        let mut covered = 0;
        for l in 0..meta.locs {
            let lv = super::factors::location_vars(self.st, l);
            let n = lv.iter().filter(|v| vars.binary_search(v).is_ok()).count();
            if n > 0 {
                covered += n;
                keep.extend(lv);
            }
        }
        if covered < vars.len() {
            keep.extend(vars);
        }
        keep.sort_unstable();
        keep.dedup();
        keep
    }

    /// Whether `f` holds at every state of `x`: a set of θ-states
    /// reachable from the actual one that holds the actual state itself
    /// (an agent's considered set, and the successors of such a set), so
    /// that `f` false at the actual state is false somewhere in `x`.
    fn valid_within(&self, x: &Set, f: &Formula) -> Res<bool> {
        crate::engine::cancel::check()?;
        match f {
            Formula::Top => Ok(true),
            Formula::And(gs) => {
                for (i, g) in gs.iter().enumerate() {
                    if !self.valid_within(x, g)? {
                        self.settle(&gs[i + 1..])?;
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Formula::K(b, g) => {
                // An agent out of range is refused, as `eval.rs` does.
                self.st.observed(*b)?;
                if self.valid_everywhere(g)? {
                    return Ok(true);
                }
                if self.fails_here(*b, g)? {
                    return Ok(false);
                }
                self.valid_within(&self.successors(x, &[*b])?, g)
            }
            Formula::E(group, g) => {
                for &b in group {
                    self.st.observed(b)?;
                }
                if self.valid_everywhere(g)? {
                    return Ok(true);
                }
                for &b in group {
                    if self.fails_here(b, g)?
                        || !self.valid_within(&self.successors(x, &[b])?, g)?
                    {
                        self.settle(std::slice::from_ref(&**g))?;
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Formula::D(group, g) if !group.is_empty() => {
                self.valid_within(&self.successors(x, group)?, g)
            }
            _ => {
                let truth = (self.whole)(f)?;
                if !(self.at_actual)(&truth) {
                    // Every set asked of holds the actual state.
                    return Ok(false);
                }
                if (self.law_implies)(&truth)? {
                    return Ok(true);
                }
                Ok(!self.meets_set(x, &oom(truth.not())?)?)
            }
        }
    }

    /// The θ-states that agree on what `group` observes together with
    /// some state of `x`: `θ ∧ ∃(V ∖ ∪O_group) x`, kept as the
    /// restriction `∃(V ∖ ∪O_group) x` (a BDD over the group's observed
    /// variables only).
    fn successors(&self, x: &Set, group: &[Agent]) -> Res<Set> {
        let seen = self.st.union_obs(group)?;
        Ok(Set::InLaw(match x {
            // ∃hidden x = ∃(V∖seen) x: the projection kept with the model,
            // shared by the queries that nest the same agents.
            Set::Built(x) => (self.project)(x, &seen)?,
            Set::Lazy(a) => (self.project)(&self.build(&[*a])?, &seen)?,
            Set::InLaw(r) | Set::Considered(_, r) => (self.law_project)(r, &seen)?,
        }))
    }
}

/// Whether `f` has a modal operator (knowledge, announcement or update).
pub(crate) fn modal(f: &Formula) -> bool {
    match f {
        Formula::Top | Formula::Bottom | Formula::Atom(_) => false,
        Formula::Not(g) => modal(g),
        Formula::And(gs) | Formula::Or(gs) => gs.iter().any(modal),
        Formula::Implies(a, b) | Formula::Iff(a, b) => modal(a) || modal(b),
        _ => true,
    }
}

/// Whether evaluating `f` can be refused: it has an update by event
/// models, whose moves may lack cards.
fn may_fail(f: &Formula) -> bool {
    f.any_update(|_| true)
}

/// A set of θ-states.
enum Set {
    /// As a BDD.
    Built(Bdd),
    /// θ ∧ this BDD, never built.
    InLaw(Bdd),
    /// A group's considered set `θ ∧ here`, for `here` the cube of what
    /// the group observes at the actual state: a query that reads a few
    /// locations meets its projection on them, made from the factors
    /// (`∃(V∖K)(θ ∧ here)`, once per model and K) without the set; one
    /// that reads more builds the set (once per model).
    Considered(Vec<Agent>, Bdd),
    /// An agent's considered set, built only when needed: a query asking
    /// whether it meets a set first looks for a state of it there near
    /// the actual state (`Here::witness`).
    Lazy(Agent),
}
