//! The `question` statement: parsed in its four forms, located errors, and
//! answered as the queries it stands for answer (`?`, `expect considers`,
//! `worlds where`, `K_a` for every player), on both engines; a question
//! with no text is worded from its formula.

use dealer::interp::question::Answer;
use dealer::interp::{Engine, Options, Output, Script, Session};
use dealer::syntax::ast::{Ask, StatementKind};
use dealer::syntax::parse;

const DEAL: &str = "game gofish\nplayers 1 2 3\ndeck Q*4 A*4\ndeal 1: Q Q | 2: A Q | 3: A A\n";

/// Replays `src`; every output in order.
fn outputs(src: &str, engine: Engine) -> Vec<Output> {
    let script = Script::parse("t.deal", src).expect("parses");
    let mut session = crate::common::session_on(engine);
    let mut all = Vec::new();
    for step in session.replay(&script, 0) {
        all.extend(
            step.outcome
                .unwrap_or_else(|d| panic!("{}", d.render("t.deal", src, false))),
        );
    }
    all
}

fn answers(src: &str, engine: Engine) -> Vec<String> {
    outputs(src, engine)
        .into_iter()
        .filter_map(|o| match o {
            Output::Question { asked, .. } => Some(asked.answer.to_string()),
            Output::Answer { value, .. } => Some(value.to_string()),
            Output::Expect { held, .. } => Some(format!("expect {held}")),
            _ => None,
        })
        .collect()
}

#[test]
fn the_four_forms_parse() {
    let src =
        "question \"Does 1 know?\" K1 !2_Q\nquestion K1 p\nquestion considers 3\nquestion worlds\n\
               question worlds where 2_Q\nquestion who knows !1_A\n";
    let s = parse(src).expect("parses").statements;
    let asks: Vec<&Ask> = s
        .iter()
        .map(|st| match &st.kind {
            StatementKind::Question(q) => &q.ask,
            other => panic!("not a question: {other:?}"),
        })
        .collect();
    assert!(
        matches!(&s[0].kind, StatementKind::Question(q) if q.text.as_ref().unwrap().text == "Does 1 know?")
    );
    assert!(matches!(&s[1].kind, StatementKind::Question(q) if q.text.is_none()));
    assert!(matches!(asks[0], Ask::YesNo(_)));
    assert!(matches!(asks[2], Ask::Considers(p) if p.text == "3"));
    assert!(matches!(asks[3], Ask::Worlds(None)));
    assert!(matches!(asks[4], Ask::Worlds(Some(_))));
    assert!(matches!(asks[5], Ask::WhoKnows(_)));
}

#[test]
fn bad_questions_are_located_errors() {
    for (src, col, word) in [
        ("question who K1 p\n", 14, "`knows`"),
        ("question considers\n", 19, "player"),
        ("question \"unclosed K1 p\n", 24, "never closed"),
        ("question\n", 9, "formula"),
    ] {
        let errs = parse(src).expect_err(src);
        let d = errs[0].to_diagnostic();
        let shown = d.render("t.deal", src, false);
        assert!(shown.contains(&format!("t.deal:1:{col}")), "{src}: {shown}");
        assert!(shown.contains(word), "{src}: {shown}");
    }
    // An unknown player is an error of the checking pass, located.
    let src = format!("{DEAL}question considers 7\n");
    let script = Script::parse("t.deal", &src).unwrap();
    let mut session = Session::new(Options::default());
    let last = session.replay(&script, 0).last().unwrap();
    let d = last.outcome.expect_err("player 7 does not exist");
    assert!(
        d.render("t.deal", &src, false).contains("t.deal:5:20"),
        "{d:?}"
    );
}

#[test]
fn a_player_named_question_still_observes() {
    let src = "var x in 0..3\nplayers question b\nactual x = 2\nquestion observes x\n? K_question x = 2\n";
    assert_eq!(answers(src, Engine::Explicit), ["true"]);
}

#[test]
fn answers_are_the_queries_answers_on_both_engines() {
    let body = "\
question K1 !2_Q
? K1 !2_Q
question K3 !hand1(A)
? K3 !hand1(A)
question Kw1 hand2(A)
? Kw1 hand2(A)
question C hand1 = 2
? C hand1 = 2
question considers 1
expect considers 1 = 6
question worlds
expect worlds = 19
question worlds where 2_Q
expect worlds = 13 where 2_Q
question who knows !1_A
? K1 !1_A
? K2 !1_A
? K3 !1_A
ask 1 2 Q
question who knows 2_A
question M3 1_QQQ
? M3 1_QQQ
";
    let src = format!("{DEAL}{body}");
    let explicit = answers(&src, Engine::Explicit);
    let symbolic = answers(&src, Engine::Symbolic);
    assert_eq!(explicit, symbolic);
    let yes_no = |a: &str| if a == "yes" { "true" } else { "false" };
    for i in [0, 2, 4, 6, 19] {
        assert_eq!(yes_no(&explicit[i]), explicit[i + 1], "question {i}");
    }
    assert_eq!(
        &explicit[8..14],
        ["6", "expect true", "19", "expect true", "13", "expect true"]
    );
    // Who knows: exactly the players whose K holds.
    let knowers: Vec<&str> = ["1", "2", "3"]
        .into_iter()
        .zip(&explicit[15..18])
        .filter(|(_, v)| *v == "true")
        .map(|(p, _)| p)
        .collect();
    assert_eq!(
        explicit[14],
        if knowers.is_empty() {
            "nobody".to_string()
        } else {
            knowers.join(" ")
        }
    );
    assert_eq!(
        explicit[18], "1 2 3",
        "after the ask everyone knows 2 holds an A"
    );
}

#[test]
fn a_question_without_text_is_worded_from_its_formula() {
    let src = format!(
        "{DEAL}question K1 !2_Q\nquestion \"Own words\" K1 p_undeclared_is_fine_in_text_only\n"
    );
    // The second question's formula names an unknown proposition: an error.
    let script = Script::parse("t.deal", &src).unwrap();
    let mut session = Session::new(Options::default());
    let steps: Vec<_> = session.replay(&script, 0).collect();
    let worded = match &steps[4].outcome.as_ref().unwrap()[..] {
        [Output::Question { asked, .. }] => asked.text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(worded, "Does player 1 know that player 2 holds no Q?");
    assert!(steps[5].outcome.is_err());
    let src = format!(
        "{DEAL}question \"Is that so?\" C !3_Q\nquestion M2 1_QQ\nquestion who knows 1_Q & !3_Q\n\
         question Kw2 !K1 hand3(A) >= 2\n"
    );
    let texts: Vec<String> = outputs(&src, Engine::Explicit)
        .into_iter()
        .filter_map(|o| match o {
            Output::Question { asked, .. } => Some(asked.text),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts,
        [
            "Is that so?",
            "Does player 2 consider it possible that player 1 holds QQ?",
            "Which players know that player 1 holds Q and player 3 holds no Q?",
            "Does player 2 know whether player 1 does not know that player 3 holds AA?",
        ]
    );
}

#[test]
fn given_answers_are_read_by_the_sort_of_question() {
    let players: Vec<String> = ["1", "2", "Bruno"].map(String::from).to_vec();
    let yes = Answer::YesNo(true);
    assert_eq!(yes.read(" Y ", &players), Ok(Answer::YesNo(true)));
    assert_eq!(yes.read("no", &players), Ok(Answer::YesNo(false)));
    assert!(yes.read("maybe", &players).unwrap_err().contains("y or n"));
    let n = Answer::Number(4u32.into());
    assert_eq!(
        n.read("1,024", &players),
        Ok(Answer::Number(1024u32.into()))
    );
    assert!(n.read("four", &players).is_err());
    let who = Answer::Players(Vec::new());
    assert_eq!(
        who.read("bruno, 1 1", &players),
        Ok(Answer::Players(vec!["1".into(), "Bruno".into()]))
    );
    assert_eq!(
        who.read("nobody", &players),
        Ok(Answer::Players(Vec::new()))
    );
    assert!(who
        .read("3", &players)
        .unwrap_err()
        .contains("not a player"));
}

/// A question about belief is worded "believe", never "know" (`B1 φ` is
/// `K1 φ` to the engine, read as belief on a belief model); a belief
/// inside another operator is shown as written. The answers are the
/// queries' answers.
#[test]
fn a_belief_question_is_worded_believe() {
    let src = format!("{DEAL}question B1 !2_Q\nquestion K2 B1 !2_Q\n? B1 !2_Q\n? K2 B1 !2_Q\n");
    let outs = outputs(&src, Engine::Explicit);
    let texts: Vec<String> = outs
        .iter()
        .filter_map(|o| match o {
            Output::Question { asked, .. } => Some(asked.text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts,
        [
            "Does player 1 believe that player 2 holds no Q?",
            "Is `K2 B1 !2_Q` true?",
        ]
    );
    let said: Vec<String> = answers(&src, Engine::Explicit)
        .into_iter()
        .map(|a| a.replace("yes", "true").replace("no", "false"))
        .collect();
    assert_eq!(said[..2], said[2..], "{said:?}");
}
