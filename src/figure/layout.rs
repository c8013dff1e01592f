//! Where the built-in writers (SVG and TikZ) put a figure's nodes and how
//! they bend its edges, in points, y growing downwards.
//!
//! The nodes sit on a circle (one row for two nodes) whose radius keeps
//! neighbouring boxes apart. Every edge is a quadratic curve: edges between
//! the same two nodes are bent apart so none hides another, and an edge that
//! would cross a third node's box is bent further until it clears it. The
//! drawing is then moved so it starts at the margin: no canvas is wasted.

use super::KripkeLike;

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
    /// The edge's index in the figure.
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
    /// One curve per edge, in the figure's order.
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
    let centres = arrange(&sizes, font, fig.edges());
    let mut boxes: Vec<Boxed> = centres
        .iter()
        .zip(&sizes)
        .map(|(&centre, &(w, h))| Boxed { centre, w, h })
        .collect();
    let mut curves = bend_edges(fig, &boxes, font);
    let (width, height) = fit(&mut boxes, &mut curves, font);
    Layout {
        boxes,
        curves,
        width,
        height,
    }
}

/// The slot on the circle of each node: for up to eight nodes, the order
/// with the fewest pairs of crossing lines (two chords of a circle cross
/// when their ends interleave), the nodes' own order when it is as good;
/// so that a drawing without crossings is found when one exists on the
/// circle (Go Fish's turn 2: player 1's two pairs drawn as two sides of the
/// square, not as its diagonals). Larger figures keep the nodes' order.
pub fn circle_order(n: usize, edges: &[super::Edge]) -> Vec<usize> {
    let identity: Vec<usize> = (0..n).collect();
    if !(4..=8).contains(&n) {
        return identity;
    }
    let pairs = line_pairs(edges);
    let crossings = |slot: &[usize]| -> usize {
        let mut count = 0;
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let (lo, hi) = (slot[a].min(slot[b]), slot[a].max(slot[b]));
            for &(c, d) in &pairs[i + 1..] {
                if a == c || a == d || b == c || b == d {
                    continue;
                }
                let inside = |x: usize| lo < slot[x] && slot[x] < hi;
                if inside(c) != inside(d) {
                    count += 1;
                }
            }
        }
        count
    };
    let mut best = identity.clone();
    let mut best_count = crossings(&best);
    // Node 0 stays in the first slot (turning the circle changes nothing).
    let mut rest: Vec<usize> = (1..n).collect();
    let mut visit = |perm: &[usize]| {
        if best_count == 0 {
            return;
        }
        let mut slot = vec![0; n];
        for (s, &node) in std::iter::once(&0).chain(perm).enumerate() {
            slot[node] = s;
        }
        let c = crossings(&slot);
        if c < best_count {
            best_count = c;
            best = slot;
        }
    };
    permutations(&mut rest, 0, &mut visit);
    best
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

/// Node centres: the circle of [`place`] with the nodes in the order of
/// [`circle_order`]; for eight nodes, two nested squares instead (how a
/// lecturer draws a cube: three independent two-way uncertainties) when
/// that crosses fewer lines, its corners assigned to the nodes with the
/// fewest crossings.
fn arrange(sizes: &[(f64, f64)], font: f64, edges: &[super::Edge]) -> Vec<Point> {
    let n = sizes.len();
    let circle = place(sizes, font);
    let order = circle_order(n, edges);
    let on_circle: Vec<Point> = order.iter().map(|&slot| circle[slot]).collect();
    if n != 8 {
        return on_circle;
    }
    let gap = 3.0 * font;
    let widest = sizes.iter().map(|s| s.0).fold(0.0, f64::max);
    let tallest = sizes.iter().map(|s| s.1).fold(0.0, f64::max);
    let (hx, hy) = (widest / 2.0 + gap, tallest / 2.0 + gap);
    let (ox, oy) = (3.0 * hx, 3.0 * hy);
    let corners =
        |x: f64, y: f64| [(-x, -y), (x, -y), (x, y), (-x, y)].map(|(x, y)| Point { x, y });
    let squares: Vec<Point> = corners(ox, oy).into_iter().chain(corners(hx, hy)).collect();
    let pairs = line_pairs(edges);
    let count = |at: &[Point]| straight_crossings(&pairs, at);
    let circle_count = count(&on_circle);
    if circle_count == 0 {
        return on_circle;
    }
    let mut best: Option<(usize, Vec<Point>)> = None;
    let mut rest: Vec<usize> = (1..n).collect();
    permutations(&mut rest, 0, &mut |perm: &[usize]| {
        if best.as_ref().is_some_and(|b| b.0 == 0) {
            return;
        }
        let mut at = vec![squares[0]; n];
        for (s, &node) in std::iter::once(&0).chain(perm).enumerate() {
            at[node] = squares[s];
        }
        let c = count(&at);
        if best.as_ref().is_none_or(|b| c < b.0) {
            best = Some((c, at));
        }
    });
    match best {
        Some((c, at)) if c < circle_count => at,
        _ => on_circle,
    }
}

/// The distinct pairs of nodes a line joins.
fn line_pairs(edges: &[super::Edge]) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = edges
        .iter()
        .filter(|e| e.from != e.to)
        .map(|e| (e.from.min(e.to), e.from.max(e.to)))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// How many pairs of straight lines between `at`'s points cross (lines
/// that share a node never do).
fn straight_crossings(pairs: &[(usize, usize)], at: &[Point]) -> usize {
    let side = |a: Point, b: Point, c: Point| (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    let mut count = 0;
    for (i, &(a, b)) in pairs.iter().enumerate() {
        for &(c, d) in &pairs[i + 1..] {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            let (p, q, r, s) = (at[a], at[b], at[c], at[d]);
            if side(r, s, p) * side(r, s, q) < 0.0 && side(p, q, r) * side(p, q, s) < 0.0 {
                count += 1;
            }
        }
    }
    count
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
fn bend_edges<K: KripkeLike + ?Sized>(fig: &K, boxes: &[Boxed], font: f64) -> Vec<Curve> {
    let spread = font * 1.2;
    let edges = fig.edges();
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
