//! The REPL's completion knows the context: the moves the rules allow now,
//! the players after a knowledge operator, file names after `:load` and
//! `:export`. Each expectation is checked against the game, not a list
//! written by hand where the game can say it.

use dealer::interp::Options;
use dealer::repl::Repl;

/// A REPL with `src` typed in, statement by statement.
fn repl(src: &str) -> Repl {
    let mut r = Repl::new(Options::default());
    for line in src.lines() {
        r.eval(line);
    }
    r
}

fn candidates(r: &Repl, line: &str) -> Vec<String> {
    r.complete(line, line.len()).1
}

const TABLE: &str =
    "game gofish\nplayers 1 2 3\ndeck Q*4 A*4 K*4\ndeal 1: Q K | 2: Q | 3: A\n? 1_Q\n";

#[test]
fn ask_offers_the_players_and_then_the_kinds_the_asker_holds() {
    let r = repl(TABLE);
    // Player 1 starts; it may ask 2 or 3 (both hold cards).
    assert_eq!(candidates(&r, "ask 1 "), ["2", "3"]);
    assert_eq!(candidates(&r, "ask 1 3 "), ["K", "Q"]);
    assert_eq!(candidates(&r, "ask 1 3 K"), ["K"]);
    // A kind player 1 does not hold is not offered, whatever its prefix.
    assert!(candidates(&r, "ask 1 3 A").is_empty());
}

#[test]
fn the_next_move_changes_what_is_offered() {
    let mut r = repl(TABLE);
    // 3 holds no king: "Go Fish!", and 1 must draw before anything else.
    let out = dealer::repl::render(&r.eval("ask 1 3 K"), false);
    assert!(out.contains("Go Fish"), "{out}");
    assert_eq!(candidates(&r, "draw "), ["1"]);
    r.eval("draw 1");
    // Now it is 2's turn, and 2 holds only a queen.
    assert_eq!(candidates(&r, "ask 2 "), ["1", "3"]);
    assert_eq!(candidates(&r, "ask 2 1 "), ["Q"]);
    assert!(candidates(&r, "draw ").is_empty());
}

#[test]
fn another_players_ask_falls_back_to_the_shape_of_an_ask() {
    let r = repl(TABLE);
    // Not player 2's turn: no move allowed, so players then kinds.
    assert_eq!(candidates(&r, "ask 2 "), ["1", "3"]);
    assert_eq!(candidates(&r, "ask 2 1 "), ["A", "K", "Q"]);
}

#[test]
fn knowledge_operators_are_completed_with_players() {
    let r = repl(TABLE);
    // Completion ignores case, so game names such as `kwartet` come too;
    // the operators are the candidates that keep the typed capital.
    let ops = |line: &str, op: char| -> Vec<String> {
        candidates(&r, line)
            .into_iter()
            .filter(|c| c.starts_with(op))
            .collect()
    };
    // `K` is also a card of this deck: both are offered.
    assert_eq!(ops("? K", 'K'), ["K", "K1", "K2", "K3"]);
    assert_eq!(ops("? hand1(K", 'K'), ["K", "K1", "K2", "K3"]);
    assert_eq!(ops("? Kw", 'K'), ["Kw1", "Kw2", "Kw3"]);
    assert_eq!(ops("? K1 1_Q & M", 'M'), ["M1", "M2", "M3"]);
    let named = repl("game gofish\nplayers Anne Bill\ndeck Q*4\ndeal Anne: Q | Bill: Q\n? true\n");
    assert_eq!(candidates(&named, "? K_B"), ["K_Bill"]);
}

#[test]
fn load_and_export_complete_file_names() {
    let dir = std::env::temp_dir().join(format!("dealer-complete-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("game.deal"), "").unwrap();
    std::fs::write(dir.join("other.txt"), "").unwrap();
    let r = repl(TABLE);
    let base = dir.to_string_lossy().into_owned();
    let line = format!(":load {base}/g");
    let (start, found) = r.complete(&line, line.len());
    assert_eq!(found, ["game.deal"]);
    assert_eq!(&line[start..], "g");
    let line = format!(":export \"{base}/");
    let (start, found) = r.complete(&line, line.len());
    assert_eq!(found, ["game.deal", "other.txt", "sub/"]);
    assert_eq!(start, line.len());
    // Other commands do not complete file names.
    assert!(!candidates(&r, &format!(":goto {base}/g")).contains(&"game.deal".to_string()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A game's declaration is the game's word, not the language's: the REPL
/// offers `psychic` because the Cabo-like game declares it, beside the
/// games' move words.
#[test]
fn a_games_declaration_word_comes_from_the_game() {
    use dealer::cards::game::{declaration_words, declares};
    use dealer::cards::{game_named, GAMES};
    assert!(!dealer::syntax::statement_words().contains(&"psychic"));
    let declaring: Vec<&str> = GAMES
        .iter()
        .filter(|g| declares(**g, "psychic"))
        .map(|g| g.name())
        .collect();
    assert_eq!(declaring, ["cabo"]);
    assert!(declaration_words().eq(game_named("cabo")
        .unwrap()
        .declaration_forms()
        .iter()
        .map(|f| f.word)));
    let r = repl("");
    assert_eq!(candidates(&r, "psy"), ["psychic"]);
    assert_eq!(candidates(&r, "glim"), ["glimpse"]);
}
