//! Completion, hints and highlighting for the REPL, computed from the
//! backend's state (no terminal here): commands, statement keywords,
//! players, cards, piles, checkpoints and `let` names.

use colored::Colorize;

use crate::cards::game_names;
use crate::syntax::ast::StatementKind;
use crate::syntax::STATEMENT_KEYWORDS;

use super::command::{self, COMMANDS};
use super::Repl;

/// The words besides statement keywords ([`STATEMENT_KEYWORDS`]) and game
/// names ([`game_names`]) that completion offers: formula words and pile
/// visibilities.
pub const KEYWORDS: &[&str] = &[
    "considers",
    "true",
    "false",
    "not",
    "and",
    "or",
    "public",
    "hidden",
    "seen-by",
    "from",
    "for",
    "only",
    "all",
];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | ':' | '"' | '-' | '.' | '?')
}

/// Where the word before `pos` starts.
pub fn word_start(line: &str, pos: usize) -> usize {
    line[..pos]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()
        .map_or(pos, |(i, _)| i)
}

impl Repl {
    /// Every word completion may offer here: names of the current table and file.
    fn words(&self, line: &str) -> Vec<String> {
        if line.trim_start().starts_with(":goto") || line.trim_start().starts_with(":g ") {
            return self.checkpoints();
        }
        let mut words: Vec<String> = STATEMENT_KEYWORDS
            .iter()
            .chain(KEYWORDS)
            .chain(&game_names())
            .map(|s| s.to_string())
            .collect();
        if let Some(play) = self.session().playing() {
            words.extend(play.game.words().iter().map(|w| w.to_string()));
            words.extend(play.table.players.iter().cloned());
            words.extend(play.table.deck.kinds.iter().map(|k| k.name.clone()));
            words.extend(play.table.locations.iter().map(|l| l.name.clone()));
            words.extend(
                (0..play.table.players.len()).map(|p| format!("hand{}", play.table.players[p])),
            );
            words.extend(play.props.iter().cloned());
        }
        words.extend(self.session().let_names());
        words
    }

    /// The checkpoints of the loaded file, quoted.
    fn checkpoints(&self) -> Vec<String> {
        let Some(s) = self.script() else {
            return Vec::new();
        };
        s.statements
            .iter()
            .filter_map(|st| match &st.kind {
                StatementKind::Checkpoint(n) => Some(format!("\"{}\"", n.text)),
                _ => None,
            })
            .collect()
    }

    /// Completions of the word before `pos`: where it starts, and the candidates.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let pos = pos.min(line.len());
        let start = word_start(line, pos);
        let word = &line[start..pos];
        let pool = if word.starts_with(':') && line[..start].trim().is_empty() {
            command::all_names()
        } else {
            self.words(line)
        };
        let lower = word.to_lowercase();
        let mut found: Vec<String> = pool
            .into_iter()
            .filter(|c| c.to_lowercase().starts_with(&lower))
            .collect();
        found.sort();
        found.dedup();
        (start, found)
    }

    /// A hint after the cursor: the rest of a command and its arguments.
    pub fn hint(&self, line: &str, pos: usize) -> Option<String> {
        if pos < line.len() || !line.starts_with(':') || line.contains(' ') {
            return None;
        }
        let word = &line[1..];
        let mut matches = COMMANDS.iter().filter(|c| c.name.starts_with(word));
        let cmd = matches.next()?;
        if matches.next().is_some() || word.is_empty() {
            return None;
        }
        let args = if cmd.args.is_empty() {
            String::new()
        } else {
            format!(" {}", cmd.args)
        };
        Some(format!("{}{args}  ({})", &cmd.name[word.len()..], cmd.help))
    }
}

/// Colours a line for the terminal (same width): commands and keywords
/// bold, knowledge operators with their player magenta, `true` green,
/// `false` red, comments dimmed.
pub fn highlight(line: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '#' && chars.peek().is_none_or(|n| *n == ' ' || *n == '\t') {
            out.push_str(&paint(&word));
            word.clear();
            let rest: String = std::iter::once(c).chain(chars.by_ref()).collect();
            out.push_str(&rest.dimmed().to_string());
            return out;
        }
        if is_word_char(c) && c != '?' {
            word.push(c);
            continue;
        }
        out.push_str(&paint(&word));
        word.clear();
        out.push(c);
    }
    out.push_str(&paint(&word));
    out
}

fn paint(word: &str) -> String {
    if word.is_empty() {
        return String::new();
    }
    let operator = ["Kw", "K", "M", "B"].iter().any(|op| {
        word.strip_prefix(op).is_some_and(|r| {
            !r.is_empty()
                && r.trim_start_matches('_')
                    .chars()
                    .all(|c| c.is_ascii_digit())
        })
    });
    if operator || matches!(word, "C" | "E" | "D") {
        return word.magenta().bold().to_string();
    }
    match word {
        "true" => word.green().to_string(),
        "false" => word.red().to_string(),
        w if w.starts_with(':')
            || KEYWORDS.contains(&w)
            || STATEMENT_KEYWORDS.contains(&w)
            || game_names().contains(&w) =>
        {
            w.bold().to_string()
        }
        w => w.to_string(),
    }
}
