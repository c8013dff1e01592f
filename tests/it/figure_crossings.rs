//! No two lines of the built-in layout cross where a drawing without
//! crossings exists: Go Fish's simplified game from turn 1 on (the
//! report's Figures 1b-1e, squares whose classes are pairs). The
//! eight-world models (Figure 1a, the three muddy children) are drawn as
//! two nested squares when that crosses fewer lines than the circle, but
//! are not yet free of crossings, and are not tested here. Lines are the curves the SVG, TikZ and PNG writers draw,
//! sampled as polylines.

use std::path::Path;

use dealer::figure::layout::{self, quad, Point};
use dealer::figure::{Figure, KripkeLike};
use dealer::interp::{Options, Output, Session};
use dealer::syntax;

/// The figure at the start (once a model exists), at every checkpoint
/// and at the end of `file`.
fn figures(file: &str) -> Vec<(String, Figure)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let src = std::fs::read_to_string(path).unwrap();
    let scenario = syntax::parse(&src).unwrap();
    let mut session = Session::new(Options::default());
    let mut out = Vec::new();
    let line = "export \"fig.svg\"";
    let export = syntax::parse(line).unwrap().statements.remove(0);
    let mut draw = |session: &mut Session, name: String| match session
        .execute(&export, line)
        .unwrap()
        .remove(0)
    {
        Output::Figure { figure, .. } => out.push((name, figure)),
        other => panic!("{other:?}"),
    };
    let mut started = false;
    for stmt in &scenario.statements {
        session.execute(stmt, &src).unwrap();
        if let syntax::ast::StatementKind::Checkpoint(name) = &stmt.kind {
            draw(&mut session, name.text.to_string());
        } else if !started && session.playing().is_some() {
            started = true;
            draw(&mut session, "the start".into());
        }
    }
    draw(&mut session, "the end".into());
    out
}

fn segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool {
    let side = |a: Point, b: Point, c: Point| (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    let (d1, d2) = (side(r, s, p), side(r, s, q));
    let (d3, d4) = (side(p, q, r), side(p, q, s));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// The pairs of drawn lines (between different pairs of worlds, no end
/// shared) that cross.
fn crossings(fig: &Figure) -> Vec<(usize, usize)> {
    let lay = layout::layout(fig, 14.0);
    let lines: Vec<(usize, usize, Vec<Point>)> = lay
        .curves
        .iter()
        .map(|c| {
            let e = fig.edges()[c.edge];
            let (a, b) = (lay.boxes[e.from], lay.boxes[e.to]);
            let (start, end) = (a.border_towards(c.control), b.border_towards(c.control));
            let points = (0..=40)
                .map(|i| quad(start, c.control, end, i as f64 / 40.0))
                .collect();
            (e.from, e.to, points)
        })
        .collect();
    let mut out = Vec::new();
    for (i, (a, b, p)) in lines.iter().enumerate() {
        for (j, (c, d, q)) in lines.iter().enumerate().skip(i + 1) {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            let hit = p
                .windows(2)
                .any(|s| q.windows(2).any(|t| segments_cross(s[0], s[1], t[0], t[1])));
            if hit {
                out.push((i, j));
            }
        }
    }
    out
}

#[test]
fn go_fish_simplified_draws_no_crossing_lines() {
    let all = figures("scenarios/gofish/simplified.deal");
    let small: Vec<&(String, Figure)> = all.iter().filter(|(_, f)| f.nodes.len() < 8).collect();
    assert!(small.len() >= 8, "{}", small.len());
    for (name, fig) in small {
        assert!(
            crossings(fig).is_empty(),
            "{name}: lines {:?} cross",
            crossings(fig)
        );
    }
}

/// The order search finds the square: at turn 2, player 1's two pairs and
/// player 3's two pairs are sides, never both diagonals.
#[test]
fn a_square_of_pairs_is_laid_out_on_its_sides() {
    use dealer::figure::Edge;
    // Nodes 0..4; agent 0 links 0-2 and 1-3 (the diagonals in node order),
    // agent 1 links 0-1 and 2-3.
    let edges = [(0, 2, 0), (1, 3, 0), (0, 1, 1), (2, 3, 1)].map(|(from, to, agent)| Edge {
        from,
        to,
        agent,
    });
    let slot = layout::circle_order(4, &edges);
    let adjacent = |a: usize, b: usize| {
        let d = slot[a].abs_diff(slot[b]);
        d == 1 || d == 3
    };
    for e in &edges {
        assert!(adjacent(e.from, e.to), "{e:?} in {slot:?}");
    }
    // Nodes already in a crossing-free order keep it.
    let square = [(0, 1, 0), (1, 2, 1), (2, 3, 0), (3, 0, 1)].map(|(from, to, agent)| Edge {
        from,
        to,
        agent,
    });
    assert_eq!(layout::circle_order(4, &square), vec![0, 1, 2, 3]);
}
