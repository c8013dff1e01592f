//! `dealer serve` under a bug or a heavy user: a panicking job answers 500
//! and takes no other session down; the sessions' memory is bounded (the
//! least recently used closed, answered 410); scenario files under the
//! root are size-checked; one session's heavy request does not hold up
//! another's.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use dealer::engine::cancel;
use dealer::interp::Options;
use dealer::web::lecture::Lecture;
use dealer::web::pool::{Failure, Pool};
use dealer::web::{router_with, Limits};
use serde_json::{json, Value};

use crate::common::web_call;
use web_call::call;

async fn load(app: &axum::Router, path: &str) -> (StatusCode, Value) {
    call(app, "POST", "/api/sessions", Some(json!({ "path": path }))).await
}

async fn load_id(app: &axum::Router, path: &str) -> String {
    let (s, v) = load(app, path).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["id"].as_str().unwrap().to_string()
}

async fn ask(app: &axum::Router, id: &str, q: &str) -> (StatusCode, Value) {
    let uri = format!("/api/sessions/{id}/query");
    call(app, "POST", &uri, Some(json!({ "q": q }))).await
}

/// A job that panics (a real panic, raised by the tests' hidden switch
/// `Limits::panic_on_query`) answers 500 with a JSON message; its session,
/// the other sessions and new loads all go on, however often it happens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_job_answers_500_and_takes_nothing_down() {
    let app = router_with(
        "scenarios".into(),
        Limits {
            panic_on_query: Some("K1 boom".into()),
            ..Limits::default()
        },
    );
    let a = load_id(&app, "gofish/simplified.deal").await;
    let b = load_id(&app, "gofish/simplified.deal").await;
    for round in 0..3 {
        let (s, v) = ask(&app, &a, "K1 boom").await;
        assert_eq!(s, StatusCode::INTERNAL_SERVER_ERROR, "round {round}: {v}");
        assert_eq!(v["code"], "internal", "{v}");
        let message = v["error"].as_str().unwrap();
        assert!(message.contains("a bug"), "{message}");
        assert!(message.contains("the test's panic"), "{message}");
        // The same session, another one and a new load all answer.
        for id in [&a, &b] {
            let (s, v) = ask(&app, id, "K1 2_A").await;
            assert_eq!(s, StatusCode::OK, "{v}");
            let first = v["lines"][0].as_str().unwrap();
            assert!(first.starts_with("K1 2_A is false"), "{v}");
        }
        let c = load_id(&app, "gofish/simplified.deal").await;
        let (s, v) = call(&app, "POST", &format!("/api/sessions/{c}/step"), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["step"], 1, "{v}");
    }
}

/// With a bound that holds one session of a scenario and not two, loading
/// a second closes the least recently used one: its next request answers
/// 410 with the reason, and the other sessions answer as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_memory_bound_the_least_recently_used_session_is_closed() {
    let path = "gofish/simplified.deal";
    let src = std::fs::read_to_string(format!("scenarios/{path}")).unwrap();
    let options = Options {
        max_worlds: dealer::web::MAX_WORLDS,
        ..Options::default()
    };
    let one = Lecture::load(path, &src, options)
        .unwrap()
        .estimated_bytes();
    eprintln!("a session of {path}: about {one} bytes");
    assert!(one > 0);
    let app = router_with(
        "scenarios".into(),
        Limits {
            memory: one * 5 / 2,
            ..Limits::default()
        },
    );
    let a = load_id(&app, path).await;
    let b = load_id(&app, path).await;
    // `a` used last: `b` is the least recently used when `c` comes.
    assert_eq!(ask(&app, &a, "K1 2_A").await.0, StatusCode::OK);
    let c = load_id(&app, path).await;
    let (s, v) = ask(&app, &b, "K1 2_A").await;
    assert_eq!(s, StatusCode::GONE, "{v}");
    assert_eq!(
        v["error"],
        "this session was closed to free memory; load the scenario again"
    );
    let (s, v) = call(&app, "POST", &format!("/api/sessions/{b}/step"), None).await;
    assert_eq!(s, StatusCode::GONE, "{v}");
    for id in [&a, &c] {
        assert_eq!(ask(&app, id, "K1 2_A").await.0, StatusCode::OK);
    }
    // An id that never was is still "no such session".
    let (s, _) = ask(&app, "00000000000000000000", "K1 2_A").await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // A session that alone passes the bound is refused, and nothing closed.
    let small = router_with(
        "scenarios".into(),
        Limits {
            memory: one / 2,
            ..Limits::default()
        },
    );
    let (s, v) = load(&small, path).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    let message = v["error"].as_str().unwrap();
    assert!(
        message.contains("more than the server's bound"),
        "{message}"
    );
}

/// A pool's own count: the estimates it holds add up, and closing frees them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_counts_what_it_holds() {
    let pool = Pool::new(&Limits::default());
    assert_eq!(pool.held(), (0, 0));
    let src = std::fs::read_to_string("scenarios/gofish/simplified.deal").unwrap();
    let kept = pool
        .run("s", move |sessions, _| {
            let l = Lecture::load("g", &src, Options::default()).unwrap();
            let bytes = l.estimated_bytes();
            sessions.insert("s".into(), l).map(|()| bytes)
        })
        .await
        .unwrap()
        .unwrap();
    // A job that keeps nothing leaves no session behind.
    pool.run("t", |_, _| ()).await.unwrap();
    assert_eq!(pool.held(), (1, kept));
}

/// A file under the root larger than the limit is refused (413) with the
/// sizes, before it is read: a sparse file past the default 64 MiB limit
/// is refused at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_under_the_root_past_the_size_limit_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let small = std::fs::read_to_string("scenarios/gofish/simplified.deal").unwrap();
    std::fs::write(root.path().join("ok.deal"), &small).unwrap();
    let mut padded = small.clone();
    padded.push_str(&"% padding\n".repeat(200));
    std::fs::write(root.path().join("big.deal"), &padded).unwrap();
    let app = router_with(
        root.path().to_path_buf(),
        Limits {
            file: small.len() as u64,
            ..Limits::default()
        },
    );
    assert_eq!(load(&app, "ok.deal").await.0, StatusCode::OK);
    let (s, v) = load(&app, "big.deal").await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    let message = v["error"].as_str().unwrap();
    assert!(message.starts_with("big.deal: the file has "), "{message}");
    assert!(message.contains("more than the"), "{message}");

    let huge = std::fs::File::create(root.path().join("huge.deal")).unwrap();
    huge.set_len((64 << 20) + 1).unwrap();
    let app = router_with(root.path().to_path_buf(), Limits::default());
    let started = Instant::now();
    let (s, v) = load(&app, "huge.deal").await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("67,108,865 bytes"),
        "{v}"
    );
    assert!(started.elapsed() < Duration::from_secs(1));
}

/// Session A's heavy request (muddy children with 100 children, every
/// round played: `goto` a checkpoint added at its end, about 2 s) does not
/// hold up session B's question: B is answered within a second, while A's
/// request still runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_heavy_request_does_not_hold_up_another_session() {
    let app = router_with("scenarios".into(), Limits::default());
    let mut src = std::fs::read_to_string("scenarios/bench/muddy-100.deal").unwrap();
    src.push_str("\ncheckpoint \"end\"\n");
    let (s, v) = call(&app, "POST", "/api/sessions", Some(json!({ "src": src }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let a = v["id"].as_str().unwrap().to_string();
    let b = load_id(&app, "gofish/simplified.deal").await;
    let heavy = {
        let app = app.clone();
        tokio::spawn(async move {
            let started = Instant::now();
            let uri = format!("/api/sessions/{a}/goto");
            let (s, v) = call(&app, "POST", &uri, Some(json!({ "name": "end" }))).await;
            (s, v, started.elapsed())
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = Instant::now();
    let (s, v) = ask(&app, &b, "K1 2_A").await;
    let light = asked.elapsed();
    let still_running = !heavy.is_finished();
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v, heavy_took) = heavy.await.unwrap();
    assert_eq!(s, StatusCode::OK);
    // Every expectation held, to the last: every child knows.
    assert!(v["problem"].is_null(), "{v}");
    let ran = v["ran"].as_array().unwrap();
    assert!(ran.iter().all(|r| r["expect"] != false));
    assert!(ran.iter().any(|r| r["expect"] == true), "{v}");
    assert_eq!(
        v["pos"],
        v["statements"].as_array().unwrap().len(),
        "at the end"
    );
    eprintln!("heavy request: {heavy_took:?}; light request meanwhile: {light:?}");
    assert!(still_running, "A's request ended first ({heavy_took:?})");
    assert!(
        light < Duration::from_secs(1),
        "the light request took {light:?}"
    );
}

/// The pool itself: a job that would run until stopped, on session A, and
/// a job of session B sent after it; B's answer comes at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_session_does_not_hold_up_another() {
    let pool = std::sync::Arc::new(Pool::new(&Limits {
        time: Duration::from_secs(3),
        ..Limits::default()
    }));
    let busy = {
        let pool = pool.clone();
        tokio::spawn(async move {
            pool.run("a", |_, _| {
                while cancel::check().is_ok() {
                    std::hint::black_box(());
                }
            })
            .await
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let asked = Instant::now();
    let answer = pool.run("b", |_, waiting| waiting()).await.unwrap();
    let took = asked.elapsed();
    assert!(answer);
    assert!(took < Duration::from_millis(500), "waited {took:?}");
    assert!(!busy.is_finished(), "A's job still runs");
    assert!(matches!(busy.await.unwrap(), Err(Failure::Timeout(_))));
}

/// Cancel is per session: two sessions' jobs each run until stopped;
/// cancelling A's stops A's at once while B's runs on, until B's own
/// cancel. (The engine's stop request is the job's token, not the process's.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_one_sessions_job_leaves_another_running() {
    let pool = std::sync::Arc::new(Pool::new(&Limits {
        time: Duration::from_secs(20),
        ..Limits::default()
    }));
    let spin = |id: &'static str| {
        let pool = pool.clone();
        tokio::spawn(async move {
            pool.run(id, |_, _| {
                let mut steps = 0u64;
                while cancel::check().is_ok() {
                    steps = std::hint::black_box(steps + 1);
                }
                steps
            })
            .await
        })
    };
    let (a, b) = (spin("a"), spin("b"));
    // Both jobs are sent, waited for (so a cancel finds them) and running.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(pool.cancel("a"), 1, "A's one job cancelled");
    let a = tokio::time::timeout(Duration::from_secs(5), a).await;
    assert!(matches!(a, Ok(Ok(Ok(_)))), "A's job stopped: {a:?}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!b.is_finished(), "B's job still runs after A's cancel");
    assert_eq!(pool.cancel("b"), 1);
    let b = tokio::time::timeout(Duration::from_secs(5), b).await;
    assert!(matches!(b, Ok(Ok(Ok(_)))), "B's job stopped: {b:?}");
}

/// Muddy children with 100 children after 96 rounds of "nobody knows":
/// the worlds where at least 97 are muddy, C(100,97) + C(100,98) +
/// C(100,99) + 1 = 166,751. That is within the symbolic engine's 200,000
/// worlds to list, but listing them computes 100 relations: the figure and
/// the quiz of this step were stopped at the time limit (20 s) while the
/// server listed. The list budget now counts (world, agent) pairs, so the
/// figure says at once that the model is too large, with its count and
/// what each child considers possible (the world where it is clean, and
/// the actual one), and the quiz answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn muddy_children_after_96_rounds_is_drawn_as_too_large_at_once() {
    let app = router_with("scenarios".into(), Limits::default());
    let src = std::fs::read_to_string("scenarios/bench/muddy-100.deal").unwrap();
    let mut kept: Vec<&str> = Vec::new();
    for line in src.lines() {
        kept.push(line);
        if line.trim_end().ends_with("# round 96") {
            break;
        }
    }
    let src = format!("{}\ncheckpoint \"r96\"\n", kept.join("\n"));
    let (s, v) = call(&app, "POST", "/api/sessions", Some(json!({ "src": src }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let uri = format!("/api/sessions/{id}/goto");
    let (s, v) = call(&app, "POST", &uri, Some(json!({ "name": "r96" }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["step"], 97, "the father and 96 rounds");

    let req = axum::http::Request::builder()
        .uri(format!("/api/sessions/{id}/figure"))
        .body(axum::body::Body::empty())
        .unwrap();
    use tower::ServiceExt;
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 24)
        .await
        .unwrap();
    let svg = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(
        svg.contains("the model has 166,751 worlds, too many to draw"),
        "{}",
        &svg[..svg.len().min(2000)]
    );
    for child in [1, 50, 100] {
        assert!(svg.contains(&format!("player {child} considers 2 possible")));
    }
    let (s, v) = call(&app, "GET", &format!("/api/sessions/{id}/quiz"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// A stopped job that the engine cannot interrupt (here a job that never
/// looks at its token, as one large BDD operation of a deal's build does
/// not) keeps its session's thread. The session's next request is answered
/// within a second, refused with `Stopping`, instead of queueing behind it
/// until its own time limit; once the stopped job ends, requests are
/// served again, and another session was never held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_after_a_stopped_job_that_cannot_stop_is_answered_at_once() {
    let pool = std::sync::Arc::new(Pool::new(&Limits {
        time: Duration::from_millis(300),
        ..Limits::default()
    }));
    let started = Instant::now();
    let stuck = pool
        .run("a", |_, _| std::thread::sleep(Duration::from_millis(2500)))
        .await;
    assert!(matches!(stuck, Err(Failure::Timeout(_))), "{stuck:?}");
    let asked = Instant::now();
    let next = pool.run("a", |_, _| 7).await;
    let took = asked.elapsed();
    assert!(matches!(next, Err(Failure::Stopping)), "{next:?}");
    assert!(took < Duration::from_secs(1), "waited {took:?}");
    assert_eq!(pool.run("b", |_, _| 8).await.unwrap(), 8);
    // The stopped job ends at 2.5 s; then the session answers again.
    tokio::time::sleep(Duration::from_millis(2700).saturating_sub(started.elapsed())).await;
    assert_eq!(pool.run("a", |_, _| 9).await.unwrap(), 9);
}
