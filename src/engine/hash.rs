//! Hashing for the engine's interning tables, where SipHash would dominate
//! the running time: the "Fx" hash of rustc (the `rustc-hash` crate), and a
//! numbering of items by equality in one pre-sized open-addressing table.

use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

/// A hash map using the Fx hash.
pub(crate) type FxMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// Interns `key` in `map`: its existing number, or the next one.
#[inline]
pub(crate) fn intern<K: std::hash::Hash + Eq>(map: &mut FxMap<K, u32>, key: K) -> u32 {
    let next = map.len() as u32;
    *map.entry(key).or_insert(next)
}

/// The Fx hash of a value.
#[inline]
pub(crate) fn hash_of<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    FxBuildHasher.hash_one(value)
}

/// Numbers the items `0..n` by equality, densely in order of first
/// appearance: `(numbers, count)`. `hash` must agree with `same`.
///
/// An open-addressing table of item indices sized once for `n` items: no
/// keys are copied and the table never grows.
pub(crate) fn number_by(
    n: usize,
    hash: impl Fn(usize) -> u64,
    same: impl Fn(usize, usize) -> bool,
) -> (Vec<u32>, usize) {
    let cap = (2 * n).next_power_of_two().max(16);
    let mask = cap - 1;
    // Each slot holds the high half of an item's hash and the item's index,
    // so that most mismatches are settled without looking at the item.
    let mut table = vec![u64::MAX; cap];
    let mut numbers: Vec<u32> = Vec::with_capacity(n);
    let mut count = 0u32;
    for x in 0..n {
        let h = hash(x);
        let tag = h >> 32;
        let mut i = h as usize & mask;
        loop {
            let slot = table[i];
            if slot == u64::MAX {
                table[i] = tag << 32 | x as u64;
                numbers.push(count);
                count += 1;
                break;
            }
            let y = (slot & 0xffff_ffff) as usize;
            if slot >> 32 == tag && same(x, y) {
                numbers.push(numbers[y]);
                break;
            }
            i = (i + 1) & mask;
        }
    }
    (numbers, count as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_by_equality() {
        let items = [5u32, 7, 5, 9, 7, 5];
        let (numbers, count) = number_by(
            items.len(),
            |i| hash_of(&items[i]),
            |i, j| items[i] == items[j],
        );
        assert_eq!(numbers, vec![0, 1, 0, 2, 1, 0]);
        assert_eq!(count, 3);
        let (numbers, count) = number_by(0, |_| 0, |_, _| true);
        assert!(numbers.is_empty() && count == 0);
        let (numbers, count) = number_by(100, |_| 0, |i, j| i % 10 == j % 10);
        assert_eq!(count, 10);
        assert_eq!(numbers[57], 7);
    }
}
