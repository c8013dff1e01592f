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

/// Replaces every `rank(CARD)` of `text` by the pattern `pattern(CARD)`
/// gives (`rank(5S)` → `5*`, every card of the rank), for guards about a
/// bound card's rank (Kemps collects a value, not a card).
pub fn ranks(text: &str, pattern: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let bytes = text.as_bytes();
    let start = (0..text.len()).find(|&i| {
        (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
            && text[i..].starts_with("rank(")
    });
    let Some(start) = start else {
        return Ok(text.to_string());
    };
    let open = start + 4;
    let close = matching(text, open).ok_or("a `rank(` is not closed")?;
    let card = text[open + 1..close].trim();
    let replaced =
        pattern(card).ok_or_else(|| format!("in `rank({card})`, `{card}` is no card"))?;
    let rest = ranks(&text[close + 1..], pattern)?;
    Ok(format!("{}{replaced}{rest}", &text[..start]))
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
fn matching(text: &str, open: usize) -> Option<usize> {
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
mod tests {
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

    #[test]
    fn rank_of_a_card_becomes_its_pattern() {
        let pattern = |c: &str| c.strip_suffix('S').map(|r| format!("{r}*"));
        assert_eq!(
            ranks("hand_1(rank(5S)) >= 2 & table(rank( 6S ))", &pattern).unwrap(),
            "hand_1(5*) >= 2 & table(6*)"
        );
        assert_eq!(ranks("frank(5S)", &pattern).unwrap(), "frank(5S)");
        assert!(ranks("hand_1(rank(5H))", &pattern).is_err());
        assert!(ranks("hand_1(rank(5S)", &pattern).is_err());
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
