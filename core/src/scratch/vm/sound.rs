//! Sound without audio output: scratch-vm 5.0.300's `scratch3_sound.js` over a model of
//! scratch-audio's `SoundBank`/`SoundPlayer` in virtual time. A sound lasts `sampleCount /
//! rate` seconds at playback rate 1; the pitch effect sets the rate to `2^(pitch / 120)`
//! (`PitchEffect.getRatio`), also while the sound plays. No samples are ever produced.
//!
//! Timing rule (`play sound until done`): a sound started at virtual time `t` with duration
//! `d` ends at `t + d`; the player's `stop` event resolves the block's promise, and, as in the
//! browser where the audio `ended` event arrives between two steps, the waiting thread goes on
//! with the next block on the first frame whose time is `>= t + d` (resolved at the start of
//! that frame, like say-for-secs timeouts). A `stop` emitted by a block (`stop all sounds`, a
//! replay) and the `Promise.resolve()` of the effect and volume blocks resolve after the
//! current step, so those threads go on at the next frame.
//!
//! [`AudioMode::None`] reproduces scratch-vm with no audio engine (the reference harnesses):
//! sprites have no sound bank, so playing and stopping do nothing and nothing waits; effect
//! state is still kept, clamped and copied to clones.

use crate::clamp::clamp;
use alloc::vec::Vec;

pub use crate::scratch::image::ops::SoundFx;
use crate::scratch::value::cast::{to_number, to_str_value};
use crate::scratch::value::Value;
use crate::scratch::vm::Vm;

/// Which audio engine the VM models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AudioMode {
    /// The browser with an audio engine: sounds last their duration (default).
    #[default]
    Timed,
    /// No audio engine (the reference harnesses): `play sound until done` does not wait.
    None,
}

impl AudioMode {
    /// Parse `timed` / `none`.
    pub fn parse(s: &str) -> Option<AudioMode> {
        match s {
            "timed" => Some(AudioMode::Timed),
            "none" => Some(AudioMode::None),
            _ => None,
        }
    }

    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            AudioMode::Timed => "timed",
            AudioMode::None => "none",
        }
    }
}

/// scratch-audio's `DECAY_DURATION` (s): a replay this soon after a start does not restart.
const DECAY_MS: f64 = 25.0;

/// Who a player last played for (`SoundBank.playerTargets`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// Never played.
    Nobody,
    /// An instance (index).
    Target(u32),
    /// A clone that has since been disposed (matches no target any more).
    Gone,
}

/// One `SoundPlayer` of a sprite's sound bank (shared by the sprite and its clones).
#[derive(Clone, Debug)]
pub(crate) struct Player {
    owner: Owner,
    playing: bool,
    /// Virtual ms of the last real start (`startingUntil` is this + 25 ms).
    started: f64,
    /// Virtual ms at which `left` was measured.
    mark: f64,
    /// Seconds of sound left at rate 1, at `mark`.
    left: f64,
    /// Playback rate.
    rate: f64,
    /// Threads whose promise resolves on this player's next `stop`.
    waiters: Vec<u64>,
}

impl Player {
    fn new() -> Player {
        Player {
            owner: Owner::Nobody,
            playing: false,
            started: 0.0,
            mark: 0.0,
            left: 0.0,
            rate: 1.0,
            waiters: Vec::new(),
        }
    }

    /// Virtual ms at which the sound ends.
    fn end(&self) -> f64 {
        self.mark + 1000.0 * self.left / self.rate
    }

    /// Change the playback rate at `now`, keeping the position.
    fn set_rate(&mut self, rate: f64, now: f64) {
        if self.playing {
            let played = (now - self.mark) / 1000.0 * self.rate;
            self.left = (self.left - played).max(0.0);
            self.mark = now;
        }
        self.rate = rate;
    }
}

/// The sound state of a VM: the players of each sprite, the sounds each target waits on
/// (`waitingSounds`), and the promises to resolve at the next frame.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sounds {
    /// Players by image target, then sound index (empty in [`AudioMode::None`]).
    players: Vec<Vec<Player>>,
    /// (instance, sound index) played with `until done` and not stopped since.
    waiting: Vec<(u32, u32)>,
    /// Threads whose promise resolved during a step: they go on at the next frame.
    deferred: Vec<u64>,
}

/// `2^(pitch / 120)`: the pitch effect's frequency ratio.
fn pitch_rate(pitch: f64) -> f64 {
    libm::pow(2.0, pitch / 10.0 / 12.0)
}

/// JavaScript `parseInt(s, 10)` for a sound menu value (NaN → None).
fn parse_int(s: &str) -> Option<f64> {
    let s = s.trim_start_matches([' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{a0}', '\u{feff}']);
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut n = 0.0f64;
    let mut any = false;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            break;
        }
        any = true;
        n = n * 10.0 + f64::from(b - b'0');
    }
    any.then_some(if neg { -n } else { n })
}

impl Sounds {
    /// Players for every sound of every target of an image, when there is an audio engine.
    pub(crate) fn new(counts: impl Iterator<Item = usize>, mode: AudioMode) -> Sounds {
        let players = match mode {
            AudioMode::Timed => counts.map(|n| alloc::vec![Player::new(); n]).collect(),
            AudioMode::None => Vec::new(),
        };
        Sounds { players, waiting: Vec::new(), deferred: Vec::new() }
    }
}

impl Vm {
    /// `_getSoundIndex`: a sound by name, else a 1-based wrapped index (`parseInt`).
    fn sound_index(&self, t: u32, menu: &Value) -> Option<u32> {
        let sprite = self.insts.get(t as usize)?.sprite as usize;
        let names = &self.img.targets.get(sprite)?.sounds;
        if names.is_empty() {
            return None;
        }
        if let Value::Str(s) = menu {
            if let Some(i) = names.iter().position(|n| **n == **s) {
                return Some(i as u32);
            }
        }
        let n = parse_int(&to_str_value(menu))?;
        let len = names.len() as f64;
        let i = n - 1.0;
        Some((((i % len) + len) % len) as u32)
    }

    /// `sound_play` / `sound_playuntildone` with the menu value.
    pub(crate) fn play_sound(&mut self, t: u32, menu: &Value, wait: bool) {
        let Some(k) = self.sound_index(t, menu) else { return };
        let sprite = self.insts[t as usize].sprite as usize;
        if self.sounds.players.get(sprite).and_then(|p| p.get(k as usize)).is_none() {
            return; // no sound bank
        }
        if wait {
            if !self.sounds.waiting.contains(&(t, k)) {
                self.sounds.waiting.push((t, k));
            }
        } else {
            self.sounds.waiting.retain(|&w| w != (t, k));
        }
        let now = self.now_ms;
        let rate = pitch_rate(self.insts[t as usize].sound_fx[SoundFx::Pitch as usize]);
        let secs = self.img.targets[sprite].sound_secs.get(k as usize).copied().unwrap_or(0.0);
        let serial = self.th().serial;
        let Sounds { players, deferred, .. } = &mut self.sounds;
        let p = &mut players[sprite][k as usize];
        // SoundBank.playSound: a different target stops the old playback first.
        if p.owner != Owner::Target(t) {
            stop_player(p, deferred);
        }
        p.owner = Owner::Target(t);
        p.set_rate(rate, now);
        if p.playing && now - p.started < DECAY_MS {
            // SoundPlayer.play while starting: 'stop' for the old promises, same source.
            deferred.append(&mut p.waiters);
        } else {
            stop_player(p, deferred);
            p.playing = true;
            p.started = now;
            p.mark = now;
            p.left = secs;
        }
        if wait {
            p.waiters.push(serial);
            self.promise_wait();
        }
    }

    /// `sound_stopallsounds` and `PROJECT_STOP_ALL`: every player whose target still exists.
    pub(crate) fn stop_all_sounds(&mut self) {
        let Sounds { players, deferred, waiting } = &mut self.sounds;
        for p in players.iter_mut().flatten() {
            if matches!(p.owner, Owner::Target(_)) {
                stop_player(p, deferred);
            }
        }
        if !players.is_empty() {
            waiting.clear();
        }
    }

    /// `_stopWaitingSoundsForTarget` (`STOP_FOR_TARGET`); `gone` also marks the target's
    /// players as belonging to a disposed clone.
    pub(crate) fn stop_waiting_sounds(&mut self, t: u32, gone: bool) {
        let Some(sprite) = self.insts.get(t as usize).map(|i| i.sprite as usize) else { return };
        let Sounds { players, deferred, waiting } = &mut self.sounds;
        let Some(bank) = players.get_mut(sprite) else { return };
        for &(_, k) in waiting.iter().filter(|w| w.0 == t) {
            if let Some(p) = bank.get_mut(k as usize) {
                if p.owner == Owner::Target(t) {
                    stop_player(p, deferred);
                }
            }
        }
        waiting.retain(|w| w.0 != t);
        if gone {
            for p in bank.iter_mut().filter(|p| p.owner == Owner::Target(t)) {
                p.owner = Owner::Gone;
            }
        }
    }

    /// `sound_seteffectto` / `sound_changeeffectby` with the effect field (`None`: unknown
    /// effect, which does nothing and does not yield).
    pub(crate) fn update_sound_effect(
        &mut self,
        t: u32,
        fx: Option<SoundFx>,
        v: &Value,
        change: bool,
    ) {
        let value = to_number(v);
        let Some(fx) = fx else { return };
        let (min, max) = match fx {
            SoundFx::Pitch => (-360.0, 360.0),
            SoundFx::Pan => (-100.0, 100.0),
        };
        let cur = &mut self.insts[t as usize].sound_fx[fx as usize];
        let n = if change { *cur + value } else { value };
        *cur = clamp(n, min, max);
        self.sync_sound_effects(t);
        self.resolve_next_frame();
    }

    /// `_clearEffectsForTarget`.
    pub(crate) fn clear_sound_effects(&mut self, t: u32) {
        if let Some(i) = self.insts.get_mut(t as usize) {
            i.sound_fx = [0.0; 2];
        }
        self.sync_sound_effects(t);
    }

    /// `SoundBank.setEffects(target)`: the pitch of the target's playing sounds follows.
    pub(crate) fn sync_sound_effects(&mut self, t: u32) {
        let Some(inst) = self.insts.get(t as usize) else { return };
        let (sprite, rate) = (inst.sprite as usize, pitch_rate(inst.sound_fx[0]));
        let now = self.now_ms;
        if let Some(bank) = self.sounds.players.get_mut(sprite) {
            for p in bank.iter_mut().filter(|p| p.owner == Owner::Target(t)) {
                p.set_rate(rate, now);
            }
        }
    }

    /// A block returned `Promise.resolve()`: the thread waits and goes on at the next frame.
    pub(crate) fn resolve_next_frame(&mut self) {
        let serial = self.th().serial;
        self.sounds.deferred.push(serial);
        self.promise_wait();
    }

    /// At frame start: sounds that have ended emit `stop`, and promises resolved during the
    /// last step resolve.
    pub(crate) fn fire_sounds(&mut self) {
        let now = self.now_ms;
        let Sounds { players, deferred, .. } = &mut self.sounds;
        for p in players.iter_mut().flatten() {
            if p.playing && p.end() <= now {
                p.playing = false;
                deferred.append(&mut p.waiters);
            }
        }
        if self.sounds.deferred.is_empty() {
            return;
        }
        let ready = core::mem::take(&mut self.sounds.deferred);
        for &s in &ready {
            self.resolve_promise(s);
        }
        let mut ready = ready;
        ready.clear();
        self.sounds.deferred = ready;
    }

    /// Sound effects (pitch, pan) of an instance, for hosts and tests.
    pub fn sound_effects(&self, t: u32) -> Option<[f64; 2]> {
        self.insts.get(t as usize).map(|i| i.sound_fx)
    }
}

/// `SoundPlayer.stop`: if playing, emit `stop` (its waiters go on at the next frame).
fn stop_player(p: &mut Player, deferred: &mut Vec<u64>) {
    if p.playing {
        p.playing = false;
        deferred.append(&mut p.waiters);
    }
}
