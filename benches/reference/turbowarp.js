#!/usr/bin/env node
'use strict';
/**
 * Times the TurboWarp VM with its JavaScript compiler, headless in Node, on gobo's Scratch
 * workloads. TurboWarp is taken from the npm package @turbowarp/scaffolding@0.4.0, whose
 * bundle (dist/scaffolding-min.js) contains TurboWarp's scratch-vm; a plain `npm install` of it
 * fails on a GitHub-only dependency, so the tarball is `npm pack`ed and unpacked into a work
 * directory outside the repository. Nothing of TurboWarp is vendored.
 *
 *   node benches/reference/turbowarp.js --install [--work-dir DIR]
 *   node benches/reference/turbowarp.js [--work-dir DIR] [--runs 5] [--only a,b]
 *        [--workloads benches/workloads/scratch] [--interpreter]
 *
 * DIR defaults to $XDG_CACHE_HOME/gobo-bench/turbowarp (~/.cache/... without XDG_CACHE_HOME).
 *
 * The frame loop is virtual, with the same rules as ../shared/refvm (scratch-vm): Date.now()
 * is frame * 1000 / fps; the sequencer's work timer is a counter allowing `ticks_per_frame`
 * passes over the thread list per frame; the compiler runs with its default options
 * ({enabled: true, warpTimer: false}: a warp loop runs to its end). runtime._step() is called
 * once per frame; a small stub renderer (lib/stub-renderer.js) gives costumes sizes and makes
 * motion request redraws as in a browser. `--interpreter` disables the compiler (for checking).
 * Timing covers the _step() calls only (loadProject, for `load` workloads).
 */
process.env.TZ = process.env.TZ || 'UTC';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {execFileSync} = require('child_process');
const C = require('./lib/common');
const {StubRenderer} = require('./lib/stub-renderer');

const PACKAGE = '@turbowarp/scaffolding@0.4.0';

function defaultWorkDir () {
    const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
    return path.join(cache, 'gobo-bench', 'turbowarp');
}

function install (dir) {
    fs.mkdirSync(dir, {recursive: true});
    const out = execFileSync('npm', ['pack', PACKAGE, '--silent'], {cwd: dir, encoding: 'utf8'}).trim().split('\n').pop();
    execFileSync('tar', ['xzf', out], {cwd: dir});
    C.progress(`turbowarp.js: unpacked ${out} into ${path.join(dir, 'package')}`);
}

// ---------------------------------------------------------------- virtual clock + budget
const clock = {nowMs: 0, ticksPerFrame: 1000};
const RealDate = Date;
class VirtualDate extends RealDate {
    constructor (...a) { if (a.length === 0) super(Date.UTC(2020, 0, 1) + clock.nowMs); else super(...a); }
    static now () { return clock.nowMs; }
}

/** Replaces the sequencer's wall-clock work timer: `ticksPerFrame` passes, then "time's up". */
class WorkBudgetTimer {
    constructor () { this.n = 0; }
    start () { this.n = 0; }
    time () { return clock.nowMs; }
    timeElapsed () { return (this.n++ < clock.ticksPerFrame) ? 0 : Infinity; }
}

function loadBundle (dir) {
    const el = () => ({style: {}, appendChild () {}, addEventListener () {}, setAttribute () {},
        classList: {add () {}, remove () {}}, getContext () { return null; }});
    globalThis.window = globalThis;
    globalThis.document = {createElement: el, head: el(), body: el(), documentElement: el(),
        addEventListener () {}, hidden: true};
    if (!globalThis.navigator) globalThis.navigator = {language: 'en', userAgent: 'node'};
    // The VM logs through console, bound when the bundle loads (e.g. "Central dispatch
    // replacing existing service provider" for every new VM): keep stdout for result lines
    // and stderr for our progress.
    for (const k of ['log', 'info', 'warn', 'debug']) console[k] = () => {};
    const bundle = require(path.join(dir, 'package', 'dist', 'scaffolding-min.js'));
    globalThis.Date = VirtualDate;
    return bundle.Packages;
}

async function packSb3 (Packages, w) {
    const json = JSON.parse(fs.readFileSync(w.path, 'utf8'));
    const zip = new Packages.JSZip();
    zip.file('project.json', fs.readFileSync(w.path));
    const dir = path.dirname(w.path);
    for (const t of json.targets) {
        for (const a of [...(t.costumes || []), ...(t.sounds || [])]) {
            const name = a.md5ext || `${a.assetId}.${a.dataFormat}`;
            for (const cand of [path.join(dir, name), path.join(dir, 'assets', name)]) {
                if (fs.existsSync(cand)) { zip.file(name, fs.readFileSync(cand)); break; }
            }
        }
    }
    return zip.generateAsync({type: 'uint8array'});
}

async function runOnce (Packages, w, spec, sb3, useCompiler) {
    clock.nowMs = 0;
    const vm = new Packages.VM();
    vm.attachStorage(new Packages.Storage());
    vm.attachRenderer(new StubRenderer());
    vm.setCompatibilityMode(spec.fps === 30);
    vm.setCompilerOptions({enabled: useCompiler, warpTimer: false});
    const rt = vm.runtime;
    rt.currentStepTime = 1000 / spec.fps;
    rt.sequencer.timer = new WorkBudgetTimer();
    const t0 = process.hrtime.bigint();
    await vm.loadProject(sb3);
    const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const active = () => rt.threads.filter(t => !t.updateMonitor).length;
    let stepNs = 0n;
    let timedFrames = 0;
    let compiled = null;
    if (w.mode !== 'load') {
        let frame = 0;
        rt._step(); // idle frame 0, untimed
        frame = 1;
        clock.nowMs = 1000 / spec.fps;
        vm.greenFlag();
        for (let i = 0; i < (w.settle_frames || 0); i++, frame++) {
            clock.nowMs = (frame * 1000) / spec.fps;
            rt._step();
        }
        const limit = frame + (w.mode === 'frames' ? w.frames : w.max_frames);
        for (; frame < limit; frame++) {
            if (w.mode === 'until_idle' && timedFrames > 0 && active() === 0) break;
            clock.nowMs = (frame * 1000) / spec.fps;
            const t = process.hrtime.bigint();
            rt._step();
            stepNs += process.hrtime.bigint() - t;
            timedFrames++;
            if (compiled === null) compiled = rt.threads.length === 0 || rt.threads.every(th => th.isCompiled);
        }
    }
    const observed = {clones: rt._cloneCounter};
    for (const v of Object.values(rt.getTargetForStage().variables)) observed[v.name] = v.value;
    vm.stopAll();
    return {ms: w.mode === 'load' ? loadMs : Number(stepNs) / 1e6, frames: timedFrames, observed, compiled};
}

async function main () {
    const args = C.parseArgs(process.argv.slice(2));
    const dir = path.resolve(typeof args['work-dir'] === 'string' ? args['work-dir'] : defaultWorkDir());
    if (args.install) { install(dir); return; }
    if (!fs.existsSync(path.join(dir, 'package', 'dist', 'scaffolding-min.js'))) {
        C.progress(`turbowarp.js: not installed in ${dir} (run with --install)`);
        process.exit(3);
    }
    const {spec, list} = C.loadWorkloads(args);
    clock.ticksPerFrame = spec.ticks_per_frame;
    const Packages = loadBundle(dir);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package', 'package.json'), 'utf8'));
    const useCompiler = !args.interpreter;
    const impl = `TurboWarp (scaffolding ${pkg.version}, ${useCompiler ? 'compiler' : 'interpreter'})`;
    const runs = Number(args.runs || 5);
    for (const w of list) {
        const sb3 = await packSb3(Packages, w);
        const first = await runOnce(Packages, w, spec, sb3, useCompiler);
        const problems = C.checkState(w, first.observed);
        if (useCompiler && first.compiled === false) problems.push('threads were not compiled');
        const timed = [];
        for (let i = 0; i < runs; i++) {
            const run = await runOnce(Packages, w, spec, sb3, useCompiler);
            C.addFailures(problems, C.checkState(w, run.observed)); // every timed run too
            timed.push(run);
        }
        const line = C.resultLine(impl, w, timed, {checked: problems.length === 0,
            note: problems.length ? problems.join(', ') : undefined});
        C.progress(`${impl} ${w.name}: ${line.value.toFixed(1)} ${w.unit} (median ${line.median_ms.toFixed(2)} ms, ${line.frames} frames)`);
        C.emit(line);
    }
}

main().catch(e => { C.progress(`turbowarp.js: ${e && e.stack ? e.stack : e}`); process.exit(1); });
