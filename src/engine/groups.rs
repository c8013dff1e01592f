//! Group relations for distributed knowledge.
//!
//! `D_G φ` quantifies over the intersection of G's relations. Bisimulation
//! contraction does not preserve it: merging bisimilar worlds can make the
//! intersection of the merged relations larger than the merged intersection.
//! So as soon as a contraction merges worlds, the model stores one relation
//! per group of two or more agents: contraction refines by them too and
//! merges them like the agents' relations, and product update multiplies
//! them by the intersections of the event relations. Until then they are
//! the intersections of the agents' relations, computed when needed.

use super::formula::Agent;
use super::model::{Csr, Partition, Rel};

/// Above this number of agents, group relations are not stored (there would
/// be too many) and contraction does not merge worlds.
pub(crate) const MAX_GROUP_AGENTS: usize = 10;

/// The groups of two or more of `agents` agents, as bit masks, increasing.
pub(crate) fn masks(agents: usize) -> Vec<u64> {
    (0u64..1 << agents.min(MAX_GROUP_AGENTS))
        .filter(|m| m.count_ones() >= 2)
        .collect()
}

/// The bit mask of a group, or `None` if an agent is out of range.
pub(crate) fn mask_of(group: &[Agent], agents: usize) -> Option<u64> {
    let mut mask = 0u64;
    for &a in group {
        if a >= agents || a >= 64 {
            return None;
        }
        mask |= 1 << a;
    }
    Some(mask)
}

/// The index of group `mask` (two or more agents) in [`masks`].
pub(crate) fn index(mask: u64, agents: usize) -> usize {
    masks(agents)
        .binary_search(&mask)
        .expect("a group of two or more agents")
}

/// The intersection of two relations over `n` elements.
pub(crate) fn intersect(a: &Rel, b: &Rel, n: usize) -> Rel {
    match (a, b) {
        (Rel::Partition(p), Rel::Partition(q)) => {
            let pairs = p.class.iter().zip(&q.class).map(|(&l, &r)| (l, r));
            Rel::Partition(Partition::from_pairs(pairs, p.count, q.count, n))
        }
        (Rel::General(g), other) | (other, Rel::General(g)) => {
            let mut csr = Csr::new();
            for x in 0..n {
                csr.items
                    .extend(g.get(x).iter().filter(|&&y| other.related(x, y as usize)));
                csr.push();
            }
            Rel::General(csr)
        }
    }
}

/// The intersection relations of every group of [`masks`], from the
/// agents' relations over `n` elements.
pub(crate) fn intersections(rels: &[Rel], n: usize) -> Vec<Rel> {
    let agents = rels.len();
    let mut by_mask: Vec<Option<Rel>> = vec![None; 1 << agents.min(MAX_GROUP_AGENTS)];
    let mut out = Vec::new();
    for mask in masks(agents) {
        let high = 63 - mask.leading_zeros() as usize;
        let low = mask & !(1 << high);
        let rel = if low.count_ones() == 1 {
            intersect(&rels[low.trailing_zeros() as usize], &rels[high], n)
        } else {
            let low_rel = by_mask[low as usize]
                .as_ref()
                .expect("smaller groups first");
            intersect(low_rel, &rels[high], n)
        };
        by_mask[mask as usize] = Some(rel.clone());
        out.push(rel);
    }
    out
}
