//! REPL commands: the `:` lines, their aliases and their help.

use crate::diag::{suggest, Diagnostic, Span};

/// How much narration follows each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrate {
    /// None.
    Off,
    /// What became known and common knowledge, in a line or two.
    Short,
    /// The news, then everything known after the move.
    Full,
}

/// A REPL command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `:load FILE`: read a scenario and play its declarations.
    Load(String),
    /// `:next [N]`: play the next N moves of the file.
    Next(usize),
    /// `:back [N]`: undo the last N steps.
    Back(usize),
    /// `:goto CHECKPOINT`: jump (forward or back) to a checkpoint of the file.
    Goto(String),
    /// `:restart`: back to the start of the file.
    Restart,
    /// `:reset`: forget the file and every statement: an empty session.
    Reset,
    /// `:limit [N]`: the most nodes a figure draws (shown when no N).
    Limit(Option<usize>),
    /// `:list`: the file with the current position marked.
    List,
    /// `:stats`, `:worlds [P]`, `:why φ`: the statement of the same name; the
    /// text is the line with the command written as that statement, the same length.
    Statement(String),
    /// `:narrate off|short|full`.
    Narrate(Narrate),
    /// `:strategy NAME [PLAYER]`: what a strategy would do now, and why.
    Strategy(String),
    /// `:quiz`: ask the file's questions from the current step;
    /// `:quiz stop` ends the quiz.
    Quiz(bool),
    /// `:help [COMMAND]`.
    Help(Option<String>),
    /// `:quit`.
    Quit,
}

/// One command's names and help.
pub struct Info {
    /// The name, without `:`.
    pub name: &'static str,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// Its arguments, for help and hints.
    pub args: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// Every command, in the order `:help` lists them.
pub const COMMANDS: &[Info] = &[
    info(
        "load",
        &["open", "o"],
        "FILE",
        "read a scenario and play its declarations",
    ),
    info(
        "next",
        &["n"],
        "[N]",
        "play the next move of the file (with the checks after it), N times",
    ),
    info(
        "back",
        &["b", "undo"],
        "[N]",
        "undo the last step (N steps), restoring the earlier model",
    ),
    info(
        "goto",
        &["g"],
        "CHECKPOINT",
        "jump forward or back to a checkpoint of the file",
    ),
    info("restart", &["r"], "", "back to the start of the file"),
    info(
        "reset",
        &[],
        "",
        "forget the file and everything typed: an empty session",
    ),
    info(
        "limit",
        &[],
        "[N]",
        "let figures draw up to N nodes (default 64); without N, show the limit",
    ),
    info(
        "list",
        &["ls"],
        "",
        "show the file, the next statement marked with >",
    ),
    info(
        "stats",
        &["s"],
        "",
        "the number of worlds, and how many each player considers possible",
    ),
    info(
        "worlds",
        &["w"],
        "[PLAYER]",
        "list the worlds, or the ones PLAYER considers possible",
    ),
    info(
        "why",
        &["y"],
        "FORMULA",
        "explain why a formula is true or false",
    ),
    info(
        "export",
        &["e"],
        "\"FILE\" [OPTIONS]",
        "draw the current model to FILE (.dot, .svg, .png, .pdf, .tex); options: for CARD, only P, agents 1,2, all, limit N, complete, hide PILE",
    ),
    info(
        "narrate",
        &[],
        "off|short|full",
        "how much to say after each move",
    ),
    info(
        "strategy",
        &["strat"],
        "NAME [PLAYER]",
        "what a strategy (strategies/GAME-NAME.strat or a .strat file) would do now for PLAYER (default: the player to move), and why",
    ),
    info(
        "quiz",
        &[],
        "[stop]",
        "ask the file's questions from here: each typed line answers one (y/n, a number, players); `:quiz stop` ends",
    ),
    info(
        "help",
        &["h", "?"],
        "[COMMAND]",
        "this list, or one command's help",
    ),
    info("quit", &["q", "exit"], "", "leave (Ctrl-D also does)"),
];

const fn info(
    name: &'static str,
    aliases: &'static [&'static str],
    args: &'static str,
    help: &'static str,
) -> Info {
    Info {
        name,
        aliases,
        args,
        help,
    }
}

/// The command called `word` (a name or an alias, without `:`).
pub fn find(word: &str) -> Option<&'static Info> {
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
}

/// Every name and alias, with `:`.
pub fn all_names() -> Vec<String> {
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .map(|n| format!(":{n}"))
        .collect()
}

/// Parses a line that starts with `:` (after leading blanks).
pub fn parse(line: &str) -> Result<Command, Diagnostic> {
    let start = line.len() - line.trim_start().len();
    let body = &line[start + 1..];
    let word_len = body.find(char::is_whitespace).unwrap_or(body.len());
    let word = &body[..word_len];
    let word_span = Span::new(start, start + 1 + word_len);
    let rest = &body[word_len..];
    let rest_at = start + 1 + word_len;
    let Some(cmd) = find(word) else {
        return Err(unknown(word, word_span));
    };
    let arg = rest.trim();
    let arg_span = if arg.is_empty() {
        Span::new(line.len(), line.len())
    } else {
        let off = rest_at + (rest.len() - rest.trim_start().len());
        Span::new(off, off + arg.len())
    };
    let needs = |what: &str| -> Result<String, Diagnostic> {
        if arg.is_empty() {
            Err(Diagnostic::error(
                "missing-argument",
                format!(":{} needs {what}", cmd.name),
                word_span,
            )
            .with_label(format!("expected {what} after this"))
            .with_help(format!(":{} {}  {}", cmd.name, cmd.args, cmd.help)))
        } else {
            Ok(arg.to_string())
        }
    };
    let none = || -> Result<(), Diagnostic> {
        if arg.is_empty() {
            Ok(())
        } else {
            Err(Diagnostic::error(
                "unexpected-argument",
                format!(":{} takes no argument", cmd.name),
                arg_span,
            )
            .with_label("not expected here"))
        }
    };
    Ok(match cmd.name {
        "load" => Command::Load(needs("a file name")?),
        "next" => Command::Next(count(arg, arg_span)?),
        "back" => Command::Back(count(arg, arg_span)?),
        "goto" => Command::Goto(needs("a checkpoint name")?.trim_matches('"').to_string()),
        "restart" => none().map(|_| Command::Restart)?,
        "reset" => none().map(|_| Command::Reset)?,
        "limit" if arg.is_empty() => Command::Limit(None),
        "limit" => match arg.parse::<usize>() {
            Ok(n) if n > 0 => Command::Limit(Some(n)),
            _ => {
                return Err(Diagnostic::error(
                    "bad-argument",
                    format!("`{arg}` is not a number of nodes"),
                    arg_span,
                )
                .with_label("expected a whole number, 1 or more"))
            }
        },
        "list" => none().map(|_| Command::List)?,
        "quit" => none().map(|_| Command::Quit)?,
        "narrate" => Command::Narrate(narrate(arg, arg_span)?),
        "strategy" => Command::Strategy(needs("a strategy's name")?),
        "quiz" if arg.is_empty() => Command::Quiz(true),
        "quiz" if arg == "stop" => Command::Quiz(false),
        "quiz" => {
            return Err(Diagnostic::error(
                "bad-argument",
                format!("`{arg}`: `:quiz` starts a quiz, `:quiz stop` ends it"),
                arg_span,
            )
            .with_label("expected nothing or `stop`"))
        }
        "help" => Command::Help((!arg.is_empty()).then(|| arg.trim_start_matches(':').to_string())),
        name => {
            if name == "why" {
                needs("a formula")?;
            }
            if name == "export" && !needs("a file name")?.starts_with('"') {
                return Err(Diagnostic::error(
                    "bad-argument",
                    "the file name goes in quotes",
                    arg_span,
                )
                .with_label("expected a quoted file name")
                .with_help(":export \"fig/turn1.svg\""));
            }
            Command::Statement(as_statement(line, start, word_len, name))
        }
    })
}

/// The line with `:word` written as the statement `name`: the same length
/// when `word` is the name itself, so that spans still point into the line.
fn as_statement(line: &str, start: usize, word_len: usize, name: &str) -> String {
    let rest = &line[start + 1 + word_len..];
    format!("{} {name}{rest}", &line[..start])
}

fn unknown(word: &str, span: Span) -> Diagnostic {
    let names: Vec<&str> = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .collect();
    let d = Diagnostic::error("unknown-command", format!("no command `:{word}`"), span)
        .with_label("not a command");
    match suggest(word, &names) {
        Some(s) => d.with_help(format!("did you mean `:{s}`? `:help` lists the commands")),
        None => d.with_help("`:help` lists the commands"),
    }
}

fn count(arg: &str, span: Span) -> Result<usize, Diagnostic> {
    if arg.is_empty() {
        return Ok(1);
    }
    match arg.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Diagnostic::error(
            "bad-argument",
            format!("`{arg}` is not a number of steps"),
            span,
        )
        .with_label("expected a whole number, 1 or more")),
    }
}

fn narrate(arg: &str, span: Span) -> Result<Narrate, Diagnostic> {
    match arg {
        "off" => Ok(Narrate::Off),
        "short" | "on" => Ok(Narrate::Short),
        "full" => Ok(Narrate::Full),
        _ => Err(
            Diagnostic::error("bad-argument", format!("no narration `{arg}`"), span)
                .with_label("expected off, short or full"),
        ),
    }
}

/// The text of `:help`, or of `:help COMMAND`.
pub fn help(topic: Option<&str>, span: Span) -> Result<Vec<String>, Diagnostic> {
    if let Some(t) = topic {
        let cmd = find(t).ok_or_else(|| unknown(t, span))?;
        let mut out = vec![format!(":{} {}  {}", cmd.name, cmd.args, cmd.help)];
        if !cmd.aliases.is_empty() {
            out.push(format!("  also: :{}", cmd.aliases.join(", :")));
        }
        return Ok(out);
    }
    let mut out = vec!["commands (every scenario statement can be typed too):".to_string()];
    let heads: Vec<String> = COMMANDS
        .iter()
        .map(|c| format!(":{} {}", c.name, c.args).trim_end().to_string())
        .collect();
    let width = heads.iter().map(|h| h.chars().count()).max().unwrap_or(0) + 2;
    for (c, head) in COMMANDS.iter().zip(&heads) {
        out.push(format!("  {head:<width$}{}", c.help));
    }
    out.push("  a line with an open ( or [ continues on the next line".into());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_columns_line_up() {
        let lines = help(None, Span::new(0, 0)).unwrap();
        let starts: std::collections::BTreeSet<usize> = COMMANDS
            .iter()
            .zip(&lines[1..])
            .map(|(c, l)| l.find(c.help).unwrap())
            .collect();
        assert_eq!(starts.len(), 1, "{lines:#?}");
    }

    #[test]
    fn limit_and_reset_parse() {
        assert_eq!(parse(":limit 300"), Ok(Command::Limit(Some(300))));
        assert_eq!(parse(":limit"), Ok(Command::Limit(None)));
        assert!(parse(":limit lots").is_err());
        assert_eq!(parse(":reset"), Ok(Command::Reset));
        assert!(parse(":reset now").is_err());
    }

    #[test]
    fn aliases_and_arguments() {
        assert_eq!(parse(":n 3"), Ok(Command::Next(3)));
        assert_eq!(parse(":back"), Ok(Command::Back(1)));
        assert_eq!(
            parse(":goto \"turn 1\""),
            Ok(Command::Goto("turn 1".into()))
        );
        assert_eq!(
            parse(":why K1 p"),
            Ok(Command::Statement(" why K1 p".into()))
        );
        assert_eq!(parse(":w 2"), Ok(Command::Statement(" worlds 2".into())));
        assert_eq!(parse(":narrate full"), Ok(Command::Narrate(Narrate::Full)));
    }

    #[test]
    fn bad_commands_are_located() {
        let e = parse(":nxet").unwrap_err();
        assert_eq!((e.code, e.span), ("unknown-command", Span::new(0, 5)));
        assert!(e.help.unwrap().contains(":next"));
        let e = parse(":next x").unwrap_err();
        assert_eq!((e.code, e.span), ("bad-argument", Span::new(6, 7)));
        assert_eq!(parse(":goto").unwrap_err().code, "missing-argument");
        assert_eq!(parse(":list 3").unwrap_err().code, "unexpected-argument");
    }
}
