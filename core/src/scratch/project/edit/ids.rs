//! Deterministic fresh ids ([`IdGen`]): 20 characters from scratch-vm's `uid()` alphabet,
//! drawn from a seeded counter, skipping any id already taken.

use alloc::string::String;

use serde::{Deserialize, Serialize};

/// scratch-vm's `uid()` alphabet.
const SOUP: &[u8] =
    b"!#$%()*+,-./:;=?@[]^_`{|}~ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Length of an id, as scratch-vm's `uid()` makes them.
const LEN: usize = 20;

/// A deterministic source of fresh block and declaration ids: the same seed gives the same
/// sequence, and an id that is already taken is skipped, so generated ids never collide. It is
/// plain data (seed and counter): clone it to fork, serialize it to keep a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct IdGen {
    /// The seed.
    pub seed: u64,
    /// How many ids were drawn so far (taken ones included).
    pub counter: u64,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl IdGen {
    /// A generator starting at `seed`.
    pub fn new(seed: u64) -> IdGen {
        IdGen { seed, counter: 0 }
    }

    /// The next id for which `taken` is false.
    pub fn next_id(&mut self, taken: impl Fn(&str) -> bool) -> String {
        loop {
            let mut state = self.seed ^ self.counter.wrapping_mul(0xD6E8_FEB8_6659_FD93);
            self.counter = self.counter.wrapping_add(1);
            let mut id = String::with_capacity(LEN);
            let mut bits = 0u64;
            for i in 0..LEN {
                if i % 8 == 0 {
                    bits = splitmix(&mut state);
                }
                let pick = (bits & 0xFF) as usize % SOUP.len();
                bits >>= 8;
                id.push(char::from(SOUP[pick]));
            }
            if !taken(&id) {
                return id;
            }
        }
    }
}
