//! Composite sessions held by the server (`docs/server.md`, "Sessions"): each is a core
//! [`Session`] plus the blob holding its project's assets (and, for a session made for a
//! ScratchWorld task, the task and the blob of its suite), kept in memory and in the database,
//! so a restart (even after `kill -9`) loses no acknowledged change: after a restart a session
//! is read back from the database on first use.
//!
//! What is stored is a snapshot and a replay log. The `sessions` table holds a snapshot (the
//! core's own bytes, [`Session::to_bytes`], about 14 KB for a small project); the
//! `session_ops` table holds, in order, the actions (their JSON) and the index-setting
//! observations made since that snapshot. An action commits only its small replay row (and
//! its action-log row) before the answer; a snapshot is written when a session reaches
//! [`Limits::session_snapshot_every`](crate::Limits) replay rows, on any other change (a patch,
//! a project load) and at shutdown, and it deletes the rows it covers. Reading a session back
//! loads the snapshot and replays the rows through the core, whose actions are deterministic,
//! so the session is the one that answered.
//!
//! Bounds: at most `max_sessions` live sessions (429 beyond) and an idle expiry (a session not
//! used for `session_idle_secs` is gone; 0 keeps sessions until deleted). Expired sessions are
//! swept when a session is made or listed, and refused when looked up. Calls on one session
//! are serialized: a call holds the session's lock from before its engine work is queued until
//! its change is committed, so two actions on one session never interleave.
//!
//! Each session also keeps an action log: one JSON entry per action, patch or project load,
//! committed with the change it records ([`Sessions::call_changing`]), read back by
//! [`Sessions::log`], deleted with the session. An action's entry rides in its replay row (one
//! row written per action); a snapshot moves the entries of the rows it covers to the
//! `session_log` table, where the other changes append theirs.
//!
//! What does not live here: the HTTP shapes (`routes::sessions`, `routes::scratchworld`) and
//! the semantics of actions and observations (the core).

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::http::StatusCode;
use gobo::scratch::agent::Session;
use gobo_host::sb3::ProjectFiles;
use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};
use tokio::sync::OwnedMutexGuard;

use crate::app::App;
use crate::blobs::Blobs;
use crate::error::ApiError;
use crate::ids::{new_id, well_formed};
use crate::input::files_of;
use crate::store::{now_ms, Store, WriteFn};
use crate::tasks::TaskBinding;

/// The prefix of session ids.
pub const PREFIX: &str = "s";

/// A session in memory.
#[derive(Debug, Clone)]
pub struct Live {
    /// The core session.
    pub session: Session,
    /// The blob holding the project it was made from (its assets are the session's assets).
    pub source: String,
    /// The blob holding the gold project the session is compared with, if one was given.
    pub gold: Option<String>,
    /// When it was made (milliseconds since 1970).
    pub created_ms: i64,
    /// The ScratchWorld task it was made for, whose suite judges it by default.
    pub task: Option<TaskBinding>,
}

impl Live {
    /// The project's files as they stand: the session's `project.json` with the source's
    /// assets (blocking: a worker thread).
    pub fn files(&self, blobs: &Blobs) -> Result<ProjectFiles, ApiError> {
        let mut files = blob_files(blobs, &self.source, "project")?;
        files.project_json = gobo::scratch::project::save(self.session.project());
        Ok(files)
    }

    /// The gold project's files (blocking: a worker thread); 404 `no_gold` without one.
    pub fn gold_files(&self, blobs: &Blobs) -> Result<ProjectFiles, ApiError> {
        let gold = self.gold.as_ref().ok_or_else(|| {
            ApiError::not_found(
                "no_gold",
                "this session has no gold project; give one as `gold` when making it",
            )
        })?;
        blob_files(blobs, gold, "gold")
    }
}

/// The files of the session's `what` blob `reference` (its project or its gold project).
fn blob_files(blobs: &Blobs, reference: &str, what: &str) -> Result<ProjectFiles, ApiError> {
    let bytes = blobs.get(reference).map_err(ApiError::from)?.ok_or_else(|| {
        ApiError::internal(format!("the session's {what} blob {reference} is missing"))
    })?;
    files_of(&bytes, what)
}

/// What the `config` column holds besides the core session's bytes.
#[derive(Debug, Serialize, Deserialize)]
struct Row {
    source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gold: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task: Option<TaskBinding>,
}

impl Row {
    fn of(live: &Live) -> Result<String, ApiError> {
        let row =
            Row { source: live.source.clone(), gold: live.gold.clone(), task: live.task.clone() };
        serde_json::to_string(&row).map_err(|e| ApiError::internal(e.to_string()))
    }
}

/// A session's lock and its state.
#[derive(Debug)]
pub struct Slot {
    /// `None` until read back from the database after a restart (or after a failed commit,
    /// so the unacknowledged change is dropped).
    live: Option<Live>,
    /// Deleted or expired while a call waited for the lock.
    gone: bool,
    /// The sequence number of the last replay row (0: none yet).
    seq: i64,
    /// Replay rows since the snapshot.
    pending: u32,
}

impl Slot {
    fn new(live: Option<Live>) -> Slot {
        Slot { live, gone: false, seq: 0, pending: 0 }
    }
}

/// How a call changed its session, and so what is committed before its answer.
#[derive(Debug)]
pub enum Change {
    /// Nothing (a read).
    None,
    /// An action (its JSON text) with its action-log entry: appended to the replay log.
    Act {
        /// The action as given, `{api, args}`.
        action: String,
        /// Its action-log entry.
        log: String,
    },
    /// An observation that set a new index map for the next action (a session without
    /// `auto_observe`): appended to the replay log.
    Observe,
    /// Any other change (a patch, a project load) with its action-log entries: a snapshot.
    Snapshot(Vec<String>),
}

/// One replay row.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Op {
    Act(serde_json::Value),
    Observe,
}

#[derive(Debug)]
struct Entry {
    slot: Arc<tokio::sync::Mutex<Slot>>,
    used_ms: AtomicI64,
}

/// Every session.
#[derive(Debug)]
pub struct Sessions {
    store: Arc<Store>,
    max: usize,
    idle_ms: i64,
    snapshot_every: u32,
    map: Mutex<HashMap<String, Arc<Entry>>>,
}

/// A session locked for one call.
pub type Locked = OwnedMutexGuard<Slot>;

fn unknown(id: &str) -> ApiError {
    ApiError::not_found(
        "unknown_session",
        format!("no session {id}; create one with POST /v1/sessions"),
    )
}

impl Sessions {
    /// The sessions stored in `store` (their ids and last use; the sessions themselves are
    /// read on first use); `limits` gives the cap, the idle expiry and the snapshot interval.
    pub fn load(store: Arc<Store>, limits: &crate::Limits) -> Result<Sessions, crate::StoreError> {
        let rows: Vec<(String, i64)> = store.read(|c| {
            // Replay rows do not touch the session's row: the last use is the later of both.
            let mut st = c.prepare(
                "SELECT id, MAX(used_ms, COALESCE((SELECT MAX(ms) FROM session_ops \
                 WHERE session = sessions.id), 0)) FROM sessions",
            )?;
            let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            let rows: rusqlite::Result<Vec<(String, i64)>> = rows.collect();
            rows
        })?;
        let map = rows
            .into_iter()
            .map(|(id, used)| {
                let slot = Slot::new(None);
                let entry = Entry {
                    slot: Arc::new(tokio::sync::Mutex::new(slot)),
                    used_ms: AtomicI64::new(used),
                };
                (id, Arc::new(entry))
            })
            .collect();
        let idle_ms =
            i64::try_from(limits.session_idle_secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        Ok(Sessions {
            store,
            max: limits.max_sessions,
            idle_ms,
            snapshot_every: limits.session_snapshot_every.max(1),
            map: Mutex::new(map),
        })
    }

    /// The most live sessions.
    pub fn max(&self) -> usize {
        self.max
    }

    fn expired(&self, used_ms: i64, now: i64) -> bool {
        self.idle_ms > 0 && now.saturating_sub(used_ms) > self.idle_ms
    }

    /// Drops expired sessions; returns the live ids with their last use, oldest first.
    pub fn sweep(&self) -> Vec<(String, i64)> {
        let now = now_ms();
        let mut gone = Vec::new();
        let mut live = Vec::new();
        {
            let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
            map.retain(|id, e| {
                let used = e.used_ms.load(Ordering::SeqCst);
                if self.expired(used, now) {
                    gone.push((id.clone(), Arc::clone(e)));
                    false
                } else {
                    live.push((id.clone(), used));
                    true
                }
            });
        }
        for (id, e) in gone {
            self.forget(&id, &e);
        }
        live.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        live
    }

    /// Marks a removed entry gone (when its lock is free) and deletes its row.
    fn forget(&self, id: &str, e: &Entry) {
        if let Ok(mut slot) = e.slot.try_lock() {
            slot.gone = true;
            slot.live = None;
        }
        let id = id.to_string();
        self.store.submit(Box::new(move |c| delete_rows(c, &id)), Box::new(|_| {}));
    }

    /// Adds `live` as a new session (429 at the cap) and commits it; returns its id.
    pub async fn insert(&self, live: Live) -> Result<String, ApiError> {
        self.sweep();
        let id = new_id(PREFIX);
        let now = now_ms();
        {
            let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
            if map.len() >= self.max {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too_many_sessions",
                    format!(
                        "all {} sessions are in use; delete one or wait for one to expire",
                        self.max
                    ),
                ));
            }
            let slot = Slot::new(Some(live.clone()));
            let entry = Entry {
                slot: Arc::new(tokio::sync::Mutex::new(slot)),
                used_ms: AtomicI64::new(now),
            };
            map.insert(id.clone(), Arc::new(entry));
        }
        let row = Row::of(&live)?;
        let bytes = live.session.to_bytes();
        let step = live.session.step();
        let (i, created) = (id.clone(), live.created_ms);
        let written = self
            .store
            .write(move |c| {
                c.execute(
                    "INSERT INTO sessions (id, created_ms, used_ms, config, snapshot, step) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    rusqlite::params![i, created, now, row, bytes, step],
                )
                .map(drop)
            })
            .await;
        if let Err(e) = written {
            self.map.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
            return Err(e.into());
        }
        Ok(id)
    }

    /// Locks session `id` for one call (404 when unknown, deleted or expired).
    pub async fn lock(&self, id: &str) -> Result<Locked, ApiError> {
        if !well_formed(PREFIX, id) {
            return Err(unknown(id));
        }
        let entry = self.map.lock().unwrap_or_else(PoisonError::into_inner).get(id).cloned();
        let entry = entry.ok_or_else(|| unknown(id))?;
        if self.expired(entry.used_ms.load(Ordering::SeqCst), now_ms()) {
            self.map.lock().unwrap_or_else(PoisonError::into_inner).remove(id);
            self.forget(id, &entry);
            return Err(ApiError::not_found(
                "session_expired",
                format!("session {id} expired after {} s unused", self.idle_ms / 1000),
            ));
        }
        entry.used_ms.store(now_ms(), Ordering::SeqCst);
        let slot = Arc::clone(&entry.slot).lock_owned().await;
        if slot.gone {
            return Err(unknown(id));
        }
        Ok(slot)
    }

    /// Deletes session `id` on a worker thread; returns the steps it used.
    pub async fn remove(self: &Arc<Self>, app: &Arc<App>, id: &str) -> Result<u32, ApiError> {
        let mut slot = self.lock(id).await?;
        let (me, i) = (Arc::clone(self), id.to_string());
        app.pool
            .run(move || {
                let steps = me.ensure(&i, &mut slot)?.session.step();
                slot.gone = true;
                slot.live = None;
                me.map.lock().unwrap_or_else(PoisonError::into_inner).remove(&i);
                me.store.write_blocking(move |c| delete_rows(c, &i)).map_err(ApiError::from)?;
                Ok::<u32, ApiError>(steps)
            })
            .await?
    }

    /// The session in `slot`, read from the database if this process has not used it yet
    /// (its snapshot, then its replay rows applied in order; blocking on a first use: call
    /// from a worker thread).
    pub fn ensure<'s>(&self, id: &str, slot: &'s mut Locked) -> Result<&'s mut Live, ApiError> {
        if slot.live.is_none() {
            let i = id.to_string();
            type Stored = (String, Vec<u8>, i64, Vec<(i64, String)>);
            let row: Option<Stored> = self
                .store
                .read(move |c| {
                    let row = c
                        .query_row(
                            "SELECT config, snapshot, created_ms FROM sessions WHERE id = ?1",
                            [&i],
                            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                        )
                        .optional()?;
                    let Some((config, snapshot, created_ms)) = row else { return Ok(None) };
                    let mut st = c.prepare(
                        "SELECT seq, op FROM session_ops WHERE session = ?1 ORDER BY seq",
                    )?;
                    let ops = st.query_map([&i], |r| Ok((r.get(0)?, r.get(1)?)))?;
                    let ops: rusqlite::Result<Vec<(i64, String)>> = ops.collect();
                    Ok(Some((config, snapshot, created_ms, ops?)))
                })
                .map_err(ApiError::from)?;
            let (config, snapshot, created_ms, ops) = row.ok_or_else(|| unknown(id))?;
            let stored =
                |e: &dyn std::fmt::Display| ApiError::internal(format!("stored session {id}: {e}"));
            let row: Row = serde_json::from_str(&config).map_err(|e| stored(&e))?;
            let mut session = Session::from_bytes(&snapshot).map_err(|e| stored(&e))?;
            for (_, op) in &ops {
                match serde_json::from_str::<Op>(op).map_err(|e| stored(&e))? {
                    Op::Act(action) => drop(session.act(&action)),
                    Op::Observe => drop(session.observe()),
                }
            }
            slot.seq = ops.last().map_or(0, |(seq, _)| *seq);
            slot.pending = u32::try_from(ops.len()).unwrap_or(u32::MAX);
            slot.live = Some(Live {
                session,
                source: row.source,
                gold: row.gold,
                created_ms,
                task: row.task,
            });
        }
        slot.live.as_mut().ok_or_else(|| unknown(id))
    }

    /// The write that stores a snapshot of the session, replacing its replay rows up to
    /// `seq`, with `log` appended to its action log in the same commit.
    fn snapshot_write(
        id: &str,
        live: &Live,
        seq: i64,
        log: Vec<String>,
    ) -> Result<WriteFn, ApiError> {
        let row = Row::of(live)?;
        let bytes = live.session.to_bytes();
        let step = live.session.step();
        let i = id.to_string();
        Ok(Box::new(move |c| {
            c.prepare_cached(
                "UPDATE sessions SET used_ms = ?2, config = ?3, snapshot = ?4, step = ?5 WHERE id = ?1",
            )?
            .execute(rusqlite::params![i, now_ms(), row, bytes, step])?;
            // The covered rows' log entries move to the log, before this change's own.
            let moved: Vec<String> = {
                let mut st = c.prepare_cached(
                    "SELECT entry FROM session_ops WHERE session = ?1 AND seq <= ?2 \
                     AND entry IS NOT NULL ORDER BY seq",
                )?;
                let rows = st.query_map(rusqlite::params![i, seq], |r| r.get(0))?;
                rows.collect::<rusqlite::Result<_>>()?
            };
            append_log(c, &i, moved)?;
            c.prepare_cached("DELETE FROM session_ops WHERE session = ?1 AND seq <= ?2")?
                .execute(rusqlite::params![i, seq])?;
            append_log(c, &i, log)
        }))
    }

    /// The write that appends replay row `seq` (`op`'s JSON text) with its action-log entry.
    fn op_write(id: &str, seq: i64, op: String, entry: Option<String>) -> WriteFn {
        let i = id.to_string();
        Box::new(move |c| {
            c.prepare_cached(
                "INSERT INTO session_ops (session, seq, ms, op, entry) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(rusqlite::params![i, seq, now_ms(), op, entry])
            .map(drop)
        })
    }

    /// The write committing `change` to the session in `slot` (none for [`Change::None`]);
    /// counts the replay rows and decides when a snapshot replaces them.
    fn change_write(
        &self,
        id: &str,
        slot: &mut Slot,
        change: Change,
    ) -> Result<Option<WriteFn>, ApiError> {
        let live = slot.live.as_ref().ok_or_else(|| unknown(id))?;
        let (op, log) = match change {
            Change::None => return Ok(None),
            Change::Snapshot(log) => {
                slot.pending = 0;
                return Self::snapshot_write(id, live, slot.seq, log).map(Some);
            }
            Change::Act { action, log } => (format!("{{\"act\":{action}}}"), Some(log)),
            Change::Observe => ("\"observe\"".to_string(), None),
        };
        if slot.pending.saturating_add(1) >= self.snapshot_every {
            slot.pending = 0;
            return Self::snapshot_write(id, live, slot.seq, log.into_iter().collect()).map(Some);
        }
        slot.pending += 1;
        slot.seq += 1;
        Ok(Some(Self::op_write(id, slot.seq, op, log)))
    }

    /// Snapshots every session in memory that has replay rows, in one commit, so the next
    /// start replays nothing (blocking: at shutdown, after the workers have stopped). A
    /// session locked by a call still running is left to its replay rows.
    pub fn flush(&self) -> Result<usize, ApiError> {
        let entries: Vec<(String, Arc<Entry>)> = {
            let map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
            map.iter().map(|(id, e)| (id.clone(), Arc::clone(e))).collect()
        };
        let mut writes = Vec::new();
        for (id, e) in entries {
            let Ok(mut slot) = e.slot.try_lock() else { continue };
            if slot.pending == 0 || slot.gone {
                continue;
            }
            if let Some(live) = slot.live.as_ref() {
                writes.push(Self::snapshot_write(&id, live, slot.seq, Vec::new())?);
                slot.pending = 0;
            }
        }
        let n = writes.len();
        if n > 0 {
            self.store
                .write_blocking(move |c| writes.into_iter().try_for_each(|w| w(c)))
                .map_err(ApiError::from)?;
        }
        Ok(n)
    }

    /// The action log of session `id`, oldest first: each entry's JSON text (blocking: a
    /// worker thread; the caller holds the session's lock).
    pub fn log(&self, id: &str) -> Result<Vec<String>, ApiError> {
        let i = id.to_string();
        self.store
            .read(move |c| {
                // The log's entries come before those still in replay rows.
                let mut st = c.prepare(
                    "SELECT entry FROM (SELECT 0 AS part, seq, entry FROM session_log \
                     WHERE session = ?1 UNION ALL SELECT 1, seq, entry FROM session_ops \
                     WHERE session = ?1 AND entry IS NOT NULL) ORDER BY part, seq",
                )?;
                let rows = st.query_map([i], |r| r.get(0))?;
                let rows: rusqlite::Result<Vec<String>> = rows.collect();
                rows
            })
            .map_err(ApiError::from)
    }

    /// Runs `f` on session `id` on a worker thread, holding the session's lock throughout;
    /// `f` does not change the session.
    pub async fn call<R: Send + 'static>(
        self: &Arc<Self>,
        app: &Arc<App>,
        id: &str,
        f: impl FnOnce(&mut Live, &App) -> Result<R, ApiError> + Send + 'static,
    ) -> Result<R, ApiError> {
        self.call_changing(app, id, move |live, a| Ok((f(live, a)?, Change::None))).await
    }

    /// As [`Sessions::call`]; `f` reports how it changed the session, which is committed
    /// before the answer (the session stays locked until then). When the commit fails the
    /// session is read back from the database at its next use, without the change.
    pub async fn call_changing<R: Send + 'static>(
        self: &Arc<Self>,
        app: &Arc<App>,
        id: &str,
        f: impl FnOnce(&mut Live, &App) -> Result<(R, Change), ApiError> + Send + 'static,
    ) -> Result<R, ApiError> {
        let mut slot = self.lock(id).await?;
        let (me, a, i) = (Arc::clone(self), Arc::clone(app), id.to_string());
        // The engine work runs on a worker; the commit is awaited here, so the worker is free
        // for other requests while the writer commits.
        let (mut slot, r, write) = app
            .pool
            .run(move || {
                let live = me.ensure(&i, &mut slot)?;
                let (r, change) = f(live, &a)?;
                let write = me.change_write(&i, &mut slot, change)?;
                Ok::<_, ApiError>((slot, r, write))
            })
            .await??;
        if let Some(write) = write {
            if let Err(e) = self.store.write(write).await {
                slot.live = None;
                return Err(e.into());
            }
        }
        drop(slot);
        Ok(r)
    }
}

/// Appends `log` to session `id`'s action log.
fn append_log(c: &rusqlite::Connection, id: &str, log: Vec<String>) -> rusqlite::Result<()> {
    for entry in log {
        c.prepare_cached(
            "INSERT INTO session_log (session, seq, entry) VALUES (?1, \
             (SELECT COALESCE(MAX(seq), 0) + 1 FROM session_log WHERE session = ?1), ?2)",
        )?
        .execute(rusqlite::params![id, entry])?;
    }
    Ok(())
}

/// Deletes session `id`'s rows: the session, its replay rows and its action log.
fn delete_rows(c: &rusqlite::Connection, id: &str) -> rusqlite::Result<()> {
    c.execute("DELETE FROM sessions WHERE id = ?1", [id])?;
    c.execute("DELETE FROM session_ops WHERE session = ?1", [id])?;
    c.execute("DELETE FROM session_log WHERE session = ?1", [id])?;
    Ok(())
}
