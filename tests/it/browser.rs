//! The lecture view in a real browser: headless Chromium driven through
//! chromedriver (WebDriver, the `fantoccini` client) against `dealer
//! serve` on the loopback interface. The test opens Go Fish's simplified
//! scenario, goes to checkpoint "turn 2" with the page's own control,
//! checks the figure and the expectation marks against the engine, asks
//! `K1 2_A` in the query box and checks the answer against the engine, and
//! saves a screenshot to `target/screenshots/`.
//!
//! Without `/usr/bin/chromium` and `chromedriver` it says it is skipped,
//! unless `DEALER_REQUIRE_TOOLS=1` (as `.ci/run` sets), when it fails.

use std::path::Path;
use std::time::{Duration, Instant};

use dealer::interp::{Options, Output, Session};
use dealer::syntax;
use dealer::syntax::ast::StatementKind;
use fantoccini::Locator;

use crate::common::browser as harness;
use harness::{browser, figure_at_rest, screenshot};

const SCENARIO: &str = "gofish/simplified.deal";

/// What the engine says at checkpoint "turn 2".
struct AtTurn2 {
    worlds: u128,
    held: usize,
    answer: bool,
    /// The worlds C{1,2} reaches from the actual world.
    common: Vec<usize>,
    /// A world other than the actual one, and its line as `worlds` prints it.
    other: (usize, String),
}

/// What the engine says at checkpoint "turn 2": the number of worlds, the
/// lines of `expect` statements run so far (all held), `K1 2_A`, the
/// worlds of C{1,2} and one world's deal.
fn engine_at_turn_2() -> AtTurn2 {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let src = std::fs::read_to_string(root.join(SCENARIO)).unwrap();
    let scenario = syntax::parse(&src).unwrap();
    let mut session = Session::new(Options::default());
    let mut held = 0;
    let mut reached = false;
    for stmt in &scenario.statements {
        // The page's "go to checkpoint" stops before the next move.
        if reached && matches!(stmt.kind, StatementKind::Move(_)) {
            break;
        }
        for out in session.execute(stmt, &src).unwrap() {
            if let Output::Expect { held: h, .. } = out {
                assert!(h);
                held += 1;
            }
        }
        reached |= session.checkpoints().last().is_some_and(|c| c == "turn 2");
    }
    let q = syntax::parse("? K1 2_A\n").unwrap();
    let answer = match session
        .execute(&q.statements[0], "? K1 2_A\n")
        .unwrap()
        .as_slice()
    {
        [Output::Answer { value, .. }] => *value,
        other => panic!("{other:?}"),
    };
    let play = session.playing().unwrap();
    let model = &*play.model;
    let worlds = model.world_count();
    let common =
        model.group_accessible(dealer::engine::GroupAccess::Common, &[0, 1], model.actual());
    let w = (0..worlds as usize).find(|&w| w != model.actual()).unwrap();
    let line =
        dealer::interp::explain::world_line(&play.table, &play.props, play.world_names(), model, w);
    AtTurn2 {
        worlds,
        held,
        answer,
        common,
        other: (w, line.trim().to_string()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lecture_view_steps_draws_and_answers_in_a_browser() {
    let Some(b) = browser().await else {
        return;
    };
    let at = engine_at_turn_2();
    let (worlds, held, answer) = (at.worlds, at.held, at.answer);
    let (client, web) = (&b.client, b.web);
    let result = async {
        client
            .goto(&format!("http://127.0.0.1:{web}/?scenario={SCENARIO}"))
            .await?;
        // The scenario is loaded when its checkpoints are offered.
        client
            .wait()
            .for_element(Locator::Css("#checkpoint option[value='turn 2']"))
            .await?;
        let select = client.find(Locator::Id("checkpoint")).await?;
        select.select_by_value("turn 2").await?;
        // The expectations run so far are marked held, none failed.
        let start = Instant::now();
        let marks = loop {
            let held_now = client
                .find_all(Locator::Css("#statements li.held"))
                .await?
                .len();
            if held_now >= held || start.elapsed() > Duration::from_secs(10) {
                break held_now;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(marks, held, "expectations marked held at turn 2");
        assert!(client
            .find_all(Locator::Css("#statements li.failed"))
            .await?
            .is_empty());
        // The figure: one world box per world of the engine's model, once
        // the page is at rest at turn 2 (its figure drawn, no request in
        // flight), so that the link is turn 2's figure.
        figure_at_rest(client, "the figure at turn 2").await?;
        let svg = client
            .execute_async(
                "const done = arguments[0]; \
                 fetch(document.getElementById('svg').href).then(r => r.text()).then(done);",
                vec![],
            )
            .await?;
        let svg = svg.as_str().unwrap_or_default().to_string();
        let boxes = (0..worlds)
            .filter(|w| svg.contains(&format!(">w{w}<")))
            .count() as u128;
        assert_eq!(boxes, worlds, "the figure draws every world: {svg}");
        assert!(!svg.contains(&format!(">w{worlds}<")), "no extra world");
        // A group's perspective: C{1,2} highlights the worlds the engine's
        // group_accessible gives.
        client
            .find(Locator::Id("agent"))
            .await?
            .select_by_value("C:0,1")
            .await?;
        let start = Instant::now();
        let lit = loop {
            let v = client
                .execute(
                    "const b = document.getElementById('figure-box'); \
                     return (inFlight === 0 && b.dataset.highlighted) || null;",
                    vec![],
                )
                .await?;
            if let Some(s) = v.as_str() {
                break s.to_string();
            }
            assert!(start.elapsed() < Duration::from_secs(10), "no highlight");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let want: Vec<String> = at.common.iter().map(|w| w.to_string()).collect();
        assert_eq!(lit, want.join(","));
        let marked = client
            .execute("return document.querySelectorAll('#figure-box g.hl').length;", vec![])
            .await?;
        assert_eq!(marked.as_u64(), Some(at.common.len() as u64));
        screenshot(client, "lecture-perspective.png").await?;
        // A click on a world shows its deal, as the engine has it.
        let (w, line) = &at.other;
        client
            .execute(
                "const w = arguments[0]; \
                 const g = [...document.querySelectorAll('#figure-box g')] \
                   .find(g => { const t = g.querySelector(':scope > title'); return t && t.textContent.trim() === w; }); \
                 g.querySelector('text, polygon, rect, ellipse').dispatchEvent(new MouseEvent('click', { bubbles: true }));",
                vec![serde_json::json!(format!("w{w}"))],
            )
            .await?;
        let start = Instant::now();
        let shown = loop {
            let t = client.find(Locator::Id("world")).await?.text().await?;
            if !t.is_empty() || start.elapsed() > Duration::from_secs(10) {
                break t;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert!(shown.starts_with(&format!("world w{w}\n")), "{shown}");
        // Every location of the engine's line is in the panel.
        for part in line.split_whitespace().skip(1) {
            let (loc, cards) = part.split_once(':').unwrap();
            assert!(shown.contains(&format!("{loc}: {cards}")), "{part} in {shown}");
        }
        // The query box answers as the engine does.
        let q = client.find(Locator::Id("q")).await?;
        q.send_keys("K1 2_A").await?;
        client
            .find(Locator::Css("#ask button"))
            .await?
            .click()
            .await?;
        // The page shows `…` while the answer is on its way.
        let start = Instant::now();
        let text = loop {
            let t = client.find(Locator::Id("answer")).await?.text().await?;
            if (!t.is_empty() && t != "…") || start.elapsed() > Duration::from_secs(60) {
                break t;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let first = text.lines().next().unwrap_or_default().to_string();
        assert!(first.contains("K1 2_A"), "{text}");
        assert!(
            first.contains(if answer { "is true" } else { "is false" }),
            "{text}"
        );
        // A screenshot to look at.
        screenshot(client, "lecture-turn-2.png").await?;
        // The editor colours with the shipped editor grammar: statement
        // keywords, moves and modal operators get their classes.
        let coloured = client
            .execute(
                "const t = c => [...document.querySelectorAll('#editor-hl .' + c)].map(s => s.textContent); \
                 return [t('c-kw'), t('c-move'), t('c-modal'), t('c-comment').length];",
                vec![],
            )
            .await?;
        let words = |i: usize| -> Vec<String> {
            coloured[i]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        assert!(words(0).contains(&"game".to_string()), "{coloured}");
        assert!(words(0).contains(&"expect".to_string()), "{coloured}");
        assert!(words(1).contains(&"ask".to_string()), "{coloured}");
        assert!(words(2).contains(&"K1".to_string()), "{coloured}");
        assert!(coloured[3].as_u64().unwrap() > 0, "{coloured}");
        // A syntax error on line 3 of an edit is marked at line 3.
        client
            .execute(
                "const e = document.getElementById('editor'); \
                 const lines = e.value.split('\\n'); lines.splice(2, 0, 'exepct 1_Q'); \
                 e.value = lines.join('\\n'); e.dispatchEvent(new Event('input')); \
                 document.getElementById('rerun').click();",
                vec![],
            )
            .await?;
        let start = Instant::now();
        let marked = loop {
            let v = client
                .execute(
                    "return [...document.querySelectorAll('#editor-hl .line.err')].map(l => l.dataset.line);",
                    vec![],
                )
                .await?;
            let lines: Vec<String> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            if !lines.is_empty() || start.elapsed() > Duration::from_secs(10) {
                break lines;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(marked, vec!["3".to_string()]);
        let problem = client.find(Locator::Id("problem")).await?.text().await?;
        assert!(problem.contains(":3:"), "{problem}");
        screenshot(client, "lecture-editor-error.png").await?;
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    let _ = b.client.clone().close().await;
    result.expect("the browser session");
}

/// The game the page plays with the person always taking the first legal
/// move, played here directly (no server): its history and scores.
fn expected_game(seed: u64) -> (Vec<String>, Vec<i64>) {
    use dealer::cards::Size;
    use dealer::play::{agent_named, Match, Seat};
    let options = Options {
        max_worlds: dealer::web::MAX_WORLDS,
        ..Options::default()
    };
    let mut game = Match::new("gofish", seed, Size::Teaching, options).unwrap();
    let mut seats = vec![Seat::Person];
    for seat in 1..game.playing().table.players.len() {
        seats.push(game.agent_seat(agent_named("random").unwrap(), seat));
    }
    game.seat(seats).unwrap();
    while !game.is_over() {
        if game.current_player() == Some(0) {
            let first = game.legal_moves()[0].text.clone();
            game.play(&first).unwrap();
        } else {
            game.agent_move().unwrap().unwrap();
        }
    }
    let history = game.history().iter().map(|p| p.text.clone()).collect();
    (history, game.scores())
}

/// The play page: a seeded Go Fish game against two random agents, played
/// to its end by clicking the first legal move each turn. The score the
/// page shows is the score of the same game played directly; the
/// knowledge panel lists only facts the engine says hold; the game then
/// opens in the lecture view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_to_its_end_by_clicks() {
    let Some(b) = browser().await else {
        return;
    };
    const SEED: u64 = 7;
    let (history, scores) = expected_game(SEED);
    let (client, web) = (&b.client, b.web);
    let result = async {
        client.goto(&format!("http://127.0.0.1:{web}/play")).await?;
        client
            .wait()
            .for_element(Locator::Css("#game option[value='gofish']"))
            .await?;
        client
            .find(Locator::Id("game"))
            .await?
            .select_by_value("gofish")
            .await?;
        client
            .find(Locator::Id("agent"))
            .await?
            .select_by_value("random")
            .await?;
        let seed = client.find(Locator::Id("seed")).await?;
        seed.clear().await?;
        seed.send_keys(&SEED.to_string()).await?;
        client.find(Locator::Id("start")).await?.click().await?;
        let mut clicks = 0;
        let start = Instant::now();
        loop {
            // Wait for the page to be ready, then read whose turn it is.
            let state = loop {
                let v = client
                    .execute(
                        "return document.body.dataset.ready === '1' ? document.body.dataset.state : null;",
                        vec![],
                    )
                    .await?;
                if let Some(s) = v.as_str() {
                    break s.to_string();
                }
                assert!(start.elapsed() < Duration::from_secs(120), "the game never ended");
                tokio::time::sleep(Duration::from_millis(50)).await;
            };
            if state == "over" {
                break;
            }
            assert_eq!(state, "mine");
            if clicks == 2 {
                screenshot(client, "play-gofish.png").await?;
            }
            client
                .execute("document.querySelector('button.move').click();", vec![])
                .await?;
            clicks += 1;
        }
        assert!(clicks > 0);
        // The page's history and score are those of the same game played directly.
        let shown: Vec<String> = client
            .execute(
                "return [...document.querySelectorAll('#history li')].map(li => li.textContent.split(' — ')[0]);",
                vec![],
            )
            .await?
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(shown, history);
        let score = client.find(Locator::Id("score")).await?.text().await?;
        let want: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}: {s}", i + 1))
            .collect();
        assert!(
            score.starts_with(&format!("Score {}", want.join(", "))),
            "{score} against {want:?}"
        );
        screenshot(client, "play-gofish-end.png").await?;
        // The game in the lecture view: every move is a statement there.
        client.find(Locator::Id("lecture")).await?.click().await?;
        // The click asks the server for the lecture and then leaves the
        // page from script: wait for the new page, not the old one.
        let start = Instant::now();
        while client
            .current_url()
            .await
            .map_or(true, |u| u.path() == "/play")
        {
            if start.elapsed() > Duration::from_secs(60) {
                let problem = client.find(Locator::Id("problem")).await?.text().await?;
                panic!("the lecture view never opened: {problem:?}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        harness::settled(client, "#statements li").await?;
        let listed = client
            .execute(
                "return [...document.querySelectorAll('#statements li')].map(li => li.textContent);",
                vec![],
            )
            .await?;
        let listed: Vec<String> = listed
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        for mv in &history {
            assert!(listed.iter().any(|l| l.starts_with(mv.as_str())), "{mv} not listed");
        }
        Ok::<(), fantoccini::error::CmdError>(())
    }
    .await;
    let _ = b.client.clone().close().await;
    result.expect("the browser session");
}
