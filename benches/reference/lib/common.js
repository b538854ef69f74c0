'use strict';
/**
 * Shared helpers of the reference runners (scratch-vm.js, turbowarp.js): argument parsing, the
 * workload list (benches/workloads/scratch/workloads.json), medians, result lines.
 *
 * A runner prints one JSON object per line on stdout (format: docs/performance.md):
 *   {"impl", "workload", "unit", "value", "median_ms", "runs", "frames", "checked", "note"?}
 * and progress on stderr.
 */
const fs = require('fs');
const path = require('path');

const DEFAULT_WORKLOADS = path.join(__dirname, '..', '..', 'workloads', 'scratch');

/** `--key value` pairs (and bare `--flag`) into an object. */
function parseArgs (argv) {
    const args = {};
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) args[a.slice(2)] = true;
        else { args[a.slice(2)] = next; i++; }
    }
    return args;
}

/** The workload list, filtered by `--only a,b`. */
function loadWorkloads (args) {
    const dir = path.resolve(args.workloads || DEFAULT_WORKLOADS);
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'workloads.json'), 'utf8'));
    const only = typeof args.only === 'string' ? new Set(args.only.split(',')) : null;
    const list = spec.workloads.filter(w => !only || only.has(w.name));
    for (const w of list) w.path = path.join(dir, w.file);
    return {dir, spec, list};
}

const median = a => {
    const s = [...a].sort((x, y) => x - y);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Compares the observed end state with the workload's `check` (stage variables, clone count). */
function checkState (w, observed) {
    const failures = [];
    for (const [key, want] of Object.entries(w.check || {})) {
        const got = observed[key];
        // eslint-disable-next-line eqeqeq
        if (got != want) failures.push(`${key}=${got} (want ${want})`);
    }
    return failures;
}

/** Adds to `all` the failures of one more run that it does not list yet. */
function addFailures (all, more) {
    for (const f of more) if (!all.includes(f)) all.push(f);
}

/** Turns timed runs into the result line for one workload. */
function resultLine (impl, w, runs, extra) {
    const ms = median(runs.map(r => r.ms));
    const frames = runs[0].frames;
    let value;
    if (w.unit === 'iterations/s') value = w.iterations / (ms / 1000);
    else if (w.unit === 'frames/s') value = frames / (ms / 1000);
    else if (w.unit === 'loads/s') value = 1000 / ms;
    else throw new Error(`unknown unit ${w.unit}`);
    return Object.assign({impl, workload: w.name, unit: w.unit, value, median_ms: ms,
        min_ms: Math.min(...runs.map(r => r.ms)), runs: runs.length, frames}, extra);
}

function emit (line) { process.stdout.write(`${JSON.stringify(line)}\n`); }
function progress (msg) { process.stderr.write(`${msg}\n`); }

module.exports = {parseArgs, loadWorkloads, median, checkState, addFailures, resultLine, emit, progress};
