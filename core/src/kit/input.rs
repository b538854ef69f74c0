//! Kit buttons and the keys programs see: the mapping from a board's physical buttons, sampled
//! once per frame, to held keys, newly pressed keys and green-flag clicks.
//!
//! Gamepad kits (arrows + select): the arrows are the arrow keys, select is the space key, and
//! holding select for [`GREEN_FLAG_HOLD_FRAMES`] frames clicks the green flag. Two-button kits
//! (A, B): A is the space key and B clicks the green flag.

use core::ops::BitOr;

/// Frames select must be held on a gamepad kit to click the green flag (one second at 30 fps).
pub const GREEN_FLAG_HOLD_FRAMES: u32 = 30;

/// A set of physical buttons (pressed, or present on a board).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Buttons(pub u8);

impl Buttons {
    /// No button.
    pub const NONE: Self = Self(0);
    /// Gamepad up.
    pub const UP: Self = Self(1);
    /// Gamepad down.
    pub const DOWN: Self = Self(2);
    /// Gamepad left.
    pub const LEFT: Self = Self(4);
    /// Gamepad right.
    pub const RIGHT: Self = Self(8);
    /// Gamepad select.
    pub const SELECT: Self = Self(16);
    /// Button A.
    pub const A: Self = Self(32);
    /// Button B.
    pub const B: Self = Self(64);
    /// The five buttons of a gamepad kit.
    pub const GAMEPAD: Self = Self(31);
    /// The two buttons of an A/B kit.
    pub const AB: Self = Self(96);

    /// Whether every button of `other` is in `self`.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }
}

impl BitOr for Buttons {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

/// The keys a program sees in one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Keys {
    /// Keys held down this frame (bits [`Keys::UP`] .. [`Keys::SPACE`]).
    pub held: u8,
    /// Keys that went down this frame.
    pub pressed: u8,
    /// The green flag was clicked this frame.
    pub green_flag: bool,
}

impl Keys {
    /// Up arrow.
    pub const UP: u8 = 1;
    /// Down arrow.
    pub const DOWN: u8 = 2;
    /// Left arrow.
    pub const LEFT: u8 = 4;
    /// Right arrow.
    pub const RIGHT: u8 = 8;
    /// Space.
    pub const SPACE: u8 = 16;

    /// Whether `key` went down this frame.
    pub fn was_pressed(&self, key: u8) -> bool {
        self.pressed & key != 0
    }
}

/// Turns per-frame button samples into [`Keys`]; remembers the previous frame for edges.
#[derive(Debug, Clone, Default)]
pub struct KeyMapper {
    board: Buttons,
    previous: u8,
    select_frames: u32,
}

impl KeyMapper {
    /// A mapper for a board with the given buttons.
    pub fn new(board: Buttons) -> Self {
        Self { board, previous: 0, select_frames: 0 }
    }

    /// Maps this frame's sample of pressed buttons.
    pub fn map(&mut self, pressed: Buttons) -> Keys {
        let pressed = Buttons(pressed.0 & self.board.0);
        let mut held = pressed.0 & 0b1111; // arrows map bit for bit
        let mut green_flag = false;
        if pressed.contains(Buttons::SELECT) || pressed.contains(Buttons::A) {
            held |= Keys::SPACE;
        }
        if pressed.contains(Buttons::SELECT) {
            self.select_frames = self.select_frames.saturating_add(1);
            green_flag = self.select_frames == GREEN_FLAG_HOLD_FRAMES;
        } else {
            self.select_frames = 0;
        }
        let b_was_down = self.previous & Buttons::B.0 != 0;
        if pressed.contains(Buttons::B) && !b_was_down {
            green_flag = true;
        }
        let previous_held = self.previous_keys();
        self.previous = pressed.0;
        Keys { held, pressed: held & !previous_held, green_flag }
    }

    fn previous_keys(&self) -> u8 {
        let prev = Buttons(self.previous);
        let mut held = prev.0 & 0b1111;
        if prev.contains(Buttons::SELECT) || prev.contains(Buttons::A) {
            held |= Keys::SPACE;
        }
        held
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_are_edges_and_held() {
        let mut m = KeyMapper::new(Buttons::GAMEPAD);
        let k = m.map(Buttons::LEFT);
        assert_eq!((k.held, k.pressed), (Keys::LEFT, Keys::LEFT));
        let k = m.map(Buttons::LEFT);
        assert_eq!((k.held, k.pressed), (Keys::LEFT, 0));
        let k = m.map(Buttons::NONE);
        assert_eq!((k.held, k.pressed), (0, 0));
    }

    #[test]
    fn holding_select_clicks_green_flag_once() {
        let mut m = KeyMapper::new(Buttons::GAMEPAD);
        let flags: u32 = (0..100).map(|_| u32::from(m.map(Buttons::SELECT).green_flag)).sum();
        assert_eq!(flags, 1);
        let mut m = KeyMapper::new(Buttons::GAMEPAD);
        for frame in 1..=GREEN_FLAG_HOLD_FRAMES {
            let k = m.map(Buttons::SELECT);
            assert_eq!(k.green_flag, frame == GREEN_FLAG_HOLD_FRAMES, "frame {frame}");
            assert_eq!(k.held, Keys::SPACE);
        }
    }

    #[test]
    fn ab_board_maps_a_to_space_and_b_to_flag() {
        let mut m = KeyMapper::new(Buttons::AB);
        assert!(m.map(Buttons::B).green_flag);
        assert!(!m.map(Buttons::B).green_flag);
        let k = m.map(Buttons::A);
        assert_eq!(k.pressed, Keys::SPACE);
        // Buttons the board does not have are ignored.
        assert_eq!(m.map(Buttons::LEFT).held, 0);
    }
}
