//! The one check that a formula is decided by what a player knows, used
//! by strategies (every guard and score) and by agents (`View::ask_all`).
//!
//! A formula is decided by its form when it is built with `&`, `|`, `!`,
//! `->`, `<->` from `K_me φ`, `Kw_me φ`, `M_me φ`, `B_me φ`, `Kv_me`,
//! `true`, `false` and the atoms of locations the player sees (its own
//! hand, the public piles): [`unread`]. Where the form does not suffice (a
//! game's atom such as Königrufen's `highest(me)`, a count the player can
//! work out), the model decides: the formula must satisfy `Kw_me φ` in the
//! actual world, so that its answer is the same in every world the player
//! considers possible and tells the player nothing it did not know.

use crate::cards::Table;
use crate::diag::Diagnostic;
use crate::syntax::ast::{Formula, FormulaKind, Name};

/// How a formula was found decided by its player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// By its form ([`unread`] finds nothing).
    BySyntax,
    /// By the model: `Kw_me φ` holds in the actual world.
    ByModel,
}

/// The first subformula of `f` that player `me` does not decide by
/// syntax alone (see the module's comment); `None` when `f` is decided.
pub fn unread<'a>(f: &'a Formula, me: usize, table: &Table) -> Option<&'a Formula> {
    let mine = |name: &str| table.find_player(name) == Some(me);
    match &f.kind {
        FormulaKind::True | FormulaKind::False => None,
        FormulaKind::Named { name, .. } => {
            let seen = table
                .find_location(&name.text)
                .is_some_and(|l| table.locations[l].seen_by.contains(&me));
            (!seen).then_some(f)
        }
        FormulaKind::HoldsSeq { player, .. } => (!mine(&player.text)).then_some(f),
        FormulaKind::Not(a) => unread(a, me, table),
        FormulaKind::And(a, b)
        | FormulaKind::Or(a, b)
        | FormulaKind::Implies(a, b)
        | FormulaKind::Iff(a, b) => unread(a, me, table).or_else(|| unread(b, me, table)),
        FormulaKind::K(who, _)
        | FormulaKind::B(who, _)
        | FormulaKind::M(who, _)
        | FormulaKind::Kw(who, _) => (!mine(&who.text)).then_some(f),
        FormulaKind::Kv(who, _) | FormulaKind::KvTerms(who, _) => (!mine(&who.text)).then_some(f),
        _ => Some(f),
    }
}

/// Whether player `me` decides `f`: by its form, or else by the model,
/// where `holds` answers `Kw_me f` in the actual world. `Ok(Err(sub))`
/// when it does not, with the first subformula read beyond the player's
/// knowledge.
pub fn decided<'a>(
    f: &'a Formula,
    me: usize,
    table: &Table,
    holds: impl FnOnce(&Formula) -> Result<bool, Diagnostic>,
) -> Result<Result<Decided, &'a Formula>, Diagnostic> {
    let Some(sub) = unread(f, me, table) else {
        return Ok(Ok(Decided::BySyntax));
    };
    let who = Name {
        text: table.players[me].as_str().into(),
        span: f.span,
    };
    let kw = Formula {
        kind: FormulaKind::Kw(who, Box::new(f.clone())),
        span: f.span,
    };
    Ok(if holds(&kw)? {
        Ok(Decided::ByModel)
    } else {
        Err(sub)
    })
}
