#!/usr/bin/env node
// Writes core/tests/fixtures/js_sort_cases.json: arrays sorted by this Node's V8
// `Array.prototype.sort` with the comparator scratch-vm's sb2 loader uses on targets,
// `(a, b) => a.v - b.v`, where some `v` are missing (NaN differences) and many are equal, so the
// answer depends on V8's exact TimSort. Each case: the keys (null = missing) and the resulting
// order of the original indices. Usage: node scripts/js-sort-cases.js > core/tests/fixtures/js_sort_cases.json
'use strict';
let seed = 12345;
const rand = () => {
    // mulberry32
    seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const cases = [];
const lengths = [0, 1, 2, 3, 5, 8, 13, 31, 63, 64, 65, 100, 130, 200, 257, 400];
for (const n of lengths) {
    for (let variant = 0; variant < 6; variant++) {
        const keys = [];
        for (let i = 0; i < n; i++) {
            let v;
            switch (variant) {
            case 0: v = Math.floor(rand() * n); break; // random with ties
            case 1: v = rand() < 0.1 ? null : Math.floor(rand() * 10); break; // NaN and many ties
            case 2: v = i === 0 ? null : n - i; break; // stage first, then descending (a real sb2)
            case 3: v = rand() < 0.5 ? i : Math.floor(rand() * n); break; // partly sorted
            case 4: v = Math.floor(i / 16) % 2 ? n - i : i; break; // alternating runs
            default: v = rand() < 0.3 ? null : (rand() < 0.5 ? i : n - i); break;
            }
            keys.push(v);
        }
        const items = keys.map((v, i) => ({i, v: v === null ? undefined : v}));
        items.sort((a, b) => a.v - b.v);
        cases.push({keys, order: items.map(x => x.i)});
    }
}
process.stdout.write(`${JSON.stringify({node: process.version, cases})}\n`);
