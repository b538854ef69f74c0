//! A memo of touching answers, so that a script polling `touching color?` (or a sprite, the
//! edge, the mouse, `color is touching color?`) while nothing moves costs a lookup.
//!
//! A touching answer is a pure function of the render state: every target's position,
//! direction, scale, rotation style, costume, effects, visibility and dragging, the layer
//! order and the clone set, the pen layer, the mouse, and the renderer's own state that the
//! queries read (silhouette levels made so far, convex hulls). Every change to any of these
//! bumps `Vm::render_epoch` (`Vm::render_changed`). The memo maps (asker, query, epoch) to
//! the answer.
//!
//! Queries have side effects on that state (MIP requests raise silhouette levels, bounds make
//! hulls), which a memo hit must not skip. So an answer is kept only when computing it changed
//! nothing, i.e. the epoch is the same after the query as before: the query then runs from a
//! state its own side effects cannot change, and asking again would run it identically
//! (same answer, no side effect). The first query after a change therefore always runs in
//! full, with exactly its side effects; at most a second one does too (when the first raised
//! a level or made a hull). Debug builds check every hit against the full query.
//! `Config::touch_memo = false` turns the memo off.

use alloc::vec::Vec;

use super::Vm;

/// A touching query, by what it asks (the asker is the memo's row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Query {
    /// `touching edge?`
    Edge,
    /// `touching mouse-pointer?`
    Mouse,
    /// `touching <sprite>?`, by the sprite's index in the image.
    Sprite(u32),
    /// `touching color?`
    Color([u8; 3]),
    /// `color (mask) is touching (color)?`
    ColorColor([u8; 3], [u8; 3]),
}

/// Answers kept per asker (a sprite polling more distinct queries than this at once keeps
/// the most recent ones).
const WAYS: usize = 8;

/// One kept answer (`epoch` 0: empty; epochs start at 1).
#[derive(Clone, Copy, Debug)]
struct Entry {
    epoch: u64,
    query: Query,
    answer: bool,
}

const EMPTY: Entry = Entry { epoch: 0, query: Query::Edge, answer: false };

/// One asker's answers and the slot to replace next when all are current.
#[derive(Clone, Copy, Debug)]
struct Row {
    entries: [Entry; WAYS],
    next: u8,
}

/// The memo: a few answers per asking instance (rows grow with the instance list, so a
/// steady run allocates nothing).
#[derive(Clone, Debug, Default)]
pub struct TouchMemo {
    rows: Vec<Row>,
}

impl TouchMemo {
    /// The answer to `query` by `t` kept for `epoch`.
    #[inline]
    fn get(&self, t: u32, query: Query, epoch: u64) -> Option<bool> {
        let row = self.rows.get(t as usize)?;
        row.entries.iter().find(|e| e.epoch == epoch && e.query == query).map(|e| e.answer)
    }

    /// Keep an answer in a slot of an earlier epoch (which can never be asked for again:
    /// epochs only grow), else in the asker's slots in turn.
    fn put(&mut self, t: u32, query: Query, epoch: u64, answer: bool) {
        let t = t as usize;
        if self.rows.len() <= t {
            self.rows.resize(t + 1, Row { entries: [EMPTY; WAYS], next: 0 });
        }
        let row = &mut self.rows[t];
        let slot = match row.entries.iter().position(|e| e.epoch != epoch) {
            Some(k) => k,
            None => {
                let k = usize::from(row.next) % WAYS;
                row.next = ((k + 1) % WAYS) as u8;
                k
            }
        };
        row.entries[slot] = Entry { epoch, query, answer };
    }
}

impl Vm {
    /// Something a touching answer depends on changed (see the module documentation).
    #[inline]
    pub(crate) fn render_changed(&mut self) {
        self.render_epoch += 1;
    }

    /// The answer of `query` asked by `t`: kept from an earlier identical query at this render
    /// epoch, else `full` computes it (and it is kept when `full` changed nothing).
    pub(crate) fn memo_touch(
        &mut self,
        t: u32,
        query: Query,
        full: impl FnOnce(&mut Vm) -> bool,
    ) -> bool {
        if !self.cfg.touch_memo {
            return full(self);
        }
        let epoch = self.render_epoch;
        if let Some(answer) = self.touch_memo.get(t, query, epoch) {
            #[cfg(debug_assertions)]
            {
                let again = full(self);
                assert_eq!(
                    (again, self.render_epoch),
                    (answer, epoch),
                    "touch memo: {query:?} by {t} kept a stale answer (a render change \
                     without render_changed?)"
                );
            }
            return answer;
        }
        let answer = full(self);
        if self.render_epoch == epoch {
            self.touch_memo.put(t, query, epoch, answer);
        }
        answer
    }
}
