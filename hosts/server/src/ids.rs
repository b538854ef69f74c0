//! Identifiers of sessions and batch jobs: a prefix and 16 hex digits from the standard
//! library's randomly keyed hasher (fresh OS randomness per process), so identifiers are not
//! guessable from one another and do not repeat across restarts.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// A new identifier `PREFIX-xxxxxxxxxxxxxxxx`.
pub fn new_id(prefix: &str) -> String {
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = KEYS.get_or_init(RandomState::new).build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    format!("{prefix}-{:016x}", h.finish())
}

/// Whether `id` has the shape [`new_id`] gives (checked before any lookup).
pub fn well_formed(prefix: &str, id: &str) -> bool {
    id.strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|hex| hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}
