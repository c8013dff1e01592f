//! Renders a figure in the format its file name asks for, as bytes; it
//! writes no file (that is [`super::files`]).
//!
//! DOT text is always available. SVG, PNG and PDF are drawn by the system
//! `dot` program (the graphviz package) when it is installed; without it,
//! SVG of a small figure is drawn by a pure-Rust layout (layout-rs), which
//! is slow on dense graphs and so capped at [`FALLBACK_MAX_NODES`] nodes and
//! [`FALLBACK_MAX_EDGES`] edges. PNG and PDF need `dot`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;

use super::{agent_style, dot, FigureError, KripkeLike};

/// The most nodes the pure-Rust fallback lays out.
pub const FALLBACK_MAX_NODES: usize = 24;
/// The most edges the pure-Rust fallback lays out.
pub const FALLBACK_MAX_EDGES: usize = 120;

/// A figure's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// DOT text (`.dot`, `.gv`).
    Dot,
    /// SVG (`.svg`).
    Svg,
    /// PNG (`.png`), needs `dot`.
    Png,
    /// PDF (`.pdf`), needs `dot`.
    Pdf,
}

impl Format {
    /// The format a file name's extension names.
    pub fn from_path(path: &Path) -> Result<Format, FigureError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "dot" | "gv" => Ok(Format::Dot),
            "svg" => Ok(Format::Svg),
            "png" => Ok(Format::Png),
            "pdf" => Ok(Format::Pdf),
            _ => Err(FigureError::UnknownFormat(path.display().to_string())),
        }
    }

    fn dot_flag(self) -> &'static str {
        match self {
            Format::Dot => "-Tdot",
            Format::Svg => "-Tsvg",
            Format::Png => "-Tpng",
            Format::Pdf => "-Tpdf",
        }
    }
}

/// Who draws images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renderer {
    /// `dot` when it is installed, the fallback otherwise.
    Auto,
    /// Only the system `dot` program.
    Graphviz,
    /// Only the pure-Rust fallback (SVG of small figures).
    Builtin,
}

/// Whether the system `dot` program can be run.
pub fn graphviz_available() -> bool {
    Command::new("dot")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The bytes of `fig` in `format`.
pub fn render<K: KripkeLike + ?Sized>(
    fig: &K,
    format: Format,
    renderer: Renderer,
) -> Result<Vec<u8>, FigureError> {
    let text = dot::to_dot(fig);
    if format == Format::Dot {
        return Ok(text.into_bytes());
    }
    let use_dot = match renderer {
        Renderer::Builtin => false,
        Renderer::Graphviz => true,
        Renderer::Auto => graphviz_available(),
    };
    if use_dot {
        return run_dot(&text, format);
    }
    if format != Format::Svg {
        let name = format!("{format:?}").to_uppercase();
        return Err(FigureError::NeedsGraphviz {
            why: format!("{name} output"),
        });
    }
    builtin_svg(fig)
}

fn run_dot(text: &str, format: Format) -> Result<Vec<u8>, FigureError> {
    let mut child = Command::new("dot")
        .arg(format.dot_flag())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|_| FigureError::NeedsGraphviz {
            why: "rendering with graphviz".into(),
        })?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = text.to_string();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| FigureError::Graphviz(e.to_string()))?;
    let _ = feeder.join();
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(FigureError::Graphviz(msg));
    }
    Ok(out.stdout)
}

/// SVG drawn by layout-rs: the same nodes, colours and line styles; common
/// knowledge underlined with combining low lines (U+0332); the actual world
/// bold and shaded.
fn builtin_svg<K: KripkeLike + ?Sized>(fig: &K) -> Result<Vec<u8>, FigureError> {
    let (nodes, edges) = (fig.nodes().len(), fig.edges().len());
    if nodes > FALLBACK_MAX_NODES || edges > FALLBACK_MAX_EDGES {
        return Err(FigureError::NeedsGraphviz {
            why: format!(
                "an image of {nodes} worlds and {edges} edges (the built-in layout stops at {FALLBACK_MAX_NODES} and {FALLBACK_MAX_EDGES})"
            ),
        });
    }
    let mut graph = VisualGraph::new(Orientation::TopToBottom);
    let handles: Vec<_> = fig
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let actual = fig.actual() == Some(i);
            let mut label = format!("{}\n", n.id);
            label.push_str(&underlined_label(n));
            let (width, fill) = if actual { (3, "#FFF3C4") } else { (1, "white") };
            let look = StyleAttr::new(Color::fast("black"), width, Some(Color::fast(fill)), 0, 14);
            let shape = ShapeKind::Box(label);
            let size = layout::std_shapes::render::get_shape_size(
                Orientation::LeftToRight,
                &shape,
                14,
                false,
            );
            graph.add_node(Element::create(shape, look, Orientation::LeftToRight, size))
        })
        .collect();
    for e in fig.edges() {
        let (colour, style) = agent_style(e.agent);
        let end = if fig.directed() {
            LineEndKind::Arrow
        } else {
            LineEndKind::None
        };
        let line = if style == "solid" {
            LineStyleKind::Normal
        } else {
            LineStyleKind::Dashed
        };
        let look = StyleAttr::new(Color::fast(colour), 2, None, 0, 12);
        let arrow = Arrow::new(LineEndKind::None, end, line, "", &look, &None, &None);
        graph.add_edge(arrow, handles[e.from], handles[e.to]);
    }
    let mut svg = SVGWriter::new();
    graph.do_it(false, false, false, &mut svg);
    Ok(svg.finalize().into_bytes())
}

/// A node's label with its common-knowledge parts underlined by U+0332.
fn underlined_label(node: &super::Node) -> String {
    let lines: Vec<String> = node
        .lines
        .iter()
        .map(|line| {
            line.iter()
                .map(|s| {
                    if s.common {
                        s.text.chars().flat_map(|c| [c, '\u{332}']).collect()
                    } else {
                        s.text.clone()
                    }
                })
                .collect()
        })
        .collect();
    lines.join("\n")
}

/// Who renders images: `DEALER_RENDERER=builtin` forces the pure-Rust
/// fallback, `graphviz` the `dot` program; otherwise `dot` when installed.
pub fn renderer_from_env() -> Renderer {
    match std::env::var("DEALER_RENDERER").as_deref() {
        Ok("builtin") => Renderer::Builtin,
        Ok("graphviz") => Renderer::Graphviz,
        _ => Renderer::Auto,
    }
}
