//! A per-VM memo of `Math.sin`/`Math.cos` ([`jsmath::sin_and_cos`]) keyed by the argument's
//! bits. The functions are pure, so a hit returns the identical numbers. Angles recur: a
//! move and the drawable transform it changes ask for the same one, and directions repeat
//! (integer directions shared by many sprites, a sprite turning by a constant comes back to
//! the same doubles every `360 / turn` frames). `Config::trig_memo` sets its size (a kit with a
//! small heap keeps a few slots); `Config::geometry_cache = false` bypasses it.

use alloc::vec::Vec;

use crate::scratch::value::jsmath;

/// Slots of the memo by default (direct-mapped by a hash of the argument's bits, 24 bytes
/// each): 96 KiB, allocated when first used.
pub const DEFAULT_SLOTS: u32 = 4096;

/// One memoised argument: `key` is the argument's bits inverted, so that an all-zero slot
/// (key 0, the inverse of a NaN's bits, and NaN arguments are never stored) is empty.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    sin: f64,
    cos: f64,
}

/// Recent `(x, sin x, cos x)`, by slot; no slots until the first call.
#[derive(Clone, Debug, Default)]
pub struct TrigMemo {
    slots: Vec<Slot>,
}

impl TrigMemo {
    /// `(Math.sin(x), Math.cos(x))`, from a memo of `slots` slots when `x`'s bits are there
    /// (no memo for 0 slots).
    #[inline]
    pub fn sin_cos(&mut self, x: f64, slots: u32) -> (f64, f64) {
        if x.is_nan() || slots == 0 {
            return jsmath::sin_and_cos(x);
        }
        if self.slots.is_empty() {
            self.slots = alloc::vec![Slot::default(); slots as usize];
        }
        let key = !x.to_bits();
        // The product's top 32 bits (which every bit of the key reaches) scaled to the slots.
        let top = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        let k = ((top * self.slots.len() as u64) >> 32) as usize;
        if let Some(s) = self.slots.get(k).filter(|s| s.key == key) {
            return (s.sin, s.cos);
        }
        let (sin, cos) = jsmath::sin_and_cos(x);
        if let Some(s) = self.slots.get_mut(k) {
            *s = Slot { key, sin, cos };
        }
        (sin, cos)
    }
}

impl super::Vm {
    /// `(Math.sin(x), Math.cos(x))` through the memo (directly when the geometry caches are
    /// off, which the differential tests compare against).
    #[inline]
    pub(crate) fn sin_cos(&mut self, x: f64) -> (f64, f64) {
        if self.cfg.geometry_cache {
            self.trig.sin_cos(x, self.cfg.trig_memo)
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
        let mut small = TrigMemo::default();
        let nan_keys = [f64::from_bits(u64::MAX), f64::from_bits(0x7FF8_0000_0000_0001)];
        let mut xs = alloc::vec![0.0, -0.0, 1.0, f64::NAN, -f64::NAN, f64::INFINITY, 1e300, -3.5];
        xs.extend(nan_keys);
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
                let (ws, wc) = jsmath::sin_and_cos(x);
                for (s, c) in
                    [memo.sin_cos(x, DEFAULT_SLOTS), small.sin_cos(x, 3), memo.sin_cos(x, 0)]
                {
                    assert_eq!((s.to_bits(), c.to_bits()), (ws.to_bits(), wc.to_bits()), "{x:e}");
                }
            }
        }
    }
}
