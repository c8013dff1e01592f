//! No two lines of the built-in layout cross on the small models a
//! lecturer draws: every figure of Go Fish's simplified game (the report's
//! Figures 1a-1e and on), the three muddy children after every statement
//! (the cube of eight worlds, then seven, four, one), every figure of at
//! most eight worlds at a checkpoint of the scenarios under `scenarios/`,
//! and the per-card projections of Kemps's sixes (every place related to
//! every other: a triangle round the fourth). Lines are the curves the
//! SVG, TikZ and PNG writers draw (quadratic curves from box border to box
//! border), sampled as polylines; two lines that share a world never count.
//! The small figures' slide layouts too, and Cheryl's month by day table.
//! Classes of three or more worlds drawn as rounded regions are checked
//! against the boxes (each holds its class's worlds and no other) and
//! against the engine's classes.

use std::collections::BTreeSet;
use std::path::Path;

use dealer::figure::layout::{self, quad, Layout, Point};
use dealer::figure::{Edge, Figure, Node};
use dealer::interp::{Options, Output, Session};
use dealer::syntax;

/// The figures drawn by `export` (with `options`) at the start (once a
/// model exists), after every statement when `every` (else at every
/// checkpoint) and at the end of `file`; a figure equal to the previous
/// one is left out, and so are refused ones (too large).
fn figures(file: &str, options: &str, every: bool) -> Vec<(String, Figure)> {
    figures_and_classes(file, options, every)
        .into_iter()
        .map(|(name, fig, _)| (name, fig))
        .collect()
}

/// For each agent and each node of a figure whose nodes are worlds, the
/// nodes of the worlds the engine says the agent considers possible there.
type EngineClasses = Vec<Vec<BTreeSet<usize>>>;

/// [`figures`], each with the engine's classes when its nodes are worlds.
fn figures_and_classes(
    file: &str,
    options: &str,
    every: bool,
) -> Vec<(String, Figure, Option<EngineClasses>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let src = std::fs::read_to_string(path).unwrap();
    let scenario = syntax::parse(&src).unwrap();
    let mut session = Session::new(Options::default());
    let mut out: Vec<(String, Figure, Option<EngineClasses>)> = Vec::new();
    let line = format!("export \"fig.svg\" {options}");
    let export = syntax::parse(&line).unwrap().statements.remove(0);
    let mut draw = |session: &mut Session, name: String| {
        if let Ok(mut outputs) = session.execute(&export, &line) {
            match outputs.remove(0) {
                Output::Figure { figure, .. } => {
                    if out.last().is_none_or(|(_, last, _)| *last != figure) {
                        let engine = engine_classes(session, &figure);
                        out.push((format!("{file} {options} at {name}"), figure, engine));
                    }
                }
                other => panic!("{other:?}"),
            }
        }
    };
    let mut started = false;
    for (i, stmt) in scenario.statements.iter().enumerate() {
        session.execute(stmt, &src).unwrap();
        if let syntax::ast::StatementKind::Checkpoint(name) = &stmt.kind {
            draw(&mut session, name.text.to_string());
        } else if (every || !started) && session.playing().is_some() {
            started = true;
            draw(&mut session, format!("statement {}", i + 1));
        }
    }
    draw(&mut session, "the end".into());
    out
}

/// The engine's classes of the worlds `fig` draws (see [`EngineClasses`]),
/// `None` when some node is not one world (a projection).
fn engine_classes(session: &Session, fig: &Figure) -> Option<EngineClasses> {
    let model = &*session.playing()?.model;
    let worlds: Vec<usize> = fig.nodes.iter().map(|n| n.world).collect::<Option<_>>()?;
    Some(
        (0..fig.agents.len())
            .map(|agent| {
                worlds
                    .iter()
                    .map(|&w| {
                        let seen: BTreeSet<usize> =
                            model.accessible(agent, w).into_iter().collect();
                        (0..worlds.len())
                            .filter(|&i| seen.contains(&worlds[i]))
                            .collect()
                    })
                    .collect()
            })
            .collect(),
    )
}

/// The drawn lines of `lay` (a figure's layout) as polylines, with the
/// worlds they join.
fn polylines(lay: &Layout) -> Vec<(usize, usize, Vec<Point>)> {
    lay.curves
        .iter()
        .filter_map(|c| {
            let e = lay.edges[c.edge];
            if e.from == e.to {
                return None;
            }
            let (a, b) = (lay.boxes[e.from], lay.boxes[e.to]);
            let (start, end) = (a.border_towards(c.control), b.border_towards(c.control));
            let points = (0..=40)
                .map(|i| quad(start, c.control, end, f64::from(i) / 40.0))
                .collect();
            Some((e.from, e.to, points))
        })
        .collect()
}

/// Whether segments p-q and r-s meet: cross, or touch (an end on the
/// other segment, or collinear and overlapping). Sampled curves that cross
/// exactly at a sample point only touch there.
fn segments_meet(p: Point, q: Point, r: Point, s: Point) -> bool {
    let side = |a: Point, b: Point, c: Point| (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    let (d1, d2, d3, d4) = (side(r, s, p), side(r, s, q), side(p, q, r), side(p, q, s));
    if [d1, d2, d3, d4].iter().all(|d| d.abs() < 1e-9) {
        let overlap = |a: f64, b: f64, c: f64, d: f64| a.min(b) <= c.max(d) && c.min(d) <= a.max(b);
        return overlap(p.x, q.x, r.x, s.x) && overlap(p.y, q.y, r.y, s.y);
    }
    d1 * d2 <= 0.0 && d3 * d4 <= 0.0
}

/// The pairs of drawn lines (between different pairs of worlds, no end
/// shared) that cross.
fn crossings(lay: &Layout) -> Vec<(usize, usize)> {
    let lines = polylines(lay);
    let mut out = Vec::new();
    for (i, (a, b, p)) in lines.iter().enumerate() {
        for (j, (c, d, q)) in lines.iter().enumerate().skip(i + 1) {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            let hit = p
                .windows(2)
                .any(|s| q.windows(2).any(|t| segments_meet(s[0], s[1], t[0], t[1])));
            if hit {
                out.push((i, j));
            }
        }
    }
    out
}

/// Each agent's classes as the drawn lines connect them (union-find).
fn classes(n: usize, edges: &[Edge]) -> Vec<(usize, Vec<usize>)> {
    let mut agents: Vec<usize> = edges.iter().map(|e| e.agent).collect();
    agents.sort_unstable();
    agents.dedup();
    let mut out = Vec::new();
    for agent in agents {
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                x = root[x];
            }
            x
        }
        for e in edges.iter().filter(|e| e.agent == agent) {
            let (a, b) = (find(&mut root, e.from), find(&mut root, e.to));
            root[a] = b;
        }
        let mut class: Vec<Vec<usize>> = vec![Vec::new(); n];
        for x in 0..n {
            let r = find(&mut root, x);
            class[r].push(x);
        }
        class.retain(|c| c.len() > 1);
        class.sort();
        out.extend(class.into_iter().map(|c| (agent, c)));
    }
    out
}

/// The figure's layout draws no crossing lines, and its lines and regions
/// connect exactly the figure's classes (or, drawn complete, are its
/// edges); returns the layout.
fn assert_clean(name: &str, fig: &Figure) -> Layout {
    let lay = assert_drawn(name, fig);
    let cross = crossings(&lay);
    assert!(cross.is_empty(), "{name}: lines {cross:?} cross");
    lay
}

/// The figure's layout's lines and regions connect exactly the figure's
/// classes (or, drawn complete, are its edges); returns the layout.
fn assert_drawn(name: &str, fig: &Figure) -> Layout {
    let lay = layout::layout(fig, FONT);
    if fig.complete {
        assert!(lay.regions.is_empty(), "{name}");
        let mut drawn = lay.edges.clone();
        drawn.sort();
        let mut own = fig.edges.clone();
        own.sort();
        assert_eq!(drawn, own, "{name}");
    } else {
        // A region joins its worlds as a chain of lines would.
        let mut joined = lay.edges.clone();
        for r in &lay.regions {
            joined.extend(r.members.windows(2).map(|w| Edge {
                from: w[0],
                to: w[1],
                agent: r.agent,
            }));
        }
        assert_eq!(
            classes(fig.nodes.len(), &joined),
            classes(fig.nodes.len(), &fig.edges),
            "{name}: the drawn lines and regions connect other classes"
        );
        assert_regions_hold_their_classes(name, fig, &lay);
    }
    lay
}

/// About a 4:3 beamer frame less a legend of three lines, as
/// `--for-slides` lays figures out for.
const SLIDE: layout::Frame = layout::Frame {
    w: 307.3,
    h: 179.3,
    fill: false,
    room: 1.0,
};

/// The label size the crossing checks lay figures out at.
const FONT: f64 = 14.0;

/// Each region is a class of more than two worlds of its agent (the
/// figure's), its rectangle holds each of its worlds' boxes and the names
/// above them, and meets no other world's box or name.
fn assert_regions_hold_their_classes(name: &str, fig: &Figure, lay: &Layout) {
    let own = classes(fig.nodes.len(), &fig.edges);
    for r in &lay.regions {
        assert!(r.members.len() > 2, "{name}: a region of {:?}", r.members);
        assert!(
            own.contains(&(r.agent, r.members.clone())),
            "{name}: region {:?} of agent {} is not a class",
            r.members,
            r.agent
        );
        let (x0, y0, x1, y1) = (r.corner.x, r.corner.y, r.corner.x + r.w, r.corner.y + r.h);
        for (i, b) in lay.boxes.iter().enumerate() {
            // The box with the world's name above it.
            let (bx0, by0) = (b.centre.x - b.w / 2.0, b.centre.y - b.h / 2.0 - FONT);
            let (bx1, by1) = (b.centre.x + b.w / 2.0, b.centre.y + b.h / 2.0);
            if r.members.contains(&i) {
                assert!(
                    x0 <= bx0 && bx1 <= x1 && y0 <= by0 && by1 <= y1,
                    "{name}: world {i} sticks out of its region"
                );
            } else {
                let apart = bx1 <= x0 || x1 <= bx0 || by1 <= y0 || y1 <= by0;
                assert!(apart, "{name}: world {i} in the region of {:?}", r.members);
            }
        }
    }
}

/// The figure's regions are the engine's classes: every world in a region
/// is one the region's agent cannot tell from the others, and from no
/// world outside it.
fn assert_regions_are_the_engines(name: &str, lay: &Layout, engine: &EngineClasses) {
    for r in &lay.regions {
        let members: BTreeSet<usize> = r.members.iter().copied().collect();
        for &m in &r.members {
            assert_eq!(
                engine[r.agent][m], members,
                "{name}: agent {}'s region at node {m}",
                r.agent
            );
        }
    }
}

#[test]
fn go_fish_simplified_draws_no_crossing_lines() {
    let all = figures("scenarios/gofish/simplified.deal", "", false);
    assert!(all.len() >= 9, "{}", all.len());
    assert!(all.iter().any(|(_, f)| f.nodes.len() == 8), "Figure 1a");
    for (name, fig) in &all {
        assert_clean(name, fig);
    }
}

#[test]
fn three_muddy_children_are_a_cube_without_crossings() {
    let all = figures("scenarios/classics/muddy-children.deal", "", true);
    let sizes: Vec<usize> = all.iter().map(|(_, f)| f.nodes.len()).collect();
    assert!(sizes.starts_with(&[8, 7, 4]), "{sizes:?}");
    for (name, fig) in &all {
        assert_clean(name, fig);
    }
    // The cube: each child's four lines are parallel (one direction each)
    // for the two children drawn as the squares' sides.
    let (_, cube) = &all[0];
    let lay = layout::layout(cube, FONT);
    let mut parallel = 0;
    for agent in 0..3 {
        let mut directions: Vec<i64> = lay
            .edges
            .iter()
            .filter(|e| e.agent == agent)
            .map(|e| {
                let (p, q) = (lay.boxes[e.from].centre, lay.boxes[e.to].centre);
                ((q.y - p.y).atan2(q.x - p.x).to_degrees().rem_euclid(180.0)).round() as i64
            })
            .collect();
        assert_eq!(directions.len(), 4, "child {agent}");
        directions.sort_unstable();
        directions.dedup();
        if directions.len() == 1 {
            parallel += 1;
        }
    }
    assert_eq!(parallel, 2);
}

/// Every scenario under `scenarios/` whose figures are drawn (relative
/// paths): not the benchmarks' models, which are large, nor the full decks.
fn drawable_scenarios() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() || dir.ends_with("bench") {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".deal") && !name.starts_with("full-deck") {
                let rel = file.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
                out.push(rel.to_str().unwrap().to_string());
            }
        }
    }
    out
}

#[test]
fn small_figures_of_every_scenario_draw_no_crossing_lines() {
    let mut checked = 0;
    let mut eight = 0;
    for rel in drawable_scenarios() {
        for (what, fig, engine) in figures_and_classes(&rel, "", false) {
            if fig.nodes.len() <= 8 {
                // The slide layout (closer worlds, other shapes first)
                // crosses no lines either.
                let slide = layout::layout_in(&fig, 8.5, Some(SLIDE));
                let cross = crossings(&slide);
                assert!(cross.is_empty(), "{what} on a slide: lines {cross:?} cross");
                let lay = assert_clean(&what, &fig);
                if let Some(engine) = &engine {
                    assert_regions_are_the_engines(&what, &lay, engine);
                }
                checked += 1;
                eight += usize::from(fig.nodes.len() == 8);
            }
        }
    }
    assert!(checked >= 40, "{checked}");
    assert!(eight >= 2, "{eight}");
}

/// The agents whose classes are a layout's rows and columns: `(a, b)`
/// when two worlds share a row exactly when `a` cannot tell them apart
/// and a column exactly when `b` cannot (the engine's classes), with at
/// least two rows and two columns.
fn grid_agents(lay: &Layout, engine: &EngineClasses) -> Option<(usize, usize)> {
    let n = lay.boxes.len();
    let same = |p: f64, q: f64| (p - q).abs() < 1e-6;
    let splits = |along: &dyn Fn(usize) -> f64| {
        (0..engine.len()).find(|&a| {
            (0..n).all(|i| (0..n).all(|j| same(along(i), along(j)) == engine[a][i].contains(&j)))
        })
    };
    let row = splits(&|i| lay.boxes[i].centre.y)?;
    let col = splits(&|i| lay.boxes[i].centre.x)?;
    let count = |along: &dyn Fn(usize) -> f64| {
        let mut seen: Vec<f64> = Vec::new();
        for i in 0..n {
            if !seen.iter().any(|&v| same(v, along(i))) {
                seen.push(along(i));
            }
        }
        seen.len()
    };
    let rows = count(&|i| lay.boxes[i].centre.y);
    let cols = count(&|i| lay.boxes[i].centre.x);
    (rows >= 2 && cols >= 2).then_some((row, col))
}

#[test]
fn cheryl_is_a_month_by_day_table_without_crossings() {
    let all = figures_and_classes("scenarios/classics/cheryl.deal", "", true);
    let sizes: Vec<usize> = all.iter().map(|(_, f, _)| f.nodes.len()).collect();
    assert_eq!(sizes.first(), Some(&10), "{sizes:?}");
    for (name, fig, engine) in &all {
        let lay = assert_clean(name, fig);
        let engine = engine.as_ref().unwrap();
        assert_regions_are_the_engines(name, &lay, engine);
        if fig.nodes.len() == 10 {
            // Albert (agent 0) knows the month: the rows; Bernard the day:
            // the columns.
            assert_eq!(grid_agents(&lay, engine), Some((0, 1)), "{name}");
            let months: BTreeSet<i64> = lay.boxes.iter().map(|b| b.centre.y as i64).collect();
            let days: BTreeSet<i64> = lay.boxes.iter().map(|b| b.centre.x as i64).collect();
            assert_eq!((months.len(), days.len()), (4, 6), "{name}");
            // Albert's two months of three dates are regions.
            let regions: Vec<(usize, usize)> = lay
                .regions
                .iter()
                .map(|r| (r.agent, r.members.len()))
                .collect();
            assert_eq!(regions, vec![(0, 3), (0, 3)], "{name}");
        }
    }
}

#[test]
fn classes_of_more_than_two_worlds_are_regions_holding_exactly_them() {
    let mut regions = 0;
    let mut agents_with_regions = BTreeSet::new();
    for (file, every) in [
        ("scenarios/gofish/simplified.deal", false),
        ("scenarios/classics/cheryl.deal", true),
        ("scenarios/classics/cheryl-age.deal", true),
        ("scenarios/classics/explicit-model.deal", true),
        ("scenarios/classics/muddy-children.deal", true),
    ] {
        for (name, fig, engine) in figures_and_classes(file, "", every) {
            // Up to eight worlds, and in grids, no line crosses another
            // (larger figures that are no grid are circles); nor in the
            // circles of Cheryl's age, whose classes sit side by side.
            let lay = assert_drawn(&name, &fig);
            if let Some(engine) = &engine {
                assert_regions_are_the_engines(&name, &lay, engine);
                if fig.nodes.len() <= 8
                    || grid_agents(&lay, engine).is_some()
                    || file.contains("cheryl-age")
                {
                    assert_clean(&name, &fig);
                }
            }
            // An agent's classes of three or more worlds are all regions
            // or all lines.
            let own = classes(fig.nodes.len(), &fig.edges);
            for (agent, class) in own.iter().filter(|(_, c)| c.len() > 2) {
                let with: Vec<bool> = own
                    .iter()
                    .filter(|(a, c)| a == agent && c.len() > 2)
                    .map(|(a, c)| lay.regions.iter().any(|r| r.agent == *a && r.members == *c))
                    .collect();
                assert!(
                    with.iter().all(|&w| w) || with.iter().all(|&w| !w),
                    "{name}: agent {agent}'s class {class:?}"
                );
            }
            if name.contains("simplified.deal  at initial") {
                // Figure 1a: two players' faces of the cube are regions.
                let agents: BTreeSet<usize> = lay.regions.iter().map(|r| r.agent).collect();
                assert!(agents.len() >= 2, "{name}: {agents:?}");
            }
            regions += lay.regions.len();
            agents_with_regions.extend(lay.regions.iter().map(|r| (file, r.agent)));
        }
    }
    assert!(regions >= 8, "{regions}");
    assert!(agents_with_regions.len() >= 4, "{agents_with_regions:?}");
}

/// The figures of more than eight worlds of every scenario draw the
/// figure's classes, their regions are the engine's classes, and Cheryl's
/// figures laid out as a grid (two agents' classes as rows and columns)
/// draw no crossing lines.
#[test]
fn grids_of_every_scenario_draw_no_crossing_lines() {
    let mut grids = Vec::new();
    for rel in drawable_scenarios() {
        for (what, fig, engine) in figures_and_classes(&rel, "", false) {
            let Some(engine) = engine else { continue };
            if fig.nodes.len() <= 8 || fig.directed || fig.complete {
                continue;
            }
            let lay = assert_drawn(&what, &fig);
            assert_regions_are_the_engines(&what, &lay, &engine);
            if grid_agents(&lay, &engine).is_some() {
                // A grid is drawn only when it crosses fewer lines
                // than the circle; Cheryl's crosses none.
                let cross = crossings(&lay).len();
                if what.contains("cheryl") {
                    assert_eq!(cross, 0, "{what}");
                }
                grids.push((what, cross));
            }
        }
    }
    eprintln!("grids and their crossings: {grids:#?}");
    assert!(
        grids.iter().any(|(g, _)| g.contains("cheryl.deal")),
        "{grids:?}"
    );
}

#[test]
fn kemps_sixes_projections_draw_no_crossing_lines() {
    for six in ["6S", "6H", "6D", "6C"] {
        let all = figures("scenarios/kemps/sixes.deal", &format!("for {six}"), false);
        assert!(!all.is_empty());
        for (name, fig) in &all {
            assert_clean(name, fig);
        }
    }
}

/// The check itself: a square whose two classes are drawn as its crossing
/// diagonals is caught, and a hand-made figure whose classes are pairs on
/// a square's diagonals is laid out with them as sides.
#[test]
fn crossing_diagonals_are_caught_and_avoided() {
    let node = |i: usize| Node {
        id: format!("w{i}"),
        world: Some(i),
        lines: vec![vec![dealer::figure::Segment::plain(format!("world {i}"))]],
    };
    let edge = |from, to, agent| Edge { from, to, agent };
    let fig = Figure {
        nodes: (0..4).map(node).collect(),
        edges: vec![edge(0, 3, 0), edge(1, 2, 0), edge(0, 1, 1), edge(2, 3, 1)],
        actual: Some(0),
        directed: false,
        agents: vec!["a".into(), "b".into()],
        shown: vec![0, 1],
        caption: "test".into(),
        complete: false,
        marked: vec![],
        marked_note: None,
        projected: None,
        counts: None,
        shared: None,
    };
    assert_clean("a square of pairs", &fig);
    // The same drawing with agent 0's pairs moved onto the diagonals: the
    // check must see the crossing.
    let mut lay = layout::layout(&fig, FONT);
    for (i, (x, y)) in [(0.0, 0.0), (200.0, 0.0), (0.0, 200.0), (200.0, 200.0)]
        .into_iter()
        .enumerate()
    {
        lay.boxes[i].centre = Point { x, y };
    }
    for c in &mut lay.curves {
        let e = lay.edges[c.edge];
        c.control = layout::control_point(lay.boxes[e.from].centre, lay.boxes[e.to].centre, 0.0);
    }
    assert!(!crossings(&lay).is_empty());
}
