#!/usr/bin/env node
'use strict';
/**
 * Times the official scratch-vm (5.0.300) on gobo's Scratch workloads, through the headless
 * oracle in ../shared/refvm (its lib/refvm.js: virtual clock, work budget of N passes per
 * frame, counted warp checks, stub renderer). Nothing of scratch-vm is vendored: it is
 * required from the refvm checkout given with --refvm (after `npm install` there).
 *
 *   node benches/reference/scratch-vm.js --refvm ../shared/refvm [--runs 5] [--only a,b]
 *        [--workloads benches/workloads/scratch]
 *
 * Per workload: one untimed warm-up run, then --runs timed runs, each on a fresh VM; the
 * median is reported (result lines: lib/common.js, format in docs/performance.md). Timing
 * covers the runtime._step() calls only (load, for the `load` workloads), like refvm's bench.js.
 */
process.env.TZ = process.env.TZ || 'UTC';
const path = require('path');
const fs = require('fs');
const C = require('./lib/common');

async function runOnce (refvm, w, spec, prep) {
    const t0 = process.hrtime.bigint();
    const o = await refvm.createOracle({project: prep.input, storage: prep.storage, renderer: 'stub',
        fps: spec.fps, seed: spec.seed, ticksPerFrame: spec.ticks_per_frame, warpChecks: spec.warp_checks});
    const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const rt = o.vm.runtime;
    const S = o.state;
    let frame = 0;
    let stepNs = 0n;
    let timedFrames = 0;
    if (w.mode !== 'load') {
        await o.step(); // idle frame 0, untimed
        frame = 1;
        S.nowMs = 1000 / spec.fps;
        o.vm.greenFlag();
        for (let i = 0; i < (w.settle_frames || 0); i++, frame++) {
            S.nowMs = (frame * 1000) / spec.fps;
            rt._step();
        }
        const limit = frame + (w.mode === 'frames' ? w.frames : w.max_frames);
        for (; frame < limit; frame++) {
            if (w.mode === 'until_idle' && timedFrames > 0 && o.activeThreads() === 0) break;
            S.nowMs = (frame * 1000) / spec.fps;
            const t = process.hrtime.bigint();
            rt._step();
            stepNs += process.hrtime.bigint() - t;
            timedFrames++;
        }
    }
    const stage = rt.getTargetForStage();
    const observed = {clones: rt._cloneCounter};
    for (const v of Object.values(stage.variables)) observed[v.name] = v.value;
    o.dispose();
    return {ms: w.mode === 'load' ? loadMs : Number(stepNs) / 1e6, frames: timedFrames, observed};
}

async function main () {
    const args = C.parseArgs(process.argv.slice(2));
    const refvmDir = path.resolve(args.refvm || path.join(__dirname, '..', '..', '..', 'shared', 'refvm'));
    if (!fs.existsSync(path.join(refvmDir, 'node_modules', 'scratch-vm', 'package.json'))) {
        C.progress(`scratch-vm.js: not installed: ${refvmDir}/node_modules/scratch-vm (run npm install there)`);
        process.exit(3);
    }
    const refvm = require(path.join(refvmDir, 'lib', 'refvm.js'));
    const {spec, list} = C.loadWorkloads(args);
    const runs = Number(args.runs || 5);
    const impl = `scratch-vm ${refvm.VM_VERSION}`;
    for (const w of list) {
        const prep = await refvm.prepareProject(w.path);
        const first = await runOnce(refvm, w, spec, prep); // warm-up, also the state check
        const failures = C.checkState(w, first.observed);
        const timed = [];
        for (let i = 0; i < runs; i++) {
            const run = await runOnce(refvm, w, spec, prep);
            C.addFailures(failures, C.checkState(w, run.observed)); // every timed run too
            timed.push(run);
        }
        const line = C.resultLine(impl, w, timed, {checked: failures.length === 0,
            note: failures.length ? `end state differs: ${failures.join(', ')}` : undefined});
        C.progress(`${impl} ${w.name}: ${line.value.toFixed(1)} ${w.unit} (median ${line.median_ms.toFixed(2)} ms, ${line.frames} frames)`);
        C.emit(line);
    }
}

main().catch(e => { C.progress(`scratch-vm.js: ${e && e.stack ? e.stack : e}`); process.exit(1); });
