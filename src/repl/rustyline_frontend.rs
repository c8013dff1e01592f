//! The thin front end: rustyline on a terminal (history file, completion,
//! hints, highlighting, multi-line input), plain lines from a pipe. It reads,
//! hands each input to the [`Repl`] backend and prints what comes back.
//!
//! From a pipe, every input is echoed after its prompt, so that the output
//! reads like the session on a terminal (the transcript tests rely on it).

use std::borrow::Cow;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Editor, Helper};

use crate::interp::Options;
use crate::syntax;

use super::complete::highlight;
use super::{render, Repl};

/// The banner printed when the REPL starts.
pub const BANNER: &str =
    "dealer repl: type statements and queries; :help lists the commands, :quit leaves";

/// Runs the REPL, with `file` loaded first when given.
pub fn run(file: Option<PathBuf>, options: Options) -> ExitCode {
    let color = crate::diag::color_from_env();
    let mut repl = Repl::new(options);
    super::interrupt::install();
    println!("{BANNER}");
    if let Some(f) = file {
        // Ctrl-C during the load interrupts the running statement: the
        // load stops there, with the statements before it played.
        crate::engine::cancel::clear();
        print!("{}", render(&repl.load(&f.display().to_string()), color));
    }
    if std::io::stdin().is_terminal() {
        terminal(repl, color)
    } else {
        piped(repl, color)
    }
}

/// Reads inputs from a pipe: lines are joined while brackets are open.
fn piped(mut repl: Repl, color: bool) -> ExitCode {
    let stdin = std::io::stdin();
    let mut lock = stdin.lock();
    let mut lines = std::iter::from_fn(move || read_line(&mut lock));
    let mut out = std::io::stdout();
    while !repl.quitting() {
        let Some(first) = lines.next() else {
            break;
        };
        let mut input = first;
        let mut shown = format!("{}{input}\n", repl.prompt());
        while !complete(&input) {
            let Some(more) = lines.next() else {
                break;
            };
            shown.push_str(&format!("...> {more}\n"));
            input.push('\n');
            input.push_str(&more);
        }
        crate::engine::cancel::clear();
        let reply = render(&repl.eval(&input), color);
        let _ = write!(out, "{shown}{reply}");
    }
    let _ = write!(out, "{}", render(&repl.finish(), color));
    ExitCode::SUCCESS
}

/// Whether an input is ready: complete, or ended by an empty line (which
/// gives up on an open bracket and lets the parser say what is missing).
fn complete(input: &str) -> bool {
    let last_blank = input.contains('\n')
        && input
            .rsplit('\n')
            .next()
            .is_some_and(|l| l.trim().is_empty());
    syntax::is_complete(input) || last_blank
}

/// One line of the pipe, without its end; bytes that are not UTF-8 become U+FFFD.
fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let text = String::from_utf8_lossy(&buf);
            Some(text.trim_end_matches(['\n', '\r']).to_string())
        }
    }
}

/// Reads inputs with rustyline; Ctrl-C cancels the line, Ctrl-D leaves.
fn terminal(mut repl: Repl, color: bool) -> ExitCode {
    // At a terminal, a wrong first answer in `:quiz` gets a hint and a second try.
    repl.set_quiz_tries(2);
    let Ok(mut editor) = Editor::<Assist, DefaultHistory>::new() else {
        return piped(repl, color);
    };
    editor.set_helper(Some(Assist { repl, color }));
    let history = history_file();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    loop {
        let prompt = editor
            .helper()
            .map_or("dealer> ".into(), |a| a.repl.prompt());
        match editor.readline(&prompt) {
            Ok(line) => {
                let _ = editor.add_history_entry(line.as_str());
                let Some(assist) = editor.helper_mut() else {
                    break;
                };
                crate::engine::cancel::clear();
                print!("{}", render(&assist.repl.eval(&line), color));
                if assist.repl.quitting() {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(_) => {
                if let Some(assist) = editor.helper_mut() {
                    print!("{}", render(&assist.repl.finish(), color));
                }
                break;
            }
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(h);
    }
    ExitCode::SUCCESS
}

/// `$XDG_DATA_HOME/dealer/history`, or `~/.local/share/dealer/history`
/// (`%APPDATA%\dealer\history` on Windows).
fn history_file() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = env("XDG_DATA_HOME")
        .or_else(|| env("APPDATA"))
        .or_else(|| env("HOME").map(|h| h.join(".local").join("share")))?;
    Some(base.join("dealer").join("history"))
}

/// The rustyline helper: asks the backend for completions and hints.
struct Assist {
    repl: Repl,
    color: bool,
}

impl Completer for Assist {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(self.repl.complete(line, pos))
    }
}

impl Hinter for Assist {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        self.repl.hint(line, pos)
    }
}

impl Highlighter for Assist {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if self.color {
            Cow::Owned(highlight(line))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.color
    }
}

impl Validator for Assist {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if complete(ctx.input()) {
            ValidationResult::Valid(None)
        } else {
            ValidationResult::Incomplete
        })
    }
}

impl Helper for Assist {}
