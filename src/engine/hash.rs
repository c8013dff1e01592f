//! A small, fast, non-cryptographic hasher (the "Fx" hash used by rustc) for
//! the engine's interning tables, where SipHash would dominate the running time.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The Fx hasher: one rotate, xor and multiply per word.
#[derive(Clone, Copy, Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The multiply only carries entropy upwards; hash tables index with
        // the low bits, so fold the high bits down.
        let h = self.hash ^ (self.hash >> 32);
        let h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ (h >> 29)
    }
}

/// A hash map using [`FxHasher`].
pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Interns `key` in `map`: its existing number, or the next one.
#[inline]
pub(crate) fn intern<K: std::hash::Hash + Eq>(map: &mut FxMap<K, u32>, key: K) -> u32 {
    let next = map.len() as u32;
    *map.entry(key).or_insert(next)
}

/// The Fx hash of a value, with the final mixing of [`FxHasher::finish`].
#[inline]
pub(crate) fn hash_of<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    let mut h = FxHasher::default();
    value.hash(&mut h);
    h.finish()
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
