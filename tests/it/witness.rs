//! `why` answers checked against the model, not only as text: every world a
//! `why` shows is found in the model (by its printed line), and must be one
//! the player or group considers possible from the actual world, with the
//! claimed value of the subformula there; every step of a common-knowledge
//! chain must be a step of the named player's relation. On both engines,
//! including distributed knowledge after a contraction that merges worlds
//! a group tells apart.

use dealer::engine::{Agent, Atom, Formula, GroupAccess, WorldId};
use dealer::interp::explain::world_line;
use dealer::interp::{Engine, Output, Playing, Script, Session};

/// The model of the distributed-knowledge example: each pair of cells of a
/// and b meets in one world, so `D{a,b} p` holds exactly where p does,
/// though a and b each consider a p-world and a non-p-world possible, and
/// contraction merges w0 with w2 and w1 with w3.
fn crossing(actual: &str) -> String {
    format!(
        "model {{\n  agents a b\n  props p\n  world w0: p\n  world w1:\n  world w2: p\n  world w3:\n  \
         a: {{w0 w1}} {{w2 w3}}\n  b: {{w0 w3}} {{w1 w2}}\n  actual {actual}\n}}\n"
    )
}

/// A rows × columns grid: a sees the row, b the column; p and q by a
/// pattern that makes contraction merge worlds.
fn grid(rows: usize, cols: usize, actual: usize) -> String {
    let mut s = String::from("model {\n  agents a b\n  props p q\n");
    for w in 0..rows * cols {
        let (r, c) = (w / cols, w % cols);
        let mut props = Vec::new();
        if (r + c) % 2 == 0 {
            props.push("p");
        }
        if r != c {
            props.push("q");
        }
        s += &format!("  world g{w}: {}\n", props.join(" "));
    }
    let cells = |key: &dyn Fn(usize) -> usize, count: usize| {
        (0..count)
            .map(|k| {
                let ws: Vec<String> = (0..rows * cols)
                    .filter(|&w| key(w) == k)
                    .map(|w| format!("g{w}"))
                    .collect();
                format!("{{{}}}", ws.join(" "))
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    s += &format!("  a: {}\n", cells(&|w| w / cols, rows));
    s += &format!("  b: {}\n", cells(&|w| w % cols, cols));
    s += &format!("  actual g{actual}\n}}\n");
    s
}

/// Replays `src` on `engine`; the session and the lines of the last `why`.
fn replay(src: &str, engine: Engine) -> (Session, Vec<String>) {
    let script = Script::parse("t.deal", src).expect("parses");
    let mut session = crate::common::session_on(engine);
    let mut lines = Vec::new();
    for step in session.replay(&script, 0) {
        for out in step
            .outcome
            .unwrap_or_else(|d| panic!("{}", d.render("t.deal", src, false)))
        {
            if let Output::Lines(l) = out {
                lines = l;
            }
        }
    }
    (session, lines)
}

/// The world whose line is `text` (exactly one).
fn world_of(play: &Playing, text: &str) -> WorldId {
    let model = &*play.model;
    let found: Vec<WorldId> = (0..model.world_count() as usize)
        .filter(|&w| {
            world_line(&play.table, &play.props, play.world_names(), model, w).trim() == text.trim()
        })
        .collect();
    assert_eq!(found.len(), 1, "one world printed as {text:?}: {found:?}");
    found[0]
}

fn prop(play: &Playing, name: &str) -> Formula {
    let i = play.props.iter().position(|p| p == name).expect("a prop");
    Formula::Atom(Atom::Prop(i))
}

fn agent(play: &Playing, name: &str) -> Agent {
    play.table
        .players
        .iter()
        .position(|p| p == name)
        .unwrap_or_else(|| panic!("no agent {name}"))
}

/// Checks a `why` of `K_x φ`, `M_x φ` or `D{..} φ` (φ an atom): the
/// witness world is in the relation and has the claimed value, or the
/// "in all N worlds" count is the relation's size and φ holds in all.
fn check_modal(play: &Playing, lines: &[String], access: &[WorldId], inner: &Formula) {
    let model = &*play.model;
    let reason = lines[1].trim();
    if let Some(rest) = reason.strip_prefix("in all ") {
        let n: usize = rest.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(n, access.len(), "{lines:?}");
        assert!(access.iter().all(|&v| model.eval_at(inner, v).unwrap()));
        return;
    }
    let claimed = if reason.ends_with("is true:") {
        true
    } else {
        assert!(reason.ends_with("is false:"), "{lines:?}");
        false
    };
    let v = world_of(play, &lines[2]);
    assert!(
        access.contains(&v),
        "witness {v} not in {access:?}: {lines:?}"
    );
    assert_eq!(model.eval_at(inner, v).unwrap(), claimed, "{lines:?}");
}

#[test]
fn distributed_knowledge_survives_contraction_on_both_engines() {
    for engine in [Engine::Explicit, Engine::Symbolic] {
        for (actual, holds) in [("w0", true), ("w2", true), ("w1", false), ("w3", false)] {
            let src = format!("{}? D{{a,b}} p\nwhy D{{a,b}} p\n", crossing(actual));
            let (session, lines) = replay(&src, engine);
            let play = session.playing().unwrap();
            let model = &*play.model;
            let d = Formula::D(vec![0, 1], Box::new(prop(play, "p")));
            assert_eq!(
                model.eval_actual(&d).unwrap(),
                holds,
                "{engine:?} at {actual}"
            );
            let word = if holds { "true" } else { "false" };
            assert_eq!(
                lines[0],
                format!("D{{a,b}} p is {word} in the actual world")
            );
            let access = model.group_accessible(GroupAccess::Distributed, &[0, 1], model.actual());
            check_modal(play, &lines, &access, &prop(play, "p"));
            // Each agent alone considers a p-world and a non-p-world possible.
            for a in ["a", "b"] {
                let k = Formula::K(agent(play, a), Box::new(prop(play, "p")));
                assert!(!model.eval_actual(&k).unwrap());
            }
        }
    }
}

#[test]
fn why_witnesses_on_grids_are_worlds_of_the_relation() {
    for engine in [Engine::Explicit, Engine::Symbolic] {
        for (rows, cols) in [(2, 2), (3, 3), (2, 4)] {
            for actual in 0..rows * cols {
                let base = grid(rows, cols, actual);
                for (op, group) in [
                    ("K_a", vec!["a"]),
                    ("K_b", vec!["b"]),
                    ("D{a,b}", vec!["a", "b"]),
                ] {
                    for atom in ["p", "q"] {
                        let src = format!("{base}why {op} {atom}\n");
                        let (session, lines) = replay(&src, engine);
                        let play = session.playing().unwrap();
                        let model = &*play.model;
                        let agents: Vec<Agent> = group.iter().map(|g| agent(play, g)).collect();
                        let access = match agents[..] {
                            [one] => model.accessible(one, model.actual()),
                            _ => model.group_accessible(
                                GroupAccess::Distributed,
                                &agents,
                                model.actual(),
                            ),
                        };
                        check_modal(play, &lines, &access, &prop(play, atom));
                    }
                }
            }
        }
    }
}

#[test]
fn common_knowledge_chains_follow_the_named_players() {
    for engine in [Engine::Explicit, Engine::Symbolic] {
        for actual in 0..9 {
            let src = format!("{}why C{{a,b}} q\n", grid(3, 3, actual));
            let (session, lines) = replay(&src, engine);
            let play = session.playing().unwrap();
            let model = &*play.model;
            let q = prop(play, "q");
            let c = Formula::C(vec![0, 1], Box::new(q.clone()));
            let value = model.eval_actual(&c).unwrap();
            assert!(lines[0].ends_with(if value {
                "true in the actual world"
            } else {
                "false in the actual world"
            }));
            if value {
                continue;
            }
            assert!(lines[1].contains("a chain of possibilities"), "{lines:?}");
            let mut prev = None;
            for line in &lines[2..] {
                let line = line.trim();
                let Some((step, world)) = line.split_once(": ") else {
                    break;
                };
                let w = world_of(play, world);
                match (step, prev) {
                    ("from", None) => assert_eq!(w, model.actual()),
                    (step, Some(p)) => {
                        let who = step.strip_suffix(" considers possible").expect("a step");
                        let a = agent(play, who);
                        assert!(
                            model.accessible(a, p).contains(&w),
                            "{w} not {who}-related to {p}: {lines:?}"
                        );
                    }
                    _ => panic!("bad chain {lines:?}"),
                }
                prev = Some(w);
            }
            let last = prev.expect("a chain");
            assert!(
                !model.eval_at(&q, last).unwrap(),
                "the chain ends where q is false"
            );
        }
    }
}

#[test]
fn worlds_and_why_print_the_written_names_on_both_engines() {
    let src = format!("{}worlds\n", crossing("w2"));
    let shown: Vec<Vec<String>> = [Engine::Explicit, Engine::Symbolic]
        .into_iter()
        .map(|engine| replay(&src, engine).1)
        .collect();
    assert_eq!(
        shown[0],
        [
            "2 world(s) (* is the actual world):",
            "  w0=w2* p",
            "  w1=w3  (no proposition true)"
        ]
    );
    assert_eq!(shown[0], shown[1]);
    // A written world that is not merged keeps its own name, whatever the
    // numbering inside the model; unreachable worlds are not shown.
    let src = "model {\n  agents a b\n  props p q\n  world u: q\n  world v: p q\n  world x: p\n  \
               world y:\n  a: {u} {v x} {y}\n  b: {u} {v} {x} {y}\n  actual x\n}\nworlds\nwhy K_a q\n";
    for engine in [Engine::Explicit, Engine::Symbolic] {
        let (session, lines) = replay(src, engine);
        assert_eq!(
            lines,
            [
                "K_a q is false in the actual world",
                "  a considers possible a world where q is false:",
                "    x* p"
            ],
            "{engine:?}"
        );
        let play = session.playing().unwrap();
        let names = &play.world_names().unwrap().names;
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(sorted, ["v", "x"], "{engine:?}");
    }
}
