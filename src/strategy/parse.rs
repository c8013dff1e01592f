//! Reading a strategy's text: the header, the rules, their templates,
//! guards and scores. The file is read by its pest grammar
//! (`grammar/strategy.pest`): lines, continuations, comments, a rule's
//! head, its move's words and set cards, and the extent of its guard and
//! of each score term are the grammar's, never found by splitting text; a
//! line the grammar does not read is an error at the place it stopped.
//! Guards and score formulas are then checked by the scenario language's
//! own formula parser (after the quantifiers are expanded over a
//! placeholder domain), so a strategy's formulas are exactly the
//! language's formulas.

use crate::diag::{Diagnostic, Span};
use crate::syntax::parse_formula;

use super::expand::{expand_placeholder, functions, substitute, Placeholder};
use grammar::{Rule as R, StrategyParser};

/// A strategy: its name, its game and its rules in order.
#[derive(Clone, Debug)]
pub struct Strategy {
    /// The name after `strategy`.
    pub name: String,
    /// The game after `for` (`gofish`, `kwartet`, ...).
    pub game: String,
    /// The rules, tried in order.
    pub rules: Vec<Rule>,
}

/// One rule: `rule NAME [chance N/D]: TEMPLATE [when GUARD] [prefer SCORE]`.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The rule's name (shown when it fires).
    pub name: String,
    /// Where the rule is written.
    pub span: Span,
    /// `chance N/D`: the rule is tried with probability N/D.
    pub chance: Option<(u32, u32)>,
    /// The move template.
    pub template: Template,
    /// The guard, as written (`None`: always).
    pub guard: Option<String>,
    /// The score's terms (empty: every move of the rule scores alike).
    pub score: Vec<Term>,
}

impl Strategy {
    /// Whether the strategy glimpses (the Cabo-like game's psychic): a
    /// player it plays must be declared `psychic` for the referee to
    /// offer the move.
    pub fn psychic(&self) -> bool {
        self.rules
            .iter()
            .any(|r| r.template.words.first().and_then(Word::text) == Some("glimpse"))
    }
}

/// A move template: the words of a move, with `me`, `_` and variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The words (`ask`, `me`, `x`, `r`, `<t,v>`, `:`); empty for `any`.
    pub words: Vec<Word>,
}

/// A word of a move as the grammar read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Word {
    /// A word: the move's, an argument, `_`, or the keywords `from`,
    /// `:` and `->`.
    Text(String),
    /// A set card `<t,v>`: its set and its member.
    Set(SetPart, SetPart),
}

/// The set or member of a set card in a move: `*`, a number or a variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetPart {
    /// `*`: any.
    Any,
    /// A number.
    Num(u32),
    /// A variable.
    Var(String),
}

impl Word {
    /// The word's text, if it is no set card.
    pub fn text(&self) -> Option<&str> {
        match self {
            Word::Text(t) => Some(t),
            Word::Set(..) => None,
        }
    }
}

impl std::fmt::Display for SetPart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetPart::Any => f.write_str("*"),
            SetPart::Num(n) => write!(f, "{n}"),
            SetPart::Var(v) => f.write_str(v),
        }
    }
}

impl std::fmt::Display for Word {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Word::Text(t) => f.write_str(t),
            Word::Set(a, b) => write!(f, "<{a},{b}>"),
        }
    }
}

impl std::fmt::Display for Template {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.words.is_empty() {
            return f.write_str("any");
        }
        for (i, w) in self.words.iter().enumerate() {
            if i > 0 && w.text() != Some(":") {
                f.write_str(" ")?;
            }
            write!(f, "{w}")?;
        }
        Ok(())
    }
}

/// A term of a score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `known ATOM`: the largest n with `K_me ATOM >= n`, times the sign.
    Known {
        /// The count atom as written (`hand_x(r)`).
        atom: String,
        /// +1 or -1.
        sign: i64,
    },
    /// `[φ]`: 1 when φ holds, times the sign.
    Holds {
        /// The formula as written.
        formula: String,
        /// +1 or -1.
        sign: i64,
    },
    /// The referee's `points(VAR)` or `strength(VAR)` of a bound card.
    Card {
        /// `points` or `strength`.
        what: CardValue,
        /// The variable bound to the card.
        var: String,
        /// `1` or `-1`, times a factor.
        sign: i64,
    },
    /// An integer.
    Const(i64),
}

/// The generated parser of `grammar/strategy.pest` (in a module of its
/// own: its `Rule` is the grammar's).
mod grammar {
    /// The strategy file grammar.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar/strategy.pest"]
    pub(super) struct StrategyParser;
}

type Pair<'a> = pest::iterators::Pair<'a, R>;

/// Parses a strategy's text.
pub fn parse(src: &str) -> Result<Strategy, Diagnostic> {
    use pest::Parser as _;
    let file = StrategyParser::parse(R::file, src)
        .map_err(|e| grammar_error(&e, 0))?
        .next()
        .expect("the file rule");
    let mut header: Option<(String, String)> = None;
    let mut rules = Vec::new();
    for line in file.into_inner() {
        let span = span_of(&line);
        match line.as_rule() {
            R::header => {
                if header.is_some() {
                    return Err(Diagnostic::error(
                        "strategy-header",
                        "a second `strategy NAME for GAME` line",
                        span,
                    )
                    .with_help("a file holds one strategy: write its header once, first"));
                }
                let mut names = line.into_inner().filter(|p| p.as_rule() == R::name);
                let mut next = || names.next().expect("two names").as_str().to_string();
                header = Some((next(), next()));
            }
            R::rule => {
                if header.is_none() {
                    return Err(Diagnostic::error(
                        "strategy-header",
                        "a rule before the header",
                        span,
                    )
                    .with_help("start the file with `strategy NAME for GAME`"));
                }
                rules.push(rule(line, span)?);
            }
            R::stray => return Err(stray(src, &line, span)),
            _ => {}
        }
    }
    let (name, game) = header.ok_or_else(|| {
        Diagnostic::error(
            "strategy-header",
            "no `strategy NAME for GAME` line",
            Span::new(0, 0),
        )
    })?;
    Ok(Strategy { name, game, rules })
}

fn span_of(pair: &Pair<'_>) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end())
}

/// A line that is neither a header nor a rule: one that starts as a
/// header or a rule is read again as one, for the place the grammar
/// stopped at and what it expected there.
fn stray(src: &str, line: &Pair<'_>, span: Span) -> Diagnostic {
    use pest::Parser as _;
    let first = line.as_str().split([' ', '\t', ':']).next().unwrap_or("");
    let code = match first {
        "strategy" => "strategy-header",
        "rule" => "strategy-rule",
        _ => return Diagnostic::error(
            "strategy-line",
            "expected `strategy NAME for GAME` or `rule NAME: MOVE [when GUARD] [prefer SCORE]`",
            span,
        )
        .with_label("not a strategy line"),
    };
    let (mut d, in_score) = match StrategyParser::parse(R::one_line, &src[span.start..]) {
        Err(e) => {
            let score = matches!(&e.variant, pest::error::ErrorVariant::ParsingError { positives, .. }
                if positives.iter().any(|r| matches!(r, R::term | R::kw_known | R::points)));
            (grammar_error(&e, span.start), score)
        }
        Ok(_) => (Diagnostic::error(code, "a malformed line", span), false),
    };
    let help = if code == "strategy-header" {
        "write `strategy NAME for GAME`, e.g. `strategy greedy for kwartet`"
    } else if in_score {
        "a score adds `known ATOM`, `[FORMULA]`, `points(c)`, `strength(c)` and integers, with `+`, `-` and factors `3*`"
    } else {
        "write `rule NAME [chance N/D]: MOVE [when GUARD] [prefer SCORE]`, e.g. `rule book: ask me x r when K_me hand_x(r) prefer known hand_x(r)`"
    };
    d.code = code;
    d.with_help(help)
}

/// A pest error as a diagnostic at its place (shifted by `offset`).
fn grammar_error(e: &pest::error::Error<R>, offset: usize) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let words: Vec<String> = positives.iter().filter_map(|r| describe(*r)).collect();
            if words.is_empty() {
                "unexpected text".to_string()
            } else {
                format!("expected {}", words.join(" or "))
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    Diagnostic::error(
        "strategy-syntax",
        expected.clone(),
        Span::new(offset + start, offset + end),
    )
    .with_label(expected)
}

/// What a grammar rule is, in words (`None`: not worth naming).
fn describe(which: R) -> Option<String> {
    Some(
        match which {
            R::name => "a name",
            R::int => "a number",
            R::kw_for => "`for`",
            R::kw_rule => "`rule`",
            R::kw_strategy => "`strategy`",
            R::chance => "`chance N/D`",
            R::move_ | R::move_word => "a move",
            R::guard | R::kw_when => "`when`",
            R::score | R::kw_prefer => "`prefer`",
            R::text | R::atom | R::formula_in => "a formula",
            R::term => "a score term",
            R::kw_known => "`known ATOM`",
            R::points => "`points(VAR)`",
            R::strength => "`strength(VAR)`",
            R::sign => "`+` or `-`",
            R::inner_close => "a closing bracket",
            R::set_part => "`*`, a number or a variable",
            R::var => "a variable",
            _ => return None,
        }
        .to_string(),
    )
}

fn rule(pair: Pair<'_>, span: Span) -> Result<Rule, Diagnostic> {
    let mut name = String::new();
    let mut chance = None;
    let mut template = Template { words: Vec::new() };
    let mut guard: Option<String> = None;
    let mut score_pair = None;
    for part in pair.into_inner() {
        match part.as_rule() {
            R::name => name = part.as_str().to_string(),
            R::chance => chance = Some(parse_chance(part)?),
            R::move_ => template = parse_template(part),
            R::guard => {
                let text = part.into_inner().find(|p| p.as_rule() == R::text);
                guard = text.map(written);
            }
            R::score => score_pair = Some(part),
            _ => {}
        }
    }
    let placeholders = placeholders(&template);
    if let Some(g) = &guard {
        check_formula(g, &placeholders, span, "guard")?;
    }
    let score = match score_pair {
        Some(s) => parse_score(s, &placeholders, span)?,
        None => Vec::new(),
    };
    Ok(Rule {
        name,
        span,
        chance,
        template,
        guard,
        score,
    })
}

fn parse_chance(pair: Pair<'_>) -> Result<(u32, u32), Diagnostic> {
    let span = span_of(&pair);
    let bad = || {
        Diagnostic::error("strategy-rule", "a malformed chance", span)
            .with_help("write `rule NAME:` or `rule NAME chance 1/3:`")
    };
    let nums: Vec<Option<u32>> = pair
        .into_inner()
        .filter(|p| p.as_rule() == R::int)
        .map(|p| p.as_str().parse().ok())
        .collect();
    match nums.as_slice() {
        [Some(n), Some(d)] if *d > 0 && n <= d => Ok((*n, *d)),
        _ => Err(bad().with_label("a chance is N/D with 0 <= N <= D and D > 0")),
    }
}

/// The move's words: its word, then each argument (a set card written
/// `<t,v>`, the keywords `:` and `->` words of their own); `any` alone is
/// every legal move (no words).
fn parse_template(pair: Pair<'_>) -> Template {
    let words: Vec<Word> = pair
        .into_inner()
        .map(|p| match p.as_rule() {
            R::set_card => {
                let parts: Vec<Option<SetPart>> = p.clone().into_inner().map(set_part).collect();
                match parts.as_slice() {
                    [Some(a), Some(b)] => Word::Set(a.clone(), b.clone()),
                    // A number too large for a set: a name no table has.
                    _ => Word::Text(p.as_str().to_string()),
                }
            }
            _ => Word::Text(p.as_str().to_string()),
        })
        .collect();
    if let [Word::Text(w)] = words.as_slice() {
        if w == "any" {
            return Template { words: Vec::new() };
        }
    }
    Template { words }
}

fn set_part(pair: Pair<'_>) -> Option<SetPart> {
    let text = pair.as_str();
    Some(match text.as_bytes()[0] {
        b'*' => SetPart::Any,
        b'0'..=b'9' => SetPart::Num(text.parse().ok()?),
        _ => SetPart::Var(text.to_string()),
    })
}

/// A formula's text as the grammar read it: its pieces in order, one
/// space where the file had spaces, a continuation or a comment.
fn written(pair: Pair<'_>) -> String {
    let mut out = String::new();
    let mut end = None;
    for leaf in pair.into_inner().flatten() {
        if leaf.clone().into_inner().next().is_some() {
            continue;
        }
        let s = leaf.as_span();
        if end.is_some_and(|e| e < s.start()) {
            out.push(' ');
        }
        out.push_str(leaf.as_str());
        end = Some(s.end());
    }
    out
}

/// Every lower-case run of the template's words after the move's name
/// (its variables, and `me`), bound to `1` for the syntax check.
fn placeholders(template: &Template) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |v: &str| out.push((v.to_string(), "1".to_string()));
    for word in template.words.iter().skip(1) {
        match word {
            Word::Text(w) if !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()) => add(w),
            Word::Set(a, b) => {
                for part in [a, b] {
                    if let SetPart::Var(v) = part {
                        add(v);
                    }
                }
            }
            Word::Text(_) => {}
        }
    }
    out.push(("me".into(), "1".into()));
    out.push(("others".into(), "1".into()));
    out
}

fn check_formula(
    text: &str,
    placeholders: &[(String, String)],
    span: Span,
    what: &str,
) -> Result<(), Diagnostic> {
    let expanded = expand_placeholder(text)
        .map_err(|m| Diagnostic::error("strategy-formula", format!("in the {what}: {m}"), span))?;
    let expanded = functions(&substitute(&expanded, placeholders), &Placeholder)
        .map_err(|m| Diagnostic::error("strategy-formula", format!("in the {what}: {m}"), span))?;
    parse_formula(&expanded).map(|_| ()).map_err(|e| {
        Diagnostic::error(
            "strategy-formula",
            format!(
                "the {what} `{}` is not a formula: {}",
                text.trim(),
                e.message
            ),
            span,
        )
        .with_help("a guard is a formula of the scenario language, e.g. `K_me hand_x(r)`")
    })
}

/// Reads `known A + [φ] - 2*points(c) ...`, checking each formula.
fn parse_score(
    pair: Pair<'_>,
    placeholders: &[(String, String)],
    span: Span,
) -> Result<Vec<Term>, Diagnostic> {
    let mut terms = Vec::new();
    let mut sign = 1;
    for part in pair.into_inner() {
        match part.as_rule() {
            R::sign => sign = if part.as_str() == "-" { -1 } else { 1 },
            R::term => {
                terms.push(score_term(part, sign, placeholders, span)?);
                sign = 1;
            }
            _ => {}
        }
    }
    Ok(terms)
}

fn score_term(
    pair: Pair<'_>,
    mut sign: i64,
    placeholders: &[(String, String)],
    span: Span,
) -> Result<Term, Diagnostic> {
    let too_large = |p: &Pair<'_>| {
        Diagnostic::error(
            "strategy-score",
            format!("`{}` is too large a number", p.as_str()),
            span_of(p),
        )
    };
    let parts: Vec<Pair<'_>> = pair.into_inner().collect();
    let (value, factor) = match parts.as_slice() {
        [factor, value] => (value, Some(factor)),
        [value] => (value, None),
        _ => unreachable!("the grammar's term"),
    };
    if let Some(f) = factor {
        sign *= f.as_str().parse::<i64>().map_err(|_| too_large(f))?;
    }
    Ok(match value.as_rule() {
        R::int => Term::Const(
            sign * value
                .as_str()
                .parse::<i64>()
                .map_err(|_| too_large(value))?,
        ),
        R::known => {
            let atom = written(
                value
                    .clone()
                    .into_inner()
                    .find(|p| p.as_rule() == R::atom)
                    .expect("an atom"),
            );
            check_formula(&format!("{atom} >= 1"), placeholders, span, "score")?;
            Term::Known { atom, sign }
        }
        R::holds => {
            let formula = written(value.clone().into_inner().next().expect("a formula"));
            check_formula(&formula, placeholders, span, "score")?;
            Term::Holds { formula, sign }
        }
        R::card_value => {
            let mut inner = value.clone().into_inner();
            let what = match inner.next().expect("points or strength").as_rule() {
                R::points => CardValue::Points,
                _ => CardValue::Strength,
            };
            let var = inner.next().expect("a variable").as_str().to_string();
            Term::Card { what, var, sign }
        }
        _ => unreachable!("the grammar's term"),
    })
}

/// Which of a card's values the referee gives (see [`Term::Card`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardValue {
    /// The card's points in the game.
    Points,
    /// How strongly it takes a trick.
    Strength,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule with every part written: name, chance, move, guard, score.
    const RULE: &str = "strategy s for gofish\nrule ask chance 1/2: ask me x r when ¬hand_x(r) ∧ K_me hand_me(r) prefer known hand_x(r) + [K_me ¬hand_x(r)] - 2*points(r) # ok\n";

    #[test]
    fn formulas_may_use_the_languages_symbols() {
        let s = parse(RULE).unwrap();
        let rule = &s.rules[0];
        assert_eq!(rule.guard.as_deref(), Some("¬hand_x(r) ∧ K_me hand_me(r)"));
        assert_eq!(rule.score.len(), 3);
        assert_eq!(rule.chance, Some((1, 2)));
    }

    /// A rule continued over lines (with comments before the breaks) is
    /// read as one: its guard is the text written, one space at each break.
    #[test]
    fn continued_lines_and_comments_are_read_by_the_grammar() {
        let src = "# a comment\nstrategy s for kemps   # the header\n\n\
                   rule block: pick me c \\ # why\n    when hand_me(rank(c)) = 0 & any(y in others: \\\n    K_me hand_y(rank(c)) >= 1) \\\n    prefer -16*known hand_me(rank(c)) - [K_me hand_me(c)] + 2\n\
                   rule open: draw me from open: t\nrule set: ask me x <t,v> when hand_x(<t,v>)\nrule wait: any\n";
        let s = parse(src).unwrap();
        assert_eq!((s.name.as_str(), s.game.as_str()), ("s", "kemps"));
        let names: Vec<&str> = s.rules.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["block", "open", "set", "wait"]);
        let block = &s.rules[0];
        let words = |i: usize| s.rules[i].template.to_string();
        assert_eq!(words(0), "pick me c");
        assert_eq!(
            block.guard.as_deref(),
            Some("hand_me(rank(c)) = 0 & any(y in others: K_me hand_y(rank(c)) >= 1)")
        );
        assert_eq!(
            block.score,
            [
                Term::Known {
                    atom: "hand_me(rank(c))".into(),
                    sign: -16
                },
                Term::Holds {
                    formula: "K_me hand_me(c)".into(),
                    sign: -1
                },
                Term::Const(2)
            ]
        );
        assert_eq!(&src[block.span.start..block.span.start + 10], "rule block");
        assert_eq!(words(1), "draw me from open: t");
        assert_eq!(
            s.rules[2].template.words[3],
            Word::Set(SetPart::Var("t".into()), SetPart::Var("v".into()))
        );
        assert!(s.rules[3].template.words.is_empty());
    }

    /// Each malformed line is refused at its place, with the error's kind.
    #[test]
    fn malformed_lines_are_refused_where_they_go_wrong() {
        for (src, code, at) in [
            ("strategy s for\n", "strategy-header", "\n"),
            (
                "strategy s for g\nstrategy t for g\n",
                "strategy-header",
                "strategy t",
            ),
            (
                "strategy s for g\nrule a ask me\n",
                "strategy-rule",
                "ask me",
            ),
            (
                "strategy s for g\nrule a: ask me x r when\n",
                "strategy-rule",
                "\n",
            ),
            (
                "strategy s for g\nrule a: ask me x r when K_me (r\n",
                "strategy-rule",
                "\n",
            ),
            (
                "strategy s for g\nrule a: any prefer known\n",
                "strategy-rule",
                "\n",
            ),
            (
                "strategy s for g\nrule a: any prefer points(X)\n",
                "strategy-rule",
                "X)",
            ),
            (
                "strategy s for g\nrule a chance 1/0: any\n",
                "strategy-rule",
                "chance",
            ),
            ("strategy s for g\nrules a: any\n", "strategy-line", "rules"),
            (
                "strategy s for g\nrule a: any when hand_me(Q) prefer [K_me\n",
                "strategy-rule",
                "\n",
            ),
        ] {
            let d = parse(src).expect_err(src);
            assert_eq!(d.code, code, "{src}: {d:?}");
            assert!(
                src[d.span.start..].starts_with(at),
                "{src}: at {:?}, not {at:?}: {d:?}",
                &src[d.span.start..]
            );
        }
    }

    /// A non-ASCII character at any place of any part of a rule is read
    /// or refused with an error, never a panic.
    #[test]
    fn any_character_anywhere_is_read_or_refused() {
        let boundaries: Vec<usize> = (0..=RULE.len())
            .filter(|&i| RULE.is_char_boundary(i))
            .collect();
        for c in ["∧", "¬", "é", "→", "😀", "\u{0301}"] {
            for &i in &boundaries {
                let text = format!("{}{c}{}", &RULE[..i], &RULE[i..]);
                if let Err(d) = parse(&text) {
                    assert!(d.span.end <= text.len(), "{text}: {d:?}");
                }
                let cut = format!("{}{c}", &RULE[..i]);
                let _ = parse(&cut);
            }
        }
    }
}
