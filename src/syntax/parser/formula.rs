//! Builds [`Formula`]s (and the moves inside `[ ]` and `< >`) from pest pairs.

use pest::iterators::Pair;

use super::{build, Ctx, Rule, MAX_DEPTH};
use crate::diag::Span;
use crate::syntax::ast::{CmpOp, Domain, Formula, FormulaKind, Group, Name, Term};
use crate::syntax::SyntaxError;

type Result<T> = std::result::Result<T, SyntaxError>;

/// A binary constructor of [`FormulaKind`].
type Binary = fn(Box<Formula>, Box<Formula>) -> FormulaKind;

/// Builds a formula from a `formula`, `iff`, `implies`, `disj`, `conj` or `unary` pair.
pub(crate) fn formula(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Formula> {
    level(ctx, pair, 0)
}

fn level(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize) -> Result<Formula> {
    if depth > MAX_DEPTH {
        let span = ctx.span(pair.as_span());
        return Err(ctx.error(
            span,
            "this formula is nested too deeply".into(),
            "expected a simpler formula",
        ));
    }
    match pair.as_rule() {
        Rule::iff => chain(ctx, pair, depth, FormulaKind::Iff),
        Rule::disj => chain(ctx, pair, depth, FormulaKind::Or),
        Rule::conj => chain(ctx, pair, depth, FormulaKind::And),
        Rule::implies => implies(ctx, pair, depth),
        Rule::unary => unary(ctx, pair, depth),
        _ => {
            let inner = ctx.first(pair.into_inner().next(), "a formula")?;
            level(ctx, inner, depth)
        }
    }
}

/// How many operands a chain of `&`, `|` or `<->` may have before it is
/// grouped as a balanced tree rather than from the left (the three are
/// associative, so the meaning is the same; the depth stays logarithmic).
const LEFT_CHAIN: usize = 16;

/// A chain `a op b op c` of an associative operator: from the left, or
/// balanced when long.
fn chain(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize, make: Binary) -> Result<Formula> {
    let operands = pair
        .into_inner()
        .filter(|p| !is_operator(p.as_rule()))
        .map(|p| level(ctx, p, depth).map(Box::new))
        .collect::<Result<Vec<Box<Formula>>>>()?;
    if operands.is_empty() {
        return Err(ctx.missing("a formula"));
    }
    Ok(group(operands, make))
}

/// `operands` joined by `make`: from the left up to [`LEFT_CHAIN`] operands,
/// else split in halves. The operands come boxed: each box is the one the
/// tree keeps, and a vector of boxes stays small where one of formulas
/// (112 bytes each) would grow past a kilobyte.
#[allow(clippy::vec_box)]
pub(crate) fn group(operands: Vec<Box<Formula>>, make: Binary) -> Formula {
    let len = operands.len();
    let mut operands = operands.into_iter();
    let first = operands.next().expect("a chain has an operand");
    joined(*first, &mut operands, len, make)
}

/// The chain of `len` operands, `first` then the next `len - 1` of `rest`,
/// joined by `make` as [`group`] joins them (the fast path keeps its first
/// operand unboxed and the others on one stack for the whole statement).
pub(crate) fn joined(
    first: Formula,
    rest: &mut impl Iterator<Item = Box<Formula>>,
    len: usize,
    make: Binary,
) -> Formula {
    if len > LEFT_CHAIN {
        // The halves of `split_off(len / 2)`.
        let half = len / 2;
        let left = joined(first, rest, half, make);
        let right_first = rest.next().expect("a chain has its operands");
        let right = joined(*right_first, rest, len - half, make);
        return binary(make, left, right);
    }
    let mut acc = first;
    for next in rest.take(len - 1) {
        let span = acc.span.to(next.span);
        acc = Formula {
            kind: make(Box::new(acc), next),
            span,
        };
    }
    acc
}

/// `a -> b -> c` (right associative: `a -> (b -> c)`); every `->` is one
/// level of nesting.
fn implies(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize) -> Result<Formula> {
    let operands: Vec<Pair<'_, Rule>> = pair
        .into_inner()
        .filter(|p| !is_operator(p.as_rule()))
        .collect();
    let nested = depth + operands.len().saturating_sub(1);
    if nested > MAX_DEPTH {
        return Err(too_deep(ctx, &operands[MAX_DEPTH.saturating_sub(depth)]));
    }
    let mut built = operands
        .into_iter()
        .map(|p| level(ctx, p, depth + 1))
        .collect::<Result<Vec<Formula>>>()?;
    let mut acc = built.pop().ok_or_else(|| ctx.missing("a formula"))?;
    while let Some(left) = built.pop() {
        acc = binary(FormulaKind::Implies, left, acc);
    }
    Ok(acc)
}

/// The error for a formula nested more deeply than [`MAX_DEPTH`], at `at`.
fn too_deep(ctx: &Ctx, at: &Pair<'_, Rule>) -> SyntaxError {
    let mut e = ctx.error(
        ctx.span(at.as_span()),
        "this formula is nested too deeply".into(),
        "expected a simpler formula",
    );
    e.help = Some(format!(
        "at most {MAX_DEPTH} nested operators are allowed; split the formula with `let`"
    ));
    e
}

fn is_operator(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::op_and | Rule::op_or | Rule::op_imp | Rule::op_iff
    )
}

fn binary(make: Binary, left: Formula, right: Formula) -> Formula {
    let span = left.span.to(right.span);
    Formula {
        kind: make(Box::new(left), Box::new(right)),
        span,
    }
}

/// Prefix operators with their operand (folded from the right, so that
/// `K1 !p` is `K1 (!p)`), or a primary formula.
fn unary(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize) -> Result<Formula> {
    let end = ctx.span(pair.as_span()).end;
    let mut parts: Vec<Pair<'_, Rule>> = pair.into_inner().collect();
    let head = parts.pop().ok_or_else(|| ctx.missing("a formula"))?;
    if depth + parts.len() > MAX_DEPTH {
        return Err(too_deep(ctx, &parts[MAX_DEPTH.saturating_sub(depth)]));
    }
    if let Some(op) = parts.iter().find(|p| p.as_rule() == Rule::bare_modal) {
        return Err(bare_modal(ctx, op));
    }
    let inner = depth + parts.len();
    let mut formula = match head.as_rule() {
        Rule::paren => {
            let span = ctx.span(head.as_span());
            let body = ctx.first(head.into_inner().next(), "a formula")?;
            let formula = level(ctx, body, inner + 1)?;
            Formula { span, ..formula }
        }
        Rule::s_quant => Formula {
            span: ctx.span(head.as_span()),
            kind: strategy_quant(ctx, head, inner + 1)?,
        },
        _ => Formula {
            span: ctx.span(head.as_span()),
            kind: primary(ctx, head)?,
        },
    };
    for (i, op) in parts.into_iter().enumerate().rev() {
        let start = ctx.span(op.as_span()).start;
        let operand = Box::new(formula);
        let kind = match op.as_rule() {
            Rule::not_op => FormulaKind::Not(operand),
            Rule::modal_op => modal(ctx, op, operand)?,
            Rule::group_op => group_op(ctx, op, operand)?,
            Rule::box_ann | Rule::dia_ann => announce(ctx, op, operand, depth + i)?,
            Rule::box_move | Rule::dia_move => after(ctx, op, operand)?,
            Rule::quant_op => quant(ctx, op, operand)?,
            _ => return Err(bare_modal(ctx, &op)),
        };
        formula = Formula {
            kind,
            span: Span::new(start, end),
        };
    }
    Ok(formula)
}

/// `true`, `false`, `1_QQ`, `Kv1 1.2` or an atom.
fn primary(ctx: &Ctx, head: Pair<'_, Rule>) -> Result<FormulaKind> {
    Ok(match head.as_rule() {
        Rule::k_true => FormulaKind::True,
        Rule::k_false => FormulaKind::False,
        Rule::holds_seq => {
            let mut parts = head.into_inner();
            let player = ctx.name(&ctx.first(parts.next(), "a player")?);
            let cards = ctx.name(&ctx.first(parts.next(), "a card")?);
            FormulaKind::HoldsSeq {
                player,
                cards: Box::new(cards),
            }
        }
        Rule::kv_formula => {
            let mut parts = head.into_inner();
            let op = ctx.first(parts.next(), "`Kv`")?;
            let agent = agent(ctx, op)?;
            let what = ctx.first(parts.next(), "a place")?;
            if what.as_rule() == Rule::kv_terms {
                let terms = what
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::term)
                    .map(|p| term(ctx, p))
                    .collect::<Result<Vec<Term>>>()?;
                return Ok(FormulaKind::KvTerms(agent, terms.into()));
            }
            FormulaKind::Kv(agent, Box::new(ctx.name(&what)))
        }
        Rule::arith => arith(ctx, head)?,
        _ => atom(ctx, head)?,
    })
}

/// `x + y <= 100`; `hand2 = 3` (a name and a number) is a count, as it
/// always was.
fn arith(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<FormulaKind> {
    let mut parts = pair.into_inner();
    let left = term(ctx, ctx.first(parts.next(), "a term")?)?;
    let op = ctx.first(parts.next(), "a comparison")?;
    let cmp = cmp_op(op.as_str());
    let right = term(ctx, ctx.first(parts.next(), "a term")?)?;
    if let (Term::Name(name), Term::Num(n, span)) = (&left, &right) {
        let n = u32::try_from(*n).map_err(|_| {
            let mut e = ctx.error(
                *span,
                format!("the number {n} is too large"),
                "expected a smaller number",
            );
            e.help = Some("numbers here must fit in 32 bits".into());
            e
        })?;
        return Ok(FormulaKind::Named {
            name: name.clone(),
            card: None,
            count: Some((cmp, n)),
        });
    }
    Ok(FormulaKind::Compare {
        left: Box::new(left),
        cmp,
        right: Box::new(right),
    })
}

/// A sum of products of numbers, names and parenthesised terms.
pub(crate) fn term(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Term> {
    match pair.as_rule() {
        Rule::term | Rule::factor => {
            let mut parts = pair.into_inner().filter(|p| p.as_rule() != Rule::rparen);
            let mut acc = term(ctx, ctx.first(parts.next(), "a term")?)?;
            while let Some(op) = parts.next() {
                let right = Box::new(term(ctx, ctx.first(parts.next(), "a term")?)?);
                let left = Box::new(acc);
                acc = match op.as_str() {
                    "+" => Term::Add(left, right),
                    "-" => Term::Sub(left, right),
                    _ => Term::Mul(left, right),
                };
            }
            Ok(acc)
        }
        Rule::arith_num => Ok(Term::Num(
            build::number(ctx, &pair)?,
            ctx.span(pair.as_span()),
        )),
        _ => Ok(Term::Name(ctx.name(&pair))),
    }
}

/// `#hand1(Q) >= 2`, `H4<8,4>`, `hand[Bruno](KH)`, `p`.
pub(crate) fn atom(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<FormulaKind> {
    let mut parts = pair.into_inner();
    let head = ctx.first(parts.next(), "a name")?;
    let (mut name, mut card, mut args) = (None, None, None);
    for part in head.into_inner() {
        match part.as_rule() {
            Rule::name_plain => name = Some(ctx.name(&part)),
            Rule::name_bracket => name = Some(bracket_name(ctx, part)?),
            Rule::card_arg => {
                let written = ctx.first(part.into_inner().next(), "a card")?;
                if written.as_rule() == Rule::s_card && !ctx.strategy {
                    return Err(strategy_only(
                        ctx,
                        &written,
                        "a card written with a strategy's variables",
                        "expected a card, such as QH, Q* or <8,4>",
                    ));
                }
                card = Some(ctx.name(&written))
            }
            Rule::set_arg => card = Some(ctx.name(&part)),
            Rule::macro_args => {
                args = Some(
                    part.into_inner()
                        .filter(|p| p.as_rule() == Rule::card)
                        .map(|p| ctx.name(&p))
                        .collect::<Box<[Name]>>(),
                )
            }
            _ => {}
        }
    }
    let name = name.ok_or_else(|| ctx.missing("a name"))?;
    if let Some(args) = args {
        if let Some(c) = parts.next() {
            return Err(ctx.error(
                ctx.span(c.as_span()),
                format!("`{}(...)` is a formula, not a count", name.text),
                AN_OPERATOR_AFTER,
            ));
        }
        return Ok(FormulaKind::Call { name, args });
    }
    let count = parts.next().map(|c| count(ctx, c)).transpose()?;
    Ok(FormulaKind::Named {
        name,
        card: card.map(Box::new),
        count,
    })
}

/// `hand[Bruno]` is the name `hand_Bruno`.
fn bracket_name(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Name> {
    let span = ctx.span(pair.as_span());
    let mut parts = pair.into_inner();
    let base = ctx.first(parts.next(), "a name")?.as_str();
    let who = ctx.first(parts.next(), "a player")?.as_str();
    Ok(Name {
        text: format!("{base}_{who}").into(),
        span,
    })
}

/// `>= 2` after an atom.
fn count(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<(CmpOp, u32)> {
    let mut parts = pair.into_inner();
    let op = cmp_op(ctx.first(parts.next(), "a comparison")?.as_str());
    let num = ctx.first(parts.next(), "a number")?;
    if num.as_rule() == Rule::s_count_var {
        // A strategy binds the variable when it asks the formula
        // (src/strategy/template.rs); the count stands in for it.
        if ctx.strategy {
            return Ok((op, 0));
        }
        let mut e = ctx.error(
            ctx.span(num.as_span()),
            format!("unexpected `{}`", num.as_str()),
            "expected a number",
        );
        e.help = Some("a count compares with a number: `hand1(Q) >= 2`".into());
        return Err(e);
    }
    Ok((op, build::number(ctx, &num)?))
}

/// A strategy's piece of a formula written in a scenario.
fn strategy_only(ctx: &Ctx, pair: &Pair<'_, Rule>, what: &str, expected: &str) -> SyntaxError {
    let mut e = ctx.error(
        ctx.span(pair.as_span()),
        format!("`{}` is {what}, read in strategy files only", pair.as_str()),
        expected,
    );
    e.help =
        Some("a scenario names its cards and numbers; a strategy's rules bind variables".into());
    e
}

/// A strategy's `any(y in others: φ)`, `all(v in ranks: φ)`: a quantifier
/// whose domain `others` and `ranks` are names the strategy binds to lists
/// (as `E{others}` is), so the strategy expands it on the tree.
fn strategy_quant(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize) -> Result<FormulaKind> {
    if !ctx.strategy {
        let mut e = strategy_only(ctx, &pair, "a strategy's quantifier", "expected a formula");
        e.message =
            "`all(x in D: φ)` is a strategy's quantifier, read in strategy files only".into();
        e.help = Some("a scenario writes `all x in 0..3: φ` and `any x in players: φ`".into());
        return Err(e);
    }
    let body = pair
        .clone()
        .into_inner()
        .find(|p| p.as_rule() == Rule::formula);
    let body = level(ctx, ctx.first(body, "a formula")?, depth)?;
    quant(ctx, pair, Box::new(body))
}

/// A quantifier's domain: a range, `players`, `cards`, a list of cards, or
/// (in a strategy) the name of a list the strategy binds, `others` or `ranks`.
fn quant_domain(ctx: &Ctx, part: Pair<'_, Rule>, expected: &str) -> Result<Domain> {
    let d = ctx.first(part.into_inner().next(), expected)?;
    Ok(match d.as_rule() {
        Rule::range => {
            let (lo, hi) = build::range_bounds::<u32>(ctx, &d)?;
            Domain::Range(lo, hi, ctx.span(d.as_span()))
        }
        Rule::dom_players => Domain::Players,
        Rule::dom_cards => Domain::Cards,
        Rule::dom_list => Domain::List(
            d.into_inner()
                .filter(|p| p.as_rule() == Rule::card)
                .map(|p| ctx.name(&p))
                .collect(),
        ),
        _ => Domain::List(vec![ctx.name(&d)]),
    })
}

/// A comparison operator from its text.
pub(crate) fn cmp_op(text: &str) -> CmpOp {
    match text {
        "<" => CmpOp::Lt,
        "<=" => CmpOp::Le,
        "!=" => CmpOp::Ne,
        ">=" => CmpOp::Ge,
        ">" => CmpOp::Gt,
        _ => CmpOp::Eq,
    }
}

/// `K1`, `M_Bruno`, `B[Bruno]`, `Kw₁` applied to a formula.
fn modal(ctx: &Ctx, op: Pair<'_, Rule>, body: Box<Formula>) -> Result<FormulaKind> {
    let letter = ctx.first(op.clone().into_inner().next(), "an operator")?;
    let agent = agent(ctx, op)?;
    Ok(match letter.as_str() {
        "Kw" => FormulaKind::Kw(agent, body),
        "M" => FormulaKind::M(agent, body),
        "B" => FormulaKind::B(agent, body),
        _ => FormulaKind::K(agent, body),
    })
}

/// The agent glued to an operator, with subscript digits made ASCII.
fn agent(ctx: &Ctx, op: Pair<'_, Rule>) -> Result<Name> {
    let pair = op.into_inner().find(|p| {
        matches!(
            p.as_rule(),
            Rule::agent_digits | Rule::agent_word | Rule::agent_sub
        )
    });
    let pair = ctx.first(pair, "a player")?;
    let mut name = ctx.name(&pair);
    name.text = name
        .text
        .chars()
        .map(|c| match c {
            '₀'..='₉' => char::from(b'0' + (c as u32 - '₀' as u32) as u8),
            _ => c,
        })
        .collect();
    Ok(name)
}

/// `E`, `C{1,2}`, `D{Bruno,Nadine}` applied to a formula.
fn group_op(ctx: &Ctx, op: Pair<'_, Rule>, body: Box<Formula>) -> Result<FormulaKind> {
    let mut parts = op.into_inner();
    let letter = ctx.first(parts.next(), "an operator")?.as_str();
    let group = match parts.next() {
        None => Group::All,
        Some(group) => Group::Listed(
            group
                .into_inner()
                .filter(|p| p.as_rule() == Rule::player)
                .map(|p| ctx.name(&p))
                .collect(),
        ),
    };
    Ok(match letter {
        "E" => FormulaKind::E(group, body),
        "C" => FormulaKind::C(group, body),
        _ => FormulaKind::D(group, body),
    })
}

/// `[!ψ] φ` and `<!ψ> φ`.
fn announce(
    ctx: &Ctx,
    op: Pair<'_, Rule>,
    body: Box<Formula>,
    depth: usize,
) -> Result<FormulaKind> {
    let diamond = op.as_rule() == Rule::dia_ann;
    let inner = ctx.first(op.into_inner().next(), "a formula")?;
    let what = Box::new(level(ctx, inner, depth + 1)?);
    Ok(if diamond {
        FormulaKind::AnnounceDiamond(what, body)
    } else {
        FormulaKind::Announce(what, body)
    })
}

/// `[ask 1 2 Q] φ` and `<draw 2: A> φ`.
fn after(ctx: &Ctx, op: Pair<'_, Rule>, body: Box<Formula>) -> Result<FormulaKind> {
    let diamond = op.as_rule() == Rule::dia_move;
    let inner = ctx.first(op.into_inner().next(), "a move")?;
    let mv = Box::new(build::move_(ctx, inner)?);
    Ok(if diamond {
        FormulaKind::AfterDiamond(mv, body)
    } else {
        FormulaKind::After(mv, body)
    })
}

const AN_OPERATOR_AFTER: &str = "expected an operator such as & or ->";

/// `all x in 0..6:` and `any a in players:` applied to a formula (a
/// strategy's `all(x in ranks: φ)` too, its body read by the caller).
fn quant(ctx: &Ctx, op: Pair<'_, Rule>, body: Box<Formula>) -> Result<FormulaKind> {
    let mut all = true;
    let (mut var, mut domain) = (None, None);
    for part in op.into_inner() {
        match part.as_rule() {
            Rule::quant_any => all = false,
            Rule::ident => var = Some(ctx.name(&part)),
            Rule::domain => {
                domain = Some(quant_domain(
                    ctx,
                    part,
                    "a range, `players`, `cards` or a list",
                )?)
            }
            Rule::s_domain => {
                domain = Some(quant_domain(
                    ctx,
                    part,
                    "a range, `players`, `others` or `ranks`",
                )?)
            }
            _ => {}
        }
    }
    Ok(FormulaKind::Quant {
        all,
        var: Box::new(var.ok_or_else(|| ctx.missing("a name"))?),
        domain: Box::new(domain.ok_or_else(|| ctx.missing("a range"))?),
        body,
    })
}

/// `K p`: a knowledge operator without its player.
fn bare_modal(ctx: &Ctx, op: &Pair<'_, Rule>) -> SyntaxError {
    let letter = op.as_str();
    let span = ctx.span(op.as_span());
    let mut e = ctx.error(
        span,
        format!("`{letter}` needs a player"),
        &format!("expected a player right after {letter}, such as {letter}1 or {letter}_Bruno"),
    );
    e.help = Some(format!(
        "write the player right after {letter}: {letter}1 φ, {letter}_Bruno φ"
    ));
    e
}
