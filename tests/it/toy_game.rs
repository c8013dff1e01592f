//! A new game is one file: "Guess", a small game defined entirely here,
//! outside dealer's list of games, with its own move words (`take P`,
//! `guess P C`), its own move type and state, its legality, event models,
//! referee and seeded deal. A session that is given the game replays a
//! scenario written in the generic move form, and the random agent plays
//! seeded games to their end; the end and the scores are checked against
//! the rules and the actual world. The game also has a declaration of its
//! own (`banned C...`), read in the same generic form, and a strategy
//! written for it is loaded against it and chooses by its rules.
//!
//! The rules: two players hold one card each of the values 1 to 6; the
//! rest is the stock. On a turn a player either takes the top card of the
//! stock (`take P`: only P sees it) or guesses a card the other player
//! holds (`guess P C`: public; everyone learns whether the other holds
//! C), and no card is guessed twice. A right guess wins and ends the game;
//! a wrong one passes the turn, and so does a take. The game also ends, with no winner, when the stock
//! is empty at the start of a turn. `banned C...`, before the deal's first
//! move, declares cards nobody may guess.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use dealer::cards::generic::generic;
use dealer::cards::referee::dealt;
use dealer::cards::rules::DeclarationForm;
use dealer::cards::rules::{check_turn, describe_player};
use dealer::cards::view::{cards_held, About};
use dealer::cards::Deck;
use dealer::cards::{
    Arg, ArgKind, Deal, Game, GameAction, GameRules, GameState, Move, MoveForm, Outcome, Position,
    Referee, Refusal, Size, Table,
};
use dealer::cards::{Fact, GameView};
use dealer::engine::{Agent, Event, EventModel, Formula, Kind};
use dealer::interp::{Options, Output, Session};
use dealer::play::agent::Legal;
use dealer::play::views;
use dealer::play::{Agent as _, Match, RandomAgent, View};
use dealer::syntax;

// ------------------------------------------------------------------ the game

/// The game "Guess".
#[derive(Debug)]
struct Guess;

/// Its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
enum GuessMove {
    /// `take P`
    Take(Agent),
    /// `guess P C`
    Guess(Agent, Kind),
}

impl GameAction for GuessMove {
    fn word(&self) -> &'static str {
        match self {
            GuessMove::Take(_) => "take",
            GuessMove::Guess(..) => "guess",
        }
    }

    fn args(&self) -> Vec<Arg> {
        match *self {
            GuessMove::Take(p) => vec![Arg::Player(p)],
            GuessMove::Guess(p, k) => vec![Arg::Player(p), Arg::Card(k)],
        }
    }
}

/// Its own state: the cards guessed so far, and the winner, once a guess
/// was right.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Guessed {
    winner: Option<Agent>,
    guessed: Vec<Kind>,
}

fn guessed(state: &GameState) -> &[Kind] {
    state.extra.get::<Guessed>().map_or(&[], |g| &g.guessed)
}

const FORMS: &[MoveForm] = &[
    MoveForm::new("take", &[ArgKind::Player]),
    MoveForm::new("guess", &[ArgKind::Player, ArgKind::Card]),
];

/// Its declaration: `banned C...`, cards nobody may guess.
const DECLARATIONS: &[DeclarationForm] = &[DeclarationForm {
    word: "banned",
    args: &[ArgKind::Card],
    repeated: true,
}];

/// What `banned` declared: the game's part of the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Banned(Vec<Kind>);

fn banned(table: &Table) -> &[Kind] {
    table.game_setup.get::<Banned>().map_or(&[], |b| &b.0)
}

fn other(p: Agent) -> Agent {
    1 - p
}

fn winner(state: &GameState) -> Option<Agent> {
    state.extra.get::<Guessed>().and_then(|g| g.winner)
}

/// `guess P C`: public, one event per answer.
fn guess_events(table: &Table, p: Agent, kind: Kind, label: &str) -> EventModel {
    let holds = Formula::holds(table.hand(other(p)), kind);
    let events = vec![
        Event {
            name: "right".into(),
            pre: holds.clone(),
            post: Vec::new(),
        },
        Event {
            name: "wrong".into(),
            pre: holds.not(),
            post: Vec::new(),
        },
    ];
    EventModel::public(label, table.players.len(), events)
}

fn stock_empty(pos: &Position) -> bool {
    pos.count(pos.table.stock()) == 0
}

impl GameRules for Guess {
    fn name(&self) -> &'static str {
        "guess"
    }

    fn title(&self) -> &'static str {
        "Guess"
    }

    fn start(&self, table: &Table, mut out: Outcome) -> Result<Outcome, Refusal> {
        if table.players.len() != 2 {
            return Err(Refusal::new("guess-players", "Guess has two players"));
        }
        out.state.extra.set(Guessed::default());
        Ok(out)
    }

    fn move_forms(&self) -> &'static [MoveForm] {
        FORMS
    }

    fn declaration_forms(&self) -> &'static [DeclarationForm] {
        DECLARATIONS
    }

    fn declare(&self, table: &mut Table, word: &str, args: &[Arg]) -> Result<(), Refusal> {
        assert_eq!(word, "banned", "the game's only declaration");
        let cards = &mut table.game_setup.get_or_default::<Banned>().0;
        for arg in args {
            let Arg::Card(k) = *arg else {
                unreachable!("the form takes cards")
            };
            if cards.contains(&k) {
                return Err(Refusal::new(
                    "banned-twice",
                    format!("Guess: {} is banned twice", table.deck.kinds[k].name),
                ));
            }
            cards.push(k);
        }
        Ok(())
    }

    fn make_move(&self, word: &str, args: &[Arg]) -> Option<Box<dyn GameAction>> {
        let m = match (word, args) {
            ("take", &[Arg::Player(p)]) => GuessMove::Take(p),
            ("guess", &[Arg::Player(p), Arg::Card(k)]) => GuessMove::Guess(p, k),
            _ => return None,
        };
        Some(Box::new(m))
    }

    fn play(&self, pos: &Position, mv: &Move, label: &str) -> Result<Outcome, Refusal> {
        let table = pos.table;
        let Some(m) = mv.game::<GuessMove>() else {
            // Announcements and the other generic moves, by the generic rules.
            let (model, state) = generic(table, pos.model, pos.state, mv, label)?;
            return Ok(Outcome {
                model,
                state,
                notes: Vec::new(),
            });
        };
        if self.is_terminal(pos) {
            return Err(Refusal::new("game-over", "Guess: the game is over"));
        }
        let (GuessMove::Take(p) | GuessMove::Guess(p, _)) = *m;
        check_turn("Guess", table, pos.state, p)?;
        let mut notes = Vec::new();
        let (model, mut state) = match *m {
            GuessMove::Take(p) => {
                let draw = Move::Draw {
                    player: p,
                    kind: None,
                    from: table.stock(),
                };
                generic(table, pos.model, pos.state, &draw, label)?
            }
            GuessMove::Guess(p, kind) => {
                if pos.cards(table.hand(p))[kind] > 0 {
                    return Err(Refusal::new(
                        "guess-own-card",
                        format!(
                            "Guess: {} holds {} and guesses another card",
                            describe_player(table, p),
                            table.deck.kinds[kind].name
                        ),
                    ));
                }
                if banned(table).contains(&kind) {
                    return Err(Refusal::new(
                        "guess-banned",
                        format!("Guess: {} is banned", table.deck.kinds[kind].name),
                    ));
                }
                if guessed(pos.state).contains(&kind) {
                    return Err(Refusal::new(
                        "guess-again",
                        format!("Guess: {} was guessed before", table.deck.kinds[kind].name),
                    ));
                }
                let model = pos
                    .model
                    .apply(&guess_events(table, p, kind, label), None)?;
                let mut state = pos.state.clone();
                let g = state.extra.get_or_default::<Guessed>();
                g.guessed.push(kind);
                if pos.cards(table.hand(other(p)))[kind] > 0 {
                    g.winner = Some(p);
                    notes.push(format!("{} guessed right", describe_player(table, p)));
                }
                (model, state)
            }
        };
        state.turn = other(p);
        Ok(Outcome {
            model,
            state,
            notes,
        })
    }

    fn event_models(
        &self,
        table: &Table,
        _state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Vec<EventModel>, Refusal> {
        match mv.game::<GuessMove>() {
            Some(GuessMove::Guess(p, k)) => Ok(vec![guess_events(table, *p, *k, label)]),
            Some(GuessMove::Take(_)) => Err(Refusal::new(
                "guess-not-in-formula",
                "Guess: a take is played, not asked about",
            )),
            None => Ok(vec![dealer::cards::generic::generic_event_models(
                table, mv, label,
            )?]),
        }
    }

    fn referee(&self) -> Option<&dyn Referee> {
        Some(self)
    }

    fn view(&self) -> Option<&dyn GameView> {
        Some(self)
    }
}

impl Referee for Guess {
    fn deal(&self, seed: u64, _size: Size) -> Deal {
        dealt("guess", &["1", "2"], Deck::values(1..=6, 1), 1, seed)
    }

    fn is_terminal(&self, pos: &Position) -> bool {
        winner(pos.state).is_some() || stock_empty(pos)
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        if self.is_terminal(pos) {
            return Vec::new();
        }
        let p = pos.state.turn;
        let mut moves = vec![Move::Game(Box::new(GuessMove::Take(p)))];
        let mine = pos.cards(pos.table.hand(p));
        for (k, &held) in mine.iter().enumerate() {
            if held == 0 && !guessed(pos.state).contains(&k) && !banned(pos.table).contains(&k) {
                moves.push(Move::Game(Box::new(GuessMove::Guess(p, k))));
            }
        }
        moves
    }

    fn scores(&self, pos: &Position) -> Vec<i64> {
        (0..2)
            .map(|p| i64::from(winner(pos.state) == Some(p)))
            .collect()
    }
}

/// Its knowledge views: for each card, whether a hand is known to hold it
/// or known not to.
impl GameView for Guess {
    fn hand(&self, table: &Table, who: About) -> Vec<Fact> {
        let hand = table.hand(who.owner);
        let name = table.location_name(hand);
        let mut facts = cards_held(table, who);
        for k in 0..table.deck.kinds.len() {
            let card = table.deck.kinds[k].name.clone();
            let text = format!("!{name}({card})");
            let label = if who.yours() { "lack" } else { "lacks" };
            facts.push(who.fact(table, label, card, Formula::holds(hand, k).not(), &text));
        }
        facts
    }
}

static GUESS: Guess = Guess;

// ------------------------------------------------------------------ the tests

fn session() -> Session {
    let game: Game = &GUESS;
    Session::with_games(Options::default(), &[game])
}

/// Replays `src` in a session that knows the game; the outputs, or the
/// first error's code and message.
fn replay(src: &str) -> Result<(Vec<Output>, Session), (String, String)> {
    let scenario = syntax::parse(src).map_err(|e| ("syntax".to_string(), format!("{e:?}")))?;
    let mut s = session();
    let mut out = Vec::new();
    for stmt in &scenario.statements {
        let o = s
            .execute(stmt, src)
            .map_err(|d| (d.code.to_string(), d.message.clone()))?;
        out.extend(o);
    }
    s.finish(syntax::ast::Span::new(0, 0))
        .map_err(|d| (d.code.to_string(), d.message.clone()))?;
    Ok((out, s))
}

/// Replays `src`, whose last statement must be refused and leave the
/// session as it was: the error's code and message.
fn refused(src: &str) -> (String, String) {
    let scenario = syntax::parse(src).unwrap_or_else(|e| panic!("{e:?}"));
    let (last, before) = scenario.statements.split_last().unwrap();
    let mut s = session();
    for stmt in before {
        s.execute(stmt, src)
            .unwrap_or_else(|d| panic!("{}", d.message));
    }
    let snapshot = s.clone();
    let d = s.execute(last, src).expect_err("refused");
    crate::common::assert_unchanged(&snapshot, &s);
    (d.code.to_string(), d.message)
}

const DEAL: &str = "game guess\nplayers 1 2\ndeck 1..6\ndeal 1: 1 | 2: 2\nstock 3 4 5 6\n";

#[test]
fn a_scenario_in_the_generic_move_form_replays() {
    let src = format!(
        "{DEAL}\
         ? [guess 1 2] C hand2(2)\n\
         guess 1 3\n\
         expect C !hand2(3)\n\
         expect !K1 hand2(2)\n\
         take 2\n\
         expect K2 hand2(3)\n\
         expect !K1 hand2(3)\n\
         expect score 1 = 0\n\
         guess 1 2\n\
         expect K1 hand2(2)\n\
         expect C hand2(2)\n\
         expect score 1 = 1\n\
         expect score 2 = 0\n"
    );
    let (out, s) = replay(&src).unwrap_or_else(|e| panic!("{e:?}"));
    let mut expects = 0;
    for o in &out {
        match o {
            Output::Expect { source, held, .. } => {
                assert!(held, "{source} does not hold");
                expects += 1;
            }
            Output::Answer { source, value } => {
                // Guessing 2, the card player 2 holds, is the right answer,
                // and it is public: in that event's update, commonly known.
                assert!(value, "{source}");
            }
            _ => {}
        }
    }
    assert_eq!(expects, 9);
    let play = s.playing().expect("dealt");
    let pos = play.position();
    assert!(GUESS.is_terminal(&pos));
    assert_eq!(GUESS.winners(&pos), vec![0]);
    // The move text round-trips through the generic form.
    let texts: Vec<String> = GUESS
        .legal_moves(&pos)
        .iter()
        .map(|m| GUESS.move_text(&play.table, m))
        .collect();
    assert!(texts.is_empty(), "{texts:?}");
}

#[test]
fn the_rules_refuse_with_located_errors_and_the_session_keeps_its_state() {
    // Out of turn, and a player guessing a card of its own.
    let (code, msg) = refused(&format!("{DEAL}guess 2 1\n"));
    assert_eq!(code, "out-of-turn", "{msg}");
    let (code, msg) = refused(&format!("{DEAL}guess 1 1\n"));
    assert_eq!(code, "guess-own-card", "{msg}");
    // An unknown word names the game's moves and suggests the nearest.
    let (code, msg) = refused(&format!("{DEAL}gues 1 2\n"));
    assert_eq!(
        (code.as_str(), msg.as_str()),
        ("unknown-move", "unknown statement or move `gues`")
    );
    let scenario = syntax::parse(&format!("{DEAL}gues 1 2\n")).unwrap();
    let mut s = session();
    let mut err = None;
    for stmt in &scenario.statements {
        if let Err(d) = s.execute(stmt, DEAL) {
            err = Some(d);
        }
    }
    let d = err.expect("an error");
    assert_eq!(
        d.help.as_deref(),
        Some("did you mean `guess`? (the moves of Guess are take P, guess P C)")
    );
    assert_eq!(d.span.end - d.span.start, 4, "located at the word");
    // Too many arguments, and a card that is not in the deck.
    let (code, _) = refused(&format!("{DEAL}take 1 2\n"));
    assert_eq!(code, "move-arguments");
    let (code, _) = refused(&format!("{DEAL}guess 1 9\n"));
    assert_eq!(code, "unknown-card");
    // A card is guessed once.
    let (code, _) = refused(&format!("{DEAL}guess 1 3\ntake 2\nguess 1 3\n"));
    assert_eq!(code, "guess-again");
    // Another game does not know the words; a game without the hook does
    // not know the game.
    let (code, msg) =
        refused("game gofish\nplayers 1 2\ndeck Q*2 A*2\ndeal 1: Q A | 2: Q A\nguess 1 Q\n");
    assert_eq!(code, "unknown-move", "{msg}");
    let scenario = syntax::parse(DEAL).unwrap();
    let d = Session::new(Options::default())
        .execute(&scenario.statements[0], DEAL)
        .unwrap_err();
    assert_eq!(d.code, "unknown-game");
}

/// Plays seeded games with the random agent in both seats to their end.
#[test]
fn the_random_agent_plays_seeded_games_to_their_end() {
    let mut winners = [0usize; 3];
    for seed in 0..12u64 {
        let setup = GUESS.setup(seed, Size::Teaching);
        let scenario = syntax::parse(&setup).unwrap();
        let mut s = session();
        for stmt in &scenario.statements {
            s.execute(stmt, &setup).unwrap();
        }
        s.finish(syntax::ast::Span::new(0, 0)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut last_guess = None;
        let mut moves = 0;
        loop {
            let play = s.playing().expect("dealt");
            let pos = play.position();
            if GUESS.is_terminal(&pos) {
                break;
            }
            let me = GUESS.current_player(&pos).expect("a player to move");
            let legal: Vec<Legal> = GUESS
                .legal_moves(&pos)
                .into_iter()
                .map(|mv| Legal {
                    text: GUESS.move_text(&play.table, &mv),
                    mv,
                })
                .collect();
            let i = {
                let view = View::new(&s, me, &legal, &[]);
                RandomAgent.choose(&view, &mut rng).unwrap()
            };
            let text = legal[i].text.clone();
            if let Some(GuessMove::Guess(p, k)) = legal[i].mv.game::<GuessMove>() {
                last_guess = Some((*p, *k));
            }
            // The move is played as a statement of the session.
            let stmt = syntax::parse_statement(&text).unwrap();
            s.execute(&stmt[0], &text)
                .unwrap_or_else(|d| panic!("{text}: {}", d.message));
            moves += 1;
            assert!(
                moves <= 10,
                "a game of Guess has at most 4 takes and 6 guesses"
            );
        }
        let play = s.playing().unwrap();
        let pos = play.position();
        let scores = GUESS.scores(&pos);
        match GUESS.winners(&pos).as_slice() {
            // One winner: the last move was that player's guess, and the
            // other player holds the guessed card in the actual world.
            [w] if scores[*w] == 1 => {
                let (p, k) = last_guess.expect("a guess");
                assert_eq!(p, *w);
                assert!(pos.cards(play.table.hand(other(p)))[k] > 0);
                assert_eq!(scores[other(*w)], 0);
                // Everyone knows it: the guess was public.
                let f = format!(
                    "expect C hand{}({})",
                    other(p) + 1,
                    play.table.deck.kinds[k].name
                );
                let stmt = syntax::parse_statement(&f).unwrap();
                let out = s.clone().execute(&stmt[0], &f).unwrap();
                assert!(matches!(&out[0], Output::Expect { held: true, .. }), "{f}");
                winners[*w] += 1;
            }
            // No winner: the stock ran out, nobody guessed right.
            _ => {
                assert_eq!(scores, vec![0, 0]);
                assert_eq!(pos.count(play.table.stock()), 0);
                winners[2] += 1;
            }
        }
    }
    // Twelve seeds give both endings.
    assert!(winners[0] + winners[1] > 0 && winners[2] > 0, "{winners:?}");
}

/// The game's deal is ordinary scenario text, and the text of a move is the
/// generic form the parser reads back.
#[test]
fn the_deal_and_the_moves_are_scenario_text() {
    let setup = GUESS.setup(7, Size::Full);
    assert!(
        setup.contains("game guess\nplayers 1 2\ndeck 1..6\n"),
        "{setup}"
    );
    let (_, s) = replay(&setup).unwrap();
    let play = s.playing().unwrap();
    let pos = play.position();
    let moves = GUESS.legal_moves(&pos);
    assert_eq!(moves.len(), 6, "a take and five guesses");
    for mv in &moves {
        let text = GUESS.move_text(&play.table, mv);
        let stmt = syntax::parse_statement(&text).unwrap();
        let syntax::ast::StatementKind::Move(m) = &stmt[0].kind else {
            panic!("{text}")
        };
        assert!(
            matches!(m.kind, syntax::ast::MoveKind::Game { .. }),
            "{text}"
        );
    }
}

/// A game declares its own setup word in its one file: `banned 3 4`
/// (read in the generic form) keeps those cards out of the legal moves
/// and the rules, with the answers of the model unchanged; misplaced or
/// misspelt, it is a located error that leaves the session as it was.
#[test]
fn the_game_has_a_declaration_of_its_own() {
    let with = DEAL.replace("game guess\n", "game guess\nbanned 3 4\n");
    let (_, s) = replay(&with).unwrap_or_else(|e| panic!("{e:?}"));
    let (_, plain) = replay(DEAL).unwrap();
    let moves = |s: &Session| -> Vec<String> {
        let play = s.playing().unwrap();
        GUESS
            .legal_moves(&play.position())
            .iter()
            .map(|m| GUESS.move_text(&play.table, m))
            .collect()
    };
    assert_eq!(moves(&s), ["take 1", "guess 1 2", "guess 1 5", "guess 1 6"]);
    assert_eq!(
        moves(&plain),
        [
            "take 1",
            "guess 1 2",
            "guess 1 3",
            "guess 1 4",
            "guess 1 5",
            "guess 1 6"
        ]
    );
    // The declaration changes the rules, not the model.
    let play = s.playing().unwrap();
    let (a, b) = (&play.model, &plain.playing().unwrap().model);
    assert_eq!(a.world_count(), b.world_count());
    // The banned card is refused where it is written, the others are played.
    let (code, msg) = refused(&format!("{with}guess 1 3\n"));
    assert_eq!(
        (code.as_str(), msg.as_str()),
        ("guess-banned", "guess 1 3: Guess: 3 is banned")
    );
    let (out, _) = replay(&format!("{with}guess 1 5\nexpect C !hand2(5)\n")).unwrap();
    assert!(
        matches!(
            &out[..],
            [Output::Moved { .. }, Output::Expect { held: true, .. }]
        ),
        "{out:?}"
    );
    // After the first move the table is set.
    let (code, _) = refused(&format!("{with}take 1\nbanned 5\n"));
    assert_eq!(code, "setup-after-start");
    // A misspelt declaration is suggested like a move.
    let src = "game guess\nbanne 3\n";
    let scenario = syntax::parse(src).unwrap();
    let mut s = session();
    s.execute(&scenario.statements[0], src).unwrap();
    let d = s.execute(&scenario.statements[1], src).unwrap_err();
    assert_eq!(d.code, "unknown-move");
    assert!(
        d.help
            .as_deref()
            .unwrap()
            .starts_with("did you mean `banned`?"),
        "{d:?}"
    );
    // Its form: at least one card.
    let (code, msg) = refused("game guess\nbanned\n");
    assert_eq!(code, "declaration-arguments", "{msg}");
    assert_eq!(
        msg,
        "too few arguments: Guess's declaration is `banned C...`"
    );
    // A card not in the deck, and a card banned twice (the game's own
    // check), are errors at the declaration when the table is built.
    let bad = DEAL.replace("game guess\n", "game guess\nbanned 3 9\n");
    let Err((code, _)) = replay(&bad) else {
        panic!("a card not in the deck")
    };
    assert_eq!(code, "unknown-card");
    let twice = DEAL.replace("game guess\n", "game guess\nbanned 3\nbanned 3\n");
    let Err((code, msg)) = replay(&twice) else {
        panic!("a card banned twice")
    };
    assert_eq!(
        (code.as_str(), msg.as_str()),
        ("banned-twice", "Guess: 3 is banned twice")
    );
    // Another game's declaration is not this game's, and this game's word
    // is no word of another game.
    let (code, msg) = refused("game guess\nplayers 1 2\npsychic 2\n");
    assert_eq!(code, "not-a-declaration-of-the-game");
    assert_eq!(
        msg,
        "`psychic` is a declaration of the Cabo-like game, not of Guess"
    );
    let (code, msg) = refused("game gofish\nplayers 1 2\nbanned 3\n");
    assert_eq!(
        (code.as_str(), msg.as_str()),
        ("unknown-move", "unknown statement or move `banned`")
    );
}

/// A strategy for the game: its `for guess` is resolved among the games
/// the caller gives (the registry does not have it), its moves are
/// checked against the game's own forms, and, seated with the game as a
/// value, it matches the game's own moves by their typed arguments.
#[test]
fn a_strategy_for_the_game_is_loaded_and_chooses_by_its_rules() {
    use dealer::strategy::{choose, parse, resolve, vetted};
    let src = "strategy sure for guess\nrule known: guess me c when any(y in others: K_me hand_y(c))\nrule draw: take me\n";
    let strategy = parse(src).unwrap();
    let game: Game = &GUESS;
    assert!(vetted("sure.strat", src)
        .unwrap_err()
        .to_string()
        .contains("no game `guess`"));
    assert_eq!(resolve(&strategy, &[game], src).unwrap().name(), "guess");
    let wrong = parse("strategy s for guess\nrule r: guess me\n").unwrap();
    let err = resolve(&wrong, &[game], "").unwrap_err();
    assert_eq!(err.code, "strategy-move");
    assert!(
        err.help.as_deref().unwrap_or("").contains("guess P C"),
        "{err:?}"
    );

    let setup = GUESS.setup(1, Size::Teaching);
    let scenario = syntax::parse(&setup).unwrap();
    let mut s = session();
    for stmt in &scenario.statements {
        s.execute(stmt, &setup).unwrap();
    }
    s.finish(syntax::ast::Span::new(0, 0)).unwrap();
    let play = s.playing().unwrap();
    let pos = play.position();
    let me = GUESS.current_player(&pos).unwrap();
    let table = play.table.clone();
    let legal: Vec<Legal> = GUESS
        .legal_moves(&pos)
        .into_iter()
        .map(|mv| Legal {
            text: GUESS.move_text(&table, &mv),
            mv,
        })
        .collect();
    let guesses = legal.len() - 1;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let d = choose(
        &strategy,
        game,
        &mut s.clone(),
        &table,
        me,
        &legal,
        &mut rng,
    )
    .unwrap();
    // At the deal nobody knows the other's card: every guess's guard
    // fails, each bound to the card it guesses, and the take is played.
    let known = &d.trace[0];
    assert_eq!(known.tried.len(), guesses);
    for t in &known.tried {
        assert!(!t.held);
        let Some(GuessMove::Guess(p, k)) = legal[t.index].mv.game::<GuessMove>() else {
            panic!("not a guess: {}", t.text);
        };
        assert_eq!(*p, me);
        assert_eq!(
            t.bindings,
            [("c".to_string(), table.deck.kinds[*k].name.clone())]
        );
    }
    assert_eq!(d.rule.as_deref(), Some("draw"));
    assert!(matches!(
        legal[d.index].mv.game::<GuessMove>(),
        Some(GuessMove::Take(p)) if *p == me
    ));
}

/// A `Match` plays the game of this file, a game value outside dealer's
/// list, with the random agent in both seats: every seeded game ends by
/// the rules within its ten moves, its written scenario replays with every
/// `expect` holding, and the game's own knowledge view lists exactly the
/// facts that hold (each checked again as parsed text); a winner's view
/// shows the card it guessed in the other's hand. dealer's lookup by name
/// does not know the game.
#[test]
fn a_match_plays_the_game_of_this_file_and_shows_its_view() {
    let game: Game = &GUESS;
    assert!(Match::new("guess", 1, Size::Teaching, Options::default()).is_err());
    let mut ended = [0usize; 2];
    for seed in 0..6u64 {
        let mut m = Match::of(game, seed, Size::Teaching, Options::default()).unwrap();
        m.seat_agents(vec![Box::new(RandomAgent), Box::new(RandomAgent)], None)
            .unwrap();
        m.play_agents().unwrap();
        assert!(m.is_over(), "seed {seed}");
        assert!(m.stopped().is_none(), "seed {seed}: the rules end it");
        let outcome = m.outcome();
        assert!(outcome.turns <= 10, "seed {seed}: {} moves", outcome.turns);

        // The written game replays in a session that knows the game.
        let (outputs, _) = replay(&m.scenario()).unwrap_or_else(|e| panic!("{e:?}"));
        let expects: Vec<bool> = outputs
            .iter()
            .filter_map(|o| match o {
                Output::Expect { held, .. } => Some(*held),
                _ => None,
            })
            .collect();
        assert!(
            expects.len() > 2 && expects.iter().all(|&h| h),
            "seed {seed}"
        );

        // The view: every candidate fact, decided by the engine on its
        // formula, agrees with its text asked as a query.
        for me in 0..2 {
            let all = views::first_order(game, &m.position(), me);
            assert_eq!(all.len(), 12, "six cards, held or not");
            let kept = views::holding(&m, all.clone()).unwrap();
            let texts: Vec<String> = all.iter().map(|f| f.text.clone()).collect();
            let truth = m.ask_all(&texts).unwrap();
            for (f, t) in all.iter().zip(truth) {
                assert_eq!(kept.iter().any(|k| k.text == f.text), t, "{}", f.text);
            }
            let lines = views::render(&kept, true).join("\n");
            if let [w] = m.outcome().winners.as_slice() {
                if *w == me && outcome.scores[me] == 1 {
                    let last = &m.history().last().unwrap().text;
                    let card = last.rsplit(' ').next().unwrap();
                    assert!(
                        kept.iter().any(|f| f.label == "holds" && f.item == card),
                        "seed {seed}: {last}\n{lines}"
                    );
                }
            }
            let known = views::second_order(game, &m.position(), me);
            assert_eq!(known.len(), 12);
        }
        ended[usize::from(outcome.winners.len() == 1)] += 1;
    }
    assert!(ended[1] > 0, "some game has a winner: {ended:?}");
}

/// An agent that looks at cards unnoticed (the shipped psychic strategy)
/// needs a game with a declaration for such players: seated at this game,
/// which has none, it is refused with the reason, and the match is as it
/// was (no seat taken, the same deal).
#[test]
fn a_glimpsing_agent_is_refused_by_a_game_without_such_players() {
    use dealer::strategy::agent::StrategyAgent;
    let game: Game = &GUESS;
    let mut m = Match::of(game, 3, Size::Teaching, Options::default()).unwrap();
    let psychic = dealer::strategy::find(None, "cabo", "psychic").unwrap();
    let glimpsing = StrategyAgent::new(psychic);
    assert!(dealer::play::Agent::psychic(&glimpsing));
    let before = m.session().clone();
    let err = m
        .seat_agents(vec![Box::new(RandomAgent), Box::new(glimpsing)], None)
        .unwrap_err();
    assert_eq!(
        err.message(),
        "the agent of player 2 looks at cards unnoticed, and Guess has no such players"
    );
    assert_eq!(err.code(), "no-readers");
    assert!(m.seats().is_empty());
    crate::common::assert_unchanged(&before, m.session());
}
