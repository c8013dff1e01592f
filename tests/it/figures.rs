//! Figures: DOT snapshots of the Go Fish report's Figures 1a-1e and of the
//! Kemps report's sub-models of the 6s; SVG rendered by `dot` when it is
//! installed and by the pure-Rust fallback; located errors for bad input,
//! with no file left behind.

use std::path::Path;

use dealer::figure::render::{self, Format, Renderer};
use dealer::figure::{dot, Figure, KripkeLike};
use dealer::interp::{Options, Output, Session};
use dealer::syntax;

/// Replays `file` up to `checkpoint`, then runs `export` with `options`.
fn figure(file: &str, checkpoint: &str, options: &str) -> Result<Figure, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let src = std::fs::read_to_string(path).unwrap();
    let scenario = syntax::parse(&src).unwrap();
    let mut session = Session::new(Options::default());
    for stmt in &scenario.statements {
        session.execute(stmt, &src).unwrap();
        if session.checkpoints().last().map(String::as_str) == Some(checkpoint) {
            break;
        }
    }
    assert_eq!(session.checkpoints().last().unwrap(), checkpoint);
    let line = format!("export \"fig.dot\" {options}");
    let stmt = syntax::parse(&line).unwrap().statements.remove(0);
    let outputs = session
        .execute(&stmt, &line)
        .map_err(|d| d.render("export", &line, false))?;
    match outputs.into_iter().next() {
        Some(Output::Figure { figure, .. }) => Ok(figure),
        other => panic!("no figure: {other:?}"),
    }
}

const GOFISH: &str = "scenarios/gofish/simplified.deal";
const KEMPS: &str = "scenarios/kemps/sixes-small.deal";

#[test]
fn go_fish_figures_1a_to_1e() {
    let turns = [
        ("1a", "initial", 8),
        ("1b", "turn 1", 4),
        ("1c", "turn 2", 4),
        ("1d", "turn 3", 4),
        ("1e", "turn 4", 2),
    ];
    for (fig, checkpoint, worlds) in turns {
        let f = figure(GOFISH, checkpoint, "").unwrap();
        assert_eq!(f.nodes.len(), worlds, "Figure {fig}");
        assert!(!f.directed);
        insta::assert_snapshot!(format!("gofish_{fig}"), dot::to_dot(&f));
    }
}

#[test]
fn kemps_sub_models_of_the_sixes() {
    for (name, checkpoint, card, nodes) in [
        ("round1_6S", "round 1", "6S", 4),
        ("round1_6D", "round 1", "6D", 4),
        ("round1_6H", "round 1", "6H", 1),
        ("round2_6S", "round 2", "6S", 1),
        ("pick_6H", "pick", "6H", 1),
    ] {
        let f = figure(KEMPS, checkpoint, &format!("for {card}")).unwrap();
        assert_eq!(f.nodes.len(), nodes, "{name}");
        insta::assert_snapshot!(format!("kemps_{name}"), dot::to_dot(&f));
    }
}

#[test]
fn s5_edges_are_drawn_once_without_loops() {
    let f = figure(GOFISH, "initial", "").unwrap();
    for e in &f.edges {
        assert!(e.from < e.to, "{e:?}");
    }
    let mut pairs: Vec<_> = f.edges.iter().map(|e| (e.from, e.to, e.agent)).collect();
    pairs.dedup();
    assert_eq!(pairs.len(), f.edges.len());
    // Figure 1a: each player considers 4 states possible; each of its two
    // classes of 4 worlds is drawn as a chain of 3 lines (all 6 pairs, so
    // 12 lines per player, with `complete`).
    for a in 0..3 {
        assert_eq!(f.edges.iter().filter(|e| e.agent == a).count(), 6);
    }
    let all = figure(GOFISH, "initial", "complete").unwrap();
    for a in 0..3 {
        assert_eq!(all.edges.iter().filter(|e| e.agent == a).count(), 12);
    }
}

#[test]
fn views_restrict_worlds_and_relations() {
    let only = figure(GOFISH, "turn 2", "only 1").unwrap();
    assert_eq!(only.nodes.len(), 2, "player 1 considers 2 worlds at turn 2");
    let agents = figure(GOFISH, "turn 2", "agents 1,2").unwrap();
    assert!(agents.edges.iter().all(|e| e.agent < 2));
    assert!(agents.edges.iter().any(|e| e.agent == 1));
    let all = figure(GOFISH, "turn 2", "all").unwrap();
    assert_eq!(all.nodes.len(), 4, "the model holds only reachable worlds");
}

#[test]
fn common_knowledge_is_underlined() {
    // Turn 2: C 1_QQ but not C 1_A (Table 1 underlines too much: see the scenario).
    let f = figure(GOFISH, "turn 2", "").unwrap();
    let actual = &f.nodes[f.actual.unwrap()];
    let first = &actual.lines[0];
    let common: String = first
        .iter()
        .filter(|s| s.common)
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(common, "QQ");
    assert_eq!(actual.plain_label().lines().next(), Some("1: QQA"));
}

#[test]
fn the_size_guard_refuses_with_the_count() {
    let err = figure(KEMPS, "round 1", "").unwrap_err();
    assert!(
        err.contains(
            "error[figure-too-large]: the figure would draw 2520 worlds, more than the limit of 64 nodes per figure (in any format, .dot included)"
        ),
        "{err}"
    );
    assert!(
        err.contains("help: raise the limit with `limit 2520` in the export statement, `--max-nodes 2520` on the command line or `:limit 2520` in the REPL; or draw one card's sub-model (`for 6S`)"),
        "{err}"
    );
}

#[test]
fn unknown_card_or_player_is_located() {
    let err = figure(KEMPS, "round 1", "for 7S").unwrap_err();
    assert!(err.contains("error[unknown-card]"), "{err}");
    assert!(err.contains("export:1:22"), "{err}");
    let err = figure(GOFISH, "initial", "only 4").unwrap_err();
    assert!(
        err.contains("error[unknown-player]: no player `4`"),
        "{err}"
    );
}

/// Well-formed XML, checked by hand: every tag closed in order.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        if tag.starts_with('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.as_str()),
                "mismatched </{name}>"
            );
        } else {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert!(svg.contains("<svg"));
}

fn assert_names_every_world(svg: &str, f: &Figure) {
    for n in f.nodes() {
        assert!(svg.contains(&format!(">{}<", n.id)), "{} missing", n.id);
    }
}

#[test]
fn svg_through_dot_when_present_and_through_the_fallback() {
    let f = figure(GOFISH, "turn 1", "").unwrap();
    let auto = render::render(&f, Format::Svg, Renderer::Auto).unwrap();
    let auto = String::from_utf8(auto).unwrap();
    assert_well_formed(&auto);
    assert_names_every_world(&auto, &f);
    let builtin = render::render(&f, Format::Svg, Renderer::Builtin).unwrap();
    let builtin = String::from_utf8(builtin).unwrap();
    assert_well_formed(&builtin);
    assert_names_every_world(&builtin, &f);
    // Card names with markup characters are escaped in both.
    assert!(!builtin.contains("<8,4>"));
}

#[test]
fn png_and_pdf_need_graphviz() {
    let f = figure(GOFISH, "turn 1", "").unwrap();
    // PNG without Graphviz: the built-in SVG rasterised, at the SVG's size
    // (96 dpi), and twice that at 192 dpi.
    let png = render::render(&f, Format::Png, Renderer::Builtin).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let width = |png: &[u8]| u32::from_be_bytes(png[16..20].try_into().unwrap());
    let svg =
        String::from_utf8(render::render(&f, Format::Svg, Renderer::Builtin).unwrap()).unwrap();
    let svg_width: f64 = svg
        .split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (f64::from(width(&png)) - svg_width).abs() <= 1.0,
        "{} vs {svg_width}",
        width(&png)
    );
    let look = dealer::figure::look::Look {
        dpi: Some(192),
        ..Default::default()
    };
    let big = render::render_with(&f, Format::Png, Renderer::Builtin, &look).unwrap();
    assert!((f64::from(width(&big)) - 2.0 * svg_width).abs() <= 2.0);
    // Not blank: the rasterised text and lines leave dark pixels.
    assert!(png.len() > 2000, "{} bytes", png.len());
    let err = render::render(&f, Format::Pdf, Renderer::Builtin).unwrap_err();
    assert_eq!(err.code(), "needs-graphviz");
    assert!(err.to_string().contains("install the graphviz package"));
    if crate::common::tool(render::graphviz_available(), "Graphviz (dot)") {
        let png = render::render(&f, Format::Png, Renderer::Graphviz).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
    }
}

use crate::common::dealer;

fn export(args: &[&str], renderer: &str) -> (i32, String) {
    let out = dealer()
        .arg("export")
        .args(args)
        .env("DEALER_RENDERER", renderer)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), err)
}

#[test]
fn the_command_writes_the_figure_with_and_without_graphviz() {
    let dir = tempfile::tempdir().unwrap();
    for renderer in ["auto", "builtin"] {
        let out = dir.path().join(format!("t2-{renderer}.svg"));
        let (code, err) = export(
            &[GOFISH, "--at", "turn 2", "-o", out.to_str().unwrap()],
            renderer,
        );
        assert_eq!(code, 0, "{err}");
        let svg = std::fs::read_to_string(&out).unwrap();
        assert_well_formed(&svg);
        for w in ["w0", "w1", "w2", "w3"] {
            assert!(svg.contains(w), "{renderer}: {w}");
        }
    }
    let out = dir.path().join("six.dot");
    let o = out.to_str().unwrap();
    let (code, err) = export(&[KEMPS, "--at", "round 1", "--for", "6S", "-o", o], "auto");
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("stock: 6S"));
}

#[test]
fn bad_exports_are_clear_errors_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fig.svg");
    let o = out.to_str().unwrap();
    let jpg = dir.path().join("fig.jpg");
    // A missing directory is created, but not one under a plain file.
    let other = tempfile::tempdir().unwrap();
    let file = other.path().join("plain");
    std::fs::write(&file, "").unwrap();
    let under_file = file.join("fig.svg");
    let cases: [(&[&str], &str); 6] = [
        (
            &[GOFISH, "--at", "turn 9", "-o", o],
            "no checkpoint \"turn 9\"",
        ),
        (
            &[GOFISH, "--at", "turn 2", "--for", "K", "-o", o],
            "error[unknown-card]",
        ),
        (
            &[KEMPS, "--at", "round 1", "--all", "-o", o],
            "2520 worlds, more than the limit of 64",
        ),
        (
            &[GOFISH, "-o", under_file.to_str().unwrap()],
            "cannot create the directory",
        ),
        (
            &[GOFISH, "-o", jpg.to_str().unwrap()],
            "use .dot, .svg, .png, .pdf or .tex",
        ),
        (
            &[GOFISH, "--at", "turn 2", "--only", "7", "-o", o],
            "no player `7`",
        ),
    ];
    for (args, message) in cases {
        let (code, err) = export(args, "auto");
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let (code, err) = export(
        &[
            GOFISH,
            "--at",
            "turn 2",
            "-o",
            dir.path().join("f.pdf").to_str().unwrap(),
        ],
        "builtin",
    );
    assert_eq!(code, 2);
    assert!(err.contains("graphviz"), "{err}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn export_statements_write_beside_the_scenario_during_run() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("game.deal");
    std::fs::write(
        &scenario,
        "players 1 2\ndeck Q*2 A*2\ndeal 1: Q | 2: A\nexpect K1 1_Q\nexport \"fig.dot\"\nexport \"all.dot\" only 1 agents 1\n",
    )
    .unwrap();
    let out = dealer().arg("run").arg(&scenario).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.path().join("fig.dot")).unwrap();
    assert!(text.starts_with("graph kripke {"));
    assert!(dir.path().join("all.dot").exists());
    // `check` builds no figure and writes nothing.
    std::fs::remove_file(dir.path().join("fig.dot")).unwrap();
    let out = dealer().arg("check").arg(&scenario).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!dir.path().join("fig.dot").exists());
}
