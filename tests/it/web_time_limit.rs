//! A request past the server's time limit is stopped where the engine
//! works (a cancel token per request, not a process-wide flag) and answered
//! with a status browsers do not re-send (not 408); the session's next
//! request answers at once.

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use dealer::engine::cancel;
use dealer::web::pool::{Failure, Limits, Pool};
use dealer::web::router;
use serde_json::json;

use crate::common::web_call;
use web_call::call;

/// The test: with `--time-limit 2`, a figure of the full-deck Go
/// Fish model (7.6·10^22 worlds), then a question that must be answered
/// within a second of the figure's answer, whatever the figure's fate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_deck_figure_does_not_hold_up_the_next_question() {
    let app = router("scenarios".into(), Duration::from_secs(2));
    let (s, v) = call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"path": "gofish/full-deck.deal"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();

    let started = Instant::now();
    let (s, v) = call(
        &app,
        "GET",
        &format!("/api/sessions/{id}/figure?format=svg"),
        None,
    )
    .await;
    let figure_took = started.elapsed();
    assert!(
        figure_took < Duration::from_secs(4),
        "the figure took {figure_took:?}"
    );
    // Either a figure (an SVG, which is not JSON) or the time limit's answer.
    if s != StatusCode::OK {
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
        assert_eq!(v["code"], "time-limit", "{v}");
    }
    assert_ne!(s, StatusCode::REQUEST_TIMEOUT);

    let asked = Instant::now();
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/sessions/{id}/query"),
        Some(json!({"q": "? K1 hand2(QH)"})),
    )
    .await;
    let took = asked.elapsed();
    assert_eq!(s, StatusCode::OK, "{v}");
    // Player 2 holds QH; player 1 does not see it.
    assert_eq!(v["lines"][0], "? K1 hand2(QH): false", "{v}");
    assert!(
        took < Duration::from_secs(1),
        "the question waited {took:?}"
    );
}

fn limits(time: Duration) -> Limits {
    Limits {
        time,
        ..Limits::default()
    }
}

/// A job that would never end by itself (it only stops when the engine's
/// check says so) is stopped at the time limit, answered as such, and the
/// same session's next job runs at once; a job of another worker's
/// session was never held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_past_the_limit_is_stopped_and_the_next_one_runs() {
    let pool = Pool::new(&limits(Duration::from_millis(300)));
    let started = Instant::now();
    let stuck = pool
        .run("s", |_, waiting| {
            let mut rounds = 0u64;
            while cancel::check().is_ok() {
                rounds += 1;
                std::hint::black_box(rounds);
            }
            // Stopped: the caller no longer waits, so nothing is committed.
            assert!(!waiting());
            rounds
        })
        .await;
    assert!(matches!(stuck, Err(Failure::Timeout(_))), "{stuck:?}");
    let next = Instant::now();
    let answer = pool.run("s", |_, waiting| waiting()).await.unwrap();
    assert!(answer, "the next job's caller waits");
    assert!(
        next.elapsed() < Duration::from_millis(200),
        "waited {:?}",
        next.elapsed()
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    // The process-wide flag was never raised: other threads are not stopped.
    assert!(cancel::check().is_ok());
}

/// A game's move (run to its end) is not cancelled by the limit: the game
/// keeps a move that was made late, as docs/web.md says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_game_move_is_not_cancelled() {
    let pool = Pool::new(&limits(Duration::from_millis(100)));
    let (tx, rx) = std::sync::mpsc::channel();
    let late = pool
        .run_to_end("g", move |_, _| {
            std::thread::sleep(Duration::from_millis(250));
            let _ = tx.send(cancel::check().is_ok());
        })
        .await;
    assert!(matches!(late, Err(Failure::Timeout(_))));
    assert_eq!(rx.recv_timeout(Duration::from_secs(2)), Ok(true));
}

/// The page's Cancel (`POST /api/sessions/{id}/cancel`): a long query
/// (muddy children with 200 children, the father's announcement and 150
/// rounds of "nobody knows" inside one `?`, about 9 s in a test build)
/// is stopped a moment after it started; it answers as interrupted at
/// once, and the session's next, light question is answered within a
/// second of the Cancel, the session as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_stops_a_long_query_and_the_next_question_answers_at_once() {
    let app = router("scenarios".into(), Duration::from_secs(60));
    // The scenario up to the father's announcement (its first move), with
    // the announcement as a `let`.
    let full = dealer::cli::gen::muddy(200);
    let mut src = String::new();
    for line in full.lines() {
        if let Some(some) = line.strip_prefix("announce ") {
            src.push_str(&format!("let some = {}\n", some.split('#').next().unwrap()));
            break;
        }
        src.push_str(line);
        src.push('\n');
    }
    let (s, v) = call(&app, "POST", "/api/sessions", Some(json!({ "src": src }))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let before = v["state"].clone();

    let long = {
        let (app, id) = (app.clone(), id.clone());
        tokio::spawn(async move {
            let q = format!("? [!some] {}everyone", "[!nobody] ".repeat(150));
            let uri = format!("/api/sessions/{id}/query");
            let (s, v) = call(&app, "POST", &uri, Some(json!({ "q": q }))).await;
            (s, v, Instant::now())
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!long.is_finished(), "the long query ended by itself");
    let cancelled = Instant::now();
    let (s, v) = call(&app, "POST", &format!("/api/sessions/{id}/cancel"), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["cancelled"], 1, "{v}");
    // Child 1 sees child 2's forehead.
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/sessions/{id}/query"),
        Some(json!({ "q": "? K1 forehead2(M)" })),
    )
    .await;
    let took = cancelled.elapsed();
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["lines"][0], "? K1 forehead2(M): true", "{v}");
    assert!(
        took < Duration::from_secs(1),
        "the question waited {took:?}"
    );
    let (s, v, ended) = long.await.unwrap();
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("interrupted"), "{v}");
    assert!(ended.duration_since(cancelled) < Duration::from_secs(1));
    // Nothing changed, and a Cancel with nothing under way stops nothing.
    let (_, now) = call(&app, "GET", &format!("/api/sessions/{id}"), None).await;
    assert_eq!(now, before);
    let (_, v) = call(&app, "POST", &format!("/api/sessions/{id}/cancel"), None).await;
    assert_eq!(v["cancelled"], 0, "{v}");
}
