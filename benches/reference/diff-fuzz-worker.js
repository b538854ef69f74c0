#!/usr/bin/env node
'use strict';
/**
 * The reference side of gobo's differential fuzzer (benches/src/diff): one long-lived process
 * that runs many generated programs, so the reference's start-up is paid once.
 *
 *   node diff-fuzz-worker.js --shared DIR --oracle node|browser
 *
 * stdin: one JSON job per line
 *   {"id": N, "path": "p.sb3", "frames": F, "seed": S, "ticks": T, "warp": W, "turbo": bool,
 *    "events": [scenario events]}
 * stdout, per job: the trace's frame lines (the format of refvm's trace.js, no meta line), its
 * end line, then {"done": N}; or {"error": "...", "done": N}.
 *
 * --oracle node: ../shared/refvm (scratch-vm 5.0.300 in Node, stub renderer), through its
 * createOracle, exactly as its trace.js runs a project. --oracle browser: ../shared/refvm-browser
 * (scratch-vm with the real scratch-render in headless Chromium), through its page's
 * traceStart/traceChunk, exactly as its trace.js does; the page is reopened every 100 jobs.
 * Our own code; it only drives the harnesses.
 */
process.env.TZ = process.env.TZ || 'UTC';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

function arg (name) {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
}

const shared = arg('shared');
const oracle = arg('oracle') || 'node';
if (!shared) {
    process.stderr.write('diff-fuzz-worker: --shared DIR is required\n');
    process.exit(2);
}

const out = s => process.stdout.write(`${s}\n`);

// refvm counts uid() calls over the process's life (its trace.js runs one project per
// process), and constructing the first VM of a process takes a few. So a job reports the calls
// its own run made plus that first-VM share, measured once: the first job runs in a fresh
// process (its count is the absolute one) and is then run again (its count is the job's share).
let uidState = null;
let firstVmUids = null;

async function nodeJob (refvm, job) {
    const lines = await nodeRun(refvm, job);
    if (firstVmUids === null) {
        const fresh = JSON.parse(lines[lines.length - 1]).end.uidCalls;
        const again = await nodeRun(refvm, job);
        firstVmUids = fresh - JSON.parse(again[again.length - 1]).end.uidCalls;
        return lines;
    }
    return lines;
}

async function nodeRun (refvm, job) {
    const before = uidState ? uidState.uidCalls : 0;
    const share = firstVmUids === null ? 0 : firstVmUids;
    const buf = fs.readFileSync(job.path);
    const o = await refvm.createOracle({
        project: buf, storage: true, seed: job.seed, fps: 30, renderer: 'stub',
        ticksPerFrame: job.ticks, warpChecks: job.warp, turbo: !!job.turbo,
        epoch: '2020-01-01T00:00:00Z', auditRandom: false
    });
    try {
        const byFrame = new Map();
        for (const ev of job.events) {
            const f = Number(ev.frame || 0);
            if (!byFrame.has(f)) byFrame.set(f, []);
            byFrame.get(f).push(ev);
        }
        const lines = [];
        for (let f = 0; f < job.frames; f++) {
            await o.step(byFrame.get(f));
            const snap = o.snapshot();
            const acts = byFrame.get(f);
            if (acts) snap.actions = acts.map(e => e.action);
            lines.push(JSON.stringify(snap));
        }
        uidState = o.state;
        const uidCalls = o.state.uidCalls - before + share;
        const end = {end: {frames: o.frame, blockRandomCalls: o.state.randomCalls, uidCalls}};
        if (o.stub && o.stub.unknownCalls.size) end.end.stubUnimplemented = [...o.stub.unknownCalls];
        lines.push(JSON.stringify(end));
        return lines;
    } finally {
        o.dispose();
    }
}

let browser = null;
let browserJobs = 0;

async function browserJob (job) {
    const dir = path.join(shared, 'refvm-browser');
    const {openPage} = require(path.join(dir, 'lib', 'browser.js'));
    const {projectHashLE} = require(path.join(dir, 'lib', 'project.js'));
    if (browser && browserJobs >= 100) {
        await browser.close();
        browser = null;
    }
    if (!browser) {
        browser = await openPage({});
        browserJobs = 0;
    }
    browserJobs++;
    const buf = fs.readFileSync(job.path);
    const opts = {
        projectB64: buf.toString('base64'), projectIsText: false, projectHashLE: projectHashLE(buf),
        seed: job.seed, fps: 30, renderer: 'webgl', ticksPerFrame: job.ticks, warpChecks: job.warp,
        turbo: !!job.turbo, epoch: '2020-01-01T00:00:00Z', auditRandom: false,
        events: job.events, frames: job.frames, untilIdle: false, pngAt: []
    };
    browser.errors.length = 0;
    await browser.page.evaluate(o => window.RefvmPage.traceStart(o), opts);
    const lines = [];
    for (;;) {
        const chunk = await browser.page.evaluate(n => window.RefvmPage.traceChunk(n), 100);
        for (const line of chunk.lines) lines.push(line);
        if (chunk.done) {
            lines.push(JSON.stringify(chunk.end));
            break;
        }
    }
    if (browser.errors.length) throw new Error(`page error: ${browser.errors[0]}`);
    return lines;
}

async function main () {
    const refvm = oracle === 'node' ? require(path.join(shared, 'refvm', 'lib', 'refvm.js')) : null;
    const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
    for await (const line of rl) {
        if (!line.trim()) continue;
        let job;
        try {
            job = JSON.parse(line);
        } catch (e) {
            out(JSON.stringify({error: `bad job: ${e}`, done: -1}));
            continue;
        }
        try {
            const lines = oracle === 'node' ? await nodeJob(refvm, job) : await browserJob(job);
            for (const l of lines) out(l);
            out(JSON.stringify({done: job.id}));
        } catch (e) {
            out(JSON.stringify({error: String(e && e.stack ? e.stack : e).slice(0, 2000), done: job.id}));
        }
    }
    if (browser) await browser.close();
}

main().catch(e => {
    process.stderr.write(`diff-fuzz-worker: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
});
