//! Card deals: what the initial model is built from, how many worlds it has,
//! and the enumeration of every allocation of the deck.
//!
//! A world of a deal is an allocation of the deck's cards (`copies[k]`
//! indistinguishable copies of kind k) to locations holding `sizes[l]` cards
//! each. Copies of a kind are interchangeable, so an allocation is a matrix of
//! counts, encoded in a row as the sorted locations of each kind's copies.

use super::formula::Loc;
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
}

/// The exact number of worlds of a deal: the ways to place the deck's cards
/// (`copies[k]` of kind k) so that location l holds `sizes[l]` cards.
/// Saturates at `u128::MAX`.
///
/// Dynamic programming over kinds, with the vector of remaining capacities
/// as the state: fast even for 52 distinct cards over five locations.
pub fn count_worlds(copies: &[u32], sizes: &[u32]) -> u128 {
    let total: u64 = copies.iter().map(|&c| u64::from(c)).sum();
    let room: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
    if total != room {
        return 0;
    }
    let mut states: FxMap<Vec<u32>, u128> = FxMap::default();
    states.insert(sizes.to_vec(), 1);
    for &c in copies {
        let mut next: FxMap<Vec<u32>, u128> = FxMap::default();
        for (caps, ways) in states {
            let mut caps = caps;
            distribute(&mut caps, 0, c, &mut |after| {
                let slot = next.entry(after.to_vec()).or_insert(0);
                *slot = slot.saturating_add(ways);
            });
        }
        states = next;
    }
    states.values().fold(0u128, |acc, &w| acc.saturating_add(w))
}

/// Calls `visit` with the capacities left after every way of putting `left`
/// copies into the locations `loc..`, taking from `caps`.
fn distribute(caps: &mut [u32], loc: usize, left: u32, visit: &mut dyn FnMut(&[u32])) {
    if loc == caps.len() {
        if left == 0 {
            visit(caps);
        }
        return;
    }
    let low = if loc + 1 == caps.len() { left } else { 0 };
    for take in low..=left.min(caps[loc]) {
        caps[loc] -= take;
        distribute(caps, loc + 1, left - take, visit);
        caps[loc] += take;
    }
}

/// Checks that `spec` describes a deal: sizes that hold the deck, fewer than
/// 255 locations, observers in range and an actual allocation of the deck.
pub(crate) fn validate(spec: &DealSpec) -> Result<(), String> {
    let total: u64 = spec.copies.iter().map(|&c| u64::from(c)).sum();
    let room: u64 = spec.sizes.iter().map(|&s| u64::from(s)).sum();
    if total != room {
        return Err(format!(
            "the locations hold {room} cards but the deck has {total}"
        ));
    }
    if spec.sizes.len() >= 255 {
        return Err(format!("{} locations, at most 254", spec.sizes.len()));
    }
    let locs = spec.sizes.len();
    for (a, seen) in spec.observers.iter().enumerate() {
        if let Some(l) = seen.iter().find(|&&l| l >= locs) {
            return Err(format!("agent {a} observes location {l}, out of range"));
        }
    }
    validate_allocation(&spec.actual, &spec.copies, &spec.sizes)
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

/// Appends to `rows` one row per allocation of the deck (`width` bytes each:
/// the card columns, then `width - cards` zero proposition columns).
pub(crate) fn enumerate(copies: &[u32], sizes: &[u32], width: usize, rows: &mut Vec<u8>) {
    let mut state = Enumeration {
        copies,
        caps: sizes.to_vec(),
        row: vec![0; width],
        rows,
    };
    state.kind(0, 0);
}

/// The state of the depth-first enumeration of allocations.
struct Enumeration<'a> {
    copies: &'a [u32],
    caps: Vec<u32>,
    row: Vec<u8>,
    rows: &'a mut Vec<u8>,
}

impl Enumeration<'_> {
    /// Places the copies of kinds `k..`, the first one in column `col`.
    fn kind(&mut self, k: usize, col: usize) {
        if k + 1 >= self.copies.len() {
            // The last kind fills the remaining room: one way only.
            let mut col = col;
            for (l, &cap) in self.caps.iter().enumerate() {
                for cell in &mut self.row[col..col + cap as usize] {
                    *cell = l as u8;
                }
                col += cap as usize;
            }
            self.rows.extend_from_slice(&self.row);
            return;
        }
        self.place(k, 0, self.copies[k], col);
    }

    /// Places the `left` remaining copies of kind `k` at locations `loc..`,
    /// the next one in column `col`.
    fn place(&mut self, k: usize, loc: usize, left: u32, col: usize) {
        if left == 0 {
            self.kind(k + 1, col);
            return;
        }
        if loc == self.caps.len() {
            return;
        }
        let low = if loc + 1 == self.caps.len() { left } else { 0 };
        for take in low..=left.min(self.caps[loc]) {
            let end = col + take as usize;
            for cell in &mut self.row[col..end] {
                *cell = loc as u8;
            }
            self.caps[loc] -= take;
            self.place(k, loc + 1, left - take, end);
            self.caps[loc] += take;
        }
    }
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

    #[test]
    fn enumeration_matches_count() {
        let copies = [2u32, 1, 3];
        let sizes = [2u32, 1, 3];
        let mut rows = Vec::new();
        enumerate(&copies, &sizes, 7, &mut rows);
        let n = rows.len() / 7;
        assert_eq!(n as u128, count_worlds(&copies, &sizes));
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
    fn encode_sorts_copies() {
        let alloc = vec![vec![1, 0], vec![0, 2], vec![1, 0]];
        assert_eq!(encode(&alloc, &[2, 2]), vec![0, 2, 1, 1]);
        assert!(validate_allocation(&alloc, &[2, 2], &[1, 2, 1]).is_ok());
        assert!(validate_allocation(&alloc, &[2, 2], &[2, 1, 1]).is_err());
    }
}
