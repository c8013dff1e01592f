//! Placeholder: replaced by the explicit model.

/// An explicit Kripke model.
#[derive(Clone, Debug)]
pub struct ExplicitModel {}
