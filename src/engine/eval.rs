//! Model checking by sets of worlds: the truth set of every subformula is
//! computed bottom-up with bit-set operations, never by recursion per world.

use fixedbitset::FixedBitSet;

use super::counts::CountTables;
use super::formula::{Agent, Atom, Formula};
use super::model::{Csr, ExplicitModel, Partition, Rel};
use super::{groups, par, update, EngineError};

/// The set of worlds of `m` where `f` holds.
pub(crate) fn eval_set(m: &ExplicitModel, f: &Formula) -> Result<FixedBitSet, EngineError> {
    set(m, f, &mut CountTables::for_formula(f))
}

/// The sets of worlds of `m` where each of `fs` holds, with count tables
/// shared by all of them (an atom repeated across the formulas is
/// evaluated once).
pub(crate) fn eval_sets(
    m: &ExplicitModel,
    fs: &[&Formula],
) -> Result<Vec<FixedBitSet>, EngineError> {
    let mut tables = CountTables::for_formulas(fs);
    fs.iter().map(|f| set(m, f, &mut tables)).collect()
}

/// The set of worlds of `m` where `f` holds, with the count tables of the
/// whole formula being evaluated.
fn set(m: &ExplicitModel, f: &Formula, t: &mut CountTables) -> Result<FixedBitSet, EngineError> {
    super::cancel::check()?;
    let n = m.n;
    Ok(match f {
        Formula::Top => full(n),
        Formula::Bottom => FixedBitSet::with_capacity(n),
        Formula::Atom(a) => atom(m, a, t)?,
        Formula::Not(g) => complement(set(m, g, t)?),
        Formula::And(gs) => {
            let mut s = full(n);
            for g in gs {
                s.intersect_with(&set(m, g, t)?);
            }
            s
        }
        Formula::Or(gs) => {
            let mut s = FixedBitSet::with_capacity(n);
            for g in gs {
                s.union_with(&set(m, g, t)?);
            }
            s
        }
        Formula::Implies(a, b) => {
            let mut s = complement(set(m, a, t)?);
            s.union_with(&set(m, b, t)?);
            s
        }
        Formula::Iff(a, b) => {
            let mut s = set(m, a, t)?;
            s.symmetric_difference_with(&set(m, b, t)?);
            complement(s)
        }
        Formula::K(a, g) => knows(m, *a, &set(m, g, t)?)?,
        Formula::M(a, g) => complement(knows(m, *a, &complement(set(m, g, t)?))?),
        Formula::Kw(a, g) => knows_whether(m, *a, &set(m, g, t)?)?,
        Formula::E(g, h) => everybody(m, g, &set(m, h, t)?)?,
        Formula::C(g, h) => common(m, g, &set(m, h, t)?)?,
        Formula::D(g, h) => distributed(m, g, &set(m, h, t)?)?,
        Formula::Announce(psi, phi) => announce(m, set(m, psi, t)?, phi, false)?,
        Formula::AnnounceDiamond(psi, phi) => announce(m, set(m, psi, t)?, phi, true)?,
        Formula::Update(models, phi) => update::eval_update(m, models, phi, false)?,
        Formula::UpdateDiamond(models, phi) => update::eval_update(m, models, phi, true)?,
    })
}

/// Every world.
pub(crate) fn full(n: usize) -> FixedBitSet {
    let mut s = FixedBitSet::with_capacity(n);
    s.insert_range(..);
    s
}

pub(crate) use super::par::bits_where;

/// The worlds not in `s`.
pub(crate) fn complement(mut s: FixedBitSet) -> FixedBitSet {
    s.toggle_range(..);
    s
}

/// Agent `a`'s relation, or an error if there is no such agent.
fn relation(m: &ExplicitModel, a: Agent) -> Result<&Rel, EngineError> {
    m.rels.get(a).ok_or_else(|| {
        EngineError::Malformed(format!("agent {a} out of range ({} agents)", m.rels.len()))
    })
}

/// The truth set of an atom.
fn atom(m: &ExplicitModel, a: &Atom, t: &mut CountTables) -> Result<FixedBitSet, EngineError> {
    let shape = &m.shape;
    match a {
        Atom::Prop(p) => {
            if *p >= shape.props {
                return Err(EngineError::Malformed(format!(
                    "proposition {p} out of range ({} propositions)",
                    shape.props
                )));
            }
            let col = shape.cards() + p;
            Ok(bits_where(m.n, |x| m.row(x)[col] != 0))
        }
        Atom::Compare(c) => {
            let mut props = Vec::new();
            c.left.props(&mut props);
            c.right.props(&mut props);
            if let Some(p) = props.iter().find(|&&p| p >= shape.props) {
                return Err(EngineError::Malformed(format!(
                    "proposition {p} out of range ({} propositions)",
                    shape.props
                )));
            }
            let col = shape.cards();
            let c: crate::engine::formula::Comparison = (**c).clone();
            Ok(bits_where(m.n, |x| {
                let row = m.row(x);
                c.holds(&|p| row[col + p] != 0)
            }))
        }
        Atom::Count { loc, kinds, .. } => {
            if *loc >= shape.locations {
                return Err(EngineError::Malformed(format!(
                    "location {loc} out of range ({} locations)",
                    shape.locations
                )));
            }
            if let Some(k) = kinds.iter().find(|&&k| k >= shape.kinds()) {
                return Err(EngineError::Malformed(format!(
                    "card kind {k} out of range ({} kinds)",
                    shape.kinds()
                )));
            }
            Ok(t.atom(m, a))
        }
    }
}

/// K_a: the worlds all of whose a-successors are in `s`.
pub(crate) fn knows(
    m: &ExplicitModel,
    a: Agent,
    s: &FixedBitSet,
) -> Result<FixedBitSet, EngineError> {
    Ok(knows_rel(relation(m, a)?, m.n, s))
}

/// Kw_a: the worlds all of whose a-successors agree on `s`.
fn knows_whether(m: &ExplicitModel, a: Agent, s: &FixedBitSet) -> Result<FixedBitSet, EngineError> {
    match relation(m, a)? {
        Rel::Partition(p) => {
            // A class is mixed if it meets both `s` and its complement.
            let marks = par::class_marks(p, s);
            Ok(bits_where(m.n, |x| marks[p.class[x] as usize] != 3))
        }
        Rel::General(g) => Ok(bits_where(m.n, |x| {
            let succ = g.get(x);
            let yes = succ.iter().filter(|&&y| s.contains(y as usize)).count();
            yes == 0 || yes == succ.len()
        })),
    }
}

/// K over any relation.
fn knows_rel(rel: &Rel, n: usize, s: &FixedBitSet) -> FixedBitSet {
    match rel {
        Rel::Partition(p) => knows_partition(p, s),
        Rel::General(g) => bits_where(n, |x| g.get(x).iter().all(|&y| s.contains(y as usize))),
    }
}

/// K over a partition: the classes without a world outside `s`.
fn knows_partition(p: &Partition, s: &FixedBitSet) -> FixedBitSet {
    let mut bad = FixedBitSet::with_capacity(p.count);
    for x in s.zeroes() {
        bad.insert(p.class[x] as usize);
    }
    bits_where(p.class.len(), |x| !bad.contains(p.class[x] as usize))
}

/// E_G: everybody in G knows.
fn everybody(m: &ExplicitModel, g: &[Agent], s: &FixedBitSet) -> Result<FixedBitSet, EngineError> {
    let mut out = full(m.n);
    for &a in g {
        out.intersect_with(&knows(m, a, s)?);
    }
    Ok(out)
}

/// C_G: the worlds from which no G-path of length ≥ 1 reaches a world outside `s`.
///
/// The worlds with a G-successor outside `s` are closed backwards under
/// "has a G-successor in the set"; the answer is the complement.
fn common(m: &ExplicitModel, g: &[Agent], s: &FixedBitSet) -> Result<FixedBitSet, EngineError> {
    let mut reach = complement(everybody(m, g, s)?);
    let mut stack: Vec<u32> = reach.ones().map(|x| x as u32).collect();
    let rels: Vec<&Rel> = g.iter().map(|&a| &m.rels[a]).collect();
    let mut done: Vec<FixedBitSet> = rels
        .iter()
        .map(|r| match r {
            Rel::Partition(p) => FixedBitSet::with_capacity(p.count),
            Rel::General(_) => FixedBitSet::new(),
        })
        .collect();
    let reversed: Vec<Option<Csr>> = rels
        .iter()
        .map(|r| match r {
            Rel::Partition(_) => None,
            Rel::General(csr) => Some(csr.reverse()),
        })
        .collect();
    while let Some(y) = stack.pop() {
        let y = y as usize;
        for (i, rel) in rels.iter().enumerate() {
            let preds = match (rel, &reversed[i]) {
                (Rel::Partition(p), _) => {
                    let c = p.class[y] as usize;
                    if done[i].put(c) {
                        continue;
                    }
                    p.members().get(c)
                }
                (Rel::General(_), Some(rev)) => rev.get(y),
                (Rel::General(_), None) => unreachable!("reversed for every general relation"),
            };
            for &z in preds {
                if !reach.put(z as usize) {
                    stack.push(z);
                }
            }
        }
    }
    Ok(complement(reach))
}

/// D_G: K over the intersection of G's relations (stored for the group once
/// a contraction has merged worlds). For the empty group the intersection
/// is the universal relation.
fn distributed(
    m: &ExplicitModel,
    g: &[Agent],
    s: &FixedBitSet,
) -> Result<FixedBitSet, EngineError> {
    let agents = m.rels.len();
    let mask = groups::mask_of(g, agents)
        .ok_or_else(|| EngineError::Malformed(format!("a group of {g:?} with {agents} agents")))?;
    Ok(match (mask.count_ones(), &m.groups) {
        (0, _) if s.is_full() => full(m.n),
        (0, _) => FixedBitSet::with_capacity(m.n),
        (1, _) => knows_rel(&m.rels[mask.trailing_zeros() as usize], m.n, s),
        (_, Some(gs)) => knows_rel(&gs[groups::index(mask, agents)], m.n, s),
        (_, None) => {
            let mut members = (0..agents).filter(|&a| mask >> a & 1 == 1);
            let first = members.next().expect("two or more agents");
            let mut joint = m.rels[first].clone();
            for a in members {
                joint = groups::intersect(&joint, &m.rels[a], m.n);
            }
            knows_rel(&joint, m.n, s)
        }
    })
}

/// \[!ψ\]φ (or ⟨!ψ⟩φ): φ evaluated in the submodel of the ψ-worlds.
fn announce(
    m: &ExplicitModel,
    ps: FixedBitSet,
    phi: &Formula,
    diamond: bool,
) -> Result<FixedBitSet, EngineError> {
    let (sub, kept) = m.restrict(&ps);
    let inner = eval_set(&sub, phi)?;
    let mut out = FixedBitSet::with_capacity(m.n);
    for i in inner.ones() {
        out.insert(kept[i] as usize);
    }
    if !diamond {
        out.union_with(&complement(ps));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::EventModel;
    use crate::engine::formula::Cmp;
    use crate::engine::testkit::*;
    use crate::engine::{Backend, Relation};

    fn father() -> Formula {
        Formula::Or(vec![p(0), p(1), p(2)])
    }

    fn nobody_knows() -> Formula {
        Formula::And(
            (0..3)
                .map(|i| Formula::Kw(i, Box::new(p(i))).not())
                .collect(),
        )
    }

    #[test]
    fn muddy_children_by_updates() {
        let m = muddy();
        assert_eq!(m.world_count(), 8);
        let m = m
            .apply(&EventModel::announcement("father", 3, father()), None)
            .unwrap();
        assert_eq!(m.world_count(), 7);
        assert!(holds(&*m, &nobody_knows()));
        let m = m
            .apply(&EventModel::announcement("nobody", 3, nobody_knows()), None)
            .unwrap();
        assert_eq!(m.world_count(), 4);
        assert!(holds(&*m, &p(0).known_by(0)));
        assert!(holds(&*m, &p(1).known_by(1)));
        assert!(!holds(&*m, &Formula::Kw(2, Box::new(p(2)))));
        let clean = Formula::Announce(
            Box::new(Formula::Kw(0, Box::new(p(0)))),
            Box::new(p(2).not().known_by(2)),
        );
        assert!(holds(&*m, &clean));
    }

    #[test]
    fn muddy_children_by_announcement_formulas() {
        let m = muddy();
        let both = Formula::And(vec![p(0).known_by(0), p(1).known_by(1)]);
        let after_one = Formula::Announce(
            Box::new(father()),
            Box::new(Formula::Announce(
                Box::new(nobody_knows()),
                Box::new(both.clone()),
            )),
        );
        assert!(holds(&m, &after_one));
        let too_early = Formula::Announce(Box::new(father()), Box::new(both));
        assert!(!holds(&m, &too_early));
        let diamond = Formula::AnnounceDiamond(Box::new(father()), Box::new(nobody_knows()));
        assert!(holds(&m, &diamond));
        assert_eq!(m.satisfying(&father().not()).unwrap().len(), 1);
        let box_false = Formula::Announce(Box::new(father()), Box::new(Formula::Bottom));
        assert_eq!(
            m.satisfying(&box_false).unwrap(),
            m.satisfying(&father().not()).unwrap()
        );
    }

    #[test]
    fn announce_agrees_with_applying() {
        let m = qa_deal();
        let psi = Formula::holds(1, A).not();
        let phis = [
            Formula::holds(1, Q).known_by(0),
            Formula::Kw(2, Box::new(Formula::holds(0, Q))),
            Formula::C(vec![0, 1, 2], Box::new(Formula::holds(1, A).not())),
            Formula::E(vec![0, 2], Box::new(Formula::holds(1, Q))),
        ];
        let ann = EventModel::announcement("ann", 3, psi.clone());
        for w in 0..m.len() {
            let here = at(&m, w);
            let truth = here.eval_actual(&psi).unwrap();
            for phi in &phis {
                let f = Formula::Announce(Box::new(psi.clone()), Box::new(phi.clone()));
                let expected = !truth || holds(&*here.apply(&ann, None).unwrap(), phi);
                assert_eq!(here.eval_actual(&f).unwrap(), expected);
            }
        }
    }

    #[test]
    fn connectives_and_group_operators() {
        let m = qa_deal();
        assert!(m.eval_valid(&Formula::And(vec![])).unwrap());
        assert!(m.satisfying(&Formula::Or(vec![])).unwrap().is_empty());
        let q0 = Formula::holds(0, Q);
        let q1 = Formula::holds(1, Q);
        let iff = Formula::Iff(Box::new(q0.clone()), Box::new(q0.clone().not().not()));
        assert!(m.eval_valid(&iff).unwrap());
        let both = q0.clone().and(q1.clone());
        assert!(holds(&m, &Formula::D(vec![0, 1], Box::new(both.clone()))));
        assert!(!holds(&m, &Formula::E(vec![0, 1], Box::new(both.clone()))));
        assert!(!holds(&m, &Formula::D(vec![0], Box::new(both.clone()))));
        assert!(holds(&m, &Formula::M(2, Box::new(q0.clone().not()))));
        assert!(holds(&m, &Formula::C(vec![], Box::new(Formula::Bottom))));
        assert!(!holds(&m, &Formula::D(vec![], Box::new(q0.clone()))));
        let hand_q = Formula::count(0, vec![Q, A], Cmp::Eq, 1);
        assert!(holds(&m, &Formula::C(vec![0, 1, 2], Box::new(hand_q))));
        assert!(!holds(
            &m,
            &Formula::C(vec![0, 1], Box::new(q0.not().implies(q1)))
        ));
        assert!(matches!(
            m.eval_actual(&Formula::holds(9, Q)),
            Err(EngineError::Malformed(_))
        ));
        assert!(m.eval_actual(&p(0)).is_err());
        assert!(m.eval_actual(&Formula::Top.known_by(3)).is_err());
    }

    #[test]
    fn common_knowledge_on_general_relations() {
        // A chain 0 → 1 → 2 → 2 for agent 0 and loops for agent 1; p fails at 2 only.
        let m = ExplicitModel::from_valuations(
            2,
            2,
            vec![vec![true, false], vec![true, true], vec![false, false]],
            vec![
                Relation::General(vec![vec![1], vec![2], vec![2]]),
                Relation::General(vec![vec![0], vec![1], vec![2]]),
            ],
            0,
        )
        .unwrap();
        assert!(!m.is_s5());
        let c = Formula::C(vec![0, 1], Box::new(p(0)));
        assert!(m.satisfying(&c).unwrap().is_empty());
        let e = Formula::E(vec![0, 1], Box::new(p(0)));
        assert_eq!(m.satisfying(&e).unwrap(), vec![0]);
        let c1 = Formula::C(vec![1], Box::new(p(0)));
        assert_eq!(m.satisfying(&c1).unwrap(), vec![0, 1]);
        let d = Formula::D(vec![0, 1], Box::new(Formula::Bottom));
        assert_eq!(m.satisfying(&d).unwrap(), vec![0, 1]);
    }
}
