//! `dealer run --json` and `check --json`: every document is checked
//! against the schema of docs/json.md (by a validator written from it), its
//! counts against its own statements, and its answers against the text
//! output of the same run.

use assert_cmd::Command;
use serde_json::Value;

fn dealer(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::cargo_bin("dealer").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn keys(v: &Value, want: &[&str], what: &str) {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not an object"));
    let mut have: Vec<&str> = obj.keys().map(String::as_str).collect();
    have.sort_unstable();
    let mut want = want.to_vec();
    want.sort_unstable();
    assert_eq!(have, want, "{what}");
}

fn span(v: &Value, src: &str) {
    keys(v, &["start", "end", "line", "column"], "span");
    let (start, end) = (v["start"].as_u64().unwrap(), v["end"].as_u64().unwrap());
    assert!(start <= end && end as usize <= src.len());
    let line = src[..start as usize].matches('\n').count() + 1;
    assert_eq!(v["line"].as_u64().unwrap() as usize, line);
    assert!(v["column"].as_u64().unwrap() >= 1);
}

fn diagnostic(v: &Value, src: &str) {
    keys(
        v,
        &["severity", "code", "message", "label", "help", "span"],
        "diagnostic",
    );
    assert!(["error", "failure", "warning"].contains(&v["severity"].as_str().unwrap()));
    assert!(!v["code"].as_str().unwrap().is_empty());
    assert!(v["message"].is_string() && v["label"].is_string());
    assert!(v["help"].is_null() || v["help"].is_string());
    if !v["span"].is_null() {
        span(&v["span"], src);
    }
}

fn output(v: &Value) {
    let kind = v["kind"].as_str().unwrap();
    let (fields, bools): (&[&str], &[&str]) = match kind {
        "answer" | "valid" => (&["kind", "source", "value"], &["value"]),
        "expect" => (&["kind", "source", "held", "detail"], &["held"]),
        "moved" => (&["kind", "source", "notes"], &[]),
        "checkpoint" => (&["kind", "name"], &[]),
        "lines" => (&["kind", "lines"], &[]),
        "figure" => (&["kind", "path", "nodes", "edges"], &[]),
        other => panic!("unknown output kind {other}"),
    };
    keys(v, fields, kind);
    for b in bools {
        assert!(v[b].is_boolean(), "{kind}.{b}");
    }
}

/// Checks a document against the schema and its own counts; returns it.
fn validate(text: &str, src: &str, code: i32) -> Value {
    let doc: Value = serde_json::from_str(text).expect("valid JSON");
    keys(
        &doc,
        &[
            "schema",
            "file",
            "mode",
            "statements",
            "warnings",
            "errors",
            "summary",
            "exit_code",
        ],
        "report",
    );
    assert_eq!(doc["schema"], "dealer-run/1");
    assert!(["run", "check"].contains(&doc["mode"].as_str().unwrap()));
    assert_eq!(doc["exit_code"].as_i64().unwrap(), i64::from(code));
    let s = &doc["summary"];
    keys(
        s,
        &[
            "statements",
            "replayed",
            "expects_held",
            "expects_failed",
            "queries",
        ],
        "summary",
    );
    let statements = doc["statements"].as_array().unwrap();
    assert_eq!(s["replayed"].as_u64().unwrap() as usize, statements.len());
    let (mut held, mut failed, mut queries) = (0, 0, 0);
    for (i, st) in statements.iter().enumerate() {
        keys(
            st,
            &["index", "span", "text", "outcome", "outputs", "worlds"],
            "statement",
        );
        assert_eq!(st["index"].as_u64().unwrap() as usize, i);
        span(&st["span"], src);
        let sp = &st["span"];
        let text =
            &src[sp["start"].as_u64().unwrap() as usize..sp["end"].as_u64().unwrap() as usize];
        assert_eq!(st["text"].as_str().unwrap(), text.trim_end());
        assert!(["ok", "error"].contains(&st["outcome"].as_str().unwrap()));
        if let Some(w) = st["worlds"].as_str() {
            assert!(w.parse::<u128>().is_ok() || w.chars().all(|c| c.is_ascii_digit()));
        } else {
            assert!(st["worlds"].is_null());
        }
        for o in st["outputs"].as_array().unwrap() {
            output(o);
            match o["kind"].as_str().unwrap() {
                "expect" if o["held"] == true => held += 1,
                "expect" => failed += 1,
                "answer" | "valid" => queries += 1,
                _ => {}
            }
        }
    }
    assert_eq!(s["expects_held"].as_u64().unwrap(), held);
    assert_eq!(s["expects_failed"].as_u64().unwrap(), failed);
    assert_eq!(s["queries"].as_u64().unwrap(), queries);
    for d in doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .chain(doc["warnings"].as_array().unwrap())
    {
        diagnostic(d, src);
    }
    let failures = doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "failure")
        .count() as u64;
    assert_eq!(failures, failed);
    doc
}

#[test]
fn scenarios_as_json_match_the_schema_and_the_text_output() {
    for file in [
        "scenarios/gofish/simplified.deal",
        "scenarios/kemps/sixes-small.deal",
        "scenarios/classics/explicit-model.deal",
        "scenarios/classics/russian-cards.deal",
        "scenarios/kwartet/axioms.deal",
    ] {
        let src = std::fs::read_to_string(file).unwrap();
        let (code, json, _) = dealer(&["run", "--json", file], None);
        assert_eq!(code, 0, "{file}");
        let doc = validate(&json, &src, code);
        let (_, text, _) = dealer(&["run", file], None);
        let held = doc["summary"]["expects_held"].as_u64().unwrap();
        assert!(
            text.contains(&format!("expectations: {held} held, 0 failed")),
            "{file}"
        );
        // Every answer printed as text is in the document, with its value.
        for st in doc["statements"].as_array().unwrap() {
            for o in st["outputs"].as_array().unwrap() {
                if o["kind"] == "answer" || o["kind"] == "valid" {
                    let line = format!("{}  => {}", o["source"].as_str().unwrap(), o["value"]);
                    assert!(text.contains(&line), "{file}: {line}");
                }
            }
        }
        let (code, json, _) = dealer(&["check", "--json", file], None);
        assert_eq!(code, 0, "{file}");
        let doc = validate(&json, &src, code);
        assert_eq!(doc["mode"], "check");
    }
}

#[test]
fn failures_and_errors_carry_their_spans() {
    let src = "players 1 2\ndeck Q*2 A*2\ndeal 1: Q | 2: A\nexpect K1 2_A\n? K1 1_Q\nmove 1 7S -> 2\n? K2 2_A\n";
    let (code, json, _) = dealer(&["run", "--json", "-"], Some(src));
    assert_eq!(code, 2);
    let doc = validate(&json, src, code);
    let errors = doc["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0]["code"], "expect-failed");
    assert_eq!(errors[0]["span"]["line"], 4);
    assert_eq!(errors[1]["severity"], "error");
    assert_eq!(errors[1]["span"]["line"], 6);
    // The run stops at the error: the last query is not answered.
    assert_eq!(doc["statements"].as_array().unwrap().len(), 6);
    assert_eq!(doc["statements"][5]["outcome"], "error");
    assert_eq!(doc["statements"][4]["outputs"][0]["value"], true);
    assert_eq!(doc["statements"][3]["worlds"], "4");

    let (code, json, _) = dealer(&["run", "--json", "-"], Some("players 1 2\nexpect K1 (\n"));
    assert_eq!(code, 2);
    let doc = validate(&json, "players 1 2\nexpect K1 (\n", code);
    assert_eq!(doc["errors"][0]["span"]["line"], 2);
    assert!(doc["statements"].as_array().unwrap().is_empty());

    let (code, json, _) = dealer(&["run", "--json", "no/such.deal"], None);
    assert_eq!(code, 2);
    let doc = validate(&json, "", code);
    assert_eq!(doc["errors"][0]["code"], "cannot-read");
    assert!(doc["errors"][0]["span"].is_null());
}

#[test]
fn a_failed_expectation_exits_1() {
    let src = "players 1 2\ndeck Q*2 A*2\ndeal 1: Q | 2: A\nexpect K1 2_A\nexpect K1 1_Q\n";
    let (code, json, _) = dealer(&["run", "--json", "-"], Some(src));
    assert_eq!(code, 1);
    let doc = validate(&json, src, code);
    assert_eq!(doc["summary"]["expects_failed"], 1);
    assert_eq!(doc["summary"]["expects_held"], 1);
}
