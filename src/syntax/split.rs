//! The statement splitter: cuts a source into statements before the grammar
//! sees them.
//!
//! A statement ends at a newline or a `;` at bracket depth 0 (only `(`, `[`
//! and `{` count; `<` is also a comparison). A `\` at the end of a line
//! continues the statement. `#` starts a comment when a space, a tab or the
//! end of the line follows it (`#hand1` is a count). Each statement keeps its
//! byte range in the original source and a copy of its text of the same
//! length in which comments, continuations, carriage returns and the newlines
//! inside `(` and `[` are blanked, so that grammar offsets plus the statement
//! start are offsets into the original source. Newlines directly inside a
//! `{ }` block are kept: they separate the items of `model` and `event` blocks.

/// One statement of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece<'t> {
    /// First byte in the original source.
    pub start: usize,
    /// One past the last byte in the original source.
    pub end: usize,
    /// The cleaned text, as long as `src[start..end]` (a slice of the one
    /// cleaned copy of the source: no statement is copied on its own).
    pub text: &'t str,
    /// Brackets opened in the statement and never closed (original offsets).
    pub unclosed: Vec<(usize, char)>,
}

/// A statement's first byte, its end, and the brackets it leaves open.
type Cut = (usize, usize, Vec<(usize, char)>);

/// A source cut into statements: the cleaned copy and where each statement
/// lies in it ([`Split::pieces`]).
pub(crate) struct Split {
    /// The cleaned copy of the whole source.
    text: String,
    /// Each statement's range and unclosed brackets.
    cuts: Vec<Cut>,
}

impl Split {
    /// The non-blank statements.
    pub fn pieces(&self) -> Vec<Piece<'_>> {
        self.cuts
            .iter()
            .map(|cut| self.piece(cut))
            .filter(|piece| !piece.text.trim().is_empty())
            .collect()
    }

    /// The first statement, blank or not (the one piece of [`whole`]).
    pub fn first(&self) -> Piece<'_> {
        self.piece(&self.cuts[0])
    }

    /// The statement of one cut.
    fn piece(&self, (start, end, unclosed): &Cut) -> Piece<'_> {
        Piece {
            start: *start,
            end: *end,
            text: self.text.get(*start..*end).unwrap_or_default(),
            unclosed: unclosed.clone(),
        }
    }
}

/// The scanner's state while it walks the source.
#[derive(Default)]
struct Scan {
    /// The cleaned copy of the whole source.
    out: Vec<u8>,
    /// Open brackets: offset and character.
    stack: Vec<(usize, char)>,
    /// Inside a `"..."` string.
    in_string: bool,
    /// The source ends inside a continuation (`\` then only blanks).
    pending_continuation: bool,
}

/// Whether `src` is complete: no bracket left open, no trailing `\`.
///
/// A REPL asks for more lines while this is false. An extra closing bracket
/// counts as complete: the parser reports it.
pub fn is_complete(src: &str) -> bool {
    let mut scan = Scan::default();
    let mut open_at_end = false;
    scan.run(src, |_, _, stack| open_at_end = !stack.is_empty());
    !open_at_end && !scan.pending_continuation
}

/// Cuts `src` into its statements ([`Split::pieces`]: the non-blank ones).
pub(crate) fn split(src: &str) -> Split {
    let mut scan = Scan::default();
    let mut cuts = Vec::new();
    scan.run(src, |start, end, stack| {
        cuts.push((start, end, stack.to_vec()))
    });
    let text = String::from_utf8(scan.out).unwrap_or_default();
    Split { text, cuts }
}

/// The whole of `src` as one piece (for a lone formula): newlines blanked.
pub(crate) fn whole(src: &str) -> Split {
    let mut scan = Scan::default();
    let mut unclosed = Vec::new();
    scan.run(src, |_, _, stack| unclosed = stack.to_vec());
    let text: String = String::from_utf8(scan.out)
        .unwrap_or_default()
        .chars()
        .map(|c| if c == '\n' { ' ' } else { c })
        .collect();
    Split {
        cuts: vec![(0, src.len().min(text.len()), unclosed)],
        text,
    }
}

/// The bytes the splitter acts on outside strings.
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    let special = b"\"#\\([{)]}\r\n;";
    while i < special.len() {
        table[special[i] as usize] = true;
        i += 1;
    }
    table
};

impl Scan {
    /// Walks `src`, filling `out` and calling `emit(start, end, open)` for
    /// each statement (including blank ones).
    fn run(&mut self, src: &str, mut emit: impl FnMut(usize, usize, &[(usize, char)])) {
        let bytes = src.as_bytes();
        self.out.reserve(bytes.len());
        let mut start = 0;
        let mut i = 0;
        // A UTF-8 byte-order mark (written by some editors) is blank.
        if src.starts_with('\u{feff}') {
            self.out.extend_from_slice(b"   ");
            i = 3;
        }
        while i < bytes.len() {
            let c = bytes[i];
            if self.in_string && c != b'\n' {
                self.string_byte(c);
                i += 1;
                continue;
            }
            self.in_string = false;
            match c {
                b'"' => {
                    self.in_string = true;
                    self.out.push(c);
                }
                b'#' if is_comment(bytes, i) => {
                    i = self.blank_until_newline(bytes, i);
                    continue;
                }
                b'\\' if continues(bytes, i) => {
                    i = self.continuation(bytes, i);
                    continue;
                }
                b'(' | b'[' | b'{' => {
                    self.stack.push((i, c as char));
                    self.out.push(c);
                }
                b')' | b']' | b'}' => {
                    self.stack.pop();
                    self.out.push(c);
                }
                b'\r' => self.out.push(b' '),
                b'\n' if self.newline_is_blank() => self.out.push(b' '),
                b'\n' | b';' if self.stack.is_empty() => {
                    self.out.push(c);
                    emit(start, i, &self.stack);
                    start = i + 1;
                }
                _ => {
                    // A run of bytes that mean nothing to the splitter is
                    // copied at once.
                    let run = bytes[i..]
                        .iter()
                        .position(|&b| SPECIAL[usize::from(b)])
                        .unwrap_or(bytes.len() - i);
                    self.out.extend_from_slice(&bytes[i..i + run.max(1)]);
                    i += run.max(1);
                    continue;
                }
            }
            i += 1;
        }
        emit(start, bytes.len(), &self.stack);
    }

    /// A byte inside a string (a newline ends an unterminated string).
    fn string_byte(&mut self, c: u8) {
        if c == b'"' {
            self.in_string = false;
        }
        self.out.push(if c == b'\r' { b' ' } else { c });
    }

    /// Inside brackets other than a single block brace, a newline is blank.
    fn newline_is_blank(&self) -> bool {
        match self.stack.last() {
            None => false,
            Some((_, '{')) => self.stack.iter().filter(|(_, b)| *b == '{').count() > 1,
            Some(_) => true,
        }
    }

    /// Blanks a comment from `i` to the end of the line; returns the newline's index.
    fn blank_until_newline(&mut self, bytes: &[u8], mut i: usize) -> usize {
        while i < bytes.len() && bytes[i] != b'\n' {
            self.out.push(b' ');
            i += 1;
        }
        i
    }

    /// Blanks `\`, the blanks after it and the newline; returns the next index.
    fn continuation(&mut self, bytes: &[u8], mut i: usize) -> usize {
        while i < bytes.len() && bytes[i] != b'\n' {
            self.out.push(b' ');
            i += 1;
        }
        if i < bytes.len() {
            self.out.push(b' ');
            i += 1;
        }
        // A REPL input that ends in a continuation wants another line.
        self.pending_continuation = bytes[i..].iter().all(u8::is_ascii_whitespace);
        i
    }
}

/// Whether the `#` at `i` starts a comment.
fn is_comment(bytes: &[u8], i: usize) -> bool {
    matches!(bytes.get(i + 1), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}

/// Whether the `\` at `i` is followed only by blanks up to the end of its line.
fn continues(bytes: &[u8], i: usize) -> bool {
    bytes[i + 1..]
        .iter()
        .take_while(|&&b| b != b'\n')
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_newlines_and_semicolons() {
        let split = split("game x; players 1 2\n\n# note\nstats");
        let pieces = split.pieces();
        let texts: Vec<&str> = pieces.iter().map(|p| p.text.trim()).collect();
        assert_eq!(texts, ["game x", "players 1 2", "stats"]);
    }

    #[test]
    fn keeps_lengths_and_joins_brackets() {
        let src = "? (p &\n q) # c\nstats";
        let split = split(src);
        let pieces = split.pieces();
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].text.len(), pieces[0].end - pieces[0].start);
        assert_eq!(pieces[0].text.trim(), "? (p &  q)");
    }

    #[test]
    fn completeness() {
        assert!(is_complete("? p"));
        assert!(!is_complete("? (p"));
        assert!(!is_complete("deal 1: Q \\"));
        assert!(is_complete("? p)"));
        assert!(is_complete(""));
    }

    #[test]
    fn a_byte_order_mark_is_blank() {
        let split = split("\u{feff}players 1 2\nstats");
        let pieces = split.pieces();
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].text, "   players 1 2");
        assert_eq!(pieces[0].text.len(), pieces[0].end - pieces[0].start);
    }
}
