//! The explicit Kripke model: worlds stored as flat rows of bytes, one
//! relation per agent stored as a partition (S5) or as successor lists.
//!
//! A world's row holds, for each card kind, the locations of its copies in
//! increasing order (so equal allocations have equal rows), then one 0/1
//! column per proposition. Relations stay partitions as long as every
//! update keeps them equivalences; successor lists appear only when an event
//! model has a non-equivalence relation (beliefs).

use std::ops::Range;
use std::rc::Rc;
use std::sync::Arc;

use fixedbitset::FixedBitSet;

use super::deal::{self, DealSpec};
use super::event::{EventId, EventModel, Relation};
use super::formula::{Agent, Formula};
use super::groups;
pub(crate) use super::relation::{Csr, Partition, Rel};
use super::{
    bisim, build, eval, par, update, Backend, EngineError, GroupAccess, WorldId, WorldView,
};

/// The layout of a row: the card columns of each kind, then the propositions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Copies of each kind.
    pub copies: Vec<u32>,
    /// `offsets[k]..offsets[k + 1]` are kind k's columns.
    pub offsets: Vec<usize>,
    /// The number of locations.
    pub locations: usize,
    /// The number of propositions.
    pub props: usize,
}

impl Shape {
    /// The layout for a deck of `copies` over `locations` with `props` propositions.
    pub fn new(copies: Vec<u32>, locations: usize, props: usize) -> Shape {
        let mut offsets = vec![0];
        for &c in &copies {
            offsets.push(offsets.last().copied().unwrap_or(0) + c as usize);
        }
        Shape {
            copies,
            offsets,
            locations,
            props,
        }
    }

    /// The number of card columns.
    pub fn cards(&self) -> usize {
        self.offsets.last().copied().unwrap_or(0)
    }

    /// The row width.
    pub fn width(&self) -> usize {
        self.cards() + self.props
    }

    /// The number of kinds.
    pub fn kinds(&self) -> usize {
        self.copies.len()
    }

    /// Kind `k`'s columns.
    pub fn columns(&self, k: usize) -> Range<usize> {
        self.offsets[k]..self.offsets[k + 1]
    }
}

/// An explicit Kripke model whose worlds are card allocations plus a
/// valuation of the declared propositions.
#[derive(Clone, Debug)]
pub struct ExplicitModel {
    pub(crate) shape: Arc<Shape>,
    pub(crate) rows: Vec<u8>,
    pub(crate) n: usize,
    pub(crate) rels: Vec<Rel>,
    /// One relation per group of two or more agents (see [`groups`]), once
    /// a contraction has merged worlds; `None` while they are the
    /// intersections of the agents' relations.
    pub(crate) groups: Option<Vec<Rel>>,
    pub(crate) actual: usize,
}

/// The most memory an explicit model may take, whatever the world budget
/// says: larger deals are refused before anything is allocated.
pub const MAX_MODEL_BYTES: u128 = 8 << 30;

impl ExplicitModel {
    /// About how many bytes the explicit model of `count` worlds of `spec`
    /// takes while it is built: the rows (a byte per card copy and
    /// proposition) and, per agent, a class number and a class size.
    pub fn estimated_bytes(spec: &DealSpec, count: u128) -> u128 {
        let width = spec.copies.iter().map(|&c| c as u128).sum::<u128>() + spec.props as u128;
        let per_world = width + 8 * spec.observers.len() as u128 + 16;
        count.saturating_mul(per_world)
    }

    /// The most worlds of `spec` that fit in [`MAX_MODEL_BYTES`].
    pub fn world_cap(spec: &DealSpec) -> u128 {
        let per_world = Self::estimated_bytes(spec, 1).max(1);
        (MAX_MODEL_BYTES / per_world).min(u32::MAX as u128)
    }

    /// The initial model of a deal: every allocation of the deck with the
    /// given sizes; agent a cannot tell apart two worlds that agree on the
    /// contents of every location of `spec.observers[a]`; every proposition
    /// is false. Restricted to the worlds reachable from the actual deal and
    /// contracted.
    ///
    /// Refuses with [`EngineError::TooManyWorlds`], before allocating
    /// anything, when the deal has more than `budget` worlds.
    pub fn from_deal(spec: &DealSpec, budget: u128) -> Result<ExplicitModel, EngineError> {
        deal::validate(spec).map_err(EngineError::Malformed)?;
        deal::fits_explicit(spec).map_err(EngineError::Unsupported)?;
        let count = deal::count_reachable(spec);
        let budget = budget.min(Self::world_cap(spec));
        if count > budget {
            return Err(EngineError::TooManyWorlds { count, budget });
        }
        let shape = Shape::new(spec.copies.clone(), spec.sizes.len(), spec.props);
        let width = shape.width();
        let n = count as usize;
        let built = build::build(spec, width, n);
        let rows = built.rows;
        let mut target = deal::encode(&spec.actual, &spec.copies);
        target.resize(width, 0);
        let actual = rows
            .chunks_exact(width.max(1))
            .position(|row| width == 0 || row == target)
            .ok_or_else(|| EngineError::Malformed("the actual deal is not a world".into()))?;
        let rels = (built.classes.into_iter().zip(&spec.observers))
            .map(|(classes, seen)| {
                Rel::Partition(
                    classes
                        .unwrap_or_else(|| observer_partition(&shape, &spec.sizes, &rows, n, seen)),
                )
            })
            .collect();
        let model = ExplicitModel {
            shape: Arc::new(shape),
            rows,
            n,
            rels,
            groups: None,
            actual,
        };
        // Distinct allocations have distinct rows: the model is already
        // minimal; and when the deal is connected, it is already generated.
        if build::connected(spec) {
            return Ok(model);
        }
        Ok(model.generated())
    }

    /// A hand-written model without cards: `worlds[w][p]` is proposition p
    /// in world w, `relations[a]` is agent a's relation between worlds.
    /// Restricted to the worlds reachable from `actual` and contracted.
    pub fn from_valuations(
        agents: usize,
        props: usize,
        worlds: Vec<Vec<bool>>,
        relations: Vec<Relation>,
        actual: WorldId,
    ) -> Result<ExplicitModel, EngineError> {
        Ok(Self::from_valuations_generated(agents, props, worlds, relations, actual)?.contracted())
    }

    /// [`ExplicitModel::from_valuations`] without the contraction: the
    /// worlds reachable from the actual one, as written. The symbolic engine
    /// is built from this model: a knowledge structure reads distributed
    /// knowledge off the agents' observations, which a contraction that
    /// merges worlds some group tells apart no longer shows.
    pub fn from_valuations_generated(
        agents: usize,
        props: usize,
        worlds: Vec<Vec<bool>>,
        relations: Vec<Relation>,
        actual: WorldId,
    ) -> Result<ExplicitModel, EngineError> {
        Ok(Self::from_valuations_as_written(agents, props, worlds, relations, actual)?.generated())
    }

    /// The model exactly as written: every world, in the order given.
    pub fn from_valuations_as_written(
        agents: usize,
        props: usize,
        worlds: Vec<Vec<bool>>,
        relations: Vec<Relation>,
        actual: WorldId,
    ) -> Result<ExplicitModel, EngineError> {
        let n = worlds.len();
        let bad = |why: String| EngineError::Malformed(why);
        if relations.len() != agents {
            return Err(bad(format!(
                "{} relations for {agents} agents",
                relations.len()
            )));
        }
        if actual >= n {
            return Err(bad(format!(
                "actual world {actual} out of range ({n} worlds)"
            )));
        }
        let mut rows = Vec::with_capacity(n * props);
        for (w, vals) in worlds.iter().enumerate() {
            if vals.len() != props {
                return Err(bad(format!(
                    "world {w} has {} values for {props} propositions",
                    vals.len()
                )));
            }
            rows.extend(vals.iter().map(|&v| u8::from(v)));
        }
        let rels = relations
            .iter()
            .map(|r| Rel::from_relation(r, n).map_err(bad))
            .collect::<Result<Vec<_>, _>>()?;
        let model = ExplicitModel {
            shape: Arc::new(Shape::new(Vec::new(), 0, props)),
            rows,
            n,
            rels,
            groups: None,
            actual,
        };
        Ok(model)
    }

    /// The model contracted by collective bisimulation (see [`groups`]).
    pub fn contract(self) -> ExplicitModel {
        self.contracted()
    }

    /// The submodel generated by the actual world (the worlds reachable from it).
    pub fn generate(self) -> ExplicitModel {
        self.generated()
    }

    /// Whether world `w` is reachable from the actual world.
    pub fn is_reachable(&self, w: WorldId) -> bool {
        self.reachable().contains(w)
    }

    /// For every world, whether it is reachable from the actual world
    /// (one search for all of them).
    pub fn reachable_mask(&self) -> Vec<bool> {
        let seen = self.reachable();
        (0..self.n).map(|w| seen.contains(w)).collect()
    }

    /// For each world of `self`, the worlds of `other` (a model with the
    /// same cards and propositions) bisimilar to it for every agent and
    /// every group of agents: how the worlds of a contracted model, or of a
    /// symbolic model's listing, correspond to the worlds as written.
    /// `None` for belief relations or more than [`groups::MAX_GROUP_AGENTS`]
    /// agents.
    pub fn bisimilar_worlds(&self, other: &ExplicitModel) -> Option<Vec<Vec<WorldId>>> {
        if self.shape != other.shape || self.rels.len() != other.rels.len() {
            return None;
        }
        let side = |m: &ExplicitModel, tag: u8| -> Option<Vec<Vec<(u8, u32)>>> {
            m.rels
                .iter()
                .chain(&m.group_relations())
                .map(|r| match r {
                    Rel::Partition(p) => Some(p.class.iter().map(|&c| (tag, c)).collect()),
                    Rel::General(_) => None,
                })
                .collect()
        };
        let (mine, theirs) = (side(self, 0)?, side(other, 1)?);
        let union = |i: usize| {
            let labels = mine[i].iter().chain(&theirs[i]).copied();
            Rel::Partition(Partition::from_labels(labels))
        };
        let agents = self.rels.len();
        let mut rows = self.rows.clone();
        rows.extend_from_slice(&other.rows);
        let joint = ExplicitModel {
            shape: self.shape.clone(),
            rows,
            n: self.n + other.n,
            rels: (0..agents).map(union).collect(),
            groups: Some((agents..mine.len()).map(union).collect()),
            actual: self.actual,
        };
        let block = bisim::blocks(&joint)?;
        let mut by_block: Vec<Vec<WorldId>> = vec![Vec::new(); joint.n];
        for x in 0..other.n {
            by_block[block[self.n + x] as usize].push(x);
        }
        Some(
            (0..self.n)
                .map(|w| by_block[block[w] as usize].clone())
                .collect(),
        )
    }

    /// Whether every stored group relation is the intersection of its
    /// agents' relations (always so before a contraction merged worlds).
    pub(crate) fn groups_are_intersections(&self) -> bool {
        let Some(stored) = &self.groups else {
            return true;
        };
        let derived = groups::intersections(&self.rels, self.n);
        stored
            .iter()
            .zip(&derived)
            .all(|(a, b)| (0..self.n).all(|x| a.successors(x) == b.successors(x)))
    }

    /// Copies of each card kind.
    pub fn copies(&self) -> &[u32] {
        &self.shape.copies
    }

    /// The number of locations.
    pub fn locations(&self) -> usize {
        self.shape.locations
    }

    /// The number of declared propositions.
    pub fn props(&self) -> usize {
        self.shape.props
    }

    /// The number of worlds.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the model has no world (never the case for a built model).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The encoded row of world `w`: the sorted locations of each kind's
    /// copies, then the propositions (0 or 1).
    pub fn row(&self, w: WorldId) -> &[u8] {
        let width = self.shape.width();
        &self.rows[w * width..(w + 1) * width]
    }

    /// The worlds where `f` holds, as a bit set.
    pub fn truth_set(&self, f: &Formula) -> Result<FixedBitSet, EngineError> {
        eval::eval_set(self, f)
    }

    /// The submodel with the worlds of `keep` (relations restricted), and
    /// the old number of each new world. The actual world is kept if it is
    /// in `keep`, else world 0 stands in for it.
    pub(crate) fn restrict(&self, keep: &FixedBitSet) -> (ExplicitModel, Vec<u32>) {
        let (kept, dropped): (Vec<u32>, Vec<u32>) = par::join(
            self.n,
            || keep.ones().map(|x| x as u32).collect(),
            || keep.zeroes().map(|x| x as u32).collect(),
        );
        // Old → new numbers, needed by successor lists only.
        let general = self.rels.iter().chain(self.groups.iter().flatten());
        let mut map = Vec::new();
        if general.into_iter().any(|r| matches!(r, Rel::General(_))) {
            map = vec![u32::MAX; self.n];
            for (new, &old) in kept.iter().enumerate() {
                map[old as usize] = new as u32;
            }
        }
        // The rows are copied while other threads restrict the relations.
        let restrict_all =
            |rels: &[Rel]| par::map(kept.len(), rels, |r| r.restrict(&kept, &dropped, &map));
        let (rows, (rels, groups)) = par::join(
            kept.len(),
            || self.kept_rows(&kept),
            || {
                let groups = self.groups.as_deref().map(restrict_all);
                (restrict_all(&self.rels), groups)
            },
        );
        let actual = kept.binary_search(&(self.actual as u32)).ok();
        let model = ExplicitModel {
            shape: Arc::clone(&self.shape),
            rows,
            n: kept.len(),
            rels,
            groups,
            actual: actual.unwrap_or(0),
        };
        (model, kept)
    }

    /// The rows of the `kept` worlds (increasing), runs of consecutive
    /// worlds copied at once.
    fn kept_rows(&self, kept: &[u32]) -> Vec<u8> {
        let width = self.shape.width();
        let mut rows = Vec::with_capacity(kept.len() * width);
        let mut i = 0;
        while i < kept.len() {
            let start = kept[i] as usize;
            let mut end = start + 1;
            while i + 1 < kept.len() && kept[i + 1] as usize == end {
                i += 1;
                end += 1;
            }
            rows.extend_from_slice(&self.rows[start * width..end * width]);
            i += 1;
        }
        rows
    }

    /// The worlds reachable from the actual world along any agents' relations.
    pub(crate) fn reachable(&self) -> FixedBitSet {
        let partitions: Option<Vec<&Partition>> = self
            .rels
            .iter()
            .map(|r| match r {
                Rel::Partition(p) => Some(p),
                Rel::General(_) => None,
            })
            .collect();
        match partitions {
            Some(ps) if !ps.is_empty() => self.reachable_by_classes(&ps),
            _ => self.reachable_by_search(),
        }
    }

    /// Reachability when every relation is a partition: union-find over the
    /// worlds, joining each world to the first world of its class for every
    /// agent (the forest has one node per world, whatever the classes).
    /// Once one tree is left, every world is reachable and the passes stop.
    ///
    /// For large models, two threads build the forests of half the agents
    /// each; the second forest is then merged into the first by joining
    /// every world to its root there.
    fn reachable_by_classes(&self, ps: &[&Partition]) -> FixedBitSet {
        let (mut parent, trees) = if par::worth(self.n) && ps.len() >= 2 {
            let (left, right) = ps.split_at(ps.len() / 2);
            let ((mut parent, mut trees), (mut other, _)) =
                rayon::join(|| forest(self.n, left), || forest(self.n, right));
            for x in 0..self.n as u32 {
                if trees == 1 {
                    break;
                }
                let y = find(&mut other, x);
                trees -= usize::from(join(&mut parent, x, y));
            }
            (parent, trees)
        } else {
            forest(self.n, ps)
        };
        if trees <= 1 {
            return eval::full(self.n);
        }
        let root = find(&mut parent, self.actual as u32);
        let mut seen = FixedBitSet::with_capacity(self.n);
        for x in 0..self.n {
            if find(&mut parent, x as u32) == root {
                seen.insert(x);
            }
        }
        seen
    }

    /// Reachability by depth-first search.
    fn reachable_by_search(&self) -> FixedBitSet {
        let mut seen = FixedBitSet::with_capacity(self.n);
        let mut classes: Vec<FixedBitSet> = self
            .rels
            .iter()
            .map(|r| match r {
                Rel::Partition(p) => FixedBitSet::with_capacity(p.count),
                Rel::General(_) => FixedBitSet::new(),
            })
            .collect();
        let mut stack = vec![self.actual];
        seen.insert(self.actual);
        while let Some(x) = stack.pop() {
            for (rel, done) in self.rels.iter().zip(classes.iter_mut()) {
                if let Rel::Partition(p) = rel {
                    if done.put(p.class[x] as usize) {
                        continue;
                    }
                }
                for &y in rel.successors(x) {
                    if !seen.put(y as usize) {
                        stack.push(y as usize);
                    }
                }
            }
        }
        seen
    }

    /// The submodel generated by the actual world.
    pub(crate) fn generated(self) -> ExplicitModel {
        if self.n == 0 {
            return self;
        }
        let keep = self.reachable();
        if keep.is_full() {
            return self;
        }
        self.restrict(&keep).0
    }

    /// The bisimulation contraction, with equivalences stored as partitions.
    pub(crate) fn contracted(self) -> ExplicitModel {
        let mut model = bisim::contract(self);
        model.rels = model.rels.into_iter().map(Rel::normalized).collect();
        model.groups = model
            .groups
            .map(|gs| gs.into_iter().map(Rel::normalized).collect());
        model
    }

    /// The stored relation of `group` (two or more distinct agents), when
    /// contraction has merged worlds; `None` when it is the intersection of
    /// the agents' relations.
    pub(crate) fn group_rel(&self, group: &[Agent]) -> Option<&Rel> {
        let agents = self.rels.len();
        let mask = groups::mask_of(group, agents)?;
        let stored = self.groups.as_ref()?;
        (mask.count_ones() >= 2).then(|| &stored[groups::index(mask, agents)])
    }

    /// The relations of every group of two or more agents (see [`groups`]).
    pub(crate) fn group_relations(&self) -> Vec<Rel> {
        match &self.groups {
            Some(gs) => gs.clone(),
            None => groups::intersections(&self.rels, self.n),
        }
    }

    /// The world view of a row.
    fn view(&self, w: WorldId) -> WorldView {
        let shape = &self.shape;
        let row = self.row(w);
        let mut cards = vec![vec![0u32; shape.kinds()]; shape.locations];
        for k in 0..shape.kinds() {
            for &l in &row[shape.columns(k)] {
                cards[l as usize][k] += 1;
            }
        }
        let props = row[shape.cards()..].iter().map(|&v| v != 0).collect();
        WorldView {
            id: w,
            cards,
            props,
        }
    }
}

/// The union-find forest of `n` elements in which the members of each
/// class of every partition of `ps` are joined, and its number of trees
/// (the passes stop at one tree).
fn forest(n: usize, ps: &[&Partition]) -> (Vec<u32>, usize) {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut trees = n;
    let mut first = Vec::new();
    for p in ps {
        first.clear();
        first.resize(p.count, u32::MAX);
        for (x, &c) in p.class.iter().enumerate() {
            let f = &mut first[c as usize];
            if *f == u32::MAX {
                *f = x as u32;
            } else if join(&mut parent, x as u32, *f) {
                trees -= 1;
                if trees == 1 {
                    return (parent, trees);
                }
            }
        }
    }
    (parent, trees)
}

/// Joins the trees of `x` and `y` (the smaller root goes on top); whether
/// they were two trees.
#[inline]
fn join(parent: &mut [u32], x: u32, y: u32) -> bool {
    let (a, b) = (find(parent, x), find(parent, y));
    if a != b {
        parent[a.max(b) as usize] = a.min(b);
    }
    a != b
}

/// The root of `x` in a union-find forest, halving paths on the way.
#[inline]
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Agent classes of a deal: worlds agree on every observed location's contents.
///
/// The contents of the observed locations are a number in mixed radix (the
/// count of each kind at each observed location), summed column by column
/// from a table, and renumbered through a direct table when the range is
/// small; slices are hashed only when that number would overflow.
fn observer_partition(
    shape: &Shape,
    sizes: &[u32],
    rows: &[u8],
    n: usize,
    seen: &[usize],
) -> Partition {
    let width = shape.width();
    let locs = shape.locations;
    let mut observed = vec![false; locs];
    for &l in seen {
        observed[l] = true;
    }
    let Some((weights, range)) = observer_weights(shape, sizes, &observed) else {
        let key = |w: usize| -> Vec<u8> {
            let row = &rows[w * width..(w + 1) * width];
            let mut key = Vec::with_capacity(shape.cards() + shape.kinds());
            for k in 0..shape.kinds() {
                key.extend(
                    row[shape.columns(k)]
                        .iter()
                        .filter(|&&l| observed[l as usize]),
                );
                key.push(u8::MAX);
            }
            key
        };
        return Partition::from_labels((0..n).map(key));
    };
    // The last kind has no digit: its columns are skipped.
    let cards = shape.offsets[shape.kinds().saturating_sub(1)];
    let keys = (0..n).map(|w| {
        let row = &rows[w * width..w * width + cards];
        let mut key = 0u64;
        for (c, &l) in row.iter().enumerate() {
            key += weights[c * locs + l as usize];
        }
        key
    });
    if range > (4 * n as u64).max(1 << 16) {
        return Partition::from_labels(keys);
    }
    let mut table = vec![u32::MAX; range as usize];
    let mut count = 0u32;
    let mut class = Vec::with_capacity(n);
    for key in keys {
        let slot = &mut table[key as usize];
        if *slot == u32::MAX {
            *slot = count;
            count += 1;
        }
        class.push(*slot);
    }
    Partition::new(class, count as usize)
}

/// For each card column and location, the place value of one copy there in
/// the mixed-radix number of the observed contents (0 where unobserved), and
/// the range of that number; `None` if it may overflow.
///
/// Location l holds `sizes[l]` cards in every world of the deal, so it holds
/// at most `min(copies, sizes[l])` copies of a kind, and the count of the
/// last kind follows from the others: it gets no digit.
fn observer_weights(shape: &Shape, sizes: &[u32], observed: &[bool]) -> Option<(Vec<u64>, u64)> {
    let locs = shape.locations;
    let mut weights = vec![0u64; shape.cards() * locs];
    let mut place = 1u64;
    for k in 0..shape.kinds().saturating_sub(1) {
        for (l, _) in observed.iter().enumerate().filter(|(_, &o)| o) {
            let radix = u64::from(shape.copies[k].min(sizes[l])) + 1;
            for c in shape.columns(k) {
                weights[c * locs + l] = place;
            }
            place = place.checked_mul(radix)?;
        }
    }
    Some((weights, place))
}

impl Backend for ExplicitModel {
    fn eval_actual(&self, f: &Formula) -> Result<bool, EngineError> {
        self.eval_at(f, self.actual)
    }

    fn eval_valid(&self, f: &Formula) -> Result<bool, EngineError> {
        Ok(self.truth_set(f)?.is_full())
    }

    fn eval_at(&self, f: &Formula, w: WorldId) -> Result<bool, EngineError> {
        if w >= self.n {
            return Err(EngineError::Malformed(format!(
                "world {w} out of range ({} worlds)",
                self.n
            )));
        }
        Ok(self.truth_set(f)?.contains(w))
    }

    fn satisfying(&self, f: &Formula) -> Result<Vec<WorldId>, EngineError> {
        Ok(self.truth_set(f)?.ones().collect())
    }

    fn apply(
        &self,
        model: &EventModel,
        actual: Option<EventId>,
    ) -> Result<Rc<dyn Backend>, EngineError> {
        Ok(Rc::new(update::apply(self, model, actual)?))
    }

    fn possible_events(&self, model: &EventModel) -> Result<Vec<EventId>, EngineError> {
        update::possible_events(self, model)
    }

    fn world_count(&self) -> u128 {
        self.n as u128
    }

    fn actual(&self) -> WorldId {
        self.actual
    }

    fn accessible(&self, agent: Agent, w: WorldId) -> Vec<WorldId> {
        match self.rels.get(agent) {
            Some(rel) if w < self.n => rel.successors(w).iter().map(|&y| y as usize).collect(),
            _ => Vec::new(),
        }
    }

    fn group_accessible(&self, access: GroupAccess, group: &[Agent], w: WorldId) -> Vec<WorldId> {
        match (access, self.group_rel(group)) {
            (GroupAccess::Distributed, Some(rel)) if w < self.n => {
                rel.successors(w).iter().map(|&y| y as usize).collect()
            }
            _ => groups::from_agents(self, access, group, w),
        }
    }

    fn is_s5(&self) -> bool {
        self.rels.iter().all(|r| matches!(r, Rel::Partition(_)))
    }

    fn as_explicit(&self) -> Option<&ExplicitModel> {
        Some(self)
    }

    /// # Panics
    /// If `w` is not a world of the model.
    fn world(&self, w: WorldId) -> WorldView {
        self.view(w)
    }

    fn agents(&self) -> usize {
        self.rels.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::formula::Cmp;
    use crate::engine::testkit::*;
    use crate::engine::Event;

    fn considers(m: &dyn Backend) -> Vec<u128> {
        (0..m.agents()).map(|a| m.considers(a)).collect()
    }

    #[test]
    fn card_example_initial_model() {
        let m = qa_deal();
        assert_eq!(m.world_count(), 8);
        assert_eq!(considers(&m), vec![4, 4, 4]);
        assert!(m.is_s5());
        assert!(holds(&m, &Formula::holds(0, Q).known_by(0)));
        assert!(!holds(&m, &Formula::holds(1, Q).known_by(0)));
        let stock5 = Formula::count(STOCK, vec![Q, A], Cmp::Eq, 5);
        assert!(holds(&m, &Formula::C(vec![0, 1, 2], Box::new(stock5))));
        let view = m.world(m.actual());
        assert_eq!(
            view.cards,
            vec![vec![1, 0], vec![1, 0], vec![0, 1], vec![2, 3]]
        );
        assert!(view.props.is_empty());
        assert_eq!(m.accessible(0, m.actual()).len(), 4);
        assert!(m.accessible(0, m.actual()).contains(&m.actual()));
    }

    #[test]
    fn card_example_announcement_then_draw() {
        let m = qa_deal();
        let no_q = Formula::holds(2, Q).not();
        let ann = EventModel::announcement("hand2 has no Q", 3, no_q.clone());
        let m = m.apply(&ann, None).unwrap();
        assert_eq!(m.world_count(), 4);
        assert_eq!(considers(&*m), vec![2, 2, 4]);
        assert!(m.eval_valid(&no_q).unwrap());
        // Player 1 draws the A: (Q,Q)+A and (Q,A)+Q give the same hands and
        // are bisimilar, so 8 pairs contract to 6 worlds.
        let m = m.apply(&draw(1), Some(1)).unwrap();
        assert_eq!(m.world_count(), 6);
        assert_eq!(considers(&*m), vec![3, 2, 6]);
        let has_a = Formula::count(1, vec![A], Cmp::Eq, 1);
        assert!(holds(&*m, &has_a.clone().known_by(1)));
        assert!(!holds(&*m, &has_a.clone().known_by(0)));
        assert!(!holds(&*m, &has_a.known_by(2)));
        let four = Formula::count(STOCK, vec![Q, A], Cmp::Eq, 4);
        assert!(holds(&*m, &Formula::C(vec![0, 1, 2], Box::new(four))));
    }

    #[test]
    fn draw_from_the_initial_deal() {
        let m = qa_deal();
        assert_eq!(m.possible_events(&draw(1)).unwrap(), vec![0, 1]);
        let after = m.apply(&draw(1), Some(0)).unwrap();
        let two_q = Formula::count(1, vec![Q], Cmp::Eq, 2);
        assert!(holds(&*after, &two_q.clone().known_by(1)));
        assert!(!holds(&*after, &Formula::Kw(0, Box::new(two_q))));
        assert!(after.is_s5());
    }

    #[test]
    fn budget_and_validation() {
        let mut spec = DealSpec {
            props: 1,
            ..qa_spec()
        };
        assert_eq!(
            ExplicitModel::from_deal(&spec, 7).unwrap_err(),
            EngineError::TooManyWorlds {
                count: 8,
                budget: 7
            }
        );
        let m = ExplicitModel::from_deal(&spec, 8).unwrap();
        assert_eq!(m.props(), 1);
        assert_eq!(m.row(m.actual()), &[0, 1, 3, 3, 2, 3, 3, 3, 0]);
        spec.actual[3] = vec![3, 2];
        assert!(matches!(
            ExplicitModel::from_deal(&spec, 8),
            Err(EngineError::Malformed(_))
        ));
        spec.sizes[3] = 4;
        assert!(matches!(
            ExplicitModel::from_deal(&spec, 100),
            Err(EngineError::Malformed(_))
        ));
    }

    #[test]
    fn event_errors() {
        let m = qa_deal();
        let ann = EventModel::announcement("hand1 has no Q", 3, Formula::holds(1, Q).not());
        assert!(matches!(
            m.apply(&ann, Some(0)),
            Err(EngineError::EventImpossible { .. })
        ));
        assert!(matches!(
            m.apply(&ann, None),
            Err(EngineError::NoEventPossible { .. })
        ));
        assert!(matches!(
            m.apply(&draw(0), None),
            Err(EngineError::AmbiguousEvent { .. })
        ));
        let steal = Event {
            name: "steal".into(),
            pre: Formula::Top,
            post: vec![crate::engine::Post::Move {
                kind: Q,
                from: 2,
                to: 0,
                n: 1,
            }],
        };
        let steal = EventModel::public("steal", 3, vec![steal]);
        assert!(matches!(
            m.apply(&steal, None),
            Err(EngineError::MissingCards { .. })
        ));
    }

    #[test]
    fn private_event_makes_beliefs() {
        let m = ExplicitModel::from_valuations(
            2,
            1,
            vec![vec![false]],
            vec![Relation::Partition(vec![0]), Relation::Partition(vec![0])],
            0,
        )
        .unwrap();
        assert!(m.is_s5());
        let set = Event {
            name: "set".into(),
            pre: Formula::Top,
            post: vec![crate::engine::Post::Set(0, Formula::Top)],
        };
        let skip = Event {
            name: "skip".into(),
            pre: Formula::Top,
            post: Vec::new(),
        };
        let em = EventModel {
            name: "secret".into(),
            events: vec![set, skip],
            relations: vec![
                Relation::Partition(vec![0, 1]),
                Relation::General(vec![vec![1], vec![1]]),
            ],
            designated: Vec::new(),
        };
        let after = m.apply(&em, Some(0)).unwrap();
        assert_eq!(after.world_count(), 2);
        assert!(!after.is_s5());
        assert!(holds(&*after, &p(0)));
        assert!(holds(&*after, &p(0).known_by(0)));
        assert!(holds(&*after, &p(0).not().known_by(1)));
        assert!(!after
            .eval_valid(&p(0).not().known_by(1).implies(p(0).not()))
            .unwrap());
        let b_succ = after.accessible(1, after.actual());
        assert_eq!(b_succ.len(), 1);
        assert_ne!(b_succ[0], after.actual());
    }

    #[test]
    fn s5_validities() {
        let m = qa_deal();
        let phi = Formula::holds(1, Q);
        for a in 0..3 {
            let k = phi.clone().known_by(a);
            assert!(m.eval_valid(&k.clone().implies(phi.clone())).unwrap());
            assert!(m
                .eval_valid(&k.clone().implies(k.clone().known_by(a)))
                .unwrap());
            let nk = k.not();
            assert!(m.eval_valid(&nk.clone().implies(nk.known_by(a))).unwrap());
        }
    }

    #[test]
    fn bisimilar_worlds_match_the_written_ones() {
        let vals = vec![
            vec![false, true],
            vec![true, true],
            vec![true, false],
            vec![false, false],
        ];
        let rels = vec![
            Relation::Partition(vec![0, 1, 1, 2]),
            Relation::Partition(vec![0, 1, 2, 3]),
        ];
        let written = ExplicitModel::from_valuations_as_written(2, 2, vals, rels, 2).unwrap();
        let m = written.clone().generate().contract();
        let matches = m.bisimilar_worlds(&written).unwrap();
        for (w, xs) in matches.iter().enumerate() {
            for &x in xs {
                assert_eq!(m.row(w), written.row(x), "{w} ~ {x}: {matches:?}");
            }
        }
        assert_eq!(
            matches.iter().map(Vec::len).sum::<usize>(),
            2,
            "{matches:?}"
        );
    }

    #[test]
    fn from_valuations_validates() {
        let bad = ExplicitModel::from_valuations(
            1,
            1,
            vec![vec![true], vec![false]],
            vec![Relation::General(vec![vec![0], vec![2]])],
            0,
        );
        assert!(matches!(bad, Err(EngineError::Malformed(_))));
        let bad = ExplicitModel::from_valuations(1, 1, vec![vec![true]], vec![], 0);
        assert!(matches!(bad, Err(EngineError::Malformed(_))));
        let bad = ExplicitModel::from_valuations(0, 2, vec![vec![true]], vec![], 0);
        assert!(matches!(bad, Err(EngineError::Malformed(_))));
        let bad = ExplicitModel::from_valuations(0, 0, vec![vec![]], vec![], 1);
        assert!(matches!(bad, Err(EngineError::Malformed(_))));
    }

    #[test]
    fn unreachable_worlds_are_dropped() {
        let m = ExplicitModel::from_valuations(
            1,
            1,
            vec![vec![true], vec![false], vec![false]],
            vec![Relation::Partition(vec![0, 0, 1])],
            2,
        )
        .unwrap();
        assert_eq!(m.world_count(), 1);
        assert_eq!(m.world(0).props, vec![false]);
    }
}
