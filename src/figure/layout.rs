//! Where the built-in writers (SVG and TikZ) put a figure's nodes and how
//! they bend its edges, in points, y growing downwards.
//!
//! The nodes sit on a circle (one row for two nodes) whose radius keeps
//! neighbouring boxes apart. Every edge is a quadratic curve: edges between
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
    /// The drawing's width and height (margins included, legend excluded).
    pub width: f64,
    /// See `width`.
    pub height: f64,
}

/// The size of a node's box for a label of `lines` (character counts) at
/// `font` points.
pub fn box_size(lines: &[usize], font: f64) -> (f64, f64) {
    let widest = lines.iter().copied().max().unwrap_or(1).max(2) as f64;
    let w = widest * font * CHAR_WIDTH + 2.0 * PAD;
    let h = lines.len().max(1) as f64 * font * LINE_HEIGHT + 2.0 * PAD;
    (w, h)
}

/// Lays out `fig` with labels at `font` points.
pub fn layout<K: KripkeLike + ?Sized>(fig: &K, font: f64) -> Layout {
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
    let (centres, edges) = arrange(fig, &sizes, font);
    let mut boxes: Vec<Boxed> = centres
        .iter()
        .zip(&sizes)
        .map(|(&centre, &(w, h))| Boxed { centre, w, h })
        .collect();
    let mut curves = bend_edges(&edges, &boxes, font);
    let (width, height) = fit(&mut boxes, &mut curves, font);
    Layout {
        boxes,
        edges,
        curves,
        width,
        height,
    }
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

/// The lines drawn with the nodes at `at`, into `out` (cleared first).
fn lines_at(
    classes: &Option<Vec<(usize, Vec<usize>)>>,
    edges: &[Edge],
    at: &[Point],
    out: &mut Vec<Line>,
) {
    out.clear();
    match classes {
        Some(classes) => {
            for (agent, members) in classes {
                chain(*agent, members, at, out);
            }
        }
        None => out.extend(
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

/// The shapes tried for `n` nodes, the one a lecturer would draw first:
/// a square for four worlds (two two-way uncertainties), a cube for seven
/// or eight (three), seen through its front face so no edge crosses
/// another (the back face is the inner square), grids, and the circle.
fn shapes(sizes: &[(f64, f64)], font: f64) -> Vec<Shape> {
    let n = sizes.len();
    // Room between neighbours for two or three lines bent apart and the
    // world ids above the boxes.
    let gap = 4.5 * font;
    let widest = sizes.iter().map(|s| s.0).fold(0.0, f64::max);
    let tallest = sizes.iter().map(|s| s.1).fold(0.0, f64::max);
    let (cw, ch) = (widest + gap, tallest + gap);
    let mut out = Vec::new();
    match n {
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
        }
        5 | 6 => out.push(grid(2, 3, cw, ch)),
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
        }
        _ => {}
    }
    out.push(Shape {
        slots: place(sizes, font),
        firsts: vec![0],
    });
    out
}

/// The most nodes whose placement is searched (every assignment of nodes
/// to a shape's slots is tried); larger figures are a circle in the nodes'
/// order.
pub const SEARCHED: usize = 8;

/// Node centres and the lines to draw. Up to [`SEARCHED`] nodes, every
/// assignment of the nodes to a shape's slots is tried and the one with
/// the best [`score`] kept: no crossing where one of these shapes has
/// none (the first such shape of [`shapes`] wins), each agent's lines as
/// parallel as they can be. S5 classes are chained along their shortest path at the chosen
/// places (the figure's classes, not its chains, are what is drawn).
fn arrange<K: KripkeLike + ?Sized>(
    fig: &K,
    sizes: &[(f64, f64)],
    font: f64,
) -> (Vec<Point>, Vec<Edge>) {
    let n = sizes.len();
    let classes = chained_classes(fig);
    let edges = fig.edges();
    let grow = font / 2.0;
    let mut best: Option<((usize, usize, f64), Vec<Point>)> = None;
    let shapes = if (3..=SEARCHED).contains(&n) {
        shapes(sizes, font)
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
            let mut lines = Vec::new();
            permutations(&mut rest, 0, &mut |perm: &[usize]| {
                for (node, &slot) in perm.iter().take(n - 1).enumerate() {
                    at[node + 1] = shape.slots[slot];
                }
                lines_at(&classes, edges, &at, &mut lines);
                let bound = best.as_ref().map_or(usize::MAX, |b| b.0 .0);
                let Some(s) = score(&lines, &at, sizes, grow, bound) else {
                    return;
                };
                let better = match &best {
                    None => true,
                    Some((b, _)) => {
                        (s.0, s.1) < (b.0, b.1) || ((s.0, s.1) == (b.0, b.1) && s.2 < b.2 - 1e-6)
                    }
                };
                if better {
                    best = Some((s, at.clone()));
                }
            });
        }
    }
    let at = match best {
        Some((_, at)) => at,
        None => place(sizes, font),
    };
    let mut lines = Vec::new();
    lines_at(&classes, edges, &at, &mut lines);
    let mut drawn: Vec<Edge> = match &classes {
        Some(_) => lines
            .into_iter()
            .map(|(agent, a, b)| Edge {
                from: a.min(b),
                to: a.max(b),
                agent,
            })
            .collect(),
        None => return (at, edges.to_vec()),
    };
    drawn.sort_by_key(|e| (e.from, e.to, e.agent));
    (at, drawn)
}

/// Node centres: a row for up to two nodes, a circle for more.
fn place(sizes: &[(f64, f64)], font: f64) -> Vec<Point> {
    let n = sizes.len();
    let gap = 3.0 * font;
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
fn fit(boxes: &mut [Boxed], curves: &mut [Curve], font: f64) -> (f64, f64) {
    let id_room = font; // the world id above each box
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
        // The curve stays within the hull of its ends and control point;
        // its middle is the nearest bound that is not too loose.
        grow(c.control);
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
