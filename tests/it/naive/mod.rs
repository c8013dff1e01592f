//! A deliberately naive second implementation of the semantics of dynamic
//! epistemic logic, written straight from the definitions, to be compared
//! with the engine by the property tests.
//!
//! It shares no code with `src/engine`, only the plain data types
//! (`Formula`, `Atom`, `Cmp`, `Comparison`, `Term`, `EventModel`, `Event`,
//! `Post`, `Relation`): terms and comparisons of variables are evaluated
//! here too.
//! Nothing here is clever: relations are full boolean matrices, formulas are
//! evaluated world by world by recursion, updates build the whole product,
//! and bisimulation contraction refines a partition until it is stable.

use dealer::engine::formula::{Comparison, Term};
use dealer::engine::{Atom, Backend, Cmp, EventModel, Formula, Post, Relation};

/// One world: a valuation of the propositions and an allocation of cards.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NaiveWorld {
    /// The value of each proposition.
    pub props: Vec<bool>,
    /// `cards[loc][kind]`: how many cards of `kind` lie at `loc`.
    pub cards: Vec<Vec<u32>>,
}

/// A Kripke model with one full boolean accessibility matrix per agent.
#[derive(Clone, Debug)]
pub struct NaiveModel {
    /// The worlds.
    pub worlds: Vec<NaiveWorld>,
    /// `rel[agent][w][v]`: whether `agent` considers `v` possible at `w`.
    pub rel: Vec<Vec<Vec<bool>>>,
    /// The actual world.
    pub actual: usize,
}

/// The `n × n` boolean matrix of a relation over `n` elements.
pub fn matrix(relation: &Relation, n: usize) -> Vec<Vec<bool>> {
    let mut m = vec![vec![false; n]; n];
    match relation {
        Relation::Partition(class) => {
            for x in 0..n {
                for y in 0..n {
                    m[x][y] = class[x] == class[y];
                }
            }
        }
        Relation::General(succ) => {
            for x in 0..n {
                for &y in &succ[x] {
                    m[x][y] = true;
                }
            }
        }
    }
    m
}

impl NaiveModel {
    /// A model without cards from valuations and relations (given as in the engine's API).
    pub fn from_valuations(vals: &[Vec<bool>], relations: &[Relation], actual: usize) -> Self {
        let n = vals.len();
        NaiveModel {
            worlds: vals
                .iter()
                .map(|p| NaiveWorld {
                    props: p.clone(),
                    cards: Vec::new(),
                })
                .collect(),
            rel: relations.iter().map(|r| matrix(r, n)).collect(),
            actual,
        }
    }

    /// The number of worlds.
    pub fn len(&self) -> usize {
        self.worlds.len()
    }

    /// The worlds `agent` considers possible at `w`.
    pub fn successors(&self, agent: usize, w: usize) -> Vec<usize> {
        (0..self.len()).filter(|&v| self.rel[agent][w][v]).collect()
    }
}

/// `left ⋈ right`, written out again.
fn compare(cmp: Cmp, left: u32, right: u32) -> bool {
    match cmp {
        Cmp::Lt => left < right,
        Cmp::Le => left <= right,
        Cmp::Eq => left == right,
        Cmp::Ne => left != right,
        Cmp::Ge => left >= right,
        Cmp::Gt => left > right,
    }
}

/// The value of a term of variables at a valuation, written out again: a
/// variable's bits are its value in binary, least significant first.
fn term_value(t: &Term, props: &[bool]) -> i128 {
    match t {
        Term::Const(c) => i128::from(*c),
        Term::Var(bits) => bits
            .iter()
            .enumerate()
            .filter(|&(_, &p)| props[p])
            .map(|(i, _)| 1i128 << i)
            .sum(),
        Term::Add(a, b) => term_value(a, props) + term_value(b, props),
        Term::Sub(a, b) => term_value(a, props) - term_value(b, props),
        Term::Mul(a, b) => term_value(a, props) * term_value(b, props),
    }
}

/// Whether a comparison of terms holds at a valuation.
fn compare_terms(c: &Comparison, props: &[bool]) -> bool {
    let (l, r) = (term_value(&c.left, props), term_value(&c.right, props));
    match c.cmp {
        Cmp::Lt => l < r,
        Cmp::Le => l <= r,
        Cmp::Eq => l == r,
        Cmp::Ne => l != r,
        Cmp::Ge => l >= r,
        Cmp::Gt => l > r,
    }
}

/// Whether `f` holds at world `w` of `m`.
pub fn eval(m: &NaiveModel, w: usize, f: &Formula) -> bool {
    match f {
        Formula::Top => true,
        Formula::Bottom => false,
        Formula::Atom(Atom::Prop(p)) => m.worlds[w].props[*p],
        Formula::Atom(Atom::Compare(c)) => compare_terms(c, &m.worlds[w].props),
        Formula::Atom(Atom::Count { loc, kinds, cmp, n }) => {
            let count: u32 = kinds.iter().map(|&k| m.worlds[w].cards[*loc][k]).sum();
            compare(*cmp, count, *n)
        }
        Formula::Not(g) => !eval(m, w, g),
        Formula::And(gs) => gs.iter().all(|g| eval(m, w, g)),
        Formula::Or(gs) => gs.iter().any(|g| eval(m, w, g)),
        Formula::Implies(a, b) => !eval(m, w, a) || eval(m, w, b),
        Formula::Iff(a, b) => eval(m, w, a) == eval(m, w, b),
        Formula::K(a, g) => m.successors(*a, w).iter().all(|&v| eval(m, v, g)),
        Formula::M(a, g) => m.successors(*a, w).iter().any(|&v| eval(m, v, g)),
        Formula::Kw(a, g) => {
            let succ = m.successors(*a, w);
            succ.iter().all(|&v| eval(m, v, g)) || succ.iter().all(|&v| !eval(m, v, g))
        }
        Formula::E(group, g) => group
            .iter()
            .all(|&a| m.successors(a, w).iter().all(|&v| eval(m, v, g))),
        Formula::C(group, g) => {
            let reach = group_reach(m, group, w);
            (0..m.len()).all(|v| !reach[v] || eval(m, v, g))
        }
        Formula::D(group, g) => (0..m.len())
            .filter(|&v| group.iter().all(|&a| m.rel[a][w][v]))
            .all(|v| eval(m, v, g)),
        Formula::Announce(psi, g) => {
            if !eval(m, w, psi) {
                return true;
            }
            let (r, new_id) = announce(m, psi);
            eval(&r, new_id[w].unwrap(), g)
        }
        Formula::AnnounceDiamond(psi, g) => {
            if !eval(m, w, psi) {
                return false;
            }
            let (r, new_id) = announce(m, psi);
            eval(&r, new_id[w].unwrap(), g)
        }
        Formula::Update(ems, g) => update_at(m, w, ems, g, false),
        Formula::UpdateDiamond(ems, g) => update_at(m, w, ems, g, true),
    }
}

/// Whether `f` holds in every world of `m`.
pub fn valid(m: &NaiveModel, f: &Formula) -> bool {
    (0..m.len()).all(|w| eval(m, w, f))
}

/// The worlds at the end of a path of length ≥ 1 from `w` over the union of
/// the relations of `group`, by repeating "add the successors" until nothing changes.
fn group_reach(m: &NaiveModel, group: &[usize], w: usize) -> Vec<bool> {
    let n = m.len();
    let step = |u: usize, v: usize| group.iter().any(|&a| m.rel[a][u][v]);
    let mut reach: Vec<bool> = (0..n).map(|v| step(w, v)).collect();
    loop {
        let next: Vec<bool> = (0..n)
            .map(|v| reach[v] || (0..n).any(|u| reach[u] && step(u, v)))
            .collect();
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

/// The submodel on the worlds where `keep` holds; also returns each old
/// world's new index. The actual world is kept if it can be (else it becomes 0).
pub fn restrict(m: &NaiveModel, keep: &[bool]) -> (NaiveModel, Vec<Option<usize>>) {
    let old: Vec<usize> = (0..m.len()).filter(|&w| keep[w]).collect();
    let mut new_id = vec![None; m.len()];
    for (i, &w) in old.iter().enumerate() {
        new_id[w] = Some(i);
    }
    let rel = m
        .rel
        .iter()
        .map(|r| {
            old.iter()
                .map(|&u| old.iter().map(|&v| r[u][v]).collect())
                .collect()
        })
        .collect();
    let model = NaiveModel {
        worlds: old.iter().map(|&w| m.worlds[w].clone()).collect(),
        rel,
        actual: new_id[m.actual].unwrap_or(0),
    };
    (model, new_id)
}

/// The model after the public announcement of `psi`: the `psi`-worlds.
pub fn announce(m: &NaiveModel, psi: &Formula) -> (NaiveModel, Vec<Option<usize>>) {
    let keep: Vec<bool> = (0..m.len()).map(|w| eval(m, w, psi)).collect();
    restrict(m, &keep)
}

/// Whether event `e` relates to event `f` in `relation`.
fn event_rel(relation: &Relation, e: usize, f: usize) -> bool {
    match relation {
        Relation::Partition(class) => class[e] == class[f],
        Relation::General(succ) => succ[e].contains(&f),
    }
}

/// The full product `m ⊗ em`: every pair `(w, e)` with `w ⊨ pre(e)`, with the
/// postconditions applied. Returns the product and its pairs (the product's
/// actual world is the first pair, a placeholder).
pub fn product(m: &NaiveModel, em: &EventModel) -> (NaiveModel, Vec<(usize, usize)>) {
    let mut pairs = Vec::new();
    for w in 0..m.len() {
        for (e, event) in em.events.iter().enumerate() {
            if eval(m, w, &event.pre) {
                pairs.push((w, e));
            }
        }
    }
    let worlds = pairs
        .iter()
        .map(|&(w, e)| {
            let mut world = m.worlds[w].clone();
            for post in &em.events[e].post {
                match post {
                    Post::Move { kind, from, to, n } => {
                        world.cards[*from][*kind] = world.cards[*from][*kind]
                            .checked_sub(*n)
                            .expect("naive: a postcondition moves cards that are not there");
                        world.cards[*to][*kind] += n;
                    }
                    Post::MoveAll { from, to } => {
                        for kind in 0..world.cards[*from].len() {
                            let c = world.cards[*from][kind];
                            world.cards[*from][kind] = 0;
                            world.cards[*to][kind] += c;
                        }
                    }
                    // The value φ has in the *old* world of the *old* model.
                    Post::Set(p, phi) => world.props[*p] = eval(m, w, phi),
                }
            }
            world
        })
        .collect();
    let rel = (0..m.rel.len())
        .map(|a| {
            pairs
                .iter()
                .map(|&(w, e)| {
                    pairs
                        .iter()
                        .map(|&(v, f)| m.rel[a][w][v] && event_rel(&em.relations[a], e, f))
                        .collect()
                })
                .collect()
        })
        .collect();
    let model = NaiveModel {
        worlds,
        rel,
        actual: 0,
    };
    (model, pairs)
}

/// The designated events of `em` (every event when none is designated).
fn designated(em: &EventModel) -> Vec<usize> {
    if em.designated.is_empty() {
        (0..em.events.len()).collect()
    } else {
        em.designated.clone()
    }
}

/// `[E₁;…;Eₙ]φ` (or `⟨E₁;…;Eₙ⟩φ` when `diamond`) at world `w`: for every (some)
/// designated event `e` of `E₁` with `w ⊨ pre(e)`, `(w, e) ⊨ [E₂;…;Eₙ]φ` in `m ⊗ E₁`.
pub fn update_at(
    m: &NaiveModel,
    w: usize,
    ems: &[EventModel],
    phi: &Formula,
    diamond: bool,
) -> bool {
    let Some((first, rest)) = ems.split_first() else {
        return eval(m, w, phi);
    };
    let (p, pairs) = product(m, first);
    let mut results = designated(first).into_iter().filter_map(|e| {
        let i = pairs.iter().position(|&pair| pair == (w, e))?;
        Some(update_at(&p, i, rest, phi, diamond))
    });
    if diamond {
        results.any(|b| b)
    } else {
        results.all(|b| b)
    }
}

/// The events of `em` whose precondition holds in the actual world, in increasing order.
pub fn possible_events(m: &NaiveModel, em: &EventModel) -> Vec<usize> {
    (0..em.events.len())
        .filter(|&e| eval(m, m.actual, &em.events[e].pre))
        .collect()
}

/// Product update with `em` where event `e` happens in the actual world,
/// followed by restriction to the part reachable from the new actual world
/// (truth at the actual world does not depend on the rest; this only keeps
/// the naive models small).
pub fn apply(m: &NaiveModel, em: &EventModel, e: usize) -> NaiveModel {
    let (mut p, pairs) = product(m, em);
    p.actual = pairs
        .iter()
        .position(|&pair| pair == (m.actual, e))
        .expect("naive: the actual event is not possible");
    reachable_part(&p)
}

/// The submodel of the worlds reachable from the actual world (by any
/// agents' relations, in any number of steps, the actual world included).
pub fn reachable_part(m: &NaiveModel) -> NaiveModel {
    let all: Vec<usize> = (0..m.rel.len()).collect();
    let mut keep = group_reach(m, &all, m.actual);
    keep[m.actual] = true;
    restrict(m, &keep).0
}

/// The largest bisimulation of `m`, as a class number per world, and the
/// number of classes. Starts from the relation that relates every pair of
/// worlds (one class) and refines it until it is stable: two worlds stay
/// related while they agree on cards and propositions and, for every agent,
/// reach the same set of classes.
pub fn bisimulation_classes(m: &NaiveModel) -> (Vec<usize>, usize) {
    refine(m, &[])
}

/// The largest *collective* bisimulation of `m`: like
/// [`bisimulation_classes`], but every group of two or more agents counts as
/// one more agent whose relation is the intersection of theirs. Unlike plain
/// bisimulation it preserves distributed knowledge, and it is what the
/// engine contracts by.
pub fn collective_classes(m: &NaiveModel) -> (Vec<usize>, usize) {
    let agents = m.rel.len();
    let groups: Vec<Vec<usize>> = (1usize..1 << agents)
        .filter(|mask| mask.count_ones() >= 2)
        .map(|mask| (0..agents).filter(|a| mask & (1 << a) != 0).collect())
        .collect();
    refine(m, &groups)
}

/// Partition refinement over the agents' relations and the intersections of `groups`.
fn refine(m: &NaiveModel, groups: &[Vec<usize>]) -> (Vec<usize>, usize) {
    let n = m.len();
    let mut class = vec![0usize; n];
    let mut count = usize::from(n > 0);
    loop {
        let signature = |w: usize| {
            let mut reached: Vec<Vec<usize>> = (0..m.rel.len())
                .map(|a| {
                    let mut cs: Vec<usize> = m.successors(a, w).iter().map(|&v| class[v]).collect();
                    cs.sort_unstable();
                    cs.dedup();
                    cs
                })
                .collect();
            for g in groups {
                let mut cs: Vec<usize> = (0..n)
                    .filter(|&v| g.iter().all(|&a| m.rel[a][w][v]))
                    .map(|v| class[v])
                    .collect();
                cs.sort_unstable();
                cs.dedup();
                reached.push(cs);
            }
            (class[w], m.worlds[w].clone(), reached)
        };
        let sigs: Vec<_> = (0..n).map(signature).collect();
        let mut distinct: Vec<_> = Vec::new();
        let mut new_class = vec![0usize; n];
        for w in 0..n {
            new_class[w] = match distinct.iter().position(|s| *s == sigs[w]) {
                Some(i) => i,
                None => {
                    distinct.push(sigs[w].clone());
                    distinct.len() - 1
                }
            };
        }
        let new_count = distinct.len();
        class = new_class;
        if new_count == count {
            return (class, count);
        }
        count = new_count;
    }
}

/// The quotient of `m` by its largest collective bisimulation (the one the
/// engine contracts by): one world per class, `[u] R_a [v]` iff some member
/// of `[u]` has an `a`-successor in `[v]`.
pub fn quotient(m: &NaiveModel) -> NaiveModel {
    let (class, count) = collective_classes(m);
    let mut worlds = vec![None; count];
    for w in 0..m.len() {
        worlds[class[w]].get_or_insert_with(|| m.worlds[w].clone());
    }
    let mut rel = vec![vec![vec![false; count]; count]; m.rel.len()];
    for (a, r) in m.rel.iter().enumerate() {
        for u in 0..m.len() {
            for v in 0..m.len() {
                if r[u][v] {
                    rel[a][class[u]][class[v]] = true;
                }
            }
        }
    }
    NaiveModel {
        worlds: worlds.into_iter().map(Option::unwrap).collect(),
        rel,
        actual: class[m.actual],
    }
}

/// Whether every relation of `m` is reflexive, symmetric and transitive.
pub fn is_s5(m: &NaiveModel) -> bool {
    let n = m.len();
    m.rel.iter().all(|r| {
        (0..n).all(|x| r[x][x])
            && (0..n).all(|x| (0..n).all(|y| r[x][y] == r[y][x]))
            && (0..n).all(|x| (0..n).all(|y| (0..n).all(|z| !(r[x][y] && r[y][z]) || r[x][z])))
    })
}

/// Every allocation of a deck (`copies[k]` of kind k) to locations holding
/// `sizes[l]` cards each, as `counts[loc][kind]`, by plain recursion over
/// (kind, location) cells.
pub fn deal_allocations(copies: &[u32], sizes: &[u32]) -> Vec<Vec<Vec<u32>>> {
    fn fill(
        kind: usize,
        loc: usize,
        copies_left: &mut Vec<u32>,
        room: &mut Vec<u32>,
        counts: &mut Vec<Vec<u32>>,
        out: &mut Vec<Vec<Vec<u32>>>,
    ) {
        let (kinds, locs) = (copies_left.len(), room.len());
        if kind == kinds {
            if room.iter().all(|&r| r == 0) {
                out.push(counts.clone());
            }
            return;
        }
        if loc == locs {
            if copies_left[kind] == 0 {
                fill(kind + 1, 0, copies_left, room, counts, out);
            }
            return;
        }
        for c in 0..=copies_left[kind].min(room[loc]) {
            copies_left[kind] -= c;
            room[loc] -= c;
            counts[loc][kind] = c;
            fill(kind, loc + 1, copies_left, room, counts, out);
            counts[loc][kind] = 0;
            copies_left[kind] += c;
            room[loc] += c;
        }
    }
    let mut out = Vec::new();
    let mut counts = vec![vec![0; copies.len()]; sizes.len()];
    fill(
        0,
        0,
        &mut copies.to_vec(),
        &mut sizes.to_vec(),
        &mut counts,
        &mut out,
    );
    out
}

/// The model of a card deal: every allocation, agent `a` unable to tell apart
/// allocations that agree on the locations in `observers[a]`; `props`
/// propositions, false everywhere.
pub fn deal_model(
    copies: &[u32],
    sizes: &[u32],
    observers: &[Vec<usize>],
    props: usize,
    actual: &[Vec<u32>],
) -> NaiveModel {
    let allocations = deal_allocations(copies, sizes);
    let n = allocations.len();
    let rel = observers
        .iter()
        .map(|seen| {
            (0..n)
                .map(|w| {
                    (0..n)
                        .map(|v| seen.iter().all(|&l| allocations[w][l] == allocations[v][l]))
                        .collect()
                })
                .collect()
        })
        .collect();
    let actual = allocations
        .iter()
        .position(|a| a == actual)
        .expect("naive: the actual deal is not an allocation");
    NaiveModel {
        worlds: allocations
            .into_iter()
            .map(|cards| NaiveWorld {
                props: vec![false; props],
                cards,
            })
            .collect(),
        rel,
        actual,
    }
}

/// Whether the actual worlds of `a` and `b` (over the same agents) are
/// bisimilar: their disjoint union's largest bisimulation relates them.
pub fn bisimilar(a: &NaiveModel, b: &NaiveModel) -> bool {
    let (na, n) = (a.len(), a.len() + b.len());
    let rel = (0..a.rel.len())
        .map(|ag| {
            (0..n)
                .map(|u| {
                    (0..n)
                        .map(|v| match (u < na, v < na) {
                            (true, true) => a.rel[ag][u][v],
                            (false, false) => b.rel[ag][u - na][v - na],
                            _ => false,
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let union = NaiveModel {
        worlds: a.worlds.iter().chain(&b.worlds).cloned().collect(),
        rel,
        actual: a.actual,
    };
    let (class, _) = bisimulation_classes(&union);
    class[a.actual] == class[na + b.actual]
}

/// An engine's listed worlds read back as a naive model: each world's cards
/// and propositions and every agent's arrows, as `why` and figures read
/// them (`Backend::world`, `Backend::accessible`). Only this conversion
/// touches the engine; everything else here works on the copy.
pub fn of_backend(m: &dyn Backend) -> NaiveModel {
    let n = m.world_count() as usize;
    let worlds = (0..n)
        .map(|w| {
            let v = m.world(w);
            NaiveWorld {
                props: v.props,
                cards: v.cards,
            }
        })
        .collect();
    let rel = (0..m.agents())
        .map(|a| {
            (0..n)
                .map(|w| {
                    let mut row = vec![false; n];
                    for v in m.accessible(a, w) {
                        row[v] = true;
                    }
                    row
                })
                .collect()
        })
        .collect();
    NaiveModel {
        worlds,
        rel,
        actual: m.actual(),
    }
}
