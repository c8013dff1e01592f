//! From a rule's written formula to a formula of the scenario language:
//! the quantifiers `any(y in D: φ)` and `all(y in D: φ)` become
//! disjunctions and conjunctions over their domain, and the variables
//! (`me`, `others`, the template's variables) are replaced by the names
//! they stand for. A variable is a whole run of letters and digits, so
//! `hand_x(r)` has the variables `x` and `r` (and `hand`, which is no
//! variable), and `K_me` has `me`.

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
    let bytes = text.as_bytes();
    let head = format!("{name}(");
    let start = (0..text.len()).find(|&i| {
        (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
            && text[i..].starts_with(&head)
    });
    let Some(start) = start else {
        return Ok(text.to_string());
    };
    let open = start + name.len();
    let close = matching(text, open).ok_or_else(|| format!("a `{head}` is not closed"))?;
    let replaced = f(text[open + 1..close].trim())?;
    let rest = calls(&text[close + 1..], name, f)?;
    Ok(format!("{}{replaced}{rest}", &text[..start]))
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
}

/// Any card, any pattern: for checking a formula's syntax before a deal.
pub(crate) struct Placeholder;

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
}

/// Expands the quantifiers of `text`: `players` and `others` are the
/// players' names and those other than `me`.
pub fn expand(text: &str, players: &[String], me: &str) -> Result<String, String> {
    expand_with(text, &|domain: &str| domain_values(domain, players, me))
}

/// Expands the quantifiers over a one-element domain (`1`), to check a
/// formula's syntax before any game is dealt.
pub(crate) fn expand_placeholder(text: &str) -> Result<String, String> {
    expand_with(text, &|domain: &str| {
        domain_values(domain, &["1".to_string()], "")
    })
}

type Domain<'a> = dyn Fn(&str) -> Result<Vec<String>, String> + 'a;

fn expand_with(text: &str, domain: &Domain<'_>) -> Result<String, String> {
    let Some((start, all)) = find_quantifier(text) else {
        return Ok(text.to_string());
    };
    let open = start + 3;
    let close = matching(text, open).ok_or("a quantifier's `(` is not closed")?;
    let inner = &text[open + 1..close];
    let (head, body) = inner
        .split_once(':')
        .ok_or("write a quantifier as `any(y in players: φ)`")?;
    let (var, dom) = head
        .trim()
        .split_once(" in ")
        .ok_or("write a quantifier as `any(y in players: φ)`")?;
    let var = var.trim();
    let values = domain(dom.trim())?;
    let parts: Vec<String> = values
        .iter()
        .map(|v| {
            let body = substitute(body, &[(var.to_string(), v.clone())]);
            expand_with(&body, domain).map(|b| format!("({})", b.trim()))
        })
        .collect::<Result<_, _>>()?;
    let joined = match (parts.is_empty(), all) {
        (true, true) => "true".to_string(),
        (true, false) => "false".to_string(),
        (false, true) => parts.join(" & "),
        (false, false) => parts.join(" | "),
    };
    let rest = expand_with(&text[close + 1..], domain)?;
    Ok(format!("{}({joined}){rest}", &text[..start]))
}

/// The first `any(` or `all(` that starts a word; whether it is `all`.
fn find_quantifier(text: &str) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    (0..text.len()).find_map(|i| {
        let word_start = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if !word_start {
            return None;
        }
        let rest = &text[i..];
        if rest.starts_with("any(") {
            Some((i, false))
        } else if rest.starts_with("all(") {
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

fn domain_values(dom: &str, players: &[String], me: &str) -> Result<Vec<String>, String> {
    match dom {
        "players" => Ok(players.to_vec()),
        "others" => Ok(players.iter().filter(|p| *p != me).cloned().collect()),
        _ => {
            let (a, b) = dom.split_once("..").ok_or_else(|| {
                format!("`{dom}` is no domain: use `players`, `others` or a range such as `1..4`")
            })?;
            let (a, b): (i64, i64) = (
                a.trim()
                    .parse()
                    .map_err(|_| format!("`{dom}` is not a range"))?,
                b.trim()
                    .parse()
                    .map_err(|_| format!("`{dom}` is not a range"))?,
            );
            Ok((a..=b).map(|n| n.to_string()).collect())
        }
    }
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
            expand("any(y in others: K_me hand_y(Q))", &p, "1").unwrap(),
            "((K_me hand_2(Q)) | (K_me hand_3(Q)))"
        );
        assert_eq!(
            expand("all(w in 1..2: any(y in others: hand_y(<3,w>)))", &p, "3").unwrap(),
            "((((hand_1(<3,1>)) | (hand_2(<3,1>)))) & (((hand_1(<3,2>)) | (hand_2(<3,2>)))))"
        );
        assert!(expand("any(y in friends: p)", &p, "1").is_err());
    }
}
