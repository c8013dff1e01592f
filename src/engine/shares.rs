//! The per-card split of listed worlds ([`Backend::shares`]'s default):
//! the worlds an agent, a group or nobody in particular considers possible,
//! grouped by where one card kind lies, with how many satisfy a formula.
//! The symbolic engine computes the same from its sets of states
//! (`symbolic/project.rs`); the tests compare the two.

use std::collections::{BTreeMap, HashSet};

use num_bigint::BigUint;

use super::{Among, Backend, EngineError, Formula, Kind, Share};

/// The worlds `among` counts, by listing them: every world (a listed
/// model keeps the worlds reachable from the actual one, the worlds that
/// `worlds` lists), or those the agent or group considers possible in the
/// actual world.
pub(crate) fn worlds<B: Backend + ?Sized>(model: &B, among: &Among) -> Vec<usize> {
    let actual = model.actual();
    match among {
        Among::Reachable => (0..model.world_count() as usize).collect(),
        Among::Agent(a) => model.accessible(*a, actual),
        Among::Group(access, group) => model.group_accessible(*access, group, actual),
    }
}

/// [`Backend::shares`] by listing the worlds; stops after `limit + 1`
/// placements.
pub(crate) fn listed<B: Backend + ?Sized>(
    model: &B,
    kind: Kind,
    among: &Among,
    f: &Formula,
    limit: usize,
) -> Result<Vec<Share>, EngineError> {
    model.listable()?;
    let ws = worlds(model, among);
    let holding: HashSet<usize> = model.satisfying(f)?.into_iter().collect();
    let actual = model.actual();
    let key_of = |w: usize| -> Vec<u32> {
        model
            .world(w)
            .cards
            .iter()
            .map(|at| at.get(kind).copied().unwrap_or(0))
            .collect()
    };
    let actual_key = key_of(actual);
    let mut by_key: BTreeMap<Vec<u32>, (BigUint, BigUint)> = BTreeMap::new();
    for w in ws {
        let key = key_of(w);
        if !by_key.contains_key(&key) && by_key.len() > limit {
            continue;
        }
        let entry = by_key.entry(key).or_default();
        entry.0 += 1u32;
        if holding.contains(&w) {
            entry.1 += 1u32;
        }
    }
    Ok(by_key
        .into_iter()
        .map(|(key, (worlds, holding))| Share {
            actual: key == actual_key,
            key,
            worlds,
            holding,
        })
        .collect())
}
