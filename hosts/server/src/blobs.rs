//! Blobs: bytes uploaded once (`POST /v1/blobs`, usually an `.sb3`) and referred to by their
//! SHA-256 (`{"ref": "<hex>"}`) wherever a project is expected. Stored in the database; the
//! most recently used ones are also kept in memory (up to [`CACHE_BYTES`]).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::OptionalExtension;
use sha2::{Digest, Sha256};

use crate::store::{now_ms, Store, StoreError};

/// Bytes of blobs kept in memory.
pub const CACHE_BYTES: usize = 256 << 20;

/// The SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `s` looks like a blob reference (64 hex digits).
pub fn is_ref(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[derive(Default)]
struct Cache {
    map: HashMap<String, Arc<Vec<u8>>>,
    order: VecDeque<String>,
    bytes: usize,
}

impl Cache {
    fn insert(&mut self, key: String, value: Arc<Vec<u8>>) {
        if value.len() > CACHE_BYTES || self.map.contains_key(&key) {
            return;
        }
        self.bytes += value.len();
        self.order.push_back(key.clone());
        self.map.insert(key, value);
        while self.bytes > CACHE_BYTES {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(v) = self.map.remove(&old) {
                self.bytes -= v.len();
            }
        }
    }
}

/// The blob store.
pub struct Blobs {
    store: Arc<Store>,
    cache: Mutex<Cache>,
}

impl std::fmt::Debug for Blobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blobs").finish_non_exhaustive()
    }
}

impl Blobs {
    /// Blobs kept in `store`.
    pub fn new(store: Arc<Store>) -> Blobs {
        Blobs { store, cache: Mutex::new(Cache::default()) }
    }

    /// Stores `bytes` (once: the same bytes give the same reference) and returns the reference.
    pub async fn put(&self, bytes: Vec<u8>) -> Result<String, StoreError> {
        let key = sha256_hex(&bytes);
        let bytes = Arc::new(bytes);
        let (k, b) = (key.clone(), Arc::clone(&bytes));
        self.store
            .write(move |c| {
                c.execute(
                    "INSERT OR IGNORE INTO blobs (sha256, bytes, created_ms) VALUES (?1, ?2, ?3)",
                    rusqlite::params![k, b.as_slice(), now_ms()],
                )
                .map(drop)
            })
            .await?;
        self.cache.lock().unwrap_or_else(PoisonError::into_inner).insert(key.clone(), bytes);
        Ok(key)
    }

    /// The blob `key`, if stored (blocking: call from a worker thread).
    pub fn get(&self, key: &str) -> Result<Option<Arc<Vec<u8>>>, StoreError> {
        let key = key.to_ascii_lowercase();
        if let Some(v) = self.cache.lock().unwrap_or_else(PoisonError::into_inner).map.get(&key) {
            return Ok(Some(Arc::clone(v)));
        }
        let k = key.clone();
        let found: Option<Vec<u8>> = self.store.read(move |c| {
            c.query_row("SELECT bytes FROM blobs WHERE sha256 = ?1", [k], |r| r.get(0)).optional()
        })?;
        Ok(found.map(|bytes| {
            let bytes = Arc::new(bytes);
            self.cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(key, Arc::clone(&bytes));
            bytes
        }))
    }
}
