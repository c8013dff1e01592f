//! Turns pest errors into [`SyntaxError`]s: every rule has a name in words,
//! and common mistakes get a hint.

use pest::error::{Error, ErrorVariant, InputLocation};

use super::{Ctx, DealerParser, Rule};
use crate::syntax::ast::Span;
use crate::syntax::SyntaxError;

/// What a statement may start with, in words.
const A_STATEMENT: &str = "a statement (game, players, deck, deal, a move, ?, expect ...)";
const AN_OPERATOR: &str = "an operator such as & or ->";

/// The words a statement of the language starts with (for completion in
/// front ends, and for "did you mean" after a statement that does not
/// parse): the grammar's own words ([`super::fast::BUILTIN`]) but
/// `actual`, which only opens a line of a model or event block. A game's
/// move and declaration words (`pick`, `psychic`) are the game's, not the
/// language's: the games list those.
pub fn statement_words() -> Vec<&'static str> {
    super::fast::BUILTIN
        .iter()
        .copied()
        .filter(|w| *w != "actual")
        .collect()
}

/// Block items, for "did you mean".
const BLOCK_ITEMS: &[&str] = &[
    "agents", "props", "world", "actual", "events", "pre", "post",
];

/// Converts a pest error on the current piece.
pub(crate) fn from_pest(ctx: &Ctx, err: Error<Rule>) -> SyntaxError {
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let text = &ctx.piece.text;
    let pos = pos.min(text.len());
    let positives = match err.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { message } => {
            let span = ctx.at(pos, pos);
            return ctx.error(span, message, "expected a simpler statement");
        }
    };
    // Arithmetic, arguments and `P observes` are what a few statements
    // need; they are mentioned only when nothing else was expected.
    let quiet = |r: &Rule| {
        matches!(
            r,
            Rule::arith_cmp
                | Rule::arith_gt
                | Rule::add_op
                | Rule::mul_op
                | Rule::macro_args
                | Rule::kw_observes
        )
    };
    let positives: Vec<Rule> = if positives.iter().all(quiet) {
        positives
    } else {
        positives.into_iter().filter(|r| !quiet(r)).collect()
    };
    let at_end = text[pos..].trim().is_empty();
    if at_end {
        if let Some(&(open, c)) = ctx.piece.unclosed.last() {
            return unclosed(ctx, open, c);
        }
    }
    if positives.contains(&Rule::stmt_body) {
        return unknown_statement(ctx, pos);
    }
    // Only `P observes t` starts with a name: a first word that is not a
    // keyword is an unknown statement, not a missing `observes`.
    if positives == [Rule::kw_observes] {
        let start = text.len() - text.trim_start().len();
        return unknown_statement(ctx, start);
    }
    // A statement that is no keyword's is read as a game's move; when it
    // does not parse and its word is a keyword misspelt, say so.
    let start = text.len() - text.trim_start().len();
    let first: String = text[start..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    let known = super::fast::BUILTIN.contains(&first.as_str());
    if !known && nearest(&first, &statement_words()).is_some() {
        return unknown_statement(ctx, start);
    }
    let mut e = unexpected(ctx, pos, &positives);
    e.help = help(ctx, pos, &positives);
    e
}

/// An opening bracket that is never closed.
fn unclosed(ctx: &Ctx, open: usize, c: char) -> SyntaxError {
    let close = closer(c);
    let mut e = ctx.error(
        Span::new(open, open + 1),
        format!("unclosed `{c}`"),
        &format!("expected a matching `{close}`"),
    );
    e.help = Some(format!(
        "this `{c}` is never closed: add `{close}` where it ends"
    ));
    e
}

fn closer(c: char) -> char {
    match c {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

/// A statement that starts with no known keyword.
fn unknown_statement(ctx: &Ctx, pos: usize) -> SyntaxError {
    let text = &ctx.piece.text;
    let word: String = text[pos..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    if !word.starts_with(|c: char| c.is_ascii_alphabetic()) {
        let mut e = unexpected(ctx, pos, &[Rule::stmt_body]);
        e.help = stray_closer(ctx, pos);
        return e;
    }
    let span = ctx.at(pos, pos + word.len());
    let mut e = ctx.error(
        span,
        format!("unknown statement `{word}`"),
        &format!("expected {A_STATEMENT}"),
    );
    e.help = match nearest(&word, &statement_words()) {
        Some(k) => Some(format!("did you mean `{k}`?")),
        None if is_formula(text[pos..].trim()) => Some(format!(
            "a formula is not a statement: write `? {}` to evaluate it",
            text[pos..].trim()
        )),
        None => None,
    };
    e
}

fn is_formula(text: &str) -> bool {
    use pest::Parser as _;
    DealerParser::parse(Rule::formula_entry, text).is_ok()
}

/// "unexpected X", "expected Y".
fn unexpected(ctx: &Ctx, pos: usize, positives: &[Rule]) -> SyntaxError {
    let (found, len) = found(ctx, pos);
    let start = if len == 0 {
        content_end(&ctx.piece.text[..pos])
    } else {
        pos
    };
    let span = ctx.at(start, start + len);
    let mut names: Vec<String> = Vec::new();
    for rule in positives {
        let name = describe(*rule, ctx.lone_formula);
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    let cmp = describe(Rule::cmp, false);
    if names.contains(&cmp) && ctx.piece.text.trim_start().starts_with("expect") {
        names = vec![cmp];
    }
    if names == ["a formula"] {
        if let Some(op) = operator_before(&ctx.piece.text[..pos]) {
            names[0] = format!("a formula after `{op}`");
        }
    }
    let expected = match names.len() {
        0 => "expected something else".to_string(),
        1 => format!("expected {}", names[0]),
        n => format!("expected {} or {}", names[..n - 1].join(", "), names[n - 1]),
    };
    ctx.error(span, format!("unexpected {found}"), &expected)
}

/// The end of the last non-blank character before `pos`.
fn content_end(before: &str) -> usize {
    before.trim_end().len()
}

/// What was found at `pos`, in words, and its length in bytes.
fn found(ctx: &Ctx, pos: usize) -> (String, usize) {
    let text = &ctx.piece.text;
    let rest = &text[pos..];
    if rest.trim().is_empty() {
        let end = ctx.piece.end;
        let what = if ctx.src.as_bytes().get(end) == Some(&b';') {
            "`;`"
        } else if end >= ctx.src.len() || ctx.lone_formula {
            "end of input"
        } else {
            "end of line"
        };
        return (what.to_string(), 0);
    }
    let token = token(rest);
    let shown = if token == "\n" {
        "end of line".into()
    } else {
        format!("`{token}`")
    };
    (shown, token.len())
}

/// The token at the start of `rest`.
fn token(rest: &str) -> &str {
    let is_word = |c: char| c.is_alphanumeric() || "_.*♠♥♦♣♤♡♢♧".contains(c);
    for op in ["<->", "->", "<=", ">=", "!=", ":=", "??"] {
        if rest.starts_with(op) {
            return &rest[..op.len()];
        }
    }
    let first = rest.chars().next().unwrap_or(' ');
    let len = if is_word(first) {
        rest.find(|c: char| !is_word(c)).unwrap_or(rest.len())
    } else if first == '<' {
        match rest.find(|c: char| c == '>' || c.is_whitespace()) {
            Some(i) if rest[i..].starts_with('>') => i + 1,
            _ => 1,
        }
    } else {
        first.len_utf8()
    };
    &rest[..len]
}

/// The binary operator just before `pos`, if the text ends with one.
fn operator_before(before: &str) -> Option<&'static str> {
    let t = before.trim_end();
    let ops = [
        ("<->", "<->"),
        ("↔", "<->"),
        ("->", "->"),
        ("→", "->"),
        ("&", "&"),
        ("∧", "&"),
        ("|", "|"),
        ("∨", "|"),
        (" and", "and"),
        (" or", "or"),
        ("!", "!"),
        ("¬", "¬"),
        (" not", "not"),
    ];
    ops.iter().find(|(s, _)| t.ends_with(s)).map(|(_, op)| *op)
}

/// A rule in words.
fn describe(rule: Rule, lone_formula: bool) -> String {
    let s = match rule {
        Rule::statement | Rule::stmt_body => A_STATEMENT,
        Rule::formula_entry
        | Rule::formula
        | Rule::iff
        | Rule::implies
        | Rule::disj
        | Rule::conj
        | Rule::unary
        | Rule::paren
        | Rule::atom
        | Rule::atom_head => "a formula",
        Rule::EOI if lone_formula => "the end of the formula",
        Rule::EOI => "the end of the statement",
        Rule::ident => "a name, such as p or gofish",
        Rule::number | Rule::count_num => "a number",
        Rule::player | Rule::agent_word | Rule::agent_digits | Rule::agent_sub => {
            "a player, such as 1 or Bruno"
        }
        Rule::location => "a place: a player, a pile or a slot such as 1.2",
        // A strategy's pieces (grammar/strategy.pest), where a scenario
        // expects a number, a card or a formula: named as those.
        Rule::s_count_var
        | Rule::s_count_cmp
        | Rule::s_num
        | Rule::s_lower
        | Rule::s_star
        | Rule::s_fn_rank
        | Rule::s_fn_suit => "",
        Rule::s_quant => "a formula",
        Rule::card
        | Rule::deck_card
        | Rule::seq_cards
        | Rule::deck_item
        | Rule::s_card
        | Rule::s_card_fn
        | Rule::s_var_range
        | Rule::s_var_set
        | Rule::s_var_pattern => {
            "a card, such as 6S, Q or <8,4>"
        }
        Rule::range => "a range, such as 1..13",
        Rule::string | Rule::string_text => "a quoted text, such as \"turn 1\"",
        Rule::close_quote => "a closing `\"`",
        Rule::cmp => "a comparison: <, <=, =, !=, >= or >",
        Rule::count_cmp
        | Rule::count
        | Rule::op_and
        | Rule::op_or
        | Rule::op_imp
        | Rule::op_iff => AN_OPERATOR,
        Rule::colon => "`:`",
        Rule::arrow => "`->`",
        Rule::equals => "`=`",
        Rule::bar => "`|`",
        Rule::rparen => "`)`",
        Rule::rbrack => "`]`",
        Rule::rangle => "`>`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::deck_tarock | Rule::tarock_reduced => {
            "`tarock`, `tarock reduced` or `tarock` with tarock cards such as T21 SKUS KH"
        }
        Rule::deck_sets | Rule::deck_ranks | Rule::deck_kinds => {
            "cards such as Q*4, `ranks 2..6 suits S H` or `sets 1..13 of 4`"
        }
        Rule::visibility | Rule::seen_by => "`public`, `hidden` or `seen-by` with players",
        Rule::pile_holds => "`holds` with the cards the pile can hold, such as `holds P N`",
        Rule::deal_part => "a place and its cards, such as `1: Q`",
        Rule::agents_item
        | Rule::props_item
        | Rule::world_item
        | Rule::actual_item
        | Rule::relation_item
        | Rule::events_item
        | Rule::pre_item
        | Rule::post_item => {
            "a block line (agents, props, world, events, pre, post, a relation or actual)"
        }
        Rule::partition | Rule::cell | Rule::arrows | Rule::arrow_pair => {
            "a relation, such as {w1 w2} {w3} or w1->w2"
        }
        Rule::group => "a group, such as {1,2}",
        Rule::set_arg | Rule::card_arg | Rule::seq_player | Rule::hash | Rule::reserved => "",
        Rule::macro_args => "arguments, such as (Anne, 3)",
        Rule::let_params => "parameters, such as (a, b)",
        Rule::quant_op | Rule::quant_all | Rule::quant_any => "a formula",
        Rule::domain | Rule::dom_players | Rule::dom_cards | Rule::dom_list => {
            "a range such as 0..6, `players`, `cards` or a list such as {Anne, Bill}"
        }
        Rule::whole_model => "`all`",
        Rule::arith | Rule::term | Rule::factor | Rule::arith_num | Rule::arith_name => {
            "a term, such as x + y"
        }
        Rule::arith_cmp | Rule::arith_gt => "a comparison: <, <=, =, !=, >= or >",
        Rule::add_op | Rule::mul_op => "an operator such as + or *",
        Rule::kv_terms => "terms in parentheses, such as (x, y)",
        Rule::value_item => "a value, such as x = 4",
        Rule::unseen_by => "`unseen-by` and players",
        Rule::send_lost => "`lost`",
        Rule::count_where | Rule::worlds_where => "`where` and a formula",
        Rule::question_who => "`who knows` and a formula",
        Rule::question_considers => "`considers` and a player",
        Rule::question_worlds => "`worlds`, or `worlds where` and a formula",
        Rule::per_card => "`for` and a card",
        Rule::assign => "an assignment, such as q := true",
        Rule::draw_from => "`from` and a pile",
        Rule::game_mv | Rule::move_word => "a move",
        Rule::move_arg => "a player, a card or a slot such as 1.2",
        Rule::builtin => "",
        Rule::export_for
        | Rule::export_only
        | Rule::export_agents
        | Rule::export_all
        | Rule::export_limit
        | Rule::export_complete
        | Rule::export_hide
        | Rule::export_shade => {
            "an export option: for CARD, only PLAYER, agents 1,2, all, limit N, complete, hide PILE or shade PLAYER"
        }
        _ => return keyword_or_other(rule),
    };
    s.to_string()
}

/// `kw_seen_by` is "`seen-by`"; other rules are "a formula" (operators) or their name.
fn keyword_or_other(rule: Rule) -> String {
    let name = format!("{rule:?}");
    match name.strip_prefix("kw_") {
        Some(k) => format!("`{}`", k.replace('_', "-")),
        None if name.ends_with("_mv") => "a move".to_string(),
        None => "a formula".to_string(),
    }
}

/// A hint for common mistakes.
fn help(ctx: &Ctx, pos: usize, positives: &[Rule]) -> Option<String> {
    let text = &ctx.piece.text;
    let first_word = text.split_whitespace().next().unwrap_or("");
    if positives.contains(&Rule::colon) && first_word == "deal" {
        let before = text[..pos].trim();
        return Some(format!("write `{before}: {}`", text[pos..].trim()));
    }
    if positives.contains(&Rule::close_quote) {
        return Some("this text is never closed: end it with `\"`".into());
    }
    if positives.contains(&Rule::string) {
        let rest = text[pos..].trim();
        return Some(format!(
            "put the text in double quotes: `{first_word} \"{rest}\"`"
        ));
    }
    if positives.contains(&Rule::count_num) {
        return Some("a count compares with a number: `hand1(Q) >= 2`".into());
    }
    if positives.contains(&Rule::cmp) && first_word == "expect" {
        return Some("write e.g. `expect considers 3 = 4` or `expect worlds >= 2`".into());
    }
    if let Some(h) = spaced_card(text, pos) {
        return Some(h);
    }
    if let Some(h) = stray_closer(ctx, pos).or_else(|| block_typo(ctx, pos)) {
        return Some(h);
    }
    ctx.piece
        .unclosed
        .last()
        .map(|&(_, c)| format!("this `{c}` is never closed"))
}

/// `hand3 (6S)`: the card must follow the name without a space.
fn spaced_card(text: &str, pos: usize) -> Option<String> {
    let rest = &text[pos..];
    let before = text[..pos].trim_end();
    if !rest.starts_with('(') || before.len() == pos {
        return None;
    }
    let name = before.rsplit([' ', '\t']).next()?;
    let close = rest.find(')')?;
    let ok = name
        .chars()
        .all(|c| c.is_alphanumeric() || "_.#[]".contains(c));
    (ok && !name.is_empty()).then(|| {
        format!(
            "write the card right after the name: `{name}{}`",
            &rest[..=close]
        )
    })
}

/// "this `)` closes nothing" when the closer at `pos` has no opener.
fn stray_closer(ctx: &Ctx, pos: usize) -> Option<String> {
    let text = &ctx.piece.text;
    let c = text[pos..].chars().next()?;
    let open = match c {
        ')' => '(',
        ']' => '[',
        '}' => '{',
        _ => return None,
    };
    let opened = text[..pos].matches(open).count();
    let closed = text[..pos].matches(c).count();
    (opened <= closed)
        .then(|| format!("this `{c}` closes nothing: remove it or add a `{open}` before it"))
}

/// "did you mean `agents`?" for a misspelt line of a block.
fn block_typo(ctx: &Ctx, pos: usize) -> Option<String> {
    let text = &ctx.piece.text;
    if !text.trim_start().starts_with("model") && !text.trim_start().starts_with("event") {
        return None;
    }
    let line_start = text[..pos].rfind(['\n', ';', '{']).map_or(0, |i| i + 1);
    let word = text[line_start..].split_whitespace().next()?;
    let word = word.trim_end_matches(':');
    if BLOCK_ITEMS.contains(&word) {
        return None;
    }
    nearest(word, BLOCK_ITEMS).map(|k| format!("did you mean `{k}`?"))
}

/// The keyword nearest to `word`, if it is close enough.
fn nearest(word: &str, keywords: &[&'static str]) -> Option<&'static str> {
    let limit = if word.chars().count() <= 3 { 1 } else { 2 };
    keywords
        .iter()
        .map(|k| (strsim::levenshtein(word, k), *k))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}
