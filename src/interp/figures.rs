//! The `export` statement: resolves its options and builds the figure of
//! the current model. Rendering and writing the file are the front end's
//! business (the interpreter does no I/O).

use crate::diag::{Diagnostic, Span};
use crate::engine::Backend;
use crate::figure::{self, View};
use crate::syntax::ast::ExportDef;

use super::errors;
use super::resolve::Scope;
use super::session::Output;

/// Resolves an export's options against the scope.
pub fn view(def: &ExportDef, scope: &Scope) -> Result<View, Diagnostic> {
    let card = def
        .card
        .as_ref()
        .map(|name| super::per_card::card(scope, name))
        .transpose()?;
    let only = def.only.as_ref().map(|p| scope.agent(p)).transpose()?;
    let agents = match &def.agents {
        Some(list) => Some(
            list.iter()
                .map(|p| scope.agent(p))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        None => None,
    };
    let hide = match &def.hide {
        Some(list) => list
            .iter()
            .map(|l| scope.location(l))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let highlight = match &def.shade {
        None => None,
        Some(shade) => {
            use crate::engine::GroupAccess;
            let group = scope.group(&shade.who)?;
            let access = match shade.access {
                // One player's worlds: `E` of that player alone.
                None | Some('E') => GroupAccess::Everybody,
                Some('C') => GroupAccess::Common,
                _ => GroupAccess::Distributed,
            };
            Some((access, group))
        }
    };
    let mut view = View {
        card,
        only,
        agents,
        all: def.all,
        complete: def.complete,
        hide,
        highlight,
        ..View::default()
    };
    if let Some((n, _)) = def.limit {
        view.max_nodes = usize::try_from(n).unwrap_or(usize::MAX);
    }
    Ok(view)
}

/// `export "FILE" ...`: the figure to write (its worlds named by `name`, as
/// `worlds` and `why` name them), or nothing in check mode;
/// `limit` (the front end's `--max-nodes` or `:limit`) overrides the most
/// nodes drawn unless the statement says `limit N` itself.
pub fn export(
    def: &ExportDef,
    scope: &Scope,
    (model, name): (&dyn Backend, figure::build::Naming<'_>),
    check: bool,
    span: Span,
    limit: Option<usize>,
    fit: Option<Vec<crate::engine::Kind>>,
) -> Result<Vec<Output>, Diagnostic> {
    figure::render::Format::from_path(std::path::Path::new(&def.path.text))
        .map_err(|e| errors::figure(&e, def.path.span))?;
    let mut view = view(def, scope)?;
    if let (Some(n), None) = (limit, def.limit) {
        view.max_nodes = n;
    }
    view.fit = fit;
    if check {
        return Ok(Vec::new());
    }
    let figure = figure::build_named(scope.table, scope.props, model, &view, name)
        .map_err(|e| errors::figure(&e, span))?;
    Ok(vec![Output::Figure {
        path: def.path.text.to_string(),
        span,
        figure,
    }])
}
