//! The lecture view's quiz mode in a real browser (headless Chromium through
//! chromedriver, as tests/it/browser.rs): with the mode on, the answers and the
//! figure's shading are hidden; a wrong answer to a question of the
//! current step is explained, and the world the engine gives as its
//! witness (asked again of the model here) is the one highlighted; a
//! screenshot goes to `target/screenshots/lecture-quiz.png`.
//!
//! Skipped without chromium and chromedriver, unless
//! `DEALER_REQUIRE_TOOLS=1`.

use std::path::Path;
use std::time::{Duration, Instant};

use dealer::engine::GroupAccess;
use dealer::interp::question::{Access, Answer, Witness};
use dealer::interp::{Options, Session};
use dealer::syntax;
use dealer::syntax::ast::StatementKind;
use fantoccini::Locator;

use crate::common::browser as harness;
use harness::{browser, screenshot};

const SCENARIO: &str = "exercises/gofish-table1.deal";

/// What the engine says at checkpoint "turn 1" (the page's "go to
/// checkpoint" stops before the next move): the witness world of a wrong
/// "yes" to `C !2_Q`, checked against the model.
fn engine_witness() -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let src = std::fs::read_to_string(root.join(SCENARIO)).unwrap();
    let scenario = syntax::parse(&src).unwrap();
    let mut session = Session::new(Options::default());
    let mut reached = false;
    let mut question = None;
    for stmt in &scenario.statements {
        if reached && matches!(stmt.kind, StatementKind::Move(_)) {
            break;
        }
        session.execute(stmt, &src).unwrap();
        reached |= session.checkpoints().last().is_some_and(|c| c == "turn 1");
        if let StatementKind::Question(q) = &stmt.kind {
            if src[stmt.span.start..stmt.span.end].ends_with("C !2_Q") {
                question = Some((q.clone(), stmt.span));
            }
        }
    }
    let (q, span) = question.expect("the question is in the file");
    let (asked, verdict) = session
        .check_answer(&q, span, &src, Some(&Answer::YesNo(true)))
        .unwrap();
    assert_eq!(asked.answer, Answer::YesNo(false));
    let model = &*session.playing().unwrap().model;
    match verdict.witnesses.as_slice() {
        [Witness::World {
            access: Access::Group(GroupAccess::Common, g),
            world,
            formula,
            value: false,
        }] => {
            assert!(model
                .group_accessible(GroupAccess::Common, g, model.actual())
                .contains(world));
            assert!(!model.eval_at(formula, *world).unwrap());
            *world
        }
        other => panic!("{other:?}"),
    }
}

/// The text of the first element at `css` once it is not empty and
/// starts with `prefix`, waiting up to 30 s.
async fn wait_text(
    client: &fantoccini::Client,
    css: &str,
    prefix: &str,
) -> Result<String, fantoccini::error::CmdError> {
    let start = Instant::now();
    // Read in one script, so a list drawn again between finding an
    // element and reading it is not an error.
    let script = "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;";
    loop {
        let v = client.execute(script, vec![css.into()]).await?;
        if let Some(t) = v.as_str() {
            if !t.is_empty() && t.starts_with(prefix) {
                return Ok(t.to_string());
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "nothing at {css} starting {prefix:?}: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quiz_mode_hides_answers_and_highlights_the_deciding_world() {
    let Some(b) = browser().await else {
        return;
    };
    let witness = engine_witness();
    let (client, web) = (&b.client, b.web);
    let result = async {
        client
            .goto(&format!("http://127.0.0.1:{web}/?scenario={SCENARIO}"))
            .await?;
        client
            .wait()
            .for_element(Locator::Css("#checkpoint option[value='turn 1']"))
            .await?;
        client.find(Locator::Id("quiz-mode")).await?.click().await?;
        // The controls are disabled while the page loads the scenario: a
        // choice made then would be lost.
        crate::common::browser::until(
            client,
            "return typeof inFlight !== 'undefined' && inFlight === 0 && !document.getElementById('checkpoint').disabled;",
            "the page at rest",
        )
        .await?;
        client
            .find(Locator::Id("checkpoint"))
            .await?
            .select_by_value("turn 1")
            .await?;
        // The questions of the step are listed, without their answers.
        // (Waiting for turn 1's first question, not the list before it.)
        let first = wait_text(
            client,
            "#quiz-questions li",
            "Does player 2 know that player 1 holds QQ?",
        )
        .await?;
        assert!(!first.is_empty());
        let items = client.find_all(Locator::Css("#quiz-questions li")).await?;
        assert_eq!(items.len(), 4, "the four questions of turn 1");
        let hidden = client
            .execute(
                "return [...document.querySelectorAll('#statements .out')] \
                   .every(e => getComputedStyle(e).visibility === 'hidden') \
                   && getComputedStyle(document.getElementById('narration')).visibility === 'hidden' \
                   && document.getElementById('agent').disabled;",
                vec![],
            )
            .await?;
        assert_eq!(hidden.as_bool(), Some(true), "answers and shading hidden");
        let listed = client.find(Locator::Id("quiz-questions")).await?.text().await?;
        assert!(!listed.contains("yes") && !listed.contains("=>"), "{listed}");
        // A wrong answer to "Is it still common knowledge that player 2
        // holds no queen?" (no): explained, the witness world highlighted.
        let li = client
            .find(Locator::Css("#quiz-questions li:nth-child(2)"))
            .await?;
        assert!(li.text().await?.starts_with("Is it still common knowledge"));
        li.find(Locator::Css("input")).await?.send_keys("y").await?;
        li.find(Locator::Css("button")).await?.click().await?;
        // The first wrong try gets a hint and no answer; the second is
        // answered.
        let hint = wait_text(client, "#quiz-questions li:nth-child(2) .result", "not ").await?;
        assert!(hint.contains("try again") && hint.contains("hint:"), "{hint}");
        assert!(!hint.contains("the answer is"), "{hint}");
        li.find(Locator::Css("input")).await?.send_keys("y").await?;
        li.find(Locator::Css("button")).await?.click().await?;
        let verdict =
            wait_text(client, "#quiz-questions li:nth-child(2) .result", "wrong").await?;
        assert!(verdict.starts_with("wrong"), "{verdict}");
        assert!(verdict.contains("the answer is no"), "{verdict}");
        assert!(verdict.contains(&format!("w{witness} ")), "{verdict}");
        let start = Instant::now();
        let deciding = loop {
            let v = client
                .execute(
                    "return document.getElementById('figure-box').dataset.deciding || null;",
                    vec![],
                )
                .await?;
            if let Some(s) = v.as_str() {
                break s.to_string();
            }
            assert!(start.elapsed() < Duration::from_secs(10), "no highlight");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(deciding, witness.to_string());
        let marked = client
            .execute(
                "return [...document.querySelectorAll('#figure-box g.decide')] \
                   .map(g => g.querySelector(':scope > title').textContent.trim());",
                vec![],
            )
            .await?;
        assert_eq!(marked, serde_json::json!([format!("w{witness}")]));
        client
            .execute(
                "document.querySelector('#figure-box g.decide').scrollIntoView({block: 'center'});",
                vec![],
            )
            .await?;
        screenshot(client, "lecture-quiz-figure.png").await?;
        // A right answer is taken as right.
        let li = client
            .find(Locator::Css("#quiz-questions li:nth-child(4)"))
            .await?;
        li.find(Locator::Css("input")).await?.send_keys("2").await?;
        li.find(Locator::Css("button")).await?.click().await?;
        let verdict = wait_text(client, "#quiz-questions li:nth-child(4) .result", "").await?;
        assert!(verdict.starts_with("right"), "{verdict}");
        screenshot(client, "lecture-quiz.png").await?;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    b.client.clone().close().await.ok();
    result.unwrap();
}
