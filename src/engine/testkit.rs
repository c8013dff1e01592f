//! Shared fixtures for the engine's unit tests.

use super::deal::DealSpec;
use super::event::{Event, EventModel, Post, Relation};
use super::formula::{Cmp, Formula};
use super::model::ExplicitModel;
use super::Backend;

/// Card kind Q.
pub const Q: usize = 0;
/// Card kind A.
pub const A: usize = 1;
/// The stock.
pub const STOCK: usize = 3;

/// Deck Q×4 A×4, hands of one card for agents 0..3 and a stock of five;
/// each agent sees its own hand. Actually 0:Q 1:Q 2:A.
pub fn qa_deal() -> ExplicitModel {
    ExplicitModel::from_deal(&qa_spec(), 1000).unwrap()
}

/// The deal of [`qa_deal`].
pub fn qa_spec() -> DealSpec {
    DealSpec::dealt(
        vec![4, 4],
        vec![vec![1, 0], vec![1, 0], vec![0, 1], vec![2, 3]],
        vec![vec![0], vec![1], vec![2]],
    )
}

/// `drawer` draws a card from the stock: one event per kind, the drawer
/// tells them apart, the others do not.
pub fn draw(drawer: usize) -> EventModel {
    draw_of(drawer, &[Q, A])
}

/// `drawer` draws a card of one of `kinds` from the stock (location
/// [`STOCK`]), as [`draw`] does, with three agents.
pub fn draw_of(drawer: usize, kinds: &[usize]) -> EventModel {
    let events = kinds
        .iter()
        .map(|&k| Event {
            name: format!("draw {k}"),
            pre: Formula::count(STOCK, vec![k], Cmp::Ge, 1),
            post: vec![Post::Move {
                kind: k,
                from: STOCK,
                to: drawer,
                n: 1,
            }],
        })
        .collect();
    EventModel::semi_private("draw", 3, &[drawer], events)
}

/// The muddy children with three children: proposition i is "child i is
/// muddy", child i sees every forehead but its own. Children 0 and 1 are muddy.
pub fn muddy() -> ExplicitModel {
    let worlds = (0..8)
        .map(|w| (0..3).map(|i| w >> i & 1 == 1).collect())
        .collect();
    let relations = (0..3)
        .map(|i| Relation::Partition((0..8usize).map(|w| w & !(1 << i)).collect()))
        .collect();
    ExplicitModel::from_valuations(3, 3, worlds, relations, 0b011).unwrap()
}

/// Proposition `p`.
pub fn p(i: usize) -> Formula {
    Formula::Atom(super::formula::Atom::Prop(i))
}

/// The same model with another actual world.
pub fn at(m: &ExplicitModel, w: usize) -> ExplicitModel {
    let mut m = m.clone();
    m.actual = w;
    m
}

/// Whether `f` holds in the actual world, unwrapped.
pub fn holds(m: &dyn Backend, f: &Formula) -> bool {
    m.eval_actual(f).unwrap()
}
