//! Source spans and diagnostics: one way to show every error of every phase.
//!
//! Each phase (syntax, checking, moves, expectations) has its own error type
//! that turns into a [`Diagnostic`]; the front ends render diagnostics with
//! [`Diagnostic::render`]: the file, line and column, the source line with a
//! caret under the span, a label, and a hint.

use std::fmt::Write as _;

use strsim::osa_distance;

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The scenario cannot go on.
    Error,
    /// An `expect` that does not hold; the run goes on and fails at the end.
    Failure,
    /// A formula that may not say what was meant (`dealer check`); nothing fails.
    Warning,
}

/// A located message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// A stable kebab-case code (`unknown-card`, `illegal-move`, `expect-failed`).
    pub code: &'static str,
    /// The headline: what went wrong.
    pub message: String,
    /// Where.
    pub span: Span,
    /// A short label printed under the caret (what was expected, or why).
    pub label: String,
    /// A hint: how to fix it, or "did you mean".
    pub help: Option<String>,
    /// Whether `span` points into a text; a problem with no place in one
    /// (a file that cannot be read, a checkpoint the command line names)
    /// is shown without a source line.
    pub located: bool,
}

impl Diagnostic {
    /// An error.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
            located: true,
        }
    }

    /// An error with no place in a source text.
    pub fn unlocated(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            located: false,
            ..Diagnostic::error(code, message, Span::default())
        }
    }

    /// The same diagnostic with a label under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// The same diagnostic with a hint (an empty hint is no hint).
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        let help = help.into();
        self.help = (!help.trim().is_empty()).then_some(help);
        self
    }

    /// The same diagnostic with a hint, if there is one.
    pub fn with_help_opt(self, help: Option<impl Into<String>>) -> Diagnostic {
        match help {
            Some(h) => self.with_help(h),
            None => self,
        }
    }

    /// Renders the diagnostic against the source it points into, e.g.
    ///
    /// ```text
    /// error[unknown-card]: no card `7S` in this deck
    ///   --> game.deal:3:9
    ///    |
    ///  3 | deal 1: 7S
    ///    |         ^^ not a card of the deck
    ///    = help: the deck has 2S .. 6C
    /// ```
    ///
    /// An unlocated diagnostic is its headline and its hint alone.
    pub fn render(&self, file: &str, src: &str, color: bool) -> String {
        if !self.located {
            return self.render_unlocated(color);
        }
        let (line, col) = line_col(src, self.span.start);
        let text = src.lines().nth(line - 1).unwrap_or("");
        let head = match self.severity {
            Severity::Error => "error",
            Severity::Failure => "failed",
            Severity::Warning => "warning",
        };
        let warning = self.severity == Severity::Warning;
        let style = Paint::new(color);
        let paint = |s: String| {
            if warning {
                style.yellow_bold(s)
            } else {
                style.red_bold(s)
            }
        };
        let blue = |s: &str| style.blue_bold(s);
        let gutter = " ".repeat(line.to_string().len());
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {}",
            paint(format!("{head}[{}]", self.code)),
            self.message
        );
        let _ = writeln!(out, "{gutter}{} {file}:{line}:{col}", blue("-->"));
        let _ = writeln!(out, "{gutter} {}", blue("|"));
        let (text, col) = window(text, col);
        let text = text.as_str();
        let _ = writeln!(out, "{} {} {text}", blue(&line.to_string()), blue("|"));
        let width = caret_width(text, col, self.span);
        let pad: String = text
            .chars()
            .take(col - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let carets = paint("^".repeat(width));
        let label = if self.label.is_empty() {
            String::new()
        } else {
            format!(" {}", self.label)
        };
        let _ = writeln!(out, "{gutter} {} {pad}{carets}{label}", blue("|"));
        if let Some(help) = self.help() {
            let _ = writeln!(out, "{gutter} {} help: {help}", blue("="));
        }
        out
    }

    /// The hint, if it says something.
    fn help(&self) -> Option<&str> {
        self.help.as_deref().filter(|h| !h.trim().is_empty())
    }

    fn render_unlocated(&self, color: bool) -> String {
        let head = match self.severity {
            Severity::Error => "error",
            Severity::Failure => "failed",
            Severity::Warning => "warning",
        };
        let style = Paint::new(color);
        let head = style.red_bold(head);
        let mut out = format!("{head}: {}\n", self.message);
        if let Some(help) = self.help() {
            let eq = style.blue_bold("=");
            let _ = writeln!(out, "  {eq} help: {help}");
        }
        out
    }

    /// `file:line:col` of the diagnostic.
    pub fn location(&self, file: &str, src: &str) -> String {
        let (line, col) = line_col(src, self.span.start);
        format!("{file}:{line}:{col}")
    }
}

/// Diagnostics about one text, with the text they point into: what a room
/// hands a front end that did not read that text (a strategy file, a
/// deal), and what a front end prints or sends. A diagnostic with no place
/// in a text stands alone ([`Report::from`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The text's name (a file's path, `(built in) NAME.strat`); empty for
    /// unlocated diagnostics.
    pub name: String,
    /// The text the spans point into.
    pub src: String,
    /// The diagnostics, in order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// Diagnostics pointing into `src`, shown as `name`.
    pub fn new(name: &str, src: &str, diagnostics: Vec<Diagnostic>) -> Report {
        Report {
            name: name.to_string(),
            src: src.to_string(),
            diagnostics,
        }
    }

    /// One diagnostic pointing into `src`, shown as `name`.
    pub fn one(name: &str, src: &str, diagnostic: Diagnostic) -> Report {
        Report::new(name, src, vec![diagnostic])
    }

    /// The diagnostics as text, each against the report's text.
    pub fn render(&self, color: bool) -> String {
        self.diagnostics
            .iter()
            .map(|d| d.render(&self.name, &self.src, color))
            .collect()
    }

    /// The diagnostics' headlines, one a line, without place or hint.
    pub fn message(&self) -> String {
        let lines: Vec<&str> = self
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        lines.join("\n")
    }

    /// The report inside another message: its headlines when none has a
    /// place in a text, else its rendering without colour.
    pub fn plain(&self) -> String {
        if self.diagnostics.iter().any(|d| d.located) {
            self.to_string()
        } else {
            self.message()
        }
    }

    /// The first diagnostic's code (`no-game`, `strategy-game`).
    pub fn code(&self) -> &'static str {
        self.diagnostics.first().map_or("error", |d| d.code)
    }
}

impl From<Diagnostic> for Report {
    /// One diagnostic with no text of its own.
    fn from(d: Diagnostic) -> Report {
        Report::new("", "", vec![d])
    }
}

/// The report rendered without colour (for a log line, a test's message,
/// a web page's error).
impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.render(false).trim_end())
    }
}

impl std::error::Error for Report {}

/// The most characters of a source line a diagnostic shows.
pub const SHOWN_LINE_CHARS: usize = 120;

/// The part of a source line a diagnostic shows, and the caret's column in
/// it: the whole line when it is short, else [`SHOWN_LINE_CHARS`]
/// characters around the column, with `…` where it was cut (the location
/// above it still gives the true column).
fn window(text: &str, col: usize) -> (String, usize) {
    let len = text.chars().count();
    if len <= SHOWN_LINE_CHARS {
        return (text.to_string(), col);
    }
    let context = SHOWN_LINE_CHARS / 3;
    let start = col.saturating_sub(1 + context);
    let end = (start + SHOWN_LINE_CHARS).min(len);
    let mut shown = String::new();
    if start > 0 {
        shown.push('…');
    }
    shown.extend(text.chars().skip(start).take(end - start));
    if end < len {
        shown.push('…');
    }
    (shown, col - start + usize::from(start > 0))
}

/// Groups a number's digits by thousands (`34,650`; up to four digits,
/// `1000`, as they are): the one way dealer prints a count of worlds,
/// states, cards or bytes.
pub fn thousands(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    if digits.len() <= 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits;
    }
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whether output to standard output is coloured: on a terminal, unless
/// `NO_COLOR` is set (or `CLICOLOR=0`; `CLICOLOR_FORCE` forces colour),
/// as the `colored` crate reads the environment. The one place that decides.
pub fn color_from_env() -> bool {
    colored::control::ShouldColorize::from_env().should_colorize()
}

/// Colour as a value: a front end decides once ([`color_from_env`]) and
/// hands its `Paint` to whatever renders, which styles text with it
/// (terminal escapes when colour is on, the text as it is when off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    color: bool,
}

impl Paint {
    /// Colour when `color` is true, plain text otherwise.
    pub const fn new(color: bool) -> Paint {
        Paint { color }
    }

    /// Whether this paint colours.
    pub fn colors(self) -> bool {
        self.color
    }

    /// `text` with the SGR parameters `codes` (`1;31`: bold red).
    fn sgr(self, codes: &str, text: impl std::fmt::Display) -> String {
        if self.color {
            format!("\x1b[{codes}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Bold.
    pub fn bold(self, text: impl std::fmt::Display) -> String {
        self.sgr("1", text)
    }

    /// Dimmed.
    pub fn dim(self, text: impl std::fmt::Display) -> String {
        self.sgr("2", text)
    }

    /// Italic.
    pub fn italic(self, text: impl std::fmt::Display) -> String {
        self.sgr("3", text)
    }

    /// Red.
    pub fn red(self, text: impl std::fmt::Display) -> String {
        self.sgr("31", text)
    }

    /// Green.
    pub fn green(self, text: impl std::fmt::Display) -> String {
        self.sgr("32", text)
    }

    /// Yellow.
    pub fn yellow(self, text: impl std::fmt::Display) -> String {
        self.sgr("33", text)
    }

    /// Cyan.
    pub fn cyan(self, text: impl std::fmt::Display) -> String {
        self.sgr("36", text)
    }

    /// Bold red (errors).
    pub fn red_bold(self, text: impl std::fmt::Display) -> String {
        self.sgr("1;31", text)
    }

    /// Bold yellow (warnings).
    pub fn yellow_bold(self, text: impl std::fmt::Display) -> String {
        self.sgr("1;33", text)
    }

    /// Bold blue (a diagnostic's gutter, narration).
    pub fn blue_bold(self, text: impl std::fmt::Display) -> String {
        self.sgr("1;34", text)
    }

    /// Bold magenta (a highlighted keyword).
    pub fn magenta_bold(self, text: impl std::fmt::Display) -> String {
        self.sgr("1;35", text)
    }
}

/// The 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(src, offset.min(src.len()));
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = src[line_start..offset].chars().count() + 1;
    (line, col)
}

/// The line numbers of a source's offsets, by binary search over the line
/// starts (found once): for the many statements of a long scenario, where
/// [`line_col`] from the start each time would cost a pass per statement.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `src`'s lines.
    pub fn new(src: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            src.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The 1-based line of byte `offset` (as [`line_col`]'s line).
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How many carets: the span's characters on its first line, at least one.
fn caret_width(line_text: &str, col: usize, span: Span) -> usize {
    let rest: String = line_text.chars().skip(col - 1).collect();
    let span_len = span.end.saturating_sub(span.start);
    let mut width = 0;
    let mut bytes = 0;
    for c in rest.chars() {
        if bytes >= span_len {
            break;
        }
        bytes += c.len_utf8();
        width += 1;
    }
    width.max(1)
}

/// The candidate closest to `word` by edit distance (ignoring case), if it is
/// close enough to be a likely typo: for "did you mean". Inserting, deleting
/// or changing a character, or swapping two neighbours (`tabel` → `table`),
/// costs one (the optimal string alignment distance).
pub fn suggest<S: AsRef<str>>(word: &str, candidates: &[S]) -> Option<String> {
    let word = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .iter()
        .map(|c| (osa_distance(&word, &c.as_ref().to_lowercase()), c.as_ref()))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_renders_against_its_own_text() {
        let src = "strategy x\nrule a: pick me\n";
        let located = Diagnostic::error("strategy-move", "no move `pick`", Span::new(19, 23))
            .with_label("here");
        let report = Report::one("x.strat", src, located.clone());
        assert_eq!(report.render(false), located.render("x.strat", src, false));
        assert!(report.to_string().contains("--> x.strat:2:9"), "{report}");
        assert_eq!(report.code(), "strategy-move");
        assert_eq!(report.message(), "no move `pick`");
        let plain = Report::from(Diagnostic::unlocated("no-game", "no game `chess`"));
        assert_eq!(plain.to_string(), "error: no game `chess`");
        assert_eq!(plain.plain(), "no game `chess`");
        assert_eq!(report.plain(), report.to_string());
        assert_eq!(plain.code(), "no-game");
    }

    #[test]
    fn line_col_counts_characters() {
        let src = "ab\n¬cd\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 5), (2, 2));
    }

    #[test]
    fn line_index_agrees_with_line_col() {
        let src = "ab\n¬cd\n\nx";
        let index = LineIndex::new(src);
        for offset in 0..=src.len() {
            assert_eq!(index.line(offset), line_col(src, offset).0, "at {offset}");
        }
    }

    #[test]
    fn suggestions_are_close_names() {
        assert_eq!(
            suggest("expct", &["expect", "export"]),
            Some("expect".into())
        );
        assert_eq!(
            suggest("Brunno", &["Bruno", "Nadine"]),
            Some("Bruno".into())
        );
        assert_eq!(suggest("zzz", &["Bruno", "Nadine"]), None);
        assert_eq!(suggest("tabel", &["table", "stock"]), Some("table".into()));
    }

    #[test]
    fn render_points_at_the_span() {
        let src = "players 1 2\ndeal 1: 7S\n";
        let d = Diagnostic::error(
            "unknown-card",
            "no card `7S` in this deck",
            Span::new(20, 22),
        )
        .with_label("not a card of the deck")
        .with_help("the deck has 2S .. 6C");
        let out = d.render("game.deal", src, false);
        assert_eq!(
            out,
            "error[unknown-card]: no card `7S` in this deck\n \
             --> game.deal:2:9\n  |\n2 | deal 1: 7S\n  |         ^^ not a card of the deck\n  = help: the deck has 2S .. 6C\n"
        );
    }

    #[test]
    fn an_empty_hint_is_not_shown() {
        let src = "? true\n";
        let d = Diagnostic::error("x", "m", Span::new(0, 1)).with_help("");
        assert_eq!(d.help, None);
        let mut raw = Diagnostic::error("x", "m", Span::new(0, 1));
        raw.help = Some("  ".into());
        assert!(!raw.render("f", src, false).contains("help"));
    }

    #[test]
    fn unlocated_diagnostics_have_no_source_line() {
        let d = Diagnostic::unlocated("cannot-read", "cannot read x.deal").with_help("check it");
        assert_eq!(
            d.render("x.deal", "", false),
            "error: cannot read x.deal\n  = help: check it\n"
        );
    }
}
