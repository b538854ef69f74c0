// Preloaded into the reference harness by scripts/regen-scratch-goldens.sh
// (`node -r ./scripts/refvm-frame-interval.js trace.js ...`): makes `setInterval`
// deterministic on the harness's virtual clock.
//
// Why: scratch-vm's Makey Makey extension flips its `frameToggle` with a real
// `setInterval(fn, runtime.currentStepTime)` created while the project loads. The harness
// virtualises `setTimeout` (its P6) but not `setInterval`, so the toggle followed the wall
// clock (traces differed from run to run) and the live interval kept Node from exiting.
// In a browser the interval has the frame period, so the toggle flips once per frame; this
// preload makes that exact: an interval callback runs at most once per check, when
// `Date.now()` (the harness's virtual frame time) has reached its next due time, with a
// 1e-6 ms tolerance so that `k * (1000 / fps)` and `(k * 1000) / fps` count as the same
// frame. Checks happen whenever `setImmediate` is called: the harness drains microtasks
// with it right after firing due timeouts, before `runtime._step()`, so a due interval runs
// at the start of its frame, after the scenario's actions. Nothing else is changed.
'use strict';

const intervals = new Map();
let seq = 0;

function fireDue () {
    const now = Date.now();
    for (const iv of Array.from(intervals.values())) {
        if (iv.next <= now + 1e-6) {
            iv.count += 1;
            iv.next = iv.start + (iv.count + 1) * iv.period;
            iv.fn(...iv.args);
        }
    }
}

globalThis.setInterval = function (fn, ms, ...args) {
    const period = Math.max(1, Number(ms) || 0);
    const start = Date.now();
    const id = {refvmInterval: ++seq, unref () { return this; }, ref () { return this; }};
    intervals.set(id, {fn, args, start, period, count: 0, next: start + period});
    return id;
};
globalThis.clearInterval = function (id) {
    intervals.delete(id);
};

const realSetImmediate = globalThis.setImmediate;
globalThis.setImmediate = function (...a) {
    fireDue();
    return realSetImmediate(...a);
};
