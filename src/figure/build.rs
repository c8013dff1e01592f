//! Builds a [`Figure`] from a model: chooses the worlds (reachable, all, or
//! one player's view), projects them onto one card when asked, labels them
//! and collects the drawn relations.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap, HashSet};

use crate::cards::rules::describe_player;
use crate::cards::{LocKind, Table};
use crate::engine::{Agent, Atom, Backend, Cmp, Formula, GroupAccess, Kind, WorldId};

use super::{Counts, Edge, Figure, FigureError, Node, NodeIx, Projected, Segment, Shared};

/// The most nodes a figure draws unless told otherwise.
pub const DEFAULT_MAX_NODES: usize = 64;

/// Which part of the model to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// `for 6S`: project onto where this card kind lies.
    pub card: Option<Kind>,
    /// `only 1`: the worlds this player considers possible (and the actual world).
    pub only: Option<Agent>,
    /// `agents 1,2`: draw only these relations (all when `None`).
    pub agents: Option<Vec<Agent>>,
    /// `all`: every world, not only those reachable from the actual world.
    pub all: bool,
    /// Refuse to draw more nodes than this.
    pub max_nodes: usize,
    /// S5 classes drawn complete (every pair related by a line), not as a
    /// chain through the class in node order.
    pub complete: bool,
    /// Locations whose rows the labels leave out (e.g. the stock).
    pub hide: Vec<usize>,
    /// A perspective to shade: the worlds this group (one agent for a
    /// single agent's view) considers possible in the actual world, in
    /// the sense of the access ([`Backend::group_accessible`]). A node of
    /// a projection is shaded when one of its worlds is.
    pub highlight: Option<(GroupAccess, Vec<Agent>)>,
    /// When the worlds the view would draw are more than `max_nodes` (or
    /// cannot be listed), draw the per-card projection instead (`for
    /// CARD`, true at any size), with the model's counts in the legend:
    /// the card is the first of these kinds (the cards the current move is
    /// about) whose place some agent does not know, else the first such
    /// card of the deck. `None`: refuse a figure that is too large.
    pub fit: Option<Vec<Kind>>,
}

impl Default for View {
    fn default() -> View {
        View {
            card: None,
            only: None,
            agents: None,
            all: false,
            max_nodes: DEFAULT_MAX_NODES,
            complete: false,
            hide: Vec::new(),
            highlight: None,
            fit: None,
        }
    }
}

/// Builds the figure of `model` seen through `view`. `props` names the
/// model's propositions (for explicit models). Worlds are named by their
/// number (`w3`); see [`build_named`] for a session's own names.
pub fn build(
    table: &Table,
    props: &[String],
    model: &dyn Backend,
    view: &View,
) -> Result<Figure, FigureError> {
    build_named(table, props, model, view, &|w| format!("w{w}"))
}

/// How a session names a world (`worlds` and `why` print the same): `w3`,
/// a written model's own name, a variable world's values.
pub type Naming<'a> = &'a dyn Fn(WorldId) -> String;

/// [`build`], with each drawn world's node named by `name`.
pub fn build_named(
    table: &Table,
    props: &[String],
    model: &dyn Backend,
    view: &View,
    name: Naming<'_>,
) -> Result<Figure, FigureError> {
    if let Some(hints) = &view.fit {
        if view.card.is_none() && !view.all && too_large(model, view) {
            let counts = Counts::of(model);
            let Some(kind) = choose_card(table, model, hints)? else {
                return Ok(actual_alone(table, props, model, view, counts));
            };
            let projected = View {
                card: Some(kind),
                fit: None,
                ..view.clone()
            };
            let mut fig = match build_named(table, props, model, &projected, name) {
                Ok(fig) => fig,
                Err(FigureError::TooLarge { count, what, .. }) => {
                    let mut fig = actual_alone(table, props, model, view, counts);
                    fig.caption = format!(
                        "the actual world alone (too many worlds to draw; where {} is would take {} {what})",
                        table.deck.kinds[kind].name,
                        crate::diag::thousands(count)
                    );
                    return Ok(fig);
                }
                Err(e) => return Err(e),
            };
            fig.projected = Some(Box::new(Projected {
                card: kind,
                name: table.deck.kinds[kind].name.clone(),
            }));
            fig.counts = Some(Box::new(counts));
            return Ok(fig);
        }
    }
    let shown: Vec<Agent> = match &view.agents {
        Some(list) => list
            .iter()
            .copied()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
        None => (0..model.agents()).collect(),
    };
    if let Some(fig) = placement_figure(table, model, view, &shown)? {
        return Ok(fig);
    }
    let worlds = chosen_worlds(model, view);
    let directed = !model.is_s5();
    let mut shared = None;
    let (nodes, class) = match view.card {
        Some(kind) => project(table, model, &worlds, kind, view.max_nodes)?,
        None => {
            guard(worlds.len(), "worlds", view.max_nodes)?;
            let mut labels = Labeller::new(table, props, model, &worlds, name)?;
            labels.hide = view.hide.clone();
            let nodes = worlds.iter().map(|&w| labels.node(w)).collect();
            shared = labels.shared(&worlds);
            let class = worlds.iter().enumerate().map(|(i, &w)| (w, i)).collect();
            (nodes, class)
        }
    };
    let edges = relations(model, &worlds, &class, &shown, directed);
    let actual = class.get(&model.actual()).copied();
    let mut fig = finish(table, model, view, (nodes, edges), actual, shown);
    fig.shared = shared.map(Box::new);
    if let Some((access, group)) = &view.highlight {
        let seen = model.group_accessible(*access, group, model.actual());
        let marked: BTreeSet<NodeIx> = seen.iter().filter_map(|w| class.get(w).copied()).collect();
        fig.marked = marked.into_iter().collect();
        fig.marked_note = Some(marked_note(table, *access, group));
    }
    Ok(fig)
}

/// The legend's words for a shaded perspective.
pub fn marked_note(table: &Table, access: GroupAccess, group: &[Agent]) -> String {
    let names: Vec<String> = group.iter().map(|&a| describe_player(table, a)).collect();
    let who = names.join(", ");
    match (access, group.len()) {
        (_, 1) if access != GroupAccess::Common => {
            format!("shaded: the worlds {who} considers possible")
        }
        (GroupAccess::Everybody, _) => {
            format!("shaded: the worlds one of {who} considers possible (E)")
        }
        (GroupAccess::Common, _) => {
            format!("shaded: the worlds reachable by {who} (C)")
        }
        (GroupAccess::Distributed, _) => {
            format!("shaded: the worlds {who} together consider possible (D)")
        }
    }
}

/// The figure of drawn nodes and edges: S5 edges as chains unless the
/// view asks for complete classes (or a relation is not transitive).
fn finish(
    table: &Table,
    model: &dyn Backend,
    view: &View,
    (nodes, mut edges): (Vec<Node>, Vec<Edge>),
    actual: Option<NodeIx>,
    shown: Vec<Agent>,
) -> Figure {
    let directed = !model.is_s5();
    let mut complete = directed || view.complete;
    if !complete {
        match chains(&edges, nodes.len()) {
            Some(chained) => edges = chained,
            None => complete = true,
        }
    }
    Figure {
        actual,
        nodes,
        edges,
        directed,
        agents: (0..model.agents())
            .map(|a| describe_player(table, a))
            .collect(),
        shown,
        caption: caption(table, view),
        complete,
        marked: Vec::new(),
        marked_note: None,
        projected: None,
        counts: None,
        shared: None,
    }
}

/// `for CARD` on a model too large to list its worlds (a full deck under
/// the symbolic engine): the placements of the card and who connects them,
/// computed by the engine from its sets of states ([`Backend::placements`]),
/// drawn like [`project`] draws them; with `only P`, among the worlds P
/// considers possible. `None` when the worlds can be listed, the view
/// draws every world (`all`), or the engine has no such view.
fn placement_figure(
    table: &Table,
    model: &dyn Backend,
    view: &View,
    shown: &[Agent],
) -> Result<Option<Figure>, FigureError> {
    let Some(kind) = view.card else {
        return Ok(None);
    };
    if view.all || model.can_list() {
        return Ok(None);
    }
    let Some(found) = model.placements(kind, view.only, view.max_nodes) else {
        // No per-card view of a model that cannot be listed (a large belief
        // structure): listing would draw only part of it.
        return Err(FigureError::TooLarge {
            what: "worlds",
            count: model.world_count(),
            limit: view.max_nodes,
        });
    };
    let p = found.map_err(|e| FigureError::Engine(e.to_string()))?;
    guard(p.keys.len(), "positions", view.max_nodes)?;
    let mut order: Vec<usize> = (0..p.keys.len()).collect();
    order.sort_by(|&a, &b| p.keys[b].cmp(&p.keys[a]));
    let mut rank = vec![0; p.keys.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let nodes = order
        .iter()
        .map(|&i| placement_node(table, kind, &p.keys[i], &p.common[i]))
        .collect();
    let mut edges: Vec<Edge> = shown
        .iter()
        .flat_map(|&agent| {
            let rank = &rank;
            p.linked[agent].iter().map(move |&(i, j)| Edge {
                from: rank[i].min(rank[j]),
                to: rank[i].max(rank[j]),
                agent,
            })
        })
        .collect();
    edges.sort_by_key(|e| (e.from, e.to, e.agent));
    let actual = Some(rank[p.actual]);
    Ok(Some(finish(
        table,
        model,
        view,
        (nodes, edges),
        actual,
        shown.to_vec(),
    )))
}

fn guard(count: usize, what: &'static str, limit: usize) -> Result<(), FigureError> {
    if count > limit {
        return Err(FigureError::TooLarge {
            what,
            count: count as u128,
            limit,
        });
    }
    Ok(())
}

fn caption(table: &Table, view: &View) -> String {
    // A projection's boxes are places of a card, not worlds: its caption
    // says so, and never calls them reachable worlds.
    if let Some(k) = view.card {
        let card = &table.deck.kinds[k].name;
        let among = match (view.only, view.all) {
            (Some(p), _) => format!(
                ", among the worlds {} considers possible",
                describe_player(table, p)
            ),
            (None, true) => ", over every world".to_string(),
            (None, false) => String::new(),
        };
        return format!("where {card} is{among}: a projection, each box one place of {card}");
    }
    let mut parts = vec![match (view.only, view.all) {
        (Some(p), _) => format!(
            "the worlds {} considers possible",
            describe_player(table, p)
        ),
        (None, true) => "every world".to_string(),
        (None, false) => "the worlds reachable from the actual world".to_string(),
    }];
    if let Some(k) = view.card {
        parts.push(format!("where {} is", table.deck.kinds[k].name));
    }
    parts.join(", ")
}

/// The worlds the view draws, in increasing order.
fn chosen_worlds(model: &dyn Backend, view: &View) -> Vec<WorldId> {
    let actual = model.actual();
    if let Some(p) = view.only {
        let mut ws = model.accessible(p, actual);
        if let Err(i) = ws.binary_search(&actual) {
            ws.insert(i, actual);
        }
        return ws;
    }
    if view.all {
        return (0..model.world_count() as usize).collect();
    }
    reachable(model, actual)
}

/// The worlds reachable from `start` along any agent's relation, with
/// `start`, in increasing order.
fn reachable(model: &dyn Backend, start: WorldId) -> Vec<WorldId> {
    let everyone: Vec<Agent> = (0..model.agents()).collect();
    let mut ws = model.group_accessible(GroupAccess::Common, &everyone, start);
    if let Err(i) = ws.binary_search(&start) {
        ws.insert(i, start);
    }
    ws
}

/// The drawn edges between the nodes the worlds belong to (`class`), each
/// unordered pair once and without loops on S5 models.
fn relations(
    model: &dyn Backend,
    worlds: &[WorldId],
    class: &HashMap<WorldId, NodeIx>,
    shown: &[Agent],
    directed: bool,
) -> Vec<Edge> {
    let mut edges = BTreeSet::new();
    for &agent in shown {
        let mut done: HashSet<WorldId> = HashSet::new();
        for &w in worlds {
            if !directed && done.contains(&w) {
                continue;
            }
            let from = class[&w];
            let succ = model.accessible(agent, w);
            let targets: BTreeSet<NodeIx> =
                succ.iter().filter_map(|v| class.get(v).copied()).collect();
            if directed {
                edges.extend(targets.iter().map(|&to| Edge { from, to, agent }));
                continue;
            }
            // S5: `succ` is w's whole class; relate every pair of nodes in it once.
            done.extend(succ.iter().copied());
            let list: Vec<NodeIx> = targets.into_iter().collect();
            for (i, &a) in list.iter().enumerate() {
                for &b in &list[i + 1..] {
                    edges.insert(Edge {
                        from: a,
                        to: b,
                        agent,
                    });
                }
            }
        }
    }
    let mut edges: Vec<Edge> = edges.into_iter().collect();
    edges.sort_by_key(|e| (e.from, e.to, e.agent));
    edges
}

/// S5 edges drawn as the textbooks draw them: when every agent's drawn
/// relation is an equivalence on the nodes (it is unless a projection
/// merged worlds of different classes), each class of `n` nodes becomes
/// `n - 1` lines chaining its nodes in order, and the class is what the
/// lines connect. `None` when some relation is not transitive: then only
/// every pair drawn tells the truth.
fn chains(edges: &[Edge], nodes: usize) -> Option<Vec<Edge>> {
    let mut agents: Vec<usize> = edges.iter().map(|e| e.agent).collect();
    agents.sort_unstable();
    agents.dedup();
    let mut out = Vec::new();
    for agent in agents {
        let mut root: Vec<usize> = (0..nodes).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        }
        let mine: Vec<&Edge> = edges.iter().filter(|e| e.agent == agent).collect();
        for e in &mine {
            let (a, b) = (find(&mut root, e.from), find(&mut root, e.to));
            root[a] = b;
        }
        let mut members: HashMap<usize, Vec<NodeIx>> = HashMap::new();
        for n in 0..nodes {
            let r = find(&mut root, n);
            members.entry(r).or_default().push(n);
        }
        let pairs: usize = members.values().map(|m| m.len() * (m.len() - 1) / 2).sum();
        if pairs != mine.len() {
            return None;
        }
        for m in members.values() {
            out.extend(m.windows(2).map(|p| Edge {
                from: p[0],
                to: p[1],
                agent,
            }));
        }
    }
    out.sort_by_key(|e| (e.from, e.to, e.agent));
    Some(out)
}

/// Projects worlds onto where the copies of `kind` lie: one node per
/// distinct placement, ordered by location (player 1's hand first).
fn project(
    table: &Table,
    model: &dyn Backend,
    worlds: &[WorldId],
    kind: Kind,
    limit: usize,
) -> Result<(Vec<Node>, HashMap<WorldId, NodeIx>), FigureError> {
    let mut keys: Vec<Vec<u32>> = Vec::new();
    let mut of_world = Vec::with_capacity(worlds.len());
    let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
    for &w in worlds {
        let view = model.world(w);
        let key: Vec<u32> = view.cards.iter().map(|at| at[kind]).collect();
        let next = index.len();
        let i = *index.entry(key.clone()).or_insert_with(|| {
            keys.push(key);
            next
        });
        of_world.push(i);
    }
    guard(keys.len(), "positions", limit)?;
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[b].cmp(&keys[a]));
    let mut rank = vec![0; keys.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let common = common_placements(model, worlds, &of_world, &keys, kind)?;
    let nodes = order
        .iter()
        .map(|&i| placement_node(table, kind, &keys[i], &common[i]))
        .collect();
    let class = worlds
        .iter()
        .zip(of_world)
        .map(|(&w, i)| (w, rank[i]))
        .collect();
    Ok((nodes, class))
}

/// For each placement and location, how many of its copies there are
/// common knowledge: `C (#loc(kind) >= n)` in every world of the placement.
fn common_placements(
    model: &dyn Backend,
    worlds: &[WorldId],
    of_world: &[usize],
    keys: &[Vec<u32>],
    kind: Kind,
) -> Result<Vec<Vec<u32>>, FigureError> {
    let everyone: Vec<Agent> = (0..model.agents()).collect();
    let mut sat: HashMap<(usize, u32), HashSet<WorldId>> = HashMap::new();
    let mut known: Vec<Vec<u32>> = keys.iter().map(|k| vec![0; k.len()]).collect();
    for (i, key) in keys.iter().enumerate() {
        for (loc, &count) in key.iter().enumerate() {
            for n in 1..=count {
                if let Entry::Vacant(e) = sat.entry((loc, n)) {
                    let atom = Atom::Count {
                        loc,
                        kinds: vec![kind],
                        cmp: Cmp::Ge,
                        n,
                    };
                    let f = Formula::C(everyone.clone(), Box::new(Formula::Atom(atom)));
                    let set = model
                        .satisfying(&f)
                        .map_err(|e| FigureError::Engine(e.to_string()))?;
                    e.insert(set.into_iter().collect());
                }
                let everywhere = worlds
                    .iter()
                    .zip(of_world)
                    .filter(|(_, &j)| j == i)
                    .all(|(w, _)| sat[&(loc, n)].contains(w));
                if !everywhere {
                    break;
                }
                known[i][loc] = n;
            }
        }
    }
    Ok(known)
}

/// A place of a card named by where its copies are (`at 2`, `at 1+stock`,
/// `at stock+stock`): the same box has the same name in every view of the
/// model (lecture, hall, quiz, `export`), whichever other places are drawn.
fn placement_name(table: &Table, key: &[u32]) -> String {
    let at: Vec<&str> = key
        .iter()
        .enumerate()
        .flat_map(|(l, &n)| std::iter::repeat_n(table.locations[l].name.as_str(), n as usize))
        .collect();
    if at.is_empty() {
        "nowhere".into()
    } else {
        format!("at {}", at.join("+"))
    }
}

fn placement_node(table: &Table, kind: Kind, key: &[u32], common: &[u32]) -> Node {
    let lines = key
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(l, &n)| {
            let show = |c: u32| {
                let mut counts = vec![0; table.deck.kinds.len()];
                counts[kind] = c;
                table.deck.show_cards(&counts)
            };
            let mut line = vec![Segment::plain(format!("{}: ", table.locations[l].name))];
            if common[l] > 0 {
                line.push(Segment {
                    text: show(common[l]),
                    common: true,
                });
            }
            if n > common[l] {
                let sep = if common[l] > 0 && !table.deck.short_names() {
                    " "
                } else {
                    ""
                };
                line.push(Segment::plain(format!("{sep}{}", show(n - common[l]))));
            }
            line
        })
        .collect();
    Node {
        id: placement_name(table, key),
        world: None,
        lines,
    }
}

/// What a world's label shows of its propositions: a proposition (when
/// true), or a variable's value (`month=7`), read from the propositions
/// `month#0`, `month#1`, ... that hold it in binary, least significant
/// first (see `interp::variables`).
enum Label {
    /// A proposition, by index.
    Prop(usize),
    /// A variable: its index among the variables, its name, and the
    /// proposition holding each bit (bit `i` at `bits[i]`).
    Value(usize, String, Vec<usize>),
}

/// The labels of `props`, in their order: each variable once, where its
/// first bit is.
fn label_items(props: &[String]) -> Vec<Label> {
    let mut out: Vec<Label> = Vec::new();
    let mut vars: HashMap<&str, usize> = HashMap::new();
    for (p, name) in props.iter().enumerate() {
        let bit = name
            .rsplit_once('#')
            .and_then(|(base, i)| Some((base, i.parse::<usize>().ok()?)));
        match bit {
            Some((base, i)) if !base.is_empty() => {
                let next = vars.len();
                let at = *vars.entry(base).or_insert_with(|| {
                    out.push(Label::Value(next, base.to_string(), Vec::new()));
                    out.len() - 1
                });
                if let Label::Value(_, _, bits) = &mut out[at] {
                    if bits.len() <= i {
                        bits.resize(i + 1, usize::MAX);
                    }
                    bits[i] = p;
                }
            }
            _ => out.push(Label::Prop(p)),
        }
    }
    out
}

/// A variable's value in a world whose propositions are `values`.
fn value_of(bits: &[usize], values: &[bool]) -> u64 {
    bits.iter()
        .enumerate()
        .filter(|&(_, &p)| p != usize::MAX && values[p])
        .map(|(i, _)| 1u64 << i)
        .sum()
}

/// The formula `variable = value` over its bits.
fn value_formula(bits: &[usize], value: u64) -> Formula {
    Formula::And(
        bits.iter()
            .enumerate()
            .filter(|&(_, &p)| p != usize::MAX)
            .map(|(i, &p)| {
                let atom = Formula::Atom(Atom::Prop(p));
                if value >> i & 1 == 1 {
                    atom
                } else {
                    Formula::Not(Box::new(atom))
                }
            })
            .collect(),
    )
}

/// Labels worlds, asking the model which cards (or propositions) are common
/// knowledge in each drawn world.
struct Labeller<'a> {
    table: &'a Table,
    props: &'a [String],
    model: &'a dyn Backend,
    /// `(location, kind, n)` → the worlds where `C (#loc(kind) >= n)` holds.
    common: HashMap<(usize, Kind, u32), BTreeSet<WorldId>>,
    /// Proposition → the worlds where `C p` holds.
    common_props: HashMap<usize, BTreeSet<WorldId>>,
    /// `(variable, value)` → the worlds where `C (variable = value)` holds.
    common_values: HashMap<(usize, u64), BTreeSet<WorldId>>,
    /// Locations whose rows are left out.
    hide: Vec<usize>,
    /// A world's name.
    name: Naming<'a>,
}

impl<'a> Labeller<'a> {
    fn new(
        table: &'a Table,
        props: &'a [String],
        model: &'a dyn Backend,
        worlds: &[WorldId],
        name: Naming<'a>,
    ) -> Result<Labeller<'a>, FigureError> {
        let everyone: Vec<Agent> = (0..model.agents()).collect();
        let items = label_items(props);
        let ck = |f: Formula| -> Result<BTreeSet<WorldId>, FigureError> {
            let f = Formula::C(everyone.clone(), Box::new(f));
            let sat = model
                .satisfying(&f)
                .map_err(|e| FigureError::Engine(e.to_string()))?;
            Ok(sat.into_iter().collect())
        };
        let mut common = HashMap::new();
        let mut common_props = HashMap::new();
        let mut common_values = HashMap::new();
        for &w in worlds {
            let view = model.world(w);
            for (loc, at) in view.cards.iter().enumerate() {
                for (kind, &count) in at.iter().enumerate() {
                    for n in 1..=count {
                        if let Entry::Vacant(e) = common.entry((loc, kind, n)) {
                            let kinds = vec![kind];
                            e.insert(ck(Formula::Atom(Atom::Count {
                                loc,
                                kinds,
                                cmp: Cmp::Ge,
                                n,
                            }))?);
                        }
                    }
                }
            }
            for item in &items {
                match item {
                    Label::Prop(p) => {
                        if let (true, Entry::Vacant(e)) = (view.props[*p], common_props.entry(*p)) {
                            let f = Formula::Atom(Atom::Prop(*p));
                            e.insert(ck(f)?);
                        }
                    }
                    Label::Value(v, _, bits) => {
                        let value = value_of(bits, &view.props);
                        if let Entry::Vacant(e) = common_values.entry((*v, value)) {
                            e.insert(ck(value_formula(bits, value))?);
                        }
                    }
                }
            }
        }
        Ok(Labeller {
            table,
            props,
            model,
            common,
            common_props,
            common_values,
            hide: Vec::new(),
            name,
        })
    }

    fn node(&self, w: WorldId) -> Node {
        let view = self.model.world(w);
        let mut lines = Vec::new();
        if !self.table.deck.kinds.is_empty() {
            for (l, counts) in view.cards.iter().enumerate() {
                if self.drawn(l, counts) {
                    lines.push(self.cards_line(w, l, counts));
                }
            }
        }
        if !self.props.is_empty() || self.table.deck.kinds.is_empty() {
            lines.push(self.props_line(w, &view.props));
        }
        Node {
            id: (self.name)(w),
            world: Some(w),
            lines,
        }
    }

    /// Whether location `l`'s line is drawn in a world where it holds
    /// `counts`: a hand always, another place when it holds a card.
    fn drawn(&self, l: usize, counts: &[u32]) -> bool {
        let empty = counts.iter().all(|&n| n == 0);
        !(self.hide.contains(&l)
            || (empty && !matches!(self.table.locations[l].kind, LocKind::Hand(_))))
    }

    /// What the worlds `worlds` (two or more) hold in common, place by
    /// place, and their labels without it; `None` when they share nothing
    /// a label shows. A place is taken out when it holds some card in
    /// every world (those cards leave its line, and the line goes when
    /// nothing is left in any world) or is drawn empty in every world.
    fn shared(&self, worlds: &[WorldId]) -> Option<Shared> {
        if self.table.deck.kinds.is_empty() || worlds.len() < 2 {
            return None;
        }
        let views: Vec<_> = worlds.iter().map(|&w| self.model.world(w)).collect();
        let mut places = Vec::new();
        for l in 0..self.table.locations.len() {
            if !views.iter().any(|v| self.drawn(l, &v.cards[l])) {
                continue;
            }
            let min: Vec<u32> = (0..self.table.deck.kinds.len())
                .map(|k| views.iter().map(|v| v.cards[l][k]).min().unwrap_or(0))
                .collect();
            let everywhere_empty = views.iter().all(|v| v.cards[l].iter().all(|&n| n == 0));
            if min.iter().any(|&n| n > 0) || everywhere_empty {
                places.push((l, min));
            }
        }
        if places.is_empty() {
            return None;
        }
        // A place whose line would be empty in every world loses it.
        let gone: Vec<usize> = places
            .iter()
            .filter(|(l, min)| views.iter().all(|v| v.cards[*l] == *min))
            .map(|(l, _)| *l)
            .collect();
        let lines = worlds
            .iter()
            .zip(&views)
            .map(|(&w, view)| {
                let mut lines = Vec::new();
                for (l, counts) in view.cards.iter().enumerate() {
                    if !self.drawn(l, counts) || gone.contains(&l) {
                        continue;
                    }
                    let less = places
                        .iter()
                        .find(|(p, _)| *p == l)
                        .map(|(_, m)| m.as_slice());
                    lines.push(self.cards_line_less(w, l, counts, less));
                }
                if !self.props.is_empty() {
                    lines.push(self.props_line(w, &view.props));
                }
                lines
            })
            .collect();
        let deck = &self.table.deck;
        let said: Vec<String> = places
            .iter()
            .map(|(l, min)| {
                let name = &self.table.locations[*l].name;
                if min.iter().all(|&n| n == 0) {
                    format!("{name}: no cards")
                } else {
                    format!("{name}: {}", deck.show_cards(min))
                }
            })
            .collect();
        Some(Shared {
            note: format!(
                "left out of the boxes, the same in every world: {}",
                said.join("; ")
            ),
            lines,
            places,
        })
    }

    /// `1: QQA`, the cards in the deck's order (as `worlds`, `why` and the
    /// world panel write them), the commonly known copies of each kind
    /// (`QQ`) first among its copies and marked.
    fn cards_line(&self, w: WorldId, l: usize, counts: &[u32]) -> Vec<Segment> {
        self.cards_line_less(w, l, counts, None)
    }

    /// [`Labeller::cards_line`] without the cards `less` (per kind; they
    /// come out of the commonly known part first).
    fn cards_line_less(
        &self,
        w: WorldId,
        l: usize,
        counts: &[u32],
        less: Option<&[u32]>,
    ) -> Vec<Segment> {
        let deck = &self.table.deck;
        let less = |k: usize| less.map_or(0, |m| m[k]);
        let mut line = vec![Segment::plain(format!(
            "{}: ",
            self.table.locations[l].name
        ))];
        // Each card once, in the deck's order, marked when commonly known.
        let mut cards: Vec<(usize, bool)> = Vec::new();
        for (k, &c) in counts.iter().enumerate() {
            let run = (1..=c)
                .take_while(|&n| self.common[&(l, k, n)].contains(&w))
                .count() as u32;
            let known = run.saturating_sub(less(k));
            let shown = c - less(k).min(c);
            for i in 0..shown {
                cards.push((k, i < known));
            }
        }
        if cards.is_empty() {
            line.push(Segment::plain(deck.show_cards(&vec![0; counts.len()])));
            return line;
        }
        let sep = if deck.short_names() { "" } else { " " };
        let mut i = 0;
        while i < cards.len() {
            let common = cards[i].1;
            let mut j = i;
            while j < cards.len() && cards[j].1 == common {
                j += 1;
            }
            let text: Vec<&str> = cards[i..j]
                .iter()
                .map(|&(k, _)| deck.kinds[k].name.as_str())
                .collect();
            if i > 0 && !sep.is_empty() {
                line.push(Segment::plain(sep.to_string()));
            }
            line.push(Segment {
                text: text.join(sep),
                common,
            });
            i = j;
        }
        line
    }

    fn props_line(&self, w: WorldId, values: &[bool]) -> Vec<Segment> {
        let mut line = Vec::new();
        for item in label_items(self.props) {
            let segment = match item {
                Label::Prop(p) if values[p] => Segment {
                    text: self.props[p].clone(),
                    common: self.common_props[&p].contains(&w),
                },
                Label::Prop(_) => continue,
                Label::Value(v, name, bits) => {
                    let value = value_of(&bits, values);
                    Segment {
                        text: format!("{name}={value}"),
                        common: self.common_values[&(v, value)].contains(&w),
                    }
                }
            };
            if !line.is_empty() {
                line.push(Segment::plain(" "));
            }
            line.push(segment);
        }
        if line.is_empty() {
            line.push(Segment::plain("(no proposition true)"));
        }
        line
    }
}

/// Whether the worlds `view` draws are more than it may draw, or cannot be
/// listed one by one.
pub fn too_large(model: &dyn Backend, view: &View) -> bool {
    if !model.can_list() {
        return true;
    }
    let limit = view.max_nodes as u128;
    match view.only {
        // The worlds `only P` draws: those P considers possible, with the
        // actual world (among them on an S5 model).
        Some(p) => model.considers(p) > limit,
        None => model.world_count() > limit,
    }
}

/// The card a projection shows: the first of `hints` whose place some
/// agent does not know in the actual world, else the first such kind of
/// the deck, else the first hint or the deck's first kind. `None` when the
/// deck has no cards.
pub fn choose_card(
    table: &Table,
    model: &dyn Backend,
    hints: &[Kind],
) -> Result<Option<Kind>, FigureError> {
    let kinds = table.deck.kinds.len();
    if kinds == 0 {
        return Ok(None);
    }
    let actual = model.actual_cards();
    let unsure = |kind: Kind| -> Result<bool, FigureError> {
        let here = Formula::And(
            (0..actual.len())
                .map(|loc| {
                    Formula::Atom(Atom::Count {
                        loc,
                        kinds: vec![kind],
                        cmp: Cmp::Eq,
                        n: actual[loc][kind],
                    })
                })
                .collect(),
        );
        let someone = Formula::Or(
            (0..model.agents())
                .map(|a| Formula::Not(Box::new(Formula::K(a, Box::new(here.clone())))))
                .collect(),
        );
        model
            .eval_actual(&someone)
            .map_err(|e| FigureError::Engine(e.to_string()))
    };
    let candidates = hints.iter().copied().filter(|&k| k < kinds).chain(0..kinds);
    for kind in candidates {
        if unsure(kind)? {
            return Ok(Some(kind));
        }
    }
    Ok(Some(
        hints.iter().copied().find(|&k| k < kinds).unwrap_or(0),
    ))
}

/// A figure of the actual world alone, for a model too large to draw that
/// has no cards to project on: the legend says so and gives the counts.
fn actual_alone(
    table: &Table,
    props: &[String],
    model: &dyn Backend,
    view: &View,
    counts: Counts,
) -> Figure {
    let world = model.actual_world();
    let mut lines: Vec<Vec<Segment>> = Vec::new();
    // A model of variables has locations (the players' hands) but no cards:
    // its world is its values alone.
    for (loc, cards) in table.locations.iter().zip(&world.cards) {
        if cards.iter().all(|&n| n == 0) && !matches!(loc.kind, LocKind::Hand(_)) {
            continue;
        }
        lines.push(vec![Segment::plain(format!(
            "{}: {}",
            loc.name,
            table.deck.show_cards(cards)
        ))]);
    }
    let true_props: Vec<String> = label_items(props)
        .into_iter()
        .filter_map(|item| match item {
            Label::Prop(p) => world.props[p].then(|| props[p].clone()),
            Label::Value(_, name, bits) => {
                Some(format!("{name}={}", value_of(&bits, &world.props)))
            }
        })
        .collect();
    if !props.is_empty() || lines.is_empty() {
        lines.push(vec![Segment::plain(if true_props.is_empty() {
            "(no proposition true)".to_string()
        } else {
            true_props.join(" ")
        })]);
    }
    let node = Node {
        id: "actual".into(),
        world: None,
        lines,
    };
    let mut fig = finish(
        table,
        model,
        view,
        (vec![node], Vec::new()),
        Some(0),
        Vec::new(),
    );
    fig.caption =
        "the actual world alone (too many worlds to draw, and no card to project on)".into();
    fig.counts = Some(Box::new(counts));
    fig
}
