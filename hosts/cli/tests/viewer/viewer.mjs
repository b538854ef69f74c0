// Drives gobo serve's viewer page (`/`) in headless Chromium through playwright-core:
//   node viewer.mjs http://127.0.0.1:PORT
// Makes a session (pen.json, with pen-gold.json as its gold project), opens it in the page,
// scrubs frames, fixes the program through the page's Act box, and checks what the page shows:
// the stage and gold pictures, the observation, the action log. Exit 0 when every check holds;
// otherwise 1 with the failed check on stderr. GOBO_CHROMIUM names the browser (default
// /usr/bin/chromium); GOBO_VIEWER_SCREENSHOT=FILE saves a screenshot at the end.
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const base = process.argv[2];
const here = new URL(".", import.meta.url);
const fixture = (name) => JSON.parse(readFileSync(new URL(name, here), "utf8"));

function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
}

async function api(path, options) {
  const r = await fetch(base + path, options);
  const text = await r.text();
  if (!r.ok) throw new Error(path + ": " + r.status + " " + text);
  return JSON.parse(text);
}

const made = await api("/v1/sessions", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ project: fixture("pen.json"), gold: fixture("pen-gold.json"), mode: "full" }),
});
const id = made.session_id;
const move = made.observation.blocks.find((b) => b.opcode === "motion_movesteps");
check(move, "the observation indexes the move block");

const browser = await chromium.launch({
  executablePath: process.env.GOBO_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const attr = (sel, name) => page.locator(sel).getAttribute(name);

  await page.goto(base + "/#session=" + id);
  await page.waitForSelector('#stage[data-frame="0"]');
  check(await page.locator("#sessions").innerText().then((t) => t.includes(id)), "the session is listed");
  check(await page.locator("#gold-figure").isVisible(), "the gold picture is shown");
  const observed = await page.locator("#observation").innerText();
  check(observed.includes("move"), "the observation shows the script: " + observed);
  check(await page.locator("#log tr").count() === 0, "a new session's log is empty");
  const stage0 = await attr("#stage", "data-hash");

  // Scrub: the pen line grows, and the gold program (4 steps a frame) draws a longer one.
  await page.locator("#frame").fill("40");
  await page.waitForSelector('#stage[data-frame="40"]');
  const stage40 = await attr("#stage", "data-hash");
  const gold40 = await attr("#gold", "data-hash");
  check(stage40 !== stage0, "frame 40 differs from frame 0");
  check(stage40 !== gold40, "before the fix the stage differs from the gold one at frame 40");

  // Act through the page: move 4 steps a frame, as the gold program does.
  const action = { api: "set_block_field", args: { blockIndex: move.index, fieldName: "STEPS", value: "4" } };
  await page.locator("#action").fill(JSON.stringify(action));
  await page.locator("#act").click();
  await page.waitForSelector('body[data-step="1"]');
  check(await page.locator("#act-result").innerText() === "ok", "the action succeeded");
  await page.waitForFunction(() => {
    const s = document.getElementById("stage").dataset.hash;
    return s && s === document.getElementById("gold").dataset.hash;
  }, null, { timeout: 15000 });
  const after = await page.locator("#observation").innerText();
  check(after !== observed, "the observation changed after the action");
  check(await page.locator("#log tr").count() === 1, "the log has the action");
  check((await page.locator("#log tr").first().innerText()).includes("set_block_field"), "the log names it");

  // Back to frame 0: the picture follows the scrubber.
  await page.locator("#frame").fill("0");
  await page.waitForSelector('#stage[data-frame="0"]');
  check(await attr("#stage", "data-hash") !== stage40, "frame 0 differs from frame 40");
  check((await page.locator("#error").innerText()) === "", "the page shows no error");
  check(errors.length === 0, "no script errors: " + errors.join("; "));
  if (process.env.GOBO_VIEWER_SCREENSHOT) {
    await page.screenshot({ path: process.env.GOBO_VIEWER_SCREENSHOT, fullPage: true });
  }
  console.log("viewer ok: session " + id + ", frames 0/40 scrubbed, action logged, stage equals gold after the fix");
} finally {
  await browser.close();
}
