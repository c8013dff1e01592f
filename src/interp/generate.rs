//! Generated questions: `dealer quiz FILE --generate N --seed S --level L`.
//!
//! The scenario is replayed once; the *points* are the states after each
//! move and at each checkpoint (at most [`MOST_POINTS`], evenly spread).
//! Candidate questions are written from the table: level 1 asks about
//! hands (`K2 hand3(A)`, `K1 !hand2(Q)`, `Kw1 hand2(Q)`), level 2 about
//! knowledge of knowledge (`K1 K2 hand3(A)`, `K1 !K3 ...`, `M1 K2 ...`),
//! level 3 common and distributed knowledge and counts (`C !hand2(Q)`,
//! `D{1,2} hand3(A)`, `question considers 1`); a scenario without cards
//! asks the same of its propositions. The candidates, in a seeded order,
//! are decided by the engine at every point, and a candidate whose answer
//! is the same at every point is dropped (it teaches nothing about the
//! moves), until twice as many as asked for are kept (or
//! [`MOST_CANDIDATES`] were tried). The questions are then drawn, seeded, alternating between the
//! true and the false ones while both last, so that about half are true.
//! The same scenario, seed and level give the same questions.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
/// The most candidate questions decided at every point.
pub const MOST_CANDIDATES: usize = 150;

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// How many questions.
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// 1: facts about hands; 2: knowledge of knowledge; 3: common and
    /// distributed knowledge and counts.
    pub level: u8,
}

/// Questions for `script`: each with the index of the statement it is
/// asked after, in the scenario's order.
pub fn generate(
    script: &Script,
    options: Options,
    settings: Settings,
) -> Result<Vec<(usize, Posed)>, Diagnostic> {
    let points = points(script, options)?;
    let Some(table) = points
        .first()
        .and_then(|(_, s)| s.playing())
        .map(|p| p.table.clone())
    else {
        return Err(Diagnostic::error(
            "nothing-to-ask",
            format!(
                "{} has no move or checkpoint after its deal, so there is no point to ask at",
                script.name
            ),
            Span::default(),
        )
        .with_help("questions are generated after each move and at each checkpoint"));
    };
    let props = points[0]
        .1
        .playing()
        .map(|p| p.props.clone())
        .unwrap_or_default();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut texts = candidates(&table, &props, settings.level);
    shuffle(&mut texts, &mut rng);
    texts.truncate(MOST_CANDIDATES);
    // (candidate, point, answer) for the candidates whose answer changes;
    // candidates are decided until there are twice as many as questions.
    let enough = (2 * settings.count).max(8);
    let mut pool: Vec<(usize, usize, Answer)> = Vec::new();
    let mut posed = Vec::new();
    for text in &texts {
        if posed.len() >= enough {
            break;
        }
        let p = Posed::parse(&format!("question {text}"), 0)?;
        let Some(answers) = decide(&p, &points) else {
            continue;
        };
        if answers.iter().all(|a| *a == answers[0]) {
            continue;
        }
        let c = posed.len();
        posed.push(p);
        pool.extend(answers.into_iter().enumerate().map(|(i, a)| (c, i, a)));
    }
    let chosen = draw(pool, settings.count, &mut rng);
    let mut out: Vec<(usize, Posed)> = chosen
        .into_iter()
        .map(|(c, i)| {
            let index = points[i].0;
            let mut p = posed[c].clone();
            p.line = script.line(index);
            (index, p)
        })
        .collect();
    out.sort_by_key(|(index, _)| *index);
    Ok(out)
}

/// The states after each move and at each checkpoint, with the index of
/// the statement, evenly thinned to [`MOST_POINTS`].
fn points(script: &Script, options: Options) -> Result<Vec<(usize, Session)>, Diagnostic> {
    let mut session = Session::new(options);
    let mut points = Vec::new();
    let mut replay = session.replay(script, 0);
    while let Some(step) = replay.next() {
        step.outcome?;
        let Some(index) = step.index else {
            break;
        };
        let stmt = &script.statements[index];
        let at_point = super::is_move(stmt) || matches!(stmt.kind, StatementKind::Checkpoint(_));
        if at_point && replay.session().playing().is_some() {
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

/// The answers of `p` at every point; `None` when one cannot be given
/// (a count on a model whose counts are not exact).
fn decide(p: &Posed, points: &[(usize, Session)]) -> Option<Vec<Answer>> {
    points
        .iter()
        .map(|(_, s)| s.ask_question(&p.question, p.span, &p.src).ok())
        .map(|a| a.map(|a| a.answer))
        .collect()
}

/// Draws `count` questions from the pool, seeded: a number question every
/// fourth draw when there are any, and otherwise a yes-or-no question whose
/// answer is the opposite of the last one's (the first's is drawn) while
/// both kinds are left; each candidate at most once while unused
/// candidates are left.
fn draw(
    mut pool: Vec<(usize, usize, Answer)>,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<(usize, usize)> {
    let mut chosen = Vec::new();
    let mut used = std::collections::HashSet::new();
    // The truth of the next yes-or-no question, flipped after each one.
    let mut yes: bool = rng.random_range(0..2) == 0;
    let fits = |a: &Answer, sort: Sort| match (a, sort) {
        (Answer::YesNo(v), Sort::YesNo(w)) => *v == w,
        (Answer::Number(_) | Answer::Players(_), Sort::Number) => true,
        _ => false,
    };
    for i in 0..count {
        let mut sorts = Vec::new();
        if i % 4 == 3 {
            sorts.push(Sort::Number);
        }
        sorts.extend([Sort::YesNo(yes), Sort::YesNo(!yes), Sort::Number]);
        let pick = |pool: &[(usize, usize, Answer)], sort: Sort, fresh: bool| -> Vec<usize> {
            (0..pool.len())
                .filter(|&j| fits(&pool[j].2, sort) && (!fresh || !used.contains(&pool[j].0)))
                .collect()
        };
        let found = [true, false].iter().find_map(|&fresh| {
            sorts.iter().find_map(|&s| {
                let c = pick(&pool, s, fresh);
                (!c.is_empty()).then(|| c[rng.random_range(0..c.len())])
            })
        });
        let Some(j) = found else {
            break;
        };
        let (c, point, answer) = pool.swap_remove(j);
        if let Answer::YesNo(v) = answer {
            yes = !v;
        }
        used.insert(c);
        chosen.push((c, point));
    }
    chosen
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    YesNo(bool),
    Number,
}

fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// The candidate formulas of a level (after `question `), in a fixed order.
fn candidates(table: &Table, props: &[String], level: u8) -> Vec<String> {
    let n = table.players.len();
    let facts = facts(table, props);
    let k = |a: usize| format!("K{}", agent(table, a));
    let mut out = Vec::new();
    for a in 0..n {
        for (owner, fact) in &facts {
            match level {
                1 => {
                    if *owner == Some(a) {
                        continue;
                    }
                    out.push(format!("{} {fact}", k(a)));
                    out.push(format!("{} !{fact}", k(a)));
                    out.push(format!("Kw{} {fact}", agent(table, a)));
                }
                2 => {
                    for b in (0..n).filter(|&b| b != a && *owner != Some(b)) {
                        out.push(format!("{} {} {fact}", k(a), k(b)));
                        out.push(format!("{} !{} {fact}", k(a), k(b)));
                        out.push(format!("{} Kw{} {fact}", k(a), agent(table, b)));
                        out.push(format!("M{} {} {fact}", agent(table, a), k(b)));
                    }
                }
                _ => {
                    for b in (a + 1..n).filter(|&b| *owner != Some(a) && *owner != Some(b)) {
                        let g = format!("{{{},{}}}", table.players[a], table.players[b]);
                        out.push(format!("D{g} {fact}"));
                        out.push(format!("D{g} !{fact}"));
                    }
                }
            }
        }
    }
    if level >= 3 {
        for (_, fact) in &facts {
            out.push(format!("C {fact}"));
            out.push(format!("C !{fact}"));
            out.push(format!("E {fact}"));
        }
        for a in 0..n {
            out.push(format!("considers {}", table.players[a]));
        }
    }
    out
}

/// The facts questions are about: a card kind in a hand (with the hand's
/// owner), or a proposition.
fn facts(table: &Table, props: &[String]) -> Vec<(Option<usize>, String)> {
    if table.deck.kinds.is_empty() {
        return props
            .iter()
            .filter(|p| !p.contains('#'))
            .map(|p| (None, p.clone()))
            .collect();
    }
    let mut out = Vec::new();
    for p in 0..table.players.len() {
        let hand = table.location_name(table.hand(p));
        for kind in &table.deck.kinds {
            out.push((Some(p), format!("{hand}({})", kind.name)));
        }
    }
    out
}
