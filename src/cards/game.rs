//! One type per game behind one trait, and the registry of the games.
//!
//! A game is a value implementing [`GameRules`], the rules a replay needs:
//! the locations it adds to the table, its own declarations, what happens
//! right after the deal, its own moves (their words, how they are read
//! and printed, checked against the rules and turned into event models),
//! its own state and its atoms. Its optional parts are reached through
//! accessors with defaults: [`Referee`] for a game that can be played (a
//! seeded deal, whose turn, the legal moves, the end and the score,
//! [`GameRules::referee`]) and [`GameView`] for its knowledge views
//! ([`GameRules::view`]). [`GAMES`] is the only place that lists
//! every game: adding a game means one new file with a type implementing
//! [`GameRules`] and one line in [`GAMES`] (docs/hacking.md shows a worked
//! example; tests/it/toy_game.rs is a game written outside this list).

use std::fmt;

use crate::diag::Diagnostic;
use crate::engine::{Agent, EventModel, Formula, Kind};
use crate::syntax::ast::{Name, Span};

use super::deal::Deal;
use super::deck::{CardKind, Deck};
use super::generic::{self, generic, generic_event_models};
use super::referee::{best, move_text, Position, Size, MOVE_LIMIT};
use super::rules::{
    Arg, ArgKind, DeclarationForm, GameAction, GameState, Move, MoveForm, Outcome, Refusal,
};
use super::table::Table;
use super::view::GameView;
use super::{cabo, gofish, kemps, konigrufen, kwartet};

/// A game's rules and its referee: what it adds to the table, its own
/// moves, how it checks and plays each move, the event models of a move
/// inside `[move]φ`, its atoms; and for play, a seeded deal, whose turn it
/// is, the legal moves, the end and the score (in the manner of
/// OpenSpiel's game interface).
///
/// Every method but [`name`](GameRules::name) and
/// [`title`](GameRules::title) has a default: the generic moves of
/// LANGUAGE.md §3 with no further rule, which is `game free`, and no
/// referee.
pub trait GameRules: Sync + fmt::Debug {
    /// The name `game NAME` takes (`gofish`).
    fn name(&self) -> &'static str;

    /// The name in messages (`Go Fish`).
    fn title(&self) -> &'static str;

    /// Whether the game has turns (`stats` shows whose turn it is).
    fn has_turns(&self) -> bool {
        true
    }

    /// Adds the game's own locations to a table whose players, deck, piles
    /// and slots are declared (books piles, Kemps' table, played piles).
    fn add_locations(&self, table: &mut Table) {
        let _ = table;
    }

    /// What the rules do right after the deal (lay down complete books...).
    fn start(&self, table: &Table, out: Outcome) -> Result<Outcome, Refusal> {
        let _ = table;
        Ok(out)
    }

    /// The moves this game defines, beyond the language's (`pick P C`).
    fn move_forms(&self) -> &'static [MoveForm] {
        &[]
    }

    /// The statements this game adds to the setting of the table
    /// (`psychic P...`): declarations before the deal's first move, which
    /// the game reads with [`declare`](GameRules::declare).
    fn declaration_forms(&self) -> &'static [DeclarationForm] {
        &[]
    }

    /// Records the game's declaration `word args...` (read by its
    /// [`DeclarationForm`]) in `table`, whose players, deck, piles and
    /// slots are set: in [`Table::game_setup`], as the game's own type.
    fn declare(&self, table: &mut Table, word: &str, args: &[Arg]) -> Result<(), Refusal> {
        let _ = (table, args);
        Err(Refusal::new(
            "unknown-declaration",
            format!("{} has no declaration `{word}`", self.title()),
        ))
    }

    /// Whether a strategy playing `player` may read beyond what the player
    /// knows (the Cabo-like game's psychic, who looks at cards unnoticed):
    /// its guards are then not checked against the player's knowledge.
    fn reads_beyond_knowledge(&self, table: &Table, player: Agent) -> bool {
        let _ = (table, player);
        false
    }

    /// The game's declaration that lets a seated player read beyond what
    /// it knows (the Cabo-like game's `psychic`): a play agent that needs
    /// it has its player declared so when it is seated; `None` when the
    /// game has none.
    fn reader_declaration(&self) -> Option<&'static str> {
        None
    }

    /// The game's move with `word` and `args` (read by its
    /// [`MoveForm`]), as the game's own type; `None` for a word it does
    /// not define.
    fn make_move(&self, word: &str, args: &[Arg]) -> Option<Box<dyn GameAction>> {
        let _ = (word, args);
        None
    }

    /// Plays a move in the actual world of `pos`. On refusal nothing changes.
    fn play(&self, pos: &Position, mv: &Move, label: &str) -> Result<Outcome, Refusal> {
        let (model, state) = generic(pos.table, pos.model, pos.state, mv, label)?;
        Ok(Outcome {
            model,
            state,
            notes: Vec::new(),
        })
    }

    /// The event models a move stands for in `[move]φ` (every outcome), in
    /// the current game state (Königrufen's plays depend on the led suit).
    ///
    /// Unlike the methods that take a [`Position`], this one sees no model:
    /// `[move]φ` is evaluated in every world, so its events must not depend
    /// on the actual deal; and a formula is resolved before a deal's model
    /// exists (the announce-first start, scenarios with variables).
    fn event_models(
        &self,
        table: &Table,
        state: &GameState,
        mv: &Move,
        label: &str,
    ) -> Result<Vec<EventModel>, Refusal> {
        let _ = state;
        generic_event_models(table, mv, label).map(|em| vec![em])
    }

    /// The game's own atoms `name(arg)` (Königrufen's `partner(P)`); `None`
    /// when `name` is not one, so that it is read as a location. Like
    /// [`event_models`](GameRules::event_models) it sees no model: an
    /// atom's formula is true or false in each world by itself.
    fn atom(
        &self,
        table: &Table,
        state: &GameState,
        name: &Name,
        arg: &Name,
    ) -> Result<Option<Formula>, Diagnostic> {
        let _ = (table, state, name, arg);
        Ok(None)
    }

    /// The cards `ask p q CARD` asks for (Go Fish asks for a whole rank).
    fn asked_kinds(&self, deck: &Deck, card: &Name) -> Result<Vec<Kind>, Diagnostic> {
        deck.pattern(card)
    }

    /// The game's own words for completion in the REPL (atoms and moves).
    fn words(&self) -> &'static [&'static str] {
        &[]
    }

    /// The game's referee, for play ([`Referee`]), or `None` for a game
    /// that is only replayed.
    fn referee(&self) -> Option<&dyn Referee> {
        None
    }

    /// The game's knowledge views (what play's `know` and `known` list:
    /// formulas the engine decides), or `None` for the facts about each
    /// card of each hand ([`CARDS`](super::view::CARDS)).
    fn view(&self) -> Option<&dyn GameView> {
        None
    }
}

/// The optional part of a game that can be played: its referee
/// ([`GameRules::referee`]). It deals a seeded game, says whose turn it
/// is, the legal moves, the end and the score, reading only the actual
/// world and the game state (in the manner of OpenSpiel's game
/// interface). Every method but [`deal`](Referee::deal),
/// [`is_terminal`](Referee::is_terminal) and
/// [`legal_moves`](Referee::legal_moves) has a default.
pub trait Referee: GameRules {
    /// A whole game's start (players, deck, the cards at each place, the
    /// stock's order and opening moves): the deck of `size`, shuffled by a
    /// ChaCha8 generator seeded with `seed`, so that the same seed gives the
    /// same deal on every machine.
    fn deal(&self, seed: u64, size: Size) -> Deal;

    /// A deal of a deck the user gives (`--deck`, `--hand`), shuffled by
    /// `seed`: by default `hand` cards to each player of the game's own
    /// deal and the rest as the stock ([`super::referee::dealt`]). A game
    /// that also deals to other places (Kemps's table) deals them as its
    /// rules say; the reason when the deck or the hand cannot make the
    /// game's start.
    fn deal_custom(&self, seed: u64, deck: Deck, hand: usize) -> Result<Deal, Diagnostic> {
        let players = self.deal(0, Size::Full).players;
        let names: Vec<&str> = players.iter().map(String::as_str).collect();
        super::referee::check_hand(&deck, hand, names.len())?;
        Ok(super::referee::dealt(self.name(), &names, deck, hand, seed))
    }

    /// [`deal`](Referee::deal) as scenario text ([`Deal::to_text`]).
    fn setup(&self, seed: u64, size: Size) -> String {
        self.deal(seed, size).to_text()
    }

    /// Whether the game is over by its own rules.
    fn is_terminal(&self, pos: &Position) -> bool;

    /// The game's limit, for a game its rules do not end: why a game at
    /// `pos` after `moves` moves ends here as it stands (its scores so
    /// far), or `None` to go on. By default [`MOVE_LIMIT`] moves; Kemps
    /// ends after the report's 10,000 turns. Loops ask
    /// [`stopped`](super::stopped), not this method.
    fn limit(&self, pos: &Position, moves: usize) -> Option<String> {
        let _ = pos;
        (moves >= MOVE_LIMIT).then(|| format!("{MOVE_LIMIT} moves, the most dealer plays a game"))
    }

    /// The player who moves next; `None` when the game is over.
    fn current_player(&self, pos: &Position) -> Option<Agent> {
        (!self.is_terminal(pos)).then_some(pos.state.turn)
    }

    /// Every move the rules accept in the actual state, in a fixed order;
    /// empty when the game is over.
    fn legal_moves(&self, pos: &Position) -> Vec<Move>;

    /// Each player's score; at the end, the final score.
    fn scores(&self, pos: &Position) -> Vec<i64> {
        vec![0; pos.table.players.len()]
    }

    /// The winners at the end: by default those with the highest score.
    fn winners(&self, pos: &Position) -> Vec<Agent> {
        best(&self.scores(pos), true)
    }

    /// A move in scenario syntax (`ask 1 2 Q`, `play Bruno T21`).
    fn move_text(&self, table: &Table, mv: &Move) -> String {
        move_text(table, mv)
    }

    /// A card's worth in this game (a strategy's `points(c)`): 0 unless
    /// the game counts card points.
    fn card_points(&self, _card: &CardKind) -> i64 {
        0
    }

    /// How strongly a card takes a trick in this game (a strategy's
    /// `strength(c)`; a trump above every suit): 0 unless the game plays
    /// tricks.
    fn card_strength(&self, _card: &CardKind) -> i64 {
        0
    }
}

/// Reads a game's move `word args...` as written, by the game's
/// [`MoveForm`]s: each argument is resolved as a player, a card or a slot of
/// `table`. An unknown word is an error naming the game's moves (and the
/// game that has the word, when another one does); `span` is the whole move.
pub fn read_move(
    game: Game,
    table: &Table,
    word: &Name,
    args: &[Name],
    span: Span,
) -> Result<Move, Diagnostic> {
    let forms = game.move_forms();
    let Some(form) = forms.iter().find(|f| f.word == word.text) else {
        return Err(unknown_move(game, word, args));
    };
    check_arity(game, form, args, span)?;
    let mut values = Vec::with_capacity(args.len());
    for (kind, name) in form.args.iter().zip(args) {
        values.push(match kind {
            ArgKind::Player => Arg::Player(table.player(name)?),
            ArgKind::Card => Arg::Card(table.deck.card(name)?),
            ArgKind::Slot => Arg::Slot(table.slot(name)?),
        });
    }
    let action = game.make_move(form.word, &values).ok_or_else(|| {
        Diagnostic::error(
            "unknown-move",
            format!("{} cannot make the move `{}`", game.title(), form.usage()),
            span,
        )
    })?;
    Ok(Move::Game(action))
}

/// An error unless `game` defines the move `word` with as many arguments
/// as written (checked before the deal, when no name can be resolved yet).
pub fn known_move(game: Game, word: &Name, args: &[Name]) -> Result<(), Diagnostic> {
    match game.move_forms().iter().find(|f| f.word == word.text) {
        Some(form) => {
            let span = args.last().map_or(word.span, |a| word.span.to(a.span));
            check_arity(game, form, args, span)
        }
        None => Err(unknown_move(game, word, args)),
    }
}

/// Whether `word` is one of `game`'s declarations (`psychic` of the
/// Cabo-like game).
pub fn declares(game: Game, word: &str) -> bool {
    game.declaration_forms().iter().any(|f| f.word == word)
}

/// An error unless `game` has the declaration `word` with as many
/// arguments as written (checked when it is declared, before any name
/// can be resolved): a word of another game is an error naming both.
pub fn known_declaration(game: Game, word: &Name, args: &[Name]) -> Result<(), Diagnostic> {
    let Some(form) = game
        .declaration_forms()
        .iter()
        .find(|f| f.word == word.text)
    else {
        return Err(unknown_declaration(game, word));
    };
    if form.takes(args.len()) {
        return Ok(());
    }
    let span = args.last().map_or(word.span, |a| word.span.to(a.span));
    let (what, at) = match args.get(form.args.len()) {
        Some(extra) if !form.repeated => ("too many arguments", extra.span.to(span)),
        _ => ("too few arguments", span),
    };
    Err(Diagnostic::error(
        "declaration-arguments",
        format!(
            "{what}: {}'s declaration is `{}`",
            game.title(),
            form.usage()
        ),
        at,
    )
    .with_help("P is a player, C a card and S a slot, such as 1.2; `...` repeats the last"))
}

/// Reads `game`'s declaration `word args...` against `table` (each
/// argument a player, a card or a slot) and hands it to the game, which
/// records it in the table. Errors are located at the name or the
/// declaration.
pub fn read_declaration(
    game: Game,
    table: &mut Table,
    word: &Name,
    args: &[Name],
) -> Result<(), Diagnostic> {
    known_declaration(game, word, args)?;
    let form = game
        .declaration_forms()
        .iter()
        .find(|f| f.word == word.text)
        .expect("known just above");
    let mut values = Vec::with_capacity(args.len());
    for (i, name) in args.iter().enumerate() {
        values.push(match form.arg(i).expect("as many as the form takes") {
            ArgKind::Player => Arg::Player(table.player(name)?),
            ArgKind::Card => Arg::Card(table.deck.card(name)?),
            ArgKind::Slot => Arg::Slot(table.slot(name)?),
        });
    }
    let span = args.last().map_or(word.span, |a| word.span.to(a.span));
    game.declare(table, form.word, &values).map_err(|r| {
        let d = Diagnostic::error(r.code, r.message, span);
        match r.help {
            Some(h) => d.with_help(h),
            None => d,
        }
    })
}

/// "`psychic` is a declaration of the Cabo-like game, not of Go Fish".
fn unknown_declaration(game: Game, word: &Name) -> Diagnostic {
    let forms: Vec<String> = game
        .declaration_forms()
        .iter()
        .map(DeclarationForm::usage)
        .collect();
    let own = if forms.is_empty() {
        format!("{} has no declarations of its own", game.title())
    } else {
        format!(
            "the declarations of {} are {}",
            game.title(),
            forms.join(", ")
        )
    };
    let others: Vec<Game> = GAMES
        .iter()
        .copied()
        .filter(|g| declares(*g, &word.text))
        .collect();
    if others.is_empty() {
        return Diagnostic::error(
            "unknown-declaration",
            format!("`{}` is no declaration of {}", word.text, game.title()),
            word.span,
        )
        .with_help(own);
    }
    let titles: Vec<&str> = others.iter().map(|g| g.title()).collect();
    let names: Vec<String> = others
        .iter()
        .map(|g| format!("`game {}`", g.name()))
        .collect();
    Diagnostic::error(
        "not-a-declaration-of-the-game",
        format!(
            "`{}` is a declaration of {}, not of {}",
            word.text,
            titles.join(" and "),
            game.title()
        ),
        word.span,
    )
    .with_label(format!("not a declaration of {}", game.title()))
    .with_help(format!(
        "{own}; declare the game that has it ({}) before it",
        names.join(" or ")
    ))
}

/// Every game's declaration words, in registry order (for completion).
pub fn declaration_words() -> impl Iterator<Item = &'static str> {
    GAMES
        .iter()
        .flat_map(|g| g.declaration_forms().iter().map(|f| f.word))
}

/// An error unless `args` are as many as `form` takes.
fn check_arity(game: Game, form: &MoveForm, args: &[Name], span: Span) -> Result<(), Diagnostic> {
    if args.len() == form.args.len() {
        return Ok(());
    }
    let at = args.get(form.args.len()).map_or(span, |a| a.span.to(span));
    let what = if args.len() > form.args.len() {
        "too many arguments"
    } else {
        "too few arguments"
    };
    Err(Diagnostic::error(
        "move-arguments",
        format!("{what}: {}'s move is `{}`", game.title(), form.usage()),
        at,
    )
    .with_help("P is a player, C a card and S a slot, such as 1.2"))
}

/// "`pick` is no move of Go Fish", naming the game's moves, the game that
/// has the word, or the statement meant.
fn unknown_move(game: Game, word: &Name, args: &[Name]) -> Diagnostic {
    // Another game's declaration (`psychic` under Go Fish) says so.
    if GAMES.iter().any(|g| declares(*g, &word.text)) {
        return unknown_declaration(game, word);
    }
    let forms: Vec<String> = game.move_forms().iter().map(MoveForm::usage).collect();
    let own = if forms.is_empty() {
        format!("{} has no moves of its own", game.title())
    } else {
        format!("the moves of {} are {}", game.title(), forms.join(", "))
    };
    let other: Vec<&str> = GAMES
        .iter()
        .filter(|g| g.move_forms().iter().any(|f| f.word == word.text))
        .map(|g| g.title())
        .collect();
    if !other.is_empty() {
        return Diagnostic::error(
            "not-a-move-of-the-game",
            format!(
                "`{}` is a move of {}, not of {}",
                word.text,
                other.join(" and "),
                game.title()
            ),
            word.span,
        )
        .with_help(format!(
            "{own}; declare the game that has this move with `game NAME` before the deal"
        ));
    }
    let mut words: Vec<&str> = game.move_forms().iter().map(|f| f.word).collect();
    words.extend(game.declaration_forms().iter().map(|f| f.word));
    words.extend(crate::syntax::LANGUAGE_WORDS);
    let written: Vec<&str> = std::iter::once(word.text.as_str())
        .chain(args.iter().map(|a| a.text.as_str()))
        .collect();
    let written = written.join(" ");
    let help = match crate::diag::suggest(&word.text, &words) {
        Some(s) => format!("did you mean `{s}`? ({own})"),
        None if crate::syntax::parse_formula(&written).is_ok() => {
            format!("a formula is not a statement: write `? {written}` to evaluate it")
        }
        None => format!(
            "{own}; a statement starts with a word such as `players`, `deal`, `?` or `expect`"
        ),
    };
    Diagnostic::error(
        "unknown-move",
        format!("unknown statement or move `{}`", word.text),
        word.span,
    )
    .with_label(format!("not a statement nor a move of {}", game.title()))
    .with_help(help)
}

/// A game: its rules, shared by every session that plays it.
pub type Game = &'static dyn GameRules;

/// Every game, `free` first. The only list of the games: `game NAME`, its
/// error's list of names and the REPL's completion all read it.
pub const GAMES: &[Game] = &[
    &generic::Free,
    &gofish::GoFish,
    &kwartet::Kwartet,
    &kemps::KEMPS,
    &konigrufen::Konigrufen,
    &cabo::Cabo,
];

/// The game a name stands for.
pub fn game_named(name: &str) -> Option<Game> {
    GAMES.iter().copied().find(|g| g.name() == name)
}

/// The names `game` accepts, in registry order.
pub fn game_names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

/// The game of a scenario that declares none: the generic moves only.
pub fn free() -> Game {
    GAMES[0]
}
