//! A per-VM memo of `Math.sin`/`Math.cos` ([`jsmath::sin_and_cos`]) keyed by the argument's
//! bits. The functions are pure, so a hit returns the identical numbers; a move and the
//! drawable transform it changes ask for the same angle, and directions recur (integer
//! directions, clones turning in step). `Config::geometry_cache = false` bypasses it.

use crate::scratch::value::jsmath;

/// Slots of the memo (direct-mapped by a hash of the argument's bits).
const SLOTS: usize = 64;

/// The key of an empty slot: a NaN (NaN arguments bypass the memo, so it never matches).
const EMPTY: u64 = 0x7FF8_0000_0000_0000;

/// Recent `(x, sin x, cos x)`, by slot.
#[derive(Clone, Debug)]
pub struct TrigMemo {
    keys: [u64; SLOTS],
    values: [(f64, f64); SLOTS],
}

impl Default for TrigMemo {
    fn default() -> TrigMemo {
        TrigMemo { keys: [EMPTY; SLOTS], values: [(0.0, 0.0); SLOTS] }
    }
}

impl TrigMemo {
    /// `(Math.sin(x), Math.cos(x))`, from the memo when `x`'s bits are there.
    #[inline]
    pub fn sin_cos(&mut self, x: f64) -> (f64, f64) {
        if x.is_nan() {
            return jsmath::sin_and_cos(x);
        }
        let bits = x.to_bits();
        let k = (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize % SLOTS;
        if self.keys[k] == bits {
            return self.values[k];
        }
        let v = jsmath::sin_and_cos(x);
        self.keys[k] = bits;
        self.values[k] = v;
        v
    }
}

impl super::Vm {
    /// `(Math.sin(x), Math.cos(x))` through the memo (directly when the geometry caches are
    /// off, which the differential tests compare against).
    #[inline]
    pub(crate) fn sin_cos(&mut self, x: f64) -> (f64, f64) {
        if self.cfg.geometry_cache {
            self.trig.sin_cos(x)
        } else {
            jsmath::sin_and_cos(x)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memo_returns_what_jsmath_returns() {
        let mut memo = TrigMemo::default();
        let mut xs = alloc::vec![0.0, -0.0, 1.0, f64::NAN, -f64::NAN, f64::INFINITY, 1e300, -3.5];
        let mut u: u64 = 0x9E37_79B9_7F4A_7C15;
        for k in 0..20_000 {
            u ^= u << 13;
            u ^= u >> 7;
            u ^= u << 17;
            // recurring integer-degree angles, and arbitrary ones
            xs.push(core::f64::consts::PI * f64::from(k % 360) / 180.0);
            xs.push((u as f64 / u64::MAX as f64 - 0.5) * 20.0);
        }
        for _ in 0..2 {
            for &x in &xs {
                let (s, c) = memo.sin_cos(x);
                let (ws, wc) = jsmath::sin_and_cos(x);
                assert_eq!((s.to_bits(), c.to_bits()), (ws.to_bits(), wc.to_bits()), "{x:e}");
            }
        }
    }
}
