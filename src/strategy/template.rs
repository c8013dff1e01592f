//! A rule's formulas parsed once for a seat and instantiated for each
//! legal move by substitution, with no parsing while a game is played.
//!
//! For a seat (the table's players and the player `me`), a written
//! formula has its quantifiers expanded ([`expand`]) and is parsed into an
//! [`ast::Formula`](Formula). What the scenario grammar cannot read before
//! the rule's variables are bound becomes a *hole*, a placeholder name
//! whose value is worked out from the bound variables: a card function of
//! a variable (`rank(c)`, `suit(c)`), a range or a count of cards with a
//! variable in it (`0..t`, `<3,w>`). For a move, [`Template::instance`]
//! binds the variables, `me`, `others` (a list: `E{others}`) and the
//! holes with [`substitute_with`], which also decides `is(c, P)` and
//! `eq(x, y)` once their arguments are bound.

use std::cell::RefCell;

use crate::syntax::ast::{Formula, Name};
use crate::syntax::parse_formula;
use crate::syntax::subst::{substitute_with, Binding};

use super::expand::{expand, functions, matching, substitute, CardFacts};

/// The prefix of a hole's name: no player, card, pile or variable is
/// written this way (a variable is a lower-case word of the rule's move).
const HOLE: &str = "zzhole";

/// A written formula parsed for one seat.
#[derive(Clone, Debug)]
pub struct Template {
    formula: Formula,
    /// Each hole's name and the text it stands for (`rank(c)`, `0..t`).
    holes: Vec<(String, String)>,
}

impl Template {
    /// The formula speaks of knowledge or belief: it has an epistemic
    /// operator (`K`, `B`, `M`, `Kw`, `Kv`, `E`, `C`, `D`) anywhere.
    pub fn epistemic(&self) -> bool {
        epistemic(&self.formula)
    }

    /// `text` for the seat of `me` among `players`, where `vars` are the
    /// rule's variables (the words its move binds).
    pub fn new(
        text: &str,
        players: &[String],
        me: &str,
        vars: &[String],
        facts: &dyn CardFacts,
    ) -> Result<Template, String> {
        let expanded = expand(text, players, me, &facts.ranks())?;
        let (written, holes) = holes(&expanded, vars, facts)?;
        let formula = parse_formula(&written).map_err(|e| e.message)?;
        Ok(Template { formula, holes })
    }

    /// The formula with `bindings` (the rule's variables, `me` and
    /// `others`) in place, the holes filled and `is`/`eq` decided.
    pub fn instance(
        &self,
        bindings: &[(String, String)],
        facts: &dyn CardFacts,
    ) -> Result<Formula, String> {
        let filled: Vec<(String, String)> = self
            .holes
            .iter()
            .map(|(hole, text)| Ok((hole.clone(), functions(&substitute(text, bindings), facts)?)))
            .collect::<Result<_, String>>()?;
        let mut binding: Binding = bindings
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        binding.extend(filled.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let failed = RefCell::new(None);
        let calls = |name: &Name, args: &[Name]| -> Option<bool> {
            let answer = match (name.text.as_str(), args) {
                ("is", [card, pattern]) => facts.is(&card.text, &pattern.text),
                ("eq", [a, b]) => Ok(a.text == b.text),
                ("is", _) => Err("write `is(CARD, PATTERN)`, e.g. `is(c, *T)`".into()),
                ("eq", _) => Err("write `eq(x, y)`, e.g. `eq(y, Bruno)`".into()),
                _ => return None,
            };
            answer
                .map_err(|m| failed.borrow_mut().get_or_insert(m).clone())
                .ok()
        };
        let instance = substitute_with(&self.formula, &binding, &calls);
        match failed.into_inner() {
            Some(m) => Err(m),
            None => Ok(instance),
        }
    }

    /// The parsed formula, holes and variables unbound (for checks of its
    /// shape, such as `known ATOM`).
    pub fn formula(&self) -> &Formula {
        &self.formula
    }
}

/// `text` with every piece the grammar cannot read before `vars` are
/// bound replaced by a hole; a card function of a written card (`rank(5S)`)
/// is worked out at once.
fn holes(
    text: &str,
    vars: &[String],
    facts: &dyn CardFacts,
) -> Result<(String, Vec<(String, String)>), String> {
    let is_var = |run: &str| vars.iter().any(|v| v == run);
    let mentions_var = |piece: &str| {
        piece
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(&is_var)
    };
    let mut holes: Vec<(String, String)> = Vec::new();
    let hole = |piece: &str, holes: &mut Vec<(String, String)>| -> String {
        let name = format!("{HOLE}{}", holes.len());
        holes.push((name.clone(), piece.to_string()));
        name
    };
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let word_start = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let rest = &text[i..];
        // `rank(c)`, `suit(c)`.
        if word_start && (rest.starts_with("rank(") || rest.starts_with("suit(")) {
            let close = matching(text, i + 4).ok_or("a `(` is not closed")?;
            let piece = &text[i..=close];
            if mentions_var(piece) {
                out.push_str(&hole(piece, &mut holes));
            } else {
                out.push_str(&functions(piece, facts)?);
            }
            i = close + 1;
            continue;
        }
        // `<3,w>`, `<t,v>` inside an atom's parentheses.
        if rest.starts_with('<') && i > 0 && bytes[i - 1] == b'(' {
            if let Some(len) = rest.find('>') {
                let piece = &rest[..=len];
                let inside = &piece[1..piece.len() - 1];
                let count = inside.matches(',').count() == 1
                    && inside
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ',' | '*' | ' '));
                if count && mentions_var(piece) {
                    out.push_str(&hole(piece, &mut holes));
                    i += len + 1;
                    continue;
                }
            }
        }
        // `0..t`: a range with a variable at either end.
        if word_start && bytes[i].is_ascii_alphanumeric() {
            let end = run_end(text, i);
            if text[end..].starts_with("..") {
                let end2 = run_end(text, end + 2);
                let piece = &text[i..end2];
                if end2 > end + 2 && mentions_var(piece) {
                    out.push_str(&hole(piece, &mut holes));
                    i = end2;
                    continue;
                }
            }
            out.push_str(&text[i..end]);
            i = end;
            continue;
        }
        let c = rest.chars().next().expect("inside the text");
        out.push(c);
        i += c.len_utf8();
    }
    Ok((out, holes))
}

/// The end of the run of letters and digits that starts at `i`.
fn run_end(text: &str, i: usize) -> usize {
    text[i..]
        .find(|c: char| !c.is_ascii_alphanumeric())
        .map_or(text.len(), |n| i + n)
}

/// `f` has an epistemic operator anywhere.
pub fn epistemic(f: &Formula) -> bool {
    use crate::syntax::ast::FormulaKind::*;
    f.any(&|g| {
        matches!(
            g.kind,
            K(..) | B(..) | M(..) | Kw(..) | Kv(..) | KvTerms(..) | E(..) | C(..) | D(..)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A guard is about knowledge when an epistemic operator occurs
    /// anywhere in it, under connectives and announcements
    /// too; a fact of the hands or the piles is not.
    #[test]
    fn a_guard_is_about_knowledge_when_an_epistemic_operator_occurs_in_it() {
        for (text, knows) in [
            ("K1 hand_2(Q)", true),
            ("hand_1(Q)", false),
            ("hand_1(Q) & ~hand_2(Q)", false),
            ("hand_1(Q) & ~(hand_2(K) | M1 hand_2(Q))", true),
            (
                "hand_1(<1,1>) & (K1 hand_2(<1,2>) | K1 hand_3(<1,2>))",
                true,
            ),
            ("[!hand_1(Q)] Kw2 hand_1(Q)", true),
            ("[!K1 hand_2(Q)] hand_1(Q)", true),
            ("[!hand_2(Q)] hand_1(Q)", false),
            ("C{1,2} hand_1(Q)", true),
            ("B2 hand_1(Q)", true),
        ] {
            let f = parse_formula(text).unwrap_or_else(|e| panic!("{text}: {}", e.message));
            assert_eq!(epistemic(&f), knows, "{text}");
        }
    }

    use crate::strategy::expand::tests::Spades;

    fn players() -> Vec<String> {
        ["1", "2", "3"].iter().map(|s| s.to_string()).collect()
    }

    fn bind(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    /// The instance printed, and the same formula written out by hand
    /// and parsed, printed: the two must agree.
    fn agree(text: &str, vars: &[&str], pairs: &[(&str, &str)], by_hand: &str) {
        let vars: Vec<String> = vars.iter().map(|s| s.to_string()).collect();
        let t = Template::new(text, &players(), "1", &vars, &Spades).unwrap();
        let got = t.instance(&bind(pairs), &Spades).unwrap().to_string();
        let want = parse_formula(by_hand).unwrap().to_string();
        assert_eq!(got, want, "{text}");
    }

    #[test]
    fn variables_me_and_others_are_bound_without_parsing_again() {
        let me = [("me", "1"), ("others", "2,3")];
        agree(
            "K_me hand_x(r) & K_me E{others} hand_me(r)",
            &["x", "r"],
            &[me[0], me[1], ("x", "2"), ("r", "Q")],
            "K_1 hand_2(Q) & K_1 E{2, 3} hand_1(Q)",
        );
        agree(
            "any(y in others: K_me hand_y(rank(c)) >= 1)",
            &["c"],
            &[me[0], me[1], ("c", "5S")],
            "(K_1 hand_2(5*) >= 1) | (K_1 hand_3(5*) >= 1)",
        );
        agree(
            "any(w in 1..2: K_me !me.w(0..t)) & is(c, *S) & !eq(x, 3)",
            &["t", "c", "x"],
            &[me[0], me[1], ("t", "7"), ("c", "4S"), ("x", "3")],
            "((K_1 !1.1(0..7)) | (K_1 !1.2(0..7))) & true & !true",
        );
        agree(
            "hand_x(<3,w>) & hand_me(suit(c)) = 0 & table(rank(5S))",
            &["x", "w", "c"],
            &[me[0], me[1], ("x", "2"), ("w", "4"), ("c", "9S")],
            "hand_2(<3,4>) & hand_1(*S) = 0 & table(5*)",
        );
    }

    #[test]
    fn a_bad_card_in_a_function_is_an_error_at_the_move() {
        let t = Template::new("is(c, *S)", &players(), "1", &["c".into()], &Spades).unwrap();
        struct Picky;
        impl CardFacts for Picky {
            fn rank(&self, _: &str) -> Option<String> {
                None
            }
            fn suit(&self, _: &str) -> Option<String> {
                None
            }
            fn is(&self, c: &str, _: &str) -> Result<bool, String> {
                Err(format!("`{c}` is no card"))
            }
            fn ranks(&self) -> Vec<String> {
                Vec::new()
            }
        }
        let err = t.instance(&bind(&[("c", "ZZ")]), &Picky).unwrap_err();
        assert!(err.contains("`ZZ` is no card"), "{err}");
        let t = Template::new("hand_me(rank(c))", &players(), "1", &["c".into()], &Spades).unwrap();
        assert!(t.instance(&bind(&[("c", "ZZ")]), &Picky).is_err());
    }
}
