//! The scenario language: a pest grammar (`grammar/dealer.pest`), a splitter
//! that cuts the source into statements, and the conversion into the
//! [`ast`]. Nothing here knows of Kripke models or card rules.

pub mod ast;
pub mod lint;
mod parser;
mod split;
pub mod subst;

use crate::diag::{Diagnostic, Span};

/// The words a statement can start with.
pub use parser::errors::STATEMENTS as STATEMENT_KEYWORDS;
pub use parser::{both_parsers, parse, parse_formula, parse_statement, parse_with_grammar};
pub use split::is_complete;

/// A syntax error: where, what was found, what was expected, and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the error is (a single point is a span of length 0 or 1).
    pub span: Span,
    /// The headline, e.g. "unexpected `)`".
    pub message: String,
    /// What was expected there, in words ("a player, such as 1 or Bruno").
    pub expected: String,
    /// A hint, when one helps.
    pub help: Option<String>,
}

impl SyntaxError {
    /// The diagnostic to show.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let mut d = Diagnostic::error("syntax", self.message.clone(), self.span)
            .with_label(self.expected.clone());
        d.help = self.help.clone();
        d
    }
}
