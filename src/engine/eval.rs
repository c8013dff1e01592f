//! Model checking by sets of worlds: the truth set of every subformula is
//! computed bottom-up with bit-set operations, never by recursion per world.

use fixedbitset::FixedBitSet;

use super::formula::{Agent, Atom, Formula};
use super::model::{Csr, ExplicitModel, Partition, Rel};
use super::{update, EngineError};

/// The set of worlds of `m` where `f` holds.
pub(crate) fn eval_set(m: &ExplicitModel, f: &Formula) -> Result<FixedBitSet, EngineError> {
    let n = m.n;
    Ok(match f {
        Formula::Top => full(n),
        Formula::Bottom => FixedBitSet::with_capacity(n),
        Formula::Atom(a) => atom(m, a)?,
        Formula::Not(g) => complement(eval_set(m, g)?),
        Formula::And(gs) => {
            let mut s = full(n);
            for g in gs {
                s.intersect_with(&eval_set(m, g)?);
            }
            s
        }
        Formula::Or(gs) => {
            let mut s = FixedBitSet::with_capacity(n);
            for g in gs {
                s.union_with(&eval_set(m, g)?);
            }
            s
        }
        Formula::Implies(a, b) => {
            let mut s = complement(eval_set(m, a)?);
            s.union_with(&eval_set(m, b)?);
            s
        }
        Formula::Iff(a, b) => {
            let mut s = eval_set(m, a)?;
            s.symmetric_difference_with(&eval_set(m, b)?);
            complement(s)
        }
        Formula::K(a, g) => knows(m, *a, &eval_set(m, g)?)?,
        Formula::M(a, g) => complement(knows(m, *a, &complement(eval_set(m, g)?))?),
        Formula::Kw(a, g) => {
            let s = eval_set(m, g)?;
            let mut k = knows(m, *a, &s)?;
            k.union_with(&knows(m, *a, &complement(s))?);
            k
        }
        Formula::E(g, h) => everybody(m, g, &eval_set(m, h)?)?,
        Formula::C(g, h) => common(m, g, &eval_set(m, h)?)?,
        Formula::D(g, h) => distributed(m, g, &eval_set(m, h)?)?,
        Formula::Announce(psi, phi) => announce(m, psi, phi, false)?,
        Formula::AnnounceDiamond(psi, phi) => announce(m, psi, phi, true)?,
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
fn atom(m: &ExplicitModel, a: &Atom) -> Result<FixedBitSet, EngineError> {
    let shape = &m.shape;
    let mut out = FixedBitSet::with_capacity(m.n);
    match a {
        Atom::Prop(p) => {
            if *p >= shape.props {
                return Err(EngineError::Malformed(format!(
                    "proposition {p} out of range ({} propositions)",
                    shape.props
                )));
            }
            let col = shape.cards() + p;
            for x in 0..m.n {
                out.set(x, m.row(x)[col] != 0);
            }
        }
        Atom::Count { loc, kinds, cmp, n } => {
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
            let cols: Vec<_> = kinds.iter().map(|&k| shape.columns(k)).collect();
            let here = *loc as u8;
            for x in 0..m.n {
                let row = m.row(x);
                let count: usize = cols
                    .iter()
                    .map(|c| row[c.clone()].iter().filter(|&&l| l == here).count())
                    .sum();
                out.set(x, cmp.holds(count as u32, *n));
            }
        }
    }
    Ok(out)
}

/// K_a: the worlds all of whose a-successors are in `s`.
pub(crate) fn knows(
    m: &ExplicitModel,
    a: Agent,
    s: &FixedBitSet,
) -> Result<FixedBitSet, EngineError> {
    Ok(match relation(m, a)? {
        Rel::Partition(p) => knows_partition(p, s),
        Rel::General(g) => {
            let mut out = FixedBitSet::with_capacity(m.n);
            for x in 0..m.n {
                out.set(x, g.get(x).iter().all(|&y| s.contains(y as usize)));
            }
            out
        }
    })
}

/// K over a partition: the classes without a world outside `s`.
fn knows_partition(p: &Partition, s: &FixedBitSet) -> FixedBitSet {
    let mut bad = FixedBitSet::with_capacity(p.count);
    for x in s.zeroes() {
        bad.insert(p.class[x] as usize);
    }
    let mut out = FixedBitSet::with_capacity(p.class.len());
    for (x, &c) in p.class.iter().enumerate() {
        out.set(x, !bad.contains(c as usize));
    }
    out
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

/// D_G: K over the intersection of G's relations. For the empty group the
/// intersection is the universal relation.
fn distributed(
    m: &ExplicitModel,
    g: &[Agent],
    s: &FixedBitSet,
) -> Result<FixedBitSet, EngineError> {
    let rels = g
        .iter()
        .map(|&a| relation(m, a))
        .collect::<Result<Vec<_>, _>>()?;
    if rels.is_empty() {
        return Ok(if s.is_full() {
            full(m.n)
        } else {
            FixedBitSet::with_capacity(m.n)
        });
    }
    let partitions: Option<Vec<&Partition>> = rels
        .iter()
        .map(|r| match r {
            Rel::Partition(p) => Some(p),
            Rel::General(_) => None,
        })
        .collect();
    if let Some(ps) = partitions {
        if ps.len() == 1 {
            return Ok(knows_partition(ps[0], s));
        }
        let mut flat = Vec::with_capacity(m.n * ps.len());
        for x in 0..m.n {
            flat.extend(ps.iter().map(|p| p.class[x]));
        }
        let joint = Partition::from_labels(flat.chunks(ps.len()));
        return Ok(knows_partition(&joint, s));
    }
    let pivot = rels
        .iter()
        .position(|r| matches!(r, Rel::General(_)))
        .unwrap_or(0);
    let mut out = FixedBitSet::with_capacity(m.n);
    for x in 0..m.n {
        let ok = rels[pivot]
            .successors(x)
            .iter()
            .all(|&y| s.contains(y as usize) || rels.iter().any(|r| !r.related(x, y as usize)));
        out.set(x, ok);
    }
    Ok(out)
}

/// \[!ψ\]φ (or ⟨!ψ⟩φ): φ evaluated in the submodel of the ψ-worlds.
fn announce(
    m: &ExplicitModel,
    psi: &Formula,
    phi: &Formula,
    diamond: bool,
) -> Result<FixedBitSet, EngineError> {
    let ps = eval_set(m, psi)?;
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
