//! Choosing a move: the rules tried in order against the legal moves, each
//! guard and score asked of an [`Oracle`] (the engine), with a trace of
//! what held and what failed.

use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::cards::deck::Deck;
use crate::cards::{Game, Referee, Table};
use crate::diag::Diagnostic;
use crate::interp::Session;
use crate::play::Legal;
use crate::syntax::ast::{CmpOp, Formula, FormulaKind, Name};

use super::knowledge;
use super::parse::{CardValue, Rule, Strategy, Term};
use super::pattern::{Bindings, Pattern, SeatPattern, Value};
use super::template::{CardFacts, Template};
use crate::syntax::subst::Binding;

/// Answers formulas of the scenario language in the actual world.
pub trait Oracle {
    /// Whether `formula` holds in the actual world.
    fn holds(&mut self, formula: &Formula) -> Result<bool, Diagnostic>;
}

impl Oracle for Session {
    fn holds(&mut self, formula: &Formula) -> Result<bool, Diagnostic> {
        Session::holds(self, formula)
    }
}

/// A strategy seated at a table for player `me`: every guard and score of
/// its rules parsed once ([`Template`]), to be instantiated move after
/// move by substitution.
#[derive(Clone, Debug)]
pub struct Seated {
    strategy: Strategy,
    game: Game,
    table: Table,
    me: usize,
    rules: Vec<SeatedRule>,
    /// Where the trial games note how each instance was decided.
    notes: Option<knowledge::Notes>,
    /// The deck's ranks, a list for the domain `ranks`.
    ranks: String,
    /// The rules' formulas made so far ([`Asker::instance`]).
    instances: RefCell<Instances>,
}

/// A rule's guard (`(rule, 0)`) or its `j`th score term (`(rule, j + 1)`).
type Slot = (usize, usize);

/// Each formula a seat's rules were instantiated to, by its slot and the
/// move's bindings: a seat's table, player and templates never change, so
/// neither does the formula (its answer is asked anew every time).
type Instances = FxHashMap<(Slot, Bindings), Rc<Formula>>;

/// The most formulas a seat keeps; the cache starts afresh beyond (a
/// Kemps seat at 52 cards makes a few hundred).
const MAX_INSTANCES: usize = 4096;

#[derive(Clone, Debug)]
struct SeatedRule {
    /// The rule's move at this seat.
    pattern: SeatPattern,
    guard: Option<Template>,
    /// The guard speaks of knowledge ([`Template::epistemic`]).
    knowing: bool,
    score: Vec<SeatedTerm>,
}

#[derive(Clone, Debug)]
enum SeatedTerm {
    Const(i64),
    Holds(Template, i64),
    Known(Template, i64),
    Card(CardValue, String, i64),
}

impl Seated {
    /// `strategy` at the seat of player `me` of `table` in `game`; a
    /// move that is not `game`'s or a formula the seat cannot read is an
    /// error at its rule's line.
    pub fn new(
        strategy: &Strategy,
        game: Game,
        table: &Table,
        me: usize,
    ) -> Result<Seated, Diagnostic> {
        let ranks = table.deck.ranks().len();
        let mut rules = Vec::with_capacity(strategy.rules.len());
        for rule in &strategy.rules {
            let pattern = Pattern::new(&rule.template, game, rule)?;
            let pattern = pattern.seated(table, me, rule)?;
            let seat = |t: &Template| {
                t.check_size(table.players.len(), ranks)?;
                Ok::<_, Diagnostic>(t.clone())
            };
            let guard = rule.guard.as_ref().map(seat).transpose()?;
            let score = rule
                .score
                .iter()
                .map(|term| {
                    Ok(match term {
                        Term::Const(n) => SeatedTerm::Const(*n),
                        Term::Holds { formula, sign } => SeatedTerm::Holds(seat(formula)?, *sign),
                        Term::Known { atom, sign } => SeatedTerm::Known(seat(atom)?, *sign),
                        Term::Card { what, var, sign } => {
                            SeatedTerm::Card(*what, var.clone(), *sign)
                        }
                    })
                })
                .collect::<Result<_, Diagnostic>>()?;
            let knowing = guard.as_ref().is_some_and(Template::epistemic);
            rules.push(SeatedRule {
                pattern,
                guard,
                knowing,
                score,
            });
        }
        Ok(Seated {
            strategy: strategy.clone(),
            game,
            table: table.clone(),
            me,
            rules,
            notes: None,
            ranks: Facts(&table.deck).ranks().join(","),
            instances: RefCell::default(),
        })
    }

    /// This seat, noting in `notes` (the trial games') how each instance of its
    /// rules is decided.
    pub(crate) fn noting(self, notes: Option<knowledge::Notes>) -> Seated {
        Seated { notes, ..self }
    }

    /// The strategy.
    pub fn strategy(&self) -> &Strategy {
        &self.strategy
    }

    /// The seat's player.
    pub fn me(&self) -> usize {
        self.me
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
    pub guard: Option<Rc<Formula>>,
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
    /// The rule that fired has a guard about knowledge (an epistemic
    /// operator), which held for the move: a move chosen because of what
    /// the player knows (Kwartet's greedy asking for a card it knows an
    /// opponent holds), not by a fact of its own hand or at random.
    pub knowing: bool,
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
                let guard = x
                    .guard
                    .as_ref()
                    .map_or_else(|| "(no guard)".to_string(), |g| g.to_string());
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

/// Chooses one of `legal` (the referee's moves) for player `me` of a
/// game of `game` with `strategy` seated for this one decision; a game
/// seats a strategy once ([`Seated::new`]) and asks [`Seated::choose`].
pub fn choose(
    strategy: &Strategy,
    game: Game,
    oracle: &mut dyn Oracle,
    table: &Table,
    me: usize,
    legal: &[Legal],
    rng: &mut ChaCha8Rng,
) -> Result<Decision, Diagnostic> {
    Seated::new(strategy, game, table, me)?.choose(oracle, legal, rng)
}

impl Seated {
    /// Chooses one of `legal` (the referee's moves), asking `oracle` every
    /// guard and score.
    pub fn choose(
        &self,
        oracle: &mut dyn Oracle,
        legal: &[Legal],
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
                knowing: false,
                trace: Vec::new(),
                best: vec![0],
            });
        }
        let referee = self.game.referee();
        let mut asker = Asker {
            oracle,
            cache: FxHashMap::default(),
            seat: self,
            referee,
        };
        let mut trace = Vec::new();
        for (r, (rule, seated)) in self.strategy.rules.iter().zip(&self.rules).enumerate() {
            let skipped = rule
                .chance
                .is_some_and(|(n, d)| rng.random_range(0..d) >= n);
            let tried = if skipped {
                Vec::new()
            } else {
                asker.try_rule(r, rule, seated, legal)?
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
                    knowing: seated.knowing,
                    trace,
                    best,
                });
            }
        }
        let index = rng.random_range(0..legal.len());
        Ok(Decision {
            index,
            rule: None,
            knowing: false,
            trace,
            best: (0..legal.len()).collect(),
        })
    }
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
    /// Each instance asked and its answer.
    cache: FxHashMap<Formula, bool>,
    seat: &'a Seated,
    referee: Option<&'a dyn Referee>,
}

impl Asker<'_> {
    fn ask(&mut self, formula: &Formula) -> Result<bool, Diagnostic> {
        if let Some(&v) = self.cache.get(formula) {
            return Ok(v);
        }
        let v = self.oracle.holds(formula)?;
        self.cache.insert(formula.clone(), v);
        Ok(v)
    }

    /// A rule's formula with the move's variables, `me` and `others`
    /// bound, made once per seat and bindings ([`Instances`]).
    fn instance(
        &self,
        slot: Slot,
        template: &Template,
        bindings: &Bindings,
        rule: &Rule,
    ) -> Result<Rc<Formula>, Diagnostic> {
        let key = (slot, bindings.clone());
        if let Some(f) = self.seat.instances.borrow().get(&key) {
            return Ok(Rc::clone(f));
        }
        let f = Rc::new(self.make_instance(template, bindings, rule)?);
        let mut cache = self.seat.instances.borrow_mut();
        if cache.len() >= MAX_INSTANCES {
            cache.clear();
        }
        cache.insert(key, Rc::clone(&f));
        Ok(f)
    }

    fn make_instance(
        &self,
        template: &Template,
        bindings: &Bindings,
        rule: &Rule,
    ) -> Result<Formula, Diagnostic> {
        let table = &self.seat.table;
        let players = &table.players;
        let me = &players[self.seat.me];
        let others: Vec<&str> = players
            .iter()
            .filter(|p| *p != me)
            .map(String::as_str)
            .collect();
        let values: Vec<(&str, String)> = bindings
            .iter()
            .map(|(v, value)| (v.as_str(), value.name(table)))
            .collect();
        let others = others.join(",");
        let mut binding: Binding = values.iter().map(|(v, x)| (*v, x.as_str())).collect();
        binding.insert("me", me);
        binding.insert("others", &others);
        binding.insert("ranks", &self.seat.ranks);
        template
            .instance(&binding, players, &Facts(&table.deck))
            .map_err(|d| {
                let message = format!("in rule {}: {}", rule.name, d.message);
                Diagnostic { message, ..d }
            })
    }

    fn try_rule(
        &mut self,
        r: usize,
        rule: &Rule,
        seated: &SeatedRule,
        legal: &[Legal],
    ) -> Result<Vec<Tried>, Diagnostic> {
        let mut out = Vec::new();
        let table = &self.seat.table;
        for (index, l) in legal.iter().enumerate() {
            let Some(bindings) = seated.pattern.matches(&l.mv, table) else {
                continue;
            };
            knowledge::note(self.seat.notes.as_ref(), rule, knowledge::Decided::Asked);
            let guard = match &seated.guard {
                Some(g) => {
                    let g = self.instance((r, 0), g, &bindings, rule)?;
                    self.vet(rule, &g, "guard")?;
                    Some(g)
                }
                None => None,
            };
            let held = match &guard {
                Some(g) => self.ask(g)?,
                None => true,
            };
            let score = if held && !seated.score.is_empty() {
                Some(self.score(r, rule, seated, &bindings)?)
            } else {
                None
            };
            out.push(Tried {
                index,
                text: l.text.clone(),
                bindings: bindings
                    .iter()
                    .map(|(v, value)| (v.clone(), value.name(table)))
                    .collect(),
                guard,
                held,
                score,
            });
        }
        Ok(out)
    }

    fn score(
        &mut self,
        r: usize,
        rule: &Rule,
        seated: &SeatedRule,
        bindings: &Bindings,
    ) -> Result<i64, Diagnostic> {
        let mut total = 0;
        for (j, term) in seated.score.iter().enumerate() {
            let slot = (r, j + 1);
            total += match term {
                SeatedTerm::Const(n) => *n,
                SeatedTerm::Holds(formula, sign) => {
                    let f = self.instance(slot, formula, bindings, rule)?;
                    self.vet(rule, &f, "score")?;
                    sign * i64::from(self.ask(&f)?)
                }
                SeatedTerm::Known(atom, sign) => {
                    // `K_me ATOM >= n`: the player's knowledge by its form.
                    knowledge::note(self.seat.notes.as_ref(), rule, knowledge::Decided::BySyntax);
                    sign * self.known(slot, atom, bindings, rule)?
                }
                SeatedTerm::Card(what, var, sign) => {
                    sign * self.card_value(*what, var, bindings)?
                }
            };
        }
        Ok(total)
    }

    /// Player `me` as a name in a formula.
    fn me_name(&self, span: crate::diag::Span) -> Name {
        Name {
            text: self.seat.table.players[self.seat.me].as_str().into(),
            span,
        }
    }

    /// Refuses an instance of a guard or a score's `[φ]` that the player
    /// does not decide: not by syntax ([`knowledge::unread`]) and not
    /// `Kw_me φ` in the actual world. The one exemption: a rule whose move
    /// is a `glimpse`, played by a player whose game lets it look beyond
    /// its knowledge (the Cabo-like game's `psychic` player); every other
    /// rule of its strategy is checked. How each instance was decided is
    /// noted for [`knowledge::trial_games`].
    fn vet(&mut self, rule: &Rule, instance: &Formula, what: &str) -> Result<(), Diagnostic> {
        let table = &self.seat.table;
        let me_index = self.seat.me;
        if knowledge::glimpses(rule) && self.seat.game.reads_beyond_knowledge(table, me_index) {
            knowledge::note(self.seat.notes.as_ref(), rule, knowledge::Decided::Exempt);
            return Ok(());
        }
        let seat = self.seat;
        let decided =
            crate::interp::decides::decided(instance, me_index, &seat.table, |kw| self.ask(kw))?;
        let read = match decided {
            Ok(crate::interp::decides::Decided::BySyntax) => {
                knowledge::note(self.seat.notes.as_ref(), rule, knowledge::Decided::BySyntax);
                return Ok(());
            }
            Ok(crate::interp::decides::Decided::ByModel) => {
                knowledge::note(self.seat.notes.as_ref(), rule, knowledge::Decided::ByModel);
                return Ok(());
            }
            Err(sub) => sub.to_string(),
        };
        let me = &table.players[me_index];
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
            "a {what} may read the player's own hand, the public piles and what it knows (`K_me φ`, `Kw_me φ`, `M_me φ`); only a `glimpse` rule of a player declared `psychic` is not checked"
        )))
    }

    /// The referee's points or strength of the card bound to `var`.
    fn card_value(
        &self,
        what: CardValue,
        var: &str,
        bindings: &Bindings,
    ) -> Result<i64, Diagnostic> {
        let value = bindings
            .iter()
            .find(|(v, _)| v == var)
            .map(|(_, c)| c)
            .ok_or_else(|| super::error("strategy-score", format!("`{var}` is not bound")))?;
        let deck = &self.seat.table.deck;
        let card = match value {
            Value::Cards(ks) if ks.len() == 1 => &deck.kinds[ks[0]],
            other => {
                return Err(super::error(
                    "strategy-score",
                    format!("`{}` is no card", other.name(&self.seat.table)),
                ))
            }
        };
        let referee = self.referee.ok_or_else(|| {
            super::error("strategy-score", "this game has no referee to value cards")
        })?;
        Ok(match what {
            CardValue::Points => referee.card_points(card),
            CardValue::Strength => referee.card_strength(card),
        })
    }

    /// The largest n such that `K_me ATOM >= n` (at most the deck's size).
    fn known(
        &mut self,
        slot: Slot,
        atom: &Template,
        bindings: &Bindings,
        rule: &Rule,
    ) -> Result<i64, Diagnostic> {
        let atom = self.instance(slot, atom, bindings, rule)?;
        let FormulaKind::Named { name, card, .. } = &atom.kind else {
            unreachable!("a `known` atom is checked when the strategy is seated");
        };
        let mut n = 0;
        while n < i64::from(self.seat.table.deck.total()) {
            let at_least = Formula {
                kind: FormulaKind::Named {
                    name: name.clone(),
                    card: card.clone(),
                    count: Some((CmpOp::Ge, (n + 1) as u32)),
                },
                span: atom.span,
            };
            let knows = Formula {
                kind: FormulaKind::K(self.me_name(atom.span), Box::new(at_least)),
                span: atom.span,
            };
            if !self.ask(&knows)? {
                break;
            }
            n += 1;
        }
        Ok(n)
    }
}

/// The deck's answers to the strategy language's card functions.
struct Facts<'a>(&'a Deck);

impl Facts<'_> {
    fn card(&self, name: &str) -> Option<&crate::cards::CardKind> {
        self.0
            .kinds
            .iter()
            .find(|k| k.name.eq_ignore_ascii_case(name))
    }
}

impl CardFacts for Facts<'_> {
    fn ranks(&self) -> Vec<String> {
        self.0.ranks().into_iter().map(|(rank, _)| rank).collect()
    }

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
