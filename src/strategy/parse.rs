//! Reading a strategy's text: the header, the rules, their templates,
//! guards and scores. Guards and score formulas are checked by the
//! scenario language's own formula parser (after the quantifiers are
//! expanded over a placeholder domain), so a strategy's formulas are
//! exactly the language's formulas.

use crate::diag::{Diagnostic, Span};
use crate::syntax::parse_formula;

use super::expand::{expand_placeholder, functions, substitute, Placeholder};

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
            .any(|r| r.template.words.first().is_some_and(|w| w == "glimpse"))
    }
}

/// A move template: the words of a move, with `me`, `_` and variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The words (`ask`, `me`, `x`, `r`); empty for `any`.
    pub words: Vec<String>,
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

/// Parses a strategy's text.
pub fn parse(src: &str) -> Result<Strategy, Diagnostic> {
    let mut header: Option<(String, String)> = None;
    let mut rules = Vec::new();
    for (text, span) in logical_lines(src) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("strategy ") {
            header = Some(parse_header(rest, span)?);
        } else if let Some(rest) = trimmed.strip_prefix("rule ") {
            if header.is_none() {
                return Err(
                    Diagnostic::error("strategy-header", "a rule before the header", span)
                        .with_help("start the file with `strategy NAME for GAME`"),
                );
            }
            rules.push(parse_rule(rest, span)?);
        } else {
            return Err(Diagnostic::error(
                "strategy-line",
                "expected `strategy NAME for GAME` or `rule NAME: MOVE [when GUARD] [prefer SCORE]`",
                span,
            )
            .with_label("not a strategy line"));
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

/// Lines without comments, joined at a trailing `\`, with their spans.
fn logical_lines(src: &str) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut pending: Option<(String, usize)> = None;
    let mut offset = 0;
    for raw in src.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = strip_comment(raw.trim_end_matches(['\n', '\r']));
        let (text, more) = match line.trim_end().strip_suffix('\\') {
            Some(t) => (t.to_string(), true),
            None => (line.to_string(), false),
        };
        let (mut acc, first) = pending.take().unwrap_or((String::new(), start));
        acc.push(' ');
        acc.push_str(&text);
        if more {
            pending = Some((acc, first));
        } else {
            let end = start + line.trim_end().len();
            out.push((acc, Span::new(first, end.max(first))));
        }
    }
    if let Some((acc, first)) = pending {
        out.push((acc, Span::new(first, src.len())));
    }
    out
}

/// Cuts a `#` comment (a `#` followed by a space or the end of the line).
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && bytes.get(i + 1).is_none_or(|c| c.is_ascii_whitespace()) {
            return &line[..i];
        }
    }
    line
}

fn parse_header(rest: &str, span: Span) -> Result<(String, String), Diagnostic> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    match words.as_slice() {
        [name, "for", game] => Ok((name.to_string(), game.to_string())),
        _ => Err(
            Diagnostic::error("strategy-header", "a malformed strategy header", span)
                .with_help("write `strategy NAME for GAME`, e.g. `strategy greedy for kwartet`"),
        ),
    }
}

fn parse_rule(rest: &str, span: Span) -> Result<Rule, Diagnostic> {
    let (head, body) = rest.split_once(':').ok_or_else(|| {
        Diagnostic::error("strategy-rule", "a rule needs `:` after its name", span)
            .with_help("write `rule NAME: MOVE [when GUARD] [prefer SCORE]`")
    })?;
    let (name, chance) = parse_rule_head(head, span)?;
    let (template_text, guard, score_text) = split_body(body);
    let template = parse_template(template_text, span)?;
    let guard = guard.map(str::trim).map(str::to_string);
    let placeholders = placeholders(&template);
    if let Some(g) = &guard {
        check_formula(g, &placeholders, span, "guard")?;
    }
    let score = match score_text {
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

fn parse_rule_head(head: &str, span: Span) -> Result<(String, Option<(u32, u32)>), Diagnostic> {
    let words: Vec<&str> = head.split_whitespace().collect();
    let bad = || {
        Diagnostic::error("strategy-rule", "a malformed rule name", span)
            .with_help("write `rule NAME:` or `rule NAME chance 1/3:`")
    };
    match words.as_slice() {
        [name] => Ok((name.to_string(), None)),
        [name, "chance", frac] => {
            let (n, d) = frac.split_once('/').ok_or_else(bad)?;
            let (n, d): (u32, u32) = (n.parse().map_err(|_| bad())?, d.parse().map_err(|_| bad())?);
            if d == 0 || n > d {
                return Err(bad().with_label("a chance is N/D with 0 <= N <= D and D > 0"));
            }
            Ok((name.to_string(), Some((n, d))))
        }
        _ => Err(bad()),
    }
}

/// Splits `TEMPLATE [when GUARD] [prefer SCORE]` at the keywords.
fn split_body(body: &str) -> (&str, Option<&str>, Option<&str>) {
    let when = find_word(body, "when");
    let prefer = find_word(body, "prefer");
    let template_end = [when, prefer]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(body.len());
    let guard = when.map(|w| &body[w + 4..prefer.filter(|&p| p > w).unwrap_or(body.len())]);
    let score = prefer.map(|p| &body[p + 6..]);
    (&body[..template_end], guard, score)
}

/// The first occurrence of `word` as a whole word at bracket depth 0.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && bytes[i..].starts_with(word.as_bytes()) {
            let before = i == 0 || !is_word(bytes[i - 1]);
            let after = bytes.get(i + word.len()).is_none_or(|&c| !is_word(c));
            if before && after {
                return Some(i);
            }
        }
    }
    None
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn parse_template(text: &str, span: Span) -> Result<Template, Diagnostic> {
    let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    match words.first().map(String::as_str) {
        None => Err(
            Diagnostic::error("strategy-rule", "a rule without a move", span)
                .with_help("write the move after `:`, e.g. `ask me x r`, or `any`"),
        ),
        Some("any") if words.len() == 1 => Ok(Template { words: Vec::new() }),
        Some(_) => Ok(Template { words }),
    }
}

/// Every lower-case run of the template's words after the move's name
/// (its variables, and `me`), bound to `1` for the syntax check.
fn placeholders(template: &Template) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for word in template.words.iter().skip(1) {
        for run in word.split(|c: char| !c.is_ascii_alphanumeric()) {
            if !run.is_empty() && run.chars().all(|c| c.is_ascii_lowercase()) {
                out.push((run.to_string(), "1".to_string()));
            }
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

/// Parses `known A + [φ] - 2 ...`.
fn parse_score(
    text: &str,
    placeholders: &[(String, String)],
    span: Span,
) -> Result<Vec<Term>, Diagnostic> {
    let mut terms = Vec::new();
    for (sign, part) in split_terms(text) {
        let (factor, part) = coefficient(part.trim());
        let sign = sign * factor;
        let term = if let Some(atom) = part.strip_prefix("known ") {
            check_formula(
                &format!("{} >= 1", atom.trim()),
                placeholders,
                span,
                "score",
            )?;
            Term::Known {
                atom: atom.trim().to_string(),
                sign,
            }
        } else if let Some(inner) = part.strip_prefix('[').and_then(|p| p.strip_suffix(']')) {
            check_formula(inner, placeholders, span, "score")?;
            Term::Holds {
                formula: inner.trim().to_string(),
                sign,
            }
        } else if let Some(term) = card_value(part, sign) {
            term
        } else if let Ok(n) = part.parse::<i64>() {
            Term::Const(sign * n)
        } else {
            return Err(Diagnostic::error(
                "strategy-score",
                format!("`{part}` is not a score term"),
                span,
            )
            .with_help("a score adds `known ATOM`, `[FORMULA]`, `points(c)`, `strength(c)` and integers with + and -"));
        };
        terms.push(term);
    }
    Ok(terms)
}

/// `points(c)`, `strength(c)`.
fn card_value(part: &str, sign: i64) -> Option<Term> {
    let (what, rest) = if let Some(r) = part.strip_prefix("points(") {
        (CardValue::Points, r)
    } else {
        (CardValue::Strength, part.strip_prefix("strength(")?)
    };
    let var = rest.strip_suffix(')')?.trim();
    var.chars()
        .all(|c| c.is_ascii_lowercase())
        .then(|| Term::Card {
            what,
            var: var.to_string(),
            sign,
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

/// `3*TERM` → (3, TERM); a term without a factor has factor 1.
fn coefficient(part: &str) -> (i64, &str) {
    match part.split_once('*') {
        Some((n, rest)) if n.trim().parse::<i64>().is_ok() && !rest.trim().is_empty() => {
            (n.trim().parse().expect("checked"), rest.trim())
        }
        _ => (1, part),
    }
}

/// Splits a score at `+` and `-` outside brackets (not the `-` of `->`).
fn split_terms(text: &str) -> Vec<(i64, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut sign, mut start) = (0i32, 1i64, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'+' | b'-' if depth == 0 && bytes.get(i + 1) != Some(&b'>') => {
                let part = text[start..i].trim();
                if !part.is_empty() {
                    out.push((sign, part.to_string()));
                }
                sign = if b == b'-' { -1 } else { 1 };
                start = i + 1;
            }
            _ => {}
        }
    }
    let part = text[start..].trim();
    if !part.is_empty() {
        out.push((sign, part.to_string()));
    }
    out
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
