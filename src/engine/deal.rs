//! Card deals: what the initial model is built from, how many worlds it has,
//! and which locations are pinned (the enumeration is in `build.rs`).
//!
//! A world of a deal is an allocation of the deck's cards (`copies[k]`
//! indistinguishable copies of kind k) to locations holding `sizes[l]` cards
//! each. Copies of a kind are interchangeable, so an allocation is a matrix of
//! counts, encoded in a row as the sorted locations of each kind's copies.

use super::formula::{Atom, Formula, Loc};
use super::hash::FxMap;
use super::Allocation;

/// What the initial model of a card deal is built from.
#[derive(Clone, Debug)]
pub struct DealSpec {
    /// Copies of each card kind in the deck, indexed by kind.
    pub copies: Vec<u32>,
    /// How many cards lie at each location (public knowledge), indexed by location.
    pub sizes: Vec<u32>,
    /// For each agent, the locations whose contents it sees.
    pub observers: Vec<Vec<Loc>>,
    /// The number of declared propositions (false in every world).
    pub props: usize,
    /// The actual deal.
    pub actual: Allocation,
    /// For each location, the kinds it can hold in the deal's worlds
    /// (`None`: any kind); empty when no location is restricted. The
    /// restriction holds at the deal only: later moves may bring any card.
    pub only: Vec<Option<Vec<bool>>>,
    /// Locations whose variables the symbolic engine places first, in this
    /// order (the user's variable order); the others follow in the order
    /// chosen from the observations. Empty: all chosen.
    pub order: Vec<Loc>,
}

impl DealSpec {
    /// The deal of `actual` (the cards at each location, which give the
    /// locations' sizes) from a deck of `copies` of each kind, each agent
    /// seeing the locations of its `observers`: no propositions, no
    /// restricted location, and the variable order chosen.
    pub fn dealt(copies: Vec<u32>, actual: Allocation, observers: Vec<Vec<Loc>>) -> DealSpec {
        DealSpec {
            sizes: actual.iter().map(|counts| counts.iter().sum()).collect(),
            copies,
            observers,
            props: 0,
            actual,
            only: Vec::new(),
            order: Vec::new(),
        }
    }

    /// Whether location `l` can hold kind `k` in the deal's worlds.
    pub fn allows(&self, l: Loc, k: usize) -> bool {
        match self.only.get(l) {
            Some(Some(kinds)) => kinds.get(k).copied().unwrap_or(false),
            _ => true,
        }
    }

    /// Whether some location can hold only some kinds.
    pub fn restricted(&self) -> bool {
        self.only.iter().any(Option::is_some)
    }
}

/// The exact number of worlds of a deal: the ways to place the deck's cards
/// (`copies[k]` of kind k) so that location l holds `sizes[l]` cards.
/// Saturates at `u128::MAX`.
///
/// Dynamic programming over kinds, with the multiset of remaining
/// capacities as the state: fast even for 52 distinct cards over five
/// locations, or forty one-card locations. An allocation is a matrix of
/// counts with the copies as row sums and the sizes as column sums, so
/// kinds and locations can trade places: the longer list is the one
/// iterated over (twenty one-card foreheads, a stock and two kinds: a few
/// ways per location, not the 2^20 ways of placing one kind).
pub fn count_worlds(copies: &[u32], sizes: &[u32]) -> u128 {
    let total: u64 = copies.iter().map(|&c| u64::from(c)).sum();
    let room: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
    if total != room {
        return 0;
    }
    let (copies, sizes) = if sizes.len() > copies.len() {
        (sizes, copies)
    } else {
        (copies, sizes)
    };
    // Smallest first: the largest (a stock) then comes last, when the room
    // left is exactly its size and it fits in one way; placed first, its
    // ways of leaving the few other cards out would each be visited (51
    // million for an `uncounted` Cabo deal's stock).
    let mut order = copies.to_vec();
    order.sort_unstable();
    let mut states: FxMap<Vec<u32>, u128> = FxMap::default();
    states.insert(sizes.to_vec(), 1);
    for c in order {
        let mut next: FxMap<Vec<u32>, u128> = FxMap::default();
        for (caps, ways) in states {
            let mut caps = caps;
            let room = caps.iter().sum();
            distribute(&mut caps, 0, c, room, &mut |after| {
                // The count depends only on the multiset of capacities left:
                // sorted, without the full locations, equal states merge.
                let mut key: Vec<u32> = after.iter().copied().filter(|&c| c > 0).collect();
                key.sort_unstable();
                let slot = next.entry(key).or_insert(0);
                *slot = slot.saturating_add(ways);
            });
        }
        states = next;
    }
    states.values().fold(0u128, |acc, &w| acc.saturating_add(w))
}

/// The number of worlds reachable from the actual world of a deal: the
/// locations every agent sees (public piles) hold what they hold in the
/// actual deal in every such world, so only the other cards are placed.
pub fn count_reachable(spec: &DealSpec) -> u128 {
    let (copies, sizes) = unpinned(spec);
    if spec.restricted() {
        let only: Vec<Vec<bool>> = (0..sizes.len())
            .map(|l| (0..copies.len()).map(|k| spec.allows(l, k)).collect())
            .collect();
        return count_restricted(&copies, &sizes, &only);
    }
    count_worlds(&copies, &sizes)
}

/// [`count_worlds`] when location l can hold only the kinds `only[l]`:
/// dynamic programming over the locations, with the copies of each kind
/// still to place as the state (restricted locations first, where the
/// states stay few). Saturates at `u128::MAX`.
pub fn count_restricted(copies: &[u32], sizes: &[u32], only: &[Vec<bool>]) -> u128 {
    let total: u64 = copies.iter().map(|&c| u64::from(c)).sum();
    let room: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
    if total != room {
        return 0;
    }
    let mut locs: Vec<usize> = (0..sizes.len()).filter(|&l| sizes[l] > 0).collect();
    locs.sort_by_key(|&l| only[l].iter().filter(|&&a| a).count());
    let mut states: FxMap<Vec<u32>, u128> = FxMap::default();
    states.insert(copies.to_vec(), 1);
    for l in locs {
        let mut next: FxMap<Vec<u32>, u128> = FxMap::default();
        for (left, ways) in states {
            let mut left = left;
            fill(&mut left, &only[l], 0, sizes[l], &mut |after| {
                let slot = next.entry(after.to_vec()).or_insert(0);
                *slot = slot.saturating_add(ways);
            });
        }
        states = next;
    }
    states.values().fold(0u128, |acc, &w| acc.saturating_add(w))
}

/// Calls `visit` with the copies left after every way of taking `need`
/// cards of the allowed kinds `k..` from `left`.
fn fill(left: &mut [u32], allowed: &[bool], k: usize, need: u32, visit: &mut dyn FnMut(&[u32])) {
    if need == 0 {
        visit(left);
        return;
    }
    if k == left.len() {
        return;
    }
    let most = if allowed[k] { left[k].min(need) } else { 0 };
    for take in 0..=most {
        left[k] -= take;
        fill(left, allowed, k + 1, need - take, visit);
        left[k] += take;
    }
}

/// The most contents of one location [`implied_only`] tries.
const CONTENTS_TRIED: usize = 4096;

/// The restrictions (`only`, see [`DealSpec::only`]) that a formula about
/// the deal (no knowledge in it: its truth at a world is the world's
/// alone) implies, when they restrict some location more than `spec`
/// does and the actual deal keeps them; `None` otherwise.
///
/// Each conjunct of `phi` (its top-level `∧`s flattened) that reads the
/// counts at one location l only, with no knowledge, proposition or
/// variable in it, is tried on every content l can have (`sizes[l]`
/// cards of the kinds it may hold, at most the copies of each): a kind
/// l holds in no content that satisfies every such conjunct is ruled
/// out at l. In every world of the deal l holds such a content, so the
/// deal's worlds where `phi` holds are exactly those of the restricted
/// deal where `phi` holds: announcing `phi` first on either gives the
/// same model. `(pay1(P) | pay1(N))` on a one-card pile leaves it P and N.
/// A location with more than 4,096 contents is left as it is.
pub fn implied_only(spec: &DealSpec, phi: &Formula) -> Option<Vec<Option<Vec<bool>>>> {
    if !factual(phi) {
        // Knowledge in φ is read in the model before the announcement,
        // which a restriction would change.
        return None;
    }
    let (kinds, locs) = (spec.copies.len(), spec.sizes.len());
    let mut conjuncts = Vec::new();
    flatten_and(phi, &mut conjuncts);
    let mut at: Vec<Vec<&Formula>> = vec![Vec::new(); locs];
    for c in conjuncts {
        if let Some(Some(l)) = one_location(c) {
            if l < locs {
                at[l].push(c);
            }
        }
    }
    let mut only: Vec<Option<Vec<bool>>> = (0..locs)
        .map(|l| spec.only.get(l).cloned().flatten())
        .collect();
    let mut narrower = false;
    for (l, cs) in at.iter().enumerate() {
        if cs.is_empty() {
            continue;
        }
        let allowed: Vec<bool> = (0..kinds).map(|k| spec.allows(l, k)).collect();
        let mut seen = vec![false; kinds];
        let mut any = false;
        let mut tried = 0usize;
        let mut content = vec![0u32; kinds];
        let complete = contents(
            &spec.copies,
            &allowed,
            0,
            spec.sizes[l],
            &mut content,
            &mut |c| {
                tried += 1;
                if tried > CONTENTS_TRIED {
                    return false;
                }
                if cs.iter().all(|f| holds_in(f, c)) {
                    any = true;
                    for (k, &n) in c.iter().enumerate() {
                        seen[k] |= n > 0;
                    }
                }
                true
            },
        );
        if !complete {
            continue;
        }
        if !any {
            // φ is false everywhere: its announcement is refused as usual.
            return None;
        }
        if (0..kinds).any(|k| allowed[k] && !seen[k] && spec.copies[k] > 0) {
            let keeps = spec
                .actual
                .get(l)
                .is_some_and(|a| a.iter().enumerate().all(|(k, &n)| n == 0 || seen[k]));
            if !keeps {
                return None;
            }
            only[l] = Some(seen);
            narrower = true;
        }
    }
    narrower.then_some(only)
}

/// Whether `f` is about each world alone: no knowledge, announcement or
/// update in it.
fn factual(f: &Formula) -> bool {
    match f {
        Formula::Top | Formula::Bottom | Formula::Atom(_) => true,
        Formula::Not(g) => factual(g),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().all(factual),
        Formula::Implies(a, b) | Formula::Iff(a, b) => factual(a) && factual(b),
        _ => false,
    }
}

/// The conjuncts of `f`, nested `∧`s flattened.
fn flatten_and<'a>(f: &'a Formula, out: &mut Vec<&'a Formula>) {
    match f {
        Formula::And(fs) => fs.iter().for_each(|g| flatten_and(g, out)),
        _ => out.push(f),
    }
}

/// The one location whose counts `f` reads (`Some(None)`: none), or
/// `None` when `f` reads several, or anything but counts.
fn one_location(f: &Formula) -> Option<Option<Loc>> {
    let join = |a: Option<Loc>, b: Option<Loc>| -> Option<Option<Loc>> {
        match (a, b) {
            (Some(x), Some(y)) if x != y => None,
            (x, y) => Some(x.or(y)),
        }
    };
    match f {
        Formula::Top | Formula::Bottom => Some(None),
        Formula::Atom(Atom::Count { loc, .. }) => Some(Some(*loc)),
        Formula::Atom(_) => None,
        Formula::Not(g) => one_location(g),
        Formula::And(fs) | Formula::Or(fs) => fs
            .iter()
            .try_fold(None, |acc, g| join(acc, one_location(g)?)),
        Formula::Implies(a, b) | Formula::Iff(a, b) => join(one_location(a)?, one_location(b)?),
        _ => None,
    }
}

/// The value of a formula of [`one_location`] where its location holds
/// `content` (cards of each kind).
fn holds_in(f: &Formula, content: &[u32]) -> bool {
    match f {
        Formula::Top => true,
        Formula::Bottom => false,
        Formula::Atom(Atom::Count { kinds, cmp, n, .. }) => {
            let here: u32 = kinds
                .iter()
                .map(|&k| content.get(k).copied().unwrap_or(0))
                .sum();
            cmp.holds(here, *n)
        }
        Formula::Not(g) => !holds_in(g, content),
        Formula::And(fs) => fs.iter().all(|g| holds_in(g, content)),
        Formula::Or(fs) => fs.iter().any(|g| holds_in(g, content)),
        Formula::Implies(a, b) => !holds_in(a, content) || holds_in(b, content),
        Formula::Iff(a, b) => holds_in(a, content) == holds_in(b, content),
        _ => false,
    }
}

/// Calls `visit` with every content of `need` cards of the allowed kinds
/// `k..` (at most `copies` of each) added to `content`; stops when
/// `visit` returns false, and then returns false.
fn contents(
    copies: &[u32],
    allowed: &[bool],
    k: usize,
    need: u32,
    content: &mut [u32],
    visit: &mut dyn FnMut(&[u32]) -> bool,
) -> bool {
    if k == copies.len() {
        return need > 0 || visit(content);
    }
    let most = if allowed[k] { copies[k].min(need) } else { 0 };
    for take in 0..=most {
        content[k] = take;
        if !contents(copies, allowed, k + 1, need - take, content, visit) {
            content[k] = 0;
            return false;
        }
    }
    content[k] = 0;
    true
}

/// The locations every agent sees: their contents are common knowledge.
pub(crate) fn pinned(spec: &DealSpec) -> Vec<bool> {
    (0..spec.sizes.len())
        .map(|l| spec.observers.iter().all(|seen| seen.contains(&l)))
        .collect()
}

/// The deck and sizes that remain once the pinned locations are filled as
/// in the actual deal.
pub(crate) fn unpinned(spec: &DealSpec) -> (Vec<u32>, Vec<u32>) {
    let pinned = pinned(spec);
    let mut copies = spec.copies.clone();
    let mut sizes = spec.sizes.clone();
    for (l, &fixed) in pinned.iter().enumerate() {
        if !fixed {
            continue;
        }
        sizes[l] = 0;
        for (k, c) in copies.iter_mut().enumerate() {
            *c = c.saturating_sub(
                spec.actual
                    .get(l)
                    .and_then(|a| a.get(k))
                    .copied()
                    .unwrap_or(0),
            );
        }
    }
    (copies, sizes)
}

/// Calls `visit` with the capacities left after every way of putting `left`
/// copies into the locations `loc..`, whose capacities add up to `room`.
fn distribute(caps: &mut [u32], loc: usize, left: u32, room: u32, visit: &mut dyn FnMut(&[u32])) {
    if loc == caps.len() {
        if left == 0 {
            visit(caps);
        }
        return;
    }
    let here = caps[loc];
    let rest = room - here;
    for take in left.saturating_sub(rest)..=left.min(here) {
        caps[loc] -= take;
        distribute(caps, loc + 1, left - take, rest, visit);
        caps[loc] += take;
    }
}

/// Checks that `spec` describes a deal: sizes that hold the deck, observers
/// in range and an actual allocation of the deck that keeps every location's
/// restriction.
pub(crate) fn validate(spec: &DealSpec) -> Result<(), String> {
    let total: u64 = spec.copies.iter().map(|&c| u64::from(c)).sum();
    let room: u64 = spec.sizes.iter().map(|&s| u64::from(s)).sum();
    if total != room {
        return Err(format!(
            "the locations hold {room} cards but the deck has {total}"
        ));
    }
    let locs = spec.sizes.len();
    if !spec.only.is_empty() && spec.only.len() != locs {
        return Err(format!(
            "restrictions for {} locations, expected {locs}",
            spec.only.len()
        ));
    }
    for (l, counts) in spec.actual.iter().enumerate() {
        if let Some(k) = (0..counts.len()).find(|&k| counts[k] > 0 && !spec.allows(l, k)) {
            return Err(format!(
                "the actual deal puts kind {k} at location {l}, which cannot hold it"
            ));
        }
    }
    for (a, seen) in spec.observers.iter().enumerate() {
        if let Some(l) = seen.iter().find(|&&l| l >= locs) {
            return Err(format!("agent {a} observes location {l}, out of range"));
        }
    }
    validate_allocation(&spec.actual, &spec.copies, &spec.sizes)
}

/// How much cheaper the symbolic engine must look before `--engine auto`
/// takes it for a deal within the explicit budget (see [`prefer_symbolic`]).
pub const SYMBOLIC_MARGIN: f64 = 100.0;

/// Whether a deal of `worlds` reachable worlds is cheaper on the symbolic
/// engine whose law has `law_nodes` nodes, by a rough estimate of what one
/// query or move costs on each:
///
/// - explicit: every world, once per agent (a partition per agent):
///   `worlds · (agents + 1)`;
/// - symbolic: a K quantifies the law: `law_nodes · agents`.
///
/// The symbolic engine is taken when its estimate is [`SYMBOLIC_MARGIN`]
/// times smaller (a margin measured on the benchmarks: the explicit engine
/// has no BDD manager to set up, its steps are cheaper than a BDD node's,
/// and it lists worlds for `why` and figures at no extra cost).
pub fn prefer_symbolic(spec: &DealSpec, worlds: u128, law_nodes: usize) -> bool {
    let agents = spec.observers.len().max(1) as f64;
    let explicit = worlds as f64 * (agents + 1.0);
    let symbolic = (law_nodes.max(1) as f64) * agents;
    explicit > SYMBOLIC_MARGIN * symbolic
}

/// A lower bound of the nodes of a deal's symbolic law, known without
/// building it: one per bit of every count outside the public locations.
/// When [`prefer_symbolic`] is false even with it, the law need not be built.
pub fn law_nodes_at_least(spec: &DealSpec) -> usize {
    let pins = pinned(spec);
    let mut bits = 0;
    for (l, &size) in spec.sizes.iter().enumerate() {
        if pins[l] {
            continue;
        }
        for (k, &c) in spec.copies.iter().enumerate() {
            if spec.allows(l, k) {
                bits += (u32::BITS - c.min(size).leading_zeros()) as usize;
            }
        }
    }
    bits
}

/// The most locations of an explicit model (a world's row holds each
/// card's location in a byte).
pub const EXPLICIT_LOCATIONS: usize = 254;

/// The most cards of an explicit model (a count of cards in a byte).
pub const EXPLICIT_CARDS: u64 = 255;

/// Checks that the explicit engine can hold the deal: at most
/// [`EXPLICIT_LOCATIONS`] locations and [`EXPLICIT_CARDS`] cards (the
/// symbolic engine has no such limit).
pub fn fits_explicit(spec: &DealSpec) -> Result<(), String> {
    let total: u64 = spec.copies.iter().map(|&c| u64::from(c)).sum();
    if spec.sizes.len() > EXPLICIT_LOCATIONS || total > EXPLICIT_CARDS {
        return Err(format!(
            "the explicit engine holds at most {EXPLICIT_CARDS} cards in {EXPLICIT_LOCATIONS} locations; this deal has {total} cards in {} (use the symbolic engine)",
            spec.sizes.len()
        ));
    }
    Ok(())
}

/// Checks that `alloc` places exactly the deck with the given sizes.
fn validate_allocation(alloc: &Allocation, copies: &[u32], sizes: &[u32]) -> Result<(), String> {
    if alloc.len() != sizes.len() {
        return Err(format!(
            "the actual deal has {} locations, expected {}",
            alloc.len(),
            sizes.len()
        ));
    }
    for (l, counts) in alloc.iter().enumerate() {
        if counts.len() != copies.len() {
            return Err(format!(
                "the actual deal lists {} kinds at location {l}, expected {}",
                counts.len(),
                copies.len()
            ));
        }
        let here: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        if here != u64::from(sizes[l]) {
            return Err(format!(
                "the actual deal puts {here} cards at location {l}, expected {}",
                sizes[l]
            ));
        }
    }
    for (k, &c) in copies.iter().enumerate() {
        let placed: u64 = alloc.iter().map(|counts| u64::from(counts[k])).sum();
        if placed != u64::from(c) {
            return Err(format!(
                "the actual deal places {placed} cards of kind {k}, the deck has {c}"
            ));
        }
    }
    Ok(())
}

/// The row encoding of an allocation's cards: for each kind, the locations
/// of its copies in increasing order.
pub(crate) fn encode(alloc: &Allocation, copies: &[u32]) -> Vec<u8> {
    let mut row = Vec::new();
    for k in 0..copies.len() {
        for (l, counts) in alloc.iter().enumerate() {
            row.extend(std::iter::repeat_n(l as u8, counts[k] as usize));
        }
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binomial coefficient, exactly.
    fn binomial(n: u128, k: u128) -> u128 {
        (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1))
    }

    /// n! / ∏ sizes! as a product of binomials.
    fn multinomial(sizes: &[u32]) -> u128 {
        let mut left: u128 = sizes.iter().map(|&s| u128::from(s)).sum();
        let mut acc = 1u128;
        for &s in sizes {
            acc *= binomial(left, u128::from(s));
            left -= u128::from(s);
        }
        acc
    }

    #[test]
    fn small_counts() {
        assert_eq!(count_worlds(&[4, 4], &[1, 1, 1, 5]), 8);
        assert_eq!(count_worlds(&[1, 1, 1], &[1, 1, 1]), 6);
        assert_eq!(count_worlds(&[2, 1], &[1, 2]), 2);
        assert_eq!(count_worlds(&[3], &[1, 2]), 1);
        assert_eq!(count_worlds(&[1, 1], &[1, 2]), 0);
        assert_eq!(count_worlds(&[], &[]), 1);
    }

    #[test]
    fn distinct_cards_are_multinomials() {
        for sizes in [vec![2u32, 2, 2], vec![1, 3, 4], vec![5, 0, 2, 3]] {
            let n: u32 = sizes.iter().sum();
            let deck = vec![1; n as usize];
            assert_eq!(count_worlds(&deck, &sizes), multinomial(&sizes));
        }
    }

    #[test]
    fn full_deck_counts() {
        let deck = vec![1u32; 52];
        let three = count_worlds(&deck, &[7, 7, 7, 31]);
        assert_eq!(three, multinomial(&[7, 7, 7, 31]));
        assert!(three > 7 * 10u128.pow(22) && three < 8 * 10u128.pow(22));
        let bridge = count_worlds(&deck, &[13, 13, 13, 13]);
        assert_eq!(bridge, multinomial(&[13, 13, 13, 13]));
        assert!(bridge > 5 * 10u128.pow(28) && bridge < 6 * 10u128.pow(28));
        let five = count_worlds(&deck, &[5, 5, 5, 5, 32]);
        assert_eq!(five, multinomial(&[5, 5, 5, 5, 32]));
    }

    /// A deal of `copies` over `sizes` with the given observers; the actual
    /// deal is the first allocation in location order.
    fn spec(copies: &[u32], sizes: &[u32], observers: Vec<Vec<Loc>>) -> DealSpec {
        let mut actual = vec![vec![0; copies.len()]; sizes.len()];
        let (mut k, mut left) = (0, copies[0]);
        for (l, &size) in sizes.iter().enumerate() {
            for _ in 0..size {
                while left == 0 {
                    k += 1;
                    left = copies[k];
                }
                actual[l][k] += 1;
                left -= 1;
            }
        }
        DealSpec::dealt(copies.to_vec(), actual, observers)
    }

    #[test]
    fn enumeration_matches_count() {
        let copies = [2u32, 1, 3];
        let sizes = [2u32, 1, 3];
        let spec = spec(&copies, &sizes, vec![vec![0], vec![1]]);
        let n = count_reachable(&spec) as usize;
        let rows = crate::engine::build::build(&spec, 7, n).rows;
        assert_eq!(rows.len(), n * 7);
        assert_eq!(n as u128, count_worlds(&copies, &sizes));
        assert_eq!(count_reachable(&spec), count_worlds(&copies, &sizes));
        let mut distinct: Vec<&[u8]> = rows.chunks(7).collect();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), n);
        for row in rows.chunks(7) {
            assert!(row[0] <= row[1] && row[3] <= row[4] && row[4] <= row[5]);
            assert_eq!(row[6], 0);
        }
    }

    #[test]
    fn locations_everyone_sees_are_pinned() {
        // Two agents who both see location 2 (a public pile of 2 cards).
        let copies = [2u32, 2, 2];
        let sizes = [2u32, 2, 2];
        let spec = spec(&copies, &sizes, vec![vec![0, 2], vec![1, 2]]);
        assert_eq!(count_worlds(&copies, &sizes), 21);
        // The pile holds both copies of kind 2; the other four cards go 2 + 2.
        assert_eq!(count_reachable(&spec), 3);
        let rows = crate::engine::build::build(&spec, 6, 3).rows;
        assert_eq!(rows.len() / 6, 3);
        assert!(rows.chunks(6).all(|r| r[4] == 2 && r[5] == 2));
    }

    #[test]
    fn dead_branches_are_pruned() {
        // Muddy children, n = 20: 20 one-card foreheads, a stock of 20.
        let mut sizes = vec![0u32; 20];
        sizes.push(20);
        sizes.extend(std::iter::repeat_n(1, 20));
        assert_eq!(count_worlds(&[20, 20], &sizes), 1 << 20);
    }

    #[test]
    fn restricted_counts_match_the_filtered_enumeration() {
        // Every restriction pattern of three locations over three kinds.
        let copies = [2u32, 1, 2];
        let sizes = [2u32, 1, 2];
        let base = spec(&copies, &sizes, vec![vec![0], vec![1]]);
        let width = 5;
        let all = count_reachable(&base) as usize;
        let rows = crate::engine::build::build(&base, width, all).rows;
        for pattern in 0u32..1 << 9 {
            let mut spec = base.clone();
            spec.only = (0..3)
                .map(|l| Some((0..3).map(|k| pattern >> (3 * l + k) & 1 == 1).collect()))
                .collect();
            if validate(&spec).is_err() {
                continue;
            }
            let kind_of = |c: usize| {
                if c < 2 {
                    0
                } else if c < 3 {
                    1
                } else {
                    2
                }
            };
            let keeps = |row: &[u8]| (0..width).all(|c| spec.allows(row[c] as usize, kind_of(c)));
            let mut expected: Vec<&[u8]> = rows.chunks(width).filter(|r| keeps(r)).collect();
            let n = count_reachable(&spec) as usize;
            assert_eq!(n, expected.len(), "pattern {pattern:09b}");
            let built = crate::engine::build::build(&spec, width, n).rows;
            let mut got: Vec<&[u8]> = built.chunks(width).collect();
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "pattern {pattern:09b}");
        }
    }

    #[test]
    fn encode_sorts_copies() {
        let alloc = vec![vec![1, 0], vec![0, 2], vec![1, 0]];
        assert_eq!(encode(&alloc, &[2, 2]), vec![0, 2, 1, 1]);
        assert!(validate_allocation(&alloc, &[2, 2], &[1, 2, 1]).is_ok());
        assert!(validate_allocation(&alloc, &[2, 2], &[2, 1, 1]).is_err());
    }
}
