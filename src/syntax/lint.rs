//! Warnings about formulas that parse but may not say what was meant
//! (`dealer check` prints them).
//!
//! The word `not` binds as tightly as `!`, `~` and `¬`: `not p & q` is
//! `(not p) & q`. Read as English, `not p & q` may mean `not (p & q)`, so a
//! `not` written without parentheses as the left side of `&`, `|`, `->` or
//! `<->` is flagged, with both readings spelled out.

use crate::diag::{Diagnostic, Severity, Span};

use super::ast::{CmpOp, Expectation, Formula, FormulaKind, MoveKind, Statement, StatementKind};

/// The warnings for the statements of a scenario whose text is `src`, in source order.
pub fn warnings(statements: &[Statement], src: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for stmt in statements {
        for f in statement_formulas(&stmt.kind) {
            visit(f, src, &mut out);
        }
    }
    out.sort_by_key(|d| d.span.start);
    out
}

/// The formulas written directly in a statement.
fn statement_formulas(kind: &StatementKind) -> Vec<&Formula> {
    match kind {
        StatementKind::Let(_, f)
        | StatementKind::Query(f)
        | StatementKind::Valid(f)
        | StatementKind::Why(f)
        | StatementKind::Expect(Expectation::Holds(f))
        | StatementKind::Macro { body: f, .. }
        | StatementKind::WorldsWhere { filter: f, .. }
        | StatementKind::WhyFor { formula: f, .. }
        | StatementKind::WorldsFor {
            filter: Some(f), ..
        }
        | StatementKind::Law(f)
        | StatementKind::Expect(Expectation::Count {
            filter: Some(f), ..
        }) => vec![f],
        StatementKind::Question(q) => q.ask.formula().into_iter().collect(),
        StatementKind::Move(m) => move_formulas(&m.kind),
        StatementKind::Event(e) => e
            .pre
            .iter()
            .map(|(_, f)| f)
            .chain(e.post.iter().flat_map(|(_, a)| a.iter().map(|(_, f)| f)))
            .collect(),
        _ => Vec::new(),
    }
}

fn move_formulas(kind: &MoveKind) -> Vec<&Formula> {
    match kind {
        MoveKind::Announce(f) | MoveKind::Send { what: f, .. } => vec![f],
        _ => Vec::new(),
    }
}

/// Walks `f` (its depth is bounded by the parser) and flags every
/// unparenthesised `not` on the left of a binary operator.
fn visit(f: &Formula, src: &str, out: &mut Vec<Diagnostic>) {
    use FormulaKind::*;
    match &f.kind {
        And(l, r) | Or(l, r) | Implies(l, r) | Iff(l, r) => {
            if let Some(d) = word_not_on_left(l, r, src) {
                out.push(d);
            }
            visit(l, src, out);
            visit(r, src, out);
        }
        Announce(a, g) | AnnounceDiamond(a, g) => {
            visit(a, src, out);
            visit(g, src, out);
        }
        After(m, g) | AfterDiamond(m, g) => {
            for h in move_formulas(&m.kind) {
                visit(h, src, out);
            }
            visit(g, src, out);
        }
        Not(g) | K(_, g) | B(_, g) | M(_, g) | Kw(_, g) | E(_, g) | C(_, g) | D(_, g) => {
            visit(g, src, out)
        }
        Quant { body, .. } => visit(body, src, out),
        Named {
            name,
            card: None,
            count: Some((CmpOp::Lt, n)),
        } => {
            if let Some(d) = glued_count(name, *n, src) {
                out.push(d);
            }
        }
        True
        | False
        | Named { .. }
        | HoldsSeq { .. }
        | Kv(..)
        | Call { .. }
        | Compare { .. }
        | KvTerms(..) => {}
    }
}

/// The hint for `H4<8` written glued: a count (player 4 holds fewer than
/// 8 cards), though it looks like the start of the card term `H4<8,4>`.
fn glued_count(name: &super::ast::Name, n: u32, src: &str) -> Option<Diagnostic> {
    let text = name.text.as_str();
    let player = text.strip_prefix('H')?;
    if player.is_empty() || !player.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let after = src.get(name.span.end..)?;
    if !after.starts_with('<') || !after[1..].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut d = Diagnostic::error(
        "glued-count",
        format!("`{text}<{n}` is a count: player {player} holds fewer than {n} cards"),
        Span::new(name.span.start, name.span.end + 1),
    )
    .with_label(format!("read as `{text} < {n}`"))
    .with_help(format!(
        "for a card of set {n} write `{text}<{n},M>`; for the count, `{text} < {n}` says so"
    ));
    d.severity = Severity::Warning;
    Some(d)
}

/// The first negation spelled `not` along the prefix operators that start
/// `f` (`K1 not p`, `[!r] not p`), without parentheses.
fn word_not_in_prefix<'f>(mut f: &'f Formula, src: &str) -> Option<&'f Formula> {
    use FormulaKind::*;
    loop {
        let spelled = src.get(f.span.start..f.span.end).unwrap_or("");
        if spelled.starts_with('(') {
            return None;
        }
        f = match &f.kind {
            Not(_) if spelled.starts_with("not") => return Some(f),
            Not(g) | K(_, g) | B(_, g) | M(_, g) | Kw(_, g) | E(_, g) | C(_, g) | D(_, g) => g,
            Announce(_, g) | AnnounceDiamond(_, g) | After(_, g) | AfterDiamond(_, g) => g,
            _ => return None,
        };
    }
}

/// The warning for `not φ OP ψ`, if `left` is a `not` without parentheses.
fn word_not_on_left(left: &Formula, right: &Formula, src: &str) -> Option<Diagnostic> {
    let left = word_not_in_prefix(left, src)?;
    let FormulaKind::Not(body) = &left.kind else {
        return None;
    };
    let text = |s: Span| src.get(s.start..s.end).unwrap_or("");
    let spelled = text(left.span);
    let rest = spelled.strip_prefix("not")?;
    if !rest.starts_with(char::is_whitespace) && !rest.starts_with('(') {
        return None;
    }
    let op = src
        .get(left.span.end..right.span.start)
        .unwrap_or("")
        .trim();
    let (phi, psi) = (text(body.span), text(right.span));
    let mut d = Diagnostic::error(
        "not-precedence",
        format!("`not` applies to `{phi}` only, not to `{phi} {op} {psi}`"),
        Span::new(left.span.start, left.span.start + 3),
    )
    .with_label(format!("read as `(not {phi}) {op} {psi}`"))
    .with_help(format!(
        "`not` binds as tightly as `!`: write `(not {phi}) {op} {psi}` or `not ({phi} {op} {psi})` to say which"
    ));
    d.severity = Severity::Warning;
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(src: &str) -> Vec<String> {
        let scenario = crate::syntax::parse(src).expect("parses");
        warnings(&scenario.statements, src)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn a_bare_not_on_the_left_of_a_binary_operator_is_flagged() {
        assert_eq!(
            codes("? not p & q"),
            ["`not` applies to `p` only, not to `p & q`"]
        );
        assert_eq!(codes("? K1 (not hand1(A) -> q)").len(), 1);
        assert_eq!(codes("expect [!r] not p | q").len(), 1);
    }

    #[test]
    fn parentheses_and_symbols_are_not_flagged() {
        assert!(codes("? (not p) & q").is_empty());
        assert!(codes("? not (p & q)").is_empty());
        assert!(codes("? !p & q").is_empty());
        assert!(codes("? q & not p").is_empty());
        assert!(codes("? nothing & q").is_empty());
    }
}
