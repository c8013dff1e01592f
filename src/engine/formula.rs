//! The formulas the engine evaluates: the language of dynamic epistemic logic
//! over card allocations.
//!
//! ```text
//! φ ::= ⊤ | ⊥ | a                         atoms: a card count or a proposition
//!     | ¬φ | φ ∧ φ | φ ∨ φ | φ → φ | φ ↔ φ
//!     | K_i φ | M_i φ | Kw_i φ            knowledge, possibility, knowing whether
//!     | E_G φ | C_G φ | D_G φ             everybody, common, distributed knowledge
//!     | [!φ]φ | ⟨!φ⟩φ                     public announcement (box and diamond)
//!     | [E]φ | ⟨E⟩φ                       after every / some event of an event model sequence
//! a ::= #ℓ(k₁…kₙ) ⋈ n                     the number of cards of kinds k₁…kₙ at location ℓ
//!     | p                                 a declared proposition
//!     | t ⋈ t                             integer terms compared (variables in binary)
//! t ::= n | x | t + t | t - t | t * t
//! ```
//!
//! Agents, locations, card kinds and propositions are plain indices: names are
//! resolved by the interpreter, so the engine never sees text. Belief `B_i φ`
//! is the same operator as `K_i φ`: on models where private events made
//! non-S5 relations, `K_i` reads the relation as belief.

use std::rc::Rc;

use super::event::EventModel;

/// An agent (a player), numbered from 0 in the order of declaration.
pub type Agent = usize;
/// A location of cards (a hand, a pile, a slot), numbered from 0.
pub type Loc = usize;
/// A card kind (a distinct card face; a deck may hold several copies), numbered from 0.
pub type Kind = usize;
/// A declared proposition, numbered from 0.
pub type Prop = usize;

/// A comparison between a count and a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl Cmp {
    /// Whether `left ⋈ right` holds.
    pub fn holds(self, left: u32, right: u32) -> bool {
        match self {
            Cmp::Lt => left < right,
            Cmp::Le => left <= right,
            Cmp::Eq => left == right,
            Cmp::Ne => left != right,
            Cmp::Ge => left >= right,
            Cmp::Gt => left > right,
        }
    }
}

/// An atomic formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// The number of cards whose kind is in `kinds` lying at `loc`, compared with `n`.
    /// `hand3(6S)` is `Count { loc: 3, kinds: [6S], cmp: Ge, n: 1 }`.
    Count {
        /// Where to count.
        loc: Loc,
        /// Which kinds count (sorted, no duplicates). Every kind for a whole-location count.
        kinds: Vec<Kind>,
        /// The comparison.
        cmp: Cmp,
        /// The number compared with.
        n: u32,
    },
    /// A declared proposition.
    Prop(Prop),
    /// Two integer terms over variables compared: `x + y <= 100`, `x < y`.
    Compare(Rc<Comparison>),
}

/// `left ⋈ right` between two terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comparison {
    /// The left term.
    pub left: Term,
    /// The comparison.
    pub cmp: Cmp,
    /// The right term.
    pub right: Term,
}

/// An integer term. A variable is a group of propositions that hold its
/// value in binary, the least significant bit first; the interpreter keeps
/// each variable's value within its declared range by the model's worlds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A number.
    Const(u64),
    /// A variable: its bits.
    Var(Vec<Prop>),
    /// `a + b`
    Add(Box<Term>, Box<Term>),
    /// `a - b` (negative values allowed)
    Sub(Box<Term>, Box<Term>),
    /// `a * b`
    Mul(Box<Term>, Box<Term>),
}

impl Term {
    /// The value, with `bit(p)` the value of proposition `p`. Exact while
    /// every part stays within ±2^127 (three 64-bit factors and more
    /// saturate; the symbolic engine refuses a term over 64 bits).
    pub fn value(&self, bit: &impl Fn(Prop) -> bool) -> i128 {
        match self {
            Term::Const(c) => i128::from(*c),
            Term::Var(bits) => bits
                .iter()
                .enumerate()
                .map(|(i, &p)| i128::from(bit(p)) << i)
                .sum(),
            Term::Add(a, b) => a.value(bit).saturating_add(b.value(bit)),
            Term::Sub(a, b) => a.value(bit).saturating_sub(b.value(bit)),
            Term::Mul(a, b) => a.value(bit).saturating_mul(b.value(bit)),
        }
    }

    /// The propositions the term reads.
    pub fn props(&self, out: &mut Vec<Prop>) {
        match self {
            Term::Const(_) => {}
            Term::Var(bits) => out.extend(bits),
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => {
                a.props(out);
                b.props(out);
            }
        }
    }
}

impl Comparison {
    /// Whether the comparison holds, with `bit(p)` the value of proposition `p`.
    pub fn holds(&self, bit: &impl Fn(Prop) -> bool) -> bool {
        let (l, r) = (self.left.value(bit), self.right.value(bit));
        match self.cmp {
            Cmp::Lt => l < r,
            Cmp::Le => l <= r,
            Cmp::Eq => l == r,
            Cmp::Ne => l != r,
            Cmp::Ge => l >= r,
            Cmp::Gt => l > r,
        }
    }
}

/// A formula of dynamic epistemic logic. See the module documentation for the grammar.
#[derive(Clone, Debug)]
pub enum Formula {
    /// ⊤, true everywhere.
    Top,
    /// ⊥, false everywhere.
    Bottom,
    /// An atomic formula.
    Atom(Atom),
    /// ¬φ
    Not(Box<Formula>),
    /// φ₁ ∧ … ∧ φₙ (⊤ when empty).
    And(Vec<Formula>),
    /// φ₁ ∨ … ∨ φₙ (⊥ when empty).
    Or(Vec<Formula>),
    /// φ → ψ
    Implies(Box<Formula>, Box<Formula>),
    /// φ ↔ ψ
    Iff(Box<Formula>, Box<Formula>),
    /// K_i φ: φ holds in every world agent i considers possible (belief on non-S5 models).
    K(Agent, Box<Formula>),
    /// M_i φ = ¬K_i¬φ: agent i considers a φ-world possible.
    M(Agent, Box<Formula>),
    /// Kw_i φ = K_i φ ∨ K_i ¬φ: agent i knows whether φ.
    Kw(Agent, Box<Formula>),
    /// E_G φ: every agent of G knows φ.
    E(Vec<Agent>, Box<Formula>),
    /// C_G φ: φ is common knowledge in G (φ holds at the end of every G-path of length ≥ 1).
    C(Vec<Agent>, Box<Formula>),
    /// D_G φ: φ is distributed knowledge in G (K over the intersection of G's relations).
    D(Vec<Agent>, Box<Formula>),
    /// \[!ψ\]φ: if ψ is true, then φ holds after ψ is publicly announced.
    Announce(Box<Formula>, Box<Formula>),
    /// ⟨!ψ⟩φ: ψ is true and φ holds after ψ is publicly announced.
    AnnounceDiamond(Box<Formula>, Box<Formula>),
    /// \[E₁;…;Eₙ\]φ: after every way the event models can happen in sequence, φ.
    /// Only each model's designated events count (all events when none are designated).
    Update(Rc<Vec<EventModel>>, Box<Formula>),
    /// ⟨E₁;…;Eₙ⟩φ: the events can happen in some way after which φ.
    UpdateDiamond(Rc<Vec<EventModel>>, Box<Formula>),
}

impl Formula {
    /// `hand(loc) holds at least one card of kind k`.
    pub fn holds(loc: Loc, kind: Kind) -> Formula {
        Formula::Atom(Atom::Count {
            loc,
            kinds: vec![kind],
            cmp: Cmp::Ge,
            n: 1,
        })
    }

    /// The number of cards of `kinds` at `loc` compared with `n`.
    pub fn count(loc: Loc, kinds: Vec<Kind>, cmp: Cmp, n: u32) -> Formula {
        Formula::Atom(Atom::Count { loc, kinds, cmp, n })
    }

    /// ¬self
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Formula {
        Formula::Not(Box::new(self))
    }

    /// self ∧ other
    pub fn and(self, other: Formula) -> Formula {
        Formula::And(vec![self, other])
    }

    /// self → other
    pub fn implies(self, other: Formula) -> Formula {
        Formula::Implies(Box::new(self), Box::new(other))
    }

    /// K_agent self
    pub fn known_by(self, agent: Agent) -> Formula {
        Formula::K(agent, Box::new(self))
    }

    /// The number of operators and atoms, and the nesting depth, counted
    /// without recursion (the preconditions inside `[E]φ` not included).
    pub fn size_and_depth(&self) -> (usize, usize) {
        let (mut size, mut depth) = (0, 0);
        let mut todo = vec![(self, 1usize)];
        while let Some((f, d)) = todo.pop() {
            size += 1;
            depth = depth.max(d);
            match f {
                Formula::Top | Formula::Bottom | Formula::Atom(_) => {}
                Formula::And(gs) | Formula::Or(gs) => todo.extend(gs.iter().map(|g| (g, d + 1))),
                Formula::Implies(a, b)
                | Formula::Iff(a, b)
                | Formula::Announce(a, b)
                | Formula::AnnounceDiamond(a, b) => {
                    todo.push((a, d + 1));
                    todo.push((b, d + 1));
                }
                Formula::Not(g)
                | Formula::K(_, g)
                | Formula::M(_, g)
                | Formula::Kw(_, g)
                | Formula::E(_, g)
                | Formula::C(_, g)
                | Formula::D(_, g)
                | Formula::Update(_, g)
                | Formula::UpdateDiamond(_, g) => todo.push((g, d + 1)),
            }
        }
        (size, depth)
    }

    /// Calls `f` on every atom of the formula, outside the event models of
    /// its updates, in order.
    pub fn for_each_atom<'f>(&'f self, f: &mut impl FnMut(&'f Atom)) {
        let mut todo = vec![self];
        while let Some(g) = todo.pop() {
            match g {
                Formula::Atom(a) => f(a),
                Formula::Top | Formula::Bottom => {}
                Formula::And(gs) | Formula::Or(gs) => todo.extend(gs.iter().rev()),
                Formula::Implies(a, b)
                | Formula::Iff(a, b)
                | Formula::Announce(a, b)
                | Formula::AnnounceDiamond(a, b) => todo.extend([&**b, &**a]),
                Formula::Not(h)
                | Formula::K(_, h)
                | Formula::M(_, h)
                | Formula::Kw(_, h)
                | Formula::E(_, h)
                | Formula::C(_, h)
                | Formula::D(_, h)
                | Formula::Update(_, h)
                | Formula::UpdateDiamond(_, h) => todo.push(h),
            }
        }
    }

    /// Whether some update `[E]ψ` or `<E>ψ` in `f` has event models for
    /// which `p` holds (the event models' own preconditions are not
    /// searched), found without recursion.
    pub fn any_update(&self, p: impl Fn(&[EventModel]) -> bool) -> bool {
        let mut todo = vec![self];
        while let Some(f) = todo.pop() {
            match f {
                Formula::Top | Formula::Bottom | Formula::Atom(_) => {}
                Formula::And(gs) | Formula::Or(gs) => todo.extend(gs.iter()),
                Formula::Implies(a, b)
                | Formula::Iff(a, b)
                | Formula::Announce(a, b)
                | Formula::AnnounceDiamond(a, b) => todo.extend([&**a, &**b]),
                Formula::Not(g)
                | Formula::K(_, g)
                | Formula::M(_, g)
                | Formula::Kw(_, g)
                | Formula::E(_, g)
                | Formula::C(_, g)
                | Formula::D(_, g) => todo.push(g),
                Formula::Update(ms, g) | Formula::UpdateDiamond(ms, g) => {
                    if p(ms) {
                        return true;
                    }
                    todo.push(g);
                }
            }
        }
        false
    }
}
