//! The abstract syntax of `.deal` scenarios.
//!
//! The AST records what was written, with spans, and resolves nothing: player,
//! card and pile names stay text until the interpreter's checking pass. It
//! knows nothing of Kripke models.

use std::fmt;

pub use compact_str::CompactString;

use num_bigint::BigUint;

pub use crate::diag::Span;

/// A piece of text with its place in the source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name {
    /// The text as written (names of up to 24 bytes, nearly all of them,
    /// are kept inline, so reading one allocates nothing).
    pub text: CompactString,
    /// Where it was written.
    pub span: Span,
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A whole scenario: its statements in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The statements.
    pub statements: Vec<Statement>,
}

/// One statement with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// What the statement says.
    pub kind: StatementKind,
    /// The whole statement.
    pub span: Span,
}

/// The statements of the language (LANGUAGE.md §1, §3, §4, §5).
#[derive(Clone, Debug, PartialEq)]
pub enum StatementKind {
    /// `game gofish`
    Game(Name),
    /// `players 1 2 3` or `players Bruno Jakob`
    Players(Vec<Name>),
    /// `deck ...`
    Deck(DeckSpec),
    /// `pile table public`
    Pile {
        /// The pile's name.
        name: Name,
        /// Who sees its contents.
        visibility: Visibility,
        /// `holds P N`: the only cards (or patterns) the pile can hold in
        /// the deal's worlds; `None`: any card.
        holds: Option<Vec<Name>>,
    },
    /// `order pay1 coin1 pay2`: the symbolic engine's variable order, by
    /// location (the locations listed go first, in this order).
    Order(Vec<Name>),
    /// `uncounted`: the players do not count cards; in the worlds they
    /// consider, a hidden card can be of any kind however many of that
    /// kind lie elsewhere (the actual deal keeps the real deck).
    Uncounted,
    /// `deal 1: Q | 2: Q | table: 6H`
    Deal(Vec<DealPart>),
    /// `stock A A Q`: the actual order of the stock, top first.
    Stock(Vec<Name>),
    /// `seed 42`: the seed for shuffling the stock when its order is not given.
    Seed(u64, Span),
    /// `turn 2`: who plays first (default: the first player).
    Turn(Name),
    /// `prop p q`: declare propositions (false in every world until an event sets them).
    Prop(Vec<Name>),
    /// `let Name = φ`
    Let(Name, Formula),
    /// `let knows(a) = K_a p`: a formula with parameters, expanded with
    /// its arguments wherever it is used (`knows(Anne)`).
    Macro {
        /// The name.
        name: Name,
        /// The parameters, in order.
        params: Vec<Name>,
        /// The formula, as written.
        body: Formula,
    },
    /// `worlds where φ`, `worlds all where φ`: the worlds where φ holds.
    WorldsWhere {
        /// `all`: every world of the whole model, not only those reachable
        /// from the actual world.
        whole: bool,
        /// The formula.
        filter: Formula,
    },
    /// `var x, y in 2..99`: variables with a finite range of values.
    Var {
        /// The variables.
        names: Vec<Name>,
        /// The smallest value.
        lo: u64,
        /// The largest value.
        hi: u64,
    },
    /// `law x < y`: only the assignments where the formula holds are worlds.
    Law(Formula),
    /// `actual x = 4, y = 13`: the variables' actual values.
    Values(Vec<(Name, u64)>),
    /// `S observes x + y`: the player sees the terms' values.
    Observes(Name, Vec<Term>),
    /// A move (LANGUAGE.md §3).
    Move(Move),
    /// `? φ`: evaluate in the actual world.
    Query(Formula),
    /// `?? φ`: valid in the current model?
    Valid(Formula),
    /// `expect ...`
    Expect(Expectation),
    /// `question ["text"] ...`: an exercise; run as a query, asked by `dealer quiz`.
    Question(Question),
    /// `why φ`
    Why(Formula),
    /// `worlds` or `worlds 3`
    Worlds(Option<Name>),
    /// `why φ for 5S`: `why` in the per-card view (placements of the card,
    /// not worlds).
    WhyFor {
        /// The formula.
        formula: Formula,
        /// The card.
        card: Name,
    },
    /// `worlds for 5S`, `worlds 3 for 5S`, `worlds where φ for 5S`: the
    /// worlds grouped by where a card lies.
    WorldsFor {
        /// `worlds 3 for ...`: the worlds player 3 considers possible.
        player: Option<Name>,
        /// `where φ`: count the worlds where φ holds.
        filter: Option<Formula>,
        /// `all` was written (refused: the per-card view counts the
        /// reachable worlds).
        whole: bool,
        /// The card.
        card: Name,
    },
    /// `stats`
    Stats,
    /// `checkpoint "turn 1"`
    Checkpoint(Name),
    /// `model { ... }`
    Model(ModelDef),
    /// `event name { ... }`
    Event(EventDef),
    /// `export "fig.svg" [for CARD] [only P] [agents 1,2] [all]`
    Export(ExportDef),
}

impl StatementKind {
    /// Whether the statement sets the table before play: the game, the
    /// players, the deck, piles, the deal, propositions, variables and
    /// their laws (a written model, event models and `let`s are
    /// declarations of another kind).
    pub fn sets_table(&self) -> bool {
        matches!(
            self,
            StatementKind::Game(_)
                | StatementKind::Players(_)
                | StatementKind::Deck(_)
                | StatementKind::Pile { .. }
                | StatementKind::Order(_)
                | StatementKind::Uncounted
                | StatementKind::Deal(_)
                | StatementKind::Stock(_)
                | StatementKind::Seed(..)
                | StatementKind::Turn(_)
                | StatementKind::Prop(_)
                | StatementKind::Var { .. }
                | StatementKind::Law(_)
                | StatementKind::Values(_)
                | StatementKind::Observes(..)
        )
    }

    /// Whether the statement only asks of the model (a query, a check, a
    /// question, `why`, `worlds`, `stats`): it changes nothing, and its
    /// output may give an answer away.
    pub fn asks(&self) -> bool {
        matches!(
            self,
            StatementKind::Query(_)
                | StatementKind::Valid(_)
                | StatementKind::Expect(_)
                | StatementKind::Question(_)
                | StatementKind::Why(_)
                | StatementKind::WhyFor { .. }
                | StatementKind::Worlds(_)
                | StatementKind::WorldsFor { .. }
                | StatementKind::WorldsWhere { .. }
                | StatementKind::Stats
        )
    }
}

/// `export "FILE" [for CARD] [only P] [agents 1,2] [all] [limit N] [complete]
/// [hide PILE,...]`: the current model as a figure.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportDef {
    /// The file, as written (its extension names the format).
    pub path: Name,
    /// `for 6S`: the sub-model of where one card is.
    pub card: Option<Name>,
    /// `only 1`: the worlds this player considers possible.
    pub only: Option<Name>,
    /// `agents 1,2`: draw only these players' relations.
    pub agents: Option<Vec<Name>>,
    /// `all`: every world, not only those reachable from the actual world.
    pub all: bool,
    /// `limit 200`: draw up to this many nodes (the default is 64).
    pub limit: Option<(u64, Span)>,
    /// `complete`: draw every pair of an S5 class, not a chain through it.
    pub complete: bool,
    /// `hide stock`: leave these locations' rows out of the labels.
    pub hide: Option<Vec<Name>>,
    /// `shade 1`, `shade C{1,2}`: shade the worlds a player or a group
    /// considers possible in the actual world.
    pub shade: Option<Shade>,
}

/// What `shade` shades: one player's worlds, or a group's in the sense of
/// `E`, `C` or `D`.
#[derive(Clone, Debug, PartialEq)]
pub struct Shade {
    /// `E`, `C` or `D`; `None` for one player (`shade 1`).
    pub access: Option<char>,
    /// The player (one, `Listed`) or the group.
    pub who: Group,
    /// Where it is written.
    pub span: Span,
}

/// A deck declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum DeckSpec {
    /// `deck Q*4 A*4 7S`: card kinds with copies (1 when `*n` is absent).
    /// Also `deck 0..12*4`: a value range, each value with the copies.
    Kinds(Vec<DeckItem>),
    /// `deck ranks 2..6 suits S H D C`: one card per rank and suit.
    RanksSuits {
        /// The ranks, in order (a range like `2..6` is expanded by the parser;
        /// `J Q K A` are written out).
        ranks: Vec<Name>,
        /// The suits.
        suits: Vec<Name>,
    },
    /// `deck sets 1..13 of 4`: sets 1..13 with members 1..4, cards `<t,v>`.
    Sets {
        /// The first set number.
        first: u32,
        /// The last set number.
        last: u32,
        /// Members per set.
        members: u32,
        /// Where it was written.
        span: Span,
    },
    /// `deck tarock` (54 cards), `deck tarock reduced` (the Königrufen
    /// report's 48 cards) or `deck tarock T1 T21 SKUS KH QH`: tarock cards.
    Tarock {
        /// `reduced` was written.
        reduced: bool,
        /// The cards listed (none: the whole deck).
        cards: Vec<Name>,
        /// Where it was written.
        span: Span,
    },
}

/// One entry of `deck Q*4`: a card kind (or a value range `0..12`) with copies.
#[derive(Clone, Debug, PartialEq)]
pub struct DeckItem {
    /// The card, as written (`Q`, `6S`, `0..12`).
    pub card: Name,
    /// Copies of each (1 when not written).
    pub copies: u32,
}

/// Who sees a pile's contents.
#[derive(Clone, Debug, PartialEq)]
pub enum Visibility {
    /// Everyone.
    Public,
    /// No one.
    Hidden,
    /// The listed players.
    SeenBy(Vec<Name>),
}

/// `1: 2H 5H` in a deal.
#[derive(Clone, Debug, PartialEq)]
pub struct DealPart {
    /// A player, a pile or a slot (`1`, `Bruno`, `table`, `1.2`).
    pub location: Name,
    /// The cards dealt there.
    pub cards: Vec<Name>,
}

/// A move (LANGUAGE.md §3). Cards and players are names, resolved later.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// What kind of move.
    pub kind: MoveKind,
    /// The whole move.
    pub span: Span,
}

/// The moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// `announce φ`
    Announce(Formula),
    /// `move 6H table -> 2`
    Transfer {
        /// The card.
        card: Name,
        /// From where.
        from: Name,
        /// To where.
        to: Name,
    },
    /// `move M basket -> box unseen-by Sally`: a move the listed players
    /// do not notice (they believe nothing happened).
    SecretTransfer {
        /// The card.
        card: Name,
        /// From where.
        from: Name,
        /// To where.
        to: Name,
        /// Who does not notice.
        unseen: Vec<Name>,
    },
    /// `send a -> b φ` (`lost`: the message is lost): delivered or lost,
    /// the receiver knows which, the others cannot tell.
    Send {
        /// The sender.
        from: Name,
        /// The receiver.
        to: Name,
        /// What the message says (true when it is sent).
        what: Formula,
        /// Whether it is lost.
        lost: bool,
    },
    /// `draw 2`, `draw 2: A`, `draw 2 from discard`
    Draw {
        /// Who draws.
        player: Name,
        /// Which card, when the scenario says.
        card: Option<Name>,
        /// The pile drawn from, when not the stock.
        from: Option<Name>,
    },
    /// `show 1 -> 2 QH`
    Show {
        /// Who shows.
        from: Name,
        /// To whom.
        to: Name,
        /// The card.
        card: Name,
    },
    /// `reveal 2 QH`
    Reveal {
        /// Who reveals.
        player: Name,
        /// The card.
        card: Name,
    },
    /// `peek 1 1.3`
    Peek {
        /// Who looks.
        player: Name,
        /// The slot.
        slot: Name,
    },
    /// `ask 1 2 Q` (Go Fish: a rank; Kwartet: a card)
    Ask {
        /// Who asks.
        asker: Name,
        /// Who is asked.
        asked: Name,
        /// For what.
        card: Name,
    },
    /// `apply name`: apply a declared event model.
    Apply(Name),
    /// A move a game defines: its word and arguments as written (`pick 2
    /// 6H`, `play Katrin T5`, `place 1 1.2`, `newtable`). The scenario's
    /// game reads them (players, cards, slots) when the move is resolved.
    Game {
        /// The move's word.
        word: Name,
        /// Its arguments, in order.
        args: Vec<Name>,
    },
}

/// `expect ...`
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    /// `expect φ`: φ holds in the actual world.
    Holds(Formula),
    /// `expect considers 3 = 4`: the number of worlds a player considers possible.
    Considers {
        /// The player.
        player: Name,
        /// The comparison.
        cmp: CmpOp,
        /// The number (any size: 2^500 worlds are written out).
        n: BigUint,
    },
    /// `expect worlds = 3 where φ`, `expect all worlds = 3`: the number of
    /// worlds (where φ holds), in the part reachable from the actual world
    /// or (`all`) in the whole model.
    Count {
        /// `all` was written.
        whole: bool,
        /// The comparison.
        cmp: CmpOp,
        /// The number.
        n: BigUint,
        /// `where φ`.
        filter: Option<Formula>,
    },
    /// `expect worlds = 15`: the number of worlds of the model.
    Worlds {
        /// The comparison.
        cmp: CmpOp,
        /// The number (any size: 2^500 worlds are written out).
        n: BigUint,
    },
    /// `expect score 2 = 3`: a player's score by the game's referee in the
    /// actual state (books laid, points of tricks, ...).
    Score {
        /// The player.
        player: Name,
        /// The comparison.
        cmp: CmpOp,
        /// The score.
        n: i64,
    },
}

/// `question ["text"] ...`: a question with an answer the model decides.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The question in words, as written (`None`: dealer words the formula).
    pub text: Option<Name>,
    /// What is asked.
    pub ask: Ask,
}

/// What a `question` asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// `question φ`: yes or no, whether φ holds in the actual world.
    YesNo(Formula),
    /// `question considers 3`: how many worlds player 3 considers possible.
    Considers(Name),
    /// `question worlds`, `question worlds where φ`: how many worlds (where
    /// φ holds) are reachable from the actual world.
    Worlds(Option<Formula>),
    /// `question who knows φ`: which players know φ.
    WhoKnows(Formula),
}

impl Ask {
    /// The formula asked about, if any.
    pub fn formula(&self) -> Option<&Formula> {
        match self {
            Ask::YesNo(f) | Ask::WhoKnows(f) | Ask::Worlds(Some(f)) => Some(f),
            Ask::Considers(_) | Ask::Worlds(None) => None,
        }
    }
}

/// A comparison operator as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
}

impl fmt::Display for CmpOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
        })
    }
}

/// A formula as written, with spans.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Formula {
    /// The formula's shape.
    pub kind: FormulaKind,
    /// Where it was written.
    pub span: Span,
}

impl Formula {
    /// Whether `found` holds of this formula or of any formula inside it:
    /// operands, bodies, announcements, and what a move in `[move]` says.
    /// The depth is bounded by the parser.
    pub fn any(&self, found: &impl Fn(&Formula) -> bool) -> bool {
        use FormulaKind as F;
        if found(self) {
            return true;
        }
        match &self.kind {
            F::Not(g) | F::K(_, g) | F::B(_, g) | F::M(_, g) | F::Kw(_, g) => g.any(found),
            F::E(_, g) | F::C(_, g) | F::D(_, g) => g.any(found),
            F::Quant { body, .. } => body.any(found),
            F::And(a, b)
            | F::Or(a, b)
            | F::Implies(a, b)
            | F::Iff(a, b)
            | F::Announce(a, b)
            | F::AnnounceDiamond(a, b) => a.any(found) || b.any(found),
            F::After(m, g) | F::AfterDiamond(m, g) => {
                let said = match &m.kind {
                    MoveKind::Announce(h) | MoveKind::Send { what: h, .. } => h.any(found),
                    _ => false,
                };
                said || g.any(found)
            }
            _ => false,
        }
    }
}

/// A group of agents: all of them, or the ones listed in braces.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// No braces: every player.
    All,
    /// `{1,2}`
    Listed(Vec<Name>),
}

/// The shapes of formulas (LANGUAGE.md §2). The rarer or larger parts
/// are boxed so that a formula node stays small: a scenario of 1,290
/// long queries (Russian cards) is a few hundred thousand of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FormulaKind {
    /// `true`, `⊤`
    True,
    /// `false`, `⊥`
    False,
    /// A name with an optional card and an optional count comparison:
    /// `p`, `AllOwn1`, `hand3(6S)`, `H3(6S)`, `hand_3(6S)`, `table(6S)`,
    /// `1.2(0..6)`, `hand1(Q) >= 2`, `hand2 = 3`, `#hand2 = 3`.
    /// The interpreter decides whether `name` is a location, a proposition or a `let` name.
    Named {
        /// The name before the parenthesis (`hand3`, `H3`, `table`, `1.2`, `p`).
        name: Name,
        /// The card or pattern in parentheses (or after `H4` in `H4<8,4>`).
        card: Option<Box<Name>>,
        /// A count comparison that follows.
        count: Option<(CmpOp, u32)>,
    },
    /// `1_QQ`, `2_QAAA`: player holds at least these cards (Go Fish report notation).
    /// `cards` is the text after the underscore (`QQ`, `QAAA`), split by the interpreter.
    HoldsSeq {
        /// The player (as written before `_`).
        player: Name,
        /// The cards after `_`, as written.
        cards: Box<Name>,
    },
    /// `!φ`, `~φ`, `¬φ`, `not φ`
    Not(Box<Formula>),
    /// `φ & ψ`
    And(Box<Formula>, Box<Formula>),
    /// `φ | ψ`
    Or(Box<Formula>, Box<Formula>),
    /// `φ -> ψ`
    Implies(Box<Formula>, Box<Formula>),
    /// `φ <-> ψ`
    Iff(Box<Formula>, Box<Formula>),
    /// `K1 φ`
    K(Name, Box<Formula>),
    /// `B1 φ` (read as K on the current relations)
    B(Name, Box<Formula>),
    /// `M1 φ`
    M(Name, Box<Formula>),
    /// `Kw1 φ`
    Kw(Name, Box<Formula>),
    /// `Kv1 1.2`: the player knows which card lies at the location.
    Kv(Name, Box<Name>),
    /// `E φ`, `E{1,2} φ`
    E(Group, Box<Formula>),
    /// `C φ`, `C{1,2} φ`
    C(Group, Box<Formula>),
    /// `D{1,2} φ` (`D φ`: all players)
    D(Group, Box<Formula>),
    /// `[!ψ] φ`
    Announce(Box<Formula>, Box<Formula>),
    /// `<!ψ> φ`
    AnnounceDiamond(Box<Formula>, Box<Formula>),
    /// `[ask 1 2 Q] φ`: after the move (any outcome), φ.
    After(Box<Move>, Box<Formula>),
    /// `<ask 1 2 Q> φ`: the move can happen with some outcome after which φ.
    AfterDiamond(Box<Move>, Box<Formula>),
    /// `all x in 0..6: φ` (`all`) and `any a in players: φ`: the
    /// conjunction (disjunction) of φ with `x` replaced by each value.
    Quant {
        /// `all` (true) or `any` (false).
        all: bool,
        /// The bound name.
        var: Box<Name>,
        /// Its values.
        domain: Box<Domain>,
        /// The formula.
        body: Box<Formula>,
    },
    /// `x + y <= 100`, `x < y`: integer terms over variables compared.
    Compare {
        /// The left term.
        left: Box<Term>,
        /// The comparison.
        cmp: CmpOp,
        /// The right term.
        right: Box<Term>,
    },
    /// `Kv_P (x, y)`: the player knows the values of the terms.
    KvTerms(Name, Box<[Term]>),
    /// `f(a, b)`: a `let` with parameters applied to arguments (one
    /// argument is written like a card atom, `knows(Anne)`, and read as
    /// [`FormulaKind::Named`]).
    Call {
        /// The name.
        name: Name,
        /// The arguments.
        args: Box<[Name]>,
    },
}

/// An integer term as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A number.
    Num(u64, Span),
    /// A variable (or a name bound by a quantifier).
    Name(Name),
    /// `a + b`
    Add(Box<Term>, Box<Term>),
    /// `a - b`
    Sub(Box<Term>, Box<Term>),
    /// `a * b`
    Mul(Box<Term>, Box<Term>),
}

impl Term {
    /// Where the term was written (its first token).
    pub fn span(&self) -> Span {
        match self {
            Term::Num(_, s) => *s,
            Term::Name(n) => n.span,
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => a.span().to(b.span()),
        }
    }
}

/// The values a quantified name ranges over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// `0..6`
    Range(u32, u32, Span),
    /// `players`
    Players,
    /// `cards`: every card kind of the deck.
    Cards,
    /// `{Anne, Bill}`: the values listed.
    List(Vec<Name>),
}

/// `model { ... }` (LANGUAGE.md §5).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelDef {
    /// `agents a b`
    pub agents: Vec<Name>,
    /// `props p q`
    pub props: Vec<Name>,
    /// `world w1: p q`
    pub worlds: Vec<WorldDef>,
    /// `a: {w1 w2} {w3}` or `a: w1->w2, w2->w2`
    pub relations: Vec<RelationDef>,
    /// `actual w1`
    pub actual: Name,
    /// The whole block.
    pub span: Span,
}

/// `world w1: p q`
#[derive(Clone, Debug, PartialEq)]
pub struct WorldDef {
    /// The world's name.
    pub name: Name,
    /// The propositions true there.
    pub true_props: Vec<Name>,
}

/// An agent's relation in a model or event block.
#[derive(Clone, Debug, PartialEq)]
pub struct RelationDef {
    /// The agent.
    pub agent: Name,
    /// The relation.
    pub relation: RelationSpec,
}

/// How a relation is written.
#[derive(Clone, Debug, PartialEq)]
pub enum RelationSpec {
    /// `{w1 w2} {w3}`: an S5 partition.
    Partition(Vec<Vec<Name>>),
    /// `w1->w2, w2->w2`: arrows.
    Arrows(Vec<(Name, Name)>),
}

/// `event name { ... }` (LANGUAGE.md §5).
#[derive(Clone, Debug, PartialEq)]
pub struct EventDef {
    /// The event model's name.
    pub name: Name,
    /// `events e1 e2`
    pub events: Vec<Name>,
    /// `pre e1: φ`
    pub pre: Vec<(Name, Formula)>,
    /// `post e1: q := true, p := p & q`
    pub post: Vec<(Name, Vec<(Name, Formula)>)>,
    /// `a: {e1} {e2}`
    pub relations: Vec<RelationDef>,
    /// `actual e1`
    pub actual: Name,
    /// The whole block.
    pub span: Span,
}
