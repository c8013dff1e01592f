//! From a rule's written formula to a formula of the scenario language:
//! the quantifiers `any(y in D: φ)` and `all(y in D: φ)` become
//! disjunctions and conjunctions over their domain, and the variables
//! (`me`, `others`, the template's variables) are replaced by the names
//! they stand for. A variable is a whole run of letters and digits, so
//! `hand_x(r)` has the variables `x` and `r` (and `hand`, which is no
//! variable), and `K_me` has `me`.

use crate::syntax::{MAX_DEPTH, MAX_STATEMENT_BYTES};

/// Replaces every run of letters and digits equal to a bound variable by
/// its value.
pub fn substitute(text: &str, bindings: &[(String, String)]) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        match bindings.iter().find(|(v, _)| v == run) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(run),
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Replaces every call `NAME(ARGS)` of `text` (a word `NAME` followed by
/// `(`) by what `f` makes of its arguments: `rank(5S)` → `5*`,
/// `is(T21, *T)` → `true`.
pub fn calls(
    text: &str,
    name: &str,
    f: &dyn Fn(&str) -> Result<String, String>,
) -> Result<String, String> {
    let head = format!("{name}(");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = word_at(rest, &head) {
        let open = start + name.len();
        let close = matching(rest, open).ok_or_else(|| format!("a `{head}` is not closed"))?;
        out.push_str(&rest[..start]);
        out.push_str(&f(rest[open + 1..close].trim())?);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The first byte offset where `word` starts a word of `text` (not after
/// a letter, digit or `_`). Compared as bytes, so any character may stand
/// around it.
fn word_at(text: &str, word: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find(|&i| {
        (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
            && bytes[i..].starts_with(word.as_bytes())
    })
}

/// The strategy language's functions of bound cards and names, replaced
/// once the variables are: `rank(c)` and `suit(c)` (the card's rank or
/// suit as a pattern, `5*`, `*S`), `is(c, PATTERN)` (whether the card
/// matches the pattern: `true` or `false`) and `eq(x, y)` (whether two
/// names are the same). `card` gives a card's rank pattern, suit pattern
/// and whether it matches a pattern.
pub fn functions(text: &str, card: &dyn CardFacts) -> Result<String, String> {
    let no_card = |c: &str| format!("`{c}` is no card");
    let text = calls(text, "rank", &|c| card.rank(c).ok_or_else(|| no_card(c)))?;
    let text = calls(&text, "suit", &|c| card.suit(c).ok_or_else(|| no_card(c)))?;
    let text = calls(&text, "is", &|args| {
        let (c, pattern) = args
            .split_once(',')
            .ok_or("write `is(CARD, PATTERN)`, e.g. `is(c, *T)`")?;
        let is = card.is(c.trim(), pattern.trim())?;
        Ok(is.to_string())
    })?;
    calls(&text, "eq", &|args| {
        let (a, b) = args
            .split_once(',')
            .ok_or("write `eq(x, y)`, e.g. `eq(y, Bruno)`")?;
        Ok((a.trim() == b.trim()).to_string())
    })
}

/// What the functions of [`functions`] ask of the deck.
pub trait CardFacts {
    /// The pattern of the card's rank (`5*`).
    fn rank(&self, card: &str) -> Option<String>;
    /// The pattern of the card's suit (`*S`; trumps `*T`).
    fn suit(&self, card: &str) -> Option<String>;
    /// Whether the card matches the pattern.
    fn is(&self, card: &str, pattern: &str) -> Result<bool, String>;
    /// The deck's ranks in deck order (`2` … `6`, or `2` … `A`): the
    /// domain `ranks` of a quantifier.
    fn ranks(&self) -> Vec<String>;
}

/// Any card, any pattern: for checking a formula's syntax before a deal.
#[cfg(test)]
pub(crate) struct Placeholder;

#[cfg(test)]
impl CardFacts for Placeholder {
    fn rank(&self, _: &str) -> Option<String> {
        Some("*".into())
    }
    fn suit(&self, _: &str) -> Option<String> {
        Some("*".into())
    }
    fn is(&self, _: &str, _: &str) -> Result<bool, String> {
        Ok(true)
    }
    fn ranks(&self) -> Vec<String> {
        vec!["1".into()]
    }
}

/// Expands the quantifiers of `text`: `players` and `others` are the
/// players' names and those other than `me`; `ranks` the deck's ranks.
pub fn expand(
    text: &str,
    players: &[String],
    me: &str,
    ranks: &[String],
) -> Result<String, String> {
    let domain = |domain: &str, most: usize| domain_values(domain, players, me, ranks, most);
    let mut budget = MAX_EXPANDED_BYTES;
    expand_with(text, &domain, 0, &mut budget)
}

/// Expands the quantifiers over a one-element domain (`1`), to check a
/// formula's syntax before any game is dealt.
#[cfg(test)]
pub(crate) fn expand_placeholder(text: &str) -> Result<String, String> {
    let one = ["1".to_string()];
    let domain = |domain: &str, most: usize| domain_values(domain, &one, "", &one, most);
    let mut budget = MAX_EXPANDED_BYTES;
    expand_with(text, &domain, 0, &mut budget)
}

type Domain<'a> = dyn Fn(&str, usize) -> Result<Vec<String>, String> + 'a;

/// The most bytes a rule's formula may expand to: a scenario's longest
/// statement ([`MAX_STATEMENT_BYTES`]), which is what the parser reads
/// after the expansion.
pub const MAX_EXPANDED_BYTES: usize = MAX_STATEMENT_BYTES;

/// How deeply quantifiers may nest: each level adds brackets, and the
/// parser reads at most [`MAX_DEPTH`] levels of them.
pub const MAX_QUANTIFIER_DEPTH: usize = MAX_DEPTH / 2;

fn too_large() -> String {
    format!(
        "its quantifiers expand to more than {} bytes, the longest formula dealer reads: use a smaller domain or fewer nested quantifiers",
        crate::diag::thousands(MAX_EXPANDED_BYTES as u64)
    )
}

/// Expands every quantifier of `text`, at nesting `depth`, within
/// `budget` bytes of output: each call counts the bytes it adds to what
/// its inner calls made (which counted theirs), so the expansion stops as
/// soon as the result would grow past [`MAX_EXPANDED_BYTES`], and a range
/// too large for what is left is refused before it is listed.
fn expand_with(
    text: &str,
    domain: &Domain<'_>,
    depth: usize,
    budget: &mut usize,
) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    // The bytes of `out` that inner calls made (and counted).
    let mut made = 0;
    while let Some((start, all)) = find_quantifier(rest) {
        if depth >= MAX_QUANTIFIER_DEPTH {
            return Err(format!(
                "its quantifiers nest more than {MAX_QUANTIFIER_DEPTH} deep, more than dealer reads"
            ));
        }
        let open = start + 3;
        let close = matching(rest, open).ok_or("a quantifier's `(` is not closed")?;
        let inner = &rest[open + 1..close];
        let (head, body) = inner
            .split_once(':')
            .ok_or("write a quantifier as `any(y in players: φ)`")?;
        let (var, dom) = head
            .trim()
            .split_once(" in ")
            .ok_or("write a quantifier as `any(y in players: φ)`")?;
        let var = var.trim();
        // Each value costs at least its copy of the body and ` | ()`.
        let most = *budget / (body.len() + 5).max(1);
        let values = domain(dom.trim(), most)?;
        let mut parts = Vec::with_capacity(values.len());
        for v in &values {
            let body = substitute(body, &[(var.to_string(), v.clone())]);
            let b = expand_with(&body, domain, depth + 1, budget)?;
            made += b.len();
            parts.push(format!("({})", b.trim()));
        }
        let joined = match (parts.is_empty(), all) {
            (true, true) => "true".to_string(),
            (true, false) => "false".to_string(),
            (false, true) => parts.join(" & "),
            (false, false) => parts.join(" | "),
        };
        out.push_str(&rest[..start]);
        out.push('(');
        out.push_str(&joined);
        out.push(')');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    *budget = budget
        .checked_sub(out.len().saturating_sub(made))
        .ok_or_else(too_large)?;
    Ok(out)
}

/// The first `any(` or `all(` that starts a word; whether it is `all`.
fn find_quantifier(text: &str) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find_map(|i| {
        let word_start = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if !word_start {
            return None;
        }
        let rest = &bytes[i..];
        if rest.starts_with(b"any(") {
            Some((i, false))
        } else if rest.starts_with(b"all(") {
            Some((i, true))
        } else {
            None
        }
    })
}

/// The `)` that closes the `(` at `open`.
pub(super) fn matching(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The values of a domain, refused when there are more than `most` (the
/// expansion would be too large), before they are listed.
fn domain_values(
    dom: &str,
    players: &[String],
    me: &str,
    ranks: &[String],
    most: usize,
) -> Result<Vec<String>, String> {
    let values = match dom {
        "players" => players.to_vec(),
        "others" => players.iter().filter(|p| *p != me).cloned().collect(),
        "ranks" => ranks.to_vec(),
        _ => {
            let (a, b) = dom.split_once("..").ok_or_else(|| {
                format!("`{dom}` is no domain: use `players`, `others`, `ranks` or a range such as `1..4`")
            })?;
            let (a, b): (i64, i64) = (
                a.trim()
                    .parse()
                    .map_err(|_| format!("`{dom}` is not a range"))?,
                b.trim()
                    .parse()
                    .map_err(|_| format!("`{dom}` is not a range"))?,
            );
            let count = (i128::from(b) - i128::from(a) + 1).max(0);
            if count > most as i128 {
                return Err(format!(
                    "the range `{dom}` has {count} values: {}",
                    too_large()
                ));
            }
            (a..=b).map(|n| n.to_string()).collect()
        }
    };
    if values.len() > most {
        return Err(too_large());
    }
    Ok(values)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn variables_are_whole_runs() {
        let b = vec![
            ("x".to_string(), "2".to_string()),
            ("me".to_string(), "1".to_string()),
        ];
        assert_eq!(
            substitute("K_me hand_x(Q) & hex", &b),
            "K_1 hand_2(Q) & hex"
        );
    }

    /// Card facts for a deck whose spades are `*S` (shared with the
    /// template's tests).
    pub(crate) struct Spades;

    impl CardFacts for Spades {
        fn rank(&self, c: &str) -> Option<String> {
            c.strip_suffix('S').map(|r| format!("{r}*"))
        }
        fn ranks(&self) -> Vec<String> {
            ["2", "3"].map(String::from).to_vec()
        }
        fn suit(&self, c: &str) -> Option<String> {
            c.ends_with('S').then(|| "*S".to_string())
        }
        fn is(&self, c: &str, p: &str) -> Result<bool, String> {
            Ok(p == "*S" && c.ends_with('S'))
        }
    }

    #[test]
    fn functions_of_cards_are_replaced() {
        assert_eq!(
            functions("hand_1(rank(5S)) >= 2 & table(rank( 6S ))", &Spades).unwrap(),
            "hand_1(5*) >= 2 & table(6*)"
        );
        assert_eq!(functions("frank(5S)", &Spades).unwrap(), "frank(5S)");
        assert_eq!(
            functions("is(5S, *S) & !is(5H, *S) & hand_2(suit(5S)) = 0", &Spades).unwrap(),
            "true & !false & hand_2(*S) = 0"
        );
        assert_eq!(
            functions("eq(1, 1) | eq(1,2)", &Spades).unwrap(),
            "true | false"
        );
        assert!(functions("hand_1(rank(5H))", &Spades).is_err());
        assert!(functions("hand_1(rank(5S", &Spades).is_err());
        assert!(functions("is(5S)", &Spades).is_err());
    }

    #[test]
    fn quantifiers_expand_over_their_domain() {
        let p = names(&["1", "2", "3"]);
        assert_eq!(
            expand("any(y in others: K_me hand_y(Q))", &p, "1", &[]).unwrap(),
            "((K_me hand_2(Q)) | (K_me hand_3(Q)))"
        );
        assert_eq!(
            expand(
                "all(w in 1..2: any(y in others: hand_y(<3,w>)))",
                &p,
                "3",
                &[]
            )
            .unwrap(),
            "((((hand_1(<3,1>)) | (hand_2(<3,1>)))) & (((hand_1(<3,2>)) | (hand_2(<3,2>)))))"
        );
        assert!(expand("any(y in friends: p)", &p, "1", &[]).is_err());
        // `ranks`: the deck's ranks, in deck order.
        let ranks = ["2", "3", "A"].map(String::from);
        assert_eq!(
            expand("all(v in ranks: hand_me(v*) < 4)", &p, "1", &ranks).unwrap(),
            "((hand_me(2*) < 4) & (hand_me(3*) < 4) & (hand_me(A*) < 4))"
        );
    }
}

#[cfg(test)]
mod limits {
    use super::*;

    fn players(n: usize) -> Vec<String> {
        (1..=n).map(|i| i.to_string()).collect()
    }

    #[test]
    fn non_ascii_around_quantifiers_and_calls_is_kept() {
        let p = players(2);
        assert_eq!(
            expand("¬any(y in others: K_me ¬hand_y(Q)) ∧ é", &p, "1", &[]).unwrap(),
            "¬((K_me ¬hand_2(Q))) ∧ é"
        );
        assert_eq!(
            calls("∧rank(5S)¬rank(6S)", "rank", &|c| Ok(format!("<{c}>"))).unwrap(),
            "∧<5S>¬<6S>"
        );
        let text = "any(y in 1..2: is(c, *S) ∧ rank(c))";
        for (i, _) in text.char_indices() {
            for c in ["¬", "é", "😀"] {
                let t = format!("{}{c}{}", &text[..i], &text[i..]);
                let _ = expand(&t, &p, "1", &[]);
                let _ = expand_placeholder(&t);
                let _ = functions(&t, &Placeholder);
            }
        }
    }

    /// A huge range and deeply nested quantifiers are refused at once, the
    /// expansion never listed.
    #[test]
    fn huge_expansions_are_refused_fast() {
        let start = std::time::Instant::now();
        let err = expand_placeholder("any(y in 1..100000000: hand_1(Q) >= y)").unwrap_err();
        assert!(err.contains("100000000 values"), "{err}");
        let err = expand(
            "any(y in -9223372036854775808..9223372036854775807: p)",
            &players(2),
            "1",
            &[],
        )
        .unwrap_err();
        assert!(err.contains("more than 1,048,576 bytes"), "{err}");
        let nested = |n: usize| {
            let mut f = "hand_me(Q)".to_string();
            for i in 0..n {
                f = format!("any(y{i} in players: K_y{i} {f})");
            }
            f
        };
        let err = expand(&nested(16), &players(4), "1", &[]).unwrap_err();
        assert!(err.contains("more than 1,048,576 bytes"), "{err}");
        // Within the limit, expanded: 4^6 copies.
        assert!(expand(&nested(6), &players(4), "1", &[]).unwrap().len() > 50_000);
        let err = expand(&nested(500), &players(1), "1", &[]).unwrap_err();
        assert!(err.contains("nest more than 100 deep"), "{err}");
        // Many quantifiers and calls side by side: no recursion per one.
        let side = "any(y in 1..1: p) & ".repeat(20_000) + "true";
        assert!(expand(&side, &players(2), "1", &[]).is_ok());
        let ranks = "rank(5S) ".repeat(50_000);
        assert!(functions(&ranks, &tests::Spades).is_ok());
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }
}
