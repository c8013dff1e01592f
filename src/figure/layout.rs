//! Where the built-in writers (SVG and TikZ) put a figure's nodes and how
//! they bend its edges, in points, y growing downwards.
//!
//! Up to eight nodes take the best of a few shapes a lecturer draws (a
//! square, a cube, grids; see [`SEARCHED`]); larger figures whose worlds
//! two agents' classes tell apart are a table with one agent's classes as
//! rows and the other's as columns (Cheryl's months and days); others sit
//! on a circle (one row for two nodes) whose radius keeps neighbouring
//! boxes apart. An agent's classes of more than two worlds are rounded
//! rectangles ([`Region`]) when each holds no other world; other classes
//! are chains of lines. Every edge is a quadratic curve: edges between
//! the same two nodes are bent apart so none hides another, and an edge that
//! would cross a third node's box is bent further until it clears it. The
//! drawing is then moved so it starts at the margin: no canvas is wasted.

use super::{Edge, KripkeLike};

/// The margin around the drawing, in points.
pub const MARGIN: f64 = 12.0;
/// The width of one character of the monospaced label font, per point of size.
pub const CHAR_WIDTH: f64 = 0.6;
/// The height of a label line, per point of size.
pub const LINE_HEIGHT: f64 = 1.3;
/// The padding inside a node's box, in points.
pub const PAD: f64 = 6.0;

/// A point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Rightwards.
    pub x: f64,
    /// Downwards.
    pub y: f64,
}

/// A node's box: its centre and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Boxed {
    /// The centre.
    pub centre: Point,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Boxed {
    fn contains(&self, p: Point, grow: f64) -> bool {
        (p.x - self.centre.x).abs() <= self.w / 2.0 + grow
            && (p.y - self.centre.y).abs() <= self.h / 2.0 + grow
    }

    /// Where the segment from the centre towards `p` leaves the box.
    pub fn border_towards(&self, p: Point) -> Point {
        let (dx, dy) = (p.x - self.centre.x, p.y - self.centre.y);
        if dx == 0.0 && dy == 0.0 {
            return self.centre;
        }
        let sx = if dx == 0.0 {
            f64::INFINITY
        } else {
            self.w / 2.0 / dx.abs()
        };
        let sy = if dy == 0.0 {
            f64::INFINITY
        } else {
            self.h / 2.0 / dy.abs()
        };
        let s = sx.min(sy).min(1.0);
        Point {
            x: self.centre.x + dx * s,
            y: self.centre.y + dy * s,
        }
    }
}

/// One laid-out edge: a quadratic curve from `from`'s box to `to`'s through
/// the control point `control` (a loop, for a reflexive arrow, has
/// `from == to`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    /// The edge's index in [`Layout::edges`].
    pub edge: usize,
    /// The control point.
    pub control: Point,
    /// The perpendicular offset of the control point from the chord's
    /// middle (positive to the left of the direction from → to).
    pub bend: f64,
}

/// An agent's class drawn as a rounded rectangle round its worlds (their
/// boxes and the names above them), which holds no other world.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    /// The agent.
    pub agent: usize,
    /// The class's nodes, ascending.
    pub members: Vec<usize>,
    /// The rectangle's top left corner.
    pub corner: Point,
    /// Its width.
    pub w: f64,
    /// Its height.
    pub h: f64,
    /// The radius of its rounded corners.
    pub radius: f64,
}

impl Region {
    /// Whether `b` (a box, with `above` points of name over it) meets the
    /// rectangle.
    pub fn meets(&self, b: &Boxed, above: f64) -> bool {
        b.centre.x + b.w / 2.0 > self.corner.x
            && b.centre.x - b.w / 2.0 < self.corner.x + self.w
            && b.centre.y + b.h / 2.0 > self.corner.y
            && b.centre.y - b.h / 2.0 - above < self.corner.y + self.h
    }

    /// Whether `b` (with `above` points of name over it) lies inside.
    pub fn holds(&self, b: &Boxed, above: f64) -> bool {
        b.centre.x - b.w / 2.0 >= self.corner.x
            && b.centre.x + b.w / 2.0 <= self.corner.x + self.w
            && b.centre.y - b.h / 2.0 - above >= self.corner.y
            && b.centre.y + b.h / 2.0 <= self.corner.y + self.h
    }

    /// Where the agent's name goes: the middle of the bottom side.
    pub fn mark(&self) -> Point {
        Point {
            x: self.corner.x + self.w / 2.0,
            y: self.corner.y + self.h,
        }
    }
}

/// The room a world's name takes above its box, per point of label size.
pub const NAME_ROOM: f64 = 1.0;

/// A figure laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// One box per node.
    pub boxes: Vec<Boxed>,
    /// The edges drawn: the figure's own, except that an S5 class drawn
    /// as a chain of lines is chained in the order that suits the places
    /// of its worlds (the same classes, other lines).
    pub edges: Vec<Edge>,
    /// One curve per drawn edge, in the order of `edges`.
    pub curves: Vec<Curve>,
    /// The classes of more than two worlds drawn as a rounded rectangle
    /// round their worlds instead of lines.
    pub regions: Vec<Region>,
    /// The drawing's width and height (margins included, legend excluded).
    pub width: f64,
    /// See `width`.
    pub height: f64,
}

impl Layout {
    /// How many pairs of drawn lines cross: lines between worlds of which
    /// neither pair shares a world, each line followed along its curve.
    pub fn crossings(&self) -> usize {
        type Line = (usize, usize, Vec<Point>, (f64, f64, f64, f64));
        let lines: Vec<Line> = self
            .curves
            .iter()
            .filter_map(|c| {
                let e = self.edges[c.edge];
                if e.from == e.to {
                    return None;
                }
                let (a, b) = (self.boxes[e.from], self.boxes[e.to]);
                let (start, end) = (a.border_towards(c.control), b.border_towards(c.control));
                let points: Vec<Point> = (0..=24)
                    .map(|i| quad(start, c.control, end, f64::from(i) / 24.0))
                    .collect();
                let bounds = points.iter().fold(
                    (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
                    |(x0, y0, x1, y1), p: &Point| {
                        (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y))
                    },
                );
                Some((e.from, e.to, points, bounds))
            })
            .collect();
        let mut count = 0;
        for (i, (a, b, p, r)) in lines.iter().enumerate() {
            for (c, d, q, t) in &lines[i + 1..] {
                if a == c || a == d || b == c || b == d {
                    continue;
                }
                if r.2 < t.0 || t.2 < r.0 || r.3 < t.1 || t.3 < r.1 {
                    continue;
                }
                let hit = p
                    .windows(2)
                    .any(|s| q.windows(2).any(|t| segments_cross(s[0], s[1], t[0], t[1])));
                count += usize::from(hit);
            }
        }
        count
    }
}

/// The size of a node's box for a label of `lines` (character counts) at
/// `font` points.
pub fn box_size(lines: &[usize], font: f64) -> (f64, f64) {
    let widest = lines.iter().copied().max().unwrap_or(1).max(2) as f64;
    let w = widest * font * CHAR_WIDTH + 2.0 * PAD;
    let h = lines.len().max(1) as f64 * font * LINE_HEIGHT + 2.0 * PAD;
    (w, h)
}

/// Where a figure is going when it must fit a frame: a slide's picture of
/// `w` × `h` points (legend excluded) is scaled down to fit it, so the
/// shape that fits it at the largest scale is tried first, and worlds sit
/// closer together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The frame's width, in points.
    pub w: f64,
    /// The frame's height, in points.
    pub h: f64,
    /// A screen to fill (the lecture hall's figure): more than four
    /// worlds on a circle sit on an ellipse of the frame's shape instead.
    pub fill: bool,
    /// How many times the usual room between boxes to leave (1 for a
    /// slide); more lets many lines pass between the boxes instead of
    /// bending far round them (the hall's figure tries it when its lines
    /// bend far).
    pub room: f64,
}

/// Lays out `fig` with labels at `font` points.
pub fn layout<K: KripkeLike + ?Sized>(fig: &K, font: f64) -> Layout {
    layout_in(fig, font, None)
}

/// Lays out `fig` with labels at `font` points, to fit `frame` when given.
pub fn layout_in<K: KripkeLike + ?Sized>(fig: &K, font: f64, frame: Option<Frame>) -> Layout {
    let sizes: Vec<(f64, f64)> = fig
        .nodes()
        .iter()
        .map(|n| {
            let counts: Vec<usize> = n
                .lines
                .iter()
                .map(|l| l.iter().map(|s| s.text.chars().count()).sum())
                .collect();
            box_size(&counts, font)
        })
        .collect();
    let (centres, edges, classes) = arrange(fig, &sizes, font, frame);
    let mut boxes: Vec<Boxed> = centres
        .iter()
        .zip(&sizes)
        .map(|(&centre, &(w, h))| Boxed { centre, w, h })
        .collect();
    let ranks = region_ranks(fig);
    let mut regions: Vec<Region> = classes
        .into_iter()
        .map(|(agent, members)| {
            let rank = ranks.iter().position(|&a| a == agent).unwrap_or(0);
            region_around(agent, members, &centres, &sizes, font, rank)
        })
        .collect();
    let mut curves = bend_edges(&edges, &boxes, font);
    let (width, height) = fit(&mut boxes, &edges, &mut curves, &mut regions, font);
    Layout {
        boxes,
        edges,
        curves,
        regions,
        width,
        height,
    }
}

/// The agents with a class of more than two worlds, ascending: the ones
/// that may be drawn with regions (each a little further out than the
/// previous one's, so two agents' regions round the same worlds show).
fn region_ranks<K: KripkeLike + ?Sized>(fig: &K) -> Vec<usize> {
    let mut agents: Vec<usize> = chained_classes(fig)
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, m)| m.len() > 2)
        .map(|(a, _)| a)
        .collect();
    agents.dedup();
    agents
}

/// Whether some class of `fig` may be drawn as a region (it has more than
/// two worlds and is drawn as a class, not every pair).
pub fn may_have_regions<K: KripkeLike + ?Sized>(fig: &K) -> bool {
    !region_ranks(fig).is_empty()
}

/// The rounded rectangle round `members` (nodes of `sizes` at `at`) for
/// the agent of region rank `rank`: their boxes and the names above them,
/// and a margin that grows with the rank.
fn region_around(
    agent: usize,
    members: Vec<usize>,
    at: &[Point],
    sizes: &[(f64, f64)],
    font: f64,
    rank: usize,
) -> Region {
    let pad = font * (0.35 + 0.3 * rank as f64);
    let (mut x0, mut y0, mut x1, mut y1) = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    for &m in &members {
        let (p, (w, h)) = (at[m], sizes[m]);
        x0 = x0.min(p.x - w / 2.0);
        x1 = x1.max(p.x + w / 2.0);
        y0 = y0.min(p.y - h / 2.0 - NAME_ROOM * font);
        y1 = y1.max(p.y + h / 2.0);
    }
    Region {
        agent,
        members,
        corner: Point {
            x: x0 - pad,
            y: y0 - pad,
        },
        w: x1 - x0 + 2.0 * pad,
        h: y1 - y0 + 2.0 * pad,
        radius: font * 0.8,
    }
}

/// Whether `agent`'s classes of more than two worlds can all be drawn as
/// regions with the nodes at `at`: each holds no other world (box or name)
/// and none meets another.
fn regions_fit(
    agent: usize,
    rank: usize,
    classes: &[(usize, Vec<usize>)],
    at: &[Point],
    sizes: &[(f64, f64)],
    font: f64,
) -> bool {
    let mut rects: Vec<Region> = Vec::new();
    for (a, members) in classes {
        if *a != agent || members.len() <= 2 {
            continue;
        }
        let r = region_around(agent, members.clone(), at, sizes, font, rank);
        for (j, (&p, &(w, h))) in at.iter().zip(sizes).enumerate() {
            if !members.contains(&j) && r.meets(&Boxed { centre: p, w, h }, NAME_ROOM * font) {
                return false;
            }
        }
        let apart = |q: &Region| {
            r.corner.x + r.w <= q.corner.x
                || q.corner.x + q.w <= r.corner.x
                || r.corner.y + r.h <= q.corner.y
                || q.corner.y + q.h <= r.corner.y
        };
        if !rects.iter().all(apart) {
            return false;
        }
        rects.push(r);
    }
    true
}

/// One line to draw between two nodes for an agent.
type Line = (usize, usize, usize);

/// Each S5 class of more than one node, by agent, when the figure draws
/// classes as chains of lines (not complete, not directed): the layout then
/// chooses the chain through each class (its shortest path over the
/// class's positions), so a class follows the sides of the square or cube
/// it lies on. `None` when every drawn edge is drawn as it is.
fn chained_classes<K: KripkeLike + ?Sized>(fig: &K) -> Option<Vec<(usize, Vec<usize>)>> {
    if fig.directed() || fig.complete() {
        return None;
    }
    let n = fig.nodes().len();
    let mut agents: Vec<usize> = fig.edges().iter().map(|e| e.agent).collect();
    agents.sort_unstable();
    agents.dedup();
    let mut out = Vec::new();
    for agent in agents {
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        }
        for e in fig.edges().iter().filter(|e| e.agent == agent) {
            let (a, b) = (find(&mut root, e.from), find(&mut root, e.to));
            root[a] = b;
        }
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
        for x in 0..n {
            let r = find(&mut root, x);
            members[r].push(x);
        }
        out.extend(
            members
                .into_iter()
                .filter(|m| m.len() > 1)
                .map(|m| (agent, m)),
        );
    }
    Some(out)
}

/// The lines that chain `members` (nodes at `at`) for `agent`: the
/// shortest path through them (tried exhaustively up to five members; for
/// more, their order around their centre, cut at the longest step).
fn chain(agent: usize, members: &[usize], at: &[Point], out: &mut Vec<Line>) {
    let dist = |a: usize, b: usize| {
        let (p, q) = (at[a], at[b]);
        ((p.x - q.x).powi(2) + (p.y - q.y).powi(2)).sqrt()
    };
    let m = members.len();
    if m <= 2 {
        out.extend(members.windows(2).map(|w| (agent, w[0], w[1])));
        return;
    }
    if m <= 5 {
        // On the stack: this runs for every placement tried.
        let mut items = [0usize; 5];
        items[..m].copy_from_slice(members);
        let mut best = (f64::INFINITY, items);
        permutations(&mut items[..m], 0, &mut |p: &[usize]| {
            if p[0] > p[m - 1] {
                return;
            }
            let len: f64 = p.windows(2).map(|w| dist(w[0], w[1])).sum();
            if len < best.0 - 1e-9 {
                best.0 = len;
                best.1[..m].copy_from_slice(p);
            }
        });
        out.extend(best.1[..m].windows(2).map(|w| (agent, w[0], w[1])));
        return;
    }
    let order: Vec<usize> = {
        let c = Point {
            x: members.iter().map(|&i| at[i].x).sum::<f64>() / m as f64,
            y: members.iter().map(|&i| at[i].y).sum::<f64>() / m as f64,
        };
        let mut round = members.to_vec();
        round.sort_by(|&a, &b| {
            let angle = |i: usize| (at[i].y - c.y).atan2(at[i].x - c.x);
            angle(a).total_cmp(&angle(b))
        });
        let cut = (0..m)
            .max_by(|&i, &j| {
                dist(round[i], round[(i + 1) % m]).total_cmp(&dist(round[j], round[(j + 1) % m]))
            })
            .unwrap_or(0);
        round.rotate_left((cut + 1) % m);
        round
    };
    out.extend(order.windows(2).map(|w| (agent, w[0], w[1])));
}

/// The lines drawn with the nodes at `at`, into `lines` (cleared first),
/// and the agents whose classes of more than two worlds are drawn as
/// regions there, into `regioned` (each agent in `ranks` whose classes
/// all fit as regions; the others' classes are chained).
#[allow(clippy::too_many_arguments)]
fn plan(
    classes: &Option<Vec<(usize, Vec<usize>)>>,
    ranks: &[usize],
    edges: &[Edge],
    at: &[Point],
    sizes: &[(f64, f64)],
    font: f64,
    lines: &mut Vec<Line>,
    regioned: &mut Vec<usize>,
) {
    lines.clear();
    regioned.clear();
    match classes {
        Some(classes) => {
            for (rank, &agent) in ranks.iter().enumerate() {
                if regions_fit(agent, rank, classes, at, sizes, font) {
                    regioned.push(agent);
                }
            }
            for (agent, members) in classes {
                if members.len() > 2 && regioned.contains(agent) {
                    continue;
                }
                chain(*agent, members, at, lines);
            }
        }
        None => lines.extend(
            edges
                .iter()
                .filter(|e| e.from != e.to)
                .map(|e| (e.agent, e.from, e.to)),
        ),
    }
}

/// How good a placement is, worst first: lines crossing each other or
/// passing through a box, then how many directions each agent's lines
/// take (a lecturer draws one agent's lines parallel), then their length.
/// `None` as soon as the crossings pass `bound` (the best so far).
fn score(
    lines: &[Line],
    at: &[Point],
    sizes: &[(f64, f64)],
    grow: f64,
    bound: usize,
) -> Option<(usize, usize, f64)> {
    let mut crossings = 0;
    for (i, &(_, a, b)) in lines.iter().enumerate() {
        for &(_, c, d) in &lines[i + 1..] {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            if segments_cross(at[a], at[b], at[c], at[d]) {
                crossings += 1;
            }
        }
        for (j, &(w, h)) in sizes.iter().enumerate() {
            if j != a
                && j != b
                && segment_meets_box(at[a], at[b], at[j], w / 2.0 + grow, h / 2.0 + grow)
            {
                crossings += 1;
            }
        }
        if crossings > bound {
            return None;
        }
    }
    let mut directions: Vec<(usize, i64)> = lines
        .iter()
        .map(|&(agent, a, b)| {
            let angle = (at[b].y - at[a].y).atan2(at[b].x - at[a].x).to_degrees();
            (agent, (angle.rem_euclid(180.0) / 2.0).round() as i64 % 90)
        })
        .collect();
    directions.sort_unstable();
    directions.dedup();
    let length = lines
        .iter()
        .map(|&(_, a, b)| ((at[a].x - at[b].x).powi(2) + (at[a].y - at[b].y).powi(2)).sqrt())
        .sum();
    Some((crossings, directions.len(), length))
}

/// Whether segments p-q and r-s cross at a point inside both.
pub fn segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool {
    let side = |a: Point, b: Point, c: Point| (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    side(r, s, p) * side(r, s, q) < 0.0 && side(p, q, r) * side(p, q, s) < 0.0
}

/// Whether segment p-q meets the box of half sizes (hw, hh) around c.
fn segment_meets_box(p: Point, q: Point, c: Point, hw: f64, hh: f64) -> bool {
    // Liang-Barsky: clip the segment's parameter range to each slab.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for (start, delta, min, max) in [
        (p.x, q.x - p.x, c.x - hw, c.x + hw),
        (p.y, q.y - p.y, c.y - hh, c.y + hh),
    ] {
        if delta.abs() < 1e-12 {
            if start < min || start > max {
                return false;
            }
            continue;
        }
        let (t0, t1) = ((min - start) / delta, (max - start) / delta);
        lo = lo.max(t0.min(t1));
        hi = hi.min(t0.max(t1));
        if lo > hi {
            return false;
        }
    }
    true
}

/// Calls `f` with every permutation of `items[k..]` (Heap-free recursion).
fn permutations(items: &mut [usize], k: usize, f: &mut impl FnMut(&[usize])) {
    if k == items.len() {
        f(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, f);
        items.swap(k, i);
    }
}

/// Places a figure may take, in points: the slots, and the slots node 0
/// is tried in (the others are the same up to a symmetry of the shape).
struct Shape {
    slots: Vec<Point>,
    firsts: Vec<usize>,
}

/// A grid of `rows` × `cols` cells of `cw` × `ch` points.
fn grid(rows: usize, cols: usize, cw: f64, ch: f64) -> Shape {
    let slots = (0..rows * cols)
        .map(|i| Point {
            x: (i % cols) as f64 * cw,
            y: (i / cols) as f64 * ch,
        })
        .collect();
    let firsts = (0..rows * cols)
        .filter(|&i| 2 * (i % cols) < cols && 2 * (i / cols) < rows)
        .collect();
    Shape { slots, firsts }
}

/// A grid cell's width and height: the widest and tallest box and room
/// between neighbours for two or three lines bent apart and the world
/// names above the boxes; on a slide (`frame`), for one line and a name.
fn cells(sizes: &[(f64, f64)], font: f64, frame: Option<Frame>) -> (f64, f64) {
    let (gx, gy) = match frame {
        Some(f) => (2.0 * f.room, 2.5 * f.room),
        None => (4.5, 4.5),
    };
    let widest = sizes.iter().map(|s| s.0).fold(0.0, f64::max);
    let tallest = sizes.iter().map(|s| s.1).fold(0.0, f64::max);
    (widest + gx * font, tallest + gy * font)
}

/// The shapes tried for `n` nodes, the one a lecturer would draw first:
/// a square for four worlds (two two-way uncertainties), a cube for seven
/// or eight (three), seen through its front face so no edge crosses
/// another (the back face is the inner square), grids, and the circle.
/// For a `frame` (a slide), worlds sit closer, rows and a cube in three
/// rows are tried too, and the shapes come in the order of the scale at
/// which they fit the frame, largest first.
fn shapes(sizes: &[(f64, f64)], font: f64, frame: Option<Frame>) -> Vec<Shape> {
    let n = sizes.len();
    let (cw, ch) = cells(sizes, font, frame);
    let widest = sizes.iter().map(|s| s.0).fold(0.0, f64::max);
    let tallest = sizes.iter().map(|s| s.1).fold(0.0, f64::max);
    let mut out = Vec::new();
    let compact = frame.is_some();
    match n {
        3 if compact => out.push(grid(1, 3, cw, ch)),
        4 => {
            out.push(grid(2, 2, cw, ch));
            // Every pair related (a projection's classes, or arrows): a
            // triangle round the fourth node, where a square would cross
            // its diagonals.
            out.push(Shape {
                slots: [(1.5, 0.0), (0.0, 2.2), (3.0, 2.2), (1.5, 1.25)]
                    .map(|(x, y)| Point {
                        x: x * cw,
                        y: y * ch,
                    })
                    .to_vec(),
                firsts: vec![0, 3],
            });
            if compact {
                out.push(grid(1, 4, cw, ch));
            }
        }
        5 | 6 => {
            out.push(grid(2, 3, cw, ch));
            if compact {
                out.push(grid(3, 2, cw, ch));
            }
        }
        7 | 8 => {
            let corners = |lo: f64, hi: f64| {
                [(lo, lo), (hi, lo), (hi, hi), (lo, hi)].map(|(x, y)| Point {
                    x: x * cw,
                    y: y * ch,
                })
            };
            out.push(Shape {
                slots: corners(0.0, 3.0)
                    .into_iter()
                    .chain(corners(1.0, 2.0))
                    .collect(),
                firsts: vec![0, 4],
            });
            out.push(grid(2, 4, cw, ch));
            if compact {
                // The cube in three rows: its front face's top and bottom
                // sides bent round the back face's top and bottom worlds,
                // which sit between them; the back face's other two
                // worlds in the middle row.
                out.push(Shape {
                    slots: [
                        (0.0, 0.0),
                        (1.0, 0.0),
                        (2.0, 0.0),
                        (0.5, 1.0),
                        (1.5, 1.0),
                        (0.0, 2.0),
                        (1.0, 2.0),
                        (2.0, 2.0),
                    ]
                    .map(|(x, y)| Point {
                        x: x * cw,
                        y: y * ch,
                    })
                    .to_vec(),
                    firsts: vec![0, 1, 3],
                });
            }
        }
        _ => {}
    }
    out.push(Shape {
        slots: place(sizes, font, frame),
        firsts: vec![0],
    });
    if let Some(frame) = frame {
        let scale = |s: &Shape| {
            let span = |f: fn(&Point) -> f64| {
                let v = s.slots.iter().map(f);
                v.clone().fold(f64::NEG_INFINITY, f64::max) - v.fold(f64::INFINITY, f64::min)
            };
            let w = span(|p| p.x) + widest + 2.0 * MARGIN;
            let h = span(|p| p.y) + tallest + NAME_ROOM * font + 2.0 * MARGIN;
            (frame.w / w).min(frame.h / h).min(1.0)
        };
        // Stable: among shapes that fit equally, the lecturer's order.
        out.sort_by(|a, b| scale(b).total_cmp(&scale(a)));
    }
    out
}

/// The most nodes whose placement is searched (every assignment of nodes
/// to a shape's slots is tried); larger figures are a grid when two
/// agents' classes tell every world apart, else a circle in the nodes'
/// order.
pub const SEARCHED: usize = 8;

/// How many orders of a grid's rows and columns are tried, at most; a
/// larger grid keeps its classes in the order of their first worlds.
const GRID_ORDERS: usize = 20_000;

/// What a placement is worth: see [`score`]; lower is better.
type Worth = (usize, usize, usize, f64);

/// The best placement seen so far: its worth and the nodes' centres.
type Best = Option<(Worth, Vec<Point>)>;

/// Node centres, the lines to draw and the classes drawn as regions. Up to
/// [`SEARCHED`] nodes, every assignment of the nodes to a shape's slots is
/// tried and the one with the best [`score`] kept: no crossing where one
/// of these shapes has none (the first such shape of [`shapes`] wins),
/// regions where they fit, each agent's lines as parallel as they can be.
/// Larger figures whose worlds two agents' classes tell apart are a grid
/// (see [`grid_of_classes`]). S5 classes of more than two worlds are
/// regions when all of the agent's fit (each holds no other world), else
/// they are chained, like pairs, along their shortest path at the chosen
/// places (the figure's classes, not its chains, are what is drawn).
type Arranged = (Vec<Point>, Vec<Edge>, Vec<(usize, Vec<usize>)>);

fn arrange<K: KripkeLike + ?Sized>(
    fig: &K,
    sizes: &[(f64, f64)],
    font: f64,
    frame: Option<Frame>,
) -> Arranged {
    let n = sizes.len();
    let classes = chained_classes(fig);
    let ranks = region_ranks(fig);
    let edges = fig.edges();
    let grow = font / 2.0;
    let mut best: Best = None;
    let mut lines = Vec::new();
    let mut regioned = Vec::new();
    // Scores the placement `at` and keeps it when it beats the best.
    let mut consider = |at: &[Point], best: &mut Best| {
        plan(
            &classes,
            &ranks,
            edges,
            at,
            sizes,
            font,
            &mut lines,
            &mut regioned,
        );
        let bound = best.as_ref().map_or(usize::MAX, |b| b.0 .0);
        let Some((crossings, directions, length)) = score(&lines, at, sizes, grow, bound) else {
            return;
        };
        let s = (crossings, ranks.len() - regioned.len(), directions, length);
        let better = match best {
            None => true,
            Some((b, _)) => {
                (s.0, s.1, s.2) < (b.0, b.1, b.2)
                    || ((s.0, s.1, s.2) == (b.0, b.1, b.2) && s.3 < b.3 - 1e-6)
            }
        };
        if better {
            *best = Some((s, at.to_vec()));
        }
    };
    let shapes = if (3..=SEARCHED).contains(&n) {
        shapes(sizes, font, frame)
    } else {
        Vec::new()
    };
    for shape in &shapes {
        // The shapes come in the order a lecturer prefers them: once one
        // has a placement without crossings, the later ones are not tried.
        if best.as_ref().is_some_and(|b| b.0 .0 == 0) {
            break;
        }
        for &first in &shape.firsts {
            let mut rest: Vec<usize> = (0..shape.slots.len()).filter(|&s| s != first).collect();
            let mut at = vec![shape.slots[first]; n];
            permutations(&mut rest, 0, &mut |perm: &[usize]| {
                for (node, &slot) in perm.iter().take(n - 1).enumerate() {
                    at[node + 1] = shape.slots[slot];
                }
                consider(&at, &mut best);
            });
        }
    }
    if n > SEARCHED {
        if let Some(classes) = &classes {
            grid_of_classes(n, classes, sizes, font, frame, &mut |at| {
                consider(at, &mut best)
            });
        }
        // A grid with more crossings than the circle gives way to it.
        if best.is_some() {
            consider(&place(sizes, font, frame), &mut best);
        }
        // And the circle with each agent's classes side by side, one
        // agent at a time (a class's chain then runs round the circle
        // instead of across it).
        if let Some(classes) = &classes {
            let circle = place(sizes, font, frame);
            let mut agents: Vec<usize> = classes.iter().map(|(a, _)| *a).collect();
            agents.dedup();
            for agent in agents {
                let mut order: Vec<usize> = Vec::with_capacity(n);
                let mut placed = vec![false; n];
                let members = classes.iter().filter(|(a, _)| *a == agent);
                for &m in members
                    .flat_map(|(_, m)| m)
                    .chain(&(0..n).collect::<Vec<_>>())
                {
                    if !placed[m] {
                        placed[m] = true;
                        order.push(m);
                    }
                }
                let mut at = vec![circle[0]; n];
                for (slot, &node) in order.iter().enumerate() {
                    at[node] = circle[slot];
                }
                if best.is_none() {
                    consider(&circle, &mut best);
                }
                consider(&at, &mut best);
            }
        }
    }
    let at = match best {
        Some((_, at)) => at,
        None => place(sizes, font, frame),
    };
    let (mut lines, mut regioned) = (Vec::new(), Vec::new());
    plan(
        &classes,
        &ranks,
        edges,
        &at,
        sizes,
        font,
        &mut lines,
        &mut regioned,
    );
    let Some(classes) = &classes else {
        return (at, edges.to_vec(), Vec::new());
    };
    let mut drawn: Vec<Edge> = lines
        .into_iter()
        .map(|(agent, a, b)| Edge {
            from: a.min(b),
            to: a.max(b),
            agent,
        })
        .collect();
    drawn.sort_by_key(|e| (e.from, e.to, e.agent));
    let regions = classes
        .iter()
        .filter(|(a, m)| m.len() > 2 && regioned.contains(a))
        .cloned()
        .collect();
    (at, drawn, regions)
}

/// Offers `consider` grid placements of `n` nodes: for each two agents
/// whose classes tell every world apart (Cheryl's month and day: Albert's
/// classes are the table's rows, Bernard's its columns), every order of
/// the rows and of the columns (up to [`GRID_ORDERS`] of them), the rows
/// no more than the columns.
fn grid_of_classes(
    n: usize,
    classes: &[(usize, Vec<usize>)],
    sizes: &[(f64, f64)],
    font: f64,
    frame: Option<Frame>,
    consider: &mut dyn FnMut(&[Point]),
) {
    let mut agents: Vec<usize> = classes.iter().map(|(a, _)| *a).collect();
    agents.sort_unstable();
    agents.dedup();
    // Each agent's class of every node (singletons included).
    let class_of = |agent: usize| {
        let mut of: Vec<Option<usize>> = vec![None; n];
        for (i, (_, members)) in classes.iter().enumerate().filter(|(_, c)| c.0 == agent) {
            for &m in members {
                of[m] = Some(i);
            }
        }
        let mut next = classes.len();
        of.into_iter()
            .map(|c| {
                c.unwrap_or_else(|| {
                    next += 1;
                    next
                })
            })
            .collect::<Vec<usize>>()
    };
    let (cw, ch) = cells(sizes, font, frame);
    for &r in &agents {
        for &c in &agents {
            if r == c {
                continue;
            }
            let (row_of, col_of) = (class_of(r), class_of(c));
            let mut pairs: Vec<(usize, usize)> = (0..n).map(|i| (row_of[i], col_of[i])).collect();
            pairs.sort_unstable();
            pairs.dedup();
            if pairs.len() < n {
                continue;
            }
            // The rows and columns, in the order of their first worlds.
            let order = |of: &[usize]| {
                let mut seen: Vec<usize> = Vec::new();
                for &k in of {
                    if !seen.contains(&k) {
                        seen.push(k);
                    }
                }
                seen
            };
            let (rows, cols) = (order(&row_of), order(&col_of));
            if rows.len() < 2 || cols.len() < 2 || rows.len() > cols.len() {
                continue;
            }
            let orders = factorial(rows.len()).saturating_mul(factorial(cols.len()));
            let mut at = vec![Point { x: 0.0, y: 0.0 }; n];
            let mut place_at = |row_perm: &[usize], col_perm: &[usize]| {
                for node in 0..n {
                    let ri = rows.iter().position(|&k| k == row_of[node]).unwrap_or(0);
                    let ci = cols.iter().position(|&k| k == col_of[node]).unwrap_or(0);
                    at[node] = Point {
                        x: col_perm[ci] as f64 * cw,
                        y: row_perm[ri] as f64 * ch,
                    };
                }
                consider(&at);
            };
            let mut row_perm: Vec<usize> = (0..rows.len()).collect();
            let mut col_perm: Vec<usize> = (0..cols.len()).collect();
            if orders > GRID_ORDERS {
                place_at(&row_perm, &col_perm);
                continue;
            }
            let cols_fixed = col_perm.clone();
            permutations(&mut row_perm, 0, &mut |rp: &[usize]| {
                let mut cp = cols_fixed.clone();
                permutations(&mut cp, 0, &mut |cp: &[usize]| place_at(rp, cp));
            });
            col_perm.clear();
        }
    }
}

fn factorial(k: usize) -> usize {
    (1..=k).fold(1usize, |acc, i| acc.saturating_mul(i))
}

/// Node centres: a row for up to two nodes, a circle for more.
fn place(sizes: &[(f64, f64)], font: f64, frame: Option<Frame>) -> Vec<Point> {
    let n = sizes.len();
    if let Some(frame) = frame.filter(|f| f.fill && n > 4) {
        return ellipse(sizes, font, frame);
    }
    let gap = 3.0 * font * frame.map_or(1.0, |f| f.room);
    let widest = sizes.iter().map(|s| s.0).fold(0.0, f64::max);
    let tallest = sizes.iter().map(|s| s.1).fold(0.0, f64::max);
    if n <= 2 {
        return (0..n)
            .map(|i| Point {
                x: i as f64 * (widest + 2.0 * gap),
                y: 0.0,
            })
            .collect();
    }
    // Neighbours on the circle are a chord 2 r sin(pi/n) apart; keep a box
    // and a gap between them in the worst direction.
    let diagonal = (widest * widest + tallest * tallest).sqrt();
    let step = (std::f64::consts::PI / n as f64).sin();
    let r = ((diagonal + gap) / (2.0 * step)).max(widest + gap);
    (0..n)
        .map(|i| {
            let a = -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            Point {
                x: r * a.cos() * 1.3,
                y: r * a.sin(),
            }
        })
        .collect()
}

/// The circle of [`place`] for a frame: an ellipse of the frame's shape,
/// as flat as it can be with no two boxes closer than a gap (in one
/// direction or the other), so that a wide screen is filled.
fn ellipse(sizes: &[(f64, f64)], font: f64, frame: Frame) -> Vec<Point> {
    let n = sizes.len();
    let gap = 2.0 * font * frame.room;
    let widest = sizes.iter().map(|s| s.0).fold(0.0, f64::max);
    let tallest = sizes.iter().map(|s| s.1).fold(0.0, f64::max);
    let target = frame.w / frame.h;
    let at = |rx: f64, ry: f64| -> Vec<Point> {
        (0..n)
            .map(|i| {
                let a =
                    -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / n as f64;
                Point {
                    x: rx * a.cos(),
                    y: ry * a.sin(),
                }
            })
            .collect()
    };
    let apart = |p: &[Point]| {
        (0..n).all(|i| {
            (i + 1..n).all(|j| {
                (p[i].x - p[j].x).abs() >= widest + gap
                    || (p[i].y - p[j].y).abs() >= tallest + gap + NAME_ROOM * font
            })
        })
    };
    let (cw, ch) = (widest + gap, tallest + gap + NAME_ROOM * font);
    let scale = |p: &[Point]| {
        let span = |f: fn(&Point) -> f64| {
            let v = p.iter().map(f);
            v.clone().fold(f64::NEG_INFINITY, f64::max) - v.fold(f64::INFINITY, f64::min)
        };
        (frame.w / (span(|p| p.x) + cw)).min(frame.h / (span(|p| p.y) + ch))
    };
    let mut best: Option<Vec<Point>> = None;
    let mut keep = |p: Vec<Point>| {
        if best.as_ref().is_none_or(|b| scale(&p) > scale(b)) {
            best = Some(p);
        }
    };
    let mut ry = tallest;
    for _ in 0..200 {
        let height = 2.0 * ry + tallest + NAME_ROOM * font;
        let rx = ((target * height - widest) / 2.0).max(widest);
        let p = at(rx, ry);
        if apart(&p) {
            keep(p);
            break;
        }
        ry *= 1.05;
    }
    // The ring of a rectangle's border cells, in the circle's order
    // (clockwise from the top left): the same cyclic order, so the same
    // crossings, and no room lost inside an ellipse.
    for rows in 2..=n.div_ceil(2) {
        for cols in 2..=n {
            let slots = 2 * cols + 2 * rows.saturating_sub(2);
            if slots < n || (rows > 2 && slots - n >= 2 * (rows - 2) + 2) {
                continue;
            }
            let mut ring = Vec::with_capacity(slots);
            ring.extend((0..cols).map(|c| (c, 0)));
            ring.extend((1..rows - 1).map(|r| (cols - 1, r)));
            ring.extend((0..cols).rev().map(|c| (c, rows - 1)));
            ring.extend((1..rows - 1).rev().map(|r| (0, r)));
            let p: Vec<Point> = (0..n)
                .map(|i| {
                    let (c, r) = ring[i * slots / n];
                    Point {
                        x: c as f64 * cw,
                        y: r as f64 * ch,
                    }
                })
                .collect();
            keep(p);
        }
    }
    best.unwrap_or_else(|| place(sizes, font, None))
}

/// Curves for every edge: parallel edges spread apart, each bent away from
/// the boxes it would cross.
fn bend_edges(edges: &[Edge], boxes: &[Boxed], font: f64) -> Vec<Curve> {
    let spread = font * 1.2;
    let mut curves = Vec::with_capacity(edges.len());
    // The offsets taken so far between each pair of nodes.
    let mut taken: std::collections::HashMap<(usize, usize), Vec<f64>> = Default::default();
    for (i, e) in edges.iter().enumerate() {
        if e.from == e.to {
            let b = boxes[e.from];
            let control = Point {
                x: b.centre.x + b.w / 2.0 + 2.5 * font,
                y: b.centre.y - b.h / 2.0 - 2.5 * font,
            };
            curves.push(Curve {
                edge: i,
                control,
                bend: 0.0,
            });
            continue;
        }
        let (a, b) = (e.from.min(e.to), e.from.max(e.to));
        let parallel: Vec<usize> = edges
            .iter()
            .filter(|f| f.from.min(f.to) == a && f.from.max(f.to) == b && f.from != f.to)
            .map(|f| f.agent * 2 + usize::from(f.from > f.to))
            .collect();
        let rank = parallel
            .iter()
            .filter(|&&k| k < e.agent * 2 + usize::from(e.from > e.to))
            .count() as f64;
        let base = (rank - (parallel.len() as f64 - 1.0) / 2.0) * spread;
        // Offsets are measured for the direction a → b, whatever the edge's.
        let sign = if e.from < e.to { 1.0 } else { -1.0 };
        let used = taken.entry((a, b)).or_default();
        let bend = clear_bend(boxes, (a, b), base, spread, used, font);
        used.push(bend);
        curves.push(Curve {
            edge: i,
            control: control_point(boxes[a].centre, boxes[b].centre, bend),
            bend: bend * sign,
        });
    }
    curves
}

/// The first offset from `base`, trying `base ± k * step`, that no other
/// edge between the pair took (`used`) and whose curve between boxes `a`
/// and `b` keeps clear of every other box.
fn clear_bend(
    boxes: &[Boxed],
    (a, b): (usize, usize),
    base: f64,
    step: f64,
    used: &[f64],
    font: f64,
) -> f64 {
    let direction = if base < 0.0 { -1.0 } else { 1.0 };
    let free = |bend: f64| used.iter().all(|u| (u - bend).abs() >= step / 2.0);
    for k in 0..40 {
        for s in [direction, -direction] {
            let bend = base + s * k as f64 * step;
            if free(bend) && crosses_none(boxes, a, b, bend, font / 2.0) {
                return bend;
            }
            if k == 0 {
                break;
            }
        }
    }
    let mut bend = base;
    while !free(bend) {
        bend += direction * step;
    }
    bend
}

fn crosses_none(boxes: &[Boxed], a: usize, b: usize, bend: f64, grow: f64) -> bool {
    let (p, q) = (boxes[a].centre, boxes[b].centre);
    let c = control_point(p, q, bend);
    (1..40).all(|i| {
        let t = i as f64 / 40.0;
        let pt = quad(p, c, q, t);
        boxes
            .iter()
            .enumerate()
            .all(|(j, bx)| j == a || j == b || !bx.contains(pt, grow))
    })
}

/// The control point whose quadratic curve from `p` to `q` passes `bend`
/// to the left of the chord's middle.
pub fn control_point(p: Point, q: Point, bend: f64) -> Point {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    // The curve's middle is halfway between the chord's middle and the control point.
    Point {
        x: (p.x + q.x) / 2.0 + 2.0 * bend * dy / len,
        y: (p.y + q.y) / 2.0 - 2.0 * bend * dx / len,
    }
}

/// The point at `t` on the quadratic curve p → q through control c.
pub fn quad(p: Point, c: Point, q: Point, t: f64) -> Point {
    let u = 1.0 - t;
    Point {
        x: u * u * p.x + 2.0 * u * t * c.x + t * t * q.x,
        y: u * u * p.y + 2.0 * u * t * c.y + t * t * q.y,
    }
}

/// Moves everything so the drawing starts at the margin; returns its size.
fn fit(
    boxes: &mut [Boxed],
    edges: &[Edge],
    curves: &mut [Curve],
    regions: &mut [Region],
    font: f64,
) -> (f64, f64) {
    let id_room = NAME_ROOM * font; // the world id above each box
    let mut min = Point {
        x: f64::INFINITY,
        y: f64::INFINITY,
    };
    let mut max = Point {
        x: f64::NEG_INFINITY,
        y: f64::NEG_INFINITY,
    };
    let mut grow = |p: Point| {
        min.x = min.x.min(p.x);
        min.y = min.y.min(p.y);
        max.x = max.x.max(p.x);
        max.y = max.y.max(p.y);
    };
    for b in boxes.iter() {
        grow(Point {
            x: b.centre.x - b.w / 2.0,
            y: b.centre.y - b.h / 2.0 - id_room,
        });
        grow(Point {
            x: b.centre.x + b.w / 2.0,
            y: b.centre.y + b.h / 2.0,
        });
    }
    for c in curves.iter() {
        let e = edges[c.edge];
        if e.from == e.to {
            grow(c.control);
        } else {
            // A quadratic curve goes furthest from its chord at its middle,
            // and no further along the chord than its ends.
            let (p, q) = (boxes[e.from].centre, boxes[e.to].centre);
            grow(quad(p, c.control, q, 0.5));
        }
    }
    for r in regions.iter() {
        grow(r.corner);
        // The agent's name sits on the bottom side, half below it.
        grow(Point {
            x: r.corner.x + r.w,
            y: r.corner.y + r.h + font / 2.0,
        });
    }
    if boxes.is_empty() {
        return (2.0 * MARGIN, 2.0 * MARGIN);
    }
    let shift = Point {
        x: MARGIN - min.x,
        y: MARGIN - min.y,
    };
    for b in boxes.iter_mut() {
        b.centre.x += shift.x;
        b.centre.y += shift.y;
    }
    for c in curves.iter_mut() {
        c.control.x += shift.x;
        c.control.y += shift.y;
    }
    for r in regions.iter_mut() {
        r.corner.x += shift.x;
        r.corner.y += shift.y;
    }
    (max.x - min.x + 2.0 * MARGIN, max.y - min.y + 2.0 * MARGIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(x: f64, y: f64) -> Boxed {
        Boxed {
            centre: Point { x, y },
            w: 20.0,
            h: 10.0,
        }
    }

    #[test]
    fn a_curve_through_a_box_is_bent_clear_of_it() {
        let boxes = [boxed(0.0, 0.0), boxed(50.0, 0.0), boxed(100.0, 0.0)];
        assert!(!crosses_none(&boxes, 0, 2, 0.0, 2.0));
        let bend = clear_bend(&boxes, (0, 2), 0.0, 5.0, &[], 4.0);
        assert!(bend.abs() > 0.0);
        assert!(crosses_none(&boxes, 0, 2, bend, 2.0));
        let other = clear_bend(&boxes, (0, 2), 0.0, 5.0, &[bend], 4.0);
        assert!((other - bend).abs() >= 2.5);
    }

    #[test]
    fn the_border_point_lies_on_the_box() {
        let b = boxed(0.0, 0.0);
        let p = b.border_towards(Point { x: 100.0, y: 0.0 });
        assert_eq!(p, Point { x: 10.0, y: 0.0 });
        let p = b.border_towards(Point { x: 0.0, y: -100.0 });
        assert_eq!(p, Point { x: 0.0, y: -5.0 });
    }
}
