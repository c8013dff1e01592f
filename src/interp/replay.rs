//! Replaying a scenario: the one loop every front end drives.
//!
//! [`Script::parse`] reads a scenario's text into statements;
//! [`Session::replay`] returns a [`Replay`], an iterator of [`Step`]s: one
//! per statement, in order, then one for the end of the scenario (where
//! [`Session::finish`] checks a deal that no statement played). The
//! iteration stops after the first step that fails; the session is then as
//! it was before that statement, and [`Replay::position`] points at it.
//!
//! `dealer run` and `check` print every step, `export` stops at a
//! checkpoint, `bench` times every step and the REPL runs the steps of a
//! loaded file up to the next move.

use std::rc::Rc;

use crate::diag::{Diagnostic, LineIndex, Span};
use crate::syntax::{
    self,
    ast::{Statement, StatementKind},
};

use super::session::{Output, Session};

/// A scenario's text and its statements.
#[derive(Clone, Debug)]
pub struct Script {
    /// Its name for messages: the file as given, or `<input>`.
    pub name: String,
    /// Its text.
    pub src: String,
    /// Its statements, in order.
    pub statements: Vec<Statement>,
    /// Where its lines start (a long scenario's lines found once).
    lines: LineIndex,
}

impl Script {
    /// Parses `src`; every syntax error as a located diagnostic.
    pub fn parse(name: &str, src: &str) -> Result<Script, Vec<Diagnostic>> {
        let scenario = syntax::parse(src)
            .map_err(|errors| errors.iter().map(|e| e.to_diagnostic()).collect::<Vec<_>>())?;
        Ok(Script {
            name: name.to_string(),
            src: src.to_string(),
            statements: scenario.statements,
            lines: LineIndex::new(src),
        })
    }

    /// The 1-based line where statement `i` starts.
    pub fn line(&self, i: usize) -> usize {
        self.statements
            .get(i)
            .map_or(0, |s| self.lines.line(s.span.start))
    }

    /// The text of statement `i`, trimmed.
    pub fn text(&self, i: usize) -> &str {
        self.statements.get(i).map_or("", |s| {
            self.src.get(s.span.start..s.span.end).unwrap_or("").trim()
        })
    }

    /// The span the end of the scenario is reported at: its last statement.
    fn end(&self) -> Span {
        self.statements.last().map_or(Span::default(), |s| s.span)
    }
}

/// What one statement (or the end of the scenario) did.
#[derive(Debug)]
pub struct Step {
    /// The statement's index in the script; `None` for the end.
    pub index: Option<usize>,
    /// The 1-based line of the statement (of the last statement for the end).
    pub line: usize,
    /// What it produced, or why it was refused (the session is then unchanged).
    pub outcome: Result<Vec<Output>, Diagnostic>,
}

/// The statements of a script run one at a time through a session.
pub struct Replay<'a> {
    session: &'a mut Session,
    script: &'a Script,
    pos: usize,
    state: State,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Statements,
    Finished,
    Stopped,
}

impl Session {
    /// Replays `script` from its statement `from` (0 for the whole scenario).
    pub fn replay<'a>(&'a mut self, script: &'a Script, from: usize) -> Replay<'a> {
        Replay {
            session: self,
            script,
            pos: from,
            state: State::Statements,
        }
    }
}

impl Replay<'_> {
    /// The session as it stands between steps.
    pub fn session(&self) -> &Session {
        self.session
    }

    /// The index of the next statement to run (of the failed one after an error).
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The next statement to run, if any is left.
    pub fn peek(&self) -> Option<&Statement> {
        match self.state {
            State::Statements => self.script.statements.get(self.pos),
            _ => None,
        }
    }

    /// Whether the last step failed.
    pub fn stopped(&self) -> bool {
        self.state == State::Stopped
    }
}

impl Iterator for Replay<'_> {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if self.state != State::Statements {
            return None;
        }
        let script = self.script;
        let Some(stmt) = script.statements.get(self.pos) else {
            self.state = State::Finished;
            let outcome = self.session.finish(script.end()).map(|()| Vec::new());
            if outcome.is_err() {
                self.state = State::Stopped;
            }
            let line = script.line(script.statements.len().saturating_sub(1));
            return Some(Step {
                index: None,
                line: line.max(1),
                outcome,
            });
        };
        let outcome = self.session.execute(stmt, &script.src);
        let step = Step {
            index: Some(self.pos),
            line: script.line(self.pos),
            outcome,
        };
        if step.outcome.is_err() {
            self.state = State::Stopped;
        } else {
            self.pos += 1;
        }
        Some(step)
    }
}

/// A position in a script: the session after the statements before
/// `pos`, and what a front end keeps with it (`extra`: the lecture's lines
/// of output; nothing for the REPL).
#[derive(Clone)]
pub struct Mark<X> {
    /// The session at this position.
    pub session: Session,
    /// The index of the next statement to run.
    pub pos: usize,
    /// The front end's own record of the way here.
    pub extra: X,
}

/// What a step does when a statement fails (or the front end says a
/// statement went wrong).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnError {
    /// Stay where it stopped: the statements before the failing one stay
    /// played, and the step can be undone (the lecture shows the problem
    /// at its line).
    Stop,
    /// Go back to where the step started, as if it had not been taken
    /// (the REPL's all or nothing).
    Undo,
}

/// A script stepped through move by move, with undo: the one stepper of
/// the REPL's loaded file and the web lecture. A step runs the next move
/// and the statements after it, up to the following move; every position
/// a step leaves is kept (sessions are cheap to clone: models are
/// shared), so that undoing, restarting and going back to a checkpoint
/// restore exactly the earlier session without replaying anything.
///
/// The front end watches every statement it runs: `before` is called
/// with the session before the statement (the REPL notes what is known,
/// for narration), `after` with the script, the step and the session
/// after it, and
/// returns whether all went well (a figure that cannot be written fails
/// the REPL's step, though the statement ran).
#[derive(Clone)]
pub struct Stepper<X: Clone = ()> {
    script: Script,
    now: Mark<X>,
    /// The start and the positions to undo to are shared, never copied:
    /// a copy of the stepper (the web lecture changes a copy and keeps
    /// it when the change succeeds) costs the same at any length.
    start: Rc<Mark<X>>,
    undo: Vec<Rc<Mark<X>>>,
}

impl<X: Clone> Stepper<X> {
    /// At the start of `script`, with `session` (no statement run).
    pub fn new(script: Script, session: Session, extra: X) -> Stepper<X> {
        let now = Mark {
            session,
            pos: 0,
            extra,
        };
        Stepper {
            script,
            start: Rc::new(now.clone()),
            now,
            undo: Vec::new(),
        }
    }

    /// The script.
    pub fn script(&self) -> &Script {
        &self.script
    }

    /// The session at the current position.
    pub fn session(&self) -> &Session {
        &self.now.session
    }

    /// The session at the current position, for statements typed between
    /// steps (keep a [`Stepper::mark`] to restore or remember).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.now.session
    }

    /// The index of the next statement to run.
    pub fn pos(&self) -> usize {
        self.now.pos
    }

    /// The front end's record at the current position.
    pub fn extra(&self) -> &X {
        &self.now.extra
    }

    /// Every position kept: the start, the current one and those to undo
    /// to (what the stepper holds, for an estimate of its memory).
    pub fn positions(&self) -> impl Iterator<Item = &Mark<X>> {
        [&*self.start, &self.now]
            .into_iter()
            .chain(self.undo.iter().map(|m| &**m))
    }

    /// How many positions can be undone.
    pub fn steps(&self) -> usize {
        self.undo.len()
    }

    /// Whether every statement ran.
    pub fn at_end(&self) -> bool {
        self.now.pos >= self.script.statements.len()
    }

    /// Whether statement `i` is a move (where a step ends).
    pub fn is_move(&self, i: usize) -> bool {
        self.script.statements.get(i).is_some_and(is_move)
    }

    /// The index of the checkpoint statement `name`, if any.
    pub fn checkpoint(&self, name: &str) -> Option<usize> {
        self.script
            .statements
            .iter()
            .position(|s| matches!(&s.kind, StatementKind::Checkpoint(n) if n.text == name))
    }

    /// The current position, to [`Stepper::restore`] or
    /// [`Stepper::remember`] later.
    pub fn mark(&self) -> Mark<X> {
        self.now.clone()
    }

    /// Goes back to `mark` (typed statements that failed), keeping the
    /// positions to undo as they are.
    pub fn restore(&mut self, mark: Mark<X>) {
        self.now = mark;
    }

    /// Keeps `mark` as a position to undo to (typed statements that
    /// changed the session).
    pub fn remember(&mut self, mark: Mark<X>) {
        self.undo.push(Rc::new(mark));
    }

    /// Makes the current position the one [`Stepper::restart`] returns
    /// to, with nothing to undo (after a file is loaded).
    pub fn set_start(&mut self) {
        self.start = Rc::new(self.now.clone());
        self.undo.clear();
    }

    /// Back to the start, with nothing to undo.
    pub fn restart(&mut self) {
        self.now = (*self.start).clone();
        self.undo.clear();
    }

    /// Undoes `n` positions, as many as there are at most; returns how
    /// many were undone.
    pub fn undo(&mut self, n: usize) -> usize {
        let steps = n.min(self.undo.len());
        for _ in 0..steps {
            if let Some(m) = self.undo.pop() {
                self.now = Rc::unwrap_or_clone(m);
            }
        }
        steps
    }

    /// Runs the statements from the current position while `stop` (given
    /// whether a move was played, and the next statement) is false,
    /// stopping after a statement that fails; returns whether one failed
    /// or `after` said so. Keeps nothing to undo.
    pub fn run<B>(
        &mut self,
        mut stop: impl FnMut(bool, &Statement) -> bool,
        mut before: impl FnMut(&Session, &Statement) -> B,
        mut after: impl FnMut(&mut X, &Script, &Session, Step, B) -> bool,
    ) -> bool {
        let mut failed = false;
        let mut moved = false;
        let mut replay = self.now.session.replay(&self.script, self.now.pos);
        while let Some(stmt) = replay.peek() {
            if stop(moved, stmt) {
                break;
            }
            moved |= is_move(stmt);
            let watched = before(replay.session(), stmt);
            let Some(step) = replay.next() else {
                break;
            };
            let broke = step.outcome.is_err();
            failed |= !after(
                &mut self.now.extra,
                &self.script,
                replay.session(),
                step,
                watched,
            ) || broke;
            if broke {
                break;
            }
        }
        self.now.pos = replay.position();
        failed
    }

    /// One step: the next move and the statements after it, up to the
    /// following move; the position before it is kept to undo. Returns
    /// whether it failed (then as `on_error` says).
    pub fn step<B>(
        &mut self,
        on_error: OnError,
        before: impl FnMut(&Session, &Statement) -> B,
        after: impl FnMut(&mut X, &Script, &Session, Step, B) -> bool,
    ) -> bool {
        let begin = self.now.clone();
        let failed = self.run(|moved, st| moved && is_move(st), before, after);
        if failed && on_error == OnError::Undo {
            self.now = begin;
        } else if begin.pos != self.now.pos {
            self.undo.push(Rc::new(begin));
        }
        failed
    }

    /// Goes to the step that passes statement `target` (a checkpoint):
    /// back by undoing, or forward by stepping; returns whether a step
    /// failed on the way (where it stops, as `on_error` says).
    pub fn goto<B>(
        &mut self,
        target: usize,
        on_error: OnError,
        mut before: impl FnMut(&Session, &Statement) -> B,
        mut after: impl FnMut(&mut X, &Script, &Session, Step, B) -> bool,
    ) -> bool {
        while self.undo.last().is_some_and(|m| m.pos > target) {
            self.now = Rc::unwrap_or_clone(self.undo.pop().expect("checked"));
        }
        while self.now.pos <= target && !self.at_end() {
            let pos = self.now.pos;
            if self.step(on_error, &mut before, &mut after) {
                return true;
            }
            if self.now.pos == pos {
                break;
            }
        }
        false
    }
}

/// Whether `stmt` is a move: a step of the game, where the REPL and the
/// lecture view stop and narrate. A game's declaration (`psychic 2`) is
/// written like a game's move but sets the table up: not a move.
pub fn is_move(stmt: &Statement) -> bool {
    match &stmt.kind {
        StatementKind::Move(crate::syntax::ast::Move {
            kind: crate::syntax::ast::MoveKind::Game { word, .. },
            ..
        }) => !crate::cards::game::declaration_words().any(|w| w == word.text),
        StatementKind::Move(_) => true,
        _ => false,
    }
}

/// The name to show and the text of a scenario file; `-` reads standard
/// input (shown as `<stdin>`). At most [`syntax::MAX_SOURCE_BYTES`] are
/// read; the text must be UTF-8 ([`syntax::source_text`]). A file that
/// cannot be read is a `cannot-read` diagnostic with no place in a text.
pub fn read_source(file: &std::path::Path) -> Result<(String, String), crate::diag::Diagnostic> {
    let cannot = |e: String| crate::diag::Diagnostic::unlocated("cannot-read", e);
    use std::io::Read;
    let limit = crate::syntax::MAX_SOURCE_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let name = if file.as_os_str() == "-" {
        std::io::stdin()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| cannot(format!("cannot read the standard input: {e}")))?;
        "<stdin>".to_string()
    } else {
        let name = file.display().to_string();
        std::fs::File::open(file)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .map_err(|e| cannot(format!("cannot read {name}: {e}")))?;
        name
    };
    let src = crate::syntax::source_text(&name, bytes).map_err(cannot)?;
    Ok((name, src))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::Options;

    fn script(src: &str) -> Script {
        Script::parse("t.deal", src).expect("parses")
    }

    #[test]
    fn one_step_per_statement_then_the_end() {
        let s = script("players 1 2\ndeck A B\ndeal 1: A | 2: B\n? K1 1(A)\n");
        let mut session = Session::new(Options::default());
        let steps: Vec<Step> = session.replay(&s, 0).collect();
        assert_eq!(steps.len(), 5);
        assert_eq!(steps[3].line, 4);
        assert_eq!(steps[4].index, None);
        let answers: Vec<&Output> = steps[3].outcome.as_ref().expect("ok").iter().collect();
        assert!(matches!(answers[..], [Output::Answer { value: true, .. }]));
    }

    #[test]
    fn stops_at_the_first_error_and_points_at_it() {
        let s = script("players 1 2\ndeck A B\ndeal 1: A | 2: B\n? K3 1(A)\n? true\n");
        let mut session = Session::new(Options::default());
        let mut replay = session.replay(&s, 0);
        let outcomes: Vec<bool> = replay.by_ref().map(|s| s.outcome.is_ok()).collect();
        assert_eq!(outcomes, [true, true, true, false]);
        assert!(replay.stopped());
        assert_eq!(replay.position(), 3);
    }

    /// A scenario of three moves, a checkpoint after the second, and a
    /// query that fails after the third.
    const STEPS: &str = "players 1 2 3\ndeck A B C\ndeal 1: A | 2: B | 3: C\n\
        ? K1 2(C)\nannounce 1(A)\n? K2 1(A)\nannounce 2(B)\ncheckpoint \"two\"\n? K2 1(B)\n\
        announce 3(C)\n? K4 1(A)\n? true\n";

    /// A stepper over [`STEPS`] whose record is the indices run, played
    /// to its first move.
    fn stepper() -> Stepper<Vec<usize>> {
        let mut s = Stepper::new(script(STEPS), Session::new(Options::default()), Vec::new());
        let failed = s.run(|_, st| is_move(st), |_, _| (), record);
        assert!(!failed);
        s.set_start();
        s
    }

    fn record(ran: &mut Vec<usize>, _: &Script, _: &Session, step: Step, (): ()) -> bool {
        ran.extend(step.index.filter(|_| step.outcome.is_ok()));
        true
    }

    fn step(s: &mut Stepper<Vec<usize>>, on_error: OnError) -> bool {
        s.step(on_error, |_, _| (), record)
    }

    /// The model's worlds at the current position.
    fn worlds(s: &Stepper<Vec<usize>>) -> u128 {
        s.session().playing().expect("dealt").model.world_count()
    }

    #[test]
    fn steps_run_a_move_and_what_follows_it_and_undo_restores_them() {
        let mut s = stepper();
        assert_eq!((s.pos(), s.extra().clone()), (4, vec![0, 1, 2, 3]));
        let dealt = worlds(&s);
        assert!(!step(&mut s, OnError::Stop));
        assert_eq!((s.pos(), s.steps()), (6, 1));
        assert!(worlds(&s) < dealt, "the announcement removed worlds");
        let shown = worlds(&s);
        assert!(!step(&mut s, OnError::Stop));
        assert_eq!(s.pos(), 9);
        assert_eq!(s.undo(5), 2);
        assert_eq!((s.pos(), worlds(&s), s.steps()), (4, dealt, 0));
        // Back to the checkpoint: forward by stepping, back by undoing.
        let two = s.checkpoint("two").expect("a checkpoint");
        assert!(!s.goto(two, OnError::Stop, |_, _| (), record));
        assert_eq!((s.pos(), s.steps()), (9, 2));
        assert!(s.extra().contains(&two));
        step(&mut s, OnError::Stop);
        assert!(!s.goto(two, OnError::Stop, |_, _| (), record));
        assert_eq!(s.pos(), 9);
        s.undo(1);
        assert_eq!(worlds(&s), shown);
        s.restart();
        assert_eq!((s.pos(), worlds(&s), s.steps()), (4, dealt, 0));
    }

    #[test]
    fn a_failing_step_stops_at_its_statement_or_is_undone() {
        let mut s = stepper();
        step(&mut s, OnError::Stop);
        step(&mut s, OnError::Stop);
        let before = (s.pos(), worlds(&s), s.steps());
        // `? K4 1(A)` names no player 4.
        let mut undone = s.clone();
        assert!(step(&mut s, OnError::Stop));
        assert_eq!(
            (s.pos(), s.steps()),
            (10, 3),
            "stopped at the failing query"
        );
        assert_eq!(s.undo(1), 1);
        assert_eq!((s.pos(), worlds(&s), s.steps()), before);
        assert!(step(&mut undone, OnError::Undo));
        assert_eq!((undone.pos(), worlds(&undone), undone.steps()), before);
        // A front end that says a statement went wrong fails the step.
        let mut told = stepper();
        assert!(told.step(OnError::Undo, |_, _| (), |_, _, _, _, ()| false));
        assert_eq!((told.pos(), told.steps()), (4, 0));
    }

    #[test]
    fn typed_statements_are_restored_or_remembered() {
        let mut s = stepper();
        let mark = s.mark();
        let typed = script("announce 1(A)\n");
        let stmt = &typed.statements[0];
        s.session_mut().execute(stmt, &typed.src).expect("legal");
        let shown = worlds(&s);
        s.remember(mark.clone());
        assert_eq!(s.undo(1), 1);
        assert!(worlds(&s) > shown);
        s.session_mut().execute(stmt, &typed.src).expect("legal");
        s.restore(mark);
        assert_eq!((s.pos(), s.steps()), (4, 0));
        assert!(worlds(&s) > shown);
    }

    #[test]
    fn the_end_checks_a_deal_no_statement_played() {
        let s = script("players 1 2\ndeck A B\ndeal 1: A A\n");
        let mut session = Session::new(Options::default());
        let last = session.replay(&s, 0).last().expect("a step");
        assert_eq!(last.index, None);
        assert!(last.outcome.is_err());
    }
}
