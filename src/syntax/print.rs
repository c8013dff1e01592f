//! Formulas and moves printed back as scenario text: what the parser
//! reads to the same tree (spans aside). Binary operands that are
//! themselves binary, and the operands of prefix operators that are
//! binary, are put in parentheses, so the text never depends on
//! precedence or associativity. A strategy's guards are shown this way,
//! and `print(parse(print(f))) == print(f)` for every formula (tests).

use std::fmt::{self, Display, Formatter, Write};

use super::ast::{Domain, Formula, FormulaKind, Group, Move, MoveKind, Name, Term};

impl Display for Formula {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        formula(f, self)
    }
}

impl Display for Move {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        move_(f, self)
    }
}

impl Display for Term {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        term(f, self)
    }
}

/// Whether `f` prints with an infix operator at its top.
fn binary(f: &Formula) -> bool {
    use FormulaKind::*;
    matches!(
        f.kind,
        And(..) | Or(..) | Implies(..) | Iff(..) | Compare { .. }
    ) || matches!(f.kind, Named { count: Some(_), .. })
}

/// `g`, in parentheses when it is binary.
fn operand(out: &mut Formatter<'_>, g: &Formula) -> fmt::Result {
    if binary(g) {
        write!(out, "({g})")
    } else {
        formula(out, g)
    }
}

fn formula(out: &mut Formatter<'_>, f: &Formula) -> fmt::Result {
    use FormulaKind::*;
    let infix = |out: &mut Formatter<'_>, l: &Formula, op: &str, r: &Formula| {
        operand(out, l)?;
        write!(out, " {op} ")?;
        operand(out, r)
    };
    match &f.kind {
        True => out.write_str("true"),
        False => out.write_str("false"),
        Named { name, card, count } => {
            out.write_str(&name.text)?;
            if let Some(card) = card {
                write!(out, "({})", card.text)?;
            }
            if let Some((cmp, n)) = count {
                write!(out, " {cmp} {n}")?;
            }
            Ok(())
        }
        HoldsSeq { player, cards } => write!(out, "{}_{}", player.text, cards.text),
        Not(g) => {
            out.write_char('!')?;
            operand(out, g)
        }
        And(l, r) => infix(out, l, "&", r),
        Or(l, r) => infix(out, l, "|", r),
        Implies(l, r) => infix(out, l, "->", r),
        Iff(l, r) => infix(out, l, "<->", r),
        K(a, g) => prefix(out, &format!("K_{a} "), g),
        B(a, g) => prefix(out, &format!("B_{a} "), g),
        M(a, g) => prefix(out, &format!("M_{a} "), g),
        Kw(a, g) => prefix(out, &format!("Kw_{a} "), g),
        Kv(a, what) => write!(out, "Kv_{a} {}", what.text),
        KvTerms(a, terms) => {
            write!(out, "Kv_{a}(")?;
            for (i, t) in terms.iter().enumerate() {
                if i > 0 {
                    out.write_str(", ")?;
                }
                term(out, t)?;
            }
            out.write_char(')')
        }
        E(g, body) => prefix(out, &format!("E{} ", group(g)), body),
        C(g, body) => prefix(out, &format!("C{} ", group(g)), body),
        D(g, body) => prefix(out, &format!("D{} ", group(g)), body),
        Announce(a, body) => prefix(out, &format!("[!{a}] "), body),
        AnnounceDiamond(a, body) => prefix(out, &format!("<!{a}> "), body),
        After(m, body) => prefix(out, &format!("[{m}] "), body),
        AfterDiamond(m, body) => prefix(out, &format!("<{m}> "), body),
        Quant {
            all,
            var,
            domain,
            body,
        } => {
            let q = if *all { "all" } else { "any" };
            prefix(
                out,
                &format!("{q} {} in {}: ", var.text, domain_text(domain)),
                body,
            )
        }
        Compare { left, cmp, right } => {
            term(out, left)?;
            write!(out, " {cmp} ")?;
            term(out, right)
        }
        Call { name, args } => {
            write!(out, "{}(", name.text)?;
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.write_str(", ")?;
                }
                out.write_str(&a.text)?;
            }
            out.write_char(')')
        }
    }
}

/// A prefix operator (its text ends in a blank) and its operand.
fn prefix(out: &mut Formatter<'_>, op: &str, body: &Formula) -> fmt::Result {
    out.write_str(op)?;
    operand(out, body)
}

fn group(g: &Group) -> String {
    match g {
        Group::All => String::new(),
        Group::Listed(names) => format!("{{{}}}", joined(names, ", ")),
    }
}

fn domain_text(d: &Domain) -> String {
    match d {
        Domain::Range(a, b, _) => format!("{a}..{b}"),
        Domain::Players => "players".into(),
        Domain::Cards => "cards".into(),
        Domain::List(values) => format!("{{{}}}", joined(values, ", ")),
    }
}

fn joined(names: &[Name], sep: &str) -> String {
    names
        .iter()
        .map(|n| n.text.as_str())
        .collect::<Vec<_>>()
        .join(sep)
}

fn term(out: &mut Formatter<'_>, t: &Term) -> fmt::Result {
    let side = |out: &mut Formatter<'_>, x: &Term| match x {
        Term::Num(..) | Term::Name(_) => term(out, x),
        _ => {
            out.write_char('(')?;
            term(out, x)?;
            out.write_char(')')
        }
    };
    let (l, op, r) = match t {
        Term::Num(n, _) => return write!(out, "{n}"),
        Term::Name(n) => return out.write_str(&n.text),
        Term::Add(l, r) => (l, "+", r),
        Term::Sub(l, r) => (l, "-", r),
        Term::Mul(l, r) => (l, "*", r),
    };
    side(out, l)?;
    write!(out, " {op} ")?;
    side(out, r)
}

fn move_(out: &mut Formatter<'_>, m: &Move) -> fmt::Result {
    use MoveKind::*;
    match &m.kind {
        Announce(f) => write!(out, "announce {f}"),
        Transfer { card, from, to } => write!(out, "move {card} {from} -> {to}"),
        SecretTransfer {
            card,
            from,
            to,
            unseen,
        } => write!(
            out,
            "move {card} {from} -> {to} unseen-by {}",
            joined(unseen, " ")
        ),
        Send {
            from,
            to,
            what,
            lost,
        } => {
            write!(out, "send {from} -> {to} ")?;
            operand(out, what)?;
            if *lost {
                out.write_str(" lost")?;
            }
            Ok(())
        }
        Draw { player, card, from } => {
            write!(out, "draw {player}")?;
            if let Some(from) = from {
                write!(out, " from {from}")?;
            }
            if let Some(card) = card {
                write!(out, ": {card}")?;
            }
            Ok(())
        }
        Show { from, to, card } => write!(out, "show {from} -> {to} {card}"),
        Reveal { player, card } => write!(out, "reveal {player} {card}"),
        Peek { player, slot } => write!(out, "peek {player} {slot}"),
        Ask { asker, asked, card } => write!(out, "ask {asker} {asked} {card}"),
        Apply(name) => write!(out, "apply {name}"),
        Game { word, args } => {
            out.write_str(&word.text)?;
            for a in args {
                write!(out, " {a}")?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::syntax::parse_formula;

    /// The formula printed, parsed again and printed again.
    fn round(src: &str) -> (String, String) {
        let f = parse_formula(src).unwrap_or_else(|e| panic!("{src}: {}", e.message));
        let once = f.to_string();
        let again = parse_formula(&once)
            .unwrap_or_else(|e| panic!("{src} printed as {once}: {}", e.message))
            .to_string();
        (once, again)
    }

    #[test]
    fn printed_formulas_read_back_to_the_same_formula() {
        for src in [
            "K1 H4<8,4>",
            "C !hand3(6S)",
            "K_1 hand_2(Q) & K_1 stock(Q) = 0",
            "p -> q -> r",
            "(p -> q) -> r",
            "a & b | c & !d <-> e",
            "E{1, 2} p & C p",
            "D{a,b} p",
            "[!K1 p] K2 p",
            "<!p> q",
            "[ask 1 2 Q] K1 hand2(Q)",
            "<move 5S hand1 -> table> p",
            "[draw 1 from stock: 5S] p",
            "[move AS hand1 -> hand2 unseen-by 3] p",
            "[send a -> b p & q lost] K_b p",
            "all x in 0..6: hand_a(x) >= 1",
            "any y in players: K_y p",
            "all c in {AS, KS}: !table(c)",
            "x + y * 2 <= 100 & y < x",
            "(x + y) * 2 = 6",
            "Kv_1 1.2",
            "Kv_a(x, y + 1)",
            "knows(a, p)",
            "1_QQ",
            "hand[Bruno](KH) > 2",
            "M_1 hand2(0..6) != 3",
            "B_a Kw_b p",
            "true & !false",
        ] {
            let (once, again) = round(src);
            assert_eq!(once, again, "{src}");
        }
    }

    /// Every formula and move of every scenario under `scenarios/` and
    /// `tests/data/` prints to text that parses to the same formula.
    #[test]
    fn every_formula_of_the_scenarios_prints_back() {
        use crate::syntax::ast::{Expectation, StatementKind};
        let mut files = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from("scenarios"), "tests/data".into()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "deal") {
                    files.push(path);
                }
            }
        }
        let mut checked = 0;
        for path in files {
            let src = std::fs::read_to_string(&path).unwrap();
            let Ok(scenario) = crate::syntax::parse(&src) else {
                continue; // files that test syntax errors
            };
            for stmt in &scenario.statements {
                let f = match &stmt.kind {
                    StatementKind::Query(f)
                    | StatementKind::Valid(f)
                    | StatementKind::Why(f)
                    | StatementKind::Law(f)
                    | StatementKind::Let(_, f)
                    | StatementKind::Expect(Expectation::Holds(f)) => f.clone(),
                    StatementKind::Move(m) => crate::syntax::ast::Formula {
                        kind: crate::syntax::ast::FormulaKind::After(
                            Box::new(m.clone()),
                            Box::new(parse_formula("true").unwrap()),
                        ),
                        span: m.span,
                    },
                    _ => continue,
                };
                let text = f.to_string();
                let back = parse_formula(&text)
                    .unwrap_or_else(|e| panic!("{}: {text}: {}", path.display(), e.message));
                assert_eq!(
                    unspanned(&back),
                    unspanned(&f),
                    "{}: {text}",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(checked > 500, "only {checked} formulas");
    }

    /// The tree without its spans (the printed text has other places).
    fn unspanned(f: &crate::syntax::ast::Formula) -> String {
        format!("{:?}", f.kind)
            .split("Span {")
            .map(|s| s.split_once('}').map_or(s, |(_, r)| r))
            .collect()
    }

    #[test]
    fn parentheses_keep_the_tree() {
        assert_eq!(round("(p -> q) -> r").0, "(p -> q) -> r");
        assert_eq!(round("p -> (q -> r)").0, "p -> (q -> r)");
        assert_eq!(round("K1 (p & q)").0, "K_1 (p & q)");
        assert_eq!(round("K1 p & q").0, "K_1 p & q");
        assert_eq!(round("!(hand1 = 2)").0, "!(hand1 = 2)");
        assert_eq!(round("all x in 1..2: (p & q)").0, "all x in 1..2: (p & q)");
    }
}
