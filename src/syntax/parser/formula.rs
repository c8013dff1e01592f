//! Builds [`Formula`]s (and the moves inside `[ ]` and `< >`) from pest pairs.

use pest::iterators::Pair;

use super::{build, Ctx, Rule, MAX_DEPTH};
use crate::syntax::ast::{CmpOp, Formula, FormulaKind, Group, Name};
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

/// A left-associative chain `a op b op c`.
fn chain(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize, make: Binary) -> Result<Formula> {
    let mut operands = pair.into_inner().filter(|p| !is_operator(p.as_rule()));
    let first = ctx.first(operands.next(), "a formula")?;
    let mut acc = level(ctx, first, depth)?;
    for next in operands {
        let right = level(ctx, next, depth)?;
        acc = binary(make, acc, right);
    }
    Ok(acc)
}

/// `a -> b` (right associative: the grammar recurses on the right).
fn implies(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize) -> Result<Formula> {
    let mut operands = pair.into_inner().filter(|p| !is_operator(p.as_rule()));
    let first = ctx.first(operands.next(), "a formula")?;
    let left = level(ctx, first, depth)?;
    match operands.next() {
        None => Ok(left),
        Some(right) => {
            let right = level(ctx, right, depth + 1)?;
            Ok(binary(FormulaKind::Implies, left, right))
        }
    }
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

/// A prefix operator with its operand, or a primary formula.
fn unary(ctx: &Ctx, pair: Pair<'_, Rule>, depth: usize) -> Result<Formula> {
    let span = ctx.span(pair.as_span());
    let mut inner = pair.into_inner();
    let head = ctx.first(inner.next(), "a formula")?;
    let mut operand = || -> Result<Box<Formula>> {
        let next = ctx.first(inner.next(), "a formula")?;
        Ok(Box::new(level(ctx, next, depth + 1)?))
    };
    let kind = match head.as_rule() {
        Rule::not_op => FormulaKind::Not(operand()?),
        Rule::modal_op => modal(ctx, head, operand()?)?,
        Rule::group_op => group_op(ctx, head, operand()?)?,
        Rule::box_ann | Rule::dia_ann => announce(ctx, head, operand()?, depth)?,
        Rule::box_move | Rule::dia_move => after(ctx, head, operand()?)?,
        Rule::bare_modal => return Err(bare_modal(ctx, &head)),
        Rule::paren => {
            let inner = ctx.first(head.into_inner().next(), "a formula")?;
            let formula = level(ctx, inner, depth + 1)?;
            return Ok(Formula { span, ..formula });
        }
        _ => primary(ctx, head)?,
    };
    Ok(Formula { kind, span })
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
            FormulaKind::HoldsSeq { player, cards }
        }
        Rule::kv_formula => {
            let mut parts = head.into_inner();
            let op = ctx.first(parts.next(), "`Kv`")?;
            let agent = agent(ctx, op)?;
            let place = ctx.name(&ctx.first(parts.next(), "a place")?);
            FormulaKind::Kv(agent, place)
        }
        _ => atom(ctx, head)?,
    })
}

/// `#hand1(Q) >= 2`, `H4<8,4>`, `hand[Bruno](KH)`, `p`.
fn atom(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<FormulaKind> {
    let mut parts = pair.into_inner();
    let head = ctx.first(parts.next(), "a name")?;
    let (mut name, mut card) = (None, None);
    for part in head.into_inner() {
        match part.as_rule() {
            Rule::name_plain => name = Some(ctx.name(&part)),
            Rule::name_bracket => name = Some(bracket_name(ctx, part)?),
            Rule::card_arg => {
                card = Some(ctx.name(&ctx.first(part.into_inner().next(), "a card")?))
            }
            Rule::set_arg => card = Some(ctx.name(&part)),
            _ => {}
        }
    }
    let name = name.ok_or_else(|| ctx.missing("a name"))?;
    let count = parts.next().map(|c| count(ctx, c)).transpose()?;
    Ok(FormulaKind::Named { name, card, count })
}

/// `hand[Bruno]` is the name `hand_Bruno`.
fn bracket_name(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Name> {
    let span = ctx.span(pair.as_span());
    let mut parts = pair.into_inner();
    let base = ctx.first(parts.next(), "a name")?.as_str();
    let who = ctx.first(parts.next(), "a player")?.as_str();
    Ok(Name {
        text: format!("{base}_{who}"),
        span,
    })
}

/// `>= 2` after an atom.
fn count(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<(CmpOp, u32)> {
    let mut parts = pair.into_inner();
    let op = cmp_op(ctx.first(parts.next(), "a comparison")?.as_str());
    let num = ctx.first(parts.next(), "a number")?;
    Ok((op, build::number(ctx, &num)?))
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
