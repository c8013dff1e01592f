//! One lecture: a scenario stepped through by the REPL's stepper
//! ([`Stepper`]), move by move, with every position kept so that `back`
//! and `goto` are exact.
//!
//! A [`Lecture`] lives on its own thread (sessions share models through
//! `Rc`); requests reach it as closures (see [`super::pool`]).

use serde::Serialize;

use crate::diag::Diagnostic;
use crate::figure::build::{build_named, View};
use crate::figure::render::{render, renderer_from_env, Format};
use crate::interp::narrate::{self, Knowledge};
use crate::interp::{OnError, Options, Output, Script, Session, Step, Stepper};
use crate::syntax::ast::StatementKind;

/// The most boxes a lecture hall's figure draws (`fit=hall`): a model
/// with more worlds is drawn as the per-card projection of a card of the
/// last move, with the count of worlds in words.
pub const HALL_BOXES: usize = 12;

/// A located problem, for the page to show at its line.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Problem {
    /// The diagnostic's code.
    pub code: String,
    /// The 1-based line (0 when unlocated).
    pub line: usize,
    /// The rendered message, without colour.
    pub message: String,
}

/// What one statement produced when it ran.
#[derive(Clone, Debug, Serialize)]
pub struct Ran {
    /// The statement's index.
    pub index: usize,
    /// Lines of output (answers, expectations, explanations).
    pub lines: Vec<String>,
    /// For an `expect`: whether it held.
    pub expect: Option<bool>,
    /// For a move: what it made known, as the REPL narrates it ("now
    /// common knowledge: ..."); empty for other statements and for models
    /// too large to narrate.
    pub narration: Vec<String>,
}

/// A scenario being stepped through; each position keeps what the
/// statements that led to it produced.
#[derive(Clone)]
pub struct Lecture {
    steps: Stepper<Vec<Ran>>,
    /// The problem that stopped the last step, if any.
    problem: Option<Problem>,
    /// A student's session (the quiz view): its state never shows an
    /// answer, an `expect` or a statement not yet run, and the query box
    /// is refused.
    student: bool,
    /// The first answer given to each question (by statement), right or
    /// wrong: the quiz view's score.
    score: std::collections::BTreeMap<usize, bool>,
    /// The questions (by statement) whose first try was wrong and got a
    /// hint: the next try is the one that counts.
    hinted: std::collections::BTreeSet<usize>,
    /// The Ask box's example query ([`State::example`]).
    example: String,
}

/// The quiz view's score: questions answered (the first answer counts)
/// and how many of them rightly.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    /// Questions answered.
    pub answered: usize,
    /// Answered rightly the first time.
    pub right: usize,
}

/// One world, as a click on the figure shows it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct WorldInfo {
    /// The engine's number for it (`data-world` in the figure).
    pub id: usize,
    /// Its name, as the figure, `worlds` and `why` give it (`w3`, or a
    /// written model's own name).
    pub name: String,
    /// Whether it is the actual world.
    pub actual: bool,
    /// The world in one line, as `worlds` prints it.
    pub line: String,
    /// Every location with its cards.
    pub places: Vec<(String, String)>,
    /// The propositions true there.
    pub props: Vec<String>,
}

/// A statement as the page lists it.
#[derive(Serialize)]
pub struct Statement {
    /// Its index in the scenario (what `pos` and `ran` count).
    pub index: usize,
    /// 1-based line.
    pub line: usize,
    /// Its text.
    pub text: String,
    /// Whether it is a move (a step boundary).
    pub is_move: bool,
}

/// The state the page draws.
#[derive(Serialize)]
pub struct State {
    /// The scenario's name: its path under the scenario folder, `<editor>`,
    /// or `game ID` for a game opened from the play page.
    pub name: String,
    /// The scenario's text.
    pub src: String,
    /// Its statements.
    pub statements: Vec<Statement>,
    /// How many statements ran.
    pub pos: usize,
    /// The step number (0 before the first move).
    pub step: usize,
    /// What the statements that ran produced.
    pub ran: Vec<Ran>,
    /// The checkpoints of the scenario.
    pub checkpoints: Vec<String>,
    /// Agent names, by index, once cards are dealt.
    pub agents: Vec<String>,
    /// The deck's card kinds, by name (the figure's card menu).
    pub cards: Vec<String>,
    /// The table's locations (hands, piles, the stock), by name: what the
    /// figure's boxes can leave out (`hide`).
    pub locations: Vec<String>,
    /// The problem that stopped the last step.
    pub problem: Option<Problem>,
    /// A student's session (the quiz view): `src` is empty, and
    /// `statements` and `ran` hold only the statements run that are not
    /// queries, questions or expectations.
    pub student: bool,
    /// The quiz's score so far.
    pub score: Score,
    /// A query the Ask box answers on this scenario (its placeholder):
    /// `? K1 hand2(Q)`.
    pub example: String,
}

/// Turns a diagnostic into a [`Problem`] located in `src`.
pub fn problem(name: &str, src: &str, d: &Diagnostic) -> Problem {
    let line = if d.located {
        src.get(..d.span.start)
            .map_or(0, |p| p.matches('\n').count() + 1)
    } else {
        0
    };
    Problem {
        code: d.code.to_string(),
        line,
        message: d.render(name, src, false),
    }
}

/// `source` with `word` in front, unless it is written there already
/// (statements carry their own text, `expect ...`; queries may not).
fn lead(word: &str, source: &str) -> String {
    let written = source
        .strip_prefix(word)
        .is_some_and(|rest| rest.starts_with(char::is_whitespace));
    if written {
        source.to_string()
    } else {
        format!("{word} {source}")
    }
}

fn lines_of(out: &Output) -> (Vec<String>, Option<bool>) {
    match out {
        Output::Answer { source, value } => (vec![format!("{}: {value}", lead("?", source))], None),
        Output::Valid { source, value } => (vec![format!("{}: {value}", lead("??", source))], None),
        Output::Expect {
            source,
            held,
            detail,
            ..
        } => {
            let mut v = vec![format!(
                "{}: {}",
                lead("expect", source),
                if *held { "held" } else { "FAILED" }
            )];
            if !detail.is_empty() {
                v.push(detail.clone());
            }
            (v, Some(*held))
        }
        Output::Moved { source, notes } => {
            let mut v = vec![format!("move {source}")];
            v.extend(notes.iter().cloned());
            (v, None)
        }
        Output::Question { source, asked, .. } => (
            vec![format!("{}: {}", lead("question", source), asked.answer)],
            None,
        ),
        Output::Checkpoint(name) => (vec![format!("checkpoint {name}")], None),
        Output::Lines(lines) => (lines.clone(), None),
        Output::Figure { path, .. } => (vec![format!("figure {path}")], None),
    }
}

/// What is known before `stmt`, when it is a move (to narrate after it).
fn known_before(session: &Session, stmt: &crate::syntax::ast::Statement) -> Option<Knowledge> {
    let play = session.playing()?;
    (narrate::narrated_at_each_step(&*play.model) && crate::interp::is_move(stmt))
        .then(|| narrate::knowledge(&play.table, &*play.model))
        .flatten()
}

/// Whether a student sees `kind` in the quiz view: not a query, a
/// question or an expectation, whose text or output gives an answer.
fn shown_to_student(kind: &StatementKind) -> bool {
    !kind.asks()
}

/// Keeps what a statement produced (`ran`), or the problem that stopped
/// the step; false when it failed.
fn record(
    ran: &mut Vec<Ran>,
    problem: &mut Option<Problem>,
    (script, session): (&Script, &Session),
    step: Step,
    before: Option<Knowledge>,
) -> bool {
    match step.outcome {
        Ok(outs) => {
            let mut lines = Vec::new();
            let mut expect = None;
            for o in &outs {
                let (l, e) = lines_of(o);
                lines.extend(l);
                expect = expect.or(e);
            }
            let narration = match (before, session.playing()) {
                (Some(before), Some(play)) => narrate::knowledge(&play.table, &*play.model)
                    .map(|after| narrate::lines(&play.table, &narrate::narrate(&before, &after)))
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            ran.extend(step.index.map(|index| Ran {
                index,
                lines,
                expect,
                narration,
            }));
            true
        }
        Err(d) => {
            *problem = Some(self::problem(&script.name, &script.src, &d));
            false
        }
    }
}

impl Lecture {
    /// Parses `src` and plays it up to its first move.
    pub fn load(name: &str, src: &str, options: Options) -> Result<Lecture, Vec<Problem>> {
        let script = Script::parse(name, src)
            .map_err(|ds| ds.iter().map(|d| problem(name, src, d)).collect::<Vec<_>>())?;
        let mut steps = Stepper::new(script, Session::new(options), Vec::new());
        let mut problem = None;
        steps.run(
            |_, st| crate::interp::is_move(st),
            known_before,
            |ran, script, session, step, before| {
                record(ran, &mut problem, (script, session), step, before)
            },
        );
        steps.set_start();
        let mut lecture = Lecture {
            steps,
            problem,
            student: false,
            score: Default::default(),
            hinted: Default::default(),
            example: String::new(),
        };
        lecture.example = lecture.example_query();
        Ok(lecture)
    }

    /// A query about the loaded scenario that the Ask box answers: whether
    /// the first player knows where a card of the second player's hand is
    /// (`? K1 hand2(Q)`), else knows a value of a variable (`? K[Albert]
    /// month = 7`) or a proposition true in the actual world; asked with
    /// `?`, which any model answers (`why` lists worlds, which a full deck
    /// has too many of). Checked here, so the example answers. A scenario
    /// whose deal is not built yet (nothing before its first move asked
    /// about it: the first question builds it) gets `? true`, unchecked.
    fn example_query(&self) -> String {
        let Some(play) = self.steps.session().playing() else {
            return "? true".into();
        };
        let table = &play.table;
        let agent = |a: usize| {
            let name = &table.players[a];
            if name.chars().all(|c| c.is_ascii_digit()) {
                name.clone()
            } else {
                format!("[{name}]")
            }
        };
        let mut tries = Vec::new();
        if !table.players.is_empty() {
            let a = agent(0);
            let b = table.players.len().min(2) - 1;
            let actual = play.model.actual_world();
            if !table.deck.kinds.is_empty() {
                let held = actual.cards[table.hand(b)].iter().position(|&n| n > 0);
                let kind = &table.deck.kinds[held.unwrap_or(0)].name;
                tries.push(format!("? K{a} hand{}({kind})", agent(b)));
            }
            let name = play.world_name(play.model.actual());
            if let Some((var, value)) = name.split(',').next().and_then(|v| v.split_once('=')) {
                tries.push(format!("? K{a} {var} = {value}"));
            }
            let props = play.props.iter().zip(&actual.props);
            if let Some((p, _)) = props.clone().find(|(p, &v)| v && !p.contains('#')) {
                tries.push(format!("? K{a} {p}"));
            }
            tries.push(format!("? K{a} true"));
        }
        tries
            .into_iter()
            .find(|q| self.query(q).is_ok())
            .unwrap_or_else(|| "? true".into())
    }

    /// The scenario, the current session and the indices of the
    /// statements run to reach the current step (for the quiz mode).
    pub(crate) fn current(&self) -> (&Script, &Session, Vec<usize>) {
        (
            self.steps.script(),
            self.steps.session(),
            self.steps.extra().iter().map(|r| r.index).collect(),
        )
    }

    /// One step: the next move and what follows it up to the next move
    /// (up to a failing statement, whose problem is kept).
    pub fn step(&mut self) {
        let mut problem = None;
        self.steps.step(
            OnError::Stop,
            known_before,
            |ran, script, session, step, before| {
                record(ran, &mut problem, (script, session), step, before)
            },
        );
        self.problem = problem;
    }

    /// Undoes `n` steps (as many as were taken at most).
    pub fn back(&mut self, n: usize) {
        self.steps.undo(n);
        self.problem = None;
    }

    /// Steps forward or back to the checkpoint `name`.
    pub fn goto(&mut self, name: &str) -> Result<(), String> {
        let target = self
            .steps
            .checkpoint(name)
            .ok_or_else(|| format!("no checkpoint named {name:?}"))?;
        let mut problem = None;
        self.steps.goto(
            target,
            OnError::Stop,
            known_before,
            |ran, script, session, step, before| {
                record(ran, &mut problem, (script, session), step, before)
            },
        );
        self.problem = problem;
        Ok(())
    }

    /// About how many bytes the lecture holds: its text, what every kept
    /// position's statements printed, and the models of those positions
    /// ([`models_bytes`]). An estimate, for the server's memory bound.
    pub fn estimated_bytes(&self) -> u64 {
        let script = self.steps.script();
        // The text, and its syntax tree (about ten times the text).
        let text = 11 * script.src.len() as u64;
        let printed: u64 = self
            .steps
            .positions()
            .flat_map(|m| &m.extra)
            .flat_map(|r| &r.lines)
            .map(|l| l.len() as u64 + 24)
            .sum();
        let sessions = self.steps.positions().map(|m| &m.session);
        text + printed + models_bytes(sessions)
    }

    /// The session at the current position (read only).
    pub fn session(&self) -> &Session {
        self.steps.session()
    }

    /// Makes this a student's session (the quiz view): see [`State::student`].
    pub fn for_student(&mut self) {
        self.student = true;
    }

    /// Whether this is a student's session (the quiz view).
    pub fn is_student(&self) -> bool {
        self.student
    }

    /// Whether a wrong answer to the question of statement `index` gets a
    /// hint and another try: the first wrong try of a question not yet
    /// answered does (two tries, as `dealer quiz` gives at a terminal).
    pub fn hints(&self, index: usize) -> bool {
        !self.score.contains_key(&index) && !self.hinted.contains(&index)
    }

    /// Notes that the question of statement `index` got its hint.
    pub fn note_hint(&mut self, index: usize) {
        self.hinted.insert(index);
    }

    /// Records an answer to the question of statement `index`; only the
    /// first answer to a question counts (after a hinted first try, the
    /// second). Returns the score.
    pub fn record_answer(&mut self, index: usize, right: bool) -> Score {
        self.score.entry(index).or_insert(right);
        self.score()
    }

    /// The quiz's score so far.
    pub fn score(&self) -> Score {
        Score {
            answered: self.score.len(),
            right: self.score.values().filter(|&&r| r).count(),
        }
    }

    /// The state the page draws.
    pub fn state(&self) -> State {
        let session = self.steps.session();
        let script = self.steps.script();
        let agents = session.playing().map_or_else(Vec::new, |p| {
            (0..p.table.players.len())
                .map(|a| crate::cards::rules::describe_player(&p.table, a))
                .collect()
        });
        let pos = self.steps.pos();
        // A student sees the statements run, less those that give answers.
        let shown =
            |i: usize| !self.student || (i < pos && shown_to_student(&script.statements[i].kind));
        State {
            name: script.name.clone(),
            src: if self.student {
                String::new()
            } else {
                script.src.clone()
            },
            statements: (0..script.statements.len())
                .filter(|&i| shown(i))
                .map(|i| Statement {
                    index: i,
                    line: script.line(i),
                    text: script.text(i).to_string(),
                    is_move: self.steps.is_move(i),
                })
                .collect(),
            pos,
            step: self.steps.steps(),
            ran: self
                .steps
                .extra()
                .iter()
                .filter(|r| shown(r.index))
                .cloned()
                .collect(),
            checkpoints: script
                .statements
                .iter()
                .filter_map(|s| match &s.kind {
                    StatementKind::Checkpoint(n) => Some(n.text.to_string()),
                    _ => None,
                })
                .collect(),
            agents,
            cards: session.playing().map_or_else(Vec::new, |p| {
                p.table.deck.kinds.iter().map(|k| k.name.clone()).collect()
            }),
            locations: session.playing().map_or_else(Vec::new, |p| {
                p.table.locations.iter().map(|l| l.name.clone()).collect()
            }),
            problem: self.problem.clone(),
            student: self.student,
            score: self.score(),
            example: self.example.clone(),
        }
    }

    /// Answers `input` (`? φ`, `?? φ`, `why φ`, `worlds`, or a bare formula,
    /// which is asked with `why`) at the current position, which it leaves
    /// as it was.
    pub fn query(&self, input: &str) -> Result<Vec<String>, Problem> {
        let trimmed = input.trim();
        let starts = ["?", "why ", "worlds", "stats", "knowledge"];
        let text = if starts.iter().any(|s| trimmed.starts_with(s)) {
            trimmed.to_string()
        } else {
            format!("why {trimmed}")
        };
        let script =
            Script::parse("<query>", &text).map_err(|ds| problem("<query>", &text, &ds[0]))?;
        let mut session = self.steps.session().clone();
        let mut lines = Vec::new();
        for stmt in &script.statements {
            if matches!(stmt.kind, StatementKind::Move(_)) {
                return Err(Problem {
                    code: "query-only".into(),
                    line: 1,
                    message: "the query box answers questions; moves belong in the scenario".into(),
                });
            }
            let outs = session
                .execute(stmt, &text)
                .map_err(|d| problem("<query>", &text, &d))?;
            for o in &outs {
                lines.extend(lines_of(o).0);
            }
        }
        Ok(lines)
    }

    /// The figure of the current model seen through `view`. A view of the
    /// whole model (no card, not `all`) that is too large to draw becomes
    /// the per-card projection of a card the last move is about
    /// ([`View::fit`]), which says so in its legend.
    pub fn figure_value(&self, view: &View) -> Result<crate::figure::Figure, String> {
        let now = self.steps.session();
        let play = now
            .playing()
            .ok_or("no cards are dealt yet: step forward first")?;
        let n = play.model.agents();
        if let Some(bad) = view
            .agents
            .iter()
            .flatten()
            .chain(view.only.iter())
            .find(|&&a| a >= n)
        {
            return Err(format!("no agent {bad}: the model has {n}"));
        }
        let mut view = view.clone();
        if view.fit.is_none() {
            view.fit = Some(now.move_cards().to_vec());
        }
        build_named(&play.table, &play.props, &*play.model, &view, &|w| {
            play.world_name(w)
        })
        .map_err(|e| e.to_string())
    }

    /// The current model drawn as `format` (SVG, DOT or PNG).
    pub fn figure(&self, view: &View, format: Format) -> Result<Vec<u8>, String> {
        let fig = self.figure_value(view)?;
        render(&fig, format, renderer_from_env()).map_err(|e| e.to_string())
    }

    /// The current position's game, when its worlds can be listed.
    fn listed(&self) -> Result<&crate::interp::session::Playing, String> {
        let play = self
            .steps
            .session()
            .playing()
            .ok_or("no cards are dealt yet: step forward first")?;
        play.model.listable().map_err(|e| e.to_string())?;
        Ok(play)
    }

    /// One world of the current model (a click on the figure): where every
    /// card lies and which propositions hold.
    pub fn world(&self, w: usize) -> Result<WorldInfo, String> {
        let play = self.listed()?;
        let model = &*play.model;
        let count = model.world_count();
        if w as u128 >= count {
            return Err(format!("no world w{w}: the model has {count} world(s)"));
        }
        let view = model.world(w);
        let table = &play.table;
        Ok(WorldInfo {
            id: w,
            name: play.world_name(w),
            actual: w == model.actual(),
            line: crate::interp::explain::world_line(
                table,
                &play.props,
                play.world_names(),
                model,
                w,
            )
            .trim()
            .to_string(),
            places: table
                .locations
                .iter()
                .zip(&view.cards)
                .map(|(loc, cards)| (loc.name.clone(), table.deck.show_cards(cards)))
                .collect(),
            props: play
                .props
                .iter()
                .zip(&view.props)
                .filter(|(_, &v)| v)
                .map(|(p, _)| p.clone())
                .collect(),
        })
    }

    /// The worlds a perspective highlights in the actual world: those one
    /// agent considers possible (`access` `None`), or a group's in the
    /// sense of `E`, `C` or `D` (the engine's one definition,
    /// `Backend::group_accessible`).
    pub fn perspective(
        &self,
        agents: &[usize],
        access: Option<crate::engine::GroupAccess>,
    ) -> Result<Vec<usize>, String> {
        let play = self.listed()?;
        let model = &*play.model;
        let n = model.agents();
        if let Some(&bad) = agents.iter().find(|&&a| a >= n) {
            return Err(format!("no agent {bad}: the model has {n}"));
        }
        let actual = model.actual();
        Ok(match (access, agents) {
            (None, [a]) => model.accessible(*a, actual),
            (None, _) => return Err("one agent, or a group with E, C or D".into()),
            (Some(access), group) => model.group_accessible(access, group, actual),
        })
    }

    /// The index of the table's location `name` (a player's hand by its
    /// name or number, a pile, the stock), for `hide`.
    pub fn location(&self, name: &str) -> Result<usize, String> {
        let play = self
            .steps
            .session()
            .playing()
            .ok_or("no cards are dealt yet")?;
        let names: Vec<&str> = play
            .table
            .locations
            .iter()
            .map(|l| l.name.as_str())
            .collect();
        names.iter().position(|&l| l == name).ok_or_else(|| {
            format!(
                "hide: no location {name:?} (the table has {})",
                names.join(", ")
            )
        })
    }

    /// Resolves a card kind written like `2_A` or `6S` for `--for`.
    pub fn kind(&self, card: &str) -> Result<crate::engine::Kind, String> {
        let play = self
            .steps
            .session()
            .playing()
            .ok_or("no cards are dealt yet")?;
        let name = crate::syntax::ast::Name {
            text: card.into(),
            span: crate::diag::Span::default(),
        };
        play.table.deck.card(&name).map_err(|d| d.message)
    }
}

/// About how many bytes the models of `sessions` take, each model counted
/// once however many sessions share it: an explicit model a row of bytes
/// per world (a byte per card copy) and a class number per agent; a
/// symbolic one its BDD nodes (about 32 bytes each), and the BDD
/// manager's operation cache once (every entry is written when the
/// manager is made; the models of one scenario share a manager). The
/// cache is counted at 28 bytes an entry, what `dealer serve` measured:
/// 40 sessions of `bench/dc-40.deal` (a cache of 2^19 entries) took
/// 14.5 MB resident each.
pub fn models_bytes<'a>(sessions: impl Iterator<Item = &'a Session>) -> u64 {
    use crate::engine::Representation;
    let mut seen = std::collections::HashSet::new();
    let mut bytes = 0u64;
    let mut variables = 0;
    for s in sessions {
        let Some(p) = s.playing() else { continue };
        if !seen.insert(std::rc::Rc::as_ptr(&p.model) as *const () as usize) {
            continue;
        }
        match p.model.representation() {
            Representation::Explicit => {
                let cards = p.table.deck.total() as u64 + p.props.len() as u64;
                let per_world = cards + 8 * p.model.agents() as u64 + 16;
                let worlds = u64::try_from(p.model.world_count()).unwrap_or(u64::MAX);
                bytes = bytes.saturating_add(worlds.saturating_mul(per_world));
            }
            Representation::Symbolic {
                nodes,
                variables: v,
                ..
            } => {
                bytes = bytes.saturating_add(32 * nodes as u64);
                variables = variables.max(v);
            }
        }
    }
    if variables > 0 {
        let limits = crate::engine::symbolic::SymbolicLimits::default();
        let cache = crate::engine::symbolic::cache_entries(&limits, variables) as u64;
        bytes = bytes.saturating_add(28 * cache);
    }
    bytes
}
