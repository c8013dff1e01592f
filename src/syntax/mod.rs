//! The scenario language: a pest grammar (`grammar/dealer.pest`), a splitter
//! that cuts the source into statements, and the conversion into the
//! [`ast`]. Nothing here knows of Kripke models or card rules.

pub mod ast;
pub mod lint;
mod parser;
mod print;
mod split;
pub mod subst;

use crate::diag::{Diagnostic, Span};

/// The words a statement can start with.
pub use parser::errors::statement_words;
/// The words of the language a statement or move starts with; a game's
/// own move word (`pick`, `play`) is never one of them.
pub use parser::fast::BUILTIN as LANGUAGE_WORDS;
pub use parser::{
    both_parsers, parse, parse_formula, parse_statement, parse_with_grammar, MAX_DEPTH,
    MAX_STATEMENT_BYTES,
};
pub(crate) use parser::{
    chain, strategy_file, strategy_formula, strategy_line, strategy_line_limits,
    Rule as GrammarRule,
};
pub use split::is_complete;

/// The most bytes of a scenario or strategy file dealer reads: a larger
/// one is refused before it is read whole.
pub const MAX_SOURCE_BYTES: usize = 64 << 20;

/// A file's bytes as source text, or a located message: the text must be
/// UTF-8 (the message gives `name:line:col` of the first byte that is
/// not), and a line ended by a carriage return alone (as old Mac editors
/// write) is read as a line, as one ended by `\n` or `\r\n` is.
pub fn source_text(name: &str, bytes: Vec<u8>) -> Result<String, String> {
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(format!(
            "{name} is larger than {} bytes, the most dealer reads",
            crate::diag::thousands(MAX_SOURCE_BYTES as u64)
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let (line, col) = crate::diag::line_col(before, valid);
        format!(
            "{name}:{line}:{col}: byte 0x{:02X} is not UTF-8 text; save the file as UTF-8",
            bytes[valid]
        )
    })?;
    Ok(lone_returns_as_newlines(text))
}

/// Every `\r` not followed by `\n` replaced by `\n` (the same length, so
/// offsets are kept).
fn lone_returns_as_newlines(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    let mut bytes = text.into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    // Only an ASCII byte was replaced by another.
    String::from_utf8(bytes).unwrap_or_default()
}

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
