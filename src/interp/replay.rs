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

use crate::diag::{Diagnostic, LineIndex, Span};
use crate::syntax::{self, ast::Statement};

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

/// The name to show and the text of a scenario file; `-` reads standard
/// input (shown as `<stdin>`). At most [`syntax::MAX_SOURCE_BYTES`] are
/// read; the text must be UTF-8 ([`syntax::source_text`]).
pub fn read_source(file: &std::path::Path) -> Result<(String, String), String> {
    use std::io::Read;
    let limit = crate::syntax::MAX_SOURCE_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let name = if file.as_os_str() == "-" {
        std::io::stdin()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read the standard input: {e}"))?;
        "<stdin>".to_string()
    } else {
        let name = file.display().to_string();
        std::fs::File::open(file)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        name
    };
    let src = crate::syntax::source_text(&name, bytes)?;
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

    #[test]
    fn the_end_checks_a_deal_no_statement_played() {
        let s = script("players 1 2\ndeck A B\ndeal 1: A A\n");
        let mut session = Session::new(Options::default());
        let last = session.replay(&s, 0).last().expect("a step");
        assert_eq!(last.index, None);
        assert!(last.outcome.is_err());
    }
}
