//! `dealer serve`: the lecture view in a browser.
//!
//! A small JSON API (documented in docs/web.md) over [`lecture::Lecture`]
//! sessions, each on a thread of its own ([`pool`]), and one page of
//! plain HTML, CSS and JavaScript embedded in the binary. The server binds
//! the loopback interface unless told otherwise; every request is bounded
//! (body size, model size, time), a refused request leaves its session as
//! it was, and scenario files are read only from under the scenario root.

pub mod lecture;
pub mod play;
pub mod pool;
pub mod quiz;

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args;
use serde::Deserialize;
use serde_json::json;

use crate::figure::build::View;
use crate::figure::render::Format;
use crate::interp::Options;
use lecture::Lecture;
pub use pool::Limits;
use pool::{Failure, Pool};

/// The most bytes a request body may have.
pub const MAX_BODY: usize = 256 * 1024;
/// The largest model a web session may build.
pub const MAX_WORLDS: u128 = 2_000_000;

/// `dealer serve` options.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The address to listen on (loopback by default: only this machine).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The folder scenarios are loaded from.
    #[arg(long, default_value = "scenarios")]
    pub root: PathBuf,
    /// Seconds one request may take.
    #[arg(long, default_value_t = 20)]
    pub time_limit: u64,
    /// MiB all sessions together may take (as estimated); past it the
    /// least recently used sessions are closed.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory_limit: u64,
}

/// What the handlers share.
pub struct App {
    pool: Pool,
    root: PathBuf,
    limits: Limits,
    /// The strategies' checks, kept for the games that seat them again.
    checks: Arc<crate::strategy::knowledge::Checks>,
}

type Shared = Arc<App>;

/// An error answer: a status and a JSON body `{ "error": ..., "problem": ... }`.
pub struct ApiError(StatusCode, serde_json::Value);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(self.1)).into_response()
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, json!({ "error": message.into() }))
}

/// A room's refusal as a bad request: its headline and its code.
fn refused(report: crate::diag::Report) -> ApiError {
    ApiError(
        StatusCode::BAD_REQUEST,
        json!({ "error": report.plain(), "code": report.code() }),
    )
}

fn failure(f: Failure) -> ApiError {
    match f {
        // Not 408 (Request Timeout), which browsers re-send on their own:
        // the work was stopped, and only the person should ask again.
        Failure::Timeout(d) => ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            json!({ "error": format!(
                "this took longer than the time limit of {} s and was stopped; the session is as it was before",
                d.as_secs()
            ), "code": "time-limit" }),
        ),
        Failure::Gone => ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({ "error": "the session's thread stopped; load the scenario again" }),
        ),
        Failure::Panic(message) => ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({ "error": format!(
                "dealer failed on this request (a bug, please report it: {message}); the request was stopped, the server and the other sessions go on"
            ), "code": "internal" }),
        ),
        Failure::Closed => ApiError(
            StatusCode::GONE,
            json!({ "error": "this session was closed to free memory; load the scenario again", "code": "closed" }),
        ),
        Failure::Stopping => ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            json!({ "error": "the session is still stopping an earlier request, in a step the engine cannot interrupt (building a large deal); the session is as it was: ask again in a moment", "code": "stopping" }),
        ),
    }
}

fn no_session() -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        json!({ "error": "no such session (it may have expired): load the scenario again" }),
    )
}

/// Resolves `path` under `root`, refusing anything that could leave it.
pub fn safe_path(root: &Path, path: &str) -> Result<PathBuf, String> {
    let rel = Path::new(path);
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain || path.is_empty() || path.contains('\\') {
        return Err(format!(
            "{path:?}: only plain paths inside the scenario folder can be loaded"
        ));
    }
    if rel.extension().and_then(|e| e.to_str()) != Some("deal") {
        return Err(format!("{path:?}: only .deal scenarios can be loaded"));
    }
    let root = root
        .canonicalize()
        .map_err(|e| format!("the scenario folder: {e}"))?;
    let full = root
        .join(rel)
        .canonicalize()
        .map_err(|_| format!("{path:?}: no such scenario"))?;
    if !full.starts_with(&root) {
        return Err(format!("{path:?}: outside the scenario folder"));
    }
    Ok(full)
}

/// The `.deal` files under the scenario root, as paths relative to it.
fn scenario_list(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>, depth: usize) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let is_link = e.file_type().is_ok_and(|t| t.is_symlink());
            if p.is_dir() && !is_link && depth < 4 {
                walk(&p, root, out, depth + 1);
            } else if p.extension().is_some_and(|x| x == "deal") {
                if let Ok(rel) = p.strip_prefix(root) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out, 0);
    out.sort();
    out
}

/// The router, with the page, the API and the default bounds but the
/// time limit.
pub fn router(root: PathBuf, limit: Duration) -> Router {
    router_with(
        root,
        Limits {
            time: limit,
            ..Limits::default()
        },
    )
}

/// The router, with the page, the API and the bounds of `limits`.
pub fn router_with(root: PathBuf, limits: Limits) -> Router {
    let app = Arc::new(App {
        pool: Pool::new(&limits),
        root,
        limits,
        checks: Arc::default(),
    });
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/app.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], SCRIPT) }),
        )
        .route(
            "/style.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css")], STYLE) }),
        )
        // The page's icon, also where browsers look for one unasked.
        .route("/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .route(
            "/deal.tmLanguage.json",
            get(|| async { ([(header::CONTENT_TYPE, "application/json")], GRAMMAR) }),
        )
        .route("/api/scenarios", get(scenarios))
        .route("/api/sessions", post(create))
        .route("/api/sessions/{id}", get(state).put(edit))
        .route("/api/sessions/{id}/step", post(step))
        .route("/api/sessions/{id}/back", post(back))
        .route("/api/sessions/{id}/goto", post(goto))
        .route("/api/sessions/{id}/query", post(query))
        .route("/api/sessions/{id}/cancel", post(cancel_jobs))
        .route("/api/sessions/{id}/figure", get(figure))
        .route("/api/sessions/{id}/world/{w}", get(world))
        .route("/api/sessions/{id}/perspective", get(perspective))
        .route(
            "/quiz.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], quiz::SCRIPT) }),
        )
        .route("/api/sessions/{id}/quiz", get(quiz::questions))
        .route("/api/sessions/{id}/quiz/{index}", post(quiz::answer))
        .route("/play", get(|| async { Html(PLAY_PAGE) }))
        .route(
            "/play.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], PLAY_SCRIPT) }),
        )
        .route("/api/games", get(games).post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/move", post(game_move))
        .route("/api/games/{id}/agent", post(game_agent))
        .route("/api/games/{id}/lecture", post(game_lecture))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

const PAGE: &str = include_str!("page/index.html");
const FAVICON: &str = include_str!("page/favicon.svg");

async fn favicon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON)
}
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");
/// The editor grammar dealer ships, which the page's editor colours with.
const GRAMMAR: &str = include_str!("../../editors/vscode/syntaxes/deal.tmLanguage.json");
const PLAY_PAGE: &str = include_str!("page/play.html");
const PLAY_SCRIPT: &str = include_str!("page/play.js");

/// Runs the server until it is stopped.
pub fn serve(args: &ServeArgs) -> Result<(), String> {
    let addr: SocketAddr = format!("{}:{}", args.host, args.port)
        .parse()
        .map_err(|e| format!("--host {} --port {}: {e}", args.host, args.port))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let limits = Limits {
        time: Duration::from_secs(args.time_limit),
        memory: args.memory_limit << 20,
        ..Limits::default()
    };
    let app = router_with(args.root.clone(), limits);
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        eprintln!("dealer serve: open http://{addr}/ (Ctrl-C stops)");
        axum::serve(listener, app).await.map_err(|e| e.to_string())
    })
}

fn options() -> Options {
    Options {
        max_worlds: MAX_WORLDS,
        ..Options::default()
    }
}

async fn scenarios(State(app): State<Shared>) -> Json<Vec<String>> {
    Json(scenario_list(&app.root))
}

/// `POST /api/sessions`: `{ "path": "gofish/simplified.deal" }` or `{ "src": "..." }`,
/// with `"view": "quiz"` for a student's session (see [`lecture::State::student`]).
#[derive(Deserialize)]
struct Create {
    path: Option<String>,
    src: Option<String>,
    view: Option<String>,
}

async fn create(
    State(app): State<Shared>,
    Json(req): Json<Create>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (name, src) = match (req.path, req.src) {
        (Some(path), None) => {
            let full = safe_path(&app.root, &path).map_err(bad)?;
            let src = read_scenario(&full, &path, app.limits.file)?;
            (path, src)
        }
        (None, Some(src)) => ("<editor>".to_string(), src),
        _ => return Err(bad("give either \"path\" or \"src\"")),
    };
    let student = match req.view.as_deref() {
        None | Some("" | "lecture" | "hall") => false,
        Some("quiz") => true,
        Some(other) => return Err(bad(format!("view {other:?}: lecture, hall or quiz"))),
    };
    let id = app.pool.new_id();
    let key = id.clone();
    let out = app
        .pool
        .run(&id, move |sessions, waiting| {
            let mut lecture = Lecture::load(&name, &src, options()).map_err(|ps| {
                ApiError(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    json!({ "error": "the scenario has errors", "problems": ps }),
                )
            })?;
            if student {
                lecture.for_student();
            }
            let state = serde_json::to_value(lecture.state()).unwrap_or_default();
            if waiting() {
                sessions.insert(key, lecture).map_err(|e| {
                    ApiError(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": e }))
                })?;
            }
            Ok(state)
        })
        .await
        .map_err(failure)??;
    Ok(Json(json!({ "id": id, "state": out })))
}

/// The text of scenario file `full` (`path` under the root), refused
/// (413) past `limit` bytes before it is read, and never read past it.
fn read_scenario(full: &Path, path: &str, limit: u64) -> Result<String, ApiError> {
    use std::io::Read;
    let too_large = |size: u64| {
        ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({ "error": format!(
                "{path}: the file has {} bytes, more than the {} bytes a scenario may have",
                crate::diag::thousands(size),
                crate::diag::thousands(limit)
            ) }),
        )
    };
    let file = std::fs::File::open(full).map_err(|e| bad(format!("{path}: {e}")))?;
    let size = file
        .metadata()
        .map_err(|e| bad(format!("{path}: {e}")))?
        .len();
    if size > limit {
        return Err(too_large(size));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("{path}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|_| bad(format!("{path}: the file is not UTF-8 text")))
}

/// Runs `f` on a copy of session `id` and keeps the copy when it succeeds
/// in time; answers the session's state.
async fn change(
    app: &App,
    id: String,
    f: impl FnOnce(&mut Lecture) -> Result<(), ApiError> + Send + 'static,
) -> Result<Json<serde_json::Value>, ApiError> {
    let key = id.clone();
    app.pool
        .run(&id, move |sessions, waiting| {
            let mut copy = sessions.get(&key).ok_or_else(no_session)?.clone();
            f(&mut copy)?;
            let state = serde_json::to_value(copy.state()).unwrap_or_default();
            if waiting() {
                if let Some(l) = sessions.get(&key) {
                    *l = copy;
                }
            }
            Ok(Json(state))
        })
        .await
        .map_err(failure)?
}

async fn state(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    change(&app, id, |_| Ok(())).await
}

async fn step(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    change(&app, id, |l| {
        l.step();
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
struct Back {
    n: Option<usize>,
}

async fn back(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Json(req): Json<Back>,
) -> Result<Json<serde_json::Value>, ApiError> {
    change(&app, id, move |l| {
        l.back(req.n.unwrap_or(1));
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
struct Goto {
    name: String,
}

async fn goto(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Json(req): Json<Goto>,
) -> Result<Json<serde_json::Value>, ApiError> {
    change(&app, id, move |l| l.goto(&req.name).map_err(bad)).await
}

#[derive(Deserialize)]
struct Edit {
    src: String,
}

/// `PUT /api/sessions/{id}`: new text for the scenario, re-run to the same step.
async fn edit(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Json(req): Json<Edit>,
) -> Result<Json<serde_json::Value>, ApiError> {
    change(&app, id, move |l| {
        if l.is_student() {
            return Err(bad("a quiz session's scenario cannot be edited"));
        }
        let steps = l.state().step;
        let mut fresh = Lecture::load("<editor>", &req.src, options()).map_err(|ps| {
            ApiError(
                StatusCode::UNPROCESSABLE_ENTITY,
                json!({ "error": "the scenario has errors", "problems": ps }),
            )
        })?;
        for _ in 0..steps {
            fresh.step();
        }
        *l = fresh;
        Ok(())
    })
    .await
}

/// `POST /api/sessions/{id}/cancel`: the page's Cancel button. Stops the
/// session's requests under way at the engine's next step (each answers
/// as interrupted and changes nothing), without waiting in the session's
/// queue; answers `{ "cancelled": N }`, the number of requests stopped.
async fn cancel_jobs(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Json<serde_json::Value> {
    Json(json!({ "cancelled": app.pool.cancel(&id) }))
}

#[derive(Deserialize)]
struct Ask {
    q: String,
}

async fn query(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Json(req): Json<Ask>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let key = id.clone();
    let panic_on = app.limits.panic_on_query.clone();
    app.pool
        .run(&id, move |sessions, _| {
            let l = sessions.get(&key).ok_or_else(no_session)?;
            if l.is_student() {
                return Err(ApiError(
                    StatusCode::FORBIDDEN,
                    json!({ "error": "the quiz view answers only its questions: give an answer to one", "code": "quiz" }),
                ));
            }
            if panic_on.as_deref() == Some(req.q.as_str()) {
                panic!("the test's panic on the query {:?}", req.q);
            }
            match l.query(&req.q) {
                Ok(lines) => Ok(Json(json!({ "lines": lines }))),
                Err(p) => Err(ApiError(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    json!({ "error": p.message.clone(), "problem": p }),
                )),
            }
        })
        .await
        .map_err(failure)?
}

/// `GET /api/sessions/{id}/world/{w}`: one world of the current model.
async fn world(
    State(app): State<Shared>,
    UrlPath((id, w)): UrlPath<(String, usize)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let key = id.clone();
    app.pool
        .run(&id, move |sessions, _| {
            let l = sessions.get(&key).ok_or_else(no_session)?;
            let info = l.world(w).map_err(bad)?;
            Ok(Json(serde_json::to_value(info).unwrap_or_default()))
        })
        .await
        .map_err(failure)?
}

/// `?agents=0,1&access=C`: a perspective (one agent without `access`).
#[derive(Deserialize)]
struct PerspectiveQuery {
    agents: String,
    access: Option<String>,
}

/// The agents of a comma-separated list of indices.
fn agent_list(text: &str) -> Result<Vec<usize>, ApiError> {
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| bad(format!("agents: {s:?} is not an agent's number")))
        })
        .collect()
}

/// The group access a perspective names: `E`, `C`, `D`, or `K` for one
/// agent (its worlds are those `E` of that agent alone gives).
fn access_of(access: &str, agents: &[usize]) -> Result<crate::engine::GroupAccess, ApiError> {
    use crate::engine::GroupAccess;
    match access {
        "K" if agents.len() == 1 => Ok(GroupAccess::Everybody),
        "K" => Err(bad(
            "K is one agent's perspective; for a group use E, C or D",
        )),
        "E" => Ok(GroupAccess::Everybody),
        "C" => Ok(GroupAccess::Common),
        "D" => Ok(GroupAccess::Distributed),
        other => Err(bad(format!("access {other:?}: K, E, C or D"))),
    }
}

/// `GET /api/sessions/{id}/perspective?agents=0,1&access=E`: the worlds
/// the perspective highlights in the actual world.
async fn perspective(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<PerspectiveQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let agents = agent_list(&q.agents)?;
    let access = match q.access.as_deref() {
        None | Some("") | Some("K") => None,
        Some(other) => Some(access_of(other, &agents)?),
    };
    let key = id.clone();
    app.pool
        .run(&id, move |sessions, _| {
            let l = sessions.get(&key).ok_or_else(no_session)?;
            let worlds = l.perspective(&agents, access).map_err(bad)?;
            Ok(Json(json!({ "worlds": worlds })))
        })
        .await
        .map_err(failure)?
}

/// `GET /api/sessions/{id}/figure?format=svg&agents=0,1&access=C&for=2_A&only=0`
/// (`agent=N` for one agent, as before; `only=N` draws the worlds agent N
/// considers possible). With `access` (`K` for one
/// agent, `E`, `C`, `D` for a group), the perspective's worlds are shaded
/// in the figure itself, so that a download keeps them.
#[derive(Deserialize)]
struct FigureQuery {
    format: Option<String>,
    agent: Option<usize>,
    agents: Option<String>,
    access: Option<String>,
    #[serde(rename = "for")]
    card: Option<String>,
    /// `only=N`: the worlds agent N considers possible.
    only: Option<usize>,
    /// `hide=stock,table`: locations whose rows the boxes leave out.
    hide: Option<String>,
    /// `all=1`: every world, not only those reachable from the actual one.
    all: Option<u8>,
    /// `fit=hall`: the lecture hall's figure (see [`lecture::HALL_BOXES`]
    /// and [`crate::figure::hall`]).
    fit: Option<String>,
    /// `aspect=1.9`: the hall figure's screen, its width over its height.
    aspect: Option<f64>,
    /// `layout=screen`: laid out as the hall's figure (for a box `aspect`
    /// times as wide as high, every text at the label size, the legend in
    /// `data-legend`), with the usual bound on boxes.
    layout: Option<String>,
}

async fn figure(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<FigureQuery>,
) -> Result<Response, ApiError> {
    let (format, mime) = match q.format.as_deref().unwrap_or("svg") {
        "svg" => (Format::Svg, "image/svg+xml"),
        "dot" => (Format::Dot, "text/vnd.graphviz"),
        "png" => (Format::Png, "image/png"),
        other => {
            return Err(bad(format!(
                "unknown figure format {other:?}: svg, dot or png"
            )))
        }
    };
    let drawn = match (&q.agents, q.agent) {
        (Some(list), _) if !list.is_empty() => Some(agent_list(list)?),
        (_, Some(a)) => Some(vec![a]),
        _ => None,
    };
    let highlight = match (q.access.as_deref(), &drawn) {
        (None | Some(""), _) => None,
        (Some(_), None) => return Err(bad("access needs agents")),
        (Some(access), Some(group)) => Some((access_of(access, group)?, group.clone())),
    };
    let key = id.clone();
    let (bytes, projected) = app
        .pool
        .run(&id, move |sessions, _| {
            let l = sessions.get(&key).ok_or_else(no_session)?;
            let card = q
                .card
                .as_deref()
                .filter(|c| !c.is_empty())
                .map(|c| l.kind(c))
                .transpose()
                .map_err(bad)?;
            let hide = q
                .hide
                .as_deref()
                .unwrap_or("")
                .split(',')
                .map(str::trim)
                .filter(|h| !h.is_empty())
                .map(|h| l.location(h))
                .collect::<Result<Vec<_>, _>>()
                .map_err(bad)?;
            let hall = match q.fit.as_deref() {
                None | Some("") => false,
                Some("hall") => true,
                Some(other) => return Err(bad(format!("fit {other:?}: only hall"))),
            };
            let view = View {
                card,
                only: q.only,
                agents: drawn,
                highlight,
                hide,
                all: q.all == Some(1),
                max_nodes: if hall {
                    lecture::HALL_BOXES
                } else {
                    crate::figure::build::DEFAULT_MAX_NODES
                },
                ..View::default()
            };
            let fig = l.figure_value(&view).map_err(bad)?;
            let screen = match q.layout.as_deref() {
                None | Some("") => false,
                Some("screen") => true,
                Some(other) => return Err(bad(format!("layout {other:?}: only screen"))),
            };
            // `DEALER_RENDERER=graphviz` keeps Graphviz's figure on the page.
            let graphviz = crate::figure::render::renderer_from_env()
                == crate::figure::render::Renderer::Graphviz;
            let bytes = if (hall || (screen && !graphviz)) && format == Format::Svg {
                crate::figure::hall::to_svg(&fig, q.aspect.unwrap_or(16.0 / 9.0)).into_bytes()
            } else {
                crate::figure::render::render(
                    &fig,
                    format,
                    crate::figure::render::renderer_from_env(),
                )
                .map_err(|e| bad(e.to_string()))?
            };
            let projected = fig.projected.map(|p| p.name);
            Ok::<_, ApiError>((bytes, projected))
        })
        .await
        .map_err(failure)??;
    // The card a figure too large to draw was projected on, for the
    // page's card menu.
    let mut response = ([(header::CONTENT_TYPE, mime)], bytes).into_response();
    if let Some(name) = projected.and_then(|n| header::HeaderValue::from_str(&n).ok()) {
        response.headers_mut().insert("x-dealer-projected", name);
    }
    Ok(response)
}

/// `GET /api/games`: the games that can be played, with their players and
/// the agents offered for each.
async fn games() -> Json<serde_json::Value> {
    let list: Vec<serde_json::Value> = crate::play::game_loop::playable()
        .into_iter()
        .map(|g| json!({ "game": g, "agents": play::agents_for(g) }))
        .collect();
    Json(json!(list))
}

fn no_game() -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        json!({ "error": "no such game (it may have expired): start a new one" }),
    )
}

/// `?reveal=1`: the teaching switch (every hand shown).
#[derive(Deserialize)]
struct Reveal {
    reveal: Option<u8>,
}

/// `POST /api/games`: deals and seats a game (see [`play::NewGame`]).
async fn new_game(
    State(app): State<Shared>,
    Json(req): Json<play::NewGame>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id = app.pool.new_id();
    let key = id.clone();
    let checks = app.checks.clone();
    let state = app
        .pool
        .run_to_end(&id, move |sessions, waiting| {
            let game = play::WebGame::new(&req, options(), &checks).map_err(refused)?;
            let state = game.state(false).map_err(bad)?;
            if waiting() {
                sessions.insert_game(key, game).map_err(|e| {
                    ApiError(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": e }))
                })?;
            }
            Ok::<_, ApiError>(state)
        })
        .await
        .map_err(failure)??;
    Ok(Json(json!({ "id": id, "state": state })))
}

/// Runs `f` on game `id`, then answers its state.
async fn on_game(
    app: &App,
    id: String,
    reveal: bool,
    f: impl FnOnce(&mut play::WebGame) -> Result<(), ApiError> + Send + 'static,
) -> Result<Json<serde_json::Value>, ApiError> {
    let key = id.clone();
    app.pool
        .run_to_end(&id, move |sessions, _| {
            let game = sessions.game(&key).ok_or_else(no_game)?;
            f(game)?;
            let state = game.state(reveal).map_err(bad)?;
            Ok(Json(serde_json::to_value(state).unwrap_or_default()))
        })
        .await
        .map_err(failure)?
}

async fn game_state(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(r): Query<Reveal>,
) -> Result<Json<serde_json::Value>, ApiError> {
    on_game(&app, id, r.reveal == Some(1), |_| Ok(())).await
}

#[derive(Deserialize)]
struct PersonMove {
    #[serde(rename = "move")]
    text: String,
}

/// `POST /api/games/{id}/move`: the person's move; a refused move (400,
/// the rule quoted) leaves the game as it was.
async fn game_move(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(r): Query<Reveal>,
    Json(req): Json<PersonMove>,
) -> Result<Json<serde_json::Value>, ApiError> {
    on_game(&app, id, r.reveal == Some(1), move |g| {
        g.person_move(&req.text).map_err(bad)
    })
    .await
}

/// `POST /api/games/{id}/agent`: one agent's move, when an agent is to
/// move (the page asks until it is the person's turn).
async fn game_agent(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
    Query(r): Query<Reveal>,
) -> Result<Json<serde_json::Value>, ApiError> {
    on_game(&app, id, r.reveal == Some(1), |g| {
        g.agent_move().map(|_| ()).map_err(bad)
    })
    .await
}

/// `POST /api/games/{id}/lecture`: the game so far as a scenario, opened
/// as a lecture session (the page then shows it in the lecture view).
async fn game_lecture(
    State(app): State<Shared>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let key = id.clone();
    let src = app
        .pool
        .run(&id, move |sessions, _| {
            let game = sessions.game(&key).ok_or_else(no_game)?;
            Ok::<_, ApiError>(game.game().scenario())
        })
        .await
        .map_err(failure)??;
    let lecture = app.pool.new_id();
    let key = lecture.clone();
    let name = format!("game {id}");
    app.pool
        .run(&lecture, move |sessions, waiting| {
            let l = Lecture::load(&name, &src, options()).map_err(|ps| {
                ApiError(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    json!({ "error": "the game's scenario has errors", "problems": ps }),
                )
            })?;
            if waiting() {
                sessions.insert(key, l).map_err(|e| {
                    ApiError(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": e }))
                })?;
            }
            Ok::<_, ApiError>(())
        })
        .await
        .map_err(failure)??;
    Ok(Json(
        json!({ "id": lecture, "url": format!("/?session={lecture}") }),
    ))
}
