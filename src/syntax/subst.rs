//! Replacing names in a formula as written: how `all x in 0..6: φ`, `any`
//! and `let knows(a) = φ` are expanded. A name is replaced where it stands
//! alone (`K_a`, `hand_Cath(x)`, `{a, b}`) and where it is one part of a
//! name joined by `_` or `.` (`hand_a`, `forehead_i`, `1.x`). A quantifier
//! that binds the same name again hides it from the outer one.
//!
//! [`substitute_with`] also lets a strategy instantiate its guards without
//! parsing them again: a name bound to a comma-separated list stands for
//! each of them in a group or a list (`E{others}`), and calls such as
//! `is(c, *T)` become `true` or `false` once their arguments are bound.

use std::collections::HashMap;

use super::ast::{Domain, Formula, FormulaKind, Group, MoveKind, Name, Term};

/// The values bound to names.
pub type Binding<'a> = HashMap<&'a str, &'a str>;

/// What a call `name(args)` is once its arguments are bound: `Some(truth)`
/// to replace it, `None` to keep it (a `let` with parameters).
pub type Calls<'a> = dyn Fn(&Name, &[Name]) -> Option<bool> + 'a;

/// `f` with every name bound in `binding` replaced by its value.
pub fn substitute(f: &Formula, binding: &Binding) -> Formula {
    if binding.is_empty() {
        return f.clone();
    }
    substitute_with(f, binding, &|_, _| None)
}

/// [`substitute`], then every call that `calls` decides replaced by its
/// truth value.
pub fn substitute_with(f: &Formula, binding: &Binding, calls: &Calls<'_>) -> Formula {
    let b = |g: &Formula| Box::new(substitute_with(g, binding, calls));
    let n = |name: &Name| whole(name, binding);
    use FormulaKind::*;
    let kind = match &f.kind {
        True => True,
        False => False,
        Named { name, card, count } => Named {
            name: parts(name, binding),
            card: card.as_deref().map(|c| Box::new(n(c))),
            count: *count,
        },
        HoldsSeq { player, cards } => HoldsSeq {
            player: n(player),
            cards: cards.clone(),
        },
        Not(g) => Not(b(g)),
        And(l, r) => And(b(l), b(r)),
        Or(l, r) => Or(b(l), b(r)),
        Implies(l, r) => Implies(b(l), b(r)),
        Iff(l, r) => Iff(b(l), b(r)),
        K(a, g) => K(n(a), b(g)),
        B(a, g) => B(n(a), b(g)),
        M(a, g) => M(n(a), b(g)),
        Kw(a, g) => Kw(n(a), b(g)),
        Kv(a, l) => Kv(n(a), Box::new(parts(l, binding))),
        E(grp, g) => E(group(grp, binding), b(g)),
        C(grp, g) => C(group(grp, binding), b(g)),
        D(grp, g) => D(group(grp, binding), b(g)),
        Announce(a, g) => Announce(b(a), b(g)),
        AnnounceDiamond(a, g) => AnnounceDiamond(b(a), b(g)),
        After(m, g) => After(Box::new(move_(m, binding, calls)), b(g)),
        AfterDiamond(m, g) => AfterDiamond(Box::new(move_(m, binding, calls)), b(g)),
        Quant {
            all,
            var,
            domain,
            body,
        } => {
            let domain = Box::new(match &**domain {
                Domain::List(values) => Domain::List(listed(values, binding)),
                d => d.clone(),
            });
            let mut inner = binding.clone();
            inner.remove(var.text.as_str());
            Quant {
                all: *all,
                var: var.clone(),
                domain,
                body: Box::new(substitute_with(body, &inner, calls)),
            }
        }
        Compare { left, cmp, right } => Compare {
            left: Box::new(term(left, binding)),
            cmp: *cmp,
            right: Box::new(term(right, binding)),
        },
        KvTerms(a, ts) => KvTerms(n(a), ts.iter().map(|t| term(t, binding)).collect()),
        Call { name, args } => {
            let args: Box<[Name]> = args.iter().map(n).collect();
            match calls(name, &args) {
                Some(true) => True,
                Some(false) => False,
                None => Call {
                    name: name.clone(),
                    args,
                },
            }
        }
    };
    Formula { kind, span: f.span }
}

/// The moves inside `[ ]` and `< >`: an announced formula is substituted;
/// the names of other moves are replaced where they stand alone.
pub(crate) fn move_(
    m: &super::ast::Move,
    binding: &Binding,
    calls: &Calls<'_>,
) -> super::ast::Move {
    let n = |name: &Name| whole(name, binding);
    let kind = match &m.kind {
        MoveKind::Announce(f) => MoveKind::Announce(substitute_with(f, binding, calls)),
        MoveKind::Transfer { card, from, to } => MoveKind::Transfer {
            card: n(card),
            from: parts(from, binding),
            to: parts(to, binding),
        },
        MoveKind::Show { from, to, card } => MoveKind::Show {
            from: n(from),
            to: n(to),
            card: n(card),
        },
        MoveKind::Reveal { player, card } => MoveKind::Reveal {
            player: n(player),
            card: n(card),
        },
        MoveKind::Ask { asker, asked, card } => MoveKind::Ask {
            asker: n(asker),
            asked: n(asked),
            card: n(card),
        },
        MoveKind::SecretTransfer {
            card,
            from,
            to,
            unseen,
        } => MoveKind::SecretTransfer {
            card: n(card),
            from: parts(from, binding),
            to: parts(to, binding),
            unseen: unseen.iter().map(n).collect(),
        },
        MoveKind::Send {
            from,
            to,
            what,
            lost,
        } => MoveKind::Send {
            from: n(from),
            to: n(to),
            what: substitute_with(what, binding, calls),
            lost: *lost,
        },
        other => other.clone(),
    };
    super::ast::Move { kind, span: m.span }
}

fn term(t: &Term, binding: &Binding) -> Term {
    let b = |x: &Term| Box::new(term(x, binding));
    match t {
        Term::Num(..) => t.clone(),
        Term::Name(name) => Term::Name(whole(name, binding)),
        Term::Add(x, y) => Term::Add(b(x), b(y)),
        Term::Sub(x, y) => Term::Sub(b(x), b(y)),
        Term::Mul(x, y) => Term::Mul(b(x), b(y)),
    }
}

fn group(g: &Group, binding: &Binding) -> Group {
    match g {
        Group::All => Group::All,
        Group::Listed(names) => Group::Listed(listed(names, binding)),
    }
}

/// The names of a group or a list, each bound one replaced; a value
/// `a,b` stands for the two names `a` and `b`.
pub(crate) fn listed(names: &[Name], binding: &Binding) -> Vec<Name> {
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        match binding.get(name.text.as_str()) {
            Some(v) => out.extend(v.split(',').filter(|p| !p.is_empty()).map(|p| Name {
                text: p.trim().into(),
                span: name.span,
            })),
            None => out.push(name.clone()),
        }
    }
    out
}

/// `name` replaced when it is bound as a whole.
pub(crate) fn whole(name: &Name, binding: &Binding) -> Name {
    match binding.get(name.text.as_str()) {
        Some(v) => Name {
            text: (*v).into(),
            span: name.span,
        },
        None => name.clone(),
    }
}

/// `name` with each part (between `_` and `.`) that is bound replaced.
pub(crate) fn parts(name: &Name, binding: &Binding) -> Name {
    let mut text = String::with_capacity(name.text.len());
    let mut part = String::new();
    let flush = |part: &mut String, text: &mut String| {
        text.push_str(binding.get(part.as_str()).copied().unwrap_or(part));
        part.clear();
    };
    for c in name.text.chars() {
        if c == '_' || c == '.' {
            flush(&mut part, &mut text);
            text.push(c);
        } else {
            part.push(c);
        }
    }
    flush(&mut part, &mut text);
    Name {
        text: text.into(),
        span: name.span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_formula;

    fn show(src: &str, var: &str, value: &str) -> Formula {
        let f = parse_formula(src).unwrap();
        let binding: Binding = [(var, value)].into_iter().collect();
        substitute(&f, &binding)
    }

    #[test]
    fn names_standing_alone_and_parts_are_replaced() {
        let f = show("K_a hand_a(x) & hand_Cath(x)", "x", "3");
        let g = parse_formula("K_a hand_a(3) & hand_Cath(3)").unwrap();
        assert_eq!(format!("{:?}", strip(&f)), format!("{:?}", strip(&g)));
        let f = show("K_a hand_a(x) & E{a, b} p_a", "a", "Anne");
        let g = parse_formula("K_Anne hand_Anne(x) & E{Anne, b} p_Anne").unwrap();
        assert_eq!(format!("{:?}", strip(&f)), format!("{:?}", strip(&g)));
    }

    #[test]
    fn a_name_bound_again_is_hidden() {
        let f = show("p_x & (all x in 0..2: p_x)", "x", "7");
        let g = parse_formula("p_7 & (all x in 0..2: p_x)").unwrap();
        assert_eq!(format!("{:?}", strip(&f)), format!("{:?}", strip(&g)));
        // `ax` is not `x`, and `xx_1` has no part `x`.
        let f = show("ax & xx_1", "x", "7");
        let g = parse_formula("ax & xx_1").unwrap();
        assert_eq!(format!("{:?}", strip(&f)), format!("{:?}", strip(&g)));
    }

    /// The formula's text only (spans differ between the two sources).
    fn strip(f: &Formula) -> String {
        format!("{:?}", f.kind)
            .split("span: Span")
            .map(|s| s.split_once('}').map_or(s, |(_, r)| r))
            .collect()
    }
}
