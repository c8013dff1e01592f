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
use super::{KripkeLike, Node, Segment};

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
            '|' => out.push_str("\\textbar{}"),
            '\u{a0}' => out.push('~'),
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

/// The width of a 4:3 beamer frame's text (`\\textwidth`), in points.
pub const BEAMER_TEXTWIDTH: f64 = 307.29;

/// The font every text of a figure for slides is set in.
const SLIDE_FONT: &str = "\\sffamily\\fontsize{10}{12}\\selectfont";

/// A figure for slides: the picture's width and height as laid out (in
/// points, its legend wrapped to the drawing or the frame) and the size
/// its labels (10 pt) come out at on a 4:3 beamer frame, where it is
/// scaled down to `\\textwidth` when wider.
pub fn slide_size<K: KripkeLike + ?Sized>(fig: &K) -> (f64, f64, f64) {
    let plan = slide_plan(fig);
    (plan.width, plan.height, plan.label)
}

/// How a figure goes on a slide: its labels' lines wrapped (or not), the
/// layout, the picture's size and the labels' size on a 4:3 frame.
struct SlidePlan {
    nodes: Vec<Node>,
    /// Legend lines after the figure's own (what the labels leave out).
    notes: Vec<String>,
    lay: layout::Layout,
    /// Where the legend's top left corner goes, and its width.
    legend: (Point, f64),
    width: f64,
    height: f64,
    label: f64,
}

/// The widths, in characters, a slide's label lines are wrapped to in
/// turn (`usize::MAX`: not wrapped); the one whose labels come out
/// largest is kept.
const WRAPS: [usize; 4] = [usize::MAX, 24, 18, 14];

/// The label size a slide aims at, in points.
pub const LEGIBLE: f64 = 9.0;

/// The slide plan of `fig` whose labels come out largest (the least
/// wrapping among equals). When the full labels come out under
/// [`LEGIBLE`] and the drawn worlds share cards ([`KripkeLike::shared`]),
/// the labels without them are tried too, and kept when they come out
/// larger; the legend then names what they leave out.
fn slide_plan<K: KripkeLike + ?Sized>(fig: &K) -> SlidePlan {
    let full = plan_with(fig, fig.nodes(), &[]);
    if full.label >= LEGIBLE - 1e-9 {
        return full;
    }
    let Some(shared) = fig.shared() else {
        return full;
    };
    let nodes = shared.nodes(fig.nodes());
    let less = plan_with(fig, &nodes, std::slice::from_ref(&shared.note));
    if less.label > full.label + 1e-9 && less.lay.crossings() <= full.lay.crossings() {
        less
    } else {
        full
    }
}

/// The widths, in characters, a slide's short label lines are joined up
/// to (`1: A  2: A  3: A`), tried when the labels as they are come out
/// under [`LEGIBLE`].
const JOINS: [usize; 3] = [16, 20, 24];

/// What joins two label lines on a slide: two spaces that TeX keeps.
const JOIN: &str = "\u{a0}\u{a0}";

/// The slide plan of `fig` drawn with the labels of `base` (wrapped, or
/// with short lines joined, as comes out largest) and the legend lines
/// `notes` after its own.
fn plan_with<K: KripkeLike + ?Sized>(fig: &K, base: &[Node], notes: &[String]) -> SlidePlan {
    let mut best: Option<SlidePlan> = None;
    let mut last: Option<Vec<Node>> = None;
    // Lines joined only where that draws no more crossing lines.
    let mut crossings = usize::MAX;
    let shapes = WRAPS
        .iter()
        .map(|&w| (w, false))
        .chain(JOINS.iter().map(|&w| (w, true)));
    for (width, join) in shapes {
        if join && best.as_ref().is_some_and(|b| b.label >= LEGIBLE - 1e-9) {
            break;
        }
        let nodes: Vec<Node> = base
            .iter()
            .map(|n| {
                if join {
                    joined(n, width)
                } else {
                    wrap(n, width)
                }
            })
            .collect();
        if last.as_ref() == Some(&nodes) {
            continue;
        }
        let wrapped = Wrapped {
            inner: fig,
            nodes,
            notes: notes.to_vec(),
        };
        let fig = &wrapped;
        let lay = slide_layout(&wrapped);
        let scale = |w: f64, h: f64| {
            (BEAMER_TEXTWIDTH / w)
                .min(SLIDE_HEIGHT * BEAMER_TEXTHEIGHT / h)
                .min(1.0)
        };
        // The legend under the drawing.
        let legend_w = slide_legend_width(&lay);
        let under = Point {
            x: layout::MARGIN,
            y: lay.height - layout::MARGIN / 2.0,
        };
        let mut w = lay.width.max(legend_w + 2.0 * layout::MARGIN);
        let mut h = lay.height + slide_legend_lines(fig, legend_w) as f64 * 12.0;
        let mut legend = (under, legend_w);
        // Or beside a tall drawing, when the frame has room for it there
        // (a line more than the estimate, for words that do not fill
        // their lines).
        let beside_w = BEAMER_TEXTWIDTH - lay.width - 2.0;
        if beside_w >= LEGEND_BESIDE {
            let bw = lay.width + beside_w;
            let lines = slide_legend_lines(fig, beside_w) + 1;
            let bh = lay.height.max(lines as f64 * 12.0 + 2.0 * layout::MARGIN);
            if scale(bw, bh) > scale(w, h) + 1e-9 {
                let at = Point {
                    x: lay.width,
                    y: layout::MARGIN,
                };
                (w, h, legend) = (bw, bh, (at, beside_w));
            }
        }
        let plan = SlidePlan {
            nodes: wrapped.nodes,
            notes: wrapped.notes,
            lay,
            legend,
            width: w,
            height: h,
            label: FONT * scale(w, h),
        };
        last = Some(plan.nodes.clone());
        if join && plan.lay.crossings() > crossings {
            continue;
        }
        if !join {
            crossings = crossings.min(plan.lay.crossings());
        }
        if best.as_ref().is_none_or(|b| plan.label > b.label + 1e-9) {
            best = Some(plan);
        }
    }
    best.expect("at least one wrapping is tried")
}

/// `node` with its label lines longer than `width` characters broken at
/// spaces (a word is never broken; common knowledge stays underlined).
pub(crate) fn wrap(node: &Node, width: usize) -> Node {
    let mut lines = Vec::new();
    for line in &node.lines {
        let length: usize = line.iter().map(|s| s.text.chars().count()).sum();
        if length <= width {
            lines.push(line.clone());
            continue;
        }
        // The words, each a run of pieces with no space between them.
        let mut words: Vec<Vec<Segment>> = vec![Vec::new()];
        for seg in line {
            for (i, piece) in seg.text.split(' ').enumerate() {
                if i > 0 {
                    words.push(Vec::new());
                }
                if !piece.is_empty() {
                    let last = words.last_mut().expect("a word is open");
                    last.push(Segment {
                        text: piece.to_string(),
                        common: seg.common,
                    });
                }
            }
        }
        let mut current: Vec<Segment> = Vec::new();
        let mut used = 0;
        for word in words.into_iter().filter(|w| !w.is_empty()) {
            let len: usize = word.iter().map(|s| s.text.chars().count()).sum();
            if used > 0 && used + 1 + len > width {
                lines.push(std::mem::take(&mut current));
                used = 0;
            }
            if used > 0 {
                current.push(Segment::plain(" "));
                used += 1;
            }
            used += len;
            current.extend(word);
        }
        lines.push(current);
    }
    Node {
        lines,
        ..node.clone()
    }
}

/// `node` with consecutive label lines joined by [`JOIN`] while the
/// joined line is at most `width` characters long.
pub(crate) fn joined(node: &Node, width: usize) -> Node {
    let length = |line: &[Segment]| -> usize { line.iter().map(|s| s.text.chars().count()).sum() };
    let mut lines: Vec<Vec<Segment>> = Vec::new();
    for line in &node.lines {
        match lines.last_mut() {
            Some(last) if length(last) + 2 + length(line) <= width => {
                last.push(Segment::plain(JOIN));
                last.extend(line.iter().cloned());
            }
            _ => lines.push(line.clone()),
        }
    }
    Node {
        lines,
        ..node.clone()
    }
}

/// A figure with other nodes (its labels wrapped, or without what every
/// world shares) and more legend lines, the rest its own.
pub(crate) struct Wrapped<'a, K: ?Sized> {
    pub(crate) inner: &'a K,
    pub(crate) nodes: Vec<Node>,
    pub(crate) notes: Vec<String>,
}

impl<K: KripkeLike + ?Sized> KripkeLike for Wrapped<'_, K> {
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    fn edges(&self) -> &[super::Edge] {
        self.inner.edges()
    }
    fn actual(&self) -> Option<usize> {
        self.inner.actual()
    }
    fn directed(&self) -> bool {
        self.inner.directed()
    }
    fn agents(&self) -> &[String] {
        self.inner.agents()
    }
    fn caption(&self) -> &str {
        self.inner.caption()
    }
    fn complete(&self) -> bool {
        self.inner.complete()
    }
    fn marked(&self) -> &[usize] {
        self.inner.marked()
    }
    fn marked_note(&self) -> Option<&str> {
        self.inner.marked_note()
    }
    fn notes(&self) -> Vec<String> {
        let mut notes = self.inner.notes();
        notes.extend(self.notes.iter().cloned());
        notes
    }
}

/// The width a slide's legend is wrapped to: the drawing's, or nearly the
/// frame's when the drawing is narrower (a legend in fewer lines leaves
/// more of the frame's height to the drawing).
fn slide_legend_width(lay: &layout::Layout) -> f64 {
    (lay.width - 2.0 * layout::MARGIN)
        .max(BEAMER_TEXTWIDTH - 2.0 * layout::MARGIN - 4.0)
        .max(LEGEND_MIN)
}

/// A slide's layout: the shape that fits a 4:3 frame's `\\textwidth` and
/// [`SLIDE_HEIGHT`] of its `\\textheight`, less the legend, at the largest
/// scale.
fn slide_layout<K: KripkeLike + ?Sized>(fig: &K) -> layout::Layout {
    let legend = slide_legend_lines(fig, BEAMER_TEXTWIDTH - 2.0 * layout::MARGIN) as f64 * 12.0;
    let frame = layout::Frame {
        w: BEAMER_TEXTWIDTH,
        h: SLIDE_HEIGHT * BEAMER_TEXTHEIGHT - legend,
        fill: false,
        room: 1.0,
    };
    layout::layout_in(fig, SLIDE_LAYOUT, Some(frame))
}

/// The height of a 4:3 beamer frame's text (`\\textheight`), in points.
pub const BEAMER_TEXTHEIGHT: f64 = 269.15;

/// The label size a slide's layout assumes: the layout measures text in
/// a monospaced font, and 10 pt sans serif (what a slide sets) is about as
/// wide as 8.5 pt monospace, so the boxes come out as far apart as the
/// layout means them to be.
const SLIDE_LAYOUT: f64 = 8.5;

/// The narrowest a slide's legend is wrapped to, in points.
const LEGEND_MIN: f64 = 160.0;

/// How much of a frame's text height a slide's picture may take (the rest
/// is the frame's title and a line of text).
const SLIDE_HEIGHT: f64 = 0.8;

/// The last line of a slide's legend.
const CONVENTIONS: &str = "double border: the actual world; underlined: common knowledge";

/// The lines a slide's legend takes (see [`slide_legend`]), about.
fn slide_legend_lines<K: KripkeLike + ?Sized>(fig: &K, width: f64) -> usize {
    // About 4.7 pt a character of 10 pt sans serif.
    let chars_per_line = (width / 4.7).max(1.0);
    let wrapped = |text: &str| (text.chars().count() as f64 / chars_per_line).ceil() as usize;
    let mut lines = 0;
    if fig.caption() != "the worlds reachable from the actual world" {
        lines += wrapped(fig.caption());
    }
    lines += fig.notes().iter().map(|n| wrapped(n)).sum::<usize>();
    lines += fig.marked_note().map_or(0, wrapped);
    let agents: usize = fig
        .agents()
        .iter()
        .map(|a| a.chars().count() + 8)
        .sum::<usize>();
    let regions = if layout::may_have_regions(fig) {
        wrapped(REGIONS)
    } else {
        0
    };
    lines + wrapped(&"x".repeat(agents)) + wrapped(CONVENTIONS) + regions
}

/// The narrowest a slide's legend beside the drawing may be, in points
/// (each half of the conventions' line fits on a line).
const LEGEND_BESIDE: f64 = 140.0;

/// A slide legend's line about regions, when some class is drawn as one.
const REGIONS: &str = "a rounded box: worlds its agent cannot tell apart";

/// The end of a slide's picture: scaled down to fit `\\linewidth` and
/// [`SLIDE_HEIGHT`] of `\\textheight`, never up; the scale is left in
/// `\\dealerlastscale` (labels come out at 10 pt times it).
const SLIDE_TAIL: &str =
    "}\\pgfmathsetmacro\\dealerscale{min(1,\\linewidth/\\wd0,0.8\\textheight/(\\ht0+\\dp0))}%
\\global\\let\\dealerlastscale\\dealerscale\\scalebox{\\dealerscale}{\\box0}\\endgroup%
";

/// The TikZ text of `fig`.
pub fn to_tikz<K: KripkeLike + ?Sized>(fig: &K, look: &Look) -> String {
    if look.slides {
        let plan = slide_plan(fig);
        let size = (plan.width, plan.height, plan.label);
        let wrapped = Wrapped {
            inner: fig,
            nodes: plan.nodes,
            notes: plan.notes,
        };
        write_tikz(&wrapped, look, &plan.lay, size, plan.legend)
    } else {
        let lay = layout::layout(fig, FONT);
        let nowhere = (Point { x: 0.0, y: 0.0 }, 0.0);
        write_tikz(fig, look, &lay, (0.0, 0.0, 0.0), nowhere)
    }
}

/// The TikZ text of `fig` laid out as `lay`; `(width, height, label)`
/// the picture's and its labels' size on a slide, `slide_legend_at` where
/// a slide's legend goes and its width.
fn write_tikz<K: KripkeLike + ?Sized>(
    fig: &K,
    look: &Look,
    lay: &layout::Layout,
    (width, height, label): (f64, f64, f64),
    slide_legend_at: (Point, f64),
) -> String {
    let mut out = String::new();
    if look.standalone && look.slides {
        // A slide's picture is scaled with graphicx's \\resizebox.
        out.push_str(&STANDALONE_HEAD.replace(
            "\\usepackage{tikz}\n",
            "\\usepackage{tikz}\n\\usepackage{graphicx}\n",
        ));
    } else if look.standalone {
        out.push_str(STANDALONE_HEAD);
    }
    let font = if look.slides {
        SLIDE_FONT
    } else {
        "\\sffamily"
    };
    if look.slides {
        let _ = writeln!(
            out,
            "% dealer, for a beamer frame: \\input this file as it is (it needs TikZ, and graphicx,\n\
             % which beamer loads). Every text is 10 pt; the picture is about {width:.0} x {height:.0} pt\n\
             % and is scaled down to fit \\linewidth and 0.8\\textheight: on a 4:3 frame (307 x 269 pt)\n\
             % its labels come out at about {label:.1} pt.\n\
             \\begingroup\\setbox0=\\hbox{{%"
        );
    }
    let _ = writeln!(
        out,
        "% dealer: {}\n\\begin{{tikzpicture}}[x=1pt, y=-1pt, every node/.style={{font={font}}}]",
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
    regions(&mut out, fig, lay, look);
    nodes(&mut out, fig, lay, look);
    edges(&mut out, fig, lay, look);
    if look.slides {
        slide_legend(&mut out, fig, lay, look, slide_legend_at);
    } else {
        legend(&mut out, fig, lay, look);
    }
    out.push_str(if look.slides {
        "\\end{tikzpicture}%\n"
    } else {
        "\\end{tikzpicture}\n"
    });
    if look.slides {
        out.push_str(SLIDE_TAIL);
    }
    if look.standalone {
        out.push_str(STANDALONE_TAIL);
    }
    out
}

fn nodes<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &layout::Layout, look: &Look) {
    // A slide's world names are as large as its labels.
    let id_font = if look.slides {
        SLIDE_FONT
    } else {
        "\\scriptsize\\sffamily"
    };
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
        // On a slide, a world named by its values (`p1=0,c1=1`) is not
        // named again above its label, which says the same.
        let same = node.plain_label().replace(['\n', ' '], ",") == node.id;
        let label = if look.slides && same {
            String::new()
        } else {
            format!(
                ", label={{[font={id_font}, text=gray, anchor=south west, inner sep=0.5pt]north west:{}}}",
                escape(&node.id)
            )
        };
        let _ = writeln!(
            out,
            "  \\node[{style}, align=left, inner sep=4pt{label}] ({}) at {} {{{}}};",
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

/// The classes drawn as rounded rectangles (under the worlds), in the
/// agent's colour and dash with a faint fill, the agent's name on the
/// bottom side.
fn regions<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &layout::Layout, look: &Look) {
    let marks = super::svg::agent_marks(fig);
    let mark_font = if look.slides {
        SLIDE_FONT
    } else {
        "\\sffamily\\tiny"
    };
    for r in &lay.regions {
        let _ = writeln!(
            out,
            "  \\draw[{}, rounded corners={:.1}pt, fill=agent{}, fill opacity=0.07] {} rectangle {};",
            line_style(look, r.agent, false),
            r.radius,
            r.agent,
            pt(r.corner),
            pt(Point {
                x: r.corner.x + r.w,
                y: r.corner.y + r.h
            })
        );
        let _ = writeln!(
            out,
            "  \\node[fill=white, inner sep=0.5pt, text=agent{}, font={mark_font}] at {} {{{}}};",
            r.agent,
            pt(r.mark()),
            escape(&marks[r.agent])
        );
    }
}

fn edges<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &layout::Layout, look: &Look) {
    let marks = super::svg::agent_marks(fig);
    let mut labels = String::new();
    for c in &lay.curves {
        let e = lay.edges[c.edge];
        let style = line_style(look, e.agent, fig.directed());
        // The agent's name on its line, written after every line so none
        // hides it (the node has a white background).
        let at = super::svg::mark_point(lay, c);
        if e.from == e.to {
            // A loop's legend line names it.
        } else {
            let _ = writeln!(
                labels,
            "  \\node[fill=white, inner sep=0.5pt, text=agent{}, font=\\sffamily\\tiny] at {} {{{}}};",
            e.agent,
            pt(at),
            escape(&marks[e.agent])
        );
        }
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
    out.push_str(&labels);
}

/// A slide's legend: one node under the drawing, as wide as the drawing
/// (at least [`LEGEND_MIN`]) or the frame, or beside a tall drawing, in
/// few lines (the frame's title says what the
/// figure is): what it shows when that is not the whole model, the counts
/// of a projection, the agents side by side, each with its line and name,
/// and the conventions.
fn slide_legend<K: KripkeLike + ?Sized>(
    out: &mut String,
    fig: &K,
    lay: &layout::Layout,
    look: &Look,
    (at, width): (Point, f64),
) {
    let mut rows: Vec<String> = Vec::new();
    if fig.caption() != "the worlds reachable from the actual world" {
        rows.push(format!("\\textit{{{}}}", escape(fig.caption())));
    }
    rows.extend(
        fig.notes()
            .iter()
            .map(|n| format!("\\textit{{{}}}", escape(n))),
    );
    if let Some(n) = fig.marked_note() {
        rows.push(format!("\\textit{{{}}}", escape(n)));
    }
    let mut agents: Vec<usize> = fig.edges().iter().map(|e| e.agent).collect();
    agents.sort_unstable();
    agents.dedup();
    let named: Vec<String> = agents
        .iter()
        .map(|&a| {
            format!(
                "\\mbox{{\\tikz[baseline=-0.6ex]\\draw[{}] (0,0) -- (20pt,0);~{}}}",
                line_style(look, a, false),
                escape(&fig.agents()[a])
            )
        })
        .collect();
    if !named.is_empty() {
        rows.push(named.join("\\quad "));
    }
    // Broken between its two halves only.
    rows.push(
        CONVENTIONS
            .replacen("underlined", "\\underline{underlined}", 1)
            .split("; ")
            .map(|half| format!("\\mbox{{{half}}}"))
            .collect::<Vec<_>>()
            .join("; "),
    );
    if !lay.regions.is_empty() {
        rows.push(REGIONS.to_string());
    }
    let _ = writeln!(
        out,
        "  \\node[anchor=north west, inner sep=0pt, align=left, text width={width:.1}pt] at ({:.1},{:.1}) {{{}}};",
        at.x,
        at.y,
        rows.join("\\\\\n    ")
    );
}

fn legend<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &layout::Layout, look: &Look) {
    let step = 13.0;
    for (i, row) in legend_rows(fig, look, !lay.regions.is_empty())
        .iter()
        .enumerate()
    {
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

    #[test]
    fn wrapping_breaks_long_lines_at_spaces_and_keeps_underlines() {
        let seg = |text: &str, common| Segment {
            text: text.into(),
            common,
        };
        let node = Node {
            id: "w0".into(),
            world: Some(0),
            lines: vec![
                vec![
                    seg("2: ", false),
                    seg("<7,2> <8,1>", true),
                    seg(" <6,2>", false),
                ],
                vec![seg("3: -", false)],
            ],
        };
        let text = |n: &Node| -> Vec<Vec<(String, bool)>> {
            n.lines
                .iter()
                .map(|l| l.iter().map(|s| (s.text.clone(), s.common)).collect())
                .collect()
        };
        assert_eq!(wrap(&node, usize::MAX), node);
        let wrapped = wrap(&node, 12);
        assert_eq!(
            text(&wrapped),
            vec![
                vec![
                    ("2:".to_string(), false),
                    (" ".to_string(), false),
                    ("<7,2>".to_string(), true)
                ],
                vec![
                    ("<8,1>".to_string(), true),
                    (" ".to_string(), false),
                    ("<6,2>".to_string(), false)
                ],
                vec![("3: -".to_string(), false)],
            ]
        );
        // The words, in order, are the label's.
        let words = |n: &Node| -> Vec<String> {
            n.plain_label()
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        assert_eq!(words(&wrapped), words(&node));
    }
}
