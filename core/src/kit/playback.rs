//! Step-by-step playback of a recorded run, shared by the XLogo and drawing players: which step
//! is shown, whether it plays, and what the kit's keys do. The players decide what a step
//! shows.
//!
//! Timing (frames at 30 fps): step 0 (the start) is held for `hold` frames, then one step every
//! `per_step` frames until the last step (or until the player says the run is done). Keys:
//! right and left step one forward or back (and pause), space plays or pauses (from the end it
//! replays from the start), the green flag replays from the start.

use core::fmt;

use super::input::Keys;

/// The visible state of a playback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerState {
    /// Steps shown so far.
    pub step: u16,
    /// Steps in the playback.
    pub steps: u16,
    /// Playing (else paused or done).
    pub playing: bool,
    /// At the last step (or the run ended early).
    pub done: bool,
}

impl fmt::Display for PlayerState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step={}/{} {}", self.step, self.steps, self.mode())
    }
}

impl PlayerState {
    /// `done`, `playing` or `paused`.
    pub fn mode(&self) -> &'static str {
        match (self.done, self.playing) {
            (true, _) => "done",
            (false, true) => "playing",
            (false, false) => "paused",
        }
    }
}

/// Which step of `steps` is shown, and the play state.
#[derive(Debug, Clone)]
pub struct Playback {
    step: usize,
    steps: usize,
    playing: bool,
    timer: u32,
    hold: u32,
    per_step: u32,
}

impl Playback {
    /// A playback of `steps` steps at step 0, playing: the start held `hold` frames, then a step
    /// every `per_step` frames.
    pub fn new(steps: usize, hold: u32, per_step: u32) -> Self {
        Self { step: 0, steps, playing: true, timer: 0, hold, per_step }
    }

    /// The step shown.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Steps in the playback.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// The visible state; `ended` says the run ended before the last step (an XLogo crash).
    pub fn state(&self, ended: bool) -> PlayerState {
        let done = ended || self.step >= self.steps;
        PlayerState {
            step: self.step.min(usize::from(u16::MAX)) as u16,
            steps: self.steps.min(usize::from(u16::MAX)) as u16,
            playing: self.playing && !done,
            done,
        }
    }

    fn go_to(&mut self, step: usize) -> bool {
        let step = step.min(self.steps);
        self.timer = 0;
        core::mem::replace(&mut self.step, step) != step
    }

    /// Advances one frame with this frame's keys; returns whether the shown step changed.
    /// `ended` says the run ended before the last step (it then plays no further).
    pub fn frame(&mut self, keys: Keys, ended: bool) -> bool {
        let done = self.state(ended).done;
        if keys.green_flag {
            self.playing = true;
            return self.go_to(0);
        }
        if keys.was_pressed(Keys::RIGHT) {
            self.playing = false;
            return !done && self.go_to(self.step + 1);
        }
        if keys.was_pressed(Keys::LEFT) {
            self.playing = false;
            return self.go_to(self.step.saturating_sub(1));
        }
        if keys.was_pressed(Keys::SPACE) {
            if done {
                self.playing = true;
                return self.go_to(0);
            }
            self.playing = !self.playing;
            self.timer = 0;
            return false;
        }
        if !self.playing || done {
            return false;
        }
        self.timer = self.timer.saturating_add(1);
        let wait = if self.step == 0 { self.hold } else { self.per_step };
        self.timer >= wait && self.go_to(self.step + 1)
    }
}
