//! Reading a strategy's text: the header, the rules, their moves, guards
//! and scores. The file is read by its pest grammar
//! (`grammar/strategy.pest`, one parser with the scenario's
//! `grammar/dealer.pest`): lines, a rule's head, its move's words and set
//! cards, and its guard and score are the grammar's, never found by
//! splitting text; a guard and a score's formulas are the scenario
//! language's `formula` and `atom` rules, built into formulas
//! ([`FormulaTemplate`]) when the file is read. Comments and `\`
//! continuations are blanked first ([`blanked`]), keeping every offset; a
//! line the grammar does not read is an error at the place it stopped.

use crate::diag::{Diagnostic, Span};
use crate::syntax::GrammarRule as R;

pub use super::template::Template as FormulaTemplate;

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
    /// The guard (`None`: always).
    pub guard: Option<FormulaTemplate>,
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
        /// The count atom (`hand_x(r)`).
        atom: FormulaTemplate,
        /// +1 or -1.
        sign: i64,
    },
    /// `[φ]`: 1 when φ holds, times the sign.
    Holds {
        /// The formula.
        formula: FormulaTemplate,
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

type Pair<'a> = pest::iterators::Pair<'a, R>;

/// Parses a strategy's text.
pub fn parse(src: &str) -> Result<Strategy, Diagnostic> {
    let text = blanked(src);
    let mut start = 0;
    for line in text.split('\n') {
        crate::syntax::strategy_line_limits(&text, start, line).map_err(|e| {
            let mut d = e.to_diagnostic();
            d.code = "strategy-syntax";
            d
        })?;
        start += line.len() + 1;
    }
    let file = crate::syntax::strategy_file(&text)
        .map_err(|e| grammar_error(&e, 0))?
        .next()
        .ok_or_else(|| Diagnostic::error("strategy-syntax", "no strategy", Span::new(0, 0)))?;
    let mut header: Option<(String, String)> = None;
    let mut rules = Vec::new();
    for line in file.into_inner() {
        let span = span_of(&line);
        match line.as_rule() {
            R::s_header => {
                if header.is_some() {
                    return Err(Diagnostic::error(
                        "strategy-header",
                        "a second `strategy NAME for GAME` line",
                        span,
                    )
                    .with_help("a file holds one strategy: write its header once, first"));
                }
                let mut names = line
                    .into_inner()
                    .filter(|p| p.as_rule() == R::s_name)
                    .map(|p| p.as_str().to_string());
                header = Some((
                    names.next().unwrap_or_default(),
                    names.next().unwrap_or_default(),
                ));
            }
            R::s_rule => {
                if header.is_none() {
                    return Err(Diagnostic::error(
                        "strategy-header",
                        "a rule before the header",
                        span,
                    )
                    .with_help("start the file with `strategy NAME for GAME`"));
                }
                rules.push(rule(&text, line, span)?);
            }
            R::s_stray => return Err(stray(&text, &line, span)),
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

/// The file with its comments (`#` before a blank or the line's end, to
/// the line's end) and its continuations (a `\` last on a line, and the
/// line break after it) blanked: every byte of them a space, so that the
/// grammar's offsets are the file's and a rule continued over lines is
/// one line.
pub(crate) fn blanked(src: &str) -> String {
    let bytes = src.as_bytes();
    let mut out = bytes.to_vec();
    let mut line_start = 0;
    for i in 0..=bytes.len() {
        if i < bytes.len() && bytes[i] != b'\n' {
            continue;
        }
        let line = &bytes[line_start..i];
        let comment = (0..line.len()).find(|&k| {
            line[k] == b'#' && matches!(line.get(k + 1), None | Some(b' ' | b'\t' | b'\r'))
        });
        let mut end = i;
        if let Some(k) = comment {
            end = line_start + k;
            out[end..i].fill(b' ');
        }
        while end > line_start && matches!(out[end - 1], b' ' | b'\t' | b'\r') {
            end -= 1;
        }
        if end > line_start && out[end - 1] == b'\\' && i < bytes.len() {
            out[end - 1..=i].fill(b' ');
        }
        line_start = i + 1;
    }
    // Only ASCII bytes and whole lines' tails were replaced by spaces.
    String::from_utf8(out).unwrap_or_else(|_| src.to_string())
}

fn span_of(pair: &Pair<'_>) -> Span {
    Span::new(pair.as_span().start(), pair.as_span().end())
}

/// A line that is neither a header nor a rule: one that starts as a
/// header or a rule is read again as one, for the place the grammar
/// stopped at and what it expected there.
fn stray(src: &str, line: &Pair<'_>, span: Span) -> Diagnostic {
    let code = match line.clone().into_inner().next().map(|p| p.as_rule()) {
        Some(R::s_kw_strategy) => "strategy-header",
        Some(R::s_kw_rule) => "strategy-rule",
        _ => return Diagnostic::error(
            "strategy-line",
            "expected `strategy NAME for GAME` or `rule NAME: MOVE [when GUARD] [prefer SCORE]`",
            span,
        )
        .with_label("not a strategy line"),
    };
    let (mut d, in_score) = match crate::syntax::strategy_line(&src[span.start..]) {
        Err(e) => {
            let score = matches!(&e.variant, pest::error::ErrorVariant::ParsingError { positives, .. }
                if positives.iter().any(|r| matches!(r, R::s_term | R::s_kw_known | R::s_points)));
            let mut d = grammar_error(&e, span.start);
            if in_formula(&e) {
                d.code = "strategy-formula";
            }
            (d, score)
        }
        Ok(()) => (Diagnostic::error(code, "a malformed line", span), false),
    };
    let help = if d.code == "strategy-formula" {
        "a guard or a score's formula is a formula of the scenario language, e.g. `K_me hand_x(r) & hand_me(r) >= 2`"
    } else if code == "strategy-header" {
        "write `strategy NAME for GAME`, e.g. `strategy greedy for kwartet`"
    } else if in_score {
        "a score adds `known ATOM`, `[FORMULA]`, `points(c)`, `strength(c)` and integers, with `+`, `-` and factors `3*`"
    } else {
        "write `rule NAME [chance N/D]: MOVE [when GUARD] [prefer SCORE]`, e.g. `rule book: ask me x r when K_me hand_x(r) prefer known hand_x(r)`"
    };
    if d.code != "strategy-formula" {
        d.code = code;
    }
    d.with_help(help)
}

/// The grammar stopped inside a guard's or a score's formula.
fn in_formula(e: &pest::error::Error<R>) -> bool {
    matches!(&e.variant, pest::error::ErrorVariant::ParsingError { positives, .. }
        if positives.iter().any(|r| matches!(r, R::unary | R::paren | R::k_true | R::rparen | R::rbrack | R::s_domain | R::count | R::op_and)))
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
            let mut words: Vec<String> = positives.iter().filter_map(|r| describe(*r)).collect();
            words.dedup();
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
            R::s_name => "a name",
            R::s_int => "a number",
            R::kw_for => "`for`",
            R::s_kw_rule => "`rule`",
            R::s_kw_strategy => "`strategy`",
            R::s_chance => "`chance N/D`",
            R::s_move | R::s_move_word => "a move",
            R::s_guard | R::s_kw_when => "`when`",
            R::s_score | R::s_kw_prefer => "`prefer`",
            R::s_term => "a score term",
            R::s_kw_known => "`known ATOM`",
            R::s_points => "`points(VAR)`",
            R::s_strength => "`strength(VAR)`",
            R::s_sign => "`+` or `-`",
            R::s_set_part => "`*`, a number or a variable",
            R::s_var => "a variable",
            R::rparen => "`)`",
            R::rbrack => "`]`",
            R::colon => "`:`",
            R::s_domain => "a domain (`players`, `others`, `ranks` or a range)",
            R::formula | R::atom | R::unary | R::paren | R::s_quant => "a formula",
            _ => return None,
        }
        .to_string(),
    )
}

fn rule(src: &str, pair: Pair<'_>, span: Span) -> Result<Rule, Diagnostic> {
    let mut name = String::new();
    let mut chance = None;
    let mut template = Template { words: Vec::new() };
    let mut guard = None;
    let mut score = Vec::new();
    for part in pair.into_inner() {
        match part.as_rule() {
            R::s_name => name = part.as_str().to_string(),
            R::s_chance => chance = Some(parse_chance(part)?),
            R::s_move => template = parse_template(part),
            R::s_guard => {
                if let Some(f) = part.into_inner().find(|p| p.as_rule() == R::formula) {
                    guard = Some(FormulaTemplate::read(src, f)?);
                }
            }
            R::s_score => score = parse_score(src, part)?,
            _ => {}
        }
    }
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
        .filter(|p| p.as_rule() == R::s_int)
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
            R::s_set_card => {
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

/// Reads `known A + [φ] - 2*points(c) ...`, each formula by the grammar.
fn parse_score(src: &str, pair: Pair<'_>) -> Result<Vec<Term>, Diagnostic> {
    let mut terms = Vec::new();
    let mut sign = 1;
    for part in pair.into_inner() {
        match part.as_rule() {
            R::s_sign => sign = if part.as_str() == "-" { -1 } else { 1 },
            R::s_term => {
                terms.push(score_term(src, part, sign)?);
                sign = 1;
            }
            _ => {}
        }
    }
    Ok(terms)
}

fn score_term(src: &str, pair: Pair<'_>, mut sign: i64) -> Result<Term, Diagnostic> {
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
    let inner = |rule: R| value.clone().into_inner().find(|p| p.as_rule() == rule);
    Ok(match value.as_rule() {
        R::s_int => Term::Const(
            sign * value
                .as_str()
                .parse::<i64>()
                .map_err(|_| too_large(value))?,
        ),
        R::s_known => {
            let atom = inner(R::atom).expect("the grammar's atom");
            let atom = FormulaTemplate::read(src, atom)?;
            if !matches!(
                atom.formula().kind,
                crate::syntax::ast::FormulaKind::Named { count: None, .. }
            ) {
                return Err(Diagnostic::error(
                    "strategy-score",
                    format!(
                        "`known {}` takes a count atom such as `hand_x(r)`",
                        atom.formula()
                    ),
                    span_of(value),
                ));
            }
            Term::Known { atom, sign }
        }
        R::s_holds => {
            let formula = inner(R::formula).expect("the grammar's formula");
            Term::Holds {
                formula: FormulaTemplate::read(src, formula)?,
                sign,
            }
        }
        R::s_card_value => {
            let mut inner = value.clone().into_inner();
            let what = match inner.next().expect("points or strength").as_rule() {
                R::s_points => CardValue::Points,
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

    /// The formula as the grammar read it, printed the way the scenario
    /// language prints the same text parsed as a scenario's formula.
    fn shown(t: &Option<FormulaTemplate>) -> String {
        let t = t.as_ref().expect("a formula");
        t.formula().to_string()
    }

    /// A rule with every part written: name, chance, move, guard, score.
    const RULE: &str = "strategy s for gofish\nrule ask chance 1/2: ask me x r when ¬hand_x(r) ∧ K_me hand_me(r) prefer known hand_x(r) + [K_me ¬hand_x(r)] - 2*points(r) # ok\n";

    #[test]
    fn formulas_may_use_the_languages_symbols() {
        let s = parse(RULE).unwrap();
        let rule = &s.rules[0];
        assert_eq!(shown(&rule.guard), "!hand_x(r) & K_me hand_me(r)");
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
            shown(&block.guard),
            "(hand_me(rank(c)) = 0) & any y in {others}: K_me (hand_y(rank(c)) >= 1)"
        );
        let [Term::Known { atom, sign: -16 }, Term::Holds { formula, sign: -1 }, Term::Const(2)] =
            block.score.as_slice()
        else {
            panic!("{:?}", block.score);
        };
        assert_eq!(shown(&Some(atom.clone())), "hand_me(rank(c))");
        assert_eq!(shown(&Some(formula.clone())), "K_me hand_me(c)");
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
                "strategy-formula",
                "\n",
            ),
            (
                "strategy s for g\nrule a: ask me x r when K_me (r\n",
                "strategy-formula",
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
                "strategy-formula",
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
