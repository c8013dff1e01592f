//! Data parallelism for large models (rayon), with results identical to
//! the sequential ones.
//!
//! Only plain data crosses threads (world sets, class arrays, rows):
//! formulas hold `Rc`s and are evaluated on the calling thread. Below
//! [`MIN_WORLDS`] worlds, or with one thread, everything runs sequentially.

use fixedbitset::FixedBitSet;
use rayon::prelude::*;

use super::relation::Partition;

/// The number of worlds from which splitting work between threads pays.
pub(crate) const MIN_WORLDS: usize = 1 << 16;

/// The bits of a word of a bit set.
pub(crate) const BITS: usize = usize::BITS as usize;

/// Words of a bit set handled by one task.
const CHUNK_WORDS: usize = 1 << 10;

/// Whether work over `n` worlds is split between threads.
pub(crate) fn worth(n: usize) -> bool {
    n >= MIN_WORLDS && rayon::current_num_threads() > 1
}

/// The set of the `x < n` with `f(x)`, built a word at a time (by chunks
/// of words in parallel for large `n`).
pub(crate) fn bits_where(n: usize, f: impl Fn(usize) -> bool + Sync) -> FixedBitSet {
    let mut out = FixedBitSet::with_capacity(n);
    let fill = |first: usize, words: &mut [usize]| {
        for (i, block) in words.iter_mut().enumerate() {
            let base = (first + i) * BITS;
            let mut word = 0usize;
            for x in base..(base + BITS).min(n) {
                word |= usize::from(f(x)) << (x - base);
            }
            *block = word;
        }
    };
    if worth(n) {
        out.as_mut_slice()
            .par_chunks_mut(CHUNK_WORDS)
            .enumerate()
            .for_each(|(i, words)| fill(i * CHUNK_WORDS, words));
    } else {
        fill(0, out.as_mut_slice());
    }
    out
}

/// For each class of `p`: bit 0 if it meets the complement of `s`, bit 1
/// if it meets `s` (halves of the worlds marked apart, then merged).
pub(crate) fn class_marks(p: &Partition, s: &FixedBitSet) -> Vec<u8> {
    let mark = |from: usize, to: usize| {
        let mut marks = vec![0u8; p.count];
        for x in from..to {
            marks[p.class[x] as usize] |= 1 << u8::from(s.contains(x));
        }
        marks
    };
    let n = p.class.len();
    if !worth(n) {
        return mark(0, n);
    }
    let (mut left, right) = rayon::join(|| mark(0, n / 2), || mark(n / 2, n));
    for (l, r) in left.iter_mut().zip(&right) {
        *l |= r;
    }
    left
}

/// `f` over the items, in parallel for large models; results in order.
pub(crate) fn map<T: Sync, R: Send>(n: usize, items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if worth(n) {
        items.par_iter().map(&f).collect()
    } else {
        items.iter().map(f).collect()
    }
}

/// `a` and `b`, on two threads for large models.
pub(crate) fn join<A: Send, B: Send>(
    n: usize,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if worth(n) {
        rayon::join(a, b)
    } else {
        (a(), b())
    }
}
