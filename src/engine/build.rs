//! The worlds of a deal and every agent's classes, built in one pass.
//!
//! The allocations are enumerated depth first, one level per card kind with
//! copies outside the pinned locations (those every agent sees, which hold
//! their actual cards in every world). Kinds whose copies are all pinned
//! have the same columns in every row and are written once; the last free
//! kind fills the room left, so its level has one way only.
//!
//! An agent's class is fixed by what it sees: the count of each kind at each
//! observed free location. That is a number in mixed radix, one digit per
//! (free kind but the last, observed location) — the last free kind's counts
//! follow from the sizes — accumulated while the copies are placed, so a
//! world's class number costs a few additions instead of a scan of its row;
//! the numbers are made dense after the enumeration, one agent per thread.
//! Agents whose number could overflow are classed afterwards by hashing
//! ([`super::model`]'s `observer_partition`).

use rayon::prelude::*;

use super::deal::{self, DealSpec};
use super::par;
use super::relation::Partition;

/// The rows of every world of a deal
/// and the class of each world for each agent (`None` for the agents whose
/// class numbers would overflow).
pub(crate) struct Built {
    /// `width` bytes per world.
    pub rows: Vec<u8>,
    /// One partition per agent, where the digits fit.
    pub classes: Vec<Option<Partition>>,
}

/// Enumerates the `n` worlds of `spec` (rows of `width` bytes: the card
/// columns, then zero proposition columns) with the agents' classes.
/// `spec` has been validated and `n` is its reachable count.
pub(crate) fn build(spec: &DealSpec, width: usize, n: usize) -> Built {
    let mut b = Builder::new(spec, width, n);
    b.level(0);
    let classes = if par::worth(n) {
        b.keyers
            .into_par_iter()
            .map(|k| k.map(Keyer::finish))
            .collect()
    } else {
        b.keyers.into_iter().map(|k| k.map(Keyer::finish)).collect()
    };
    Built {
        rows: b.rows,
        classes,
    }
}

/// Whether every world of the deal is reachable from every other one.
///
/// Worlds differ only in how the free cards (outside pinned locations) lie
/// in the free locations that can hold any (size above 0). An agent who
/// does not see two such locations cannot tell apart two worlds that differ
/// by swapping a card between them. When the sets of free locations each
/// agent does not see link all free locations together, any swap of two
/// cards is a chain of such swaps (through a third location, whose card
/// goes back), so every allocation is reached.
pub(crate) fn connected(spec: &DealSpec) -> bool {
    if spec.restricted() {
        // A swap may put a card where it cannot lie.
        return false;
    }
    let pinned = deal::pinned(spec);
    let free: Vec<usize> = (0..spec.sizes.len())
        .filter(|&l| !pinned[l] && spec.sizes[l] > 0)
        .collect();
    if free.len() <= 1 {
        return true;
    }
    // Union-find over the free locations, joined by each agent's blind spots.
    let mut parent: Vec<usize> = (0..spec.sizes.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            x = parent[x];
        }
        x
    }
    for seen in &spec.observers {
        let mut blind = free.iter().filter(|&&l| !seen.contains(&l));
        let Some(&first) = blind.next() else { continue };
        for &l in blind {
            let (a, b) = (root(&mut parent, first), root(&mut parent, l));
            parent[a] = b;
        }
    }
    let r = root(&mut parent, free[0]);
    free.iter().all(|&l| root(&mut parent, l) == r)
}

/// One level of the enumeration: a kind with free copies.
struct Level {
    /// The kind's columns.
    cols: std::ops::Range<usize>,
    /// Its copies outside pinned locations.
    copies: u32,
    /// Its count at every location when some copies are pinned.
    pinned: Option<Vec<u32>>,
    /// For each free location, the (agent, place value) of one copy there.
    digits: Vec<Vec<(usize, u64)>>,
    /// For each free location, whether it can hold the kind.
    allow: Vec<bool>,
    /// For each free location, how many copies of the later levels' kinds
    /// can lie there: the room left after this level may not exceed it.
    later: Vec<u32>,
}

/// Turns an agent's class number into a dense class.
enum Keyer {
    /// Numbers below a small range: recorded during the enumeration, then
    /// renumbered in increasing order through a direct table (no table at
    /// all when every number of the range occurs).
    Table { range: usize, keys: Vec<u32> },
    /// Larger numbers, renumbered by hashing at the end.
    Keys(Vec<u64>),
}

impl Keyer {
    /// A keyer for `n` numbers below `range`.
    fn new(range: u64, n: usize) -> Keyer {
        if range <= (4 * n as u64).max(1 << 16) && range <= u64::from(u32::MAX) {
            Keyer::Table {
                range: range as usize,
                keys: Vec::with_capacity(n),
            }
        } else {
            Keyer::Keys(Vec::with_capacity(n))
        }
    }

    /// Records the next world's number.
    #[inline]
    fn push(&mut self, key: u64) {
        match self {
            Keyer::Table { keys, .. } => keys.push(key as u32),
            Keyer::Keys(keys) => keys.push(key),
        }
    }

    /// The partition of the recorded worlds (a pass of its own, so that
    /// the agents' partitions are finished on several threads).
    fn finish(self) -> Partition {
        match self {
            Keyer::Table { range, keys } => {
                // The rank of each number among those that occur.
                let mut rank = vec![0u32; range];
                for &k in &keys {
                    rank[k as usize] = 1;
                }
                let mut count = 0u32;
                for r in &mut rank {
                    let used = *r;
                    *r = count;
                    count += used;
                }
                if count as usize == range {
                    return Partition::new(keys, range);
                }
                let class = keys.iter().map(|&k| rank[k as usize]).collect();
                Partition::new(class, count as usize)
            }
            Keyer::Keys(keys) => Partition::from_labels(keys.into_iter()),
        }
    }
}

/// The state of the enumeration.
struct Builder {
    levels: Vec<Level>,
    /// The free locations (not pinned, size above 0), increasing.
    free: Vec<u8>,
    /// The room left at each free location.
    caps: Vec<u32>,
    /// Copies of each level's kind at each free location (`free.len()`
    /// entries per level).
    take: Vec<u32>,
    row: Vec<u8>,
    /// Each agent's class number so far.
    keys: Vec<u64>,
    keyers: Vec<Option<Keyer>>,
    rows: Vec<u8>,
    /// Whether some location holds only some kinds (then a branch can
    /// leave room that no later kind may fill, and is cut at once).
    restricted: bool,
}

impl Builder {
    fn new(spec: &DealSpec, width: usize, n: usize) -> Builder {
        let pinned = deal::pinned(spec);
        let free: Vec<usize> = (0..spec.sizes.len())
            .filter(|&l| !pinned[l] && spec.sizes[l] > 0)
            .collect();
        let mut row = vec![0u8; width];
        let mut levels = Vec::new();
        let mut col = 0;
        for (k, &copies) in spec.copies.iter().enumerate() {
            let counts: Vec<u32> = (0..spec.sizes.len())
                .map(|l| if pinned[l] { spec.actual[l][k] } else { 0 })
                .collect();
            let fixed: u32 = counts.iter().sum();
            let cols = col..col + copies as usize;
            col = cols.end;
            if fixed == copies {
                write_counts(&mut row[cols], &counts);
                continue;
            }
            levels.push(Level {
                cols,
                copies: copies - fixed,
                pinned: (fixed > 0).then_some(counts),
                digits: vec![Vec::new(); free.len()],
                allow: free.iter().map(|&l| spec.allows(l, k)).collect(),
                later: vec![0; free.len()],
            });
        }
        let mut later = vec![0u32; free.len()];
        for level in levels.iter_mut().rev() {
            level.later.clone_from(&later);
            for (room, &allow) in later.iter_mut().zip(&level.allow) {
                if allow {
                    *room += level.copies;
                }
            }
        }
        let keyers = place_values(spec, &free, &mut levels)
            .into_iter()
            .map(|range| range.map(|r| Keyer::new(r, n)))
            .collect();
        Builder {
            take: vec![0; free.len() * levels.len()],
            levels,
            caps: free.iter().map(|&l| spec.sizes[l]).collect(),
            free: free.iter().map(|&l| l as u8).collect(),
            row,
            keys: vec![0; spec.observers.len()],
            keyers,
            rows: Vec::with_capacity(n * width),
            restricted: spec.restricted(),
        }
    }

    /// Whether the later levels can still fill the room left once level
    /// `i` is placed: a necessary condition, which cuts the branches that
    /// leave a pile empty that only the kinds already placed could fill
    /// (without it, a deal of piles that hold only some kinds enumerates
    /// up to a hundred dead ends per world).
    fn fillable(&self, i: usize) -> bool {
        !self.restricted
            || self
                .caps
                .iter()
                .zip(&self.levels[i].later)
                .all(|(&room, &later)| room <= later)
    }

    /// Places the copies of the levels `i..`.
    fn level(&mut self, i: usize) {
        if i + 1 >= self.levels.len() {
            self.last(i);
            return;
        }
        if self.levels[i].copies == 1 && self.levels[i].pinned.is_none() {
            self.single(i);
            return;
        }
        let left = self.levels[i].copies;
        let room = self.room(i, 0);
        self.spread(i, 0, left, room);
    }

    /// Places the only free copy of level `i`, at the last location first
    /// (the order of [`Builder::spread`]).
    fn single(&mut self, i: usize) {
        let col = self.levels[i].cols.start;
        for f in (0..self.free.len()).rev() {
            if self.caps[f] == 0 || !self.levels[i].allow[f] {
                continue;
            }
            self.row[col] = self.free[f];
            self.caps[f] -= 1;
            if self.fillable(i) {
                self.add_digits(i, f, 1, true);
                self.level(i + 1);
                self.add_digits(i, f, 1, false);
            }
            self.caps[f] += 1;
        }
    }

    /// Chooses how many of level `i`'s `left` copies go to free location
    /// `f` (fewest first), then the next locations (whose room is `room`).
    fn spread(&mut self, i: usize, f: usize, left: u32, room: u32) {
        let m = self.free.len();
        if left == 0 || f == m {
            if left == 0 {
                if !self.fillable(i) {
                    return;
                }
                self.take[i * m + f..(i + 1) * m].fill(0);
                self.write_level(i);
                self.level(i + 1);
            }
            return;
        }
        let here = if self.levels[i].allow[f] {
            self.caps[f]
        } else {
            0
        };
        let rest = room - here;
        for take in left.saturating_sub(rest)..=left.min(here) {
            self.take[i * m + f] = take;
            self.caps[f] -= take;
            self.add_digits(i, f, take, true);
            self.spread(i, f + 1, left - take, rest);
            self.add_digits(i, f, take, false);
            self.caps[f] += take;
        }
    }

    /// The room level `i`'s kind can use at the free locations `f..`.
    fn room(&self, i: usize, f: usize) -> u32 {
        let allow = &self.levels[i].allow;
        (f..self.free.len())
            .filter(|&g| allow[g])
            .map(|g| self.caps[g])
            .sum()
    }

    /// The last level fills the room left; the row is complete (unless the
    /// room left lies where the last kind cannot go).
    fn last(&mut self, i: usize) {
        if let Some(level) = self.levels.get(i) {
            if self
                .caps
                .iter()
                .zip(&level.allow)
                .any(|(&c, &a)| c > 0 && !a)
            {
                return;
            }
            let m = self.free.len();
            self.take[i * m..(i + 1) * m].copy_from_slice(&self.caps);
            debug_assert_eq!(self.caps.iter().sum::<u32>(), level.copies);
            self.write_level(i);
        }
        self.rows.extend_from_slice(&self.row);
        for (keyer, &key) in self.keyers.iter_mut().zip(&self.keys) {
            if let Some(keyer) = keyer {
                keyer.push(key);
            }
        }
    }

    /// Adds (or removes) `take` copies of level `i` at free location `f` to
    /// the class numbers of the agents who see it.
    #[inline]
    fn add_digits(&mut self, i: usize, f: usize, take: u32, add: bool) {
        if take == 0 {
            return;
        }
        for &(a, place) in &self.levels[i].digits[f] {
            let d = place * u64::from(take);
            if add {
                self.keys[a] += d;
            } else {
                self.keys[a] -= d;
            }
        }
    }

    /// Writes level `i`'s columns from `take` (and its pinned copies).
    fn write_level(&mut self, i: usize) {
        let level = &self.levels[i];
        let m = self.free.len();
        let take = &self.take[i * m..(i + 1) * m];
        let row = &mut self.row[level.cols.clone()];
        match &level.pinned {
            None => {
                let mut c = 0;
                for (&l, &t) in self.free.iter().zip(take) {
                    row[c..c + t as usize].fill(l);
                    c += t as usize;
                }
            }
            Some(counts) => {
                let mut counts = counts.clone();
                for (&l, &t) in self.free.iter().zip(take) {
                    counts[l as usize] += t;
                }
                write_counts(row, &counts);
            }
        }
    }
}

/// Writes the sorted locations of copies lying `counts[l]` at each location l.
fn write_counts(cols: &mut [u8], counts: &[u32]) {
    let mut c = 0;
    for (l, &t) in counts.iter().enumerate() {
        cols[c..c + t as usize].fill(l as u8);
        c += t as usize;
    }
}

/// Fills each level's digits (but the last level's) and returns, for each
/// agent, the range of its class numbers, or `None` if it would overflow.
fn place_values(spec: &DealSpec, free: &[usize], levels: &mut [Level]) -> Vec<Option<u64>> {
    let digit_levels = levels.len().saturating_sub(1);
    spec.observers
        .iter()
        .enumerate()
        .map(|(a, seen)| {
            let mut place = 1u64;
            let mut mine = Vec::new();
            // The last locations of the last levels change most often in
            // the enumeration: they get the lowest places, so that the
            // numbers of successive worlds are close (cache-friendly tables).
            for (i, level) in levels[..digit_levels].iter().enumerate().rev() {
                let observed = free.iter().enumerate().filter(|(_, l)| seen.contains(l));
                for (f, &l) in observed.rev() {
                    let radix = u64::from(level.copies.min(spec.sizes[l])) + 1;
                    mine.push((i, f, place));
                    place = place.checked_mul(radix)?;
                }
            }
            for (i, f, place) in mine {
                levels[i].digits[f].push((a, place));
            }
            Some(place)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::ExplicitModel;
    use crate::engine::Allocation;

    /// A small pseudo-random number generator (xorshift), for reproducible cases.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A random small deal: up to 4 kinds of up to 3 copies, up to 5
    /// locations (some empty), up to 3 agents seeing random locations.
    fn random_spec(rng: &mut Rng) -> DealSpec {
        let copies: Vec<u32> = (0..1 + rng.below(4))
            .map(|_| 1 + rng.below(3) as u32)
            .collect();
        let locs = 1 + rng.below(5) as usize;
        let mut actual: Allocation = vec![vec![0; copies.len()]; locs];
        for (k, &c) in copies.iter().enumerate() {
            for _ in 0..c {
                actual[rng.below(locs as u64) as usize][k] += 1;
            }
        }
        let observers = (0..1 + rng.below(3))
            .map(|_| (0..locs).filter(|_| rng.below(2) == 0).collect())
            .collect();
        DealSpec {
            props: 1,
            ..DealSpec::dealt(copies, actual, observers)
        }
    }

    /// The contents of the locations `seen` in a row, as counts.
    fn contents(spec: &DealSpec, row: &[u8], seen: &[usize]) -> Vec<u32> {
        let mut out = vec![0; seen.len() * spec.copies.len()];
        let mut col = 0;
        for (k, &c) in spec.copies.iter().enumerate() {
            for &l in &row[col..col + c as usize] {
                if let Some(i) = seen.iter().position(|&s| s == usize::from(l)) {
                    out[i * spec.copies.len() + k] += 1;
                }
            }
            col += c as usize;
        }
        out
    }

    /// Every row is an allocation of the deck with the sizes, the pinned
    /// locations as dealt and propositions false; no two rows are equal.
    fn check_rows(spec: &DealSpec, rows: &[&[u8]]) {
        let pinned = deal::pinned(spec);
        let all: Vec<usize> = (0..spec.sizes.len()).collect();
        for row in rows {
            let counts = contents(spec, row, &all);
            let kinds = spec.copies.len();
            for (l, &size) in spec.sizes.iter().enumerate() {
                let here = &counts[l * kinds..(l + 1) * kinds];
                assert_eq!(here.iter().sum::<u32>(), size, "{spec:?}");
                assert!(!pinned[l] || here == spec.actual[l], "{spec:?}");
            }
            let mut col = 0;
            for &c in &spec.copies {
                assert!(row[col..col + c as usize].is_sorted(), "{spec:?}");
                col += c as usize;
            }
            assert!(row[col..].iter().all(|&v| v == 0));
        }
        let mut sorted = rows.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), rows.len(), "{spec:?}");
    }

    #[test]
    fn rows_and_classes_match_the_definitions() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..400 {
            let spec = random_spec(&mut rng);
            let n = deal::count_reachable(&spec) as usize;
            let cards: usize = spec.copies.iter().map(|&c| c as usize).sum();
            let width = cards + spec.props;
            let built = build(&spec, width, n);
            let rows: Vec<&[u8]> = built.rows.chunks(width).collect();
            assert_eq!(rows.len(), n);
            check_rows(&spec, &rows);
            for (classes, seen) in built.classes.iter().zip(&spec.observers) {
                let p = classes.as_ref().expect("small deals have small numbers");
                let mut used = vec![false; p.count];
                p.class.iter().for_each(|&c| used[c as usize] = true);
                assert!(used.iter().all(|&u| u), "dense classes: {spec:?}");
                for x in 0..n {
                    for y in 0..n {
                        let same = contents(&spec, rows[x], seen) == contents(&spec, rows[y], seen);
                        assert_eq!(p.class[x] == p.class[y], same, "{spec:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn connected_deals_are_generated() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut both = [0; 2];
        for _ in 0..400 {
            let spec = random_spec(&mut rng);
            let m = ExplicitModel::from_deal(&spec, 1 << 20).unwrap();
            let full = m.reachable().is_full() && m.len() as u128 == deal::count_reachable(&spec);
            if connected(&spec) {
                assert!(full, "{spec:?}");
            }
            both[usize::from(full)] += 1;
        }
        // Both kinds of deal were tried.
        assert!(both[0] > 10 && both[1] > 10, "{both:?}");
    }
}
