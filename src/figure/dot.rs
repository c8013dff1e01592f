//! Writes a [`KripkeLike`] figure as DOT, built with graphviz-rust's
//! structures and printer. graphviz-rust prints identifiers as given, so
//! label text is escaped here: [`html`] for HTML-like labels, [`quoted`] for
//! double-quoted strings.

use graphviz_rust::dot_structures::{
    Attribute, Edge as DotEdge, EdgeTy, Graph, GraphAttributes, Id, Node as DotNode, NodeId, Stmt,
    Vertex,
};
use graphviz_rust::printer::{DotPrinter, PrinterContext};

use super::look::Look;
use super::{KripkeLike, Node, MARKED_FILL};

/// The font of every text in a figure.
const FONT: &str = "Helvetica";

/// Escapes text for an HTML-like DOT label (`<...>`).
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("<BR/>"),
            c => out.push(c),
        }
    }
    out
}

/// A double-quoted DOT string with `"` and `\` escaped.
pub fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn attr(key: &str, value: &str) -> Attribute {
    Attribute(Id::Plain(key.into()), Id::Escaped(quoted(value)))
}

fn html_attr(key: &str, value: String) -> Attribute {
    Attribute(Id::Plain(key.into()), Id::Html(format!("<{value}>")))
}

/// The DOT text of a figure, in the default look.
pub fn to_dot<K: KripkeLike + ?Sized>(fig: &K) -> String {
    to_dot_with(fig, &Look::default())
}

/// The DOT text of a figure drawn in `look`.
pub fn to_dot_with<K: KripkeLike + ?Sized>(fig: &K, look: &Look) -> String {
    let font_size = look.text_size().to_string();
    let pen = look.line_width().to_string();
    let mut stmts = vec![
        Stmt::GAttribute(GraphAttributes::Graph(vec![
            attr("fontname", FONT),
            attr("nodesep", "0.5"),
            attr("ranksep", "0.9"),
            attr("pad", "0.25"),
        ])),
        Stmt::GAttribute(GraphAttributes::Node(vec![
            attr("shape", "box"),
            attr("fontname", FONT),
            attr("fontsize", &font_size),
            attr("margin", "0.15,0.08"),
        ])),
        Stmt::GAttribute(GraphAttributes::Edge(vec![attr("penwidth", &pen)])),
    ];
    for (i, node) in fig.nodes().iter().enumerate() {
        let mut dot_node = world_node(node, fig.actual() == Some(i));
        if fig.marked().contains(&i) {
            dot_node.attributes.extend([
                attr("style", "filled"),
                attr("fillcolor", MARKED_FILL),
                attr("class", "highlighted"),
            ]);
        }
        stmts.push(Stmt::Node(dot_node));
    }
    for e in fig.edges() {
        let (colour, dash) = look.agent(e.agent);
        let style = dash.dot;
        let ty = EdgeTy::Pair(
            vertex(&fig.nodes()[e.from].key()),
            vertex(&fig.nodes()[e.to].key()),
        );
        let mut attributes = vec![attr("color", colour), attr("style", style)];
        attributes.push(attr("tooltip", &fig.agents()[e.agent]));
        stmts.push(Stmt::Edge(DotEdge { ty, attributes }));
    }
    stmts.push(Stmt::Node(legend(fig, look)));
    let id = Id::Plain("kripke".into());
    let graph = if fig.directed() {
        Graph::DiGraph {
            id,
            strict: false,
            stmts,
        }
    } else {
        Graph::Graph {
            id,
            strict: false,
            stmts,
        }
    };
    let mut ctx = PrinterContext::default();
    let mut text = graph.print(&mut ctx);
    text.push('\n');
    text
}

fn vertex(key: &str) -> Vertex {
    Vertex::N(NodeId(node_id(key), None))
}

/// A node's DOT name: plain when it is a DOT identifier (every world's
/// key, `w3`), quoted otherwise.
fn node_id(key: &str) -> Id {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        Id::Plain(key.into())
    } else {
        Id::Escaped(quoted(key))
    }
}

/// A world: its lines left-aligned, common knowledge underlined; the actual
/// world bold with a double border.
fn world_node(node: &Node, actual: bool) -> DotNode {
    let mut label = String::new();
    for line in &node.lines {
        for seg in line {
            let text = html(&seg.text);
            if seg.common {
                label.push_str(&format!("<U>{text}</U>"));
            } else {
                label.push_str(&text);
            }
        }
        label.push_str("<BR ALIGN=\"LEFT\"/>");
    }
    let mut attributes = vec![
        html_attr("label", label),
        attr("xlabel", &node.id),
        attr("tooltip", &node.id),
    ];
    if actual {
        attributes.extend([
            attr("peripheries", "2"),
            attr("penwidth", "2"),
            attr("fontname", &format!("{FONT}-Bold")),
        ]);
    }
    DotNode::new(NodeId(node_id(&node.key()), None), attributes)
}

/// The legend: what is drawn, one line per agent in its colour and style,
/// and how the actual world and common knowledge are marked.
fn legend<K: KripkeLike + ?Sized>(fig: &K, look: &Look) -> DotNode {
    let mut rows = format!(
        "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><I>{}</I></TD></TR>",
        html(fig.caption())
    );
    for note in fig.notes() {
        rows.push_str(&format!(
            "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><I>{}</I></TD></TR>",
            html(&note)
        ));
    }
    let mut agents: Vec<usize> = fig.edges().iter().map(|e| e.agent).collect();
    agents.sort_unstable();
    agents.dedup();
    for a in agents {
        let (colour, dash) = look.agent(a);
        let sample = match dash.dot {
            "dashed" => "- - -",
            "dotted" => "· · · ·",
            _ => "———",
        };
        rows.push_str(&format!(
            "<TR><TD ALIGN=\"LEFT\"><FONT COLOR=\"{colour}\"><B>{sample}</B></FONT></TD><TD ALIGN=\"LEFT\">{}</TD></TR>",
            html(&fig.agents()[a])
        ));
    }
    if let Some(text) = fig.marked_note() {
        rows.push_str(&format!(
            "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\" BGCOLOR=\"{MARKED_FILL}\">{}</TD></TR>",
            html(text)
        ));
    }
    rows.push_str(
        "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\">double border: the actual world</TD></TR>\
         <TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><U>underlined</U>: common knowledge</TD></TR>",
    );
    if !fig.complete() && !fig.edges().is_empty() {
        rows.push_str(
            "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\">an agent cannot tell apart the worlds its lines connect</TD></TR>",
        );
    }
    let label = format!("<TABLE BORDER=\"0\" CELLSPACING=\"2\">{rows}</TABLE>");
    DotNode::new(
        NodeId(Id::Plain("legend".into()), None),
        vec![
            attr("shape", "plaintext"),
            attr("fontsize", &(look.text_size() * 6 / 7).to_string()),
            html_attr("label", label),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_label_text() {
        assert_eq!(html("<8,4> & \"x\""), "&lt;8,4&gt; &amp; &quot;x&quot;");
        assert_eq!(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }
    /// A small figure with node 1 of three shaded.
    fn shaded_figure() -> crate::figure::Figure {
        let node = |id: &str, text: &str| Node {
            id: id.into(),
            world: None,
            lines: vec![vec![crate::figure::Segment::plain(text)]],
        };
        crate::figure::Figure {
            nodes: vec![node("w0", "1: Q"), node("w1", "1: A"), node("w2", "1: <b>")],
            edges: vec![crate::figure::Edge {
                from: 0,
                to: 1,
                agent: 0,
            }],
            actual: Some(0),
            directed: false,
            agents: vec!["player 1".into()],
            shown: vec![0],
            caption: "test".into(),
            complete: true,
            marked: vec![1],
            marked_note: Some("shaded: the worlds player 1 considers possible".into()),
            projected: None,
            counts: None,
            shared: None,
        }
    }

    #[test]
    fn shaded_nodes_are_filled_classed_and_explained() {
        let fig = shaded_figure();
        let dot = to_dot(&fig);
        let shaded: Vec<&str> = dot.lines().filter(|l| l.contains("highlighted")).collect();
        assert_eq!(shaded.len(), 1, "{dot}");
        assert!(shaded[0].trim_start().starts_with("w1"), "{dot}");
        assert!(shaded[0].contains(MARKED_FILL) && shaded[0].contains("filled"));
        assert!(dot.contains("shaded: the worlds player 1 considers possible"));
        let svg = crate::figure::svg::to_svg(&fig, &Look::default());
        assert_eq!(svg.matches("class=\"highlighted\"").count(), 1, "{svg}");
        assert!(svg.contains("<g id=\"w1\" class=\"highlighted\"><title>w1</title>"));
        assert_eq!(svg.matches(MARKED_FILL).count(), 1, "{svg}");
        assert!(svg.contains("shaded: the worlds player 1 considers possible"));
        assert!(!svg.contains("<b>"), "labels stay escaped");
        let tikz = crate::figure::tikz::to_tikz(&fig, &Look::default());
        assert_eq!(tikz.matches("fill=marked").count(), 1, "{tikz}");
        // Without a perspective nothing is shaded and the legend says nothing of it.
        let plain = crate::figure::Figure {
            marked: Vec::new(),
            marked_note: None,
            projected: None,
            counts: None,
            ..fig
        };
        assert!(!to_dot(&plain).contains("highlighted"));
        assert!(!crate::figure::svg::to_svg(&plain, &Look::default()).contains("shaded"));
    }
}
