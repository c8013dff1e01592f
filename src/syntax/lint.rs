//! Warnings about formulas that parse but may not say what was meant
//! (`dealer check` prints them).
//!
//! The word `not` binds as tightly as `!`, `~` and `¬`: `not p & q` is
//! `(not p) & q`. Read as English, `not p & q` may mean `not (p & q)`, so a
//! `not` written without parentheses as the left side of `&`, `|`, `->` or
//! `<->` is flagged, with both readings spelled out.

use crate::diag::{Diagnostic, Severity, Span};

use super::ast::{
    Ask, CmpOp, Expectation, Formula, FormulaKind, MoveKind, Question, Statement, StatementKind,
};

/// The warnings for the statements of a scenario whose text is `src`, in source order.
pub fn warnings(statements: &[Statement], src: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for stmt in statements {
        for f in statement_formulas(&stmt.kind) {
            visit(f, src, &mut out);
        }
        if let StatementKind::Question(q) = &stmt.kind {
            out.extend(question_words(q));
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

/// The warning for a question whose words ask for another sort of answer
/// than it has ("Can player 3 ...?" answered by a number of worlds), or
/// that says "know" of a belief (`B1 φ`).
fn question_words(q: &Question) -> Option<Diagnostic> {
    let text = q.text.as_ref()?;
    let lower = text.text.trim().to_lowercase();
    let first = lower
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("");
    let yes_no = [
        "is", "are", "am", "was", "were", "does", "do", "did", "can", "could", "will", "would",
        "has", "have", "had", "should", "shall", "must", "may", "might",
    ]
    .contains(&first);
    let number = lower.starts_with("how many") || lower.starts_with("how much");
    let who = matches!(first, "who" | "whom" | "which");
    let (sort, words) = match &q.ask {
        Ask::YesNo(_) if number => ("yes or no", "a number"),
        Ask::YesNo(_) if who => ("yes or no", "players"),
        Ask::Considers(_) | Ask::Worlds(_) if yes_no => ("a number of worlds", "yes or no"),
        Ask::Considers(_) | Ask::Worlds(_) if who => ("a number of worlds", "players"),
        Ask::WhoKnows(_) if yes_no => ("the players who know", "yes or no"),
        Ask::WhoKnows(_) if number => ("the players who know", "a number"),
        Ask::YesNo(f)
            if matches!(f.kind, FormulaKind::B(..))
                && lower.contains("know")
                && !lower.contains("believ") =>
        {
            let mut d = Diagnostic::error(
                "question-belief",
                "a question about belief (`B`) is worded \"know\"",
                text.span,
            )
            .with_label("the formula asks what the player believes")
            .with_help("word it with \"believe\" (\"Does Sally believe that ...?\"), or ask `K` for knowledge");
            d.severity = Severity::Warning;
            return Some(d);
        }
        _ => return None,
    };
    let mut d = Diagnostic::error(
        "question-sort",
        format!("the question's words ask for {words}, but its answer is {sort}"),
        text.span,
    )
    .with_label(format!("answered by {sort}"))
    .with_help(match &q.ask {
        Ask::YesNo(_) => "word it as a yes-or-no question (\"Does ...?\", \"Is ...?\"), or ask `considers P`, `worlds` or `who knows` for a number or players",
        Ask::Considers(_) | Ask::Worlds(_) => "word it as \"How many worlds ...?\", or ask a formula for yes or no",
        Ask::WhoKnows(_) => "word it as \"Who knows ...?\" or \"Which players know ...?\"",
    });
    d.severity = Severity::Warning;
    Some(d)
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
    fn a_question_worded_for_another_sort_of_answer_is_flagged() {
        assert_eq!(
            codes("question \"Can player 3 place every card?\" considers 3"),
            ["the question's words ask for yes or no, but its answer is a number of worlds"]
        );
        assert_eq!(
            codes("question \"How many worlds has player 1?\" K1 p"),
            ["the question's words ask for a number, but its answer is yes or no"]
        );
        assert_eq!(
            codes("question \"Does anyone know p?\" who knows p"),
            ["the question's words ask for yes or no, but its answer is the players who know"]
        );
        assert_eq!(
            codes("question \"Does Sally know the marble is in the basket?\" B_Sally p"),
            ["a question about belief (`B`) is worded \"know\""]
        );
        assert!(codes("question \"How many worlds does 3 consider?\" considers 3").is_empty());
        assert!(codes("question \"Does Sally believe p?\" B_Sally p").is_empty());
        assert!(codes("question \"Who knows p?\" who knows p").is_empty());
        assert!(codes("question \"Is p so?\" K1 p").is_empty());
        assert!(codes("question K1 p").is_empty());
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
