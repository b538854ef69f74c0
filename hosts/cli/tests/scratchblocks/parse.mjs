// Reads scratchblocks text on stdin, parses it with the scratchblocks library (English), and
// prints {scripts, blocks, unknown}: the number of scripts, of blocks at any depth (stack
// blocks, reporters in inputs, blocks in C-slots), and the text of every block the library
// did not recognise (no block id and no category override).
import { parse } from "scratchblocks/syntax/index.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const doc = parse(Buffer.concat(chunks).toString("utf8"), { languages: ["en"] });

let blocks = 0;
const unknown = [];
const overrides = new Set(["variables", "list", "custom", "custom-arg", "extension"]);
function walk(node) {
  if (node.isScript) {
    node.blocks.forEach(walk);
    return;
  }
  if (!node.isBlock) return;
  blocks += 1;
  const info = node.info || {};
  if (!info.id && !overrides.has(info.category)) unknown.push(node.stringify());
  for (const child of node.children) walk(child);
}
doc.scripts.forEach(walk);
console.log(JSON.stringify({ scripts: doc.scripts.length, blocks, unknown }));
