//! The quiz mode's API, in-process through the router: the current step's
//! questions come without answers; an answer is checked against the
//! model; a statement that is not one of the step's questions, an
//! unreadable answer and an unknown session are refused, and nothing
//! changes the session.

use axum::http::StatusCode;
use dealer::web::router;
use serde_json::{json, Value};

use crate::common::web_call;
use std::time::Duration;
use web_call::call;

/// Answers `given` to the question `index` of the session `id`'s step.
async fn answer(app: &axum::Router, id: &str, index: u64, given: &str) -> (StatusCode, Value) {
    let uri = format!("/api/sessions/{id}/quiz/{index}");
    call(app, "POST", &uri, Some(json!({"given": given}))).await
}

#[tokio::test]
async fn questions_answers_and_refusals() {
    let app = router("scenarios".into(), Duration::from_secs(20));
    let (s, v) = call(
        &app,
        "POST",
        "/api/sessions",
        Some(json!({"path": "exercises/muddy-children.deal"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    // Before the first move: the four questions, no answers.
    let (s, v) = call(&app, "GET", &format!("/api/sessions/{id}/quiz"), None).await;
    assert_eq!(s, StatusCode::OK);
    let qs = v["questions"].as_array().unwrap();
    assert_eq!(qs.len(), 4, "{v}");
    assert_eq!(qs[0]["text"], "Does child 1 know whether it is muddy?");
    assert_eq!(qs[3]["sort"], "number");
    assert!(!v.to_string().contains("\"answer\""));
    let first = qs[0]["index"].as_u64().unwrap();
    let count = qs[3]["index"].as_u64().unwrap();
    let before = call(&app, "GET", &format!("/api/sessions/{id}"), None)
        .await
        .1;
    // Kw1 m1 is false: "y" is wrong. The first try gets a hint and no
    // answer (and is not scored); the second wrong try is answered, with
    // child 1's two worlds deciding it.
    let (s, v) = answer(&app, &id, first, "y").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["again"], true, "{v}");
    assert_eq!(v["score"]["answered"], 0, "{v}");
    let hint = v["hint"].as_str().unwrap();
    assert!(!hint.is_empty() && v.get("expected").is_none(), "{v}");
    assert!(!hint.contains("the answer is"), "{hint}");
    let (s, v) = answer(&app, &id, first, "y").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v.get("again").is_none(), "{v}");
    assert_eq!(v["right"], false);
    assert_eq!(v["expected"], "no");
    assert_eq!(v["worlds"].as_array().unwrap().len(), 2, "{v}");
    let (_, v) = answer(&app, &id, count, "2").await;
    assert_eq!(v["right"], true, "{v}");
    // Refusals.
    let (s, v) = answer(&app, &id, count, "two").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"].as_str().unwrap().contains("number"), "{v}");
    let (s, v) = answer(&app, &id, 0, "y").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("not a question of the current step"),
        "{v}"
    );
    let (s, _) = answer(&app, &id, 99999, "y").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let long = "y".repeat(500);
    let (s, _) = answer(&app, &id, first, &long).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = call(&app, "GET", "/api/sessions/nope/quiz", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let mut after = call(&app, "GET", &format!("/api/sessions/{id}"), None)
        .await
        .1;
    // Answers change only the score (the first answer to each question).
    assert_eq!(after["score"], json!({"answered": 2, "right": 1}));
    after["score"] = before["score"].clone();
    assert_eq!(before, after, "answers leave the session as it was");
    // After the father's announcement, the step's questions are the new ones.
    call(&app, "POST", &format!("/api/sessions/{id}/step"), None).await;
    let (_, v) = call(&app, "GET", &format!("/api/sessions/{id}/quiz"), None).await;
    let qs = v["questions"].as_array().unwrap();
    assert_eq!(
        qs[0]["text"], "Now, is it common knowledge that someone is muddy?",
        "{v}"
    );
}
