//! Completion, hints and highlighting for the REPL, computed from the
//! backend's state (no terminal here): commands, statement keywords,
//! players, cards, piles, checkpoints and `let` names.

use crate::diag::Paint;

use crate::cards::game::declaration_words;
use crate::cards::{game_names, GAMES};
use crate::syntax::ast::StatementKind;
use crate::syntax::statement_words;

use super::command::{self, COMMANDS};
use super::Repl;

/// The words besides statement keywords ([`statement_words`], and every
/// game's move and declaration words: [`move_words`]) and game names ([`game_names`])
/// that completion offers: formula words and pile visibilities.
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

/// The keywords of the games' own moves (a move's first word).
const GAME_MOVES: &[&str] = &[
    "ask", "draw", "peek", "glimpse", "place", "discard", "play", "pick", "pass", "call",
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
        let mut words: Vec<String> = statement_words()
            .into_iter()
            .chain(move_words())
            .chain(KEYWORDS.iter().copied())
            .chain(game_names())
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

    /// The next words of the moves the rules allow now, after `before`
    /// (the words of a move so far, its keyword first); `None` when
    /// `before` does not start a move of the game being played.
    fn move_words(&self, before: &str) -> Option<Vec<String>> {
        let done: Vec<&str> = before.split_whitespace().collect();
        let play = self.session().playing()?;
        let referee = play.game.referee()?;
        let keyword = *done.first()?;
        let legal: Vec<Vec<String>> = referee
            .legal_moves(&play.position())
            .iter()
            .map(|mv| {
                referee
                    .move_text(&play.table, mv)
                    .split_whitespace()
                    .map(str::to_string)
                    .collect()
            })
            .collect();
        let allowed_now = legal
            .iter()
            .any(|m| m.first().is_some_and(|k| k == keyword));
        if !allowed_now && !GAME_MOVES.contains(&keyword) {
            return None;
        }
        let next: Vec<String> = legal
            .iter()
            .filter(|m| m.len() > done.len() && m.iter().zip(&done).all(|(a, b)| a == b))
            .map(|m| m[done.len()].clone())
            .collect();
        if next.is_empty() {
            return self.move_shape(&done);
        }
        Some(next)
    }

    /// Without an allowed move that starts this way (another player's
    /// turn, say), the shape of an ask: players, then a player, then kinds;
    /// for another move keyword of the game, nothing is offered.
    fn move_shape(&self, done: &[&str]) -> Option<Vec<String>> {
        let play = self.session().playing()?;
        if done.first() != Some(&"ask") {
            return Some(Vec::new());
        }
        let players = play.table.players.iter().cloned();
        Some(match done.len() {
            1 => players.collect(),
            2 => players.filter(|p| p != done[1]).collect(),
            3 => play
                .table
                .deck
                .kinds
                .iter()
                .map(|k| k.name.clone())
                .collect(),
            _ => Vec::new(),
        })
    }

    /// A knowledge operator completed with the players' names: `K` offers
    /// `K1 K2 K3` (`K_Anne` for a name that is not a number).
    fn operators(&self, word: &str) -> Option<Vec<String>> {
        let play = self.session().playing()?;
        let op = ["Kw", "Kv", "K", "M", "B"]
            .into_iter()
            .find(|op| word.starts_with(op))?;
        let rest = word[op.len()..].trim_start_matches('_');
        let found: Vec<String> = play
            .table
            .players
            .iter()
            .filter(|p| p.starts_with(rest))
            .map(|p| {
                if p.chars().all(|c| c.is_ascii_digit()) {
                    format!("{op}{p}")
                } else {
                    format!("{op}_{p}")
                }
            })
            .collect();
        (!found.is_empty()).then_some(found)
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
    ///
    /// What comes before the word narrows them: after `:load ` or
    /// `:export ` file names; after a move's keyword the next word of the
    /// moves the game's rules allow now (`ask 1 ` offers the players 1 may
    /// ask, `ask 1 2 ` the kinds 1 may ask for); a word that starts a
    /// knowledge operator (`K`, `Kw`, `Kv`, `M`, `B`) also offers it with
    /// each player.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let pos = pos.min(line.len());
        if let Some((stem, files)) = file_argument(&line[..pos]) {
            return (pos - stem, files);
        }
        let start = word_start(line, pos);
        let word = &line[start..pos];
        let pool = if word.starts_with(':') && line[..start].trim().is_empty() {
            command::all_names()
        } else if let Some(next) = self.move_words(&line[..start]) {
            next
        } else {
            // A knowledge operator with each player, besides the usual
            // words (`K` may also be a card).
            let mut words = self.words(line);
            words.extend(self.operators(word).unwrap_or_default());
            words
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
/// `false` red, comments dimmed (always in colour: the front end calls it
/// only when it colours).
pub fn highlight(line: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '#' && chars.peek().is_none_or(|n| *n == ' ' || *n == '\t') {
            out.push_str(&paint(&word));
            word.clear();
            let rest: String = std::iter::once(c).chain(chars.by_ref()).collect();
            out.push_str(&COLOR.dim(rest));
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

/// The highlighter's colours.
const COLOR: Paint = Paint::new(true);

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
        return COLOR.magenta_bold(word);
    }
    match word {
        "true" => COLOR.green(word),
        "false" => COLOR.red(word),
        w if w.starts_with(':')
            || KEYWORDS.contains(&w)
            || statement_words().contains(&w)
            || move_words().any(|m| m == w)
            || game_names().contains(&w) =>
        {
            COLOR.bold(w)
        }
        w => w.to_string(),
    }
}

/// File names for the argument of `:load` and `:export` (and their
/// aliases), for the line up to the cursor: the entries of the folder
/// typed so far whose names start with the part after the last `/`,
/// folders with a `/` after them. Returns that part's length and the
/// names; `None` when the cursor is not in such an argument.
fn file_argument(line: &str) -> Option<(usize, Vec<String>)> {
    let line = line.trim_start();
    let (cmd, arg) = line.split_once(char::is_whitespace)?;
    let arg = arg.trim_start();
    let cmd = command::find(cmd.strip_prefix(':')?)?;
    if !["load", "export"].contains(&cmd.name) || arg.contains(char::is_whitespace) {
        return None;
    }
    let path = arg.trim_start_matches('"');
    let (dir, stem) = match path.rfind('/') {
        Some(i) => (&path[..=i], &path[i + 1..]),
        None => ("", path),
    };
    let folder = if dir.is_empty() { "." } else { dir };
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                    (name.starts_with(stem) && !name.starts_with('.')).then(|| {
                        if is_dir {
                            format!("{name}/")
                        } else {
                            name
                        }
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    Some((stem.len(), names))
}

/// The move and declaration words of every game (`pick`, `call`,
/// `place`, `psychic`), which a statement may start with once the game is
/// declared.
fn move_words() -> impl Iterator<Item = &'static str> {
    GAMES
        .iter()
        .flat_map(|g| g.move_forms().iter().map(|f| f.word))
        .chain(declaration_words())
}
