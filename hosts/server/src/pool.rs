//! The engine's worker pool: a fixed set of OS threads that run every piece of engine work
//! (loading, running, judging, rendering, acting on sessions), never the async runtime's
//! threads. Interactive requests wait in a bounded queue (full: the request is shed with 503
//! and `Retry-After`); when the queue is empty, workers take batch rows from a [`Feed`], at
//! most `batch_limit` at a time so an interactive request always finds a worker.

use std::collections::VecDeque;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use crate::error::ApiError;

/// A unit of work.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// A source of background work (batch rows), asked for a task when a worker is idle.
pub trait Feed: Send + Sync {
    /// The next task, if there is one.
    fn next_task(&self) -> Option<Task>;
}

struct State {
    queue: VecDeque<Task>,
    batch_running: usize,
    stopping: bool,
    feed: Option<Arc<dyn Feed>>,
    /// Bumped by [`Pool::notify`], so a worker that was asking the feed sees new work.
    generation: u64,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    capacity: usize,
    batch_limit: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The pool.
pub struct Pool {
    shared: Arc<Shared>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool").field("capacity", &self.shared.capacity).finish_non_exhaustive()
    }
}

impl Pool {
    /// Starts `workers` threads with a queue of `capacity` tasks; at most `batch_limit` of the
    /// workers run feed tasks at once.
    pub fn start(workers: usize, capacity: usize, batch_limit: usize) -> Pool {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queue: VecDeque::with_capacity(capacity.min(4096)),
                batch_running: 0,
                stopping: false,
                feed: None,
                generation: 0,
            }),
            wake: Condvar::new(),
            capacity: capacity.max(1),
            batch_limit,
        });
        let threads = (0..workers.max(1))
            .map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("gobo-worker-{i}"))
                    .spawn(move || work(&shared))
                    .unwrap_or_else(|e| panic!("cannot start a worker thread: {e}"))
            })
            .collect();
        Pool { shared, threads: Mutex::new(threads) }
    }

    /// Sets the source of background work.
    pub fn set_feed(&self, feed: Arc<dyn Feed>) {
        self.shared.lock().feed = Some(feed);
        self.notify();
    }

    /// Wakes idle workers: the feed has new work. Must not be called while holding a lock the
    /// feed takes.
    pub fn notify(&self) {
        self.shared.lock().generation += 1;
        self.shared.wake.notify_all();
    }

    /// Tasks waiting in the queue.
    pub fn queued(&self) -> usize {
        self.shared.lock().queue.len()
    }

    /// Runs `f` on a worker and waits for its result; 503 when the queue is full or the pool
    /// is stopping, 500 if `f` panics.
    pub async fn run<R, F>(&self, f: F) -> Result<R, ApiError>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let task: Task = Box::new(move || {
            let result = panic::catch_unwind(AssertUnwindSafe(f));
            let _ = tx.send(result.ok());
        });
        {
            let mut state = self.shared.lock();
            if state.stopping {
                return Err(ApiError::overloaded("the server is shutting down"));
            }
            if state.queue.len() >= self.shared.capacity {
                return Err(ApiError::overloaded(format!(
                    "all {} queue places are taken; retry shortly",
                    self.shared.capacity
                )));
            }
            state.queue.push_back(task);
        }
        self.shared.wake.notify_one();
        match rx.await {
            Ok(Some(r)) => Ok(r),
            _ => Err(ApiError::internal(
                "the engine failed on this request (a bug: please report it)",
            )),
        }
    }

    /// Stops taking feed tasks, lets the queued tasks finish, and joins the workers.
    pub fn shutdown(&self) {
        self.shared.lock().stopping = true;
        self.shared.wake.notify_all();
        let threads =
            std::mem::take(&mut *self.threads.lock().unwrap_or_else(PoisonError::into_inner));
        for t in threads {
            let _ = t.join();
        }
    }
}

fn work(shared: &Shared) {
    let mut state = shared.lock();
    loop {
        if let Some(task) = state.queue.pop_front() {
            drop(state);
            task();
            state = shared.lock();
            continue;
        }
        if state.stopping {
            return;
        }
        if let (true, Some(feed)) = (state.batch_running < shared.batch_limit, state.feed.clone()) {
            // The feed is asked without the pool's lock (it may read the database).
            let seen = state.generation;
            state.batch_running += 1;
            drop(state);
            let task = feed.next_task();
            let ran = task.is_some();
            if let Some(task) = task {
                // A feed task reports its own outcome; a panic is contained here.
                let _ = panic::catch_unwind(AssertUnwindSafe(task));
            }
            state = shared.lock();
            state.batch_running -= 1;
            if ran || state.generation != seen || !state.queue.is_empty() {
                continue;
            }
        }
        state = shared.wake.wait(state).unwrap_or_else(PoisonError::into_inner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn runs_tasks_and_sheds_when_full() {
        let pool = Pool::start(1, 1, 1);
        assert_eq!(pool.run(|| 2 + 2).await.ok(), Some(4));
        // Block the only worker, fill the one queue place, then the next is shed.
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started_rx) = std::sync::mpsc::channel::<()>();
        let pool = Arc::new(pool);
        let p = Arc::clone(&pool);
        let blocked = tokio::spawn(async move {
            p.run(move || {
                let _ = started_tx.send(());
                let _ = hold_rx.recv();
            })
            .await
        });
        started_rx.recv().ok();
        let p = Arc::clone(&pool);
        let queued = tokio::spawn(async move { p.run(|| 1).await });
        while pool.queued() == 0 {
            tokio::task::yield_now().await;
        }
        let shed = pool.run(|| 0).await;
        assert_eq!(shed.err().map(|e| e.status.as_u16()), Some(503));
        let _ = hold_tx.send(());
        assert!(blocked.await.is_ok());
        assert_eq!(queued.await.ok().and_then(Result::ok), Some(1));
        pool.shutdown();
    }

    #[tokio::test]
    async fn a_panic_is_a_500_and_the_worker_survives() {
        let pool = Pool::start(1, 4, 1);
        let r: Result<(), ApiError> = pool.run(|| panic!("boom")).await;
        assert_eq!(r.err().map(|e| e.status.as_u16()), Some(500));
        assert_eq!(pool.run(|| 7).await.ok(), Some(7));
        pool.shutdown();
    }

    struct Counter(AtomicUsize, Arc<AtomicUsize>);

    impl Feed for Counter {
        fn next_task(&self) -> Option<Task> {
            if self.0.fetch_sub(1, Ordering::SeqCst) == 0 {
                self.0.store(0, Ordering::SeqCst);
                return None;
            }
            let done = Arc::clone(&self.1);
            Some(Box::new(move || {
                done.fetch_add(1, Ordering::SeqCst);
            }))
        }
    }

    #[test]
    fn feed_tasks_run_when_idle() {
        let pool = Pool::start(2, 4, 1);
        let done = Arc::new(AtomicUsize::new(0));
        pool.set_feed(Arc::new(Counter(AtomicUsize::new(50), Arc::clone(&done))));
        let start = std::time::Instant::now();
        while done.load(Ordering::SeqCst) < 50 && start.elapsed().as_secs() < 10 {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(done.load(Ordering::SeqCst), 50);
        pool.shutdown();
    }
}
