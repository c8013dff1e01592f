//! A world has one name everywhere: the figure's node (in the lecture view,
//! in `export` and in every file format), the lecture view's world panel,
//! `worlds` and `why` all call it the same, and it is the scenario's own
//! name where the scenario gives one (a written `model { }`), checked
//! against what the scenario wrote: the node named X has the propositions
//! the scenario gave world X, and the classes the scenario wrote.

use std::collections::{BTreeMap, BTreeSet};

use dealer::figure::look::Look;
use dealer::figure::{dot, svg, tikz, Figure, View};
use dealer::interp::{Options, Output, Session};
use dealer::syntax;
use dealer::web::lecture::Lecture;

/// The written names run backwards against the worlds' numbers (the world
/// written first is `w2`), `x` and `y` are bisimilar (one world, `x=y`),
/// and one name is a number.
const WRITTEN: &str = "\
model {
  agents a b
  props p q
  world w2: p q
  world w1: p
  world 7:
  world x: q
  world y: q
  a: {w2 w1} {7} {x y}
  b: {w2} {w1 7 x y}
  actual w2
}
event peek {
  events e1 e2
  pre e1: p
  pre e2: !p
  a: {e1} {e2}
  b: {e1 e2}
  actual e1
}
expect worlds = 4
apply peek
expect worlds = 4
";

/// The written worlds: name → the propositions true there.
fn written_props() -> BTreeMap<&'static str, BTreeSet<&'static str>> {
    [
        ("w2", vec!["p", "q"]),
        ("w1", vec!["p"]),
        ("7", vec![]),
        ("x", vec!["q"]),
        ("y", vec!["q"]),
    ]
    .into_iter()
    .map(|(n, ps)| (n, ps.into_iter().collect()))
    .collect()
}

/// The written classes of each agent.
fn written_classes(agent: usize) -> Vec<Vec<&'static str>> {
    match agent {
        0 => vec![vec!["w2", "w1"], vec!["7"], vec!["x", "y"]],
        _ => vec![vec!["w2"], vec!["w1", "7", "x", "y"]],
    }
}

fn options() -> Options {
    Options {
        max_worlds: dealer::web::MAX_WORLDS,
        ..Options::default()
    }
}

/// The worlds `worlds` lists: name → the rest of its line.
fn listed(lecture: &Lecture) -> BTreeMap<String, String> {
    let lines = lecture.query("worlds").unwrap();
    lines[1..]
        .iter()
        .map(|l| {
            let l = l.trim();
            let (name, rest) = l.split_once(' ').unwrap_or((l, ""));
            (
                name.trim_end_matches('*').to_string(),
                rest.trim().to_string(),
            )
        })
        .collect()
}

/// The propositions true in world `w`, by the engine.
fn props_at(lecture: &Lecture, w: usize) -> BTreeSet<String> {
    let play = lecture.session().playing().unwrap();
    let view = play.model.world(w);
    play.props
        .iter()
        .zip(&view.props)
        .filter(|(_, &v)| v)
        .map(|(p, _)| p.clone())
        .collect()
}

/// Nodes in one class of `agent`'s lines (union-find over the edges).
fn same_class(fig: &Figure, agent: usize) -> Vec<usize> {
    let mut root: Vec<usize> = (0..fig.nodes.len()).collect();
    fn find(r: &mut [usize], mut x: usize) -> usize {
        while r[x] != x {
            x = r[x];
        }
        x
    }
    for e in fig.edges.iter().filter(|e| e.agent == agent) {
        let (a, b) = (find(&mut root, e.from), find(&mut root, e.to));
        root[a] = b;
    }
    (0..fig.nodes.len()).map(|i| find(&mut root, i)).collect()
}

/// Every node of `fig` is a world named as `worlds` names it, and the
/// world panel, the SVG, the DOT and the TikZ file give it the same name.
fn check_names(lecture: &Lecture, fig: &Figure, what: &str) {
    let list = listed(lecture);
    let ids: BTreeSet<String> = fig.nodes.iter().map(|n| n.id.clone()).collect();
    assert_eq!(ids.len(), fig.nodes.len(), "{what}: a name twice");
    assert_eq!(
        ids,
        list.keys().cloned().collect(),
        "{what}: the figure's names are the ones `worlds` lists"
    );
    let svg = svg::to_svg(fig, &Look::default());
    let dot = dot::to_dot(fig);
    let tex = tikz::to_tikz(fig, &Look::default());
    for node in &fig.nodes {
        let w = node.world.expect("a world");
        // The world panel (a click on the node) names it so, and it is
        // the engine's world `w`.
        let info = lecture.world(w).unwrap();
        assert_eq!(info.name, node.id, "{what}");
        assert_eq!(
            info.props.iter().cloned().collect::<BTreeSet<_>>(),
            props_at(lecture, w),
            "{what}"
        );
        assert_eq!(
            svg.matches(&format!(r#"data-world="{w}"><title>{}</title>"#, node.id))
                .count(),
            1,
            "{what}: {svg}"
        );
        assert!(
            dot.contains(&format!("w{w}[")) && dot.contains(&format!("xlabel=\"{}\"", node.id)),
            "{what}: {dot}"
        );
        assert!(
            tex.contains(&format!("north west:{}}}] (w{w})", node.id)),
            "{what}: {tex}"
        );
    }
}

#[test]
fn a_written_model_is_drawn_and_explained_with_its_own_names() {
    let mut lecture = Lecture::load("written.deal", WRITTEN, options()).unwrap();
    let fig = lecture.figure_value(&View::default()).unwrap();
    let what = "the written model";
    check_names(&lecture, &fig, what);
    // x and y are bisimilar: one world, named by both.
    let ids: BTreeSet<&str> = fig.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["w2", "w1", "7", "x=y"].into_iter().collect());
    // Against the scenario's text: the node named X has X's propositions,
    // the actual node is `w2`, and each agent's lines join the nodes of
    // the classes written for it.
    let written = written_props();
    for node in &fig.nodes {
        for name in node.id.split('=') {
            let engine = props_at(&lecture, node.world.unwrap());
            let want: BTreeSet<String> = written[name].iter().map(|s| s.to_string()).collect();
            assert_eq!(engine, want, "world {name}");
        }
    }
    assert_eq!(fig.nodes[fig.actual.unwrap()].id, "w2");
    let node_of = |name: &str| {
        fig.nodes
            .iter()
            .position(|n| n.id.split('=').any(|x| x == name))
            .unwrap()
    };
    for agent in 0..2 {
        let class = same_class(&fig, agent);
        for x in written.keys() {
            for y in written.keys() {
                let together = written_classes(agent)
                    .iter()
                    .any(|c| c.contains(x) && c.contains(y));
                assert_eq!(
                    class[node_of(x)] == class[node_of(y)],
                    together,
                    "agent {agent}: {x} and {y}"
                );
            }
        }
    }
    // `why` names a's other world w1, which the figure draws as `w1`, with
    // p true and q false (the scenario's w1), in a's class of the actual
    // world.
    let why = lecture.query("why !K_a q").unwrap().join("\n");
    assert!(why.contains("\n      w1  p"), "{why}");
    let w1 = node_of("w1");
    assert_eq!(
        props_at(&lecture, fig.nodes[w1].world.unwrap()),
        ["p".to_string()].into_iter().collect()
    );
    assert_eq!(
        same_class(&fig, 0)[w1],
        same_class(&fig, 0)[fig.actual.unwrap()]
    );
    // `why` of common knowledge walks a chain by the same names.
    let chain = lecture.query("why C !(q & !p)").unwrap().join("\n");
    assert!(chain.contains("x=y"), "{chain}");
    // After a move the worlds are new ones, named `w0`... everywhere.
    lecture.step();
    assert!(lecture.state().problem.is_none());
    let after = lecture.figure_value(&View::default()).unwrap();
    check_names(&lecture, &after, "after peek");
    for node in &after.nodes {
        assert_eq!(node.id, format!("w{}", node.world.unwrap()));
    }
}

/// `export` (a scenario's own statement, as `dealer export` and the REPL
/// run it) names the worlds as the lecture view does.
#[test]
fn export_names_worlds_as_the_lecture_view_does() {
    let lecture = Lecture::load("written.deal", WRITTEN, options()).unwrap();
    let shown = lecture.figure_value(&View::default()).unwrap();
    let script = syntax::parse(WRITTEN).unwrap();
    let mut session = Session::new(options());
    for stmt in &script.statements {
        if matches!(stmt.kind, syntax::ast::StatementKind::Move(_)) {
            break;
        }
        session.execute(stmt, WRITTEN).unwrap();
    }
    for format in ["fig.dot", "fig.svg", "fig.tex"] {
        let line = format!("export \"{format}\"");
        let stmt = syntax::parse(&line).unwrap().statements.remove(0);
        let out = session.execute(&stmt, &line).unwrap();
        let Some(Output::Figure { figure, .. }) = out.into_iter().next() else {
            panic!("no figure");
        };
        assert_eq!(figure.nodes, shown.nodes, "{format}");
    }
}

/// Worlds of variables are named by their values, in the figure as in
/// `worlds` and `why`; the values are the engine's.
#[test]
fn worlds_of_variables_are_named_by_their_values() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/classics/cheryl.deal"
    );
    let src = std::fs::read_to_string(file).unwrap();
    let lecture = Lecture::load("cheryl.deal", &src, options()).unwrap();
    let fig = lecture.figure_value(&View::default()).unwrap();
    assert_eq!(fig.nodes.len(), 10);
    check_names(&lecture, &fig, "cheryl");
    let play = lecture.session().playing().unwrap();
    for node in &fig.nodes {
        let w = node.world.unwrap();
        let bits = play.model.world(w).props;
        let value = |var: &str| -> u32 {
            play.props
                .iter()
                .zip(&bits)
                .filter_map(|(p, &on)| {
                    let (v, bit) = p.split_once('#')?;
                    (v == var && on).then(|| 1u32 << bit.parse::<u32>().unwrap())
                })
                .sum()
        };
        assert_eq!(
            node.id,
            format!("month={},day={}", value("month"), value("day"))
        );
    }
    assert_eq!(fig.nodes[fig.actual.unwrap()].id, "month=7,day=16");
}

/// One order of cards everywhere: a world's cards are written alike, in
/// the deck's order (`QQA`, never the commonly known part first), by the
/// figure's box, the world panel, `worlds` and `why`, also where the box
/// underlines the commonly known copies of a hand.
#[test]
fn a_world_s_cards_are_written_alike_in_the_figure_the_panel_and_why() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/gofish/simplified.deal"
    );
    let src = std::fs::read_to_string(file).unwrap();
    let mut lecture = Lecture::load("simplified.deal", &src, options()).unwrap();
    lecture.goto("turn 2").unwrap();
    let fig = lecture.figure_value(&View::default()).unwrap();
    let list = listed(&lecture);
    // `why` names another world player 3 considers possible and writes
    // it as `worlds` does.
    let why = lecture.query("why K3 1_QQQ").unwrap().join("\n");
    let mut mixed = 0;
    let mut in_why = 0;
    for node in &fig.nodes {
        let info = lecture.world(node.world.unwrap()).unwrap();
        for line in &node.lines {
            let text: String = line.iter().map(|s| s.text.as_str()).collect();
            let (loc, cards) = text.split_once(": ").unwrap();
            let panel = &info.places.iter().find(|(l, _)| l == loc).unwrap().1;
            assert_eq!(cards, panel, "{}: the box and the world panel", node.id);
            let listed = format!("{loc}:{cards}");
            assert!(
                list[&node.id].split(' ').any(|part| part == listed),
                "{}: the box writes {listed}, `worlds` {}",
                node.id,
                list[&node.id]
            );
            // A line whose commonly known part is not its first cards.
            let known: String = line
                .iter()
                .filter(|s| s.common)
                .map(|s| s.text.as_str())
                .collect();
            if !known.is_empty() && !cards.starts_with(&known) {
                mixed += 1;
            }
        }
        let line = format!("{} {}", node.id, list[&node.id]);
        let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        if why.lines().any(|l| words(l) == words(&line)) {
            in_why += 1;
        }
    }
    assert!(mixed > 0, "no box marks a part that does not come first");
    assert!(
        in_why > 0,
        "`why` writes no drawn world as `worlds` does: {why}"
    );
}
