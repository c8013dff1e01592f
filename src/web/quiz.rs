//! The lecture view's quiz mode: the questions of the current step without
//! their answers (`GET /api/sessions/{id}/quiz`), and an answer checked
//! against the model of that step (`POST /api/sessions/{id}/quiz/{index}`
//! with `{ "given": "y" }`): right or wrong, the model's answer, the
//! explanation, and the worlds that decide it (the witnesses' worlds: a
//! world where the formula has the deciding value, or a whole class), for
//! the page to highlight. Nothing is changed: the session is only read.
//! `page/quiz.js` is the page's side; it hides the answers and the
//! figure's shading while the mode is on.

use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::engine::Backend;
use crate::interp::question::{Access, Answer, Witness};
use crate::syntax::ast::StatementKind;

use super::{failure, no_session, ApiError, Shared};

/// The page's script for the quiz mode.
pub const SCRIPT: &str = include_str!("page/quiz.js");

/// `GET /api/sessions/{id}/quiz`: the questions of the current step (run
/// since its move), in order: `index` (the statement), `line`, `text` (the question in
/// words) and `sort` (`yes-no`, `number` or `players`), never the answer.
pub async fn questions(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let key = id.clone();
    app.pool
        .run(&id, move |sessions, _| {
            let l = sessions.get(&key).ok_or_else(no_session)?;
            let (script, session, ran) = l.current();
            let mut out = Vec::new();
            for index in this_step(script, &ran) {
                let stmt = &script.statements[index];
                let StatementKind::Question(q) = &stmt.kind else {
                    continue;
                };
                let asked = session
                    .ask_question(q, stmt.span, &script.src)
                    .map_err(|d| super::bad(d.message))?;
                let sort = match asked.answer {
                    Answer::YesNo(_) => "yes-no",
                    Answer::Number(_) => "number",
                    Answer::Players(_) => "players",
                };
                out.push(json!({
                    "index": index,
                    "line": script.line(index),
                    "text": asked.text,
                    "sort": sort,
                }));
            }
            Ok(Json(json!({ "questions": out })))
        })
        .await
        .map_err(failure)?
}

/// `{ "given": "y" }`.
#[derive(Deserialize)]
pub struct Given {
    given: String,
}

/// `POST /api/sessions/{id}/quiz/{index}`: checks an answer to the question
/// of statement `index`, which must be one of the current step's. A first
/// wrong try is answered with `again` and a `hint` (the first step of the
/// explanation, never the answer); the second try, or a right one, with
/// the answer, its explanation and the worlds that decide it.
pub async fn answer(
    State(app): State<Shared>,
    UrlPath((id, index)): UrlPath<(String, usize)>,
    Json(req): Json<Given>,
) -> Result<Json<serde_json::Value>, ApiError> {
    if req.given.len() > 200 {
        return Err(super::bad("an answer is at most 200 characters"));
    }
    let key = id.clone();
    app.pool
        .run(&id, move |sessions, _| {
            let l = sessions.get(&key).ok_or_else(no_session)?;
            let (script, session, ran) = l.current();
            let question = this_step(script, &ran)
                .contains(&index)
                .then(|| &script.statements[index])
                .and_then(|s| match &s.kind {
                    StatementKind::Question(q) => Some((q, s.span)),
                    _ => None,
                });
            let Some((q, span)) = question else {
                return Err(super::bad(format!(
                    "statement {index} is not a question of the current step"
                )));
            };
            let play = session.playing().ok_or_else(no_session)?;
            let asked = session
                .ask_question(q, span, &script.src)
                .map_err(|d| super::bad(d.message))?;
            let given = asked
                .answer
                .read(&req.given, &play.table.players)
                .map_err(|e| ApiError(StatusCode::UNPROCESSABLE_ENTITY, json!({ "error": e })))?;
            let right = given == asked.answer;
            // A first wrong try gets a hint, the first step of the
            // explanation, and no answer: the student tries again.
            if !right && l.hints(index) {
                let hint = session
                    .hint(q, span, &script.src)
                    .map_err(|d| super::bad(d.message))?;
                let given = given.to_string();
                l.note_hint(index);
                return Ok(Json(json!({
                    "right": false,
                    "again": true,
                    "given": given,
                    "hint": hint,
                    "score": l.score(),
                })));
            }
            let (_, verdict) = session
                .check_answer(q, span, &script.src, Some(&given))
                .map_err(|d| super::bad(d.message))?;
            let model = &*play.model;
            // A right answer is explained with the same evidence as a
            // wrong one: the model's answer, its witness worlds, the chain
            // for common knowledge.
            let shown = if verdict.right {
                session
                    .check_answer(q, span, &script.src, None)
                    .map(|(_, shown)| shown)
                    .unwrap_or(verdict)
            } else {
                verdict
            };
            let mut worlds: Vec<usize> = Vec::new();
            for w in &shown.witnesses {
                worlds.extend(deciding(model, w));
            }
            worlds.sort_unstable();
            worlds.dedup();
            let score = l.record_answer(index, right);
            Ok(Json(json!({
                "right": right,
                "expected": asked.answer.to_string(),
                "given": given.to_string(),
                "lines": shown.lines,
                "worlds": worlds,
                "score": score,
            })))
        })
        .await
        .map_err(failure)?
}

/// The statements run since the last move (the current step's): a
/// question asked earlier was about an earlier model.
fn this_step(script: &crate::interp::Script, ran: &[usize]) -> Vec<usize> {
    let is_move = |i: &usize| crate::interp::is_move(&script.statements[*i]);
    let from = ran.iter().rposition(is_move).map_or(0, |p| p + 1);
    ran[from..].to_vec()
}

/// The worlds a witness shows: its world, or every world of its class.
fn deciding(model: &dyn Backend, w: &Witness) -> Vec<usize> {
    let actual = model.actual();
    match w {
        Witness::World { world, .. } => vec![*world],
        Witness::Every { access, .. } => match access {
            Access::Player(a) => model.accessible(*a, actual),
            Access::Group(g, agents) => model.group_accessible(*g, agents, actual),
        },
        Witness::Actual { .. } => vec![actual],
    }
}
