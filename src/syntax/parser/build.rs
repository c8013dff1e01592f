//! Builds [`Statement`]s, [`Move`]s and the `model` / `event` blocks from
//! pest pairs. Formulas are built by [`super::formula`].

use std::str::FromStr;

use pest::iterators::Pair;

use super::formula::{cmp_op, formula, term};
use super::{Ctx, Rule};
use crate::syntax::ast::{
    Ask, DealPart, DeckItem, DeckSpec, EventDef, Expectation, ExportDef, Formula, Group, ModelDef,
    Move, MoveKind, Name, Question, RelationDef, RelationSpec, Shade, Span, Statement,
    StatementKind, Visibility, WorldDef,
};
use crate::syntax::SyntaxError;

type Result<T> = std::result::Result<T, SyntaxError>;

/// The most values a range in `deck ranks` may expand to.
const MAX_RANGE: u64 = 1000;

/// Builds a statement from a `stmt_body` pair.
pub(crate) fn statement(ctx: &Ctx, body: Pair<'_, Rule>) -> Result<Statement> {
    let span = ctx.span(body.as_span());
    let pair = ctx.first(body.into_inner().next(), "a statement")?;
    let rule = pair.as_rule();
    let mut a = Args::new(ctx, pair);
    let kind = match rule {
        Rule::game_stmt => StatementKind::Game(a.name()?),
        Rule::players_stmt => StatementKind::Players(a.names()),
        Rule::deck_stmt => StatementKind::Deck(deck(ctx, a.pair()?)?),
        Rule::pile_stmt => StatementKind::Pile {
            name: a.name()?,
            visibility: visibility(ctx, a.pair()?),
            holds: a.rest().next().map(|p| Args::new(ctx, p).names()),
        },
        Rule::order_stmt => StatementKind::Order(a.names()),
        Rule::uncounted_stmt => StatementKind::Uncounted,
        Rule::deal_stmt => StatementKind::Deal(a.rest().map(|p| deal_part(ctx, p)).collect()),
        Rule::stock_stmt => StatementKind::Stock(a.names()),
        Rule::seed_stmt => {
            let n = a.pair()?;
            StatementKind::Seed(number(ctx, &n)?, ctx.span(n.as_span()))
        }
        Rule::turn_stmt => StatementKind::Turn(a.name()?),
        Rule::prop_stmt => StatementKind::Prop(a.names()),
        Rule::let_stmt => let_(ctx, a)?,
        Rule::valid_stmt => StatementKind::Valid(a.formula()?),
        Rule::query_stmt => StatementKind::Query(a.formula()?),
        Rule::why_stmt => {
            let f = a.formula()?;
            match a.rest().next() {
                Some(p) => StatementKind::WhyFor {
                    formula: f,
                    card: per_card(ctx, p)?,
                },
                None => StatementKind::Why(f),
            }
        }
        Rule::expect_stmt => StatementKind::Expect(expectation(ctx, a.pair()?)?),
        Rule::question_stmt => StatementKind::Question(question(ctx, a)?),
        Rule::worlds_stmt => {
            let (mut player, mut filter, mut whole, mut card) = (None, None, false, None);
            for p in a.rest() {
                match p.as_rule() {
                    Rule::worlds_where => {
                        let (all, f) = where_(ctx, p)?;
                        whole = all;
                        filter = Some(f);
                    }
                    Rule::per_card => card = Some(per_card(ctx, p)?),
                    _ => player = Some(ctx.name(&p)),
                }
            }
            match (card, filter) {
                (Some(card), filter) => StatementKind::WorldsFor {
                    player,
                    filter,
                    whole,
                    card,
                },
                (None, Some(filter)) => StatementKind::WorldsWhere { whole, filter },
                (None, None) => StatementKind::Worlds(player),
            }
        }
        Rule::stats_stmt => StatementKind::Stats,
        Rule::checkpoint_stmt => StatementKind::Checkpoint(string(ctx, a.pair()?)?),
        Rule::model_stmt => StatementKind::Model(model(ctx, a)?),
        Rule::event_stmt => StatementKind::Event(event(ctx, a)?),
        Rule::export_stmt => StatementKind::Export(export(ctx, a)?),
        Rule::var_stmt => {
            let parts: Vec<Pair<'_, Rule>> = a.rest().collect();
            let (range, names) = parts.split_last().ok_or_else(|| ctx.missing("a range"))?;
            let (lo, hi) = range_bounds::<u32>(ctx, range)?;
            StatementKind::Var {
                names: names.iter().map(|p| ctx.name(p)).collect(),
                lo: lo.into(),
                hi: hi.into(),
            }
        }
        Rule::law_stmt => StatementKind::Law(a.formula()?),
        Rule::values_stmt => StatementKind::Values(
            a.rest()
                .map(|item| {
                    let mut v = Args::new(ctx, item);
                    let name = v.name()?;
                    Ok((name, number(ctx, &v.pair()?)?))
                })
                .collect::<Result<_>>()?,
        ),
        Rule::observes_stmt => {
            let player = a.name()?;
            let terms = a.rest().map(|p| term(ctx, p)).collect::<Result<_>>()?;
            StatementKind::Observes(player, terms)
        }
        _ => StatementKind::Move(move_(ctx, a.pair()?)?),
    };
    Ok(Statement { kind, span })
}

/// `export "FILE" [for CARD] [only P] [agents 1,2] [all] [limit N] [complete]
/// [hide PILE,...] [shade P | shade C{1,2}]`; each option at most once.
fn export(ctx: &Ctx, mut a: Args<'_, '_, '_>) -> Result<ExportDef> {
    let mut def = ExportDef {
        path: string(ctx, a.pair()?)?,
        card: None,
        only: None,
        agents: None,
        all: false,
        limit: None,
        complete: false,
        hide: None,
        shade: None,
    };
    for opt in a.rest() {
        let span = ctx.span(opt.as_span());
        let rule = opt.as_rule();
        let mut names = opt.into_inner().filter(|p| !is_punct(p.as_rule()));
        let twice = match rule {
            Rule::export_for => def
                .card
                .replace(ctx.name(&names.next().expect("a card")))
                .is_some(),
            Rule::export_only => def
                .only
                .replace(ctx.name(&names.next().expect("a player")))
                .is_some(),
            Rule::export_agents => def
                .agents
                .replace(names.map(|p| ctx.name(&p)).collect())
                .is_some(),
            Rule::export_hide => def
                .hide
                .replace(names.map(|p| ctx.name(&p)).collect())
                .is_some(),
            Rule::export_limit => {
                let n = names.next().expect("a number");
                let value = number::<u64>(ctx, &n)?;
                def.limit.replace((value, ctx.span(n.as_span()))).is_some()
            }
            Rule::export_complete => std::mem::replace(&mut def.complete, true),
            Rule::export_shade => {
                let what = names.next().expect("a player or a group");
                let shade = if what.as_rule() == Rule::group_op {
                    let mut parts = what.into_inner();
                    let letter = parts.next().expect("a letter").as_str();
                    let who = match parts.next() {
                        None => Group::All,
                        Some(g) => Group::Listed(
                            g.into_inner()
                                .filter(|p| p.as_rule() == Rule::player)
                                .map(|p| ctx.name(&p))
                                .collect(),
                        ),
                    };
                    Shade {
                        access: letter.chars().next(),
                        who,
                        span,
                    }
                } else {
                    Shade {
                        access: None,
                        who: Group::Listed(vec![ctx.name(&what)]),
                        span,
                    }
                };
                def.shade.replace(shade).is_some()
            }
            _ => std::mem::replace(&mut def.all, true),
        };
        if twice {
            let word = match rule {
                Rule::export_for => "for",
                Rule::export_only => "only",
                Rule::export_agents => "agents",
                Rule::export_hide => "hide",
                Rule::export_limit => "limit",
                Rule::export_complete => "complete",
                Rule::export_shade => "shade",
                _ => "all",
            };
            let mut e = ctx.error(span, format!("`{word}` is given twice"), "each option once");
            e.help = Some(
                "an export takes each of `for`, `only`, `agents`, `all`, `limit`, `complete`, `hide` and `shade` at most once".into(),
            );
            return Err(e);
        }
    }
    Ok(def)
}

/// Builds a move from one of the `*_mv` pairs.
pub(crate) fn move_(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Move> {
    let span = ctx.span(pair.as_span());
    let rule = pair.as_rule();
    let mut a = Args::new(ctx, pair);
    let kind = match rule {
        Rule::announce_mv => MoveKind::Announce(a.formula()?),
        Rule::transfer_mv => {
            let (card, from, to) = (a.name()?, a.name()?, a.name()?);
            match a.rest().next() {
                Some(unseen) => MoveKind::SecretTransfer {
                    card,
                    from,
                    to,
                    unseen: Args::new(ctx, unseen).names(),
                },
                None => MoveKind::Transfer { card, from, to },
            }
        }
        Rule::send_mv => MoveKind::Send {
            from: a.name()?,
            to: a.name()?,
            what: a.formula()?,
            lost: a.rest().next().is_some(),
        },
        Rule::draw_mv => draw(ctx, a)?,
        Rule::show_mv => MoveKind::Show {
            from: a.name()?,
            to: a.name()?,
            card: a.name()?,
        },
        Rule::reveal_mv => MoveKind::Reveal {
            player: a.name()?,
            card: a.name()?,
        },
        Rule::peek_mv => MoveKind::Peek {
            player: a.name()?,
            slot: a.name()?,
        },
        Rule::ask_mv => MoveKind::Ask {
            asker: a.name()?,
            asked: a.name()?,
            card: a.name()?,
        },
        Rule::game_mv => MoveKind::Game {
            word: a.name()?,
            args: a.names(),
        },
        _ => MoveKind::Apply(a.name()?),
    };
    Ok(Move { kind, span })
}

/// `draw P [from PILE] [: CARD]`.
fn draw(ctx: &Ctx, mut a: Args<'_, '_, '_>) -> Result<MoveKind> {
    let player = a.name()?;
    let (mut card, mut from) = (None, None);
    for p in a.rest() {
        if p.as_rule() == Rule::draw_from {
            from = p
                .into_inner()
                .find(|q| q.as_rule() == Rule::location)
                .map(|q| ctx.name(&q));
        } else {
            card = Some(ctx.name(&p));
        }
    }
    Ok(MoveKind::Draw { player, card, from })
}

/// Parses a number token.
pub(crate) fn number<T: FromStr>(ctx: &Ctx, pair: &Pair<'_, Rule>) -> Result<T> {
    pair.as_str().parse().map_err(|_| {
        let mut e = ctx.error(
            ctx.span(pair.as_span()),
            format!("the number {} is too large", pair.as_str()),
            "expected a smaller number",
        );
        e.help = Some("numbers here must fit in 32 bits (64 for seeds)".into());
        e
    })
}

/// The meaningful children of a pair: keywords and punctuation are skipped.
struct Args<'c, 'a, 'i> {
    ctx: &'c Ctx<'a>,
    span: Span,
    items: std::vec::IntoIter<Pair<'i, Rule>>,
}

impl<'c, 'a, 'i> Args<'c, 'a, 'i> {
    fn new(ctx: &'c Ctx<'a>, pair: Pair<'i, Rule>) -> Self {
        let span = ctx.span(pair.as_span());
        let items: Vec<_> = pair
            .into_inner()
            .filter(|p| !is_punct(p.as_rule()))
            .collect();
        Args {
            ctx,
            span,
            items: items.into_iter(),
        }
    }

    fn pair(&mut self) -> Result<Pair<'i, Rule>> {
        let span = self.span;
        self.items.next().ok_or_else(|| {
            let mut e = self.ctx.missing("more");
            e.span = span;
            e
        })
    }

    fn name(&mut self) -> Result<Name> {
        Ok(self.ctx.name(&self.pair()?))
    }

    fn formula(&mut self) -> Result<Formula> {
        let pair = self.pair()?;
        formula(self.ctx, pair)
    }

    fn names(&mut self) -> Vec<Name> {
        let ctx = self.ctx;
        self.rest().map(|p| ctx.name(&p)).collect()
    }

    fn rest(&mut self) -> impl Iterator<Item = Pair<'i, Rule>> + '_ {
        self.items.by_ref()
    }
}

/// Keywords and punctuation carry no content.
fn is_punct(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::colon
            | Rule::arrow
            | Rule::equals
            | Rule::bar
            | Rule::rparen
            | Rule::rbrack
            | Rule::rangle
            | Rule::lbrace
            | Rule::rbrace
            | Rule::close_quote
    ) || format!("{rule:?}").starts_with("kw_")
}

/// `deck ...`
fn deck(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<DeckSpec> {
    let span = ctx.span(pair.as_span());
    let rule = pair.as_rule();
    let mut a = Args::new(ctx, pair);
    match rule {
        Rule::deck_sets => {
            let range = a.pair()?;
            let (first, last) = range_bounds(ctx, &range)?;
            let members = number(ctx, &a.pair()?)?;
            Ok(DeckSpec::Sets {
                first,
                last,
                members,
                span,
            })
        }
        Rule::deck_ranks => deck_ranks(ctx, a),
        Rule::deck_tarock => {
            let parts: Vec<_> = a.rest().collect();
            let reduced = parts.iter().any(|p| p.as_rule() == Rule::tarock_reduced);
            let cards = parts
                .iter()
                .filter(|p| p.as_rule() == Rule::deck_card)
                .map(|p| ctx.name(p))
                .collect();
            Ok(DeckSpec::Tarock {
                reduced,
                cards,
                span,
            })
        }
        _ => {
            let items: Vec<DeckItem> =
                a.rest().map(|p| deck_item(ctx, p)).collect::<Result<_>>()?;
            deck_words(ctx, &items)?;
            Ok(DeckSpec::Kinds(items))
        }
    }
}

/// The words of `deck sets`, `deck ranks` and `deck tarock` are not
/// card names: `deck sets 1..2 of` (the members forgotten) is an error,
/// not the cards SETS, 1, 2 and OF.
fn deck_words(ctx: &Ctx, items: &[DeckItem]) -> Result<()> {
    const FORMS: [(&str, &str); 5] = [
        ("sets", "deck sets 1..13 of 4"),
        ("of", "deck sets 1..13 of 4"),
        ("ranks", "deck ranks 2..10 J Q K A suits S H D C"),
        ("suits", "deck ranks 2..10 J Q K A suits S H D C"),
        ("tarock", "deck tarock"),
    ];
    for item in items {
        let word = item.card.text.as_str();
        if let Some((_, form)) = FORMS.iter().find(|(w, _)| *w == word) {
            let mut e = ctx.error(
                item.card.span,
                format!("`{word}` is a word of the deck's forms, not a card"),
                "expected a card, such as 6S, Q or <8,4>",
            );
            e.help = Some(format!("write the whole form: `{form}`"));
            return Err(e);
        }
    }
    Ok(())
}

/// `deck ranks 2..10 J Q K A suits S H D C`: ranges are expanded.
fn deck_ranks(ctx: &Ctx, mut a: Args<'_, '_, '_>) -> Result<DeckSpec> {
    let (mut ranks, mut suits) = (Vec::new(), Vec::new());
    let mut in_suits = false;
    // The keyword `suits` was filtered out: find the boundary from the source.
    for pair in a.rest() {
        let before = &ctx.piece.text[..pair.as_span().start()];
        in_suits = in_suits || has_word(before, "suits");
        if in_suits {
            suits.push(ctx.name(&pair));
        } else if pair.as_str().contains("..") {
            let (first, last) = range_bounds::<u64>(ctx, &pair)?;
            let span = ctx.span(pair.as_span());
            ranks.extend((first..=last).map(|n| Name {
                text: n.to_string().into(),
                span,
            }));
        } else {
            ranks.push(ctx.name(&pair));
        }
    }
    Ok(DeckSpec::RanksSuits { ranks, suits })
}

/// Whether `text` holds `word` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .any(|w| w == word)
}

/// The bounds of `a..b`; an error if empty or huge.
pub(crate) fn range_bounds<T: FromStr + Into<u64> + Copy>(
    ctx: &Ctx,
    pair: &Pair<'_, Rule>,
) -> Result<(T, T)> {
    let span = ctx.span(pair.as_span());
    let text = pair.as_str();
    let (a, b) = text.split_once("..").unwrap_or((text, text));
    let parse = |s: &str| {
        s.parse::<T>().map_err(|_| {
            ctx.error(
                span,
                format!("the range {text} is too large"),
                "expected a smaller range",
            )
        })
    };
    let (first, last) = (parse(a)?, parse(b)?);
    let (lo, hi) = (first.into(), last.into());
    if lo > hi || hi - lo >= MAX_RANGE {
        let mut e = ctx.error(
            span,
            format!("the range {text} is empty or too long"),
            "expected a range such as 2..10",
        );
        e.help = Some(format!(
            "write the smaller number first; at most {MAX_RANGE} values"
        ));
        return Err(e);
    }
    Ok((first, last))
}

/// `Q*4` in a deck.
fn deck_item(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<DeckItem> {
    let mut parts = pair.into_inner();
    let card = ctx.name(&ctx.first(parts.next(), "a card")?);
    let copies = match parts.next() {
        Some(n) => number(ctx, &n)?,
        None => 1,
    };
    Ok(DeckItem { card, copies })
}

/// `public`, `hidden`, `seen-by 2 3`.
fn visibility(ctx: &Ctx, pair: Pair<'_, Rule>) -> Visibility {
    match pair.as_str() {
        "public" => Visibility::Public,
        "hidden" => Visibility::Hidden,
        _ => {
            let seen = pair.into_inner().next().map(|p| Args::new(ctx, p).names());
            Visibility::SeenBy(seen.unwrap_or_default())
        }
    }
}

/// `1: 2H 5H` in a deal.
fn deal_part(ctx: &Ctx, pair: Pair<'_, Rule>) -> DealPart {
    let mut names = Args::new(ctx, pair).names().into_iter();
    let location = names.next().unwrap_or_else(|| Name {
        text: Default::default(),
        span: Span::default(),
    });
    DealPart {
        location,
        cards: names.collect(),
    }
}

/// `expect ...` after the keyword.
fn expectation(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Expectation> {
    let rule = pair.as_rule();
    let mut a = Args::new(ctx, pair.clone());
    match rule {
        Rule::expect_considers => Ok(Expectation::Considers {
            player: a.name()?,
            cmp: cmp_op(a.pair()?.as_str()),
            n: number(ctx, &a.pair()?)?,
        }),
        Rule::expect_worlds => {
            let mut parts: Vec<Pair<'_, Rule>> = a.rest().collect();
            let whole = parts.first().map(|p| p.as_rule()) == Some(Rule::whole_model);
            if whole {
                parts.remove(0);
            }
            let filter = match parts.last() {
                Some(p) if p.as_rule() == Rule::count_where => {
                    let p = parts.pop().expect("a where");
                    let f = ctx.first(
                        p.into_inner().find(|q| q.as_rule() == Rule::formula),
                        "a formula",
                    )?;
                    Some(formula(ctx, f)?)
                }
                _ => None,
            };
            let mut parts = parts.into_iter();
            let cmp = cmp_op(ctx.first(parts.next(), "a comparison")?.as_str());
            let n = number(ctx, &ctx.first(parts.next(), "a number")?)?;
            if !whole && filter.is_none() {
                return Ok(Expectation::Worlds { cmp, n });
            }
            Ok(Expectation::Count {
                whole,
                cmp,
                n,
                filter,
            })
        }
        Rule::expect_score => Ok(Expectation::Score {
            player: a.name()?,
            cmp: cmp_op(a.pair()?.as_str()),
            n: number(ctx, &a.pair()?)?,
        }),
        _ => Ok(Expectation::Holds(formula(ctx, pair)?)),
    }
}

/// `question ["text"] φ | considers P | worlds [where φ] | who knows φ`.
fn question(ctx: &Ctx, mut a: Args<'_, '_, '_>) -> Result<Question> {
    let mut pair = a.pair()?;
    let text = if pair.as_rule() == Rule::string {
        let t = string(ctx, pair)?;
        pair = a.pair()?;
        Some(t)
    } else {
        None
    };
    let rule = pair.as_rule();
    let ask = match rule {
        Rule::question_considers => Ask::Considers(Args::new(ctx, pair).name()?),
        Rule::question_who => Ask::WhoKnows(Args::new(ctx, pair).formula()?),
        Rule::question_worlds => match pair.into_inner().find(|p| p.as_rule() == Rule::count_where)
        {
            Some(w) => Ask::Worlds(Some(Args::new(ctx, w).formula()?)),
            None => Ask::Worlds(None),
        },
        _ => Ask::YesNo(formula(ctx, pair)?),
    };
    Ok(Question { text, ask })
}

/// `let NAME = φ` and `let NAME(a, b) = φ`; a name the formula grammar
/// would read as an operator is refused.
fn let_(ctx: &Ctx, mut a: Args<'_, '_, '_>) -> Result<StatementKind> {
    let name = a.name()?;
    if let Some(reading) = operator_reading(&name.text) {
        let mut e = ctx.error(
            name.span,
            format!("`{}` cannot be a `let` name: {reading}", name.text),
            "expected a name that is not an operator",
        );
        e.help = Some(format!(
            "choose another name, such as `is_{}`",
            name.text.replace(['[', ']'], "")
        ));
        return Err(e);
    }
    let next = a.pair()?;
    if next.as_rule() != Rule::let_params {
        return Ok(StatementKind::Let(name, formula(ctx, next)?));
    }
    let params: Vec<Name> = next
        .into_inner()
        .filter(|p| p.as_rule() == Rule::ident)
        .map(|p| ctx.name(&p))
        .collect();
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.text == p.text) {
            return Err(ctx.error(
                p.span,
                format!("parameter `{}` is listed twice", p.text),
                "expected distinct parameters",
            ));
        }
    }
    let body = a.formula()?;
    Ok(StatementKind::Macro { name, params, body })
}

/// How the formula grammar would read `text` if it is not a plain name:
/// a keyword, or a knowledge operator with its player.
pub(crate) fn operator_reading(text: &str) -> Option<String> {
    use pest::Parser as _;
    let whole = |rule: Rule| {
        super::DealerParser::parse(rule, text)
            .ok()
            .and_then(|mut p| p.next())
            .is_some_and(|p| p.as_str().len() == text.len())
    };
    if whole(Rule::reserved) {
        return Some(format!("`{text}` is a keyword of formulas"));
    }
    if whole(Rule::kv_op) || whole(Rule::modal_op) {
        let (letter, agent) = split_operator(text);
        let what = match letter {
            "Kv" => "knows the value of",
            "Kw" => "knows whether",
            "M" => "considers possible",
            "B" => "believes",
            _ => "knows",
        };
        return Some(format!(
            "it would be read as the operator `{letter}` of player `{agent}` (\"{agent} {what} ...\"), applied to what follows"
        ));
    }
    if whole(Rule::bare_modal) || whole(Rule::group_op) {
        return Some(format!(
            "it would be read as the operator `{text}`, applied to what follows"
        ));
    }
    None
}

/// `M_ok` is `M` and `ok`; `Kw1` is `Kw` and `1`.
fn split_operator(text: &str) -> (&str, &str) {
    let letter = ["Kv", "Kw", "K", "M", "B"]
        .into_iter()
        .find(|l| text.starts_with(l))
        .unwrap_or("K");
    let rest = &text[letter.len()..];
    let agent = rest
        .trim_start_matches('_')
        .trim_start_matches('[')
        .trim_end_matches(']');
    (letter, agent)
}

/// `where φ` after `worlds`, with `all` before it.
fn where_(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<(bool, Formula)> {
    let mut whole = false;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::whole_model => whole = true,
            Rule::formula => return Ok((whole, formula(ctx, p)?)),
            _ => {}
        }
    }
    Err(ctx.missing("a formula"))
}

/// `for 5S`: the card.
fn per_card(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Name> {
    pair.into_inner()
        .find(|p| p.as_rule() == Rule::card)
        .map(|p| ctx.name(&p))
        .ok_or_else(|| ctx.missing("a card"))
}

/// `"turn 1"`: the text without the quotes, the span with them.
fn string(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<Name> {
    let span = ctx.span(pair.as_span());
    let text = ctx
        .first(pair.into_inner().next(), "a text")?
        .as_str()
        .into();
    Ok(Name { text, span })
}

/// Relations and `actual` are shared by both kinds of block.
#[derive(Default)]
struct Common {
    relations: Vec<RelationDef>,
    actual: Option<Name>,
}

impl Common {
    /// Takes a relation or `actual` item; false if it is neither.
    fn take(&mut self, ctx: &Ctx, item: &Pair<'_, Rule>) -> Result<bool> {
        match item.as_rule() {
            Rule::relation_item => self.relations.push(relation(ctx, item.clone())?),
            Rule::actual_item => {
                let name = Args::new(ctx, item.clone()).pair()?;
                if let Some(first) = &self.actual {
                    let mut e = ctx.error(
                        ctx.span(item.as_span()),
                        "a second `actual` in this block".into(),
                        "expected one `actual` line",
                    );
                    e.help = Some(format!("the actual one is already `{}`", first.text));
                    return Err(e);
                }
                self.actual = Some(ctx.name(&name));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The actual world or event, or the error of a block without one.
    fn actual(&mut self, ctx: &Ctx, keyword: Span, what: &str) -> Result<Name> {
        self.actual.take().ok_or_else(|| {
            let mut e = ctx.error(
                keyword,
                format!("this {what} block has no `actual` line"),
                "expected a line `actual NAME` inside the block",
            );
            e.help = Some(format!(
                "say which {} is the actual one, e.g. `actual {}`",
                if what == "model" { "world" } else { "event" },
                if what == "model" { "w1" } else { "e1" }
            ));
            e
        })
    }
}

/// `model { ... }`
fn model(ctx: &Ctx, a: Args<'_, '_, '_>) -> Result<ModelDef> {
    let span = a.span;
    let keyword = Span::new(span.start, span.start + "model".len());
    let (mut agents, mut props, mut worlds) = (Vec::new(), Vec::new(), Vec::new());
    let mut common = Common::default();
    for item in a.items {
        if common.take(ctx, &item)? {
            continue;
        }
        let rule = item.as_rule();
        let mut b = Args::new(ctx, item);
        match rule {
            Rule::agents_item => agents.extend(b.names()),
            Rule::props_item => props.extend(b.names()),
            _ => worlds.push(WorldDef {
                name: b.name()?,
                true_props: b.names(),
            }),
        }
    }
    Ok(ModelDef {
        agents,
        props,
        worlds,
        actual: common.actual(ctx, keyword, "model")?,
        relations: common.relations,
        span,
    })
}

/// `event name { ... }`
fn event(ctx: &Ctx, mut a: Args<'_, '_, '_>) -> Result<EventDef> {
    let span = a.span;
    let keyword = Span::new(span.start, span.start + "event".len());
    let name = a.name()?;
    let (mut events, mut pre, mut post) = (Vec::new(), Vec::new(), Vec::new());
    let mut common = Common::default();
    for item in a.items {
        if common.take(ctx, &item)? {
            continue;
        }
        let rule = item.as_rule();
        let mut b = Args::new(ctx, item);
        match rule {
            Rule::events_item => events.extend(b.names()),
            Rule::pre_item => pre.push((b.name()?, b.formula()?)),
            _ => {
                let event = b.name()?;
                let assigns = b
                    .rest()
                    .map(|p| assignment(ctx, p))
                    .collect::<Result<_>>()?;
                post.push((event, assigns));
            }
        }
    }
    Ok(EventDef {
        name,
        events,
        pre,
        post,
        actual: common.actual(ctx, keyword, "event")?,
        relations: common.relations,
        span,
    })
}

/// `q := φ` in a `post` line.
fn assignment(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<(Name, Formula)> {
    let mut a = Args::new(ctx, pair);
    Ok((a.name()?, a.formula()?))
}

/// `a: {w1 w2} {w3}` or `a: w1->w2, w2->w2`.
fn relation(ctx: &Ctx, pair: Pair<'_, Rule>) -> Result<RelationDef> {
    let mut a = Args::new(ctx, pair);
    let agent = a.name()?;
    let spec = a.pair()?;
    let relation = if spec.as_rule() == Rule::partition {
        let cells = spec.into_inner().map(|cell| Args::new(ctx, cell).names());
        RelationSpec::Partition(cells.collect())
    } else {
        let pairs = spec.into_inner().map(|arrow| {
            let mut names = Args::new(ctx, arrow).names().into_iter();
            let from = names.next();
            (from, names.next())
        });
        let arrows = pairs
            .map(|(f, t)| f.zip(t).ok_or_else(|| ctx.missing("an arrow")))
            .collect::<Result<_>>()?;
        RelationSpec::Arrows(arrows)
    };
    Ok(RelationDef { agent, relation })
}
