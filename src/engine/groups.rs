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

use std::collections::VecDeque;

use super::formula::Agent;
use super::model::{Csr, Partition, Rel};
use super::{Backend, GroupAccess, WorldId};

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

/// [`Backend::group_accessible`] from the agents' relations alone
/// ([`Backend::accessible`]): right for `E` and `C` on every model, and for
/// `D` on a model whose group relations are the intersections.
pub(crate) fn from_agents<B: Backend + ?Sized>(
    model: &B,
    access: GroupAccess,
    group: &[Agent],
    w: WorldId,
) -> Vec<WorldId> {
    match access {
        GroupAccess::Everybody => {
            let mut out: Vec<WorldId> =
                group.iter().flat_map(|&a| model.accessible(a, w)).collect();
            out.sort_unstable();
            out.dedup();
            out
        }
        GroupAccess::Common => closure(model, group, w),
        GroupAccess::Distributed => match group.split_first() {
            None => (0..model.world_count() as usize).collect(),
            Some((&first, rest)) => {
                let mut out = model.accessible(first, w);
                for &a in rest {
                    let other = model.accessible(a, w);
                    out.retain(|v| other.binary_search(v).is_ok());
                }
                out
            }
        },
    }
}

/// The worlds reachable from `start` by one or more steps along `group`'s
/// relations, in increasing order. On S5 models each equivalence class is
/// expanded once per agent, so the cost is linear in the model's size.
fn closure<B: Backend + ?Sized>(model: &B, group: &[Agent], start: WorldId) -> Vec<WorldId> {
    let n = model.world_count() as usize;
    if start >= n {
        return Vec::new();
    }
    let s5 = model.is_s5();
    let mut seen = vec![false; n];
    let mut expanded = vec![vec![false; n]; group.len()];
    let mut queue = VecDeque::from([start]);
    while let Some(w) = queue.pop_front() {
        for (i, &a) in group.iter().enumerate() {
            if expanded[i][w] {
                continue;
            }
            expanded[i][w] = true;
            let succ = model.accessible(a, w);
            for &v in &succ {
                if s5 {
                    expanded[i][v] = true;
                }
                if !seen[v] {
                    seen[v] = true;
                    queue.push_back(v);
                }
            }
        }
    }
    (0..n).filter(|&v| seen[v]).collect()
}
