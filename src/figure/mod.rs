//! Kripke models as figures for slides: which worlds and relations to draw,
//! how to label them, and how to write them as DOT ([`dot`]) or render them
//! as images ([`render`]).
//!
//! A [`Figure`] is built from the engine's [`Backend`] and the card
//! [`Table`] (for names) by [`build`]; everything drawn is asked of the
//! model: the worlds reachable from the actual world, each agent's relation,
//! and which cards are common knowledge (by evaluating `C` formulas). The
//! DOT writer and the pure-Rust fallback renderer see a figure only through
//! the small [`KripkeLike`] trait: nodes, edges, the actual node, whether
//! edges are directed.
//!
//! Conventions (the Go Fish report's Figure 1): one line per player, player 1
//! on top, then the non-empty piles; the actual world drawn bold with a double
//! border; one colour (and line style) per agent with a legend; S5 relations
//! as undirected edges drawn once and without reflexive loops; belief
//! relations as arrows, loops included (a missing loop says something);
//! cards that are common knowledge underlined. The name above a world is
//! the one `worlds` and `why` print (given by the session, [`build_named`]:
//! `w3`, a written model's own names, a variable world's values); inside
//! the files a world's node is `w` and the engine's number. Building ([`build`]), DOT ([`dot`]) and
//! rendering ([`render`]) are pure: they return values. [`files`] is the one
//! place that writes a figure to a file, and holds the rule for relative paths.

pub mod build;
pub mod dot;
pub mod files;
pub mod hall;
pub mod layout;
pub mod look;
pub mod render;
pub mod svg;
pub mod tikz;

pub use build::{build, build_named, View, DEFAULT_MAX_NODES};

use num_bigint::BigUint;

/// A node's index in a figure.
pub type NodeIx = usize;

/// A piece of a label line; `common` pieces are common knowledge (underlined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The text.
    pub text: String,
    /// Whether it is common knowledge among all players.
    pub common: bool,
}

impl Segment {
    /// A plain piece of text.
    pub fn plain(text: impl Into<String>) -> Segment {
        Segment {
            text: text.into(),
            common: false,
        }
    }
}

/// One drawn node: a world, or a class of worlds in a projection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The name shown above the box: a world's name as `worlds` and `why`
    /// print it (`w3`, a written model's own `w1` or `w1=w3`, a variable
    /// world's values), or `s0` for a place in a projection.
    pub id: String,
    /// The engine's world the node stands for, when it is one world.
    pub world: Option<crate::engine::WorldId>,
    /// The label, one line per player or pile (or the true propositions).
    pub lines: Vec<Vec<Segment>>,
}

impl Node {
    /// The node's name inside a DOT, TikZ or SVG file: `w` and the
    /// engine's number for a world (unique, and what the lecture view
    /// reads back on a click), else the shown id (`s0`, `actual`).
    pub fn key(&self) -> String {
        match self.world {
            Some(w) => format!("w{w}"),
            None => self.id.clone(),
        }
    }

    /// The label as plain text, lines joined by `\n`.
    pub fn plain_label(&self) -> String {
        let lines: Vec<String> = self
            .lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect();
        lines.join("\n")
    }
}

/// One drawn edge: `from` and `to` are related by `agent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    /// The source node.
    pub from: NodeIx,
    /// The target node.
    pub to: NodeIx,
    /// The agent (an index into [`KripkeLike::agents`]).
    pub agent: usize,
}

/// What a figure shows, for the DOT writer and the renderers (SMCDEL's
/// `KripkeLike`).
pub trait KripkeLike {
    /// The drawn nodes.
    fn nodes(&self) -> &[Node];
    /// The drawn edges (S5: each unordered pair once, no loops).
    fn edges(&self) -> &[Edge];
    /// The actual node, when it is drawn.
    fn actual(&self) -> Option<NodeIx>;
    /// Whether edges are arrows (beliefs) rather than lines (S5).
    fn directed(&self) -> bool;
    /// The agents whose relations may be drawn, by name, in legend order.
    fn agents(&self) -> &[String];
    /// A caption for the legend (what the figure shows).
    fn caption(&self) -> &str;
    /// Whether every related pair is drawn; when not, an agent's S5 class is
    /// every node its lines connect.
    fn complete(&self) -> bool {
        true
    }
    /// The nodes drawn shaded: the worlds a perspective considers possible
    /// (see [`View::highlight`]).
    fn marked(&self) -> &[NodeIx] {
        &[]
    }
    /// What the shading means, for the legend, when nodes are shaded.
    fn marked_note(&self) -> Option<&str> {
        None
    }
    /// More legend lines (the model's counts, when the figure is a
    /// projection of a model too large to draw).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// What every drawn world has in common, taken out of the labels for
    /// a slide (see [`Shared`]).
    fn shared(&self) -> Option<&Shared> {
        None
    }
}

/// The fill of shaded nodes: light amber, under black text.
pub const MARKED_FILL: &str = "#FFD966";

/// A figure: a view of one model, ready to be written as DOT or rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// The drawn nodes.
    pub nodes: Vec<Node>,
    /// The drawn edges.
    pub edges: Vec<Edge>,
    /// The actual node.
    pub actual: Option<NodeIx>,
    /// Whether edges are arrows.
    pub directed: bool,
    /// Agent names (`player 1`, `Bruno`, `a`), indexed like the model's agents.
    pub agents: Vec<String>,
    /// Which agents' relations are drawn (the legend lists only these).
    pub shown: Vec<usize>,
    /// What the figure shows, e.g. `where 6S is`.
    pub caption: String,
    /// Whether every related pair is drawn (belief models, or S5 drawn
    /// `complete`); otherwise each S5 class is a chain of lines.
    pub complete: bool,
    /// The nodes drawn shaded (the worlds a perspective considers possible).
    pub marked: Vec<NodeIx>,
    /// What the shading means, when [`View::highlight`] asked for it.
    pub marked_note: Option<String>,
    /// Set when the view asked for the whole model ([`View::fit`]) and it
    /// was too large to draw: the card this per-card projection shows.
    pub projected: Option<Box<Projected>>,
    /// The whole model's counts, given in the legend when the figure shows
    /// less than the whole model because it is too large.
    pub counts: Option<Box<Counts>>,
    /// The cards every drawn world has in the same place, and the labels
    /// without them, for a slide whose full labels would be too small.
    pub shared: Option<Box<Shared>>,
}

/// What every drawn world of a figure has in common, taken out of the
/// boxes: the cards each place holds in every world (a whole line when
/// it is the same in all of them), said once in the legend. A slide
/// (`--for-slides`) draws these labels when the full ones would come out
/// under 9 pt; nothing else uses them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shared {
    /// The legend's line naming what the boxes leave out.
    pub note: String,
    /// Each node's label lines without the shared cards, in node order.
    pub lines: Vec<Vec<Vec<Segment>>>,
    /// The places taken out, by location, with the cards each holds in
    /// every drawn world, per kind.
    pub places: Vec<(usize, Vec<u32>)>,
}

impl Shared {
    /// `nodes` with their labels cut to what is not shared.
    pub fn nodes(&self, nodes: &[Node]) -> Vec<Node> {
        nodes
            .iter()
            .zip(&self.lines)
            .map(|(n, lines)| Node {
                lines: lines.clone(),
                ..n.clone()
            })
            .collect()
    }
}

/// The card a figure was projected on because the model is too large.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Projected {
    /// The card kind.
    pub card: crate::engine::Kind,
    /// Its name (`6S`).
    pub name: String,
}

/// A model's size, as the engine counts it: its worlds and how many each
/// agent considers possible in the actual world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// The worlds (reachable from the actual one).
    pub worlds: BigUint,
    /// For each agent, the worlds it considers possible.
    pub considers: Vec<BigUint>,
    /// Whether these count worlds (not a symbolic structure's states,
    /// an upper bound).
    pub exact: bool,
}

impl Counts {
    /// The counts of `model`.
    pub fn of(model: &dyn crate::engine::Backend) -> Counts {
        Counts {
            worlds: model.world_count_big(),
            considers: (0..model.agents())
                .map(|a| model.considers_big(a))
                .collect(),
            exact: model.counts_exact(),
        }
    }
}

/// `3153150` as `3,153,150`.
pub fn grouped(n: &BigUint) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Figure {
    /// The legend's lines about what the figure leaves out: the whole
    /// model's counts when it was too large to draw.
    pub fn count_notes(&self) -> Vec<String> {
        let Some(c) = &self.counts else {
            return Vec::new();
        };
        let what = if c.exact {
            "worlds"
        } else {
            "states (at most that many worlds)"
        };
        let mut out = vec![match &self.projected {
            Some(p) => format!(
                "a projection: the model has {} {what}, too many to draw; each box is one place of {}",
                grouped(&c.worlds),
                p.name
            ),
            None => format!("the model has {} {what}, too many to draw", grouped(&c.worlds)),
        }];
        for (a, n) in c.considers.iter().enumerate() {
            let name = self.agents.get(a).map_or("?", String::as_str);
            out.push(format!("{name} considers {} possible", grouped(n)));
        }
        out
    }
}

impl KripkeLike for Figure {
    fn nodes(&self) -> &[Node] {
        &self.nodes
    }
    fn edges(&self) -> &[Edge] {
        &self.edges
    }
    fn actual(&self) -> Option<NodeIx> {
        self.actual
    }
    fn directed(&self) -> bool {
        self.directed
    }
    fn agents(&self) -> &[String] {
        &self.agents
    }
    fn caption(&self) -> &str {
        &self.caption
    }
    fn complete(&self) -> bool {
        self.complete
    }
    fn marked(&self) -> &[NodeIx] {
        &self.marked
    }
    fn marked_note(&self) -> Option<&str> {
        self.marked_note.as_deref()
    }
    fn notes(&self) -> Vec<String> {
        self.count_notes()
    }
    fn shared(&self) -> Option<&Shared> {
        self.shared.as_deref()
    }
}

/// Colour and Graphviz line style of agent `i` in the reports' theme (see
/// [`look::Look::agent`] for every theme and writer).
pub fn agent_style(i: usize) -> (&'static str, &'static str) {
    let (colour, dash) = look::Look::default().agent(i);
    (colour, dash.dot)
}

/// What can go wrong while building or rendering a figure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FigureError {
    /// More nodes would be drawn than the limit allows.
    TooLarge {
        /// What would be drawn: `worlds` or `positions`.
        what: &'static str,
        /// How many.
        count: u128,
        /// The limit.
        limit: usize,
    },
    /// The file name's extension is not a known format.
    UnknownFormat(String),
    /// The format needs the `dot` program, which is not installed.
    NeedsGraphviz {
        /// The format or the reason.
        why: String,
    },
    /// `dot` failed.
    Graphviz(String),
    /// The file could not be written.
    Io(String),
    /// The engine refused a question.
    Engine(String),
}

impl std::fmt::Display for FigureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FigureError::TooLarge { what, count, limit } => write!(
                f,
                "the figure would draw {count} {what}, more than the limit of {limit} nodes per figure (in any format, .dot included)"
            ),
            FigureError::UnknownFormat(ext) => write!(
                f,
                "cannot tell the figure's format from `{ext}`: use .dot, .svg, .png, .pdf or .tex"
            ),
            FigureError::NeedsGraphviz { why } => write!(
                f,
                "{why} needs the `dot` program, which is not installed (install the graphviz package, e.g. `apt-get install graphviz`)"
            ),
            FigureError::Graphviz(msg) => write!(f, "`dot` failed: {msg}"),
            FigureError::Io(msg) => write!(f, "{msg}"),
            FigureError::Engine(msg) => write!(f, "{msg}"),
        }
    }
}

impl std::error::Error for FigureError {}

impl FigureError {
    /// A stable kebab-case code for diagnostics.
    pub fn code(&self) -> &'static str {
        match self {
            FigureError::TooLarge { .. } => "figure-too-large",
            FigureError::UnknownFormat(_) => "figure-format",
            FigureError::NeedsGraphviz { .. } => "needs-graphviz",
            FigureError::Graphviz(_) => "graphviz-failed",
            FigureError::Io(_) => "cannot-write",
            FigureError::Engine(_) => "engine",
        }
    }

    /// What to do about it, when there is something to say.
    pub fn help(&self) -> Option<String> {
        match self {
            FigureError::TooLarge { count, .. } => Some(format!(
                "raise the limit with `limit {count}` in the export statement, `--max-nodes {count}` on the command line or `:limit {count}` in the REPL; or draw one card's sub-model (`for 6S`) or one player's view (`only 1`)"
            )),
            FigureError::NeedsGraphviz { .. } => {
                Some("or export `.dot` (always available) or `.svg` of a smaller figure".into())
            }
            _ => None,
        }
    }
}
