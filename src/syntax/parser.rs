//! The pest parser (`grammar/dealer.pest`) and the public entry points.
//!
//! The source is first cut into statements by [`super::split`]; each
//! statement is parsed on its own, so one bad statement gives one error and
//! parsing goes on with the next. Grammar offsets are shifted by the
//! statement's start, so every span points into the original source.

mod build;
pub(crate) mod errors;
pub(crate) mod fast;
mod formula;

use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

use super::ast::{Formula, Name, Scenario, Span, Statement};
use super::split::{self, Piece};
use super::SyntaxError;

/// The generated pest parser: the scenario grammar, and the strategy files'
/// grammar, which reads guards and scores with the scenario's formulas.
#[derive(Parser)]
#[grammar = "grammar/dealer.pest"]
#[grammar = "grammar/strategy.pest"]
pub(crate) struct DealerParser;

/// How deeply formulas may nest before the parser gives up (no stack overflow).
pub const MAX_DEPTH: usize = 200;

/// The longest statement read, in bytes (a `\\`-continued statement counts
/// whole): a longer one is refused before the grammar reads it, so that
/// no line of garbage or generated formula can take the parser's time
/// and memory without bound. The longest shipped scenario's longest
/// statement is about 25,000 bytes.
pub const MAX_STATEMENT_BYTES: usize = 1 << 20;

/// From this many statements on, a scenario is parsed on every core.
const PARALLEL_FROM: usize = 256;

/// Parses a whole scenario; on failure, one error per bad statement.
pub fn parse(src: &str) -> Result<Scenario, Vec<SyntaxError>> {
    use rayon::prelude::*;
    let split = split::split(src);
    let pieces = split.pieces();
    // Statements are parsed independently: a long scenario is parsed on
    // every core, and the results are collected in order, so that they do
    // not depend on the number of threads.
    let parsed: Vec<Result<Statement, SyntaxError>> = if pieces.len() >= PARALLEL_FROM {
        pieces
            .par_iter()
            .with_min_len(PARALLEL_FROM / 4)
            .map(|piece| parse_piece(src, piece))
            .collect()
    } else {
        pieces.iter().map(|piece| parse_piece(src, piece)).collect()
    };
    scenario(parsed)
}

/// The statements in order, or every error.
fn scenario(
    parsed: impl IntoIterator<Item = Result<Statement, SyntaxError>>,
) -> Result<Scenario, Vec<SyntaxError>> {
    let mut statements = Vec::new();
    let mut errors = Vec::new();
    for result in parsed {
        match result {
            Ok(statement) => statements.push(statement),
            Err(error) => errors.push(error),
        }
    }
    if errors.is_empty() {
        Ok(Scenario { statements })
    } else {
        Err(errors)
    }
}

/// Parses the statements of one REPL input (`;` may join several).
pub fn parse_statement(src: &str) -> Result<Vec<Statement>, Vec<SyntaxError>> {
    parse(src).map(|scenario| scenario.statements)
}

/// Parses exactly one formula (an error if anything follows it).
pub fn parse_formula(src: &str) -> Result<Formula, SyntaxError> {
    let whole = split::whole(src);
    let piece = whole.first();
    let ctx = Ctx::new(src, &piece, true);
    ctx.check_depth()?;
    let mut pairs = DealerParser::parse(Rule::formula_entry, piece.text)
        .map_err(|e| errors::from_pest(&ctx, e))?;
    let entry = ctx.first(pairs.next(), "a formula")?;
    let formula = ctx.first(entry.into_inner().next(), "a formula")?;
    formula::formula(&ctx, formula)
}

/// A strategy file's lines (`s_file`, grammar/strategy.pest) as the grammar
/// reads them; `text` is the file with its comments and continuations
/// blanked (as long as the file, so offsets are the file's).
pub(crate) fn strategy_file(
    text: &str,
) -> Result<pest::iterators::Pairs<'_, Rule>, Box<pest::error::Error<Rule>>> {
    DealerParser::parse(Rule::s_file, text).map_err(Box::new)
}

/// One line of a strategy file read again (`s_one_line`), for the place
/// of its error.
pub(crate) fn strategy_line(text: &str) -> Result<(), Box<pest::error::Error<Rule>>> {
    DealerParser::parse(Rule::s_one_line, text)
        .map(|_| ())
        .map_err(Box::new)
}

/// Refuses a line of a strategy file (`text`, starting at `start` in the
/// blanked `src`) longer or more deeply nested than a scenario's statement,
/// before the grammar reads it.
pub(crate) fn strategy_line_limits(src: &str, start: usize, text: &str) -> Result<(), SyntaxError> {
    let piece = Piece {
        start,
        end: start + text.len(),
        text,
        unclosed: Vec::new(),
    };
    Ctx::new(src, &piece, true).check_depth()
}

/// A strategy's formula (a `formula` or an `atom` pair of the strategy
/// grammar over the blanked file `src`), built as the scenario's formulas
/// are, with a strategy's quantifiers, variable cards and counts read.
pub(crate) fn strategy_formula(src: &str, pair: Pair<'_, Rule>) -> Result<Formula, SyntaxError> {
    let piece = Piece {
        start: 0,
        end: src.len(),
        text: src,
        unclosed: Vec::new(),
    };
    let mut ctx = Ctx::new(src, &piece, true);
    ctx.strategy = true;
    if pair.as_rule() == Rule::atom {
        let span = ctx.span(pair.as_span());
        return Ok(Formula {
            kind: formula::atom(&ctx, pair)?,
            span,
        });
    }
    formula::formula(&ctx, pair)
}

/// `operands` joined by `&` (`all`) or `|` as the grammar joins a chain
/// of them (from the left, balanced when long).
#[allow(clippy::vec_box)]
pub(crate) fn chain(operands: Vec<Box<Formula>>, all: bool) -> Formula {
    use super::ast::FormulaKind;
    let make = if all {
        FormulaKind::And
    } else {
        FormulaKind::Or
    };
    formula::group(operands, make)
}

/// Each statement of `src` as the hand-written fast path reads it (`None`
/// where it gives up) and as the grammar reads it: the two must agree
/// wherever the fast path answers (`tests/it/parser_fast.rs`, and
/// `dealer bench --parse`, which times both).
pub fn both_parsers(src: &str) -> Vec<(Option<Statement>, Result<Statement, SyntaxError>)> {
    split::split(src)
        .pieces()
        .iter()
        .map(|piece| {
            let ctx = Ctx::new(src, piece, false);
            let fast = ctx.check_depth().ok().and_then(|()| fast::statement(&ctx));
            (fast, grammar_piece(&ctx))
        })
        .collect()
}

/// Parses `src` with the grammar alone, without the fast path: the
/// reference the fast path is measured and checked against (one statement
/// after another, on one thread).
pub fn parse_with_grammar(src: &str) -> Result<Scenario, Vec<SyntaxError>> {
    scenario(split::split(src).pieces().iter().map(|piece| {
        let ctx = Ctx::new(src, piece, false);
        ctx.check_depth().and_then(|()| grammar_piece(&ctx))
    }))
}

/// Parses one statement of the source: by the fast path where it applies,
/// else by the grammar.
fn parse_piece(src: &str, piece: &Piece) -> Result<Statement, SyntaxError> {
    let ctx = Ctx::new(src, piece, false);
    ctx.check_depth()?;
    if let Some(statement) = fast::statement(&ctx) {
        return Ok(statement);
    }
    grammar_piece(&ctx)
}

/// Parses one statement with the grammar.
fn grammar_piece(ctx: &Ctx) -> Result<Statement, SyntaxError> {
    let mut pairs = DealerParser::parse(Rule::statement, ctx.piece.text)
        .map_err(|e| errors::from_pest(ctx, e))?;
    let entry = ctx.first(pairs.next(), "a statement")?;
    let body = ctx.first(entry.into_inner().next(), "a statement")?;
    build::statement(ctx, body)
}

/// What the builders need to know about the statement being parsed.
pub(crate) struct Ctx<'a> {
    /// The original source.
    pub src: &'a str,
    /// The statement.
    pub piece: &'a Piece<'a>,
    /// Parsing a lone formula rather than a statement.
    pub lone_formula: bool,
    /// Parsing a strategy's formula: its quantifiers, variable cards and
    /// counts are read (a scenario refuses them).
    pub strategy: bool,
}

impl<'a> Ctx<'a> {
    /// The context of one piece.
    fn new(src: &'a str, piece: &'a Piece<'a>, lone_formula: bool) -> Ctx<'a> {
        Ctx {
            src,
            piece,
            lone_formula,
            strategy: false,
        }
    }

    /// A grammar span as a span of the original source, without the
    /// blanks the grammar skipped after it.
    pub fn span(&self, span: pest::Span<'_>) -> Span {
        let len = span.as_str().trim_end_matches([' ', '\t', '\n']).len();
        self.at(span.start(), span.start() + len)
    }

    /// Offsets into the piece's text as a span of the original source.
    pub fn at(&self, start: usize, end: usize) -> Span {
        Span::new(self.piece.start + start, self.piece.start + end)
    }

    /// The text and place of a pair; a card term written with blanks
    /// (`<8, 4>`) is named without them (`<8,4>`).
    pub fn name(&self, pair: &Pair<'_, Rule>) -> Name {
        let text = pair.as_str();
        let text = if text.starts_with('<') && text.contains(' ') {
            text.replace(' ', "").into()
        } else {
            text.into()
        };
        Name {
            text,
            span: self.span(pair.as_span()),
        }
    }

    /// An error at `span`.
    pub fn error(&self, span: Span, message: String, expected: &str) -> SyntaxError {
        SyntaxError {
            span,
            message,
            expected: expected.to_string(),
            help: None,
        }
    }

    /// The pair, or an error if the grammar did not produce it.
    pub fn first<'i>(
        &self,
        pair: Option<Pair<'i, Rule>>,
        what: &str,
    ) -> Result<Pair<'i, Rule>, SyntaxError> {
        pair.ok_or_else(|| self.missing(what))
    }

    /// The error for a part the grammar should have produced but did not.
    pub fn missing(&self, what: &str) -> SyntaxError {
        let span = self.at(0, self.piece.text.len());
        self.error(
            span,
            format!("could not read {what}"),
            &format!("expected {what}"),
        )
    }

    /// Refuses statements longer than [`MAX_STATEMENT_BYTES`] or nested
    /// more deeply than [`MAX_DEPTH`].
    fn check_depth(&self) -> Result<(), SyntaxError> {
        let text = self.piece.text.as_bytes();
        if text.len() > MAX_STATEMENT_BYTES {
            let start = text.len() - self.piece.text.trim_start().len();
            let first = self.piece.text[start..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
            let mut e = self.error(
                self.at(start, start + first),
                format!(
                    "this statement is {} bytes long",
                    crate::diag::thousands(text.len() as u64)
                ),
                "expected a shorter statement",
            );
            e.help = Some(format!(
                "a statement may be at most {} bytes; split it, or name parts with `let`",
                crate::diag::thousands(MAX_STATEMENT_BYTES as u64)
            ));
            return Err(e);
        }
        // Depth and prefixes grow only at an opening bracket, `!`, `~` or
        // the first byte of `¬`: with at most MAX_DEPTH of them in the
        // statement (nearly always), it cannot nest too deeply, and this
        // count, unlike the walk below, runs many bytes at a time.
        // Counted in bytes, 255 bytes at a time, so that the count runs
        // on vectors.
        let growing = text
            .chunks(255)
            .map(|chunk| {
                chunk.iter().fold(0u8, |n, &c| {
                    // Comparisons joined by `|` (not a `match`), which
                    // compile to vector comparisons.
                    let grows = (c == b'(')
                        | (c == b'[')
                        | (c == b'{')
                        | (c == b'<')
                        | (c == b'!')
                        | (c == b'~')
                        | (c == 0xC2);
                    n.wrapping_add(u8::from(grows))
                })
            })
            .map(usize::from)
            .sum::<usize>();
        if growing <= MAX_DEPTH {
            return Ok(());
        }
        let (mut depth, mut prefix) = (0usize, 0usize);
        // Byte by byte: every character that matters is ASCII but `¬`
        // (bytes C2 AC), and the bytes of any other character only reset the
        // run of prefixes.
        let mut i = 0;
        while i < text.len() {
            let len = if text[i] == 0xC2 && text.get(i + 1) == Some(&0xAC) {
                prefix += 1;
                2
            } else {
                match text[i] {
                    b'(' | b'[' | b'{' | b'<' => depth += 1,
                    b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
                    b'!' | b'~' => prefix += 1,
                    b' ' | b'\t' => {}
                    _ => prefix = 0,
                }
                1
            };
            i += len;
            if depth + prefix > MAX_DEPTH {
                let at = i - len;
                let c = self.piece.text[at..].chars().next().unwrap_or(' ');
                let span = self.at(at, at + c.len_utf8());
                let mut e = self.error(
                    span,
                    "this formula is nested too deeply".to_string(),
                    "expected fewer nested brackets or operators",
                );
                e.help = Some(format!("at most {MAX_DEPTH} levels are allowed"));
                return Err(e);
            }
        }
        Ok(())
    }
}
