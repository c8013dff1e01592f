//! A hand-written parser for the statements long scenarios are made of.
//!
//! A scenario of thousands of lines (a benchmark's candidate announcements,
//! a generated game) is mostly queries, expectations and announcements with
//! the common operators. This parser reads exactly those, without the
//! grammar's general machinery (no parse tree is built and walked again):
//!
//! - statements `? φ`, `?? φ`, `expect φ`, `why φ`, `let NAME = φ`,
//!   `announce φ`, and a game's move with plain arguments (`play Bruno
//!   T21`, `place 1 1.2`, `newtable`);
//! - formulas of `!`, `~`, `not`, `K`, `M`, `B`, `Kw` with a player written
//!   as digits or after `_`, `E`, `C`, `D` with or without `{...}`, `[!ψ]`,
//!   `&`, `and`, `|`, `or`, `->`, `<->`, parentheses, `true`, `false`,
//!   `1_QQ` and atoms `p`, `hand1(Q)`.
//!
//! On anything else (another statement, a count, a term, a quantifier, a
//! move in brackets, a character outside ASCII, an error) it gives up with
//! `None`, and the grammar parses the statement and gives its errors. Where
//! it answers, its statement is the one the grammar's builder makes, spans
//! included: `tests/it/parser_fast.rs` compares the two on every scenario of the
//! project and on random statements.

use super::formula::joined;
use super::{Ctx, MAX_DEPTH};
use crate::diag::Span;
use crate::syntax::ast::{
    Expectation, Formula, FormulaKind, Group, Move, MoveKind, Name, Statement, StatementKind,
};

/// Parses the statement of `ctx`, or gives up.
pub(crate) fn statement(ctx: &Ctx) -> Option<Statement> {
    let text = ctx.piece.text;
    // (The cleaned text has no carriage return: the splitter blanks them.)
    if !text.is_ascii() || text.as_bytes().contains(&b'\n') {
        return None;
    }
    let mut p = Reader {
        ctx,
        b: text.as_bytes(),
        i: 0,
        operands: Vec::new(),
    };
    p.blanks();
    let start = p.i;
    let kind = if p.eat("??") {
        StatementKind::Valid(p.formula(0)?)
    } else if p.eat("?") {
        StatementKind::Query(p.formula(0)?)
    } else {
        let (from, to) = p.word()?;
        p.blanks();
        match &text[from..to] {
            "expect" => {
                if let Some((a, b)) = p.peek_word() {
                    if matches!(&text[a..b], "considers" | "worlds" | "all" | "score") {
                        return None;
                    }
                }
                StatementKind::Expect(Expectation::Holds(p.formula(0)?))
            }
            "why" => StatementKind::Why(p.formula(0)?),
            "announce" => {
                let f = p.formula(0)?;
                let span = ctx.at(start, f.span.end - ctx.piece.start);
                StatementKind::Move(Move {
                    kind: MoveKind::Announce(f),
                    span,
                })
            }
            "let" => {
                let (a, b) = p.word()?;
                let name = &text[a..b];
                let first = name.as_bytes()[0];
                if first.is_ascii_digit()
                    || b"KMBECD".contains(&first)
                    || matches!(name, "and" | "or" | "not" | "true" | "false")
                {
                    return None;
                }
                let name = p.name(a, b);
                p.blanks();
                if !p.eat("=") {
                    return None;
                }
                StatementKind::Let(name, p.formula(0)?)
            }
            w if is_move_word(w) => p.game_move(from, to)?,
            _ => return None,
        }
    };
    p.blanks();
    if p.i != p.b.len() {
        return None;
    }
    let end = text.trim_end_matches([' ', '\t']).len();
    Some(Statement {
        kind,
        span: ctx.at(start, end),
    })
}

/// The words of the language: a statement or a move the language defines
/// starts with one of them, and no game's move does (the grammar's
/// `builtin`).
pub const BUILTIN: &[&str] = &[
    "game",
    "players",
    "deck",
    "pile",
    "deal",
    "stock",
    "seed",
    "turn",
    "order",
    "uncounted",
    "prop",
    "let",
    "expect",
    "question",
    "why",
    "worlds",
    "stats",
    "checkpoint",
    "model",
    "event",
    "export",
    "var",
    "law",
    "actual",
    "announce",
    "move",
    "send",
    "draw",
    "show",
    "reveal",
    "peek",
    "ask",
    "apply",
];

/// Whether `w` can be a game's move word (the grammar's `move_word` that is
/// no `builtin`).
fn is_move_word(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && !BUILTIN.contains(&w)
}

/// The place in the statement's text.
struct Reader<'c, 'a> {
    /// The statement.
    ctx: &'c Ctx<'a>,
    /// Its text.
    b: &'c [u8],
    /// The next byte.
    i: usize,
    /// The operands of the chains being read, after each chain's first
    /// (boxed: each box is the one the tree keeps).
    #[allow(clippy::vec_box)]
    operands: Vec<Box<Formula>>,
}

/// A prefix operator read, with its start (an offset into the text).
enum Prefix {
    /// `!`, `~`, `not`
    Not,
    /// `K1`, `M_Bill`, `B2`, `Kw_Anne`
    Modal(&'static str, Name),
    /// `E`, `C{1,2}`, `D`
    Group(u8, Group),
    /// `[!ψ]`
    Announce(Formula),
}

/// The characters of names (the grammar's `idc`, in ASCII).
fn idc(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl Reader<'_, '_> {
    /// Skips spaces and tabs (the grammar's implicit whitespace).
    fn blanks(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// Consumes `s` if the text goes on with it.
    fn eat(&mut self, s: &str) -> bool {
        if self.b[self.i..].starts_with(s.as_bytes()) {
            self.i += s.len();
            self.blanks();
            true
        } else {
            false
        }
    }

    /// The name characters from here, without consuming them.
    fn peek_word(&self) -> Option<(usize, usize)> {
        let mut j = self.i;
        while j < self.b.len() && idc(self.b[j]) {
            j += 1;
        }
        (j > self.i).then_some((self.i, j))
    }

    /// Consumes the name characters from here (at least one).
    fn word(&mut self) -> Option<(usize, usize)> {
        let w = self.peek_word()?;
        self.i = w.1;
        Some(w)
    }

    /// A game's move `WORD ARG*` whose word was read (from `from` to `to`),
    /// with plain arguments (`Bruno`, `6H`, `1.2`); `None` on anything else.
    fn game_move(&mut self, from: usize, to: usize) -> Option<StatementKind> {
        let word = self.name(from, to);
        let mut args = Vec::new();
        let mut end = to;
        loop {
            self.blanks();
            if self.i == self.b.len() {
                break;
            }
            let (a, mut b) = self.word()?;
            if self.b.get(b) == Some(&b'.') {
                self.i = b + 1;
                b = self.word()?.1;
            }
            if !matches!(self.b.get(b), None | Some(b' ' | b'\t')) {
                return None;
            }
            if args.is_empty() && &self.ctx.piece.text[a..b] == "observes" {
                return None;
            }
            args.push(self.name(a, b));
            end = b;
        }
        Some(StatementKind::Move(Move {
            kind: MoveKind::Game { word, args },
            span: self.ctx.at(from, end),
        }))
    }

    /// The text from `a` to `b` as a name of the original source.
    fn name(&self, a: usize, b: usize) -> Name {
        Name {
            text: self.ctx.piece.text[a..b].into(),
            span: self.ctx.at(a, b),
        }
    }

    /// A whole formula (the grammar's `iff`).
    fn formula(&mut self, depth: usize) -> Option<Formula> {
        self.chain(depth, FormulaKind::Iff, |r| r.eat("<->"), Self::implies)
    }

    /// A chain of one associative operator, grouped as the builder does.
    /// The operands after the first wait on the statement's one stack of
    /// boxes (each box the one the tree keeps), not in a vector of their own.
    fn chain(
        &mut self,
        depth: usize,
        make: fn(Box<Formula>, Box<Formula>) -> FormulaKind,
        op: impl Fn(&mut Self) -> bool,
        operand: impl Fn(&mut Self, usize) -> Option<Formula>,
    ) -> Option<Formula> {
        if depth > MAX_DEPTH {
            return None;
        }
        let first = operand(self, depth)?;
        if !op(self) {
            return Some(first);
        }
        // Operands of inner chains come and go above `base`. On giving up,
        // the stack is left as it is: the whole statement is given up.
        let base = self.operands.len();
        loop {
            let next = operand(self, depth)?;
            self.operands.push(Box::new(next));
            if !op(self) {
                break;
            }
        }
        let len = self.operands.len() - base + 1;
        Some(joined(first, &mut self.operands.drain(base..), len, make))
    }

    /// `a -> b -> c`, from the right; each operand one level deeper.
    fn implies(&mut self, depth: usize) -> Option<Formula> {
        if depth + 1 > MAX_DEPTH {
            return None;
        }
        let first = self.disj(depth + 1)?;
        if !self.eat("->") {
            return Some(first);
        }
        let mut operands = vec![first, self.disj(depth + 1)?];
        while self.eat("->") {
            operands.push(self.disj(depth + 1)?);
        }
        if depth + operands.len() - 1 > MAX_DEPTH {
            return None;
        }
        let mut acc = operands.pop()?;
        while let Some(left) = operands.pop() {
            let span = left.span.to(acc.span);
            acc = Formula {
                kind: FormulaKind::Implies(Box::new(left), Box::new(acc)),
                span,
            };
        }
        Some(acc)
    }

    /// `a | b`, `a or b`.
    fn disj(&mut self, depth: usize) -> Option<Formula> {
        self.chain(depth, FormulaKind::Or, |r| r.op(b'|', "or"), Self::conj)
    }

    /// `a & b`, `a and b`.
    fn conj(&mut self, depth: usize) -> Option<Formula> {
        self.chain(depth, FormulaKind::And, |r| r.op(b'&', "and"), Self::unary)
    }

    /// A binary operator written as a sign or a word.
    fn op(&mut self, sign: u8, word: &str) -> bool {
        if self.b.get(self.i) == Some(&sign) {
            self.i += 1;
            self.blanks();
            return true;
        }
        match self.peek_word() {
            Some((a, b)) if &self.b[a..b] == word.as_bytes() => {
                self.i = b;
                self.blanks();
                true
            }
            _ => false,
        }
    }

    /// Prefix operators, then a primary formula: one prefix, then the
    /// rest one level deeper.
    fn unary(&mut self, depth: usize) -> Option<Formula> {
        if depth > MAX_DEPTH {
            return None;
        }
        let Some((start, op)) = self.prefix(depth)? else {
            return self.primary(depth);
        };
        let body = Box::new(self.unary(depth + 1)?);
        // Every prefix ends where the primary formula ends.
        let end = body.span.end;
        let kind = match op {
            Prefix::Not => FormulaKind::Not(body),
            Prefix::Modal("Kw", agent) => FormulaKind::Kw(agent, body),
            Prefix::Modal("M", agent) => FormulaKind::M(agent, body),
            Prefix::Modal("B", agent) => FormulaKind::B(agent, body),
            Prefix::Modal(_, agent) => FormulaKind::K(agent, body),
            Prefix::Group(b'E', g) => FormulaKind::E(g, body),
            Prefix::Group(b'C', g) => FormulaKind::C(g, body),
            Prefix::Group(_, g) => FormulaKind::D(g, body),
            Prefix::Announce(what) => FormulaKind::Announce(Box::new(what), body),
        };
        Some(Formula {
            kind,
            span: Span::new(self.ctx.piece.start + start, end),
        })
    }

    /// A prefix operator, `Some(None)` when the primary formula comes, or
    /// `None` to give up. `depth` is the operator's own depth (an
    /// announcement's formula is one deeper).
    fn prefix(&mut self, depth: usize) -> Option<Option<(usize, Prefix)>> {
        let start = self.i;
        let op = match self.b.get(self.i)? {
            b'!' | b'~' => {
                self.i += 1;
                self.blanks();
                Prefix::Not
            }
            b'[' => {
                self.i += 1;
                self.blanks();
                if !self.eat("!") {
                    return None;
                }
                let what = self.formula(depth + 1)?;
                if !self.eat("]") {
                    return None;
                }
                Prefix::Announce(what)
            }
            b'<' | b'#' => return None,
            c if idc(*c) => {
                let (a, b) = self.peek_word()?;
                let text = &self.ctx.piece.text[a..b];
                let first = self.b[a];
                if text == "not" {
                    self.i = b;
                    self.blanks();
                    Prefix::Not
                } else if matches!(text, "all" | "any" | "and" | "or") {
                    return None;
                } else if b"KMB".contains(&first) {
                    let op = self.modal(a, b)?;
                    self.i = b;
                    self.blanks();
                    op
                } else if b"ECD".contains(&first) && b == a + 1 {
                    self.i = b;
                    let g = if self.b.get(self.i) == Some(&b'{') {
                        Group::Listed(self.players()?)
                    } else {
                        Group::All
                    };
                    self.blanks();
                    Prefix::Group(first, g)
                } else {
                    return Some(None);
                }
            }
            _ => return Some(None),
        };
        Some(Some((start, op)))
    }

    /// `K1`, `M_Bill`, `Kw2`: the operator of the word from `a` to `b`,
    /// or `None` for a word that is not one (`Kv1`, `Bill`, `K`).
    fn modal(&self, a: usize, b: usize) -> Option<Prefix> {
        let text = &self.ctx.piece.text[a..b];
        let letter: &'static str = if text.starts_with("Kv") {
            return None;
        } else if text.starts_with("Kw") {
            "Kw"
        } else {
            match text.as_bytes()[0] {
                b'K' => "K",
                b'M' => "M",
                _ => "B",
            }
        };
        let rest = &text[letter.len()..];
        let from = a + letter.len();
        if !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()) {
            Some(Prefix::Modal(letter, self.name(from, b)))
        } else if rest.len() > 1 && rest.starts_with('_') {
            Some(Prefix::Modal(letter, self.name(from + 1, b)))
        } else {
            None
        }
    }

    /// `{1,2}`, `{Anne Bill}`: the players of a group.
    fn players(&mut self) -> Option<Vec<Name>> {
        self.i += 1;
        self.blanks();
        let mut players = Vec::new();
        loop {
            let (a, b) = self.word()?;
            players.push(self.name(a, b));
            self.blanks();
            if self.b.get(self.i) == Some(&b'}') {
                self.i += 1;
                return Some(players);
            }
            if self.b.get(self.i) == Some(&b',') {
                self.i += 1;
                self.blanks();
            }
        }
    }

    /// A primary formula, which nothing but an operator, a closing bracket
    /// or the end may follow (else the grammar would read a count or a
    /// term, or report an error).
    fn primary(&mut self, depth: usize) -> Option<Formula> {
        let start = self.i;
        let kind = if self.b.get(self.i) == Some(&b'(') {
            self.i += 1;
            self.blanks();
            let inner = self.formula(depth + 1)?;
            if self.b.get(self.i) != Some(&b')') {
                return None;
            }
            self.i += 1;
            inner.kind
        } else {
            let (a, b) = self.word()?;
            let text = &self.ctx.piece.text[a..b];
            let bytes = text.as_bytes();
            match text {
                "true" => FormulaKind::True,
                "false" => FormulaKind::False,
                _ if bytes[0].is_ascii_digit() => {
                    let digits = bytes.iter().take_while(|c| c.is_ascii_digit()).count();
                    let cards = &bytes[digits..];
                    if cards.len() < 2
                        || cards[0] != b'_'
                        || !cards[1..].iter().all(u8::is_ascii_alphanumeric)
                    {
                        return None;
                    }
                    FormulaKind::HoldsSeq {
                        player: self.name(a, a + digits),
                        cards: Box::new(self.name(a + digits + 1, b)),
                    }
                }
                _ => {
                    let name = self.name(a, b);
                    let card = match self.b.get(self.i) {
                        Some(b'(') => Some(self.card()?),
                        Some(b'[' | b'.') => return None,
                        Some(b'<') if !self.b[self.i..].starts_with(b"<->") => return None,
                        _ => None,
                    };
                    FormulaKind::Named {
                        name,
                        card: card.map(Box::new),
                        count: None,
                    }
                }
            }
        };
        let end = self.i;
        self.blanks();
        let next_is_fine = match self.b.get(self.i) {
            None | Some(b'&' | b'|' | b')' | b']') => true,
            Some(b'-') => self.b.get(self.i + 1) == Some(&b'>'),
            Some(b'<') => self.b[self.i..].starts_with(b"<->"),
            Some(c) => idc(*c),
        };
        next_is_fine.then(|| Formula {
            kind,
            span: self.ctx.at(start, end),
        })
    }

    /// `(Q)`, `( 6S )`: the card of an atom.
    fn card(&mut self) -> Option<Name> {
        self.i += 1;
        self.blanks();
        let a = self.i;
        while self.i < self.b.len()
            && (self.b[self.i].is_ascii_alphanumeric() || self.b[self.i] == b'*')
        {
            self.i += 1;
        }
        let b = self.i;
        self.blanks();
        if a == b || self.b.get(self.i) != Some(&b')') {
            return None;
        }
        self.i += 1;
        Some(self.name(a, b))
    }
}
