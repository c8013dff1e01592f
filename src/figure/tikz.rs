//! The TikZ writer: a `tikzpicture` a lecturer pastes into a beamer slide,
//! or with [`Look::standalone`] a whole `standalone` document that
//! `pdflatex` compiles on its own.
//!
//! The conventions are the other writers': nodes laid out by
//! [`super::layout`] (coordinates in points), labels left-aligned in a sans
//! serif font, the world id above each box, the actual world bold with a
//! double border, common knowledge `\underline`d, one colour and dash per
//! agent, and the legend under the drawing. It needs only TikZ (which
//! loads xcolor).

use std::fmt::Write;

use super::layout::{self, Point};
use super::look::Look;
use super::svg::legend_rows;
use super::KripkeLike;

/// The label size the layout assumes, in points (LaTeX's `\normalsize`).
const FONT: f64 = 10.0;

/// A standalone document's start: the picture goes in a box so the page
/// can be cut to its size (with only LaTeX's base classes and TikZ).
const STANDALONE_HEAD: &str = "\\documentclass{article}
\\usepackage{tikz}
\\pagestyle{empty}
\\begin{document}
\\newbox\\dealerfigure
\\setbox\\dealerfigure=\\hbox{%
";

/// A standalone document's end: one page, the picture's size plus a margin,
/// shipped out directly (LaTeX's page layout plays no part).
const STANDALONE_TAIL: &str = "}
\\hoffset=-1in \\voffset=-1in
\\ifdefined\\pdfpagewidth
  \\pdfpagewidth=\\dimexpr\\wd\\dealerfigure+12pt\\relax
  \\pdfpageheight=\\dimexpr\\ht\\dealerfigure+\\dp\\dealerfigure+12pt\\relax
\\fi
\\shipout\\vbox{\\kern6pt\\hbox{\\kern6pt\\box\\dealerfigure}}
\\end{document}
";

/// LaTeX-escapes text; suit symbols become math symbols.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '#' | '%' | '&' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '♠' | '♤' => out.push_str("$\\spadesuit$"),
            '♥' | '♡' => out.push_str("$\\heartsuit$"),
            '♦' | '♢' => out.push_str("$\\diamondsuit$"),
            '♣' | '♧' => out.push_str("$\\clubsuit$"),
            c => out.push(c),
        }
    }
    out
}

/// A TeX-safe node name for a world id.
fn name(id: &str) -> String {
    id.chars().filter(|c| c.is_ascii_alphanumeric()).collect()
}

fn pt(p: Point) -> String {
    format!("({:.1},{:.1})", p.x, p.y)
}

/// The TikZ text of `fig`.
pub fn to_tikz<K: KripkeLike + ?Sized>(fig: &K, look: &Look) -> String {
    let lay = layout::layout(fig, FONT);
    let mut out = String::new();
    if look.standalone {
        out.push_str(STANDALONE_HEAD);
    }
    let _ = writeln!(
        out,
        "% dealer: {}\n\\begin{{tikzpicture}}[x=1pt, y=-1pt, every node/.style={{font=\\sffamily}}]",
        escape(fig.caption())
    );
    let mut agents: Vec<usize> = fig.edges().iter().map(|e| e.agent).collect();
    agents.sort_unstable();
    agents.dedup();
    for &a in &agents {
        let (colour, _) = look.agent(a);
        let _ = writeln!(
            out,
            "  \\definecolor{{agent{a}}}{{HTML}}{{{}}}",
            colour.trim_start_matches('#')
        );
    }
    if !fig.marked().is_empty() {
        let _ = writeln!(
            out,
            "  \\definecolor{{marked}}{{HTML}}{{{}}}",
            super::MARKED_FILL.trim_start_matches('#')
        );
    }
    nodes(&mut out, fig, &lay);
    edges(&mut out, fig, &lay, look);
    legend(&mut out, fig, &lay, look);
    out.push_str("\\end{tikzpicture}\n");
    if look.standalone {
        out.push_str(STANDALONE_TAIL);
    }
    out
}

fn nodes<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &layout::Layout) {
    for (i, (node, b)) in fig.nodes().iter().zip(&lay.boxes).enumerate() {
        let lines: Vec<String> = node
            .lines
            .iter()
            .map(|line| {
                line.iter()
                    .map(|s| {
                        if s.common {
                            format!("\\underline{{{}}}", escape(&s.text))
                        } else {
                            escape(&s.text)
                        }
                    })
                    .collect()
            })
            .collect();
        let mut style = if fig.actual() == Some(i) {
            "draw, double, double distance=1.5pt, thick, font=\\sffamily\\bfseries".to_string()
        } else {
            "draw".to_string()
        };
        if fig.marked().contains(&i) {
            style.push_str(", fill=marked");
        }
        let _ = writeln!(
            out,
            "  \\node[{style}, align=left, inner sep=4pt, label={{[font=\\scriptsize\\sffamily, text=gray]above left:{}}}] ({}) at {} {{{}}};",
            escape(&node.id),
            name(&node.key()),
            pt(b.centre),
            lines.join("\\\\")
        );
    }
}

fn line_style(look: &Look, agent: usize, directed: bool) -> String {
    let (_, dash) = look.agent(agent);
    let arrow = if directed { ", -latex" } else { "" };
    format!(
        "agent{agent}, line width={}pt, {}{arrow}",
        look.line_width() * 0.6,
        dash.tikz
    )
}

fn edges<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &layout::Layout, look: &Look) {
    for c in &lay.curves {
        let e = fig.edges()[c.edge];
        let style = line_style(look, e.agent, fig.directed());
        let (from, to) = (
            name(&fig.nodes()[e.from].key()),
            name(&fig.nodes()[e.to].key()),
        );
        if e.from == e.to {
            let _ = writeln!(
                out,
                "  \\draw[{style}] ({from}) to[out=60, in=20, looseness=5] ({to});"
            );
            continue;
        }
        // The quadratic curve as a cubic: controls two thirds of the way to
        // the quadratic control point.
        let (p, q) = (lay.boxes[e.from].centre, lay.boxes[e.to].centre);
        let third = |a: Point| Point {
            x: a.x + 2.0 / 3.0 * (c.control.x - a.x),
            y: a.y + 2.0 / 3.0 * (c.control.y - a.y),
        };
        let _ = writeln!(
            out,
            "  \\draw[{style}] ({from}) .. controls {} and {} .. ({to});",
            pt(third(p)),
            pt(third(q))
        );
    }
}

fn legend<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &layout::Layout, look: &Look) {
    let step = 13.0;
    for (i, row) in legend_rows(fig, look).iter().enumerate() {
        let y = lay.height + i as f64 * step;
        let mut x = layout::MARGIN;
        if let Some(a) = row.agent {
            let _ = writeln!(
                out,
                "  \\draw[{}] ({x:.1},{y:.1}) -- ({:.1},{y:.1});",
                line_style(look, a, false),
                x + 24.0
            );
            x += 30.0;
        }
        let text = if row.italic {
            format!("\\itshape {}", escape(&row.text))
        } else if row.text.starts_with("underlined") {
            format!(
                "\\underline{{underlined}}{}",
                escape(&row.text["underlined".len()..])
            )
        } else {
            escape(&row.text)
        };
        let _ = writeln!(
            out,
            "  \\node[anchor=west, inner sep=0pt, font=\\sffamily\\small] at ({x:.1},{y:.1}) {{{text}}};"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_latex_reads_as_commands() {
        assert_eq!(
            escape("<8,4> & 50%_x"),
            "\\textless{}8,4\\textgreater{} \\& 50\\%\\_x"
        );
        assert_eq!(escape("6♠"), "6$\\spadesuit$");
        assert_eq!(name("w12"), "w12");
    }
}
