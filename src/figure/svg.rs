//! The built-in SVG writer, used when Graphviz is missing (or asked for):
//! the same conventions as the DOT figure. Boxes with left-aligned label
//! lines in a monospaced font (so their width is known), the world id above
//! each box, the actual world bold with a double border, common knowledge
//! underlined by the text's own underline, one colour and dash per agent,
//! edges laid out by [`super::layout`] so none hides another, and a legend
//! under the drawing. The canvas ends at the drawing's margin.

use std::fmt::Write;

use super::layout::{self, Layout, Point, CHAR_WIDTH, LINE_HEIGHT, MARGIN, PAD};
use super::look::Look;
use super::{KripkeLike, MARKED_FILL};

/// XML-escapes text.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG text of `fig`.
pub fn to_svg<K: KripkeLike + ?Sized>(fig: &K, look: &Look) -> String {
    let font = f64::from(look.text_size());
    let lay = layout::layout(fig, font);
    draw(fig, look, &lay, None)
}

/// The SVG text of `fig` laid out as `lay`. With `hall` (the lecture
/// hall's figure, [`super::hall`]), every text is at the label size and
/// the legend is not drawn: its rows go, one a line, into the `svg`
/// element's `data-legend`, for the page to write beside the figure.
pub(crate) fn draw<K: KripkeLike + ?Sized>(
    fig: &K,
    look: &Look,
    lay: &Layout,
    hall: Option<&[String]>,
) -> String {
    let font = f64::from(look.text_size());
    let legend = if hall.is_some() {
        Vec::new()
    } else {
        legend_rows(fig, look, !lay.regions.is_empty())
    };
    let small = if hall.is_some() { font } else { font * 0.85 };
    let legend_h = if legend.is_empty() {
        0.0
    } else {
        legend.len() as f64 * small * 1.5 + MARGIN
    };
    let legend_w = legend
        .iter()
        .map(|r| r.text.chars().count() as f64 * small * CHAR_WIDTH + 4.0 * small)
        .fold(0.0, f64::max)
        + 2.0 * MARGIN;
    let width = lay.width.max(legend_w);
    let height = lay.height + legend_h;
    let mut out = String::new();
    let data = hall.map_or_else(String::new, |rows| {
        format!(
            r#" data-legend="{}""#,
            esc(&rows.join("\n")).replace('\n', "&#10;")
        )
    });
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"{data}>"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    arrow_markers(&mut out, fig, look);
    regions(&mut out, fig, lay, look, small);
    edges(&mut out, fig, lay, look, small);
    let id_size = if hall.is_some() { font } else { font * 0.8 };
    nodes(&mut out, fig, lay, font, (id_size, hall.is_some()));
    draw_legend(&mut out, &legend, lay.height, small, look);
    out.push_str("</svg>\n");
    out
}

fn arrow_markers<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, look: &Look) {
    if !fig.directed() {
        return;
    }
    out.push_str("<defs>\n");
    for a in used_agents(fig) {
        let (colour, _) = look.agent(a);
        let _ = writeln!(
            out,
            r#"<marker id="arrow{a}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
        );
    }
    out.push_str("</defs>\n");
}

fn used_agents<K: KripkeLike + ?Sized>(fig: &K) -> Vec<usize> {
    // Every agent with a line also has an edge in the figure, and so does
    // every agent with a region (a class of three worlds has edges).
    let mut agents: Vec<usize> = fig.edges().iter().map(|e| e.agent).collect();
    agents.sort_unstable();
    agents.dedup();
    agents
}

fn dash_attr(look: &Look, agent: usize) -> String {
    let (_, dash) = look.agent(agent);
    if dash.svg.is_empty() {
        return String::new();
    }
    let w = look.line_width();
    let scaled: Vec<String> = dash
        .svg
        .split(' ')
        .map(|n| format!("{:.1}", n.parse::<f64>().unwrap_or(1.0) * w))
        .collect();
    format!(r#" stroke-dasharray="{}""#, scaled.join(" "))
}

/// The short name written on an agent's lines: `1` for `player 1`, an
/// initial when the agents' initials differ (`A` for Albert), the name
/// otherwise.
pub fn agent_marks<K: KripkeLike + ?Sized>(fig: &K) -> Vec<String> {
    let names = fig.agents();
    let initial = |n: &str| n.chars().next().map(|c| c.to_uppercase().to_string());
    let initials: Vec<Option<String>> = names.iter().map(|n| initial(n)).collect();
    let distinct = {
        let mut seen: Vec<&Option<String>> = initials.iter().collect();
        seen.sort();
        seen.dedup();
        seen.len() == names.len()
    };
    names
        .iter()
        .zip(&initials)
        .map(|(n, i)| match n.strip_prefix("player ") {
            Some(rest) => rest.to_string(),
            None if n.chars().count() <= 3 => n.clone(),
            None if distinct => i.clone().unwrap_or_default(),
            None => n.clone(),
        })
        .collect()
}

/// Where an edge's mark goes: the middle of its curve (loops have none).
pub fn mark_point(lay: &Layout, c: &layout::Curve) -> Point {
    let e = lay.edges[c.edge];
    let (from, to) = (lay.boxes[e.from], lay.boxes[e.to]);
    let start = from.border_towards(c.control);
    let end = to.border_towards(c.control);
    layout::quad(start, c.control, end, 0.5)
}

/// The classes drawn as rounded rectangles, under everything else: the
/// agent's colour and dash, a faint fill, the agent's name on the bottom
/// side.
fn regions<K: KripkeLike + ?Sized>(
    out: &mut String,
    fig: &K,
    lay: &Layout,
    look: &Look,
    small: f64,
) {
    let marks = agent_marks(fig);
    for r in &lay.regions {
        let (colour, _) = look.agent(r.agent);
        let members: Vec<String> = r.members.iter().map(|m| m.to_string()).collect();
        let _ = writeln!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{:.1}" fill="{colour}" fill-opacity="0.07" stroke="{colour}" stroke-width="{}"{} class="region" data-agent="{}" data-nodes="{}"><title>{}</title></rect>"#,
            r.corner.x,
            r.corner.y,
            r.w,
            r.h,
            r.radius,
            look.line_width(),
            dash_attr(look, r.agent),
            r.agent,
            members.join(" "),
            esc(&fig.agents()[r.agent])
        );
        agent_mark(out, r.mark(), small, colour, &marks[r.agent]);
    }
}

fn edges<K: KripkeLike + ?Sized>(out: &mut String, fig: &K, lay: &Layout, look: &Look, small: f64) {
    let marks = agent_marks(fig);
    for c in &lay.curves {
        let e = lay.edges[c.edge];
        let (colour, _) = look.agent(e.agent);
        let (from, to) = (lay.boxes[e.from], lay.boxes[e.to]);
        let d = if e.from == e.to {
            // A loop from the top edge to the right edge, round the corner.
            let start = Point {
                x: from.centre.x + from.w / 4.0,
                y: from.centre.y - from.h / 2.0,
            };
            let end = Point {
                x: from.centre.x + from.w / 2.0,
                y: from.centre.y - from.h / 4.0,
            };
            format!(
                "M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
                start.x, start.y, start.x, c.control.y, c.control.x, end.y, end.x, end.y
            )
        } else {
            let start = from.border_towards(c.control);
            let end = to.border_towards(c.control);
            format!(
                "M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}",
                start.x, start.y, c.control.x, c.control.y, end.x, end.y
            )
        };
        let marker = if fig.directed() {
            format!(r#" marker-end="url(#arrow{})""#, e.agent)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="{}"{}{marker}><title>{}</title></path>"#,
            look.line_width(),
            dash_attr(look, e.agent),
            esc(&fig.agents()[e.agent])
        );
        // The agent's name on its line, so colour is not all that tells
        // the agents apart.
        if e.from == e.to {
            continue;
        }
        agent_mark(out, mark_point(lay, c), small, colour, &marks[e.agent]);
    }
}

fn nodes<K: KripkeLike + ?Sized>(
    out: &mut String,
    fig: &K,
    lay: &Layout,
    font: f64,
    (id_size, hall): (f64, bool),
) {
    for (i, (node, b)) in fig.nodes().iter().zip(&lay.boxes).enumerate() {
        let actual = fig.actual() == Some(i);
        let marked = fig.marked().contains(&i);
        let (x, y) = (b.centre.x - b.w / 2.0, b.centre.y - b.h / 2.0);
        let class = if marked {
            r#" class="highlighted""#
        } else {
            ""
        };
        // The group's id is the node's key (`w3`, unique), `data-world` the
        // engine's world (what the lecture view asks about on a click),
        // the title the world's name as `worlds` and `why` print it.
        let world = node
            .world
            .map_or_else(String::new, |w| format!(r#" data-world="{w}""#));
        let _ = writeln!(
            out,
            r#"<g id="{}"{class}{world}><title>{}</title>"#,
            esc(&node.key()),
            esc(&node.id)
        );
        let _ = writeln!(
            out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{:.1}" height="{:.1}" fill="{}" stroke="black" stroke-width="{}"/>"#,
            b.w,
            b.h,
            if marked { MARKED_FILL } else { "white" },
            if actual { 2 } else { 1 }
        );
        if actual {
            let g = 3.5;
            let _ = writeln!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="black" stroke-width="2"/>"#,
                x + g,
                y + g,
                b.w - 2.0 * g,
                b.h - 2.0 * g
            );
        }
        // The hall's figure leaves out a name its box already says (a
        // world of variables, `month=5,day=15`; a card's place, `at 2`).
        let label: String = node
            .lines
            .iter()
            .flatten()
            .map(|s| s.text.as_str())
            .collect();
        let said = node.world.is_none()
            || node.id.contains('=') && node.id.split(',').all(|part| label.contains(part));
        if !(hall && said) {
            let _ = writeln!(
                out,
                r##"<text x="{x:.1}" y="{:.1}" font-size="{:.1}" fill="#555555">{}</text>"##,
                y - font * 0.3,
                id_size,
                esc(&node.id)
            );
        }
        let weight = if actual { r#" font-weight="bold""# } else { "" };
        for (l, line) in node.lines.iter().enumerate() {
            let baseline = y + PAD + font * LINE_HEIGHT * (l as f64 + 0.78);
            let _ = write!(
                out,
                r#"<text x="{:.1}" y="{baseline:.1}" font-size="{font}"{weight} xml:space="preserve">"#,
                x + PAD
            );
            for seg in line {
                if seg.common {
                    let _ = write!(
                        out,
                        r#"<tspan text-decoration="underline">{}</tspan>"#,
                        esc(&seg.text)
                    );
                } else {
                    out.push_str(&esc(&seg.text));
                }
            }
            out.push_str("</text>\n");
        }
        out.push_str("</g>\n");
    }
}

/// One legend row: an agent's line sample, or a note.
pub struct LegendRow {
    /// The agent whose line is shown, if any.
    pub agent: Option<usize>,
    /// The text.
    pub text: String,
    /// Drawn in italics (the caption).
    pub italic: bool,
}

/// The legend's rows: the caption, each drawn agent, then the conventions
/// (`regions`: some classes are drawn as rounded boxes).
pub fn legend_rows<K: KripkeLike + ?Sized>(fig: &K, _look: &Look, regions: bool) -> Vec<LegendRow> {
    let note = |text: &str| LegendRow {
        agent: None,
        text: text.to_string(),
        italic: false,
    };
    let mut rows = vec![LegendRow {
        agent: None,
        text: fig.caption().to_string(),
        italic: true,
    }];
    rows.extend(fig.notes().into_iter().map(|text| LegendRow {
        agent: None,
        text,
        italic: true,
    }));
    for a in used_agents(fig) {
        rows.push(LegendRow {
            agent: Some(a),
            text: fig.agents()[a].clone(),
            italic: false,
        });
    }
    if let Some(text) = fig.marked_note() {
        rows.push(LegendRow {
            agent: None,
            text: text.to_string(),
            italic: true,
        });
    }
    rows.push(note("double border: the actual world"));
    rows.push(note("underlined: common knowledge"));
    if !fig.complete() && !fig.edges().is_empty() {
        rows.push(note(if regions {
            "an agent cannot tell apart the worlds its lines connect or its rounded box holds"
        } else {
            "an agent cannot tell apart the worlds its lines connect"
        }));
    }
    rows
}

fn draw_legend(out: &mut String, rows: &[LegendRow], top: f64, size: f64, look: &Look) {
    for (i, row) in rows.iter().enumerate() {
        let y = top + i as f64 * size * 1.5 + size;
        let mut x = MARGIN;
        if let Some(a) = row.agent {
            let (colour, _) = look.agent(a);
            let _ = writeln!(
                out,
                r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{}"{}/>"#,
                y - size * 0.35,
                x + 3.0 * size,
                y - size * 0.35,
                look.line_width(),
                dash_attr(look, a)
            );
            x += 3.5 * size;
        }
        let style = if row.italic {
            r#" font-style="italic""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}"{style}>{}</text>"#,
            esc(&row.text)
        );
    }
}

/// An agent's mark (its number) at `at`, in `colour` on a white halo, on a
/// line or a region's border.
fn agent_mark(out: &mut String, at: Point, small: f64, colour: &str, mark: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="{small:.1}" text-anchor="middle" fill="{colour}" stroke="white" stroke-width="3" paint-order="stroke" class="agent-mark">{}</text>"#,
        at.x,
        at.y + small * 0.35,
        esc(mark)
    );
}
