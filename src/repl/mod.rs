//! The REPL for lectures: step through a scenario file move by move, type
//! any statement or query, undo, jump to checkpoints, and hear what each move
//! made known.
//!
//! [`backend`] holds the state and does what each line says, knowing nothing
//! of terminals; [`complete`] offers completions, hints and highlighting from
//! that state; [`rustyline_frontend`] is the thin layer that reads lines
//! (with rustyline on a terminal, plainly from a pipe) and prints. Only the
//! front end prints: the backend returns [`Item`]s, which [`render`] turns
//! into text.

pub mod backend;
pub mod command;
pub mod complete;
pub mod interrupt;
pub mod rustyline_frontend;

use crate::diag::{Diagnostic, Paint};
use crate::interp::Output;

pub use backend::Repl;
pub use rustyline_frontend::run;

/// One thing the REPL has to say.
#[derive(Clone, Debug)]
pub enum Item {
    /// What a statement produced; `line` is its line in the loaded file.
    Output {
        /// The statement's line in the file, `None` when typed.
        line: Option<usize>,
        /// What it produced.
        out: Output,
    },
    /// What a move made known.
    Narration(Vec<String>),
    /// A located error in `src` (the file or the typed line).
    Error {
        /// The file name, or `<input>`.
        file: String,
        /// The text the diagnostic points into.
        src: String,
        /// The error.
        diag: Diagnostic,
    },
    /// A figure was written: the report (`wrote FILE (N node(s), M edge(s))`).
    Wrote {
        /// The statement's line in the file, `None` when typed.
        line: Option<usize>,
        /// What was written.
        report: String,
    },
    /// Plain information: help, a listing, where the file stands.
    Info(Vec<String>),
    /// The file's comments at a statement (the lecturer's notes): the
    /// comment lines right above it, or the comment at the end of its line.
    Note(Vec<String>),
}

/// Renders items as text, coloured when `color` is true.
pub fn render(items: &[Item], color: bool) -> String {
    let paint = Paint::new(color);
    let mut out = String::new();
    for item in items {
        match item {
            Item::Output { line, out: o } => output(&mut out, *line, o, paint),
            Item::Narration(lines) => {
                for l in lines {
                    // Blue and bold: readable on a white projector screen
                    // and on a dark terminal alike (yellow is not).
                    out.push_str(&format!("  {} {}\n", paint.blue_bold(">>"), paint.bold(l)));
                }
            }
            Item::Error { file, src, diag } => out.push_str(&diag.render(file, src, color)),
            Item::Wrote { line, report } => {
                out.push_str(&format!("{}{report}\n", number(*line, paint)));
            }
            Item::Note(lines) => {
                for l in lines {
                    out.push_str(&format!("      {}\n", paint.italic(l)));
                }
            }
            Item::Info(lines) => {
                for l in lines {
                    out.push_str(l);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// The line number column: `  12  `, or nothing for a typed statement.
fn number(line: Option<usize>, paint: Paint) -> String {
    match line {
        Some(n) => paint.dim(format!("{n:>4}  ")),
        None => String::new(),
    }
}

fn output(out: &mut String, line: Option<usize>, o: &Output, paint: Paint) {
    let num = number(line, paint);
    let value = |v: bool| {
        if v {
            paint.green("true")
        } else {
            paint.red("false")
        }
    };
    let arrow = paint.dim("=>");
    let text = match o {
        Output::Answer { source, value: v } | Output::Valid { source, value: v } => match line {
            Some(_) => format!("{num}{source}  {arrow} {}", value(*v)),
            None => value(*v),
        },
        Output::Expect {
            source,
            held,
            detail,
            ..
        } => {
            if *held {
                format!("{num}{source}  {}", paint.green("ok"))
            } else {
                format!("{num}{source}  {} {detail}", paint.red_bold("FAILED:"))
            }
        }
        Output::Moved { source, notes } => {
            let mut t = format!("{num}{}", paint.cyan(source));
            for note in notes {
                t.push_str(&format!("\n      {}", paint.dim(note)));
            }
            t
        }
        Output::Question { source, asked, .. } => match line {
            Some(_) => format!("{num}{source}  {arrow} {}", asked.answer),
            None => format!("{}: {}", asked.text, asked.answer),
        },
        Output::Checkpoint(name) => format!("{num}{}", paint.bold(format!("-- {name} --"))),
        Output::Lines(lines) => lines
            .iter()
            .map(|l| format!("      {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
        Output::Figure { path, .. } => format!("{num}figure for {path} (not written)"),
    };
    out.push_str(&text);
    out.push('\n');
}
