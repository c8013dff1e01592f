//! Placeholder: replaced by the pest-based parser.
use super::ast::{Formula, Scenario, Statement};
use super::SyntaxError;

/// Parses a whole scenario.
pub fn parse(_src: &str) -> Result<Scenario, Vec<SyntaxError>> {
    unimplemented!()
}

/// Parses one formula.
pub fn parse_formula(_src: &str) -> Result<Formula, SyntaxError> {
    unimplemented!()
}

/// Parses the statements of one REPL input.
pub fn parse_statement(_src: &str) -> Result<Vec<Statement>, Vec<SyntaxError>> {
    unimplemented!()
}
