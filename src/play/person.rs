//! A person at the table: the commands a person types, the screen they
//! see, their moves checked against the rules, and completion. The front
//! end reads lines and prints the [`Reply`]s; nothing here prints or
//! touches a terminal.

use crate::cards::LocKind;
use crate::diag::{Diagnostic, Span};
use crate::engine::Agent as Player;

use super::game_loop::{Match, Played};
use super::views;

/// What the desk answers to one input.
#[derive(Debug)]
pub enum Reply {
    /// Lines of text.
    Lines(Vec<String>),
    /// A move was played (the person's, then the agents' until the
    /// person's next turn or the end).
    Moved(Played),
    /// The input was refused; nothing changed. The diagnostic's spans
    /// point into `source`.
    Refused {
        /// What went wrong (the rule quoted).
        diagnostic: Diagnostic,
        /// The input it is about.
        source: String,
    },
    /// The game was written to a file.
    Saved(String),
    /// The person leaves.
    Quit,
}

/// The commands, with what each does (for `help` and completion).
pub const COMMANDS: &[(&str, &str)] = &[
    ("help", "this list"),
    ("look", "the table: your hand, the books and piles, the score, whose turn"),
    ("moves", "your legal moves (Tab completes them)"),
    ("know", "what you know about the others, decided by the engine (`know formulas` shows the formulas)"),
    ("known", "what the others know about you (`known formulas` shows the formulas)"),
    ("history", "every move so far"),
    ("save FILE", "write the game so far as a scenario (`dealer run FILE` replays it)"),
    ("quit", "leave the game"),
];

/// A person's seat at a match.
pub struct Desk {
    game: Match,
    me: Player,
}

impl Desk {
    /// The desk of player `me` at `game`.
    pub fn new(game: Match, me: Player) -> Desk {
        Desk { game, me }
    }

    /// The match.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The person's player.
    pub fn me(&self) -> Player {
        self.me
    }

    /// Whether it is the person's turn.
    pub fn my_turn(&self) -> bool {
        self.game.current_player() == Some(self.me)
    }

    /// Plays the agents' moves until it is the person's turn or the game
    /// is over; each played move in order.
    pub fn advance(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        while !self.my_turn() {
            match self.game.agent_move() {
                None => break,
                Some(Ok(played)) => replies.push(Reply::Moved(played.clone())),
                Some(Err(d)) => {
                    replies.push(Reply::Refused {
                        diagnostic: d,
                        source: String::new(),
                    });
                    break;
                }
            }
        }
        replies
    }

    /// Handles one input: a command or a move.
    pub fn eval(&mut self, input: &str) -> Vec<Reply> {
        let line = input.trim();
        let mut words = line.split_whitespace();
        let (word, rest) = (words.next().unwrap_or(""), words.collect::<Vec<_>>());
        let formulas = rest.first() == Some(&"formulas");
        match word {
            "" => vec![],
            "help" | "?" => vec![Reply::Lines(help())],
            "look" => vec![Reply::Lines(self.screen())],
            "moves" => vec![Reply::Lines(self.moves())],
            "history" => vec![Reply::Lines(self.history())],
            "know" => vec![self.view(views::first_order, formulas, "you know")],
            "known" => vec![self.view(views::second_order, formulas, "the others know")],
            "quit" | "exit" => vec![Reply::Quit],
            "save" => vec![self.save(&rest.join(" "))],
            _ => {
                let mut replies = vec![self.person_move(line)];
                if matches!(replies[0], Reply::Moved(_)) {
                    replies.extend(self.advance());
                }
                replies
            }
        }
    }

    /// A move typed by the person: played when it is one of the legal
    /// moves; otherwise refused with the rule that forbids it.
    fn person_move(&mut self, line: &str) -> Reply {
        let text = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if self.game.is_over() {
            return refused(
                "game-over",
                "the game is over",
                &text,
                "type `save FILE` or `quit`",
            );
        }
        let legal = self.game.legal_moves();
        if self.my_turn() {
            if let Some(l) = legal.iter().find(|l| l.text == text) {
                return match self.game.play_legal(l) {
                    Ok(played) => Reply::Moved(played.clone()),
                    Err(diagnostic) => Reply::Refused {
                        diagnostic,
                        source: text,
                    },
                };
            }
        }
        let help = format!("your moves now: {}", offered(&legal, self.my_turn()));
        match self.game.try_move(&text) {
            Err(diagnostic) => {
                let help = match &diagnostic.help {
                    Some(h) => format!("{h}\n          {help}"),
                    None => help,
                };
                Reply::Refused {
                    diagnostic: diagnostic.with_help(help),
                    source: text,
                }
            }
            Ok(()) => refused(
                "not-your-move",
                "the rules allow this move, but it is not one of yours to make now",
                &text,
                &help,
            ),
        }
    }

    /// `know` and `known`: the facts the engine says hold.
    fn view(
        &self,
        facts: fn(crate::cards::Game, &crate::cards::Position, Player) -> Vec<views::Fact>,
        formulas: bool,
        title: &str,
    ) -> Reply {
        let all = facts(self.game.rules(), &self.game.position(), self.me);
        match views::holding(&self.game, all) {
            Ok(kept) => {
                let mut lines = vec![format!("{title} (each line decided by the engine):")];
                lines.extend(
                    views::render(&kept, formulas)
                        .into_iter()
                        .map(|l| format!("  {l}")),
                );
                Reply::Lines(lines)
            }
            Err(diagnostic) => Reply::Refused {
                diagnostic,
                source: String::new(),
            },
        }
    }

    fn save(&self, path: &str) -> Reply {
        if path.is_empty() {
            return refused(
                "save-needs-file",
                "save where?",
                "save",
                "type `save FILE`, e.g. `save game.deal`",
            );
        }
        match std::fs::write(path, self.game.scenario()) {
            Ok(()) => Reply::Saved(path.to_string()),
            Err(e) => refused(
                "save-failed",
                &format!("cannot write {path}: {e}"),
                path,
                "choose a file in a directory you can write",
            ),
        }
    }

    /// The screen: whose turn, the hand, every location as the person sees
    /// it, the score and the last moves.
    pub fn screen(&self) -> Vec<String> {
        let g = &self.game;
        let play = g.playing();
        let table = &play.table;
        let pos = g.position();
        let mut lines = Vec::new();
        let turn = match g.current_player() {
            None => "the game is over".to_string(),
            Some(p) if p == self.me => format!(
                "turn {}: your move (player {})",
                g.history().len() + 1,
                g.player_name(p)
            ),
            Some(p) => format!(
                "turn {}: player {} to move",
                g.history().len() + 1,
                g.player_name(p)
            ),
        };
        lines.push(format!("── {} ── {turn}", g.game()));
        for (loc, l) in table.locations.iter().enumerate() {
            let cards = pos.cards(loc);
            let n: u32 = cards.iter().sum();
            let shown = table.deck.show_cards(&cards);
            let line = match l.kind {
                LocKind::Hand(p) if p == self.me => format!("your hand     {shown}"),
                LocKind::Hand(p) => format!("player {:<6} {n} card(s)", table.players[p]),
                LocKind::Books(_) if n == 0 => continue,
                _ if l.seen_by.contains(&self.me) => format!("{:<13} {shown}", l.name),
                _ => format!("{:<13} {n} card(s), face down", l.name),
            };
            lines.push(line);
        }
        // The score is shown at the end only: in some games it depends on
        // hidden cards (Cabo's sums) or hidden teams (Königrufen).
        if g.is_over() {
            lines.push(format!("score         {}", g.score_line()));
        }
        let recent: Vec<String> = g
            .history()
            .iter()
            .rev()
            .take(4)
            .rev()
            .map(|p| p.text.clone())
            .collect();
        if !recent.is_empty() {
            lines.push(format!("last moves    {}", recent.join("; ")));
        }
        lines
    }

    fn moves(&self) -> Vec<String> {
        if self.game.is_over() {
            return vec!["no moves: the game is over".into()];
        }
        let legal = self.game.legal_moves();
        vec![format!("your moves: {}", offered(&legal, self.my_turn()))]
    }

    fn history(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (i, p) in self.game.history().iter().enumerate() {
            lines.push(format!("{:>4}  {}", i + 1, p.text));
            for note in &p.notes {
                lines.push(format!("        {note}"));
            }
        }
        if lines.is_empty() {
            lines.push("no move yet".into());
        }
        lines
    }

    /// Completion: the legal moves and the commands that start with the
    /// line up to the cursor; candidates replace the whole line.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let typed = line.get(..pos).unwrap_or(line).trim_start();
        let mut candidates: Vec<String> = Vec::new();
        if self.my_turn() {
            candidates.extend(self.game.legal_moves().into_iter().map(|l| l.text));
        }
        candidates.extend(
            COMMANDS
                .iter()
                .map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string()),
        );
        candidates.retain(|c| c.starts_with(typed));
        (line.len() - line.trim_start().len(), candidates)
    }

    /// The prompt: the player and the turn.
    pub fn prompt(&self) -> String {
        format!("player {}> ", self.game.player_name(self.me))
    }
}

/// The legal moves as a list, or why there are none for the person.
fn offered(legal: &[super::agent::Legal], mine: bool) -> String {
    if !mine {
        return "none (it is not your turn)".into();
    }
    legal
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn help() -> Vec<String> {
    let mut lines = vec!["type a move (Tab completes the legal ones) or a command:".to_string()];
    for (c, what) in COMMANDS {
        lines.push(format!("  {c:<12} {what}"));
    }
    lines
}

fn refused(code: &'static str, message: &str, source: &str, help: &str) -> Reply {
    Reply::Refused {
        diagnostic: Diagnostic::error(code, message.to_string(), Span::new(0, source.len()))
            .with_help(help.to_string()),
        source: source.to_string(),
    }
}
