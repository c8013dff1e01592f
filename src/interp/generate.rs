//! Generated questions: `dealer quiz FILE --generate N --seed S --level L`.
//!
//! The scenario is replayed once; the *points* are the state the setup
//! leaves (the deal or the model, before the first move) and the states
//! after each move and at each checkpoint (at most [`MOST_POINTS`], evenly spread),
//! and the questions are spread over them. A question is about a *fact*:
//! a card kind in a hand, a pile or a slot (`hand1(A)`, `forehead2(M)`), a
//! variable's value (`(month = 7)`), or a proposition. Level 1 asks what a
//! player knows of a fact (`K2 hand3(A)`, `K1 !hand2(Q)`, `Kw1 hand2(Q)`),
//! level 2 what a player knows of another's knowledge (`K1 K2 hand3(A)`,
//! `K1 !K3 ...`, `K1 Kw2 ...`, `M1 K2 ...`), level 3 group knowledge and
//! counts (`C`, `E`, `D{1,2}`, `who knows`, `considers 1`).
//!
//! Every question is worth asking: it needs a step of reasoning about
//! knowledge. A candidate is asked at a point only if its answer does not
//! follow from the facts alone there: `K_a φ` only when φ holds and is not
//! common knowledge, `K_a !φ` only when φ is false and that is not common
//! knowledge, `Kw_a φ` only when neither φ nor its negation is common
//! knowledge, a player is never asked about a place it sees, `D{a,b} φ`
//! only when neither knows φ alone, and so on. At one point no two
//! questions are about the same fact (no complementary pairs); a question
//! is asked again only once its answer has changed; a card kind laid down
//! in a book is not asked about.
//!
//! A small scenario (a proposition or two, a few points) has fewer facts
//! than questions asked for. Its last pass asks about one fact more than
//! once at a point, but never twice of the same player or pair of players
//! (`K_a dawn` and `K_b dawn`, never `K_a dawn` and `K_a !dawn`), and its
//! group questions may be about what a player knows (`C K_b dawn`: is it
//! common knowledge that b knows?).
//!
//! The work is bounded: candidates are drawn at random (seeded), the cheap
//! tests (who sees what, what was asked) come first, and at most
//! [`MOST_DECIDED`] formulas are decided at a point, so that a large model
//! is quizzed in seconds. At each point a yes-or-no question whose answer
//! is the opposite of the last one's is preferred while the budget lasts,
//! so that about half are true where the scenario allows it.
//! When fewer questions are found than asked for, [`Generated::note`] says
//! why. The same scenario, seed and level give the same questions.

use std::collections::{HashMap, HashSet};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cards::table::LocKind;
use crate::cards::Table;
use crate::diag::{Diagnostic, Span};
use crate::syntax::ast::StatementKind;

use super::question::Answer;
use super::quiz::Posed;
use super::session::{Options, Session};
use super::wording::agent;
use super::Script;

/// The most points questions are asked at.
pub const MOST_POINTS: usize = 16;
/// The most formulas decided at one point of a symbolic model, over all
/// the candidates tried there (the bound on the work on a large model); an
/// explicit model's point gets four times as many.
pub const MOST_DECIDED: usize = 48;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// How many questions.
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// 1: what a player knows of a fact; 2: what a player knows of
    /// another's knowledge; 3: common, mutual and distributed knowledge,
    /// who knows, and counts of worlds.
    pub level: u8,
}

/// What a level asks, in words (for the quiz's opening).
pub fn level_words(level: u8) -> &'static str {
    match level {
        1 => "level 1: what one player knows about the cards or values (one step of knowledge)",
        2 => "level 2: what one player knows about another player's knowledge (two steps)",
        _ => "level 3: what everybody, the group together or each player knows, and how many worlds a player considers",
    }
}

/// The generated questions.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    /// Each question with the index of the statement it is asked after,
    /// in the scenario's order.
    pub questions: Vec<(usize, Posed)>,
    /// Why fewer questions than asked for were found, if so.
    pub note: Option<String>,
}

/// Questions for `script` (see the module's documentation).
pub fn generate(
    script: &Script,
    options: Options,
    settings: Settings,
) -> Result<Generated, Diagnostic> {
    let points = points(script, options)?;
    let Some(first) = points.first().map(|(_, s)| s) else {
        return Err(nothing_to_ask(script));
    };
    let Some(table) = first.playing().map(|p| p.table.clone()) else {
        return Err(nothing_to_ask(script));
    };
    let facts = facts(first, &table);
    if facts.is_empty() && settings.level < 3 {
        return Ok(Generated {
            questions: Vec::new(),
            note: Some(format!(
                "{} has no cards, variables or propositions to ask about at level {}",
                script.name, settings.level
            )),
        });
    }
    let mut g = Generator {
        table: &table,
        facts: &facts,
        level: settings.level,
        rng: ChaCha8Rng::seed_from_u64(settings.seed),
        yes: false,
        relaxed: false,
        fine: false,
        chosen: Vec::new(),
        at_point: HashSet::new(),
        used: HashSet::new(),
        belief: false,
    };
    g.yes = g.rng.random_range(0..2) == 0;
    let n = points.len();
    let mut want = vec![0usize; n];
    for j in 0..settings.count {
        want[j * n / settings.count.max(1)] += 1;
    }
    let mut state: Vec<PointState> = points
        .iter()
        .map(|(_, s)| PointState::new(s, &table))
        .collect();
    // First pass: each point its share, a shortfall carried to the next;
    // second pass: what is still missing, wherever budget is left; third
    // (beyond level 1): what is missing, where what a player knows may be
    // common knowledge already, with half a budget more; fourth: what is
    // still missing, a fact asked again at a point of another player or
    // pair, group questions also about what a player knows.
    let mut carry = 0;
    for pass in 0..4 {
        if pass == 2 && settings.level == 1 {
            continue;
        }
        if pass >= 2 {
            if carry == 0 {
                break;
            }
            g.relaxed = settings.level > 1;
            g.fine = pass == 3;
            for s in &mut state {
                s.budget += MOST_DECIDED / 2;
                s.draws += 4 * MOST_DECIDED;
            }
        }
        for i in 0..n {
            let need = if pass == 0 { want[i] + carry } else { carry };
            if need == 0 {
                continue;
            }
            let got = g.fill(i, &points[i].1, &mut state[i], need);
            carry = need - got;
        }
    }
    let mut questions = Vec::new();
    for (i, text) in g.chosen {
        let index = points[i].0;
        let mut p = Posed::parse(&format!("question {text}"), 0)?;
        p.line = script.line(index);
        questions.push((index, p));
    }
    questions.sort_by_key(|(index, _)| *index);
    let note = (questions.len() < settings.count).then(|| {
        let facts_said = if facts.len() == 1 {
            "1 fact".to_string()
        } else {
            format!("{} facts", facts.len())
        };
        format!(
            "{} question(s) of {} asked for: at level {} nothing else worth asking was found at the {} point(s) of {} (a question is asked only where its answer needs reasoning about knowledge, not where the facts or what everybody already knows answer it; a point asks about each fact once of each player or pair, and this scenario has {facts_said} to ask about; at most {} formulas are decided at a point)",
            questions.len(),
            settings.count,
            settings.level,
            n,
            script.name,
            MOST_DECIDED
        )
    });
    Ok(Generated { questions, note })
}

fn nothing_to_ask(script: &Script) -> Diagnostic {
    Diagnostic::error(
        "nothing-to-ask",
        format!(
            "{} has no move or checkpoint after its deal, so there is no point to ask at",
            script.name
        ),
        Span::default(),
    )
    .with_help("questions are generated after each move and at each checkpoint")
}

/// The states after each move and at each checkpoint, with the index of
/// the statement, evenly thinned to [`MOST_POINTS`].
fn points(script: &Script, options: Options) -> Result<Vec<(usize, Session)>, Diagnostic> {
    let mut session = Session::new(options);
    let mut points = Vec::new();
    // The state the setup leaves (after the deal or the model, before the
    // first move): the opening point.
    let mut opening: Option<(usize, Session)> = None;
    let mut replay = session.replay(script, 0);
    while let Some(step) = replay.next() {
        step.outcome?;
        let Some(index) = step.index else {
            break;
        };
        let stmt = &script.statements[index];
        let at_point = super::is_move(stmt) || matches!(stmt.kind, StatementKind::Checkpoint(_));
        if !at_point && points.is_empty() && changes_setup(&stmt.kind) {
            opening = replay
                .session()
                .playing()
                .is_some()
                .then(|| (index, replay.session().clone()));
        }
        if at_point && replay.session().playing().is_some() {
            if points.is_empty() {
                // Asked at the opening only when a move follows it (a
                // checkpoint at once is the same state).
                if let Some(o) = opening.take() {
                    if super::is_move(stmt) {
                        points.push(o);
                    }
                }
            }
            points.push((index, replay.session().clone()));
        }
    }
    if points.len() > MOST_POINTS {
        let n = points.len();
        let keep: Vec<usize> = (0..MOST_POINTS)
            .map(|i| i * (n - 1) / (MOST_POINTS - 1))
            .collect();
        points = points
            .into_iter()
            .enumerate()
            .filter(|(i, _)| keep.contains(i))
            .map(|(_, p)| p)
            .collect();
    }
    Ok(points)
}

/// Whether a setup statement may change the model (a deal, a model, a
/// variable, a law...), so that the state after it may be the opening
/// point; queries, checks and definitions do not.
fn changes_setup(kind: &StatementKind) -> bool {
    !(kind.asks()
        || matches!(
            kind,
            StatementKind::Export(_)
                | StatementKind::Event(_)
                | StatementKind::Let(..)
                | StatementKind::Macro { .. }
        ))
}

/// A fact questions are about.
struct Fact {
    /// As a formula (`hand1(A)`, `(month = 7)`, `p`).
    text: String,
    /// The players who see it (never asked whether they know it).
    seen_by: Vec<usize>,
    /// The card kind it is about, if any.
    kind: Option<usize>,
}

/// The facts of the scenario: a card kind at each hand, pile and slot; a
/// variable's values; the propositions.
fn facts(session: &Session, table: &Table) -> Vec<Fact> {
    let mut out = Vec::new();
    for (l, loc) in table.locations.iter().enumerate() {
        if !matches!(
            loc.kind,
            LocKind::Hand(_) | LocKind::Pile | LocKind::Slot(..)
        ) {
            continue;
        }
        let name = table.location_name(l);
        for (k, kind) in table.deck.kinds.iter().enumerate() {
            out.push(Fact {
                text: format!("{name}({})", kind.name),
                seen_by: loc.seen_by.clone(),
                kind: Some(k),
            });
        }
    }
    for (name, lo, hi, seen_by) in session.variables() {
        for v in lo..=hi.min(lo + 31) {
            out.push(Fact {
                text: format!("({name} = {v})"),
                seen_by: seen_by.clone(),
                kind: None,
            });
        }
    }
    if let Some(p) = session.playing() {
        for prop in p.props.iter().filter(|p| !p.contains('#')) {
            out.push(Fact {
                text: prop.clone(),
                seen_by: Vec::new(),
                kind: None,
            });
        }
    }
    out
}

/// What is known of one point while questions are chosen there.
struct PointState {
    /// The card kinds laid down in a book.
    laid: Vec<bool>,
    /// Formulas decided so far.
    holds: HashMap<String, Option<bool>>,
    /// Formulas that may still be decided.
    budget: usize,
    /// Whether the model is symbolic (large).
    symbolic: bool,
    /// Candidates that may still be drawn.
    draws: usize,
}

impl PointState {
    fn new(session: &Session, table: &Table) -> PointState {
        let mut laid = vec![false; table.deck.kinds.len()];
        if let Some(p) = session.playing() {
            for (l, loc) in table.locations.iter().enumerate() {
                if matches!(loc.kind, LocKind::Books(_)) {
                    for (k, n) in table.real_cards(&*p.model, l).into_iter().enumerate() {
                        if n > 0 && k < laid.len() {
                            laid[k] = true;
                        }
                    }
                }
            }
        }
        let symbolic = session.playing().is_some_and(|p| {
            !matches!(
                p.model.representation(),
                crate::engine::Representation::Explicit
            )
        });
        PointState {
            symbolic,
            laid,
            holds: HashMap::new(),
            budget: if symbolic {
                MOST_DECIDED
            } else {
                4 * MOST_DECIDED
            },
            draws: 32 * MOST_DECIDED,
        }
    }

    /// Whether `f` holds, decided once (`None`: it cannot be decided, or
    /// the budget is spent).
    fn holds(&mut self, session: &Session, f: &str) -> Option<bool> {
        if let Some(v) = self.holds.get(f) {
            return *v;
        }
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let v = crate::syntax::parse_formula(f)
            .ok()
            .and_then(|ast| session.holds(&ast).ok());
        self.holds.insert(f.to_string(), v);
        v
    }

    /// Whether `f` holds in every world of the model: its common
    /// knowledge, as the model keeps only the worlds connected to the
    /// actual one (cheaper than `C` on a large symbolic model), decided
    /// once (`None`: it cannot be decided, or the budget is spent).
    fn valid(&mut self, session: &Session, f: &str) -> Option<bool> {
        let key = format!("valid {f}");
        if let Some(v) = self.holds.get(&key) {
            return *v;
        }
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let v = crate::syntax::parse_formula(f).ok().and_then(|ast| {
            let phi = session.formula(&ast).ok()?;
            session.playing()?.model.eval_valid(&phi).ok()
        });
        self.holds.insert(key, v);
        v
    }

    /// Whether a condition holds at the point.
    fn meets(&mut self, session: &Session, pre: &Pre) -> Option<bool> {
        match pre {
            Pre::True(f) => self.holds(session, f),
            Pre::False(f) => self.holds(session, f).map(|v| !v),
            // Common knowledge implies truth: a false formula is not.
            // On a large symbolic model, "someone does not know it" (not
            // `E`, hence not `C`) stands for "not common knowledge": a
            // stricter test that takes microseconds where `C` takes minutes.
            Pre::NotCommon(f) | Pre::NotCommonKnowledge(f) => match self.holds(session, f)? {
                false => Some(true),
                true if self.symbolic => self.holds(session, &format!("E {f}")).map(|v| !v),
                true => self.valid(session, f).map(|v| !v),
            },
        }
    }
}

/// A condition a candidate needs at a point to be worth asking.
enum Pre {
    True(String),
    False(String),
    /// Not common knowledge.
    NotCommon(String),
    /// What a player knows (or not) is not common knowledge: relaxed on
    /// the last pass.
    NotCommonKnowledge(String),
}

/// The forms of question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    K,
    KNot,
    Kw,
    KK,
    KNotK,
    KKw,
    MK,
    C,
    E,
    D,
    Who,
    Considers,
}

/// One candidate: its form, fact (or player, for `considers`) and players.
struct Candidate {
    form: Form,
    fact: usize,
    a: usize,
    b: usize,
    /// A group question about what player `b` knows of the fact (the last
    /// pass only).
    nested: bool,
}

impl Candidate {
    /// What no two questions at one point share: the fact, or (the last
    /// pass) the fact with the form's group and the players asked, so that
    /// the questions of one player about one fact stay one.
    fn topic(&self, fine: bool) -> Topic {
        if self.form == Form::Considers {
            return Topic::Player(self.a);
        }
        if !fine {
            return Topic::Fact(self.fact);
        }
        let group = match self.form {
            Form::C => 1,
            Form::E => 2,
            Form::Who => 3,
            Form::D => 4,
            _ => 0,
        };
        // The players the question names: one for `K_a`, two for `K_a K_b`
        // and `D{a,b}`, none for a group's (or b for a group's about b).
        let (a, b) = match self.form {
            Form::K | Form::KNot | Form::Kw => (self.a, self.a),
            Form::C | Form::E | Form::Who if self.nested => (usize::MAX, self.b),
            Form::C | Form::E | Form::Who => (usize::MAX, usize::MAX),
            _ => (self.a, self.b),
        };
        Topic::Fine(self.fact, group, a, b)
    }
}

/// What no two questions at one point share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Topic {
    Fact(usize),
    Player(usize),
    /// A fact, a form's group and players (the last pass).
    Fine(usize, u8, usize, usize),
}

fn not(f: &str) -> String {
    format!("!{f}")
}

struct Generator<'a> {
    table: &'a Table,
    facts: &'a [Fact],
    level: u8,
    rng: ChaCha8Rng,
    /// The answer the next yes-or-no question should have.
    yes: bool,
    /// Whether what a player knows may be common knowledge (the last
    /// pass, beyond level 1, when the strict one found too few).
    relaxed: bool,
    /// Whether a fact may be asked again at a point, of other players (the
    /// last pass).
    fine: bool,
    /// The questions so far: point and text.
    chosen: Vec<(usize, String)>,
    /// (point, topic) of the questions chosen: each question's coarse
    /// topic and its fine one.
    at_point: HashSet<(usize, Topic)>,
    /// (text, answer) of the questions chosen.
    used: HashSet<(String, String)>,
    /// Whether the point's model is one of beliefs (a move some player did
    /// not see): questions ask what players believe (`B`), which may be
    /// false, so a false fact is worth asking about, and a place a player
    /// sees may hold what that player does not believe.
    belief: bool,
}

impl Generator<'_> {
    fn k(&self, a: usize) -> String {
        let op = if self.belief { "B" } else { "K" };
        format!("{op}{}", agent(self.table, a))
    }

    /// A random candidate of the level (`None`: the draw does not fit).
    fn draw(&mut self) -> Option<Candidate> {
        let n = self.table.players.len();
        let considers = if self.fine {
            self.rng.random_range(0..4) == 0
        } else {
            self.chosen.len() % 4 == 3 && self.rng.random_range(0..2) == 0
        };
        if self.level >= 3 && considers {
            let a = self.rng.random_range(0..n);
            return Some(Candidate {
                form: Form::Considers,
                fact: a,
                a,
                b: a,
                nested: false,
            });
        }
        if self.facts.is_empty() {
            return None;
        }
        let forms: &[Form] = match (self.level, self.belief) {
            (1, false) => &[Form::K, Form::KNot, Form::Kw],
            (1, true) => &[Form::K, Form::KNot],
            (2, false) => &[Form::KK, Form::KNotK, Form::KKw, Form::MK],
            (2, true) => &[Form::KK, Form::KNotK],
            _ => &[Form::C, Form::E, Form::D, Form::D, Form::Who],
        };
        let form = forms[self.rng.random_range(0..forms.len())];
        let fact = self.rng.random_range(0..self.facts.len());
        let a = self.rng.random_range(0..n);
        let b = self.rng.random_range(0..n);
        let seen: &[usize] = if self.belief {
            &[]
        } else {
            &self.facts[fact].seen_by
        };
        let nested = self.fine
            && matches!(form, Form::C | Form::E | Form::Who)
            && self.rng.random_range(0..2) == 0;
        let fits = match form {
            Form::K | Form::KNot | Form::Kw => !seen.contains(&a),
            Form::KK | Form::KNotK | Form::KKw | Form::MK => a != b && !seen.contains(&b),
            Form::D => a < b && !seen.contains(&a) && !seen.contains(&b),
            Form::C | Form::E | Form::Who => !nested || !seen.contains(&b),
            Form::Considers => true,
        };
        fits.then_some(Candidate {
            form,
            fact,
            a,
            b,
            nested,
        })
    }

    /// The question's text (after `question`) and what it needs; `truth`:
    /// whether the fact holds at the point (questions beyond level 1 are
    /// about whichever of the fact and its negation holds).
    fn text(&self, c: &Candidate, truth: bool) -> (String, Vec<Pre>) {
        let (text, pres) = self.text_of(c, truth);
        if !self.belief || matches!(c.form, Form::D | Form::C | Form::E | Form::Who) {
            return (text, pres);
        }
        // A belief need not be true: what the facts decide for knowledge
        // they do not decide for belief.
        let pres = pres
            .into_iter()
            .filter(|p| !matches!(p, Pre::True(_) | Pre::False(_)))
            .collect();
        (text, pres)
    }

    fn text_of(&self, c: &Candidate, truth: bool) -> (String, Vec<Pre>) {
        if c.form == Form::Considers {
            return (format!("considers {}", self.table.players[c.a]), Vec::new());
        }
        let fact = self.facts[c.fact].text.clone();
        let f = match c.form {
            Form::K | Form::KNot | Form::Kw | Form::KKw => fact,
            _ if truth => fact,
            _ => not(&fact),
        };
        let (ka, kb) = (self.k(c.a), self.k(c.b));
        // A group question about what player b knows of the fact.
        let f = if c.nested { format!("{kb} {f}") } else { f };
        let kbf = format!("{kb} {f}");
        let kwb = format!("Kw{} {f}", agent(self.table, c.b));
        match c.form {
            Form::K => (
                format!("{ka} {f}"),
                vec![Pre::True(f.clone()), Pre::NotCommon(f)],
            ),
            Form::KNot => (
                format!("{ka} {}", not(&f)),
                vec![Pre::False(f.clone()), Pre::NotCommon(not(&f))],
            ),
            Form::Kw => (
                format!("Kw{} {f}", agent(self.table, c.a)),
                vec![Pre::NotCommon(f.clone()), Pre::NotCommon(not(&f))],
            ),
            Form::KK => (
                format!("{ka} {kbf}"),
                vec![Pre::True(kbf.clone()), Pre::NotCommonKnowledge(kbf)],
            ),
            Form::KNotK => (
                format!("{ka} {}", not(&kbf)),
                vec![
                    Pre::True(f),
                    Pre::False(kbf.clone()),
                    Pre::NotCommonKnowledge(not(&kbf)),
                ],
            ),
            Form::KKw => (
                format!("{ka} {kwb}"),
                vec![Pre::True(kwb.clone()), Pre::NotCommonKnowledge(kwb)],
            ),
            Form::MK => (
                format!("M{} {kbf}", agent(self.table, c.a)),
                vec![Pre::False(kbf.clone()), Pre::NotCommonKnowledge(not(&kbf))],
            ),
            Form::C => (format!("C {f}"), vec![Pre::True(f)]),
            Form::E => (
                format!("E {f}"),
                vec![Pre::True(f.clone()), Pre::NotCommon(f)],
            ),
            Form::D => (
                format!(
                    "D{{{},{}}} {f}",
                    self.table.players[c.a], self.table.players[c.b]
                ),
                vec![
                    Pre::True(f.clone()),
                    Pre::False(format!("{ka} {f}")),
                    Pre::False(format!("{kb} {f}")),
                ],
            ),
            Form::Who => (
                format!("who knows {f}"),
                vec![Pre::True(f.clone()), Pre::NotCommon(f)],
            ),
            Form::Considers => unreachable!("handled above"),
        }
    }

    /// Chooses up to `need` questions at point `i`; how many were chosen.
    fn fill(&mut self, i: usize, session: &Session, st: &mut PointState, need: usize) -> usize {
        let mut got = 0;
        let mut spares: Vec<(String, [Topic; 2], Answer)> = Vec::new();
        let mut tried: HashSet<String> = HashSet::new();
        self.belief = session.playing().is_some_and(|p| !p.model.is_s5());
        while got < need && st.budget > 0 && st.draws > 0 {
            st.draws -= 1;
            let Some(c) = self.draw() else {
                continue;
            };
            // `C` and `E` on a large symbolic model take minutes.
            if matches!(c.form, Form::C | Form::E) && st.symbolic {
                continue;
            }
            let topic = c.topic(false);
            let fine = c.topic(true);
            if self.at_point.contains(&(i, fine))
                || (!self.fine && self.at_point.contains(&(i, topic)))
            {
                continue;
            }
            if let Some(k) = self.facts.get(c.fact).and_then(|f| f.kind) {
                if c.form != Form::Considers && st.laid.get(k) == Some(&true) {
                    continue;
                }
            }
            let truth = match self.facts.get(c.fact) {
                Some(f) if c.form != Form::Considers => match st.holds(session, &f.text) {
                    Some(v) => v,
                    None => continue,
                },
                _ => true,
            };
            let (text, pres) = self.text(&c, truth);
            if !tried.insert(text.clone()) {
                continue;
            }
            let mut worth = true;
            for pre in &pres {
                if self.relaxed && matches!(pre, Pre::NotCommonKnowledge(_)) {
                    continue;
                }
                if st.meets(session, pre) != Some(true) {
                    worth = false;
                    break;
                }
            }
            if !worth || st.budget == 0 {
                continue;
            }
            st.budget -= 1;
            let Some(answer) = decide(session, &text) else {
                continue;
            };
            if self.used.contains(&(text.clone(), answer.to_string())) {
                continue;
            }
            let wanted = match answer {
                Answer::YesNo(v) => v == self.yes,
                _ => true,
            };
            if wanted {
                if self.take(i, text, [topic, fine], &answer) {
                    got += 1;
                }
            } else {
                spares.push((text, [topic, fine], answer));
            }
        }
        for (text, topics, answer) in spares {
            if got < need && self.take(i, text, topics, &answer) {
                got += 1;
            }
        }
        got
    }

    /// Chooses a question, unless its topic is taken at the point or it was
    /// asked with the same answer. `topics`: its coarse topic, checked
    /// before the last pass, and its fine one, always checked.
    fn take(&mut self, i: usize, text: String, topics: [Topic; 2], answer: &Answer) -> bool {
        let key = (text.clone(), answer.to_string());
        let [topic, fine] = topics;
        if self.at_point.contains(&(i, fine))
            || (!self.fine && self.at_point.contains(&(i, topic)))
            || self.used.contains(&key)
        {
            return false;
        }
        if let Answer::YesNo(v) = answer {
            self.yes = !v;
        }
        self.at_point.insert((i, topic));
        self.at_point.insert((i, fine));
        self.used.insert(key);
        self.chosen.push((i, text));
        true
    }
}

/// The answer of `question TEXT` at a point, if it can be given.
fn decide(session: &Session, text: &str) -> Option<Answer> {
    let p = Posed::parse(&format!("question {text}"), 0).ok()?;
    session
        .ask_question(&p.question, p.span, &p.src)
        .ok()
        .map(|a| a.answer)
}
