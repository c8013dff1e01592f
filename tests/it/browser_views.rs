//! The lecture page's three views in headless Chromium, one browser
//! session for all of them:
//!
//! - the quiz view (`?view=quiz`): nothing on the page (its DOM, and every
//!   state the server sent it) holds an `expect`, an answer or a later
//!   step's question; the questions stand beside the figure; an answer,
//!   right or wrong, is explained and the score kept;
//! - the normal view: the marker on the move just played, the narration as
//!   the REPL gives it ("now common knowledge: ..."), the Ask answer asked
//!   again after a step, a session opened by `?session=ID` named in the
//!   menu, the hide-rows and all-worlds controls, the smallest figure
//!   text at 1280x800;
//! - the hall view (`?view=hall`) at 1920x1080 and 1280x800, for every
//!   checkpoint of every shipped scenario (found by walking `scenarios/`):
//!   the figure's smallest text and its box measured from the DOM as
//!   drawn, at most 12 boxes, the caption at the same size, no scrolling;
//!   a key pressed while the page is busy is queued, none dropped;
//!   keys step. Screenshots go to `target/screenshots/hall-*.png`.
//!
//! Skipped without chromium and chromedriver, unless
//! `DEALER_REQUIRE_TOOLS=1`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use fantoccini::Client;
use serde_json::{json, Value};

use crate::common::browser as harness;
use harness::{browser, screenshot, until};

type Res<T> = Result<T, fantoccini::error::CmdError>;

/// Runs `action` (page script) and waits for the figure it draws.
async fn drawn_after(client: &Client, action: &str) -> Res<()> {
    client
        .execute(
            &format!("delete document.getElementById('figure-box').dataset.ready; {action}"),
            vec![],
        )
        .await?;
    harness::figure_at_rest(client, &format!("the figure after {action}")).await?;
    Ok(())
}

/// Opens the page at `query` and waits for its figure.
async fn open(client: &Client, web: u16, query: &str) -> Res<()> {
    client
        .goto(&format!("http://127.0.0.1:{web}/?{query}"))
        .await?;
    until(
        client,
        "const b = document.getElementById('figure-box'); \
         return typeof inFlight !== 'undefined' && inFlight === 0 && b.dataset.ready === '1' && !!b.querySelector('svg');",
        &format!("the figure of ?{query}"),
    )
    .await?;
    Ok(())
}

/// The page's viewport made exactly `w` x `h` (the window is the viewport
/// plus whatever the browser keeps for itself).
async fn viewport(client: &Client, w: u32, h: u32) -> Res<()> {
    // A resize settles after the call returns: measure, correct, and
    // measure again until the viewport is right (or the tries run out).
    let (mut ww, mut wh) = (w, h);
    let mut v = json!(null);
    for _ in 0..20 {
        client.set_window_size(ww, wh).await?;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        v = client
            .execute("return [innerWidth, innerHeight];", vec![])
            .await?;
        let (iw, ih) = (v[0].as_u64().unwrap() as u32, v[1].as_u64().unwrap() as u32);
        if (iw, ih) == (w, h) {
            break;
        }
        ww = (ww + w).saturating_sub(iw).max(w);
        wh = (wh + h).saturating_sub(ih).max(h);
    }
    assert_eq!(v, json!([w, h]), "the viewport");
    Ok(())
}

/// The figure as drawn: the smallest text (font size times the text's
/// scale on the screen, px), the drawing's box on the screen (left, top,
/// right, bottom of the SVG's content), the number of boxes, the
/// caption's font size (px), and whether the page scrolls.
const MEASURE: &str = "\
    const svg = document.querySelector('#figure-box svg'); \
    let least = Infinity; \
    svg.querySelectorAll('text').forEach(t => { \
      const m = t.getScreenCTM(); \
      const size = parseFloat(getComputedStyle(t).fontSize); \
      if (m && t.textContent.trim()) least = Math.min(least, size * Math.hypot(m.a, m.b)); }); \
    const r = svg.querySelector('rect').getBoundingClientRect(); \
    const vb = svg.viewBox.baseVal; const m = svg.getScreenCTM(); \
    const drawn = [m.e, m.f, m.e + vb.width * m.a, m.f + vb.height * m.d]; \
    const cap = document.getElementById('caption'); \
    const se = document.scrollingElement; \
    const fb = document.getElementById('figure-box').getBoundingClientRect(); \
    return { least, drawn, boxes: svg.querySelectorAll('g[id]').length, \
             caption: parseFloat(getComputedStyle(cap).fontSize), \
             captionBottom: cap.getBoundingClientRect().bottom, \
             captionText: cap.textContent, captionLeast: cap.dataset.least, \
             scrolls: se.scrollHeight > innerHeight + 1 || se.scrollWidth > innerWidth + 1, \
             w: innerWidth, h: innerHeight, rect: [r.left, r.top, r.right, r.bottom], \
             box: [fb.width, fb.height] };";

/// [`MEASURE`] once the page is at rest with its figure drawn (a measure
/// taken between two drawings would find no figure).
async fn measure(client: &Client) -> Res<Value> {
    until(
        client,
        "const b = document.getElementById('figure-box'); \
         return inFlight === 0 && b.dataset.ready === '1' && !!b.querySelector('svg rect');",
        "a drawn figure to measure",
    )
    .await?;
    // The hall's caption follows its drawing's text as the page settles:
    // give it up to two seconds to settle (what is measured is then
    // checked as it stands).
    let settled = "const svg = document.querySelector('#figure-box svg'); \
         const cap = document.getElementById('caption'); \
         return !cap.dataset.least || !svg || \
           Math.abs(parseFloat(cap.dataset.least) - smallestText(svg)) < 0.5;";
    for _ in 0..40 {
        if client.execute(settled, vec![]).await? == json!(true) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    client.execute(MEASURE, vec![]).await
}

/// The shipped scenarios with checkpoints, and their checkpoints, found by
/// walking `scenarios/`.
fn checkpointed() -> Vec<(String, Vec<String>)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "deal") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let names: Vec<String> = src
            .lines()
            .filter_map(|l| l.trim().strip_prefix("checkpoint"))
            .filter_map(|rest| rest.trim().strip_prefix('"'))
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_string)
            .collect();
        if !names.is_empty() {
            let rel = f
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, names));
        }
    }
    out
}

/// The screenshots the issue names: scenario, checkpoint (empty: the
/// start), name.
const SHOTS: [(&str, &str, &str); 9] = [
    ("gofish/simplified.deal", "initial", "gofish-1a"),
    ("gofish/simplified.deal", "turn 1", "gofish-1b"),
    ("gofish/simplified.deal", "turn 2", "gofish-1c"),
    ("gofish/simplified.deal", "turn 3", "gofish-1d"),
    ("gofish/simplified.deal", "turn 4", "gofish-1e"),
    ("classics/muddy-children.deal", "", "muddy-children"),
    ("classics/cheryl.deal", "", "cheryl"),
    ("kemps/sixes.deal", "round 1", "kemps-sixes-round1"),
    ("kemps/sixes.deal", "round 2", "kemps-sixes-round2"),
];

/// Checks the hall view's figure at the current position: `what` names it.
fn hall_ok(m: &Value, least_wanted: f64, what: &str, failures: &mut Vec<String>) {
    let least = m["least"].as_f64().unwrap_or(0.0);
    let boxes = m["boxes"].as_u64().unwrap();
    let (w, h) = (m["w"].as_f64().unwrap(), m["h"].as_f64().unwrap());
    let d: Vec<f64> = m["drawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let cap_bottom = m["captionBottom"].as_f64().unwrap();
    if boxes > 12 {
        failures.push(format!("{what}: {boxes} boxes"));
    }
    if least < least_wanted - 0.05 {
        failures.push(format!("{what}: smallest text {least:.1} px"));
    }
    // The caption at the size of the figure's smallest text (up to a
    // 3.2% of the screen's height, and never under the size wanted).
    let cap = m["caption"].as_f64().unwrap();
    let same = least.min(0.032 * h).max(least_wanted.max(20.0));
    if cap < least_wanted.max(20.0) - 0.05 || (cap - same).abs() > 0.1 * same {
        failures.push(format!(
            "{what}: caption at {cap} px, the figure's smallest text {least:.1} px (when drawn: {})",
            m["captionLeast"]
        ));
    }
    let inside = d[0] >= -0.5 && d[1] >= -0.5 && d[2] <= w + 0.5 && d[3] <= h + 0.5;
    if !inside || cap_bottom > h + 0.5 || m["scrolls"] == json!(true) {
        failures.push(format!(
            "{what}: not on the screen: drawing {d:?}, caption to {cap_bottom}, screen {w}x{h}"
        ));
    }
    // The figure's box takes the screen but the caption, and the drawing
    // fills it in one direction at least.
    let (bw, bh) = (m["box"][0].as_f64().unwrap(), m["box"][1].as_f64().unwrap());
    let fill = ((d[2] - d[0]) / bw).max((d[3] - d[1]) / bh);
    if fill < 0.97 || bw < w - 1.0 || cap_bottom < h - 1.0 {
        failures.push(format!(
            "{what}: the drawing takes {fill:.2} of a box of {bw}x{bh}, the caption ends at {cap_bottom}"
        ));
    }
    eprintln!(
        "{what}: smallest text {least:.1} px, {boxes} boxes, fills {fill:.2}, caption {} px",
        m["caption"]
    );
}

async fn hall_views(client: &Client, web: u16) -> Res<()> {
    let scenarios = checkpointed();
    assert!(scenarios.len() >= 10, "{scenarios:?}");
    let mut failures = Vec::new();
    let mut measured = 0;
    for (w, h, least) in [(1920u32, 1080u32, 24.0), (1280, 800, 20.0)] {
        viewport(client, w, h).await?;
        for (file, checkpoints) in &scenarios {
            open(client, web, &format!("scenario={file}&view=hall")).await?;
            for cp in checkpoints {
                drawn_after(
                    client,
                    &format!("act('POST', '/goto', {{ name: {cp:?} }});"),
                )
                .await?;
                let m = measure(client).await?;
                hall_ok(
                    &m,
                    least,
                    &format!("{file} at {cp:?}, {w}x{h}"),
                    &mut failures,
                );
                measured += 1;
            }
        }
        for (file, cp, name) in SHOTS {
            open(client, web, &format!("scenario={file}&view=hall")).await?;
            if !cp.is_empty() {
                drawn_after(
                    client,
                    &format!("act('POST', '/goto', {{ name: {cp:?} }});"),
                )
                .await?;
            }
            let m = measure(client).await?;
            hall_ok(&m, least, &format!("{name}, {w}x{h}"), &mut failures);
            screenshot(client, &format!("hall-{name}-{w}x{h}.png")).await?;
        }
    }
    assert!(measured >= 40, "{measured} figures measured");
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Keys: Page Down and the right arrow step, Page Up steps back; `?`
    // opens the ask box.
    open(client, web, "scenario=gofish/simplified.deal&view=hall").await?;
    let step = "return lastState.step;";
    for (key, want) in [("PageDown", 1), ("ArrowRight", 2), ("PageUp", 1), (" ", 2)] {
        client
            .execute(
                "delete document.getElementById('figure-box').dataset.ready; \
                 document.body.dispatchEvent(new KeyboardEvent('keydown', { key: arguments[0], bubbles: true }));",
                vec![json!(key)],
            )
            .await?;
        until(
            client,
            &format!("return lastState.step === {want} && document.getElementById('figure-box').dataset.ready === '1';"),
            "a step by key",
        )
        .await?;
        assert_eq!(client.execute(step, vec![]).await?, json!(want));
    }
    let cap = client
        .execute(
            "return document.getElementById('caption').textContent;",
            vec![],
        )
        .await?;
    assert!(
        cap.as_str().unwrap().starts_with("Step 2: draw 2"),
        "the caption names the move just played: {cap}"
    );
    // Three keys at once: the second and third come while the first step
    // is under way, wait their turn (the busy sign counts them) and are
    // all played.
    let waiting = client
        .execute(
            "for (let i = 0; i < 3; i++) \
               document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageDown', bubbles: true })); \
             return [queued.length, document.getElementById('busy-what').textContent, document.getElementById('busy').hidden];",
            vec![],
        )
        .await?;
    assert_eq!(waiting, json!([2, "working… 2 steps waiting", false]));
    until(
        client,
        "return lastState.step === 5 && queued.length === 0 && inFlight === 0 \
           && document.getElementById('figure-box').dataset.ready === '1';",
        "three queued steps",
    )
    .await?;
    client
        .execute(
            "document.body.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }));",
            vec![],
        )
        .await?;
    let asking = client
        .execute(
            "return [document.body.classList.contains('asking'), getComputedStyle(document.getElementById('ask-box')).display, document.activeElement.id];",
            vec![],
        )
        .await?;
    assert_eq!(asking, json!([true, "block", "q"]));
    Ok(())
}

/// The texts a quiz page must not hold at the start of
/// exercises/gofish-table1.deal: the `expect` lines (and an expectation's
/// outcome in a state), the answers, and the questions of later steps.
const HIDDEN: [&str; 10] = [
    "expect ",
    "\"expect\":true",
    "\"expect\":false",
    "= 4",
    "considers 1 = 4",
    "C 1_Q",
    "K2 1_QQ",
    "who knows 1_QQ",
    "After player 3",
    "C 2_AA",
];

async fn quiz_view(client: &Client, web: u16) -> Res<()> {
    viewport(client, 1280, 800).await?;
    // Every state the server sends the page is recorded as it arrives.
    open(
        client,
        web,
        "scenario=exercises/gofish-table1.deal&view=quiz",
    )
    .await?;
    until(
        client,
        "return document.querySelectorAll('#quiz-questions li[data-index]').length === 3;",
        "the questions",
    )
    .await?;
    let absent = |page: &str, what: &str| {
        for h in HIDDEN {
            assert!(!page.contains(h), "{what} holds {h:?}");
        }
    };
    let dom = client
        .execute(
            "return document.documentElement.outerHTML + document.getElementById('editor').value;",
            vec![],
        )
        .await?;
    absent(dom.as_str().unwrap(), "the quiz page");
    // What the server sends: the session's state, as the page asks for it.
    let sent = client
        .execute_async(
            "const done = arguments[0]; \
             Promise.all([fetch(`/api/sessions/${session}`).then(r => r.text()), \
                          fetch(`/api/sessions/${session}/quiz`).then(r => r.text()), \
                          fetch('/').then(r => r.text())]).then(t => done(t.join('\\n')));",
            vec![],
        )
        .await?;
    absent(sent.as_str().unwrap(), "what the server sends");
    // The query box is refused to a student.
    let refused = client
        .execute_async(
            "const done = arguments[0]; \
             fetch(`/api/sessions/${session}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, \
               body: JSON.stringify({ q: '? C 1_Q' }) }).then(r => done(r.status));",
            vec![],
        )
        .await?;
    assert_eq!(refused, json!(403));
    // The questions stand beside the figure, both on the screen.
    let places = client
        .execute(
            "const f = document.getElementById('figure-box').getBoundingClientRect(); \
             const q = document.getElementById('quiz').getBoundingClientRect(); \
             return [q.left >= f.right - 1, f.top < innerHeight, q.top < innerHeight, f.bottom <= innerHeight + 1, f.bottom, innerHeight];",
            vec![],
        )
        .await?;
    screenshot(client, "quiz-view-start.png").await?;
    let sides = places.as_array().unwrap();
    assert!(
        sides[..4].iter().all(|s| s == &json!(true)),
        "question beside figure: {places}"
    );

    // `considers 1` (the answer is 4): a wrong 3, then the Kw question right.
    let answer = |n: usize, given: &str| {
        format!(
            "const li = document.querySelectorAll('#quiz-questions li[data-index]')[{n}]; \
             li.querySelector('input').value = {given:?}; \
             li.querySelector('button').click();"
        )
    };
    // The first wrong try gets a hint, not the answer; the second is
    // answered.
    client.execute(&answer(1, "3"), vec![]).await?;
    let hint = until(
        client,
        "const r = document.querySelectorAll('#quiz-questions .result')[1]; \
         return r.dataset.right === 'again' ? r.textContent : null;",
        "the hint",
    )
    .await?;
    let hint = hint.as_str().unwrap();
    assert!(hint.starts_with("not 3: try again"), "{hint}");
    assert!(
        hint.contains("hint:") && !hint.contains("the answer is"),
        "{hint}"
    );
    client.execute(&answer(1, "3"), vec![]).await?;
    let wrong = until(
        client,
        "const r = document.querySelectorAll('#quiz-questions .result')[1]; \
         return r.dataset.right === 'false' ? r.textContent : null;",
        "the verdict",
    )
    .await?;
    let wrong = wrong.as_str().unwrap();
    assert!(wrong.starts_with("wrong: you said 3"), "{wrong}");
    assert!(wrong.contains("the answer is 4"), "{wrong}");
    client.execute(&answer(0, "n"), vec![]).await?;
    let right = until(
        client,
        "const r = document.querySelectorAll('#quiz-questions .result')[0]; \
         return r.dataset.right ? [r.textContent, document.getElementById('quiz-score').textContent] : null;",
        "the verdict",
    )
    .await?;
    let text = right[0].as_str().unwrap();
    assert!(text.starts_with("right: no"), "{text}");
    // A right answer is explained too: the world that shows it.
    assert!(text.contains("the answer is no"), "{text}");
    assert!(
        text.len() > "right: nothe answer is no".len() + 10,
        "{text}"
    );
    assert_eq!(right[1], json!("Score: 1 right of 2 answered"));
    screenshot(client, "quiz-view-answered.png").await?;

    // Two steps on: turn 1's questions, and still no answer on the page.
    for _ in 0..2 {
        drawn_after(client, "document.getElementById('step').click();").await?;
    }
    until(
        client,
        "return document.querySelectorAll('#quiz-questions li[data-index]').length === 4;",
        "turn 1's questions",
    )
    .await?;
    let dom = client
        .execute("return document.documentElement.outerHTML;", vec![])
        .await?;
    let dom = dom.as_str().unwrap();
    for h in ["expect ", "After player 3", "C 2_AA", "!C !2_Q", "= 2"] {
        assert!(!dom.contains(h), "turn 1's page holds {h:?}");
    }
    assert!(
        dom.contains("Which players know that player 1 holds QQ?"),
        "turn 1's questions"
    );
    assert!(
        dom.contains("Score: 1 right of 2 answered"),
        "the score is kept"
    );
    Ok(())
}

async fn normal_view(client: &Client, web: u16) -> Res<()> {
    viewport(client, 1280, 800).await?;
    open(client, web, "scenario=exercises/gofish-table1.deal").await?;
    // An answer in the Ask box, then a step: asked again of the new model.
    client
        .execute(
            "document.getElementById('q').value = '? K2 1_QQ'; \
             document.getElementById('ask-button').click();",
            vec![],
        )
        .await?;
    until(
        client,
        "return document.getElementById('answer').textContent.endsWith('false') || null;",
        "the answer",
    )
    .await?;
    drawn_after(client, "document.getElementById('step').click();").await?;
    drawn_after(client, "document.getElementById('step').click();").await?;
    until(
        client,
        "return document.getElementById('answer').textContent.endsWith('true') || null;",
        "the answer asked again",
    )
    .await?;
    until(
        client,
        "return !!document.querySelector('#statements li.current');",
        "the step marker",
    )
    .await?;
    let v = client
        .execute(
            "const cur = document.querySelector('#statements li.current'); \
             const list = document.getElementById('statements').getBoundingClientRect(); \
             const r = cur.getBoundingClientRect(); \
             return [cur.firstChild.textContent, r.top >= list.top - 1 && r.bottom <= list.bottom + 1, \
                     document.getElementById('narration').textContent];",
            vec![],
        )
        .await?;
    assert_eq!(
        v[0],
        json!("draw 2"),
        "the marker is on the move just played"
    );
    assert_eq!(v[1], json!(true), "the move just played is in view");
    let narration = v[2].as_str().unwrap();
    assert!(narration.starts_with("move draw 2"), "{narration}");
    assert!(!narration.contains("expect"), "{narration}");
    // The step before narrates what became common knowledge.
    drawn_after(client, "document.getElementById('back').click();").await?;
    let narration = client
        .execute(
            "return document.getElementById('narration').textContent;",
            vec![],
        )
        .await?;
    assert!(
        narration
            .as_str()
            .unwrap()
            .contains("now common knowledge: player 1 holds QQ"),
        "{narration}"
    );
    // The figure's smallest text at 1280x800.
    let m = measure(client).await?;
    let least = m["least"].as_f64().unwrap();
    assert!(
        least >= 14.0 - 0.05,
        "the normal view's text: {least:.1} px"
    );
    // Hide the stock's rows; all worlds.
    let rows = |client: &Client| {
        let c = client.clone();
        async move {
            c.execute(
                "return [...document.querySelectorAll('#figure-box text')].map(t => t.textContent).join('|');",
                vec![],
            )
            .await
        }
    };
    assert!(rows(client).await?.as_str().unwrap().contains("stock:"));
    drawn_after(
        client,
        "const c = [...document.querySelectorAll('#hide-rows input')].find(c => c.value === 'stock'); c.click();",
    )
    .await?;
    assert!(!rows(client).await?.as_str().unwrap().contains("stock:"));
    drawn_after(client, "document.getElementById('all').click();").await?;
    let caption = client
        .execute(
            "return document.getElementById('caption').textContent;",
            vec![],
        )
        .await?;
    assert!(
        caption.as_str().unwrap().contains("every world"),
        "{caption}"
    );
    // A session opened by its id: the menu names its own scenario.
    let id = client.execute("return session;", vec![]).await?;
    open(client, web, &format!("session={}", id.as_str().unwrap())).await?;
    let menu = client
        .execute("return document.getElementById('scenario').value;", vec![])
        .await?;
    assert_eq!(menu, json!("exercises/gofish-table1.deal"));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quiz_normal_and_hall_views_in_a_browser() {
    let Some(b) = browser().await else {
        return;
    };
    let start = Instant::now();
    let result = async {
        quiz_view(&b.client, b.web).await?;
        normal_view(&b.client, b.web).await?;
        hall_views(&b.client, b.web).await
    }
    .await;
    eprintln!("the views took {:.1} s", start.elapsed().as_secs_f64());
    let _ = b.client.clone().close().await;
    result.expect("the browser session");
}
