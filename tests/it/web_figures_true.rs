//! Every scenario under `scenarios/`, opened in the lecture view (the
//! library call the web handler makes, `Lecture::figure_value`), draws at
//! every checkpoint and at its end a true figure: exactly the model's
//! worlds, each agent's classes and the actual world; or, when the model is
//! too large to draw, a figure that says it is a per-card projection, whose
//! places are the engine's placements of that card and whose counts are
//! the engine's. One test per folder, so that they run in parallel.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use dealer::engine::{Among, Backend, Formula};
use dealer::figure::{Figure, View};
use dealer::interp::Options;
use dealer::web::lecture::Lecture;

fn files(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "deal"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no scenario under {}", root.display());
    out
}

/// Union-find classes of the nodes an agent's lines connect.
fn classes(fig: &Figure, agent: usize) -> Vec<usize> {
    let mut root: Vec<usize> = (0..fig.nodes.len()).collect();
    fn find(r: &mut [usize], mut x: usize) -> usize {
        while r[x] != x {
            r[x] = r[r[x]];
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

/// The figure draws every world of the model (they are all reachable from
/// the actual one), each agent's relation exactly, and the actual world.
fn check_whole(fig: &Figure, model: &dyn Backend, what: &str) {
    model
        .listable()
        .unwrap_or_else(|e| panic!("{what}: drawn whole but not listable: {e}"));
    let n = model.world_count() as usize;
    assert_eq!(fig.nodes.len(), n, "{what}: node count");
    let world_of: Vec<usize> = fig
        .nodes
        .iter()
        .map(|node| {
            node.world
                .unwrap_or_else(|| panic!("{what}: node {} is not a world", node.id))
        })
        .collect();
    let distinct: BTreeSet<usize> = world_of.iter().copied().collect();
    assert_eq!(distinct, (0..n).collect(), "{what}: the drawn worlds");
    let actual = fig.actual.expect("the actual world is drawn");
    assert_eq!(world_of[actual], model.actual(), "{what}: the actual world");
    let node_of: BTreeMap<usize, usize> =
        world_of.iter().enumerate().map(|(i, &w)| (w, i)).collect();
    for &agent in &fig.shown {
        if fig.directed {
            let drawn: BTreeSet<(usize, usize)> = fig
                .edges
                .iter()
                .filter(|e| e.agent == agent)
                .map(|e| (world_of[e.from], world_of[e.to]))
                .collect();
            let engine: BTreeSet<(usize, usize)> = (0..n)
                .flat_map(|w| model.accessible(agent, w).into_iter().map(move |v| (w, v)))
                .collect();
            assert_eq!(drawn, engine, "{what}: agent {agent}'s arrows");
            continue;
        }
        let class = classes(fig, agent);
        for w in 0..n {
            let engine: BTreeSet<usize> = model.accessible(agent, w).into_iter().collect();
            let drawn: BTreeSet<usize> = (0..n)
                .filter(|v| class[node_of[v]] == class[node_of[&w]])
                .collect();
            assert_eq!(drawn, engine, "{what}: agent {agent}'s class of w{w}");
        }
    }
    // Nothing else is drawn: every agent's lines are the shown agents'.
    assert!(fig.edges.iter().all(|e| fig.shown.contains(&e.agent)));
}

/// How many copies of `name` a projection's label gives each location.
fn key_of(fig: &Figure, node: usize, locations: &[String], name: &str) -> Vec<u32> {
    let mut key = vec![0; locations.len()];
    for line in &fig.nodes[node].lines {
        let text: String = line.iter().map(|s| s.text.as_str()).collect();
        let (loc, cards) = text.split_once(": ").expect("`loc: cards`");
        let l = locations.iter().position(|x| x == loc).expect("a location");
        key[l] = cards.matches(name).count() as u32;
    }
    key
}

fn check_counts(fig: &Figure, model: &dyn Backend, what: &str) {
    let c = fig
        .counts
        .as_ref()
        .expect("a figure that shows less than the model gives its counts");
    assert_eq!(c.worlds, model.world_count_big(), "{what}: world count");
    for a in 0..model.agents() {
        assert_eq!(
            c.considers[a],
            model.considers_big(a),
            "{what}: agent {a}'s count"
        );
    }
    let notes = fig.count_notes();
    assert!(
        notes[0].contains(&dealer::figure::grouped(&c.worlds)),
        "{what}: {notes:?}"
    );
    if model.listable().is_ok() {
        // Where the worlds can be listed, the engine's counts are the lists'.
        assert_eq!(c.worlds, (model.world_count() as u64).into());
        for a in 0..model.agents() {
            let listed = model.accessible(a, model.actual()).len() as u64;
            assert_eq!(c.considers[a], listed.into(), "{what}: agent {a}");
        }
    }
}

fn check_projection(fig: &Figure, model: &dyn Backend, lecture: &Lecture, what: &str) {
    let play = lecture.session().playing().unwrap();
    let p = fig.projected.as_ref().unwrap();
    assert!(
        fig.caption.contains(&format!("where {} is", p.name)),
        "{what}: {}",
        fig.caption
    );
    assert!(fig.count_notes()[0].starts_with("a projection"), "{what}");
    check_counts(fig, model, what);
    let locations: Vec<String> = play
        .table
        .locations
        .iter()
        .map(|l| l.name.clone())
        .collect();
    let keys: Vec<Vec<u32>> = (0..fig.nodes.len())
        .map(|i| key_of(fig, i, &locations, &p.name))
        .collect();
    let shares = model
        .shares(p.card, &Among::Reachable, &Formula::Top, 10_000)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let engine: BTreeSet<Vec<u32>> = shares.iter().map(|s| s.key.clone()).collect();
    let drawn: BTreeSet<Vec<u32>> = keys.iter().cloned().collect();
    assert_eq!(drawn.len(), keys.len(), "{what}: a place drawn twice");
    assert_eq!(drawn, engine, "{what}: the places of {}", p.name);
    let actual = shares.iter().find(|s| s.actual).unwrap();
    assert_eq!(
        keys[fig.actual.unwrap()],
        actual.key,
        "{what}: the actual place"
    );
    if model.listable().is_err() {
        return;
    }
    // Lines: two places are linked for an agent when it cannot tell a
    // world of the one from a world of the other (listed naively).
    let n = model.world_count() as usize;
    let place: Vec<usize> = (0..n)
        .map(|w| {
            let cards = model.world(w).cards;
            let key: Vec<u32> = cards.iter().map(|at| at[p.card]).collect();
            keys.iter()
                .position(|k| *k == key)
                .expect("every world's place is drawn")
        })
        .collect();
    for &agent in &fig.shown {
        let mut linked = BTreeSet::new();
        for w in 0..n {
            for v in model.accessible(agent, w) {
                if place[w] != place[v] {
                    linked.insert((place[w].min(place[v]), place[w].max(place[v])));
                }
            }
        }
        let drawn_pairs: BTreeSet<(usize, usize)> = if fig.complete {
            fig.edges
                .iter()
                .filter(|e| e.agent == agent)
                .map(|e| (e.from.min(e.to), e.from.max(e.to)))
                .collect()
        } else {
            let class = classes(fig, agent);
            (0..keys.len())
                .flat_map(|i| (i + 1..keys.len()).map(move |j| (i, j)))
                .filter(|&(i, j)| class[i] == class[j])
                .collect()
        };
        assert_eq!(
            drawn_pairs, linked,
            "{what}: agent {agent}'s lines between places"
        );
    }
}

fn check_position(lecture: &Lecture, what: &str) -> Option<&'static str> {
    let play = lecture.session().playing()?;
    let model = &*play.model;
    let fig = lecture
        .figure_value(&View::default())
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    match (&fig.projected, &fig.counts) {
        (None, None) => {
            check_whole(&fig, model, what);
            Some("whole")
        }
        (Some(_), _) => {
            check_projection(&fig, model, lecture, what);
            Some("projection")
        }
        (None, Some(_)) => {
            // The actual world alone: the model is too large to draw and
            // no card's places fit.
            assert_eq!(fig.nodes.len(), 1, "{what}");
            assert_eq!(fig.actual, Some(0));
            assert!(fig.edges.is_empty());
            assert!(fig.caption.starts_with("the actual world alone"), "{what}");
            check_counts(&fig, model, what);
            assert!(
                model.listable().is_err()
                    || model.world_count() > View::default().max_nodes as u128,
                "{what}: drawn alone though small"
            );
            Some("actual alone")
        }
    }
}

/// Opens each scenario of `dir` and checks its figure at every checkpoint
/// and at the end; returns how many figures of each sort were checked.
fn check_dir(dir: &str) -> BTreeMap<&'static str, usize> {
    let options = Options {
        max_worlds: dealer::web::MAX_WORLDS,
        ..Options::default()
    };
    let mut seen = BTreeMap::new();
    for file in files(dir) {
        let name = file
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .display()
            .to_string();
        let src = std::fs::read_to_string(&file).unwrap();
        let mut lecture =
            Lecture::load(&name, &src, options).unwrap_or_else(|p| panic!("{name}: {p:?}"));
        for cp in lecture.state().checkpoints {
            lecture.goto(&cp).unwrap();
            assert!(
                lecture.state().problem.is_none(),
                "{name}: {:?}",
                lecture.state().problem
            );
            if let Some(kind) = check_position(&lecture, &format!("{name} at {cp}")) {
                *seen.entry(kind).or_default() += 1;
            }
        }
        loop {
            let before = lecture.state().pos;
            lecture.step();
            if lecture.state().pos == before {
                break;
            }
        }
        assert!(
            lecture.state().problem.is_none(),
            "{name}: {:?}",
            lecture.state().problem
        );
        if let Some(kind) = check_position(&lecture, &format!("{name} at its end")) {
            *seen.entry(kind).or_default() += 1;
        }
    }
    seen
}

#[test]
fn bench_scenarios_draw_true_figures() {
    let seen = check_dir("bench");
    assert!(seen.get("projection").is_some_and(|&n| n > 0), "{seen:?}");
}

#[test]
fn cabo_scenarios_draw_true_figures() {
    check_dir("cabo");
}

#[test]
fn classic_puzzles_draw_true_figures() {
    let seen = check_dir("classics");
    assert!(seen.get("whole").is_some_and(|&n| n > 5), "{seen:?}");
}

#[test]
fn gofish_scenarios_draw_true_figures() {
    let seen = check_dir("gofish");
    // simplified.deal is drawn whole; full-deck.deal as projections.
    assert!(seen["whole"] >= 9 && seen["projection"] >= 4, "{seen:?}");
}

#[test]
fn kemps_scenarios_draw_true_figures() {
    let seen = check_dir("kemps");
    assert!(seen.get("projection").is_some_and(|&n| n > 0), "{seen:?}");
}

#[test]
fn konigrufen_scenarios_draw_true_figures() {
    check_dir("konigrufen");
}

#[test]
fn kwartet_scenarios_draw_true_figures() {
    // full-deck.deal (4.7·10^28 worlds) among them, as a projection.
    let seen = check_dir("kwartet");
    assert!(seen.get("projection").is_some_and(|&n| n > 0), "{seen:?}");
}

/// The same through HTTP: Kemps' sixes (3,153,150 worlds) comes back as a
/// projection whose legend gives the engine's counts, the card named in a
/// header for the page's menu; a card the lecturer picks and one player's
/// worlds are drawn as asked; PNG is drawn without Graphviz.
#[tokio::test]
async fn the_web_figure_of_a_large_model_says_it_is_a_projection() {
    use axum::body::{to_bytes, Body};
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;
    let app = dealer::web::router("scenarios".into(), std::time::Duration::from_secs(60));
    let send = |method: &str, uri: String, body: Option<serde_json::Value>| {
        let app = app.clone();
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .unwrap();
        async move {
            let resp = app.oneshot(req).await.unwrap();
            let status = resp.status();
            let card = resp
                .headers()
                .get("x-dealer-projected")
                .map(|v| v.to_str().unwrap().to_string());
            let bytes = to_bytes(resp.into_body(), 1 << 24).await.unwrap().to_vec();
            (status, card, bytes)
        }
    };
    let (s, _, body) = send(
        "POST",
        "/api/sessions".into(),
        Some(serde_json::json!({"path": "kemps/sixes.deal"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let id = v["id"].as_str().unwrap().to_string();
    assert!(v["state"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "6S"));
    let (s, card, svg) = send("GET", format!("/api/sessions/{id}/figure?format=svg"), None).await;
    assert_eq!(s, StatusCode::OK);
    let svg = String::from_utf8(svg).unwrap();
    let card = card.expect("the projected card");
    assert!(
        svg.contains("a projection: the model has 3,153,150 worlds"),
        "{svg}"
    );
    assert!(svg.contains(&format!("where {card} is")));
    assert!(svg.contains("player 2 considers 3,150 possible"));
    // The lecturer's own card: no header, the card asked for.
    let (s, card, svg) = send(
        "GET",
        format!("/api/sessions/{id}/figure?format=svg&for=6S"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(card, None);
    assert!(String::from_utf8(svg).unwrap().contains("where 6S is"));
    // Player 2's worlds (3,150 of them): still a projection, of those.
    let (s, card, svg) = send(
        "GET",
        format!("/api/sessions/{id}/figure?format=svg&only=1"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert!(card.is_some());
    assert!(String::from_utf8(svg)
        .unwrap()
        .contains("the worlds player 2 considers possible"));
    let (s, _, png) = send("GET", format!("/api/sessions/{id}/figure?format=png"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(png.starts_with(b"\x89PNG"));
    let (s, _, _) = send(
        "GET",
        format!("/api/sessions/{id}/figure?format=svg&only=9"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}
