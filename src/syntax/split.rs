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

/// The bytes the splitter acts on outside strings, but for brackets.
const HARD: [bool; 256] = table(b"\"#\\\r\n;");

/// What a bracket does to the depth: +1 opening, -1 closing, else 0.
const DELTA: [i8; 256] = {
    let mut delta = [0i8; 256];
    delta[b'(' as usize] = 1;
    delta[b'[' as usize] = 1;
    delta[b'{' as usize] = 1;
    delta[b')' as usize] = -1;
    delta[b']' as usize] = -1;
    delta[b'}' as usize] = -1;
    delta
};

/// The bytes the splitter acts on inside a string.
const IN_STRING: [bool; 256] = table(b"\"\r\n");

/// A table of the bytes listed.
const fn table(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// The index of the first byte from `i` on that `table` marks, or the end.
fn next_marked(bytes: &[u8], mut i: usize, table: &[bool; 256]) -> usize {
    while i < bytes.len() && !table[usize::from(bytes[i])] {
        i += 1;
    }
    i
}

impl Scan {
    /// Walks `src`, filling `out` and calling `emit(start, end, open)` for
    /// each statement (including blank ones).
    ///
    /// The cleaned copy differs from the source only where bytes are
    /// blanked, so the source is copied whole at once and the walk, which
    /// only looks for the bytes that matter, blanks in place.
    fn run(&mut self, src: &str, mut emit: impl FnMut(usize, usize, &[(usize, char)])) {
        let bytes = src.as_bytes();
        let n = bytes.len();
        self.out.clear();
        self.out.extend_from_slice(bytes);
        let mut start = 0;
        let mut i = 0;
        // A UTF-8 byte-order mark (written by some editors) is blank.
        if src.starts_with('\u{feff}') {
            self.out[..3].fill(b' ');
            i = 3;
        }
        loop {
            if self.in_string {
                i = next_marked(bytes, i, &IN_STRING);
                match bytes.get(i) {
                    None => break,
                    Some(b'"') => self.in_string = false,
                    Some(b'\r') => self.out[i] = b' ',
                    // A newline ends an unterminated string and is read
                    // below like any other.
                    _ => {
                        self.in_string = false;
                        continue;
                    }
                }
                i += 1;
                continue;
            }
            i = self.brackets(bytes, i);
            let Some(&c) = bytes.get(i) else { break };
            match c {
                b'"' => self.in_string = true,
                b'#' if is_comment(bytes, i) => {
                    let newline = next_newline(bytes, i);
                    self.out[i..newline].fill(b' ');
                    i = newline;
                    continue;
                }
                b'\\' if continues(bytes, i) => {
                    // `\`, the blanks after it and the newline.
                    let after = (next_newline(bytes, i) + 1).min(n);
                    self.out[i..after].fill(b' ');
                    i = after;
                    // A REPL input that ends in a continuation wants another line.
                    self.pending_continuation = bytes[i..].iter().all(u8::is_ascii_whitespace);
                    continue;
                }
                b'\r' => self.out[i] = b' ',
                b'\n' if self.newline_is_blank() => self.out[i] = b' ',
                b'\n' | b';' if self.stack.is_empty() => {
                    emit(start, i, &self.stack);
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        emit(start, n, &self.stack);
    }

    /// Reads the brackets from `i` up to the next other byte that matters
    /// (outside a string), and returns its index.
    ///
    /// Brackets balanced within the run (every closing one closes one
    /// opened in the run, and none is left open) leave the stack as it
    /// was: the run is first only counted, without a branch per bracket,
    /// and walked bracket by bracket only when it is not balanced.
    fn brackets(&mut self, bytes: &[u8], from: usize) -> usize {
        let (mut depth, mut lowest) = (0i32, 0i32);
        let mut i = from;
        while i < bytes.len() && !HARD[usize::from(bytes[i])] {
            depth += i32::from(DELTA[usize::from(bytes[i])]);
            lowest = lowest.min(depth);
            i += 1;
        }
        if depth != 0 || lowest < 0 {
            for (at, &c) in bytes.iter().enumerate().take(i).skip(from) {
                match DELTA[usize::from(c)] {
                    1 => self.stack.push((at, c as char)),
                    -1 => {
                        self.stack.pop();
                    }
                    _ => {}
                }
            }
        }
        i
    }

    /// Inside brackets other than a single block brace, a newline is blank.
    fn newline_is_blank(&self) -> bool {
        match self.stack.last() {
            None => false,
            Some((_, '{')) => self.stack.iter().filter(|(_, b)| *b == '{').count() > 1,
            Some(_) => true,
        }
    }
}

/// The index of the first newline from `i` on, or the end.
fn next_newline(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |at| i + at)
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

    /// The splitter as it was first written (a byte at a time, copying as
    /// it goes): the in-place walk must clean and cut exactly as it does.
    fn reference(src: &str) -> (Vec<u8>, Vec<Cut>, bool) {
        let bytes = src.as_bytes();
        let (mut out, mut stack, mut cuts) = (Vec::new(), Vec::<(usize, char)>::new(), Vec::new());
        let (mut in_string, mut pending) = (false, false);
        let (mut start, mut i) = (0, 0);
        if src.starts_with('\u{feff}') {
            out.extend_from_slice(b"   ");
            i = 3;
        }
        while i < bytes.len() {
            let c = bytes[i];
            if in_string && c != b'\n' {
                if c == b'"' {
                    in_string = false;
                }
                out.push(if c == b'\r' { b' ' } else { c });
                i += 1;
                continue;
            }
            in_string = false;
            let blank_newline = match stack.last() {
                None => false,
                Some((_, '{')) => stack.iter().filter(|(_, b)| *b == '{').count() > 1,
                Some(_) => true,
            };
            match c {
                b'"' => {
                    in_string = true;
                    out.push(c);
                }
                b'#' if is_comment(bytes, i) => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        out.push(b' ');
                        i += 1;
                    }
                    continue;
                }
                b'\\' if continues(bytes, i) => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        out.push(b' ');
                        i += 1;
                    }
                    if i < bytes.len() {
                        out.push(b' ');
                        i += 1;
                    }
                    pending = bytes[i..].iter().all(u8::is_ascii_whitespace);
                    continue;
                }
                b'(' | b'[' | b'{' => {
                    stack.push((i, c as char));
                    out.push(c);
                }
                b')' | b']' | b'}' => {
                    stack.pop();
                    out.push(c);
                }
                b'\r' => out.push(b' '),
                b'\n' if blank_newline => out.push(b' '),
                b'\n' | b';' if stack.is_empty() => {
                    out.push(c);
                    cuts.push((start, i, stack.clone()));
                    start = i + 1;
                }
                _ => out.push(c),
            }
            i += 1;
        }
        cuts.push((start, bytes.len(), stack.clone()));
        (out, cuts, pending)
    }

    #[test]
    fn the_walk_cleans_and_cuts_as_the_reference() {
        let alphabet: &[&str] = &[
            "\"",
            "#",
            "# ",
            "\\",
            "\\ ",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "\r",
            "\n",
            ";",
            " ",
            "\t",
            "p",
            "K1",
            "¬",
            "\u{feff}",
            "&",
            "hand_Anne(0)",
            "x",
        ];
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            let len = rng.random_range(0..24);
            let src: String = (0..len)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            let (out, cuts, pending) = reference(&src);
            let mut scan = Scan::default();
            let mut got = Vec::new();
            scan.run(&src, |start, end, stack| {
                got.push((start, end, stack.to_vec()))
            });
            assert_eq!(scan.out, out, "{src:?}");
            assert_eq!(got, cuts, "{src:?}");
            assert_eq!(scan.pending_continuation, pending, "{src:?}");
        }
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
