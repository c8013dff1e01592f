//! Knowledge views: for each game, the facts a player may want to look at,
//! each a formula of the scenario language that the engine decides on the
//! exact model. A view is a list of candidate [`Fact`]s; [`holding`] keeps
//! those the engine says are true. Nothing is remembered between moves:
//! the model is the only memory.
//!
//! - `know`: what you know about the others (first order). Go Fish and
//!   Kemps: the ranks you know each opponent holds or lacks (Kemps: the
//!   values an opponent collects); Kwartet: the cards whose place you know;
//!   Königrufen: who you know is or is not the declarer's partner, and the
//!   suits you know a player lacks; Cabo: the slots whose card you know
//!   (depth 1) and the slots you know an opponent knows (depth 2).
//! - `known`: what the others know about you (second order): the same
//!   facts about your hand from each opponent's point of view; Cabo: which
//!   of your slots an opponent knows, that it knows you know yours (depth
//!   2), and that you know it knows (depth 3).

use crate::cards::{game_named, HandFacts, LocKind, Table, ViewStyle};
use crate::diag::Diagnostic;
use crate::engine::Agent as Player;

use super::game_loop::Match;

/// A fact a view may show: `K_1 hand2(Q)` shown as "player 2 holds Q".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Whom it is about, as a heading (`player 2`).
    pub about: String,
    /// What kind of fact (`holds`, `has no`, `knows you hold`).
    pub label: String,
    /// The item (`Q`, `<8,4>`, `1.2`).
    pub item: String,
    /// The formula the engine decides.
    pub formula: String,
}

/// The facts of the `know` view of player `me` (first order).
pub fn first_order(table: &Table, game: &str, me: Player) -> Vec<Fact> {
    let style = style_of(game);
    let k = |p: Player| format!("K_{}", table.players[p]);
    let mut facts = Vec::new();
    for q in others(table, me) {
        let about = format!("player {}", table.players[q]);
        facts.extend(about_hand(table, style.hand, q, &k(me), &about, ""));
    }
    if style.slots {
        facts.extend(cabo_first(table, me));
    }
    if style.teams {
        facts.extend(partners(table, &k(me), None));
    }
    facts
}

/// The facts of the `known` view of player `me` (second order).
pub fn second_order(table: &Table, game: &str, me: Player) -> Vec<Fact> {
    let style = style_of(game);
    let mut facts = Vec::new();
    for q in others(table, me) {
        let about = format!("player {}", table.players[q]);
        let kq = format!("K_{}", table.players[q]);
        facts.extend(about_hand(table, style.hand, me, &kq, &about, "knows you "));
        if style.slots {
            facts.extend(cabo_second(table, me, q));
        }
        if style.teams {
            facts.extend(partners(table, &kq, Some((me, &about))));
        }
    }
    facts
}

/// The view style of the game named `game` (its referee says which facts
/// its views list; a game without one gets the plain card facts).
fn style_of(game: &str) -> ViewStyle {
    game_named(game)
        .and_then(|g| g.referee())
        .map(|r| r.view_style())
        .unwrap_or_default()
}

/// The facts about player `q`'s hand known by the operator `k` (`K_1`).
fn about_hand(
    table: &Table,
    hand_facts: HandFacts,
    q: Player,
    k: &str,
    about: &str,
    prefix: &str,
) -> Vec<Fact> {
    let hand = table.location_name(table.hand(q));
    let fact = |label: &str, item: String, formula: String| Fact {
        about: about.to_string(),
        label: format!("{prefix}{label}"),
        item,
        formula,
    };
    let mut facts = Vec::new();
    match hand_facts {
        HandFacts::Ranks { at_least, verb } => {
            for (rank, kinds) in table.deck.ranks() {
                let pattern = rank_pattern(table, &rank, &kinds);
                facts.push(fact(
                    &format!("{verb}{}", if prefix.is_empty() { "s" } else { "" }),
                    rank.clone(),
                    format!("{k} {hand}({pattern}) >= {at_least}"),
                ));
                facts.push(fact(
                    if prefix.is_empty() {
                        "has no"
                    } else {
                        "have no"
                    },
                    rank,
                    format!("{k} {hand}({pattern}) = 0"),
                ));
            }
        }
        HandFacts::Suits => {
            for suit in suits(table) {
                facts.push(fact(
                    if prefix.is_empty() {
                        "lacks suit"
                    } else {
                        "lack suit"
                    },
                    suit.to_string(),
                    format!("{k} {hand}(*{suit}) = 0"),
                ));
            }
        }
        HandFacts::Nothing => {}
        HandFacts::Cards => {
            for kind in &table.deck.kinds {
                facts.push(fact(
                    if prefix.is_empty() { "holds" } else { "hold" },
                    kind.name.clone(),
                    format!("{k} {hand}({})", kind.name),
                ));
            }
        }
    }
    facts
}

/// The pattern for every card of a rank (`Q`, `6*`), or its one card.
fn rank_pattern(table: &Table, rank: &str, kinds: &[usize]) -> String {
    match kinds {
        [one] => table.deck.kinds[*one].name.clone(),
        _ => format!("{rank}*"),
    }
}

/// The suits of the deck, in order of appearance.
fn suits(table: &Table) -> Vec<char> {
    let mut suits = Vec::new();
    for k in &table.deck.kinds {
        if let Some(s) = k.suit {
            if !suits.contains(&s) {
                suits.push(s);
            }
        }
    }
    suits
}

/// Königrufen's teams: `k partner(q)` and `k !partner(q)` for each player
/// (or, with `only`, for that player, about whom `about` says).
fn partners(table: &Table, k: &str, only: Option<(Player, &str)>) -> Vec<Fact> {
    let players: Vec<Player> = match only {
        Some((p, _)) => vec![p],
        None => (0..table.players.len()).collect(),
    };
    let mut facts = Vec::new();
    for p in players {
        let name = &table.players[p];
        let (about, yes, no) = match only {
            Some((_, about)) => (
                about.to_string(),
                "knows you are the partner",
                "knows you are not the partner",
            ),
            None => ("teams".to_string(), "partner", "not partner"),
        };
        facts.push(Fact {
            about: about.clone(),
            label: yes.into(),
            item: name.clone(),
            formula: format!("{k} partner({name})"),
        });
        facts.push(Fact {
            about,
            label: no.into(),
            item: name.clone(),
            formula: format!("{k} !partner({name})"),
        });
    }
    facts
}

/// The slots of the table, with their owners.
fn slots(table: &Table) -> Vec<(Player, String)> {
    table
        .locations
        .iter()
        .enumerate()
        .filter_map(|(l, loc)| match loc.kind {
            LocKind::Slot(owner, _) => Some((owner, table.location_name(l))),
            _ => None,
        })
        .collect()
}

/// Cabo, depth 1 and 2: the slots whose card `me` knows, and the slots
/// `me` knows an opponent knows.
fn cabo_first(table: &Table, me: Player) -> Vec<Fact> {
    let m = &table.players[me];
    let mut facts = Vec::new();
    for (_, slot) in slots(table) {
        facts.push(Fact {
            about: "depth 1".into(),
            label: "you know the card in".into(),
            item: slot.clone(),
            formula: format!("Kv_{m} {slot}"),
        });
        for q in others(table, me) {
            let n = &table.players[q];
            facts.push(Fact {
                about: "depth 2".into(),
                label: format!("you know player {n} knows the card in"),
                item: slot.clone(),
                formula: format!("K_{m} Kv_{n} {slot}"),
            });
        }
    }
    facts
}

/// Cabo, depths 1-3 about `me`'s slots from opponent `q`'s side.
fn cabo_second(table: &Table, me: Player, q: Player) -> Vec<Fact> {
    let (m, n) = (&table.players[me], &table.players[q]);
    let about = format!("player {n}");
    let mut facts = Vec::new();
    for (owner, slot) in slots(table) {
        if owner != me {
            continue;
        }
        for (label, formula) in [
            ("knows the card in your", format!("Kv_{n} {slot}")),
            (
                "knows you know the card in your",
                format!("K_{n} Kv_{m} {slot}"),
            ),
            (
                "you know it knows the card in your",
                format!("K_{m} Kv_{n} {slot}"),
            ),
            (
                "knows you know it knows your",
                format!("K_{n} K_{m} Kv_{n} {slot}"),
            ),
        ] {
            facts.push(Fact {
                about: about.clone(),
                label: label.into(),
                item: slot.clone(),
                formula,
            });
        }
    }
    facts
}

/// The players other than `me`.
fn others(table: &Table, me: Player) -> Vec<Player> {
    (0..table.players.len()).filter(|&q| q != me).collect()
}

/// The facts the engine says are true now. A fact whose formula cannot be
/// asked yet (Königrufen's `partner` before the call) is left out.
pub fn holding(game: &Match, facts: Vec<Fact>) -> Result<Vec<Fact>, Diagnostic> {
    let mut kept = Vec::new();
    let mut askable = Vec::new();
    for f in facts {
        if !f.formula.contains("partner(") || game.ask_all(std::slice::from_ref(&f.formula)).is_ok()
        {
            askable.push(f);
        }
    }
    let formulas: Vec<String> = askable.iter().map(|f| f.formula.clone()).collect();
    let answers = game.ask_all(&formulas)?;
    for (f, yes) in askable.into_iter().zip(answers) {
        if yes {
            kept.push(f);
        }
    }
    Ok(kept)
}

/// The facts as lines: one per heading and label (`player 2  holds: Q 7`),
/// with the formulas under them when `formulas` is set.
pub fn render(facts: &[Fact], formulas: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut groups: Vec<(&str, &str, Vec<&Fact>)> = Vec::new();
    for f in facts {
        match groups
            .iter_mut()
            .find(|(a, l, _)| *a == f.about && *l == f.label)
        {
            Some((_, _, items)) => items.push(f),
            None => groups.push((&f.about, &f.label, vec![f])),
        }
    }
    let mut last_about = "";
    for (about, label, items) in groups {
        let head = if about == last_about { "" } else { about };
        last_about = about;
        let names: Vec<&str> = items.iter().map(|f| f.item.as_str()).collect();
        lines.push(format!("{head:<10} {label}: {}", names.join(" ")));
        if formulas {
            for f in items {
                lines.push(format!("{:<12}{}", "", f.formula));
            }
        }
    }
    if lines.is_empty() {
        lines.push("nothing yet".into());
    }
    lines
}
