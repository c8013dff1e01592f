//! The one conversion of each lower layer's error type into a located
//! [`Diagnostic`]: engine errors, refused moves and figure errors. Syntax
//! errors convert themselves ([`crate::syntax::SyntaxError::to_diagnostic`]),
//! name errors are diagnostics from the start, and
//! [`Diagnostic::render`] is the one renderer every front end uses.

use crate::cards::Refusal;
use crate::diag::{Diagnostic, Span};
use crate::engine::EngineError;
use crate::figure::FigureError;

/// An engine error at `span` (a query, a deal, a written model or a move).
pub fn engine(e: &EngineError, span: Span) -> Diagnostic {
    let code = match e {
        EngineError::TooManyWorlds { .. } => "too-many-worlds",
        EngineError::OutOfMemory => "out-of-memory",
        EngineError::Unsupported(_) => "symbolic-unsupported",
        EngineError::Malformed(_) => "bad-model",
        EngineError::EventImpossible { .. }
        | EngineError::NoEventPossible { .. }
        | EngineError::AmbiguousEvent { .. }
        | EngineError::MissingCards { .. } => "impossible-move",
        EngineError::Interrupted => "interrupted",
    };
    let help = match e {
        EngineError::OutOfMemory => Some(
            "the BDDs grew past the symbolic engine's node limit: ask about fewer cards at once, or use a smaller deck",
        ),
        EngineError::Unsupported(m) if m.contains("bits") => Some(
            "the symbolic engine holds a term in at most 64 bits: narrow the ranges of the term's variables (or split the product), or, when their assignments fit the budget, run with `--engine explicit`",
        ),
        EngineError::Unsupported(_) => Some("run with `--engine explicit` (or `auto`)"),
        EngineError::Interrupted => Some("cancelled: the session is as it was before this statement"),
        EngineError::TooManyWorlds { .. } => Some(
            "use the symbolic engine (`--engine auto` or `symbolic`), a smaller deck or fewer hidden cards, or raise the budget with --max-worlds",
        ),
        _ => None,
    };
    Diagnostic::error(code, e.to_string(), span).with_help_opt(help)
}

/// A move or deal the rules refuse, at `span`: the rule's code, message and hint.
pub fn refusal(r: &Refusal, span: Span) -> Diagnostic {
    Diagnostic::error(r.code, r.message.clone(), span).with_help_opt(r.help.clone())
}

/// A move that was not made, at `span`: an illegal move, or one the
/// engine could not carry out (interrupted, out of memory, too large),
/// labelled as what it is.
pub fn refused_move(r: &Refusal, span: Span) -> Diagnostic {
    let label = match r.code {
        "interrupted" => "interrupted here; the move was not made",
        "too-many-worlds" | "out-of-memory" | "unsupported" => {
            "the engine could not make this move"
        }
        _ => "illegal move",
    };
    refusal(r, span).with_label(label)
}

/// A figure that cannot be built or written, at `span` (the `export` statement).
pub fn figure(e: &FigureError, span: Span) -> Diagnostic {
    Diagnostic::error(e.code(), e.to_string(), span).with_help_opt(e.help())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_conversion_keeps_code_message_and_hint() {
        let span = Span::new(3, 5);
        let d = engine(&EngineError::OutOfMemory, span);
        assert_eq!((d.code, d.span), ("out-of-memory", span));
        assert!(d.help.is_some());
        let d = engine(&EngineError::Malformed("x".into()), span);
        assert_eq!(d.code, "bad-model");
        assert_eq!(d.help, None);
        let r = Refusal::new("out-of-turn", "it is 2's turn").help("");
        let d = refusal(&r, span);
        assert_eq!(
            (d.code, d.message.as_str(), d.help),
            ("out-of-turn", "it is 2's turn", None)
        );
        let d = figure(&FigureError::Io("cannot write".into()), span);
        assert_eq!(d.code, "cannot-write");
    }
}
