//! The threads that own the lecture sessions.
//!
//! Models are shared inside a session through `Rc`, so a session never
//! leaves its thread: each session (a lecture or a game) has a thread of
//! its own, which runs the closures the HTTP handlers send it, one at a
//! time. A heavy request of one session therefore never holds up another
//! session's request (the operating system shares the cores between
//! them). A request for an id that has no thread gets a fresh one, which
//! ends after the job unless the job kept a session there (a load).
//!
//! A handler waits for its answer at most the evaluation time limit; a
//! job whose handler gave up commits nothing, so a request that timed out
//! leaves its session as it was. Each job runs under a cancel token of its
//! own ([`crate::engine::cancel::Token`]) with the request's deadline, which
//! the handler also cancels when it stops waiting (the time limit, or the
//! client gone): the engine stops the job at its next step, so the
//! session's next request does not queue behind an abandoned computation.
//! The page's Cancel button does the same at once ([`Pool::cancel`]): it
//! cancels the tokens of every job of the session that a handler still
//! waits for, so the request sent after it is answered as soon as the
//! engine reaches its next step. A stopped job that sits in a step the
//! engine cannot interrupt (one large BDD operation while a deal is built)
//! keeps its thread: the session's next requests wait for it at most
//! half a second and are then refused at once ([`Failure::Stopping`],
//! "ask again in a moment") instead of queueing behind it.
//!
//! A job that panics (a bug in dealer) ends with [`Failure::Panic`]; its
//! thread and session stay, and so do all the other sessions.
//!
//! The pool keeps an estimate of each session's memory
//! ([`super::lecture::Lecture::estimated_bytes`]); when the total passes
//! [`Limits::memory`], the least recently used sessions are closed, and a
//! request to one of them is answered [`Failure::Closed`].

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::lecture::Lecture;
use super::play::WebGame;
use crate::engine::cancel;

/// The server's bounds (`dealer serve`'s flags, docs/web.md "Bounds").
#[derive(Clone, Debug)]
pub struct Limits {
    /// How long a request may take.
    pub time: Duration,
    /// How long a session is kept after its last use.
    pub idle: Duration,
    /// The most sessions (lectures and games) kept at once.
    pub sessions: usize,
    /// The most memory all sessions together may take, in bytes, as
    /// estimated; past it the least recently used sessions are closed.
    pub memory: u64,
    /// The largest scenario file under the root that can be loaded, in bytes.
    pub file: u64,
    /// Tests only: a query with exactly this text panics inside its job
    /// (the released server never sets it), to check that a panicking
    /// job takes nothing else down.
    #[doc(hidden)]
    pub panic_on_query: Option<String>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: Duration::from_secs(20),
            idle: Duration::from_secs(30 * 60),
            sessions: 1000,
            memory: 2 << 30,
            file: crate::syntax::MAX_SOURCE_BYTES as u64,
            panic_on_query: None,
        }
    }
}

/// The session one thread owns (a lecture or a game), as the jobs see it.
pub struct Sessions {
    map: HashMap<String, Lecture>,
    games: HashMap<String, WebGame>,
    registry: Arc<Registry>,
    /// The id this thread serves, and which thread it is.
    key: String,
    thread: u64,
    /// Whether the thread goes on after its last job.
    go_on: bool,
}

impl Sessions {
    /// Refuses a session that would take more than the whole memory bound
    /// alone, or one more when the server holds its most sessions.
    fn admit(&self, id: &str, bytes: u64) -> Result<(), String> {
        let budget = self.registry.limits.memory;
        if bytes > budget {
            return Err(format!(
                "this session would take about {} MB, more than the server's bound of {} MB for all sessions",
                mb(bytes),
                mb(budget)
            ));
        }
        let state = self.registry.lock();
        let others = state
            .live
            .iter()
            .filter(|(k, l)| l.holds && k.as_str() != id)
            .count();
        if others >= self.registry.limits.sessions {
            return Err(format!(
                "the server holds its most sessions ({}); try again later",
                self.registry.limits.sessions
            ));
        }
        Ok(())
    }

    /// The game `id`.
    pub fn game(&mut self, id: &str) -> Option<&mut WebGame> {
        self.games.get_mut(id)
    }

    /// Keeps `game` as game `id`; refused when the server is full.
    pub fn insert_game(&mut self, id: String, game: WebGame) -> Result<(), String> {
        self.admit(&id, game.estimated_bytes())?;
        self.games.insert(id, game);
        Ok(())
    }

    /// The session `id`.
    pub fn get(&mut self, id: &str) -> Option<&mut Lecture> {
        self.map.get_mut(id)
    }

    /// Keeps `lecture` as session `id`; refused when the server is full or
    /// the session alone would pass the memory bound.
    pub fn insert(&mut self, id: String, lecture: Lecture) -> Result<(), String> {
        self.admit(&id, lecture.estimated_bytes())?;
        self.map.insert(id, lecture);
        Ok(())
    }

    /// The estimated bytes of what this thread holds.
    fn bytes(&self) -> u64 {
        let lectures: u64 = self.map.values().map(Lecture::estimated_bytes).sum();
        let games: u64 = self.games.values().map(WebGame::estimated_bytes).sum();
        lectures + games
    }

    fn holds(&self) -> bool {
        !self.map.is_empty() || !self.games.is_empty()
    }

    /// After a job, before its answer is sent (so that the next request
    /// sees the closings it caused): the registry's accounting.
    fn settle(&mut self) {
        let registry = self.registry.clone();
        self.go_on = registry.after_job(&self.key, self.thread, self);
    }
}

fn mb(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

type Job = Box<dyn FnOnce(&mut Sessions) + Send>;

/// A session's thread, as the registry knows it.
struct Live {
    tx: mpsc::Sender<Job>,
    /// Which thread this is (an id's thread may end and a new one start).
    thread: u64,
    used: Instant,
    bytes: u64,
    /// Whether the thread holds a session (not only a passing job).
    holds: bool,
}

/// Why sessions were closed, kept for the ids' next requests.
#[derive(Default)]
struct State {
    live: HashMap<String, Live>,
    /// Sessions closed to free memory, the oldest first (at most
    /// [`CLOSED_KEPT`]).
    closed: HashSet<String>,
    closed_order: VecDeque<String>,
    swept: Option<Instant>,
    /// The tokens of the cancellable jobs each session's handlers wait
    /// for, by job number (what [`Pool::cancel`] cancels).
    waited: HashMap<String, Vec<(u64, cancel::Token)>>,
    /// The cancellable jobs sent and not yet ended, by job number.
    running: HashSet<u64>,
    /// The sessions whose thread still runs a job that was stopped: the
    /// job's number ([`Failure::Stopping`]).
    stopping: HashMap<String, u64>,
}

impl State {
    /// Notes that job `job` of session `id`, still running, was stopped
    /// (the session's jobs run in order, so the latest one ends last).
    fn stop(&mut self, id: &str, job: u64) {
        let last = self.stopping.entry(id.to_string()).or_insert(job);
        *last = (*last).max(job);
    }
}

/// How long a request waits for its session's stopped job to end before
/// it is refused with [`Failure::Stopping`].
const STOPPING_WAIT: Duration = Duration::from_millis(500);

/// How many closed sessions' ids are remembered.
const CLOSED_KEPT: usize = 100_000;

struct Registry {
    state: Mutex<State>,
    limits: Limits,
    threads: AtomicU64,
    /// Numbers the jobs (for [`State::waited`]).
    jobs: AtomicU64,
}

impl Registry {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic never happens while the lock is held (jobs run outside
        // it), but a poisoned lock still holds consistent data.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// After a job of thread `thread` (session `id`): records its size and
    /// use, and closes the least recently used other sessions while the
    /// total passes the bound. Answers whether the thread goes on.
    fn after_job(&self, id: &str, thread: u64, sessions: &Sessions) -> bool {
        let holds = sessions.holds();
        let bytes = if holds { sessions.bytes() } else { 0 };
        let mut state = self.lock();
        match state.live.get_mut(id) {
            Some(l) if l.thread == thread => {
                if !holds {
                    state.live.remove(id);
                    return false;
                }
                l.bytes = bytes;
                l.used = Instant::now();
                l.holds = true;
            }
            // Closed or expired meanwhile: the thread ends.
            _ => return false,
        }
        let budget = self.limits.memory;
        let mut total: u64 = state.live.values().map(|l| l.bytes).sum();
        while total > budget {
            let oldest = state
                .live
                .iter()
                .filter(|(k, l)| l.holds && k.as_str() != id)
                .min_by_key(|(_, l)| l.used)
                .map(|(k, _)| k.clone());
            let Some(old) = oldest else { break };
            if let Some(l) = state.live.remove(&old) {
                total -= l.bytes;
            }
            remember_closed(&mut state, old);
        }
        true
    }

    /// Forgets sessions idle for longer than the expiry time (at most once
    /// a second); their threads end.
    fn sweep(&self) {
        let mut state = self.lock();
        if state
            .swept
            .is_some_and(|t| t.elapsed() < Duration::from_secs(1))
        {
            return;
        }
        state.swept = Some(Instant::now());
        let idle = self.limits.idle;
        state
            .live
            .retain(|_, l| !l.holds || l.used.elapsed() < idle);
    }
}

fn remember_closed(state: &mut State, id: String) {
    if state.closed_order.len() >= CLOSED_KEPT {
        if let Some(gone) = state.closed_order.pop_front() {
            state.closed.remove(&gone);
        }
    }
    state.closed.insert(id.clone());
    state.closed_order.push_back(id);
}

/// The sessions' threads.
pub struct Pool {
    registry: Arc<Registry>,
    next: AtomicU64,
    seed: u64,
    /// How long a request may take.
    pub limit: Duration,
}

/// Why a job gave no answer.
#[derive(Debug)]
pub enum Failure {
    /// It ran past the time limit.
    Timeout(Duration),
    /// Its thread is gone.
    Gone,
    /// It panicked (a bug in dealer), with the panic's message.
    Panic(String),
    /// Its session was closed to free memory.
    Closed,
    /// Its session's thread is still in an earlier request that was
    /// stopped (its time limit, or Cancel) but sits in a step the engine
    /// cannot interrupt (a single large BDD operation while a deal is
    /// built): refused at once, so that nothing queues behind it.
    Stopping,
}

/// What a job sends back: its answer or its panic's message.
type Outcome<T> = Result<T, String>;

impl Pool {
    /// A pool with the bounds of `limits` (sessions expire after
    /// `limits.idle`, requests may take `limits.time`).
    pub fn new(limits: &Limits) -> Pool {
        Pool {
            registry: Arc::new(Registry {
                state: Mutex::new(State::default()),
                limits: limits.clone(),
                threads: AtomicU64::new(0),
                jobs: AtomicU64::new(0),
            }),
            next: AtomicU64::new(0),
            seed: std::collections::hash_map::RandomState::new()
                .build_hasher()
                .finish(),
            limit: limits.time,
        }
    }

    /// A fresh, hard-to-guess session id.
    pub fn new_id(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(self.seed ^ n);
        format!("{:016x}{:04x}", h.finish(), n % 0x10000)
    }

    /// How many sessions are kept, and their estimated bytes in all.
    pub fn held(&self) -> (usize, u64) {
        let state = self.registry.lock();
        let held = state.live.values().filter(|l| l.holds);
        held.fold((0, 0), |(n, b), l| (n + 1, b + l.bytes))
    }

    /// Cancels every job of session `id` that a handler waits for (the
    /// page's Cancel button): each stops at the engine's next step, commits
    /// nothing and answers as interrupted, so the session's next request
    /// runs at once. A game's move, which runs to its end, is not
    /// cancelled. Answers how many jobs were cancelled.
    pub fn cancel(&self, id: &str) -> usize {
        let mut state = self.registry.lock();
        let Some(list) = state.waited.get(id) else {
            return 0;
        };
        for (_, token) in list {
            token.cancel();
        }
        let n = list.len();
        let last = list
            .iter()
            .map(|(job, _)| *job)
            .filter(|job| state.running.contains(job))
            .max();
        if let Some(job) = last {
            state.stop(id, job);
        }
        n
    }

    /// Waits at most [`STOPPING_WAIT`] for a stopped job of session `id`
    /// to end; `Stopping` if it still runs then.
    async fn wait_for_stopped(&self, id: &str) -> Result<(), Failure> {
        let since = Instant::now();
        while self.registry.lock().stopping.contains_key(id) {
            if since.elapsed() >= STOPPING_WAIT {
                return Err(Failure::Stopping);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(())
    }

    /// The thread of session `id`, started when it has none; `Closed`
    /// for a session closed to free memory.
    fn thread(&self, id: &str) -> Result<mpsc::Sender<Job>, Failure> {
        self.registry.sweep();
        let mut state = self.registry.lock();
        if let Some(l) = state.live.get(id) {
            return Ok(l.tx.clone());
        }
        if state.closed.contains(id) {
            return Err(Failure::Closed);
        }
        let (tx, rx) = mpsc::channel::<Job>();
        let thread = self.registry.threads.fetch_add(1, Ordering::Relaxed);
        let registry = self.registry.clone();
        let key = id.to_string();
        std::thread::Builder::new()
            .name("dealer-session".into())
            .spawn(move || {
                let mut sessions = Sessions {
                    map: HashMap::new(),
                    games: HashMap::new(),
                    registry: registry.clone(),
                    key,
                    thread,
                    go_on: true,
                };
                while let Ok(job) = rx.recv() {
                    job(&mut sessions);
                    if !sessions.go_on {
                        break;
                    }
                }
                // Jobs sent before the thread left the registry still run
                // (a lookup that found nothing, as the session is gone).
                let mut empty = Sessions {
                    map: HashMap::new(),
                    games: HashMap::new(),
                    registry,
                    key: String::new(),
                    thread: u64::MAX,
                    go_on: false,
                };
                drop(sessions);
                while let Ok(job) = rx.try_recv() {
                    job(&mut empty);
                }
            })
            .map_err(|_| Failure::Gone)?;
        state.live.insert(
            id.to_string(),
            Live {
                tx: tx.clone(),
                thread,
                used: Instant::now(),
                bytes: 0,
                holds: false,
            },
        );
        Ok(tx)
    }

    /// Runs `f` on the thread of session `id`; `f` is told whether its
    /// caller still waits (commit nothing when it does not). The engine
    /// stops `f` at its next step once the time limit passes.
    pub async fn run<T: Send + 'static>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Sessions, &dyn Fn() -> bool) -> T + Send + 'static,
    ) -> Result<T, Failure> {
        self.run_with(id, true, f).await
    }

    /// Like [`Pool::run`], but `f` runs to its end even after its caller
    /// gave up (a game's move, which the game keeps when it is made).
    pub async fn run_to_end<T: Send + 'static>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Sessions, &dyn Fn() -> bool) -> T + Send + 'static,
    ) -> Result<T, Failure> {
        self.run_with(id, false, f).await
    }

    async fn run_with<T: Send + 'static>(
        &self,
        id: &str,
        cancellable: bool,
        f: impl FnOnce(&mut Sessions, &dyn Fn() -> bool) -> T + Send + 'static,
    ) -> Result<T, Failure> {
        let (tx, rx) = oneshot::channel::<Outcome<T>>();
        // The handler gives up at the limit and cancels the token then; the
        // token's own deadline, a little later, stops the job even if the
        // handler's side is slow to wake.
        let deadline = Instant::now() + self.limit + Duration::from_millis(250);
        let token = cancel::Token::new(cancellable.then_some(deadline));
        // Cancels the job when this future ends without its answer: the
        // time limit below, or the client gone (the future dropped); and
        // keeps its token where a Cancel finds it while it is waited for.
        struct StopUnlessDone {
            token: cancel::Token,
            answered: bool,
            cancellable: bool,
            registry: Arc<Registry>,
            id: String,
            job: u64,
        }
        impl Drop for StopUnlessDone {
            fn drop(&mut self) {
                if !self.answered && self.cancellable {
                    self.token.cancel();
                }
                if self.cancellable {
                    let mut state = self.registry.lock();
                    if !self.answered && state.running.contains(&self.job) {
                        state.stop(&self.id, self.job);
                    }
                    if let Some(list) = state.waited.get_mut(&self.id) {
                        list.retain(|(n, _)| *n != self.job);
                        if list.is_empty() {
                            state.waited.remove(&self.id);
                        }
                    }
                }
            }
        }
        self.wait_for_stopped(id).await?;
        let job_no = self.registry.jobs.fetch_add(1, Ordering::Relaxed);
        if cancellable {
            let mut state = self.registry.lock();
            let list = state.waited.entry(id.to_string()).or_default();
            list.push((job_no, token.clone()));
            state.running.insert(job_no);
        }
        let ended = {
            let registry = self.registry.clone();
            let id = id.to_string();
            move || {
                let mut state = registry.lock();
                state.running.remove(&job_no);
                if state.stopping.get(&id) == Some(&job_no) {
                    state.stopping.remove(&id);
                }
            }
        };
        let mut guard = StopUnlessDone {
            token: token.clone(),
            answered: false,
            cancellable,
            registry: self.registry.clone(),
            id: id.to_string(),
            job: job_no,
        };
        let job: Job = Box::new(move |s: &mut Sessions| {
            let waiting = || !tx.is_closed() && !token.is_cancelled();
            let out = catch_unwind(AssertUnwindSafe(|| {
                cancel::with_token(&token, || f(s, &waiting))
            }))
            .map_err(|p| panic_message(p.as_ref()));
            s.settle();
            ended();
            let _ = tx.send(out);
        });
        let sent = self.thread(id).and_then(|queue| match queue.send(job) {
            Ok(()) => Ok(()),
            // The thread ended just now (its session closed or gone):
            // once more, on the thread the id has now.
            Err(mpsc::SendError(job)) => self.thread(id)?.send(job).map_err(|_| Failure::Gone),
        });
        if let Err(e) = sent {
            // Never sent: nothing runs that a later request should wait for.
            self.registry.lock().running.remove(&job_no);
            return Err(e);
        }
        let answer = tokio::time::timeout(self.limit, rx).await;
        guard.answered = answer.as_ref().is_ok_and(|a| a.is_ok());
        drop(guard);
        match answer {
            Ok(Ok(Ok(v))) => Ok(v),
            Ok(Ok(Err(message))) => Err(Failure::Panic(message)),
            Ok(Err(_)) => Err(Failure::Gone),
            Err(_) => Err(Failure::Timeout(self.limit)),
        }
    }
}

/// The text a panic was raised with.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}
