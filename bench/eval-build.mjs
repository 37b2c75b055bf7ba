// Building eval tasks from a long history, as a ratio to one whole-suite run of the same project measured in the same
// run: COMMITS generated commits over MODULES modules, each with its node:test file of TESTS tests (a few also import
// a shared helper module), one commit in FIX_EVERY a fix changing a module and its test (a candidate), one fix in
// SHARED_EVERY changing the shared helper, which every test importing it depends on. The commits between fixes tweak
// a few "hot" modules (HOT of them, the set moving on every HOT_SPAN commits), as real histories do: in the last
// 1,000 commits of fastify, undici and pino, 40 commits changed 16 of 73, 29 of 222 and 8 of 41 of the non-test
// JavaScript files (a median over windows of 40), where a tweak going round every module in turn would change all of
// them. The naive build ran the whole suite twice per candidate (~2 × candidates ×); the figure says how far below
// that the build is.
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { runShell } from "../dist/exec/run-shell.js";

const BIN = fileURLToPath(new URL("../bin/yolo.js", import.meta.url));
const COMMITS = 1000;
const MODULES = 40;
const TESTS = 10;
const FIX_EVERY = 40;
const SHARED_EVERY = 5;
const USERS_OF_SHARED = 6;
const HOT = 6;
const HOT_SPAN = 200;
const HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The generated history (git fast-import); returns its folder and first commit. */
export function makeBuildHistory() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-bench-eval-build-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  const blob = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const value = Array.from({ length: MODULES }, () => 0);
  let shared = 1;
  const usesShared = (k) => k < USERS_OF_SHARED;
  const source = (k, i) =>
    usesShared(k)
      ? `import { scale } from "./shared.js";\nexport const m${k} = (x) => scale(x) + ${value[k]}; // ${i}\n`
      : `export const m${k} = (x) => x + ${value[k]}; // ${i}\n`;
  const test = (k) => {
    const imports = `${HEAD}import { m${k} } from "../src/m${k}.js";\n`;
    const base = (t) => (usesShared(k) ? t * shared : t);
    return imports + Array.from({ length: TESTS }, (_, t) => `test("m${k} case ${t}", () => assert.equal(m${k}(${t}), ${base(t) + value[k]}));\n`).join("");
  };
  const sharedTest = () => `${HEAD}import { scale } from "../src/shared.js";\ntest("scale", () => assert.equal(scale(2), ${2 * shared}));\n`;
  const out = [];
  let fixes = 0;
  // The modules each fix and the commits since the previous one changed (what a candidate's trees differ by).
  const between = [];
  let since = new Set();
  for (let i = 0; i < COMMITS; i++) {
    const fix = i % FIX_EVERY === FIX_EVERY / 2;
    // Fixes spread over the modules; tweaks go round the hot ones of the moment.
    const k = fix ? (fixes * 7) % MODULES : (Math.floor(i / HOT_SPAN) * HOT + (i % HOT)) % MODULES;
    const sharedFix = fix && fixes % SHARED_EVERY === SHARED_EVERY - 1;
    out.push(
      `commit refs/heads/main\ncommitter b <b@b> ${1_700_000_000 + i} +0000\n${blob(`${fix ? "Fix" : "Tweak"} ${sharedFix ? "scale" : `m${k}`} (${i})`)}`,
    );
    if (i === 0) {
      out.push(`M 100644 inline package.json\n${blob(JSON.stringify({ name: "h", type: "module", scripts: { test: "node --test test/" } }))}`);
      out.push(`M 100644 inline src/shared.js\n${blob(`export const scale = (x) => x * ${shared};\n`)}`);
      out.push(`M 100644 inline test/shared.test.js\n${blob(sharedTest())}`);
      for (let m = 0; m < MODULES; m++) {
        out.push(`M 100644 inline src/m${m}.js\n${blob(source(m, i))}`);
        out.push(`M 100644 inline test/m${m}.test.js\n${blob(test(m))}`);
      }
    } else if (sharedFix) {
      fixes++;
      between.push(since.add("shared").size);
      since = new Set();
      shared++;
      out.push(`M 100644 inline src/shared.js\n${blob(`export const scale = (x) => x * ${shared};\n`)}`);
      out.push(`M 100644 inline test/shared.test.js\n${blob(sharedTest())}`);
      for (let m = 0; m < USERS_OF_SHARED; m++) out.push(`M 100644 inline test/m${m}.test.js\n${blob(test(m))}`);
    } else {
      since.add(k);
      if (fix) {
        fixes++;
        value[k] = i;
        between.push(since.size);
        since = new Set();
      }
      out.push(`M 100644 inline src/m${k}.js\n${blob(source(k, i))}`);
      if (fix) out.push(`M 100644 inline test/m${k}.test.js\n${blob(test(k))}`);
      else if (i % 7 === 0) out.push(`M 100644 inline README.md\n${blob(`# h\n\n${i}\n`)}`);
    }
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: root, input: out.join("") });
  execFileSync("git", ["checkout", "-q", "main"], { cwd: root });
  symlinkSync(resolve("node_modules"), join(root, "node_modules"));
  const first = execFileSync("git", ["rev-list", "--max-parents=0", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  return { root, first, candidates: fixes, between };
}

/** One whole-suite run of the project at HEAD, as the build's gate runs it (`npm test`), in ms. */
async function wholeSuiteMs(root) {
  const r = await runShell("npm test", { cwd: root, timeoutS: 600, env: { PATH: process.env.PATH, HOME: process.env.HOME }, capBytes: 64 * 1024 });
  if (r.exitCode !== 0) throw new Error(`the generated suite fails at HEAD (exit ${r.exitCode}): ${r.output.slice(-500)}`);
  return r.durationMs;
}

export async function benchEvalBuild(print) {
  const { root, first, candidates, between } = makeBuildHistory();
  try {
    print(
      `Building eval tasks from ${COMMITS.toLocaleString("en-US")} commits, ${candidates} fix candidates, ${MODULES + 1} test files (as a ratio to one whole-suite run, same run)`,
    );
    print(`  modules changed from one candidate to the next: median ${median(between.slice(1))} of ${MODULES + 1} (the first candidate starts the history)`);
    const before = [await wholeSuiteMs(root), await wholeSuiteMs(root), await wholeSuiteMs(root)];
    print(`  one whole-suite run before the build: ${(median(before) / 1000).toFixed(2)} s (median of 3)`);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CI: "true", YOLO_USER_CONFIG: "" };
    const started = process.hrtime.bigint();
    const r = await execa(process.execPath, [BIN, "eval", "--from-history", `${first}..HEAD`, "--json"], {
      cwd: root,
      env,
      extendEnv: false,
      reject: false,
      timeout: 3_600_000,
    });
    const buildMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.exitCode !== 0) throw new Error(`yolo eval --from-history exited ${r.exitCode}: ${r.stderr.slice(-1500)}`);
    const out = JSON.parse(r.stdout);
    const whole = median([...before, await wholeSuiteMs(root)]);
    print(
      `  one whole-suite run ${(whole / 1000).toFixed(2)} s (median of 4, before and after); the build ${(buildMs / 1000).toFixed(1)} s = ${(buildMs / whole).toFixed(1)}× a whole-suite run (two whole runs a candidate would be ~${2 * candidates}×), ${out.tasks.length} tasks, ${out.discarded.length} discarded`,
    );
    if (out.tasks.length !== candidates) print(`  WARNING: ${candidates} candidates should all be tasks: ${JSON.stringify(out.discarded.slice(0, 2))}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEvalBuild((line) => console.log(line));
