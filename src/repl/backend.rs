//! The REPL's state and what each line does, with no terminal in sight.
//!
//! The backend keeps the loaded file in a [`Stepper`] (the one stepper
//! with undo, shared with the web lecture): the current [`Session`], the
//! position of the next statement, and the earlier positions, so that
//! `:back` restores exactly the earlier model without replaying anything.

use crate::diag::{suggest, Diagnostic, Span};
use crate::figure::files;
use crate::interp::errors;
use crate::interp::narrate::{self, Knowledge, Narrator};
use crate::interp::question::Answer;
use crate::interp::quiz::{Attempt, Event, Quiz, QuizError};
use crate::interp::{OnError, Options, Output, Session, Stepper};
use crate::syntax::ast::{Statement, StatementKind};
use crate::syntax::{self};

use super::command::{self, Command, Narrate};
use super::Item;

pub use crate::interp::Script;

/// Where a statement comes from: the loaded file or a typed line.
#[derive(Clone, Copy)]
struct Origin<'a> {
    /// The file name, or `<input>`.
    name: &'a str,
    /// The text the statement's spans point into.
    src: &'a str,
    /// Whether it is the loaded file (figures go next to it).
    file: bool,
}

/// The REPL backend.
pub struct Repl {
    options: Options,
    /// The loaded file (an empty one before `:load`), the session, the
    /// position and the positions to undo (typed lines included).
    steps: Stepper,
    /// Whether a file is loaded.
    loaded: bool,
    narrate: Narrate,
    quit: bool,
    /// `:limit N`: the most nodes a figure draws, when raised or lowered.
    limit: Option<usize>,
    /// `:quiz`: the quiz going on, whose questions typed lines answer.
    quiz: Option<Quiz>,
    /// Whether a quiz narrates its moves: only once `:narrate short` or
    /// `full` is typed (narration can give answers away).
    quiz_narrates: bool,
    /// Tries per question of `:quiz` ([`Repl::set_quiz_tries`]).
    quiz_tries: usize,
    /// What each player knew in the last model narrated: a move's "after"
    /// is the next move's "before".
    narrator: Narrator,
    /// The strategies' checks, kept for the strategies seated again.
    checks: crate::strategy::knowledge::Checks,
}

/// Whether a statement leaves the session as it is (a quiz may replay it).
fn reads_only(kind: &StatementKind) -> bool {
    kind.asks()
}

/// The name under which typed lines are shown in errors.
pub const INPUT: &str = "<input>";

impl Repl {
    /// A REPL with an empty session.
    pub fn new(options: Options) -> Repl {
        let empty = Script::parse(INPUT, "").expect("an empty script parses");
        Repl {
            options,
            steps: Stepper::new(empty, Session::new(options), ()),
            loaded: false,
            narrate: Narrate::Short,
            quit: false,
            limit: None,
            quiz: None,
            quiz_narrates: false,
            quiz_tries: 1,
            narrator: Narrator::default(),
            checks: Default::default(),
        }
    }

    /// How many tries `:quiz` gives each question: 2 at a terminal (a
    /// wrong first try gets a hint and a second try), 1 by default (piped
    /// answers, one a question).
    pub fn set_quiz_tries(&mut self, tries: usize) {
        self.quiz_tries = tries.max(1);
    }

    /// Whether `:quit` was given.
    pub fn quitting(&self) -> bool {
        self.quit
    }

    /// The current session.
    pub fn session(&self) -> &Session {
        self.steps.session()
    }

    /// The loaded file.
    pub fn script(&self) -> Option<&Script> {
        self.loaded.then(|| self.steps.script())
    }

    /// The prompt: `dealer> `, or `FILE:LINE> ` at the next statement of a file.
    pub fn prompt(&self) -> String {
        if self.quiz.is_some() {
            return "answer> ".into();
        }
        match self.script() {
            None => "dealer> ".into(),
            Some(s) => {
                let stem = std::path::Path::new(&s.name)
                    .file_stem()
                    .map_or(s.name.clone(), |n| n.to_string_lossy().into_owned());
                match s.statements.get(self.steps.pos()) {
                    Some(st) => format!(
                        "{stem}:{}> ",
                        crate::diag::line_col(&s.src, st.span.start).0
                    ),
                    None => format!("{stem}:end> "),
                }
            }
        }
    }

    /// Handles one input (a command or statements); never panics, and on an
    /// error leaves the session as it was.
    pub fn eval(&mut self, input: &str) -> Vec<Item> {
        let line = input.trim_end();
        if line.trim().is_empty() {
            return Vec::new();
        }
        if let Some(n) = self.limit {
            self.steps.session_mut().set_figure_limit(n);
        }
        if self.quiz.is_some() {
            return self.quizzing(line);
        }
        if line.trim_start().starts_with(':') {
            return match command::parse(line) {
                Ok(cmd) => self.command(cmd, line),
                Err(d) => vec![error(INPUT, line, d)],
            };
        }
        self.typed(line)
    }

    fn command(&mut self, cmd: Command, line: &str) -> Vec<Item> {
        let at = Span::new(0, line.len());
        match cmd {
            Command::Load(file) => self.load(&file),
            Command::Next(n) => self.with_script(line, |r| r.next(n)),
            Command::Back(n) => self.back(n, line),
            Command::Goto(name) => self.with_script(line, |r| r.goto(&name, line)),
            Command::Restart => self.with_script(line, |r| r.restart()),
            Command::Reset => {
                let (narrate, limit, told, tries) = (
                    self.narrate,
                    self.limit,
                    self.quiz_narrates,
                    self.quiz_tries,
                );
                *self = Repl::new(self.options);
                (
                    self.narrate,
                    self.limit,
                    self.quiz_narrates,
                    self.quiz_tries,
                ) = (narrate, limit, told, tries);
                vec![Item::Info(vec![
                    "reset: an empty session (no file loaded)".into()
                ])]
            }
            Command::Limit(n) => {
                if let Some(n) = n {
                    self.limit = Some(n);
                    self.steps.session_mut().set_figure_limit(n);
                }
                let shown = self.limit.unwrap_or(crate::figure::DEFAULT_MAX_NODES);
                vec![Item::Info(vec![format!(
                    "figures draw at most {shown} nodes"
                )])]
            }
            Command::List => self.with_script(line, |r| vec![Item::Info(r.list())]),
            Command::Statement(text) => self.typed(&text),
            Command::Narrate(n) => {
                self.narrate = n;
                self.quiz_narrates = n != Narrate::Off;
                if let Some(quiz) = self.quiz.as_mut() {
                    quiz.set_narrate(self.quiz_narrates);
                }
                vec![Item::Info(vec![format!("narration: {}", narrate_name(n))])]
            }
            Command::Strategy(arg) => match self.strategy(&arg, at) {
                Ok(lines) => vec![Item::Info(lines)],
                Err(d) => vec![error(INPUT, line, d)],
            },
            Command::Quiz(true) => self.with_script(line, |r| r.start_quiz()),
            Command::Quiz(false) => vec![Item::Info(vec!["no quiz is going on".into()])],
            Command::Help(topic) => match command::help(topic.as_deref(), at) {
                Ok(lines) => vec![Item::Info(lines)],
                Err(d) => vec![error(INPUT, line, d)],
            },
            Command::Quit => {
                self.quit = true;
                Vec::new()
            }
        }
    }

    /// `:quiz`: a quiz over the file from the current point, on a copy of
    /// the session (the REPL's own position does not move). The point's
    /// questions are asked even when the REPL has passed them (`:goto`
    /// stops before the next move, after its checkpoint's questions): the
    /// quiz starts back over the statements that change nothing
    /// (questions, queries, expectations) up to the point's checkpoint or
    /// move.
    fn start_quiz(&mut self) -> Vec<Item> {
        let Some(script) = self.script().cloned() else {
            return Vec::new();
        };
        let mut from = self.steps.pos().min(script.statements.len());
        while from > 0 && reads_only(&script.statements[from - 1].kind) {
            from -= 1;
        }
        let mut quiz = Quiz::new(script, self.session().clone(), from, None);
        quiz.set_tries(self.quiz_tries);
        quiz.set_narrate(self.quiz_narrates);
        self.quiz = Some(quiz);
        let mut items = vec![Item::Info(vec![
            "quiz: answer each question on a line (y/n, a number, players); `:quiz stop` ends it"
                .into(),
        ])];
        items.extend(self.next_question());
        items
    }

    /// A line typed while a quiz is on: an answer, `:quiz stop` or `:quit`.
    fn quizzing(&mut self, line: &str) -> Vec<Item> {
        let text = line.trim();
        if text.eq_ignore_ascii_case("quit") {
            return self.end_quiz("quiz stopped");
        }
        if text.starts_with(':') {
            return match command::parse(line) {
                Ok(Command::Quiz(false)) => self.end_quiz("quiz stopped"),
                Ok(Command::Quit) => {
                    self.quit = true;
                    self.end_quiz("quiz stopped")
                }
                Ok(_) => vec![Item::Info(vec![
                    "a quiz is on: type the answer, or `:quiz stop` to end it".into(),
                ])],
                Err(d) => vec![error(INPUT, line, d)],
            };
        }
        let Some(quiz) = self.quiz.as_mut() else {
            return Vec::new();
        };
        let verdict = match quiz.attempt(text) {
            Ok(Attempt::Right(v) | Attempt::Wrong(v)) => v,
            Ok(Attempt::TryAgain(hint)) => {
                return vec![Item::Info(vec![
                    "not quite: try again".into(),
                    format!("  {hint}"),
                ])]
            }
            Err(QuizError::Unreadable(why)) => return vec![Item::Info(vec![why])],
            Err(QuizError::Engine(d)) => {
                self.quiz = None;
                return vec![error(INPUT, line, d)];
            }
            Err(QuizError::NoQuestion) => return self.end_quiz("the quiz is over"),
        };
        let mut lines = vec![if verdict.right {
            "right".to_string()
        } else {
            "wrong".to_string()
        }];
        lines.extend(verdict.lines.iter().map(|l| format!("  {l}")));
        let mut items = vec![Item::Info(lines)];
        items.extend(self.next_question());
        items
    }

    /// Plays on to the next question and asks it, or ends the quiz.
    fn next_question(&mut self) -> Vec<Item> {
        let Some(quiz) = self.quiz.as_mut() else {
            return Vec::new();
        };
        let (events, asked) = match quiz.advance() {
            Ok(x) => x,
            Err(d) => {
                let script = quiz.script().clone();
                self.quiz = None;
                return vec![error(&script.name, &script.src, d)];
            }
        };
        let mut items = Vec::new();
        for e in events {
            match e {
                Event::Moved {
                    line,
                    said,
                    notes,
                    narration,
                    ..
                } => {
                    items.push(Item::Output {
                        line: Some(line),
                        out: Output::Moved {
                            source: said,
                            notes,
                        },
                    });
                    if !narration.is_empty() {
                        items.push(Item::Narration(narration));
                    }
                }
                Event::Checkpoint(name) => items.push(Item::Output {
                    line: None,
                    out: Output::Checkpoint(name),
                }),
            }
        }
        match asked {
            Some(a) => {
                let n = quiz.records().len() + 1;
                let hint = match a.answer {
                    Answer::YesNo(_) => "y/n",
                    Answer::Number(_) => "a number",
                    Answer::Players(_) => "players, or nobody",
                };
                items.push(Item::Info(vec![format!("Q{n}. {}  [{hint}]", a.text)]));
            }
            None => items.extend(self.end_quiz("the quiz is over")),
        }
        items
    }

    fn end_quiz(&mut self, why: &str) -> Vec<Item> {
        let Some(quiz) = self.quiz.take() else {
            return Vec::new();
        };
        let (right, asked) = quiz.score();
        vec![Item::Info(vec![format!("{why}: score {right}/{asked}")])]
    }

    /// The end of input: a quiz going on stops with the score of the
    /// questions answered.
    pub fn finish(&mut self) -> Vec<Item> {
        self.end_quiz("quiz stopped at the end of input")
    }

    /// Whether a quiz is going on (typed lines are its answers).
    pub fn quizzing_now(&self) -> bool {
        self.quiz.is_some()
    }

    /// `:strategy NAME [PLAYER]`: the strategy's decision in the current
    /// state, with every rule tried and every guard's answer. Ties are
    /// drawn with the generator of seed 0.
    fn strategy(&self, arg: &str, at: Span) -> Result<Vec<String>, Diagnostic> {
        use rand::SeedableRng;
        // A file whose declarations are read but whose first move is not
        // played yet is dealt here, on a copy (as a query would deal it).
        let mut session = self.session().clone();
        session.finish(at)?;
        let dealt = session.clone();
        let play = dealt
            .playing()
            .ok_or_else(|| Diagnostic::error("not-dealt", "no cards are dealt yet", at))?;
        let game = play.game.name();
        let referee = play.game.referee().ok_or_else(|| {
            Diagnostic::error(
                "no-referee",
                format!("{game} has no referee, so no legal moves"),
                at,
            )
        })?;
        let mut words = arg.split_whitespace();
        let name = words.next().unwrap_or_default();
        let strategy = crate::strategy::find_with(&self.checks, None, game, name)
            .map_err(|e| Diagnostic::error("unknown-strategy", e.plain(), at))?;
        let pos = play.position();
        let me = match words.next() {
            Some(p) => play
                .table
                .players
                .iter()
                .position(|n| n == p)
                .ok_or_else(|| {
                    Diagnostic::error("unknown-player", format!("no player `{p}`"), at)
                        .with_help(format!("the players are {}", play.table.players.join(", ")))
                })?,
            None => referee
                .current_player(&pos)
                .ok_or_else(|| Diagnostic::error("game-over", "the game is over", at))?,
        };
        if referee.current_player(&pos) != Some(me) {
            return Err(Diagnostic::error(
                "not-to-move",
                format!("it is not player {}'s move", play.table.players[me]),
                at,
            ));
        }
        let moves = crate::play::legal_moves(referee, play);
        let legal: Vec<String> = moves.iter().map(|l| l.text.clone()).collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        let game = play.game;
        let d = crate::strategy::choose(
            &strategy,
            game,
            &mut session,
            &play.table,
            me,
            &moves,
            &mut rng,
        )?;
        let mut lines = vec![format!(
            "strategy {} for player {}:",
            strategy.name, play.table.players[me]
        )];
        lines.extend(d.explain(&legal).lines().map(str::to_string));
        Ok(lines)
    }

    fn with_script(&mut self, line: &str, f: impl FnOnce(&mut Repl) -> Vec<Item>) -> Vec<Item> {
        if !self.loaded {
            let d = Diagnostic::error(
                "no-file",
                "no scenario file is loaded",
                Span::new(0, line.len()),
            )
            .with_label("this command steps through a file")
            .with_help("load one with `:load FILE`, or start with `dealer repl FILE`");
            return vec![error(INPUT, line, d)];
        }
        f(self)
    }

    /// Typed statements: all run, or none (the session is restored).
    fn typed(&mut self, line: &str) -> Vec<Item> {
        let statements = match syntax::parse_statement(line) {
            Ok(s) => s,
            Err(errors) => {
                return errors
                    .iter()
                    .map(|e| error(INPUT, line, e.to_diagnostic()))
                    .collect()
            }
        };
        let before = self.steps.mark();
        let mut items = Vec::new();
        let mut changed = false;
        for stmt in &statements {
            changed |= changes_state(stmt);
            match self.step_statement(stmt, line, None) {
                Ok(mut out) => items.append(&mut out),
                Err(d) => {
                    self.steps.restore(before);
                    return vec![error(INPUT, line, d)];
                }
            }
        }
        if changed {
            self.steps.remember(before);
        }
        items
    }

    /// Executes one typed statement, with narration after a move.
    fn step_statement(
        &mut self,
        stmt: &Statement,
        src: &str,
        line: Option<usize>,
    ) -> Result<Vec<Item>, Diagnostic> {
        let before = knowledge_before(&self.narrator, self.narrate, self.session(), stmt);
        let outputs = self.steps.session_mut().execute(stmt, src)?;
        let origin = Origin {
            name: INPUT,
            src,
            file: false,
        };
        Ok(items(
            &self.narrator,
            self.narrate,
            self.session(),
            outputs,
            line,
            origin,
            before,
        ))
    }

    /// `:load FILE`: a fresh session that has played the file's statements
    /// up to its first move or question (`-` reads the scenario from standard input).
    /// A statement that fails or is interrupted (Ctrl-C) stops the load
    /// there, with the statements before it played.
    pub fn load(&mut self, file: &str) -> Vec<Item> {
        let (file, src) = match crate::interp::read_source(std::path::Path::new(file)) {
            Ok(read) => read,
            Err(d) => return vec![error(file, "", d)],
        };
        let file = file.as_str();
        let script = match Script::parse(file, &src) {
            Ok(s) => s,
            Err(errors) => return errors.into_iter().map(|d| error(file, &src, d)).collect(),
        };
        let count = script.statements.len();
        self.steps = Stepper::new(script, Session::new(self.options), ());
        self.loaded = true;
        let mut items = vec![Item::Info(vec![format!(
            "loaded {file}: {count} statement(s)"
        )])];
        // The first move or question waits for `:next` (or `:quiz`).
        let (narrator, narrating) = (&self.narrator, self.narrate);
        let mut shown = Shown::default();
        self.steps.run(
            |_, st| crate::interp::is_move(st) || matches!(st.kind, StatementKind::Question(_)),
            |session, stmt| knowledge_before(narrator, narrating, session, stmt),
            |(), script, session, step, before| {
                shown.add((narrator, narrating), script, session, step, before)
            },
        );
        items.extend(shown.items);
        self.steps.set_start();
        items.push(Item::Info(vec![self.position()]));
        items
    }

    /// Plays one step: the next move and the statements after it, up to
    /// the following move; all or nothing (a failing statement, or a figure
    /// that cannot be written, leaves the position as it was).
    fn step(&mut self) -> (Vec<Item>, bool) {
        let (narrator, narrating) = (&self.narrator, self.narrate);
        let mut shown = Shown::default();
        let failed = self.steps.step(
            OnError::Undo,
            |session, stmt| knowledge_before(narrator, narrating, session, stmt),
            |(), script, session, step, before| {
                shown.add((narrator, narrating), script, session, step, before)
            },
        );
        (shown.items, failed)
    }

    fn next(&mut self, n: usize) -> Vec<Item> {
        let mut items = Vec::new();
        for _ in 0..n {
            if self.steps.at_end() {
                items.push(Item::Info(vec![self.position()]));
                break;
            }
            let (mut out, failed) = self.step();
            items.append(&mut out);
            if failed {
                break;
            }
        }
        items
    }

    fn back(&mut self, n: usize, line: &str) -> Vec<Item> {
        if self.steps.steps() == 0 {
            let d = Diagnostic::error(
                "nothing-to-undo",
                "there is nothing to undo",
                Span::new(0, line.len()),
            )
            .with_label("no step was taken yet");
            return vec![error(INPUT, line, d)];
        }
        let steps = self.steps.undo(n);
        vec![Item::Info(vec![format!(
            "back {steps} step(s); {}",
            self.position()
        )])]
    }

    fn restart(&mut self) -> Vec<Item> {
        self.steps.restart();
        vec![Item::Info(vec![self.position()])]
    }

    fn goto(&mut self, name: &str, line: &str) -> Vec<Item> {
        let Some(target) = self.steps.checkpoint(name) else {
            return vec![error(
                INPUT,
                line,
                no_checkpoint(self.steps.script(), name, line),
            )];
        };
        let (narrator, narrating) = (&self.narrator, self.narrate);
        let mut shown = Shown::default();
        let failed = self.steps.goto(
            target,
            OnError::Undo,
            |session, stmt| knowledge_before(narrator, narrating, session, stmt),
            |(), script, session, step, before| {
                shown.add((narrator, narrating), script, session, step, before)
            },
        );
        let mut problems: Vec<Item> = shown.items.into_iter().filter(Item::is_problem).collect();
        if !failed {
            problems.push(Item::Info(vec![format!(
                "at checkpoint \"{name}\"; {}",
                self.position()
            )]));
        }
        problems
    }

    /// Where the file stands: the next statement, or its end.
    fn position(&self) -> String {
        let Some(s) = self.script() else {
            return "no file loaded".into();
        };
        match s.statements.get(self.steps.pos()) {
            Some(st) => {
                let line = crate::diag::line_col(&s.src, st.span.start).0;
                let text = s.src[st.span.start..st.span.end].trim();
                format!("next: line {line}: {text}  (:next to play it)")
            }
            None => format!("at the end of {}", s.name),
        }
    }

    /// The file, numbered, with `>` at the next statement's line.
    fn list(&self) -> Vec<String> {
        let Some(s) = self.script() else {
            return Vec::new();
        };
        let next = s
            .statements
            .get(self.steps.pos())
            .map(|st| crate::diag::line_col(&s.src, st.span.start).0);
        let mut out: Vec<String> = s
            .src
            .lines()
            .enumerate()
            .map(|(i, text)| {
                let mark = if Some(i + 1) == next { ">" } else { " " };
                format!("{mark}{:>4}  {text}", i + 1)
            })
            .collect();
        if next.is_none() {
            out.push(">       (end)".into());
        }
        out
    }
}

/// What the statements of a file showed as they ran: their items, with
/// the lecturer's notes (the comments at and above a statement's line)
/// around what a statement shows.
#[derive(Default)]
struct Shown {
    items: Vec<Item>,
    /// The lines whose notes were shown.
    noted: Vec<usize>,
    /// Where the file's lines start (found at the first note).
    starts: Vec<usize>,
}

impl Shown {
    /// Adds what one step of the file showed; false when it went wrong
    /// (the statement failed, or a figure could not be written).
    fn add(
        &mut self,
        (narrator, narrating): (&Narrator, Narrate),
        script: &Script,
        session: &Session,
        step: crate::interp::Step,
        before: Option<Knowledge>,
    ) -> bool {
        let shown = match step.outcome {
            Ok(outputs) => {
                let origin = Origin {
                    name: &script.name,
                    src: &script.src,
                    file: true,
                };
                items(
                    narrator,
                    narrating,
                    session,
                    outputs,
                    Some(step.line),
                    origin,
                    before,
                )
            }
            Err(d) => vec![error(&script.name, &script.src, d)],
        };
        let ok = !shown.iter().any(|i| matches!(i, Item::Error { .. }));
        // Notes go with what is shown: a declaration shows nothing.
        if !shown.is_empty() {
            let (above, after) = if step.index.is_none() || self.noted.contains(&step.line) {
                (Vec::new(), Vec::new())
            } else {
                self.noted.push(step.line);
                self.notes(&script.src, step.line)
            };
            self.items
                .extend((!above.is_empty()).then_some(Item::Note(above)));
            self.items.extend(shown);
            self.items
                .extend((!after.is_empty()).then_some(Item::Note(after)));
        }
        ok
    }
}

impl Shown {
    /// The notes at line `line` (1-based) of a file's text ([`notes`]),
    /// its lines found once, not once per statement.
    fn notes(&mut self, src: &str, line: usize) -> (Vec<String>, Vec<String>) {
        if self.starts.is_empty() {
            self.starts = std::iter::once(0)
                .chain(src.match_indices('\n').map(|(i, _)| i + 1))
                .collect();
        }
        if line == 0 || line > self.starts.len() {
            return (Vec::new(), Vec::new());
        }
        let text = |k: usize| {
            let end = self.starts.get(k).map_or(src.len(), |&e| e);
            src[self.starts[k - 1]..end].trim_end_matches(['\n', '\r'])
        };
        let first = (1..line)
            .rev()
            .take_while(|&k| is_comment(text(k).trim_start()))
            .last()
            .unwrap_or(line);
        let lines: Vec<&str> = (first..=line).map(text).collect();
        notes(&lines, lines.len())
    }
}

fn no_checkpoint(script: &Script, name: &str, line: &str) -> Diagnostic {
    let names: Vec<&str> = script
        .statements
        .iter()
        .filter_map(|s| match &s.kind {
            StatementKind::Checkpoint(n) => Some(n.text.as_str()),
            _ => None,
        })
        .collect();
    let at = line
        .find(name)
        .map_or(Span::new(0, line.len()), |i| Span::new(i, i + name.len()));
    let d = Diagnostic::error(
        "unknown-checkpoint",
        format!("no checkpoint \"{name}\" in {}", script.name),
        at,
    )
    .with_label("not a checkpoint of the file");
    match (suggest(name, &names), names.is_empty()) {
        (Some(s), _) => d.with_help(format!("did you mean \"{s}\"?")),
        (None, true) => d.with_help("the file has no checkpoint"),
        (None, false) => d.with_help(format!("the checkpoints are: \"{}\"", names.join("\", \""))),
    }
}

/// What is known before `stmt`, when it is a move to narrate.
fn knowledge_before(
    narrator: &Narrator,
    narrating: Narrate,
    session: &Session,
    stmt: &Statement,
) -> Option<Knowledge> {
    let narrating = crate::interp::is_move(stmt) && narrating != Narrate::Off;
    narrating.then(|| knowledge(narrator, session)).flatten()
}

/// A statement's outputs as items: figures written (paths relative to
/// the scenario file, or to the current directory when typed: see
/// [`files`]), then the narration of a move when `before` is given.
fn items(
    narrator: &Narrator,
    narrating: Narrate,
    session: &Session,
    outputs: Vec<Output>,
    line: Option<usize>,
    origin: Origin,
    before: Option<Knowledge>,
) -> Vec<Item> {
    let mut items: Vec<Item> = outputs
        .into_iter()
        .map(|out| match out {
            Output::Figure { path, span, figure } => {
                let target = files::target(origin.file.then_some(origin.name), &path);
                match files::write(&figure, &target) {
                    Ok(report) => Item::Wrote { line, report },
                    Err(e) => error(origin.name, origin.src, errors::figure(&e, span)),
                }
            }
            out => Item::Output { line, out },
        })
        .collect();
    if let (Some(before), Some(after)) = (before, knowledge(narrator, session)) {
        items.push(Item::Narration(narration(
            narrating, session, &before, &after,
        )));
    }
    items
}

fn narration(
    narrating: Narrate,
    session: &Session,
    before: &Knowledge,
    after: &Knowledge,
) -> Vec<String> {
    let Some(play) = session.playing() else {
        return Vec::new();
    };
    let mut lines = narrate::lines(&play.table, &narrate::narrate(before, after));
    if narrating == Narrate::Full {
        lines.extend(narrate::full_lines(&play.table, after));
    }
    lines
}

/// What each player knows in the session's model, for narration (kept
/// for the next move: [`Narrator`]).
fn knowledge(narrator: &Narrator, session: &Session) -> Option<Knowledge> {
    let play = session.playing()?;
    narrator.knowledge(&play.table, &play.model)
}

/// Whether a statement changes the session (and so is a step to undo).
fn changes_state(stmt: &Statement) -> bool {
    !matches!(
        stmt.kind,
        StatementKind::Query(_)
            | StatementKind::Valid(_)
            | StatementKind::Expect(_)
            | StatementKind::Why(_)
            | StatementKind::Worlds(_)
            | StatementKind::WorldsWhere { .. }
            | StatementKind::WhyFor { .. }
            | StatementKind::WorldsFor { .. }
            | StatementKind::Stats
            | StatementKind::Question(_)
    )
}

fn error(file: &str, src: &str, diag: Diagnostic) -> Item {
    Item::Error {
        file: file.to_string(),
        src: src.to_string(),
        diag,
    }
}

fn narrate_name(n: Narrate) -> &'static str {
    match n {
        Narrate::Off => "off",
        Narrate::Short => "short",
        Narrate::Full => "full",
    }
}

impl Item {
    /// Whether the item reports something gone wrong (kept when `:goto` runs quietly).
    fn is_problem(&self) -> bool {
        match self {
            Item::Error { .. } => true,
            Item::Output {
                out: Output::Expect { held, .. },
                ..
            } => !held,
            _ => false,
        }
    }
}

/// The lecturer's notes at line `line` (1-based) of a file's `lines`: the
/// block of comment lines right above it (up to a line that is not a
/// comment), and the comment at the end of the line itself, each with its
/// `#`.
pub fn notes(lines: &[&str], line: usize) -> (Vec<String>, Vec<String>) {
    let Some(text) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return (Vec::new(), Vec::new());
    };
    let mut above: Vec<String> = lines[..line - 1]
        .iter()
        .rev()
        .take_while(|l| is_comment(l.trim_start()))
        .map(|l| l.trim().to_string())
        .collect();
    above.reverse();
    let after = trailing_comment(text)
        .map(|c| vec![c.to_string()])
        .unwrap_or_default();
    (above, after)
}

/// Whether `text` starts with a comment: a `#` followed by a blank or
/// nothing (docs/language.md, lexical rules).
fn is_comment(text: &str) -> bool {
    text.strip_prefix('#')
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// The comment at the end of a statement's line: from a `#` outside
/// quotes, after the statement, that starts a comment.
fn trailing_comment(line: &str) -> Option<&str> {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted && i > 0 && is_comment(&line[i..]) => {
                return Some(line[i..].trim_end());
            }
            _ => {}
        }
    }
    None
}
