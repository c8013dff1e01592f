//! What the two engines exchange, as plain data (SMCDEL keeps such
//! translations between its explicit and symbolic sides in one module).
//!
//! The symbolic engine imports the language (formulas, event models, deals)
//! and this module, never the explicit engine's internals (its rows,
//! relations or partitions): an explicit S5 model is read as each agent's
//! class of each world ([`s5_classes`]), an event model's relations as
//! each agent's class of each event ([`event_classes`]), and the states of
//! a structure become an explicit model through a [`Lister`].

use std::sync::Arc;

use super::event::EventModel;
use super::model::{ExplicitModel, Partition, Rel, Shape};
use super::EngineError;

/// Each agent's relation of an S5 explicit model as `(class of each world,
/// number of classes)`. Refused when a relation is not an equivalence, or
/// when a contraction merged worlds that a group of agents tells apart
/// (distributed knowledge could then not be read off the agents' classes).
pub(crate) fn s5_classes(m: &ExplicitModel) -> Result<Vec<(Vec<u32>, usize)>, EngineError> {
    if !m.groups_are_intersections() {
        return Err(EngineError::Unsupported(
            "the contraction merged worlds that a group of agents tells apart, so distributed knowledge cannot be read off the agents' classes; use the model before contraction".into(),
        ));
    }
    m.rels
        .iter()
        .map(|r| match r {
            Rel::Partition(p) => Ok((p.class.clone(), p.count)),
            Rel::General(_) => Err(EngineError::Unsupported(
                "the model has a relation that is not an equivalence (beliefs)".into(),
            )),
        })
        .collect()
}

/// Each agent's class of each event of `em`, when every relation is an
/// equivalence; `Ok(None)` when one is not (a belief event model).
pub(crate) fn event_classes(em: &EventModel) -> Result<Option<Vec<Vec<u32>>>, EngineError> {
    let mut out = Vec::with_capacity(em.relations.len());
    for r in &em.relations {
        match Rel::from_relation(r, em.events.len()).map_err(EngineError::Malformed)? {
            Rel::Partition(p) => out.push(p.class),
            Rel::General(_) => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Builds an explicit model world by world: the cards at each location, the
/// propositions, and for each agent a label (worlds with equal labels are
/// the agent's class). [`Lister::finish`] contracts it.
pub(crate) struct Lister {
    shape: Shape,
    rows: Vec<u8>,
    labels: Vec<Vec<Vec<bool>>>,
    n: usize,
}

impl Lister {
    /// A lister for a deck of `copies` over `locations`, `props`
    /// propositions and `agents` agents.
    pub fn new(copies: Vec<u32>, locations: usize, props: usize, agents: usize) -> Lister {
        Lister {
            shape: Shape::new(copies, locations, props),
            rows: Vec::new(),
            labels: vec![Vec::new(); agents],
            n: 0,
        }
    }

    /// Adds a world: `counts[k * locations + l]` cards of kind k at l, the
    /// propositions' values, and each agent's label.
    pub fn push(
        &mut self,
        counts: &[u32],
        props: impl Iterator<Item = bool>,
        labels: Vec<Vec<bool>>,
    ) {
        let locs = self.shape.locations;
        for k in 0..self.shape.kinds() {
            for (l, &c) in counts[k * locs..(k + 1) * locs].iter().enumerate() {
                self.rows.extend(std::iter::repeat_n(l as u8, c as usize));
            }
        }
        self.rows.extend(props.map(u8::from));
        for (a, label) in labels.into_iter().enumerate() {
            self.labels[a].push(label);
        }
        self.n += 1;
    }

    /// The worlds listed so far.
    pub fn len(&self) -> usize {
        self.n
    }

    /// The model with `actual` as its actual world and `relations` (one
    /// per agent, between the listed worlds) instead of the labels'
    /// classes, contracted: a belief structure's listing.
    pub fn finish_with(
        self,
        actual: usize,
        relations: &[super::event::Relation],
    ) -> Result<ExplicitModel, EngineError> {
        let rels = relations
            .iter()
            .map(|r| Rel::from_relation(r, self.n).map_err(EngineError::Malformed))
            .collect::<Result<Vec<_>, _>>()?;
        let model = ExplicitModel {
            shape: Arc::new(self.shape),
            rows: self.rows,
            n: self.n,
            rels,
            groups: None,
            actual,
        };
        Ok(model.contracted())
    }

    /// The model with `actual` as its actual world, contracted.
    pub fn finish(self, actual: usize) -> ExplicitModel {
        debug_assert_eq!(self.rows.len(), self.n * self.shape.width());
        let rels = self
            .labels
            .into_iter()
            .map(|l| Rel::Partition(Partition::from_labels(l.into_iter())))
            .collect();
        let model = ExplicitModel {
            shape: Arc::new(self.shape),
            rows: self.rows,
            n: self.n,
            rels,
            groups: None,
            actual,
        };
        model.contracted()
    }
}
