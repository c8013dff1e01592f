//! The quiz: a scenario stepped through with its questions put to a
//! student, the one loop `dealer quiz`, the REPL's `:quiz` and tests drive.
//!
//! [`Quiz::advance`] plays the scenario's statements up to the next
//! question and returns what happened on the way ([`Event`]s: the moves,
//! the rules' notes and what each move made known, in narration's words;
//! the answers of `?`, `expect` and `why` are kept back, as they would give
//! answers away). [`Quiz::answer`] checks the student's answer against the
//! model in the state the question is asked in and keeps a [`Record`].
//! The questions are the scenario's own `question` statements, or, when
//! [`Quiz::new`] is given generated ones ([`super::generate`]), those
//! (the scenario's own are then played as plain queries).

use std::collections::VecDeque;

use crate::diag::{Diagnostic, Span};
use crate::syntax::ast::{self, StatementKind};
use crate::syntax::parse_statement;

use super::narrate::{self, Knowledge};
use super::question::{Answer, Asked, Verdict};
use super::session::{Output, Session};
use super::wording;
use super::Script;

/// A question to pose: its statement and the text its spans point into.
#[derive(Clone, Debug)]
pub struct Posed {
    /// The question.
    pub question: ast::Question,
    /// The statement's span in `src`.
    pub span: Span,
    /// The text (the scenario's, or the generated statement's).
    pub src: String,
    /// The scenario line it is asked at.
    pub line: usize,
}

impl Posed {
    /// A generated question: `text` is one `question ...` statement, asked
    /// after the statement on `line`.
    pub fn parse(text: &str, line: usize) -> Result<Posed, Diagnostic> {
        let stmts = parse_statement(text).map_err(|e| e[0].to_diagnostic())?;
        match stmts.into_iter().next() {
            Some(ast::Statement {
                kind: StatementKind::Question(q),
                span,
            }) => Ok(Posed {
                question: q,
                span,
                src: text.to_string(),
                line,
            }),
            _ => Err(Diagnostic::error(
                "not-a-question",
                "a generated question must be one `question` statement",
                Span::new(0, text.len()),
            )),
        }
    }
}

/// What happened between two questions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move was played.
    Moved {
        /// Its line.
        line: usize,
        /// As written.
        source: String,
        /// In words ([`wording::move_words`]): what a student is shown.
        said: String,
        /// What the rules did on their own.
        notes: Vec<String>,
        /// What it made known, in words.
        narration: Vec<String>,
    },
    /// A checkpoint was passed.
    Checkpoint(String),
}

/// One question asked and answered.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Record {
    /// How many moves were played before it.
    pub step: usize,
    /// The scenario line it was asked at.
    pub line: usize,
    /// The question in words.
    pub question: String,
    /// What was asked, as written (`K1 !2_Q`, `considers 3`).
    pub formula: String,
    /// The model's answer.
    pub expected: String,
    /// The answer given, as typed (`None`: none); the last try's.
    pub given: Option<String>,
    /// Whether it was right.
    pub right: bool,
    /// The tries it took (a wrong first try gets a hint and another try,
    /// when the quiz allows two: [`Quiz::set_tries`]).
    pub tries: usize,
}

/// What a try at the pending question brought.
#[derive(Clone, Debug)]
pub enum Attempt {
    /// Right: recorded.
    Right(Verdict),
    /// Wrong, with a try left: the hint (the first step of the
    /// explanation); the question stays pending.
    TryAgain(String),
    /// Wrong, with no try left: recorded, with the explanation.
    Wrong(Verdict),
}

/// A quiz over a scenario.
pub struct Quiz {
    script: Script,
    session: Session,
    pos: usize,
    moves: usize,
    /// Generated questions by the index of the statement they follow
    /// (`None`: the scenario's own questions are asked).
    generated: Option<Vec<(usize, Posed)>>,
    queue: VecDeque<Posed>,
    pending: Option<(Posed, Asked)>,
    records: Vec<Record>,
    finished: bool,
    /// Tries per question ([`Quiz::attempt`]), and the wrong ones so far
    /// at the pending question.
    tries: usize,
    missed: usize,
    /// Whether moves are narrated ([`Quiz::set_narrate`]).
    narrate: bool,
    /// What each player knows in the last model narrated.
    narrator: narrate::Narrator,
}

impl Quiz {
    /// A quiz over `script` from its statement `pos`, in `session` (the
    /// state after the statements before `pos`). `generated`: questions to
    /// ask after the statement of each index, instead of the scenario's.
    pub fn new(
        script: Script,
        session: Session,
        pos: usize,
        generated: Option<Vec<(usize, Posed)>>,
    ) -> Quiz {
        let mut quiz = Quiz {
            script,
            session,
            pos,
            moves: 0,
            generated,
            queue: VecDeque::new(),
            pending: None,
            records: Vec::new(),
            finished: false,
            tries: 1,
            missed: 0,
            narrate: false,
            narrator: Default::default(),
        };
        // Questions generated for points before `pos` are not asked.
        if let Some(g) = &mut quiz.generated {
            g.retain(|(after, _)| *after >= pos);
        }
        quiz
    }

    /// How many tries [`Quiz::attempt`] gives a question (at least 1; 2:
    /// a wrong first try gets a hint and a second try).
    pub fn set_tries(&mut self, tries: usize) {
        self.tries = tries.max(1);
    }

    /// Whether the quiz narrates its moves ([`Event::Moved`]'s
    /// `narration`); off by default, since narration can give answers
    /// away, and computing it visits every world at each move.
    pub fn set_narrate(&mut self, narrate: bool) {
        self.narrate = narrate;
    }

    /// The hint for the pending question: the first step of reasoning
    /// towards its answer, in words, without the answer.
    pub fn hint(&self) -> Result<String, QuizError> {
        let Some((posed, _)) = &self.pending else {
            return Err(QuizError::NoQuestion);
        };
        self.session
            .hint(&posed.question, posed.span, &posed.src)
            .map_err(QuizError::Engine)
    }

    /// A try at the pending question (`given` as typed): right, or wrong
    /// with a hint and the question still pending while tries are left,
    /// or wrong and recorded with the explanation. An answer that cannot
    /// be read is an `Err` and uses no try.
    pub fn attempt(&mut self, given: &str) -> Result<Attempt, QuizError> {
        let (read, right) = self.read_pending(given)?;
        if !right && self.missed + 1 < self.tries {
            let hint = self.hint()?;
            self.missed += 1;
            return Ok(Attempt::TryAgain(hint));
        }
        let shown = read.to_string();
        let verdict = self.record(Some(read), Some(shown))?;
        Ok(if verdict.right {
            Attempt::Right(verdict)
        } else {
            Attempt::Wrong(verdict)
        })
    }

    /// The session in its current state.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The answers so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Right answers and questions asked.
    pub fn score(&self) -> (usize, usize) {
        let right = self.records.iter().filter(|r| r.right).count();
        (right, self.records.len())
    }

    /// The question waiting for an answer.
    pub fn pending(&self) -> Option<&Asked> {
        self.pending.as_ref().map(|(_, a)| a)
    }

    /// The scenario.
    pub fn script(&self) -> &Script {
        &self.script
    }

    /// What a student is shown before the first question, when the quiz
    /// starts at the beginning of its file: the file's opening comment,
    /// then the deal as the student may see it ([`deal_lines`]). Plays
    /// the declarations (the deal), so call it before [`Quiz::advance`];
    /// later it is empty.
    pub fn opening(&mut self) -> Result<Vec<String>, Diagnostic> {
        if self.pos != 0 || self.moves != 0 || !self.records.is_empty() {
            return Ok(Vec::new());
        }
        let mut lines = opening_comment(&self.script.src);
        let mut ignored = Vec::new();
        while let Some(stmt) = self.script.statements.get(self.pos) {
            if !declares(&stmt.kind) {
                break;
            }
            self.step(&mut ignored)?;
        }
        let at = self
            .script
            .statements
            .get(self.pos)
            .or(self.script.statements.last())
            .map_or(Span::default(), |s| s.span);
        if self.session.playing().is_none() && !self.script.statements.is_empty() {
            self.session.finish(at)?;
        }
        let deal = deal_lines(&self.session);
        if !deal.is_empty() {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.extend(deal);
        }
        Ok(lines)
    }

    /// Plays statements up to the next question; the events on the way and
    /// the question (`None` at the end of the scenario). An error stops the
    /// quiz (the session stays as before the failing statement).
    pub fn advance(&mut self) -> Result<(Vec<Event>, Option<Asked>), Diagnostic> {
        let mut events = Vec::new();
        if let Some((_, asked)) = &self.pending {
            return Ok((events, Some(asked.clone())));
        }
        loop {
            if let Some(posed) = self.queue.pop_front() {
                let (asked, _) =
                    self.session
                        .check_answer(&posed.question, posed.span, &posed.src, None)?;
                self.pending = Some((posed, asked.clone()));
                return Ok((events, Some(asked)));
            }
            if self.finished {
                return Ok((events, None));
            }
            self.step(&mut events)?;
        }
    }

    /// What each player knows in the session's model, for narration: a
    /// model small enough to narrate at each step, as the web lecture does
    /// ([`narrate::narrated_at_each_step`]).
    fn knowledge(&self) -> Option<Knowledge> {
        let play = self.session.playing()?;
        if !self.narrate || !narrate::narrated_at_each_step(&*play.model) {
            return None;
        }
        self.narrator.knowledge(&play.table, &play.model)
    }

    /// Runs the next statement (or the end), queueing the questions it brings.
    fn step(&mut self, events: &mut Vec<Event>) -> Result<(), Diagnostic> {
        let Some(stmt) = self.script.statements.get(self.pos).cloned() else {
            self.finished = true;
            return self.session.finish(
                self.script
                    .statements
                    .last()
                    .map_or(Span::default(), |s| s.span),
            );
        };
        let index = self.pos;
        let line = self.script.line(index);
        if let (StatementKind::Question(q), None) = (&stmt.kind, &self.generated) {
            self.session.finish(stmt.span)?;
            self.queue.push_back(Posed {
                question: q.clone(),
                span: stmt.span,
                src: self.script.src.clone(),
                line,
            });
            self.pos += 1;
            return Ok(());
        }
        let moving = super::is_move(&stmt);
        let before = moving.then(|| self.knowledge()).flatten();
        let said = match &stmt.kind {
            StatementKind::Move(m) => self.session.playing().map(|p| {
                wording::move_words(&p.table, &p.props, &m.kind, |f| {
                    self.session.formula(f).ok()
                })
            }),
            _ => None,
        };
        let outputs = self.session.execute(&stmt, &self.script.src)?;
        self.pos += 1;
        for out in outputs {
            match out {
                Output::Moved { source, notes } => {
                    self.moves += 1;
                    let narration = match (&before, self.knowledge()) {
                        (Some(b), Some(a)) => self.session.playing().map_or(Vec::new(), |p| {
                            narrate::lines(&p.table, &narrate::narrate(b, &a))
                        }),
                        _ => Vec::new(),
                    };
                    events.push(Event::Moved {
                        line,
                        said: said.clone().unwrap_or_else(|| source.clone()),
                        source,
                        notes,
                        narration,
                    });
                }
                Output::Checkpoint(name) => events.push(Event::Checkpoint(name)),
                _ => {}
            }
        }
        if let Some(g) = &self.generated {
            self.queue.extend(
                g.iter()
                    .filter(|(after, _)| *after == index)
                    .map(|(_, p)| p.clone()),
            );
        }
        Ok(())
    }

    /// Checks `given` (as typed; `None`: no answer) against the pending
    /// question, records it and explains a wrong answer. An answer that
    /// cannot be read is an `Err` with what was expected, and the question
    /// stays pending.
    pub fn answer(&mut self, given: Option<&str>) -> Result<Verdict, QuizError> {
        if self.pending.is_none() {
            return Err(QuizError::NoQuestion);
        }
        let read = given.map(|t| self.read_pending(t)).transpose()?;
        let read = read.map(|(answer, _)| answer);
        let shown = read.as_ref().map(Answer::to_string);
        self.record(read, shown)
    }

    /// `given` (as typed) read as an answer to the pending question, and
    /// whether it is the right one.
    fn read_pending(&self, given: &str) -> Result<(Answer, bool), QuizError> {
        let Some((_, asked)) = &self.pending else {
            return Err(QuizError::NoQuestion);
        };
        let players = self
            .session
            .playing()
            .map_or(Vec::new(), |p| p.table.players.clone());
        let read = asked
            .answer
            .read(given, &players)
            .map_err(QuizError::Unreadable)?;
        let right = read == asked.answer;
        Ok((read, right))
    }

    /// Records an answer that could not be read (`raw`, as typed) as wrong,
    /// with the explanation of the right one.
    pub fn unreadable(&mut self, raw: &str) -> Result<Verdict, QuizError> {
        if self.pending.is_none() {
            return Err(QuizError::NoQuestion);
        }
        self.record(None, Some(raw.trim().to_string()))
    }

    fn record(
        &mut self,
        read: Option<Answer>,
        shown: Option<String>,
    ) -> Result<Verdict, QuizError> {
        let Some((posed, asked)) = self.pending.clone() else {
            return Err(QuizError::NoQuestion);
        };
        let (_, verdict) = self
            .session
            .check_answer(&posed.question, posed.span, &posed.src, read.as_ref())
            .map_err(QuizError::Engine)?;
        self.records.push(Record {
            step: self.moves,
            line: posed.line,
            question: asked.text.clone(),
            formula: asked.formula.clone(),
            expected: asked.answer.to_string(),
            given: shown,
            right: verdict.right,
            tries: self.missed + 1,
        });
        self.pending = None;
        self.missed = 0;
        Ok(verdict)
    }
}

/// Whether an answer line asks to stop the quiz: `quit`, `:q` or
/// `:quit` (the score of the questions answered is kept).
pub fn is_quit(line: &str) -> bool {
    matches!(line.trim().to_lowercase().as_str(), "quit" | ":q" | ":quit")
}

/// Why an answer was not taken.
#[derive(Debug)]
pub enum QuizError {
    /// No question is waiting.
    NoQuestion,
    /// The answer cannot be read: what was expected.
    Unreadable(String),
    /// The engine failed while explaining.
    Engine(Diagnostic),
}

/// The comment lines a file opens with, without their `#`.
pub fn opening_comment(src: &str) -> Vec<String> {
    src.lines()
        .map(str::trim_start)
        .take_while(|l| l.starts_with('#'))
        .map(|l| {
            let l = l.trim_start_matches('#');
            l.strip_prefix(' ').unwrap_or(l).trim_end().to_string()
        })
        .collect()
}

/// Whether a statement declares (the game, players, deck, piles, deal,
/// names, variables, models, events) rather than moves or asks.
fn declares(kind: &StatementKind) -> bool {
    kind.sets_table()
        || matches!(
            kind,
            StatementKind::Let(..)
                | StatementKind::Macro { .. }
                | StatementKind::Model(_)
                | StatementKind::Event(_)
        )
}

/// The deal as a student may see it: what each player sees (a hand, a
/// pile some player sees) card by card; a place nobody sees (the stock, a
/// face-down slot) only by its number of cards; a variable by its range
/// and who sees it, never its value. Empty before the deal.
pub fn deal_lines(session: &Session) -> Vec<String> {
    use crate::cards::rules::describe_player;
    use crate::cards::LocKind;
    let Some(play) = session.playing() else {
        return Vec::new();
    };
    let table = &play.table;
    let names = |who: &[usize]| {
        let names: Vec<String> = who.iter().map(|&a| describe_player(table, a)).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    };
    let mut lines = Vec::new();
    if !table.deck.kinds.is_empty() && play.model.actual_cards().len() == table.locations.len() {
        let model = &*play.model;
        // Hands are said when some player holds a card (muddy children hold none).
        let hands = (0..table.players.len()).any(|p| {
            table
                .real_cards(model, table.hand(p))
                .iter()
                .any(|&n| n > 0)
        });
        for (loc, location) in table.locations.iter().enumerate() {
            let counts = table.real_cards(model, loc);
            let total: u32 = counts.iter().sum();
            let cards: Vec<&str> = counts
                .iter()
                .enumerate()
                .flat_map(|(k, &n)| {
                    std::iter::repeat_n(table.deck.kinds[k].name.as_str(), n as usize)
                })
                .collect();
            let line = match location.kind {
                LocKind::Hand(_) if !hands => continue,
                LocKind::Hand(p) => format!(
                    "{} holds {}",
                    describe_player(table, p),
                    if cards.is_empty() {
                        "no card".to_string()
                    } else {
                        cards.join(" ")
                    }
                ),
                _ if total == 0 => continue,
                _ if location.seen_by.is_empty() => format!(
                    "the {}: {total} card{}, face down",
                    wording::pile_name(&location.name),
                    if total == 1 { "" } else { "s" }
                ),
                _ => format!(
                    "the {} (seen by {}): {}",
                    wording::pile_name(&location.name),
                    names(&location.seen_by),
                    cards.join(" ")
                ),
            };
            lines.push(format!("  {line}"));
        }
    }
    // A table of many players (a hundred muddy children) is summed up.
    const SHOWN: usize = 24;
    if lines.len() > SHOWN {
        let more = lines.len() - SHOWN;
        lines.truncate(SHOWN);
        lines.push(format!("  ... and {more} more"));
    }
    for (name, lo, hi, seen) in session.variables() {
        let by = if seen.is_empty() {
            "seen by nobody".to_string()
        } else {
            format!("seen by {}", names(&seen))
        };
        lines.push(format!("  {name}: a value from {lo} to {hi}, {by}"));
    }
    if !lines.is_empty() {
        lines.insert(0, "The deal, as you may see it:".into());
    }
    lines.extend(world_legend(session));
    lines
}

/// How an explanation writes a world of cards, with an example from the
/// deal: `w3* 1:QA 2:Q stock:AA`, `*` marking the actual world (no
/// backquote: what the quiz says after the file's comment is plain words).
fn world_legend(session: &Session) -> Option<String> {
    use crate::cards::rules::describe_player;
    use crate::cards::LocKind;
    let play = session.playing()?;
    let table = &play.table;
    if table.deck.kinds.is_empty() || play.model.actual_cards().len() != table.locations.len() {
        return None;
    }
    // A hand with cards, else a pile with cards, else none.
    let with_cards = |hand: bool| {
        table.locations.iter().enumerate().find_map(|(l, loc)| {
            let counts = table.real_cards(&*play.model, l);
            let fits = match loc.kind {
                LocKind::Hand(_) => hand,
                LocKind::Pile => !hand,
                _ => false,
            };
            (fits && counts.iter().any(|&n| n > 0)).then_some((loc, counts))
        })
    };
    let (loc, counts) = with_cards(true).or_else(|| with_cards(false))?;
    let holder = match loc.kind {
        LocKind::Hand(p) => describe_player(table, p),
        _ => format!("the {}", wording::pile_name(&loc.name)),
    };
    let cards = table.deck.show_cards(&counts);
    Some(format!(
        "(An explanation writes a world on one line: its name, * for the actual one, then each place with its cards; “{}:{cards}” means {holder} holds {cards}.)",
        loc.name,
    ))
}
