//! Counters of the engine's fast paths, read by the unit tests: how often
//! a move was made on the factors, a question answered without building
//! a considered set, a stock's count updated from the last one. The tests
//! assert that each path is taken, so that a cross-check against the
//! explicit engine covers it.
//!
//! This module is the one switch: production code calls [`count`], which
//! does nothing outside `cfg(test)` and compiles away; under `cfg(test)`
//! each thread keeps its own counts, so tests running in parallel do not
//! see each other's.

/// A fast path whose use the tests count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counter {
    /// A public move of known cards made on the factors
    /// (`symbolic::factors::public_move`).
    PublicMove,
    /// Those of them that moved cards (not a bare announcement).
    PublicMoveOfCards,
    /// A private draw from the stock made on the factors
    /// (`symbolic::factors::private_draw`).
    PrivateDraw,
    /// A card turned up from the derived stock on the factors
    /// (`symbolic::factors::public_move`).
    TurnUp,
    /// All the cards of a location everyone knows moved on the factors
    /// (`symbolic::factors::public_move`).
    MoveAll,
    /// A known pile shuffled whole into the derived stock on the factors
    /// (`symbolic::factors::public_move`).
    IntoStock,
    /// A question answered by a projection of a considered set left
    /// unbuilt (`symbolic::local`).
    Unbuilt,
    /// A question answered by a state found near the actual one
    /// (`symbolic::local`, `Set::Lazy`).
    Witnessed,
    /// A derived stock's count updated from the lineage's last sum
    /// (`symbolic::derived`).
    SumFromLast,
}

/// Counts one use of the path `c` (nothing outside the tests).
#[inline(always)]
pub(crate) fn count(c: Counter) {
    imp::count(c);
}

/// How many times this thread has counted `c` so far.
#[cfg(test)]
pub(crate) fn read(c: Counter) -> usize {
    imp::read(c)
}

#[cfg(test)]
mod imp {
    use super::Counter;
    use std::cell::Cell;

    /// The number of counters.
    const N: usize = Counter::SumFromLast as usize + 1;

    thread_local! {
        static COUNTS: Cell<[usize; N]> = const { Cell::new([0; N]) };
    }

    pub(super) fn count(c: Counter) {
        COUNTS.with(|x| {
            let mut v = x.get();
            v[c as usize] += 1;
            x.set(v);
        });
    }

    pub(super) fn read(c: Counter) -> usize {
        COUNTS.with(|x| x.get()[c as usize])
    }
}

#[cfg(not(test))]
mod imp {
    use super::Counter;

    #[inline(always)]
    pub(super) fn count(_: Counter) {}
}
