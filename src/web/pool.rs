//! The worker threads that own the lecture sessions.
//!
//! Models are shared inside a session through `Rc`, so a session never
//! leaves its thread: each worker owns the sessions whose id hashes to it
//! and runs the closures the HTTP handlers send it, one at a time. A
//! handler waits for its answer at most the evaluation time limit; a job
//! whose handler gave up commits nothing, so a request that timed out
//! leaves its session as it was. Each job runs under a cancel token of its
//! own ([`crate::engine::cancel::Token`]) with the request's deadline, which
//! the handler also cancels when it stops waiting (the time limit, or the
//! client gone): the engine stops the job at its next step, so the
//! session's next request does not queue behind an abandoned computation.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::lecture::Lecture;
use super::play::WebGame;
use crate::engine::cancel;

/// The sessions one worker owns (lectures and games), with when each was
/// last used.
#[derive(Default)]
pub struct Sessions {
    map: HashMap<String, (Lecture, Instant)>,
    games: HashMap<String, (WebGame, Instant)>,
    idle: Duration,
    max: usize,
}

impl Sessions {
    /// Forgets sessions idle for longer than the expiry time.
    fn sweep(&mut self) {
        let idle = self.idle;
        self.map.retain(|_, (_, used)| used.elapsed() < idle);
        self.games.retain(|_, (_, used)| used.elapsed() < idle);
    }

    fn full(&self) -> Result<(), String> {
        if self.map.len() + self.games.len() >= self.max {
            return Err(format!(
                "the server holds its most sessions ({}); try again later",
                self.max
            ));
        }
        Ok(())
    }

    /// The game `id`, marked as used now.
    pub fn game(&mut self, id: &str) -> Option<&mut WebGame> {
        let (game, used) = self.games.get_mut(id)?;
        *used = Instant::now();
        Some(game)
    }

    /// Keeps `game` as game `id`; refused when the worker is full.
    pub fn insert_game(&mut self, id: String, game: WebGame) -> Result<(), String> {
        if !self.games.contains_key(&id) {
            self.full()?;
        }
        self.games.insert(id, (game, Instant::now()));
        Ok(())
    }

    /// The session `id`, marked as used now.
    pub fn get(&mut self, id: &str) -> Option<&mut Lecture> {
        let (lecture, used) = self.map.get_mut(id)?;
        *used = Instant::now();
        Some(lecture)
    }

    /// Keeps `lecture` as session `id`; refused when the worker is full.
    pub fn insert(&mut self, id: String, lecture: Lecture) -> Result<(), String> {
        if !self.map.contains_key(&id) {
            self.full()?;
        }
        self.map.insert(id, (lecture, Instant::now()));
        Ok(())
    }
}

type Job = Box<dyn FnOnce(&mut Sessions) + Send>;

/// The workers and their queues.
pub struct Pool {
    queues: Vec<mpsc::Sender<Job>>,
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
    /// Its worker is gone.
    Gone,
}

impl Pool {
    /// Starts `workers` threads; sessions expire after `idle`, at most
    /// `max` per worker; requests may take `limit`.
    pub fn new(workers: usize, idle: Duration, max: usize, limit: Duration) -> Pool {
        let queues = (0..workers.max(1))
            .map(|_| {
                let (tx, rx) = mpsc::channel::<Job>();
                std::thread::spawn(move || {
                    let mut sessions = Sessions {
                        map: HashMap::new(),
                        games: HashMap::new(),
                        idle,
                        max,
                    };
                    while let Ok(job) = rx.recv() {
                        sessions.sweep();
                        job(&mut sessions);
                    }
                });
                tx
            })
            .collect();
        Pool {
            queues,
            next: AtomicU64::new(0),
            seed: std::collections::hash_map::RandomState::new()
                .build_hasher()
                .finish(),
            limit,
        }
    }

    /// A fresh, hard-to-guess session id.
    pub fn new_id(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(self.seed ^ n);
        format!("{:016x}{:04x}", h.finish(), n % 0x10000)
    }

    fn worker(&self, id: &str) -> &mpsc::Sender<Job> {
        let sum = id
            .bytes()
            .fold(0usize, |a, b| a.wrapping_mul(31).wrapping_add(b as usize));
        &self.queues[sum % self.queues.len()]
    }

    /// Runs `f` on the worker that owns session `id`; `f` is told whether
    /// its caller still waits (commit nothing when it does not). The
    /// engine stops `f` at its next step once the time limit passes.
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
        let (tx, rx) = oneshot::channel();
        // The handler gives up at the limit and cancels the token then; the
        // token's own deadline, a little later, stops the job even if the
        // handler's side is slow to wake.
        let deadline = Instant::now() + self.limit + Duration::from_millis(250);
        let token = cancel::Token::new(cancellable.then_some(deadline));
        // Cancels the job when this future ends without its answer: the
        // time limit below, or the client gone (the future dropped).
        struct StopUnlessDone(cancel::Token, bool, bool);
        impl Drop for StopUnlessDone {
            fn drop(&mut self) {
                if !self.1 && self.2 {
                    self.0.cancel();
                }
            }
        }
        let mut guard = StopUnlessDone(token.clone(), false, cancellable);
        let job: Job = Box::new(move |s: &mut Sessions| {
            let waiting = || !tx.is_closed() && !token.is_cancelled();
            let out = cancel::with_token(&token, || f(s, &waiting));
            let _ = tx.send(out);
        });
        self.worker(id).send(job).map_err(|_| Failure::Gone)?;
        let answer = tokio::time::timeout(self.limit, rx).await;
        guard.1 = answer.as_ref().is_ok_and(|a| a.is_ok());
        drop(guard);
        match answer {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(_)) => Err(Failure::Gone),
            Err(_) => Err(Failure::Timeout(self.limit)),
        }
    }
}
