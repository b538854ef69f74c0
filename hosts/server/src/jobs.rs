//! Durable batch jobs: rows of one kind (`xlogo`, `draw`, `test`) stored with the job, fed to
//! the worker pool when it has nothing interactive to do, each result committed with the row
//! (`UPDATE ... WHERE result IS NULL`, so a row is finished exactly once). After a restart,
//! even after `kill -9`, unfinished jobs resume from their first unfinished row; a row that
//! was running when the process died runs again, and only its one result is kept.
//!
//! What a row means is in [`crate::rows`]; the HTTP side is `routes::batch`.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};

use rusqlite::params;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::pool::{Feed, Pool, Task};
use crate::rows::RowEval;
use crate::store::{now_ms, Store, StoreError};

/// Prepares a job's row evaluator from its kind and stored options.
pub type MakeEval = Box<dyn Fn(Kind, &str) -> Result<RowEval, String> + Send + Sync>;

/// Rows read from the database at a time.
const CHUNK: i64 = 256;

/// The kinds of rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `{id, task, code}` rows of `gobo xlogo eval --batch`.
    Xlogo,
    /// `{id, task | task_index, actions_raw | actions}` rows of `gobo draw eval --batch`.
    Draw,
    /// `{id, project, suite, seeds?, traces?}` rows: `gobo test --batch` with the project and
    /// suite given as values (as in `POST /v1/tests/run`) instead of paths.
    Test,
}

impl Kind {
    /// The name stored and shown.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Xlogo => "xlogo",
            Kind::Draw => "draw",
            Kind::Test => "test",
        }
    }

    fn parse(s: &str) -> Option<Kind> {
        match s {
            "xlogo" => Some(Kind::Xlogo),
            "draw" => Some(Kind::Draw),
            "test" => Some(Kind::Test),
            _ => None,
        }
    }
}

/// A job's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Rows are being evaluated.
    Running,
    /// Every row has its result.
    Done,
    /// Storing results failed (e.g. a full disk); the job resumes at the next start.
    Paused,
}

/// What `GET /v1/batch/{id}` shows.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct JobStatus {
    /// The job.
    pub job_id: String,
    /// Row kind.
    pub kind: Kind,
    /// State.
    pub state: JobState,
    /// Rows with a stored result.
    pub done: u64,
    /// Rows.
    pub total: u64,
    /// Where the results stream from.
    pub results_url: String,
    /// Why the job is paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

struct Active {
    id: String,
    eval: Arc<RowEval>,
    buffer: VecDeque<(i64, String)>,
    cursor: i64,
    exhausted: bool,
    cancelled: Arc<AtomicBool>,
}

#[derive(Default)]
struct State {
    active: VecDeque<Active>,
    status: HashMap<String, JobStatus>,
    /// Jobs in creation order (for listing).
    order: Vec<String>,
    cancelled: HashMap<String, Arc<AtomicBool>>,
}

/// The jobs of this server.
pub struct Jobs {
    store: Arc<Store>,
    state: Mutex<State>,
    pool: OnceLock<Weak<Pool>>,
    /// Bumped after every commit of results, for streams waiting on more rows.
    progress: tokio::sync::watch::Sender<u64>,
    make_eval: MakeEval,
}

impl std::fmt::Debug for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jobs").finish_non_exhaustive()
    }
}

fn results_url(id: &str) -> String {
    format!("/v1/batch/{id}/results")
}

impl Jobs {
    /// Jobs stored in `store`; `make_eval` prepares a job's row evaluator from its kind and
    /// stored options. Unfinished jobs are loaded to resume; call [`Jobs::attach`] to start.
    pub fn load(store: Arc<Store>, make_eval: MakeEval) -> Result<Arc<Jobs>, StoreError> {
        let rows: Vec<(String, String, String, i64, String)> = store.read(|c| {
            let mut stmt = c.prepare(
                "SELECT id, kind, options, total, state FROM jobs ORDER BY created_ms, id",
            )?;
            let rows = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?;
            rows.collect()
        })?;
        let (progress, _) = tokio::sync::watch::channel(0);
        let jobs = Arc::new(Jobs {
            store: Arc::clone(&store),
            state: Mutex::new(State::default()),
            pool: OnceLock::new(),
            progress,
            make_eval,
        });
        for (id, kind, options, total, state) in rows {
            let Some(kind) = Kind::parse(&kind) else { continue };
            let job_id = id.clone();
            let done: i64 = store.read(move |c| {
                c.query_row(
                    "SELECT COUNT(*) FROM job_rows WHERE job = ?1 AND result IS NOT NULL",
                    [job_id],
                    |r| r.get(0),
                )
            })?;
            let mut status = JobStatus {
                job_id: id.clone(),
                kind,
                state: JobState::Running,
                done: done as u64,
                total: total as u64,
                results_url: results_url(&id),
                error: None,
            };
            let finished = state == "done" || done >= total;
            if finished {
                status.state = JobState::Done;
                if state != "done" {
                    jobs.mark_done(&id);
                }
            } else {
                match (jobs.make_eval)(kind, &options) {
                    Ok(eval) => jobs.activate(&id, Arc::new(eval)),
                    Err(e) => {
                        status.state = JobState::Paused;
                        status.error = Some(e);
                    }
                }
            }
            let mut st = jobs.lock();
            st.order.push(id.clone());
            st.status.insert(id, status);
        }
        Ok(jobs)
    }

    /// Starts feeding `pool`.
    pub fn attach(self: &Arc<Self>, pool: &Arc<Pool>) {
        let _ = self.pool.set(Arc::downgrade(pool));
        pool.set_feed(Arc::new(JobFeed(Arc::clone(self))));
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn notify_pool(&self) {
        if let Some(pool) = self.pool.get().and_then(Weak::upgrade) {
            pool.notify();
        }
    }

    fn activate(&self, id: &str, eval: Arc<RowEval>) {
        let cancelled = Arc::new(AtomicBool::new(false));
        let mut st = self.lock();
        st.cancelled.insert(id.to_string(), Arc::clone(&cancelled));
        st.active.push_back(Active {
            id: id.to_string(),
            eval,
            buffer: VecDeque::new(),
            cursor: -1,
            exhausted: false,
            cancelled,
        });
    }

    /// Stores a new job with `rows` (raw JSON text each) and starts it; returns its status once
    /// the rows are committed.
    pub async fn submit(
        self: &Arc<Self>,
        kind: Kind,
        options: String,
        rows: Vec<String>,
        eval: RowEval,
    ) -> Result<JobStatus, StoreError> {
        let id = crate::ids::new_id("j");
        let total = rows.len() as i64;
        let (job, opts) = (id.clone(), options);
        self.store
            .write(move |c| {
                c.execute(
                    "INSERT INTO jobs (id, kind, options, total, done, state, created_ms) VALUES (?1, ?2, ?3, ?4, 0, 'running', ?5)",
                    params![job, kind.name(), opts, total, now_ms()],
                )?;
                let mut stmt =
                    c.prepare("INSERT INTO job_rows (job, idx, input) VALUES (?1, ?2, ?3)")?;
                for (i, row) in rows.iter().enumerate() {
                    stmt.execute(params![job, i as i64, row])?;
                }
                if total == 0 {
                    c.execute("UPDATE jobs SET state = 'done', finished_ms = ?2 WHERE id = ?1", params![job, now_ms()])?;
                }
                Ok(())
            })
            .await?;
        let status = JobStatus {
            job_id: id.clone(),
            kind,
            state: if total == 0 { JobState::Done } else { JobState::Running },
            done: 0,
            total: total as u64,
            results_url: results_url(&id),
            error: None,
        };
        {
            let mut st = self.lock();
            st.order.push(id.clone());
            st.status.insert(id.clone(), status.clone());
        }
        if total > 0 {
            self.activate(&id, Arc::new(eval));
            self.notify_pool();
        }
        Ok(status)
    }

    /// The status of job `id`.
    pub fn status(&self, id: &str) -> Option<JobStatus> {
        self.lock().status.get(id).cloned()
    }

    /// Every job, oldest first.
    pub fn list(&self) -> Vec<JobStatus> {
        let st = self.lock();
        st.order.iter().filter_map(|id| st.status.get(id).cloned()).collect()
    }

    /// A receiver that changes whenever results are committed.
    pub fn watch(&self) -> tokio::sync::watch::Receiver<u64> {
        self.progress.subscribe()
    }

    /// Forgets job `id` and its rows; rows still running finish without being stored.
    pub async fn delete(&self, id: &str) -> Result<bool, StoreError> {
        {
            let mut st = self.lock();
            if st.status.remove(id).is_none() {
                return Ok(false);
            }
            st.order.retain(|j| j != id);
            st.active.retain(|a| a.id != id);
            if let Some(flag) = st.cancelled.remove(id) {
                flag.store(true, Ordering::SeqCst);
            }
        }
        let job = id.to_string();
        self.store
            .write(move |c| {
                c.execute("DELETE FROM job_rows WHERE job = ?1", [&job])?;
                c.execute("DELETE FROM jobs WHERE id = ?1", [&job]).map(drop)
            })
            .await?;
        Ok(true)
    }

    fn mark_done(&self, id: &str) {
        let job = id.to_string();
        self.store.submit(
            Box::new(move |c| {
                c.execute(
                    "UPDATE jobs SET state = 'done', finished_ms = ?2 WHERE id = ?1",
                    params![job, now_ms()],
                )
                .map(drop)
            }),
            Box::new(|_| {}),
        );
    }

    /// A row's result is committed.
    fn committed(&self, id: &str, stored: bool) {
        let mut finished = false;
        {
            let mut st = self.lock();
            if let Some(s) = st.status.get_mut(id) {
                if stored {
                    s.done += 1;
                }
                if s.done >= s.total && s.state == JobState::Running {
                    s.state = JobState::Done;
                    finished = true;
                }
            }
        }
        if finished {
            self.mark_done(id);
        }
        self.progress.send_modify(|n| *n += 1);
    }

    /// Storing a row's result failed: pause the job (it resumes at the next start).
    fn failed(&self, id: &str, error: &StoreError) {
        let mut st = self.lock();
        if let Some(s) = st.status.get_mut(id) {
            s.state = JobState::Paused;
            s.error = Some(error.to_string());
        }
        st.active.retain(|a| a.id != id);
    }

    /// Reads the next rows of `job` into its buffer.
    fn refill(&self, job: &mut Active) {
        let (id, cursor) = (job.id.clone(), job.cursor);
        let rows: Result<Vec<(i64, String)>, StoreError> = self.store.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT idx, input FROM job_rows WHERE job = ?1 AND idx > ?2 AND result IS NULL ORDER BY idx LIMIT ?3",
            )?;
            let rows = stmt.query_map(params![id, cursor, CHUNK], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        });
        match rows {
            Ok(rows) => {
                if (rows.len() as i64) < CHUNK {
                    job.exhausted = true;
                }
                if let Some(&(last, _)) = rows.last() {
                    job.cursor = last;
                }
                job.buffer.extend(rows);
            }
            Err(_) => job.exhausted = true,
        }
    }

    fn row_task(self: &Arc<Self>, job: &Active, idx: i64, input: String) -> Task {
        let (jobs, eval, cancelled, id) =
            (Arc::clone(self), Arc::clone(&job.eval), Arc::clone(&job.cancelled), job.id.clone());
        Box::new(move || {
            if cancelled.load(Ordering::SeqCst) {
                return;
            }
            let result = eval.eval(&input);
            let text = serde_json::to_string(&result).unwrap_or_else(|_| String::from("{}"));
            let (job, done_jobs, done_id) = (id.clone(), Arc::clone(&jobs), id);
            jobs.store.submit(
                Box::new(move |c| {
                    let changed = c.execute(
                        "UPDATE job_rows SET result = ?3 WHERE job = ?1 AND idx = ?2 AND result IS NULL",
                        params![job, idx, text],
                    )?;
                    if changed == 1 {
                        c.execute("UPDATE jobs SET done = done + 1 WHERE id = ?1", [&job])?;
                    }
                    Ok(())
                }),
                Box::new(move |r| match r {
                    Ok(()) => done_jobs.committed(&done_id, true),
                    Err(e) => done_jobs.failed(&done_id, &e),
                }),
            );
        })
    }
}

/// The jobs as the pool's background work.
struct JobFeed(Arc<Jobs>);

impl Feed for JobFeed {
    fn next_task(&self) -> Option<Task> {
        let jobs = &self.0;
        let mut st = jobs.lock();
        for _ in 0..st.active.len() {
            let mut job = st.active.pop_front()?;
            if job.buffer.is_empty() && !job.exhausted {
                jobs.refill(&mut job);
            }
            if let Some((idx, input)) = job.buffer.pop_front() {
                let task = jobs.row_task(&job, idx, input);
                st.active.push_back(job);
                return Some(task);
            }
            if !job.exhausted {
                st.active.push_back(job);
            }
        }
        None
    }
}
