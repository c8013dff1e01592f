//! Placeholder: replaced by the deal enumeration.
use super::{formula::Loc, Allocation};

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
pub fn count_worlds(_copies: &[u32], _sizes: &[u32]) -> u128 {
    unimplemented!()
}
