//! `dealer quiz FILE`: steps through a scenario, narrates each move and
//! asks each question ([`crate::interp::quiz`]). Answers are read one a
//! line from standard input: at a terminal a line that cannot be read is
//! asked again; from a pipe it counts as wrong, and a question with no line
//! left is unanswered (wrong). `score K/N` is printed last. `--json`
//! prints one JSON document with a record per question instead of the
//! text; `--out sheet.csv` writes the records as CSV. With `--generate N
//! --seed S [--level L]`, the questions are generated
//! ([`crate::interp::generate`]) instead of the file's own.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use colored::Colorize;
use serde::Serialize;

use crate::diag::Diagnostic;
use crate::interp::generate::{self, Settings};
use crate::interp::question::Verdict;
use crate::interp::quiz::{Event, Quiz, QuizError, Record};
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
    /// given, right).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Ask N generated questions instead of the file's own.
    #[arg(long, value_name = "N")]
    pub generate: Option<usize>,
    /// The seed of the generated questions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Generated questions: 1 facts about hands, 2 knowledge of knowledge,
    /// 3 common and distributed knowledge and counts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub level: u8,
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
}

/// Runs the quiz; the exit code (0, or 2 on an error).
pub fn run(args: &QuizArgs, color: bool) -> u8 {
    let options = args.model.options(false);
    let script = match read_script(&args.file) {
        Ok(s) => s,
        Err(shown) => {
            eprint!("{}", shown.render(color));
            return 2;
        }
    };
    let generated = match args.generate {
        None => None,
        Some(count) => {
            let settings = Settings {
                count,
                seed: args.seed,
                level: args.level,
            };
            match generate::generate(&script, options, settings) {
                Ok(g) => Some(g),
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
    let stdin = std::io::stdin();
    let terminal = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    let text = !args.json;
    loop {
        let (events, asked) = match quiz.advance() {
            Ok(x) => x,
            Err(d) => {
                eprint!("{}", d.render(&name, &src, color));
                return 2;
            }
        };
        if text {
            show_events(&events);
        }
        let Some(asked) = asked else {
            break;
        };
        let n = quiz.records().len() + 1;
        let hint = match asked.answer {
            crate::interp::question::Answer::YesNo(_) => "y/n",
            crate::interp::question::Answer::Number(_) => "a number",
            crate::interp::question::Answer::Players(_) => "players, or nobody",
        };
        loop {
            if text {
                print!("{} {}  [{hint}] ", format!("Q{n}.").bold(), asked.text);
                let _ = std::io::stdout().flush();
            }
            let line = lines.next().and_then(Result::ok);
            if text && !terminal {
                println!("{}", line.as_deref().unwrap_or("(no answer)"));
            }
            let result = match &line {
                Some(l) => match quiz.answer(Some(l)) {
                    Err(QuizError::Unreadable(why)) if terminal => {
                        println!("  {}", why.yellow());
                        continue;
                    }
                    Err(QuizError::Unreadable(why)) => {
                        if text {
                            println!("  {}", why.yellow());
                        }
                        quiz.unreadable(l)
                    }
                    other => other,
                },
                None => quiz.answer(None),
            };
            match result {
                Ok(v) => {
                    if text {
                        show_verdict(&v);
                    }
                    break;
                }
                Err(QuizError::Engine(d)) => {
                    eprint!("{}", d.render(&name, &src, color));
                    return 2;
                }
                Err(e) => {
                    eprintln!("dealer quiz: {e:?}");
                    return 2;
                }
            }
        }
    }
    let (right, asked) = quiz.score();
    if asked == 0 && args.generate.is_none() {
        eprintln!(
            "{name} has no `question` statement after the step it starts at: add some, or ask generated ones with --generate N"
        );
    }
    if let Some(out) = &args.out {
        if let Err(e) = write_csv(out, quiz.records()) {
            eprint!(
                "{}",
                Diagnostic::unlocated("cannot-write", e).render("", "", color)
            );
            return 2;
        }
    }
    if args.json {
        let report = Report {
            schema: "dealer-quiz/1",
            file: &name,
            records: quiz.records(),
            right,
            asked,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("plain data serialises")
        );
    } else {
        println!("score {right}/{asked}");
    }
    0
}

fn show_events(events: &[Event]) {
    for e in events {
        match e {
            Event::Moved {
                line,
                source,
                notes,
                narration,
            } => {
                println!("{}  {}", format!("{line:>4}").dimmed(), source.cyan());
                for n in notes {
                    println!("        {}", n.dimmed());
                }
                for n in narration {
                    println!("  {} {}", ">>".blue().bold(), n.bold());
                }
            }
            Event::Checkpoint(name) => println!("      {}", format!("-- {name} --").bold()),
        }
    }
}

fn show_verdict(v: &Verdict) {
    if v.right {
        println!("  {}", "right".green());
        return;
    }
    println!("  {}", "wrong".red().bold());
    for l in &v.lines {
        println!("    {l}");
    }
}

/// The records as CSV with a header line.
pub fn csv(records: &[Record]) -> String {
    let mut out = String::from("step,line,question,formula,expected,given,right\n");
    for r in records {
        let fields = [
            r.step.to_string(),
            r.line.to_string(),
            r.question.clone(),
            r.formula.clone(),
            r.expected.clone(),
            r.given.clone().unwrap_or_default(),
            r.right.to_string(),
        ];
        let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&quoted.join(","));
        out.push('\n');
    }
    out
}

fn csv_field(f: &str) -> String {
    if f.contains([',', '"', '\n']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

fn write_csv(path: &Path, records: &[Record]) -> Result<(), String> {
    std::fs::write(path, csv(records)).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
