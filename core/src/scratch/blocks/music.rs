//! Music extension blocks (`music_*`), after scratch-vm's `extensions/scratch3_music`.
//!
//! There is no audio engine, so what is modelled is everything observable without one: the
//! timing of rests, drums and notes (a stack timer on the virtual clock), the tempo (on the
//! stage, clamped) and each target's instrument (copied to its clones). Sample playback and
//! its concurrency limit are not modelled: in scratch-vm they never delay a thread.

use crate::scratch::image::ops::MusicOp;
use crate::scratch::image::ExprId;
use crate::scratch::value::cast::to_number;
use crate::scratch::value::Value;
use crate::scratch::vm::io::js_round;
use crate::scratch::vm::thread::Ctx;
use crate::scratch::vm::Vm;

use crate::clamp::wrap_clamp;

/// Number of instruments in the instrument menu (`INSTRUMENT_INFO.length`).
const INSTRUMENTS: f64 = 21.0;
/// `BEAT_RANGE`.
const BEATS: (f64, f64) = (0.0, 100.0);
/// `TEMPO_RANGE`.
const TEMPO: (f64, f64) = (20.0, 500.0);

/// `MathUtil.clamp` (`Math.min(Math.max(n, min), max)`: NaN stays NaN).
fn js_clamp(n: f64, (min, max): (f64, f64)) -> f64 {
    if n.is_nan() {
        return n;
    }
    if n < min {
        min
    } else if n > max {
        max
    } else {
        n
    }
}

impl Vm {
    /// `getTempo()`: the stage's tempo.
    pub(crate) fn tempo(&self) -> Value {
        Value::Num(self.insts.get(self.stage as usize).map_or(60.0, |s| s.tempo))
    }

    /// `_beatsToSec`.
    fn beats_to_sec(&self, beats: f64) -> f64 {
        let tempo = self.insts.get(self.stage as usize).map_or(60.0, |s| s.tempo);
        (60.0 / tempo) * beats
    }

    /// `_updateTempo`.
    fn update_tempo(&mut self, tempo: f64) {
        let tempo = js_clamp(tempo, TEMPO);
        if let Some(s) = self.insts.get_mut(self.stage as usize) {
            s.tempo = tempo;
        }
    }

    pub(crate) fn exec_music(&mut self, op: MusicOp, args: &[ExprId], t: u32) {
        match op {
            MusicOp::PlayDrum | MusicOp::MidiPlayDrum | MusicOp::Rest | MusicOp::PlayNote => {
                self.music_timed(op, args, t)
            }
            MusicOp::SetInstrument | MusicOp::MidiSetInstrument => {
                let n = self.num_arg(args, 0, t);
                self.set_instrument(t, n, op == MusicOp::MidiSetInstrument);
            }
            MusicOp::SetTempo => {
                let v = self.num_arg(args, 0, t);
                self.update_tempo(v);
            }
            MusicOp::ChangeTempo => {
                let change = self.num_arg(args, 0, t);
                let tempo = change + self.insts.get(self.stage as usize).map_or(60.0, |s| s.tempo);
                self.update_tempo(tempo);
            }
        }
    }

    /// Rest, drum and note: every execution evaluates the inputs (as scratch-vm does before
    /// calling the block); the first starts the stack timer and yields (`_startStackTimer`),
    /// later ones yield until `60 / tempo * beats` seconds have passed (`_checkStackTimer`).
    /// A note for 0 beats neither starts a timer nor yields.
    fn music_timed(&mut self, op: MusicOp, args: &[ExprId], t: u32) {
        let beats_arg = if op == MusicOp::Rest { 0 } else { 1 };
        let first = if op == MusicOp::Rest { Value::Undefined } else { self.arg(args, 0, t) };
        let beats = self.arg(args, beats_arg, t);
        let now = self.current_msecs;
        if let Ctx::Timer(start, duration_ms) = *self.th().ctx() {
            if now - start < duration_ms {
                self.yield_now();
            }
            return;
        }
        // The note (clamped to 0..130) and the drum (wrapped to the menu's 18) are only
        // heard; their inputs were evaluated above, which is all a program can observe.
        let _ = first;
        let beats = js_clamp(to_number(&beats), BEATS);
        if op == MusicOp::PlayNote && beats == 0.0 {
            return;
        }
        let secs = self.beats_to_sec(beats);
        *self.th().ctx() = Ctx::Timer(now, secs * 1000.0);
        self.yield_now();
    }

    /// `_setInstrument`: the target's instrument, 0-based, wrapped to the menu. MIDI numbers
    /// (`midiSetInstrument`) map to Scratch instruments through a table scratch-vm keeps for
    /// sound only; gobo wraps them like menu numbers, which no block can observe.
    fn set_instrument(&mut self, t: u32, n: f64, _midi: bool) {
        let n = wrap_clamp(js_round(n) - 1.0, 0.0, INSTRUMENTS - 1.0);
        if let Some(i) = self.insts.get_mut(t as usize) {
            i.instrument = n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::js_clamp;

    #[test]
    fn clamp_keeps_nan_and_bounds() {
        assert!(js_clamp(f64::NAN, (0.0, 1.0)).is_nan());
        assert_eq!(js_clamp(-3.0, (0.0, 100.0)), 0.0);
        assert_eq!(js_clamp(1e9, (20.0, 500.0)), 500.0);
        assert_eq!(js_clamp(f64::NEG_INFINITY, (20.0, 500.0)), 20.0);
        assert_eq!(js_clamp(42.5, (20.0, 500.0)), 42.5);
    }
}
