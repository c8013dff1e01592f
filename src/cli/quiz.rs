//! `dealer quiz FILE`: steps through a scenario, narrates each move and
//! asks each question ([`crate::interp::quiz`]). Answers are read one a
//! line from standard input: at a terminal a line that cannot be read is
//! asked again; from a pipe it counts as wrong. `quit` (or `:q`) and the
//! end of the answers stop the quiz: the questions not reached are not
//! asked, and the score is of those answered. `score K/N` is printed
//! last. `--json` prints one JSON document with a record per question
//! instead of the text; `--out sheet.csv` (or `sheet.json`) is created
//! before the first question and written answer by answer. Ctrl-C and an
//! error of the scenario or engine stop the quiz with the score of what
//! was answered, every answer kept. With `--generate N --seed S [--level
//! L]`, the questions are generated ([`crate::interp::generate`]) instead
//! of the file's own.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use crate::diag::{Diagnostic, Paint};
use crate::interp::generate::{self, Settings};
use crate::interp::question::Verdict;
use crate::interp::quiz::{self, Attempt, Event, Quiz, QuizError, Record};
use crate::interp::Session;

use super::{read_script, ModelArgs};

/// The options of `dealer quiz`.
#[derive(Args, Debug)]
pub struct QuizArgs {
    /// The scenario (`.deal` file) with its `question`s.
    pub file: PathBuf,
    /// Print one JSON document (a record per question) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the answers as CSV (step, line, question, formula, expected,
    /// given, right), each as it is given; a name ending in `.json` gets
    /// the JSON document of `--json`. Checked before the first question.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Ask N generated questions instead of the file's own.
    #[arg(long, value_name = "N")]
    pub generate: Option<usize>,
    /// The seed of the generated questions (default 1; only with
    /// `--generate`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Generated questions (default 1; only with `--generate`): 1 what a
    /// player knows about the cards or values, 2 what a player knows about
    /// another's knowledge, 3 common, mutual and distributed knowledge and
    /// counts.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub level: Option<u8>,
    /// Tries per question: after a wrong try that is not the last, a hint
    /// (the first step of the explanation) and the question again; the
    /// answer is shown after the last. Default: 2 at a terminal, 1 when
    /// the answers come from a pipe (one line per question).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=9))]
    pub tries: Option<u8>,
    /// Say after each move what it made known, as `dealer run` does (off
    /// by default: narration can give answers away).
    #[arg(long)]
    pub narrate: bool,
    /// The engine and its budget.
    #[command(flatten)]
    pub model: ModelArgs,
}

/// The JSON document of `quiz --json`.
#[derive(Serialize)]
struct Report<'a> {
    schema: &'static str,
    file: &'a str,
    records: &'a [Record],
    right: usize,
    asked: usize,
    /// Why the quiz stopped before its end (an engine error, an
    /// interrupt); absent when it ran to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

/// A warning with no place in the scenario.
fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
    Diagnostic {
        severity: crate::diag::Severity::Warning,
        ..Diagnostic::unlocated(code, message)
    }
}

/// How the quiz ended.
enum End {
    /// Every question was asked.
    Finished,
    /// An error of the scenario or the engine (shown already).
    Failed(String),
    /// Ctrl-C.
    Interrupted(&'static str),
    /// `quit` (`:q`) or the end of the answers: the student stopped.
    Stopped(&'static str),
}

/// Runs the quiz; the exit code (0; 2 on an error; 130 when interrupted).
/// `--out` is created before the first question and each answer is
/// written to it as it is given, so an error or an interrupt keeps every
/// answer given.
pub fn run(args: &QuizArgs, color: bool) -> u8 {
    let paint = Paint::new(color);
    let options = args.model.options(false);
    let script = match read_script(&args.file) {
        Ok(s) => s,
        Err(shown) => {
            eprint!("{}", shown.render(color));
            return 2;
        }
    };
    let cannot_write = |e: String| {
        eprint!(
            "{}",
            Diagnostic::unlocated("cannot-write", e).render("", "", color)
        );
        2
    };
    let mut sheet = match args
        .out
        .as_deref()
        .map(|p| Sheet::create(p, &args.file.display().to_string()))
        .transpose()
    {
        Ok(sheet) => sheet,
        Err(e) => return cannot_write(e),
    };
    let text = !args.json;
    let generated = match args.generate {
        None => {
            if args.seed.is_some() || args.level.is_some() {
                eprint!(
                    "{}",
                    warning(
                        "without-generate",
                        "`--seed` and `--level` choose generated questions: without `--generate N` the file's own questions are asked",
                    )
                                        .render("", "", color)
                );
            }
            None
        }
        Some(count) => {
            let settings = Settings {
                count,
                seed: args.seed.unwrap_or(1),
                level: args.level.unwrap_or(1),
            };
            match generate::generate(&script, options, settings) {
                Ok(g) => {
                    if text {
                        println!("{}", paint.dim(generate::level_words(settings.level)));
                    }
                    if let Some(note) = &g.note {
                        eprint!(
                            "{}",
                            warning("few-questions", note.clone()).render("", "", color)
                        );
                    }
                    Some(g.questions)
                }
                Err(d) => {
                    eprint!("{}", d.render(&script.name, &script.src, color));
                    return 2;
                }
            }
        }
    };
    let name = script.name.clone();
    let src = script.src.clone();
    let mut quiz = Quiz::new(script, Session::new(options), 0, generated);
    let given = INPUT.with(|i| i.borrow().is_some());
    let terminal = !given && std::io::stdin().is_terminal();
    quiz.set_tries(args.tries.map_or(if terminal { 2 } else { 1 }, usize::from));
    quiz.set_narrate(text && args.narrate);
    crate::engine::cancel::clear();
    crate::repl::interrupt::install();
    let lines = answer_lines();
    let failed = |d: &Diagnostic| {
        eprint!("{}", d.render(&name, &src, color));
        if crate::engine::cancel::requested() {
            End::Interrupted("interrupted")
        } else {
            End::Failed(d.message.clone())
        }
    };
    // The opening comment and the deal, before the first move.
    let opening = quiz.opening();
    if let (true, Ok(lines)) = (text, &opening) {
        for l in lines {
            println!("{l}");
        }
        if !lines.is_empty() {
            println!();
        }
    }
    let end = 'quiz: loop {
        if let Err(d) = &opening {
            break failed(d);
        }
        let (events, asked) = match quiz.advance() {
            Ok(x) => x,
            Err(d) => break failed(&d),
        };
        if text {
            show_events(&events, paint);
        }
        let Some(asked) = asked else {
            break End::Finished;
        };
        let n = quiz.records().len() + 1;
        let hint = match asked.answer {
            crate::interp::question::Answer::YesNo(_) => "y/n",
            crate::interp::question::Answer::Number(_) => "a number",
            crate::interp::question::Answer::Players(_) => "players, or nobody",
        };
        loop {
            if text {
                print!("{} {}  [{hint}] ", paint.bold(format!("Q{n}.")), asked.text);
                let _ = std::io::stdout().flush();
            }
            let line = match next_line(&lines) {
                Line::Text(l) if quiz::is_quit(&l) => {
                    if text && !terminal {
                        println!("{}", l.trim());
                    }
                    break 'quiz End::Stopped("quit");
                }
                Line::Text(l) => Some(l),
                Line::End => break 'quiz End::Stopped("end of input"),
                Line::Interrupted => break 'quiz End::Interrupted("interrupted"),
            };
            if text && !terminal {
                println!("{}", line.as_deref().unwrap_or(""));
            }
            let result = match &line {
                Some(l) => match quiz.attempt(l) {
                    Err(QuizError::Unreadable(why)) if terminal => {
                        println!("  {}", paint.yellow(why));
                        continue;
                    }
                    Err(QuizError::Unreadable(why)) => {
                        if text {
                            println!("  {}", paint.yellow(why));
                        }
                        quiz.unreadable(l)
                    }
                    Ok(Attempt::TryAgain(hint)) => {
                        if text {
                            println!("  {}", paint.yellow("not quite: try again"));
                            println!("  {hint}");
                        }
                        continue;
                    }
                    Ok(Attempt::Right(v) | Attempt::Wrong(v)) => Ok(v),
                    Err(e) => Err(e),
                },
                None => quiz.answer(None),
            };
            match result {
                Ok(v) => {
                    if text {
                        show_verdict(&v, paint);
                    }
                    if let Some(sheet) = sheet.as_mut() {
                        if let Err(e) = sheet.add(quiz.records(), None) {
                            return cannot_write(e);
                        }
                    }
                    break;
                }
                Err(QuizError::Engine(d)) => break 'quiz failed(&d),
                Err(e) => break 'quiz End::Failed(format!("{e:?}")),
            }
        }
    };
    let (right, asked) = quiz.score();
    if asked == 0 && args.generate.is_none() && matches!(end, End::Finished) {
        eprintln!(
            "{name} has no `question` statement after the step it starts at: add some, or ask generated ones with --generate N"
        );
    }
    let stopped = match &end {
        End::Finished => None,
        End::Failed(why) => Some(format!("stopped by an error: {why}")),
        End::Interrupted(why) | End::Stopped(why) => Some(format!("stopped: {why}")),
    };
    if let (Some(sheet), Some(_)) = (sheet.as_mut().filter(|s| s.csv.is_none()), &stopped) {
        if let Err(e) = sheet.add(quiz.records(), stopped.clone()) {
            return cannot_write(e);
        }
    }
    if args.json {
        let report = Report {
            schema: "dealer-quiz/1",
            file: &name,
            records: quiz.records(),
            right,
            asked,
            stopped: stopped.clone(),
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("plain data serialises")
        );
    } else {
        if stopped.is_some() {
            println!();
        }
        match &stopped {
            None => println!("score {right}/{asked}"),
            Some(why) => println!(
                "{why}; score {right}/{asked} of the questions answered{}",
                args.out
                    .as_ref()
                    .map(|p| format!(", kept in {}", p.display()))
                    .unwrap_or_default()
            ),
        }
    }
    match end {
        End::Finished | End::Stopped(_) => 0,
        End::Failed(_) => 2,
        End::Interrupted(_) => 130,
    }
}

/// A line of answers, or why there is none.
enum Line {
    Text(String),
    End,
    Interrupted,
}

/// Standard input's lines, read on a thread of their own so that the quiz
/// can notice Ctrl-C while it waits for an answer (a read in progress is
/// not interrupted by the signal). Bytes that are not UTF-8 are read
/// lossily; the channel closes at the end of input.
fn answer_lines() -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    let given = INPUT.with(|i| i.borrow_mut().take());
    std::thread::spawn(move || {
        let mut input: Box<dyn BufRead> = match given {
            Some(bytes) => Box::new(std::io::Cursor::new(bytes)),
            None => Box::new(std::io::stdin().lock()),
        };
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

thread_local! {
    /// Answers given in place of standard input ([`with_input`]).
    static INPUT: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` (a call of [`crate::cli::main_from`] with `quiz`) with
/// `input` as the answers instead of standard input: for callers that run
/// dealer in-process, such as the command-line fuzzer.
pub fn with_input<T>(input: Vec<u8>, f: impl FnOnce() -> T) -> T {
    INPUT.with(|i| *i.borrow_mut() = Some(input));
    let out = f();
    INPUT.with(|i| i.borrow_mut().take());
    out
}

/// The next answer line, waiting for it while no interrupt is asked.
fn next_line(lines: &mpsc::Receiver<String>) -> Line {
    loop {
        if crate::engine::cancel::requested() {
            return Line::Interrupted;
        }
        match lines.recv_timeout(Duration::from_millis(50)) {
            Ok(l) => return Line::Text(l),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Line::End,
        }
    }
}

/// The `--out` file: created before the first question and brought up
/// to date after each answer, so that it holds every answer given at
/// every moment. CSV: the header, then a record appended and flushed per
/// answer. JSON (a name ending in `.json`): the document of `--json`,
/// written whole after each answer (to a file beside it, then renamed
/// over it, so that it is never half written).
struct Sheet {
    path: PathBuf,
    /// The CSV file (`None`: JSON).
    csv: Option<std::fs::File>,
    /// The scenario, for the JSON document.
    file: String,
}

impl Sheet {
    fn create(path: &Path, file: &str) -> Result<Sheet, String> {
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let mut sheet = Sheet {
            path: path.to_path_buf(),
            csv: None,
            file: file.to_string(),
        };
        if json {
            sheet.add(&[], None)?;
        } else {
            sheet.csv = Some(std::fs::File::create(path).map_err(|e| sheet.cannot(e))?);
            sheet.append(CSV_HEADER)?;
        }
        Ok(sheet)
    }

    fn cannot(&self, e: std::io::Error) -> String {
        format!("cannot write {}: {e}", self.path.display())
    }

    /// Brings the file up to date with `records` (the last one is new)
    /// and, in JSON, why the quiz `stopped` before its end.
    fn add(&mut self, records: &[Record], stopped: Option<String>) -> Result<(), String> {
        if self.csv.is_some() {
            return match records.last() {
                Some(r) => self.append(&csv_row(r)),
                None => Ok(()),
            };
        }
        let right = records.iter().filter(|r| r.right).count();
        let report = Report {
            schema: "dealer-quiz/1",
            file: &self.file,
            records,
            right,
            asked: records.len(),
            stopped,
        };
        let text = serde_json::to_string_pretty(&report).expect("plain data serialises") + "\n";
        let mut beside = self.path.clone().into_os_string();
        beside.push(".part");
        let beside = PathBuf::from(beside);
        std::fs::write(&beside, text)
            .and_then(|()| std::fs::rename(&beside, &self.path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&beside);
                self.cannot(e)
            })
    }

    fn append(&mut self, text: &str) -> Result<(), String> {
        let path = self.path.display().to_string();
        let file = self.csv.as_mut().expect("a CSV sheet");
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {path}: {e}"))
    }
}

/// The moves in words, the rules' notes and, with `--narrate`, what each
/// move made known (the quiz narrates only then).
fn show_events(events: &[Event], paint: Paint) {
    for e in events {
        match e {
            Event::Moved {
                line,
                said,
                notes,
                narration,
                ..
            } => {
                println!("{}  {}", paint.dim(format!("{line:>4}")), paint.cyan(said));
                for n in notes {
                    println!("        {}", paint.dim(n));
                }
                for n in narration {
                    println!("  {} {}", paint.blue_bold(">>"), paint.bold(n));
                }
            }
            Event::Checkpoint(name) => println!("      {}", paint.bold(format!("-- {name} --"))),
        }
    }
}

fn show_verdict(v: &Verdict, paint: Paint) {
    if v.right {
        println!("  {}", paint.green("right"));
        return;
    }
    println!("  {}", paint.red_bold("wrong"));
    for l in &v.lines {
        println!("    {l}");
    }
}

/// The CSV file's header line.
const CSV_HEADER: &str = "step,line,question,formula,expected,given,right,tries\n";

/// The records as CSV with a header line.
pub fn csv(records: &[Record]) -> String {
    let mut out = String::from(CSV_HEADER);
    for r in records {
        out.push_str(&csv_row(r));
    }
    out
}

/// One record as a CSV line.
fn csv_row(r: &Record) -> String {
    let fields = [
        r.step.to_string(),
        r.line.to_string(),
        r.question.clone(),
        r.formula.clone(),
        r.expected.clone(),
        r.given.clone().unwrap_or_default(),
        r.right.to_string(),
        r.tries.to_string(),
    ];
    let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
    format!("{}\n", quoted.join(","))
}

/// A field quoted when it holds a comma, a quote or a line break; a field
/// that starts with `=`, `+`, `-` or `@` (which a spreadsheet would take
/// for a formula: a student's answer `=1+1`) gets a leading `'`, which
/// spreadsheets show as text.
pub fn csv_field(f: &str) -> String {
    let f = if f.starts_with(['=', '+', '-', '@']) {
        format!("'{f}")
    } else {
        f.to_string()
    };
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f
    }
}
