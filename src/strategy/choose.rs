//! Choosing a move: the rules tried in order against the legal moves, each
//! guard and score asked of an [`Oracle`] (the engine), with a trace of
//! what held and what failed.

use std::collections::HashMap;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::cards::deck::{CardKind, Deck};
use crate::cards::{game_named, Referee, Table};
use crate::diag::Diagnostic;
use crate::interp::Session;
use crate::syntax::ast::{Formula, Name};
use crate::syntax::parse_formula;

use super::expand::{expand, functions, substitute, CardFacts};
use super::knowledge;
use super::parse::{CardValue, Rule, Strategy, Template, Term};

/// Answers formulas of the scenario language in the actual world.
pub trait Oracle {
    /// Whether `formula` (scenario syntax) holds in the actual world.
    fn holds(&mut self, formula: &str) -> Result<bool, Diagnostic>;
}

/// The most parsed guard formulas kept per thread (see [`parsed`]).
const PARSED: usize = 16_384;

thread_local! {
    /// Guard formulas already parsed on this thread, by their text.
    static PARSE_CACHE: std::cell::RefCell<HashMap<String, Formula>> =
        std::cell::RefCell::new(HashMap::new());
}

/// `formula` parsed, from the thread's cache when the same text was
/// parsed before. A strategy asks the same few hundred guards (`K_1
/// hand_2(<3,1>)`) move after move, and parsing one costs more than
/// answering it on a small model. Errors are not kept.
fn parsed(formula: &str) -> Result<Formula, Diagnostic> {
    if let Some(f) = PARSE_CACHE.with(|c| c.borrow().get(formula).cloned()) {
        return Ok(f);
    }
    let ast = parse_formula(formula)
        .map_err(|e| super::error("strategy-formula", format!("`{formula}`: {}", e.message)))?;
    PARSE_CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= PARSED {
            c.clear();
        }
        c.insert(formula.to_string(), ast.clone());
    });
    Ok(ast)
}

impl Oracle for Session {
    fn holds(&mut self, formula: &str) -> Result<bool, Diagnostic> {
        Session::holds(self, &parsed(formula)?)
    }
}

/// A legal move a rule's template matched, and what its guard said.
#[derive(Clone, Debug)]
pub struct Tried {
    /// The move's index among the legal moves.
    pub index: usize,
    /// The move's statement.
    pub text: String,
    /// The variables the template bound.
    pub bindings: Vec<(String, String)>,
    /// The guard as asked of the engine (`None`: the rule has none).
    pub guard: Option<String>,
    /// Whether the guard held.
    pub held: bool,
    /// The score, for a move whose guard held in a rule that scores.
    pub score: Option<i64>,
}

/// What one rule did.
#[derive(Clone, Debug)]
pub struct RuleTrace {
    /// The rule's name.
    pub rule: String,
    /// The rule's `chance` draw failed, so it was not tried.
    pub skipped: bool,
    /// The legal moves its template matched, in order.
    pub tried: Vec<Tried>,
}

impl RuleTrace {
    /// Whether some matched move's guard held.
    pub fn applies(&self) -> bool {
        !self.skipped && self.tried.iter().any(|t| t.held)
    }
}

/// A strategy's choice and why.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The chosen move's index among the legal moves.
    pub index: usize,
    /// The rule that fired (`None`: the only legal move, or no rule applied).
    pub rule: Option<String>,
    /// Every rule tried, up to the one that fired.
    pub trace: Vec<RuleTrace>,
    /// The moves the fired rule kept (its guard held, best score), among
    /// which the choice was drawn.
    pub best: Vec<usize>,
}

impl Decision {
    /// A few lines for a person: which rule fired, on which move, which
    /// guards held and which failed.
    pub fn explain(&self, legal: &[String]) -> String {
        let mut out = String::new();
        for t in &self.trace {
            if t.skipped {
                out.push_str(&format!(
                    "rule {}: not tried (its chance draw failed)\n",
                    t.rule
                ));
                continue;
            }
            if t.tried.is_empty() {
                out.push_str(&format!("rule {}: no legal move matches\n", t.rule));
                continue;
            }
            let held = t.tried.iter().filter(|x| x.held).count();
            out.push_str(&format!(
                "rule {}: {held} of {} matching moves pass the guard\n",
                t.rule,
                t.tried.len()
            ));
            for x in &t.tried {
                let guard = x.guard.as_deref().unwrap_or("(no guard)");
                let score = x.score.map(|s| format!("  score {s}")).unwrap_or_default();
                let mark = if x.held { "holds" } else { "fails" };
                out.push_str(&format!("  {:<16} {mark}: {guard}{score}\n", x.text));
            }
        }
        let chosen = &legal[self.index];
        match &self.rule {
            Some(r) => out.push_str(&format!(
                "→ {chosen}  (rule {r}; drawn among {} best)\n",
                self.best.len()
            )),
            None if legal.len() == 1 => {
                out.push_str(&format!("→ {chosen}  (the only legal move)\n"))
            }
            None => out.push_str(&format!(
                "→ {chosen}  (no rule applies: a random legal move)\n"
            )),
        }
        out
    }
}

/// Chooses one of `legal` (the referee's moves as statements) for player
/// `me`, asking `oracle` every guard and score.
pub fn choose(
    strategy: &Strategy,
    oracle: &mut dyn Oracle,
    table: &Table,
    me: usize,
    legal: &[String],
    rng: &mut ChaCha8Rng,
) -> Result<Decision, Diagnostic> {
    if legal.is_empty() {
        return Err(super::error(
            "no-legal-move",
            "there is no legal move to choose from",
        ));
    }
    if legal.len() == 1 {
        return Ok(Decision {
            index: 0,
            rule: None,
            trace: Vec::new(),
            best: vec![0],
        });
    }
    let referee = game_named(&strategy.game).and_then(|g| g.referee());
    let mut asker = Asker {
        oracle,
        cache: HashMap::new(),
        expanded: HashMap::new(),
        table,
        me,
        referee,
    };
    let mut trace = Vec::new();
    for rule in &strategy.rules {
        let skipped = rule
            .chance
            .is_some_and(|(n, d)| rng.random_range(0..d) >= n);
        let tried = if skipped {
            Vec::new()
        } else {
            asker.try_rule(rule, legal)?
        };
        trace.push(RuleTrace {
            rule: rule.name.clone(),
            skipped,
            tried,
        });
        let last = trace.last().expect("just pushed");
        if last.applies() {
            let best = best_moves(&last.tried);
            let index = best[rng.random_range(0..best.len())];
            return Ok(Decision {
                index,
                rule: Some(rule.name.clone()),
                trace,
                best,
            });
        }
    }
    let index = rng.random_range(0..legal.len());
    Ok(Decision {
        index,
        rule: None,
        trace,
        best: (0..legal.len()).collect(),
    })
}

/// The indices of the held moves with the highest score.
fn best_moves(tried: &[Tried]) -> Vec<usize> {
    let held: Vec<&Tried> = tried.iter().filter(|t| t.held).collect();
    let top = held.iter().filter_map(|t| t.score).max();
    held.iter()
        .filter(|t| t.score == top)
        .map(|t| t.index)
        .collect()
}

struct Asker<'a> {
    oracle: &'a mut dyn Oracle,
    cache: HashMap<String, bool>,
    /// Each written formula with its quantifiers expanded: the same for
    /// every legal move a rule tries.
    expanded: HashMap<String, String>,
    table: &'a Table,
    me: usize,
    referee: Option<&'a dyn Referee>,
}

impl Asker<'_> {
    fn ask(&mut self, formula: &str) -> Result<bool, Diagnostic> {
        if let Some(&v) = self.cache.get(formula) {
            return Ok(v);
        }
        let v = self.oracle.holds(formula)?;
        self.cache.insert(formula.to_string(), v);
        Ok(v)
    }

    /// A written formula with the quantifiers expanded and every variable
    /// replaced.
    fn instance(
        &mut self,
        text: &str,
        bindings: &[(String, String)],
    ) -> Result<String, Diagnostic> {
        let players = &self.table.players;
        let me = &players[self.me];
        let expanded = match self.expanded.get(text) {
            Some(e) => e.clone(),
            None => {
                let e = expand(text, players, me)
                    .map_err(|m| super::error("strategy-formula", format!("`{text}`: {m}")))?;
                self.expanded.insert(text.to_string(), e.clone());
                e
            }
        };
        let others: Vec<&str> = players
            .iter()
            .filter(|p| *p != me)
            .map(String::as_str)
            .collect();
        let mut all = bindings.to_vec();
        all.push(("me".into(), me.clone()));
        all.push(("others".into(), others.join(",")));
        functions(&substitute(&expanded, &all), &Facts(&self.table.deck))
            .map_err(|m| super::error("strategy-formula", format!("`{text}`: {m}")))
    }

    fn try_rule(&mut self, rule: &Rule, legal: &[String]) -> Result<Vec<Tried>, Diagnostic> {
        let mut out = Vec::new();
        for (index, text) in legal.iter().enumerate() {
            let Some(bindings) = self.matches(&rule.template, text, rule)? else {
                continue;
            };
            let guard = match &rule.guard {
                Some(g) => {
                    let g = self.instance(g, &bindings)?;
                    self.vet(rule, &g, "guard")?;
                    Some(g)
                }
                None => None,
            };
            let held = match &guard {
                Some(g) => self.ask(g)?,
                None => true,
            };
            let score = if held && !rule.score.is_empty() {
                Some(self.score(rule, &bindings)?)
            } else {
                None
            };
            out.push(Tried {
                index,
                text: text.clone(),
                bindings,
                guard,
                held,
                score,
            });
        }
        Ok(out)
    }

    fn score(&mut self, rule: &Rule, bindings: &[(String, String)]) -> Result<i64, Diagnostic> {
        let mut total = 0;
        for term in &rule.score {
            total += match term {
                Term::Const(n) => *n,
                Term::Holds { formula, sign } => {
                    let f = self.instance(formula, bindings)?;
                    self.vet(rule, &f, "score")?;
                    sign * i64::from(self.ask(&f)?)
                }
                Term::Known { atom, sign } => sign * self.known(atom, bindings)?,
                Term::Card { what, var, sign } => sign * self.card_value(*what, var, bindings)?,
            };
        }
        Ok(total)
    }

    /// Refuses an instance of a guard or a score's `[φ]` that the player
    /// does not decide: not by syntax ([`knowledge::unread`]) and not
    /// `Kw_me φ` in the actual world. A `psychic` player is not checked.
    fn vet(&mut self, rule: &Rule, instance: &str, what: &str) -> Result<(), Diagnostic> {
        if self.table.psychic.contains(&self.me) {
            return Ok(());
        }
        let formula = parsed(instance)?;
        let Some(sub) = knowledge::unread(&formula, self.me, self.table) else {
            return Ok(());
        };
        let me = &self.table.players[self.me];
        if self.ask(&format!("Kw_{me} ({instance})"))? {
            return Ok(());
        }
        let read = instance
            .get(sub.span.start..sub.span.end)
            .unwrap_or(instance);
        Err(Diagnostic::error(
            "strategy-knowledge",
            format!(
                "rule `{}` reads `{read}` outside player {me}'s knowledge: its {what} `{instance}` is not the same in every world {me} considers possible",
                rule.name
            ),
            rule.span,
        )
        .with_label(format!("this {what} reads what player {me} does not know"))
        .with_help(format!(
            "a {what} may read the player's own hand, the public piles and what it knows (`K_me φ`, `Kw_me φ`, `M_me φ`); a player declared `psychic` is not checked"
        )))
    }

    /// The referee's points or strength of the card bound to `var`.
    fn card_value(
        &self,
        what: CardValue,
        var: &str,
        bindings: &[(String, String)],
    ) -> Result<i64, Diagnostic> {
        let name = bindings
            .iter()
            .find(|(v, _)| v == var)
            .map(|(_, c)| c.as_str())
            .ok_or_else(|| super::error("strategy-score", format!("`{var}` is not bound")))?;
        let card = Facts(&self.table.deck)
            .card(name)
            .ok_or_else(|| super::error("strategy-score", format!("`{name}` is no card")))?;
        let referee = self.referee.ok_or_else(|| {
            super::error("strategy-score", "this game has no referee to value cards")
        })?;
        Ok(match what {
            CardValue::Points => referee.card_points(card),
            CardValue::Strength => referee.card_strength(card),
        })
    }

    /// The largest n such that `K_me ATOM >= n` (at most the deck's size).
    fn known(&mut self, atom: &str, bindings: &[(String, String)]) -> Result<i64, Diagnostic> {
        let atom = self.instance(atom, bindings)?;
        let me = &self.table.players[self.me];
        let mut n = 0;
        while n < i64::from(self.table.deck.total())
            && self.ask(&format!("K_{me} {atom} >= {}", n + 1))?
        {
            n += 1;
        }
        Ok(n)
    }

    /// The bindings under which `template` is the move `text`, if any.
    fn matches(
        &self,
        template: &Template,
        text: &str,
        rule: &Rule,
    ) -> Result<Option<Vec<(String, String)>>, Diagnostic> {
        if template.words.is_empty() {
            return Ok(Some(Vec::new()));
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != template.words.len() || !words[0].eq_ignore_ascii_case(&template.words[0])
        {
            return Ok(None);
        }
        let mut bindings: Vec<(String, String)> = Vec::new();
        for (t, w) in template.words.iter().zip(&words).skip(1) {
            if !self.match_word(t, w, &mut bindings, rule)? {
                return Ok(None);
            }
        }
        Ok(Some(bindings))
    }

    fn match_word(
        &self,
        t: &str,
        w: &str,
        bindings: &mut Vec<(String, String)>,
        rule: &Rule,
    ) -> Result<bool, Diagnostic> {
        if t == "_" {
            return Ok(true);
        }
        let (tp, wp) = (pieces(t), pieces(w));
        if tp.len() == 1 {
            return self.match_piece(t, w, bindings, rule);
        }
        if tp.len() != wp.len() {
            return Ok(false);
        }
        for (a, b) in tp.iter().zip(&wp) {
            let alnum = a.chars().all(|c| c.is_ascii_alphanumeric());
            let ok = if alnum {
                self.match_piece(a, b, bindings, rule)?
            } else {
                a == b
            };
            if !ok {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn match_piece(
        &self,
        t: &str,
        w: &str,
        bindings: &mut Vec<(String, String)>,
        rule: &Rule,
    ) -> Result<bool, Diagnostic> {
        if t == "me" {
            return Ok(w == self.table.players[self.me]);
        }
        if !self.is_variable(t, rule)? {
            return Ok(t.eq_ignore_ascii_case(w));
        }
        if let Some((_, v)) = bindings.iter().find(|(name, _)| name == t) {
            return Ok(v == w);
        }
        bindings.push((t.to_string(), w.to_string()));
        Ok(true)
    }

    /// A lower-case word that names no player and no card is a variable; a
    /// lower-case word that names a card in another case is an error.
    fn is_variable(&self, t: &str, rule: &Rule) -> Result<bool, Diagnostic> {
        let table = self.table;
        if t.chars().any(|c| !c.is_ascii_lowercase()) || table.players.iter().any(|p| p == t) {
            return Ok(false);
        }
        let card = table
            .deck
            .kinds
            .iter()
            .find(|k| k.name.eq_ignore_ascii_case(t) || k.rank_name().eq_ignore_ascii_case(t));
        match card {
            None => Ok(true),
            Some(k) => Err(Diagnostic::error(
                "strategy-variable",
                format!(
                    "in rule {}, the variable `{t}` is also the card {}",
                    rule.name, k.name
                ),
                rule.span,
            )
            .with_help(
                "rename the variable (e.g. `x`, `r`, `c`), or write the card in upper case",
            )),
        }
    }
}

/// The deck's answers to the strategy language's card functions.
struct Facts<'a>(&'a Deck);

impl<'a> Facts<'a> {
    fn card(&self, name: &str) -> Option<&'a CardKind> {
        self.0
            .kinds
            .iter()
            .find(|k| k.name.eq_ignore_ascii_case(name))
    }
}

impl CardFacts for Facts<'_> {
    fn rank(&self, card: &str) -> Option<String> {
        self.card(card).map(|k| format!("{}*", k.rank_name()))
    }

    fn suit(&self, card: &str) -> Option<String> {
        let k = self.card(card)?;
        Some(match k.suit {
            Some(s) => format!("*{s}"),
            None => k.name.clone(),
        })
    }

    fn is(&self, card: &str, pattern: &str) -> Result<bool, String> {
        let kind = self
            .0
            .kinds
            .iter()
            .position(|k| k.name.eq_ignore_ascii_case(card))
            .ok_or_else(|| format!("`{card}` is no card"))?;
        let name = Name {
            text: pattern.into(),
            span: crate::diag::Span::new(0, 0),
        };
        let kinds = self
            .0
            .pattern(&name)
            .map_err(|_| format!("`{pattern}` is no card pattern of this deck"))?;
        Ok(kinds.contains(&kind))
    }
}

/// A word cut into runs of letters and digits and single other characters.
fn pieces(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in word.chars() {
        let alnum = c.is_ascii_alphanumeric();
        match out.last_mut() {
            Some(last) if alnum && last.chars().all(|x| x.is_ascii_alphanumeric()) => last.push(c),
            _ => out.push(c.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parsed_guard_is_the_parser_s_own_and_errors_stay_errors() {
        let text = "K_1 hand_2(<3,1>) & !K_1 (hand_3(<3,2>) | hand_2(<3,4>))";
        let first = parsed(text).unwrap();
        assert_eq!(first, parse_formula(text).unwrap());
        // The second time from the cache: the same tree, spans included.
        assert!(PARSE_CACHE.with(|c| c.borrow().contains_key(text)));
        assert_eq!(parsed(text).unwrap(), first);
        // Another text is another formula, not the cached one.
        let other = parsed("K_1 hand_2(<3,2>)").unwrap();
        assert_ne!(other, first);
        for _ in 0..2 {
            let err = parsed("K_1 hand_2(<3,1>) &").unwrap_err();
            assert!(
                err.message.contains("K_1 hand_2(<3,1>) &"),
                "{}",
                err.message
            );
        }
        assert!(PARSE_CACHE.with(|c| !c.borrow().contains_key("K_1 hand_2(<3,1>) &")));
    }
}
