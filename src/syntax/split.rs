//! Placeholder: replaced by the statement splitter.

/// Whether `src` is complete: brackets balanced, no trailing `\`.
pub fn is_complete(_src: &str) -> bool {
    unimplemented!()
}
