//! The `dealer serve` API, driven in-process through the router: loading,
//! stepping, `goto`, queries with `why`, figures, bounds and refusals.

use crate::common::web_call::{call as json_call, call_bytes as call};
use axum::http::StatusCode;
use dealer::interp::{Options, Output, Script, Session};
use dealer::syntax::ast::StatementKind;
use dealer::web::{router, safe_path};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

fn app() -> axum::Router {
    router("scenarios".into(), Duration::from_secs(20))
}

/// Opens Go Fish's lecture scenario: the status and the answer.
async fn open_simplified(app: &axum::Router) -> (StatusCode, Value) {
    let body = json!({"path": "gofish/simplified.deal"});
    json_call(app, "POST", "/api/sessions", Some(body)).await
}

/// `POST /api/sessions/{id}/{action}` with `body`.
async fn act(app: &axum::Router, id: &str, action: &str, body: Value) -> (StatusCode, Value) {
    let uri = format!("/api/sessions/{id}/{action}");
    json_call(app, "POST", &uri, Some(body)).await
}

/// The answer `? q` gets after replaying `file` through its checkpoint `at`, without the server.
fn reference(file: &str, at: &str, q: &str) -> bool {
    let src = std::fs::read_to_string(file).unwrap();
    let script = Script::parse(file, &src).unwrap();
    let mut s = Session::new(Options::default());
    for st in &script.statements {
        s.execute(st, &src).unwrap();
        if matches!(&st.kind, StatementKind::Checkpoint(n) if n.text == at) {
            break;
        }
    }
    let text = format!("? {q}");
    let query = Script::parse("<q>", &text).unwrap();
    match s.execute(&query.statements[0], &text).unwrap().as_slice() {
        [Output::Answer { value, .. }] => *value,
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn lecture_steps_goes_to_a_checkpoint_and_answers_with_why() {
    let app = app();
    let (s, v) = open_simplified(&app).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["state"]["step"], 0);
    // Loading stops before the first move: every expect before it held.
    let ran = v["state"]["ran"].as_array().unwrap();
    assert!(ran.iter().filter(|r| r["expect"] == json!(true)).count() >= 8);
    assert!(ran.iter().all(|r| r["expect"] != json!(false)));

    let (s, v) = json_call(&app, "POST", &format!("/api/sessions/{id}/step"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["step"], 1);
    let (_, v) = act(&app, &id, "goto", json!({"name": "turn 2"})).await;
    let pos = v["pos"].as_u64().unwrap() as usize;
    let text = v["statements"][pos - 1]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        v["statements"].as_array().unwrap()[..pos]
            .iter()
            .any(|s| s["text"] == "checkpoint \"turn 2\""),
        "{text}"
    );

    for q in ["K1 2_A", "C 1_QQ", "K3 1_Q"] {
        let (s, a) = act(&app, &id, "query", json!({"q": q})).await;
        assert_eq!(s, StatusCode::OK, "{a}");
        let first = a["lines"][0].as_str().unwrap();
        let want = reference("scenarios/gofish/simplified.deal", "turn 2", q);
        assert!(
            first.contains(if want { "true" } else { "false" }),
            "{q}: {first}"
        );
    }
    // A bad query is located and changes nothing.
    let (s, a) = act(&app, &id, "query", json!({"q": "K9 2_A"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(a["error"].as_str().unwrap().contains("9"), "{a}");
    let (_, after) = json_call(&app, "GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(after["pos"].as_u64().unwrap() as usize, pos);

    // The figure: an SVG with the actual world marked; a perspective; DOT.
    let (s, svg) = call(&app, "GET", &format!("/api/sessions/{id}/figure"), None).await;
    assert_eq!(s, StatusCode::OK);
    let svg = String::from_utf8(svg).unwrap();
    assert!(svg.contains("<svg"), "{svg}");
    let (s, dot) = call(
        &app,
        "GET",
        &format!("/api/sessions/{id}/figure?format=dot&agent=0&for=A"),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{}", String::from_utf8_lossy(&dot));
    assert!(String::from_utf8(dot).unwrap().contains("graph"));

    // back undoes one step; goto back to "initial" returns to step 0's statements.
    let (_, b) = act(&app, &id, "back", json!({"n": 1})).await;
    assert!(b["pos"].as_u64().unwrap() < pos as u64);
}

#[tokio::test]
async fn path_traversal_is_refused() {
    let app = app();
    for bad in [
        "../Cargo.toml",
        "/etc/passwd",
        "gofish/../../README.md",
        "..",
        "gofish/simplified.deal/../../x.deal",
        "../scenarios/gofish/simplified.deal",
    ] {
        let (s, v) = json_call(&app, "POST", "/api/sessions", Some(json!({"path": bad}))).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains("scenario"), "{v}");
    }
    assert!(safe_path(Path::new("scenarios"), "gofish/simplified.deal").is_ok());
    assert!(safe_path(Path::new("scenarios"), "gofish/%2e%2e/x.deal").is_err());
}

#[tokio::test]
async fn scenario_text_is_never_markup() {
    let app = app();
    let src = "game gofish\nplayers 1 2\ndeck Q*2 A*2\ndeal 1: Q A | 2: Q A\ncheckpoint \"<script>alert(1)</script>\"\n? K1 1_Q\n";
    let (s, v) = json_call(&app, "POST", "/api/sessions", Some(json!({"src": src}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap();
    let (_, svg) = call(&app, "GET", &format!("/api/sessions/{id}/figure"), None).await;
    let svg = String::from_utf8(svg).unwrap();
    assert!(!svg.contains("<script"), "{svg}");
    // The page sets scenario text with textContent only, never innerHTML.
    let (_, js) = call(&app, "GET", "/app.js", None).await;
    let js = String::from_utf8(js).unwrap();
    assert!(!js.contains("innerHTML") && js.contains("textContent"));
    // A syntax error comes back located at its line.
    let (s, v) = json_call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"src": "game gofish\nplayers a b\n<script>\n"})),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["problems"][0]["line"], 3, "{v}");
}

#[tokio::test]
async fn requests_are_bounded() {
    let app = app();
    let big = "#".repeat(300 * 1024);
    let (s, _) = call(&app, "POST", "/api/sessions", Some(json!({"src": big}))).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    let (s, v) = json_call(&app, "GET", "/api/sessions/nosuch", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("expired"));
    // A model over the world budget is refused with a message, not built.
    let src = "game gofish\nplayers 1 2 3 4\ndeck A*4 B*4 C*4 D*4 E*4 F*4 G*4\nstock A*4 B*4 C*4 D*4 E*4 F*4 G*4\n";
    let (s, v) = json_call(&app, "POST", "/api/sessions", Some(json!({"src": src}))).await;
    assert!(s != StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    // The page and its parts are served.
    let (s, page) = call(&app, "GET", "/", None).await;
    assert_eq!(s, StatusCode::OK);
    assert!(String::from_utf8(page).unwrap().contains("/app.js"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_step_and_query_concurrently() {
    let app = app();
    let start = std::time::Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let (s, v) = json_call(
                &app,
                "POST",
                "/api/sessions",
                Some(json!({"path": "gofish/simplified.deal"})),
            )
            .await;
            assert_eq!(s, StatusCode::OK);
            let id = v["id"].as_str().unwrap().to_string();
            for _ in 0..3 {
                let (s, _) =
                    json_call(&app, "POST", &format!("/api/sessions/{id}/step"), None).await;
                assert_eq!(s, StatusCode::OK);
                let (s, _) = json_call(
                    &app,
                    "POST",
                    &format!("/api/sessions/{id}/query"),
                    Some(json!({"q": "K1 2_A"})),
                )
                .await;
                assert_eq!(s, StatusCode::OK);
            }
            let (_, v) = json_call(&app, "GET", &format!("/api/sessions/{id}"), None).await;
            assert_eq!(v["step"], 3);
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert!(start.elapsed() < Duration::from_secs(60));
}

/// The play API: a seeded game against two random agents. A refused move
/// (out of turn, illegal, unknown) answers 400 and leaves the game as it
/// was; every fact of the knowledge panel is true by the engine and the
/// facts left out are false; the same seed gives the same game; the
/// finished game opens as a lecture session whose statements are its moves.
#[tokio::test]
async fn a_game_is_played_through_the_api() {
    use dealer::cards::Size;
    use dealer::play::{agent_named, views, Match, Seat};
    let app = app();
    let play = |seed: u64| {
        let app = app.clone();
        async move {
            let (s, v) = json_call(
                &app,
                "POST",
                "/api/games",
                Some(json!({ "game": "gofish", "seed": seed, "agents": ["random"] })),
            )
            .await;
            assert_eq!(s, StatusCode::OK, "{v}");
            let id = v["id"].as_str().unwrap().to_string();
            let mut state = v["state"].clone();
            let mut refusals = 0;
            while !state["over"].as_bool().unwrap() {
                let uri = if state["my_turn"].as_bool().unwrap() {
                    // A refused move first: the state must not change.
                    let before = json_call(&app, "GET", &format!("/api/games/{id}"), None)
                        .await
                        .1;
                    let (s, e) = json_call(
                        &app,
                        "POST",
                        &format!("/api/games/{id}/move"),
                        Some(json!({ "move": "ask 1 1 Q" })),
                    )
                    .await;
                    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
                    assert!(
                        e["error"].as_str().unwrap().contains("your moves now"),
                        "{e}"
                    );
                    let after = json_call(&app, "GET", &format!("/api/games/{id}"), None)
                        .await
                        .1;
                    assert_eq!(before, after);
                    refusals += 1;
                    let first = state["legal"][0].as_str().unwrap().to_string();
                    let (s, v) = json_call(
                        &app,
                        "POST",
                        &format!("/api/games/{id}/move"),
                        Some(json!({ "move": first })),
                    )
                    .await;
                    assert_eq!(s, StatusCode::OK, "{v}");
                    state = v;
                    continue;
                } else {
                    // An agent is to move: the person may not.
                    let (s, _) = json_call(
                        &app,
                        "POST",
                        &format!("/api/games/{id}/move"),
                        Some(json!({ "move": "draw 1" })),
                    )
                    .await;
                    assert_eq!(s, StatusCode::BAD_REQUEST);
                    format!("/api/games/{id}/agent")
                };
                let (s, v) = json_call(&app, "POST", &uri, None).await;
                assert_eq!(s, StatusCode::OK, "{v}");
                // The knowledge panel comes when the person is to move (or
                // at the end), not while agents are still to move.
                let waiting = !v["over"].as_bool().unwrap() && !v["my_turn"].as_bool().unwrap();
                assert_eq!(v["know"].is_null(), waiting, "{v}");
                assert_eq!(v["known"].is_null(), waiting, "{v}");
                state = v;
            }
            assert!(refusals > 0);
            (id, state)
        }
    };
    let (id, state) = play(11).await;
    let (_, again) = play(11).await;
    assert_eq!(
        state["history"], again["history"],
        "the same seed, the same game"
    );

    // The same game played directly: the same moves, the same scores, and
    // the knowledge panel is exactly the facts the engine says hold.
    let options = Options {
        max_worlds: dealer::web::MAX_WORLDS,
        ..Options::default()
    };
    let mut game = Match::new("gofish", 11, Size::Teaching, options).unwrap();
    let mut seats = vec![Seat::Person];
    for seat in 1..3 {
        seats.push(game.agent_seat(agent_named("random").unwrap(), seat));
    }
    game.seat(seats).unwrap();
    for mv in state["history"].as_array().unwrap() {
        game.play(mv["text"].as_str().unwrap()).unwrap();
    }
    assert!(game.is_over());
    assert_eq!(state["scores"], json!(game.scores()));
    let all = views::first_order(game.rules(), &game.position(), 0);
    let truth = game
        .ask_all(&all.iter().map(|f| f.text.clone()).collect::<Vec<_>>())
        .unwrap();
    let shown: Vec<&str> = state["know"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["formula"].as_str().unwrap())
        .collect();
    assert!(!shown.is_empty());
    for (f, t) in all.iter().zip(truth) {
        assert_eq!(shown.contains(&f.text.as_str()), t, "{}", f.text);
    }

    // The teaching switch shows every hand; without it the others' are hidden.
    let (_, hidden) = json_call(&app, "GET", &format!("/api/games/{id}"), None).await;
    let (_, shown) = json_call(&app, "GET", &format!("/api/games/{id}?reveal=1"), None).await;
    let hands = |v: &Value| -> Vec<bool> {
        v["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["cards"].is_array())
            .collect()
    };
    assert!(hands(&shown).iter().all(|&c| c));
    assert!(!hands(&hidden).iter().all(|&c| c));

    // Opened in the lecture view: a session whose statements are the moves.
    let (s, v) = json_call(&app, "POST", &format!("/api/games/{id}/lecture"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let lecture = v["id"].as_str().unwrap();
    let (s, l) = json_call(&app, "GET", &format!("/api/sessions/{lecture}"), None).await;
    assert_eq!(s, StatusCode::OK);
    let texts: Vec<&str> = l["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| st["text"].as_str().unwrap())
        .collect();
    for mv in state["history"].as_array().unwrap() {
        assert!(texts.contains(&mv["text"].as_str().unwrap()));
    }
}

/// Bad game requests: an unknown game, agent, seat or size; a strategy
/// named by a path; an unknown game id.
#[tokio::test]
async fn bad_game_requests_are_refused() {
    let app = app();
    // Each refusal with its message and the code of the room that refused.
    for (body, code) in [
        (json!({ "game": "poker" }), "no-game"),
        (
            json!({ "game": "gofish", "agents": ["nobody"] }),
            "no-agent",
        ),
        (
            json!({ "game": "gofish", "agents": ["../../etc/passwd"] }),
            "agent-name",
        ),
        (
            json!({ "game": "gofish", "agents": ["random", "random", "random"] }),
            "seats",
        ),
        (json!({ "game": "gofish", "me": "7" }), "no-player"),
        (json!({ "game": "gofish", "size": "huge" }), "size"),
    ] {
        let (s, v) = json_call(&app, "POST", "/api/games", Some(body.clone())).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].is_string());
        assert_eq!(v["code"], code, "{body}: {v}");
    }
    let (s, _) = json_call(&app, "GET", "/api/games/nope", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, list) = json_call(&app, "GET", "/api/games", None).await;
    assert_eq!(s, StatusCode::OK);
    let gofish = list
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "gofish")
        .unwrap();
    assert!(gofish["agents"]
        .as_array()
        .unwrap()
        .contains(&json!("second-order")));
}

/// A world's deal and a perspective's worlds, for every world and several
/// perspectives at Go Fish's "turn 2", against the model of a direct
/// replay; bad worlds, agents and accesses are refused and change nothing.
#[tokio::test]
async fn worlds_and_perspectives_match_the_model() {
    use dealer::engine::GroupAccess;
    let app = app();
    let (_, v) = open_simplified(&app).await;
    let id = v["id"].as_str().unwrap().to_string();
    let (_, before) = act(&app, &id, "goto", json!({"name": "turn 2"})).await;
    // The same position, replayed directly.
    let file = "scenarios/gofish/simplified.deal";
    let src = std::fs::read_to_string(file).unwrap();
    let script = Script::parse(file, &src).unwrap();
    let mut s = Session::new(Options::default());
    let mut reached = false;
    for st in &script.statements {
        if reached && matches!(st.kind, StatementKind::Move(_)) {
            break;
        }
        s.execute(st, &src).unwrap();
        reached |= matches!(&st.kind, StatementKind::Checkpoint(n) if n.text == "turn 2");
    }
    let play = s.playing().unwrap();
    let model = &*play.model;
    let n = model.world_count() as usize;
    assert!(n > 1);
    for w in 0..n {
        let (st, info) =
            json_call(&app, "GET", &format!("/api/sessions/{id}/world/{w}"), None).await;
        assert_eq!(st, StatusCode::OK, "{info}");
        let view = model.world(w);
        for (l, loc) in play.table.locations.iter().enumerate() {
            assert_eq!(info["places"][l][0], json!(loc.name));
            assert_eq!(
                info["places"][l][1],
                json!(play.table.deck.show_cards(&view.cards[l]))
            );
        }
        assert_eq!(info["actual"], json!(w == model.actual()));
    }
    let cases = [
        ("0", "K", None),
        ("2", "K", None),
        ("0,1", "E", Some(GroupAccess::Everybody)),
        ("0,2", "C", Some(GroupAccess::Common)),
        ("0,1", "D", Some(GroupAccess::Distributed)),
    ];
    for (agents, access, group) in cases {
        let (st, v) = json_call(
            &app,
            "GET",
            &format!("/api/sessions/{id}/perspective?agents={agents}&access={access}"),
            None,
        )
        .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let list: Vec<usize> = agents.split(',').map(|a| a.parse().unwrap()).collect();
        let want = match group {
            None => model.accessible(list[0], model.actual()),
            Some(g) => model.group_accessible(g, &list, model.actual()),
        };
        assert_eq!(v["worlds"], json!(want), "{access}{agents}");
        // The figure shades the same worlds in the file itself (a
        // download keeps the perspective).
        let (st, dot) = call(
            &app,
            "GET",
            &format!("/api/sessions/{id}/figure?format=dot&agents={agents}&access={access}"),
            None,
        )
        .await;
        assert_eq!(st, StatusCode::OK);
        let dot = String::from_utf8(dot).unwrap();
        for w in 0..n {
            let line = dot
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("w{w}[")))
                .unwrap();
            assert_eq!(
                line.contains("fillcolor"),
                want.contains(&w),
                "{access}{agents}: {line}"
            );
        }
    }
    for bad in [
        format!("/api/sessions/{id}/world/{n}"),
        format!("/api/sessions/{id}/perspective?agents=7&access=K"),
        format!("/api/sessions/{id}/perspective?agents=0,1&access=Q"),
        format!("/api/sessions/{id}/perspective?agents=0,1&access=K"),
        format!("/api/sessions/{id}/figure?agents=0,9"),
        format!("/api/sessions/{id}/figure?agent=9"),
        format!("/api/sessions/{id}/figure?agents=0,1&access=K"),
        format!("/api/sessions/{id}/figure?access=C"),
    ] {
        let (st, v) = json_call(&app, "GET", &bad, None).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let (_, after) = json_call(&app, "GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(before, after);
}
