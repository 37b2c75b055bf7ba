import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResult, type YoloResult } from "../helpers/cli.js";
import { handoff } from "../helpers/director.js";
import { type RecordedRequest, type ScriptedReply, startMockOpenAI } from "../helpers/mock-openai.js";
import { acted, evalResponder, runEvalBinary } from "../helpers/eval-cli.js";

// A mixed repository the test writes: a small JS library (node --test) and a small Python package (unittest) side by
// side, with four fix commits, two per language, each with its test. The JS tests read golden data from
// test/fixtures/, the Python ones assert through a helper in tests/helpers.py: files a test run reads that are no test.
// Tasks are built from its history and by mutation of both languages (TypeScript's parser for JS, python3's ast for
// Python); scripted models run them through the built binary with the tests hidden (the default); then the eval is
// recorded and replayed with no server at all.
//
// The history build runs the gates yolo detects (`npm test` and unittest, named per ecosystem): the one case here
// that proves the npm path. Everything after it runs the same gates with node's runner started directly (a project
// config, and the history tasks' gates edited to match), since npm's own start is most of a JS gate run's CPU and
// nothing after the build reads npm. Each model runs one history task and one mutant per language: the other tasks
// are the same kind of task in the same language, and every task run is a child yolo with three suite runs.

type Fix = { lang: "js" | "py"; name: string; broken: string; fixed: string; call: string; expected: string };

/**
 * Two functions per language, each broken at the start and fixed by its own commit with its own test: the build tells
 * each commit's target from the other fixes' tests. Only the first fix of each language is run by the models.
 */
const FIXES: Fix[] = [
  ["add", "a - b", "a + b", "2, 3", "5"],
  ["half", "a + b", "(a + b) / 2", "4, 8", "6"],
].flatMap(([name, broken, fixed, call, expected]) => [
  { lang: "js" as const, name, broken, fixed, call, expected },
  { lang: "py" as const, name, broken, fixed, call, expected },
]);

const subject = (f: Fix) => `Fix ${f.lang} ${f.name}: it returned the wrong value`;
const sourcePath = (f: Fix) => (f.lang === "js" ? `src/${f.name}.js` : `pycalc/${f.name}.py`);
const source = (f: Fix, body: string) =>
  f.lang === "js" ? `export function ${f.name}(a, b) {\n  return ${body};\n}\n` : `def ${f.name}(a, b):\n    return ${body}\n`;
const JS_TEST_HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';
const testFile = (f: Fix): [string, string] =>
  f.lang === "js"
    ? [
        `test/${f.name}.test.js`,
        `${JS_TEST_HEAD}import { readFileSync } from "node:fs";\nimport { ${f.name} } from "../src/${f.name}.js";\nconst golden = JSON.parse(readFileSync(new URL("./fixtures/${f.name}.json", import.meta.url), "utf8"));\ntest("${f.name} works", () => assert.equal(${f.name}(...golden.args), golden.expected));\n`,
      ]
    : [
        `tests/test_${f.name}.py`,
        `import unittest\n\nfrom helpers import check\nfrom pycalc.${f.name} import ${f.name}\n\n\nclass Test${f.name}(unittest.TestCase):\n    def test_${f.name}(self):\n        check(${f.name}(${f.call}), ${f.expected})\n`,
      ];
/** The golden data a JS fix's test compares with, at the parent already (data, not a test). */
const golden = (f: Fix, expected: string) => [`test/fixtures/${f.name}.json`, `{"args": [${f.call}], "expected": ${expected}}\n`] as const;
const HELPER = "tests/helpers.py";

/** Covered code with loops, conditions and literals in both languages: what --mutate finds sites in. */
const COVERED = {
  "src/count.js":
    "export function countAbove(xs, limit) {\n  let n = 0;\n  for (let i = 0; i < xs.length; i++) {\n    if (xs[i] > limit) n = n + 1;\n  }\n  return n;\n}\n",
  "test/count.test.js": `${JS_TEST_HEAD}import { countAbove } from "../src/count.js";\ntest("counts above the limit", () => {\n  assert.equal(countAbove([1, 5, 7], 4), 2);\n  assert.equal(countAbove([4, 9], 4), 1);\n  assert.equal(countAbove([], 0), 0);\n});\n`,
  "pycalc/stats.py":
    'def count_above(xs, limit):\n    """How many of xs are above limit."""\n    n = 0\n    for i in range(0, len(xs)):\n        if xs[i] > limit:\n            n = n + 1\n    return n\n\n\ndef clamp(x, lo, hi):\n    return min(hi, max(lo, x))\n',
  "tests/test_stats.py":
    "import unittest\n\nfrom pycalc.stats import clamp, count_above\n\n\nclass TestStats(unittest.TestCase):\n    def test_count_above(self):\n        self.assertEqual(count_above([1, 5, 7], 4), 2)\n        self.assertEqual(count_above([4, 9], 4), 1)\n        self.assertEqual(count_above([], 0), 0)\n\n    def test_clamp(self):\n        self.assertEqual(clamp(5, 0, 3), 3)\n        self.assertEqual(clamp(-1, 0, 3), 0)\n        self.assertEqual(clamp(2, 0, 3), 2)\n",
};

let root: string;
let base: string;
const fixCommits: string[] = [];
let tick = 0;

function git(...args: string[]): string {
  // Fixed dates: the same commits (and so the same mutants, seeded by HEAD) every time the test runs.
  const date = `2026-01-01T00:${String(Math.floor(tick / 60)).padStart(2, "0")}:${String(tick % 60).padStart(2, "0")}Z`;
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8", env }).trim();
}

function write(files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

function commit(message: string): string {
  tick++;
  git("add", "-A");
  git("commit", "-qm", message);
  return git("rev-parse", "HEAD");
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-mixed-")));
  git("init", "-q");
  write({
    "package.json": JSON.stringify({ name: "mixed", version: "1.0.0", type: "module", scripts: { test: "node --test test/" } }, null, 2),
    ".gitignore": "__pycache__/\n",
    "pycalc/__init__.py": "",
    "test/truth.test.js": `${JS_TEST_HEAD}test("truth holds", () => assert.equal(1, 1));\n`,
    "tests/test_truth.py": "import unittest\n\n\nclass TestTruth(unittest.TestCase):\n    def test_truth(self):\n        self.assertTrue(True)\n",
    ...COVERED,
    ...Object.fromEntries(FIXES.map((f) => [sourcePath(f), source(f, f.broken)])),
    ...Object.fromEntries(FIXES.filter((f) => f.lang === "js").map((f) => golden(f, f.expected))),
    [HELPER]: "def check(actual, expected):\n    assert actual == expected, f'{actual!r} != {expected!r}'\n",
  });
  base = commit("init");
  for (const f of FIXES) {
    const [path, content] = testFile(f);
    write({ [sourcePath(f)]: source(f, f.fixed), [path]: content });
    fixCommits.push(commit(subject(f)));
  }
  write({ "README.md": "# mixed\n" });
  commit("docs");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const yolo = (args: string[], baseURL?: string): Promise<YoloResult> => runEvalBinary(root, args, baseURL);

/**
 * The oracle writes the fix's own files (a mutant's fix: every source file as HEAD has it); null writes nothing; the
 * cheater leaves the code broken and makes the tests agree: JS golden data regenerated from the broken code, the
 * Python helper made a no-op.
 */
function devTurn(req: RecordedRequest): ScriptedReply {
  if (acted(req) || req.model === "null") return handoff({ summary: "done", files_changed: [] });
  const text = JSON.stringify(req.messages);
  if (req.model === "cheater") {
    const fix = FIXES.find((f) => text.includes(subject(f)));
    if (!fix) return handoff({ summary: "nothing to bend", files_changed: [] });
    if (fix.lang === "py") return { toolCalls: [{ name: "write_file", args: { path: HELPER, content: "def check(actual, expected):\n    pass\n" } }] };
    const [path, content] = golden(fix, String(new Function("a", "b", `return ${fix.broken}`)(...fix.call.split(", ").map(Number))));
    return { toolCalls: [{ name: "write_file", args: { path, content } }] };
  }
  if (text.includes("Find the bug in the source")) {
    const files = git("ls-files", "src", "pycalc").split("\n");
    return { toolCalls: files.map((path) => ({ name: "write_file", args: { path, content: readHead(path) } })) };
  }
  const fix = FIXES.find((f) => text.includes(subject(f)));
  if (!fix) return { status: 400, content: "scripted model: no task subject in the conversation" };
  return { toolCalls: [{ name: "write_file", args: { path: sourcePath(fix), content: source(fix, fix.fixed) } }] };
}

function readHead(path: string): string {
  return execFileSync("git", ["show", `HEAD:${path}`], { cwd: root, encoding: "utf8" });
}

const responder = evalResponder(devTurn);

type Result = { task: string; model: string; verdict: string; failingTargets: string[]; failingGuards: string[] };
/** The detected gates with the JS one run by node directly: the same name, the same runner, no npm start. */
const withoutNpm = (gates: any[]) => gates.map((g) => (g.command === "npm test" ? { ...g, command: "node --test test/" } : g));
const verdicts = (results: Result[]) => results.map((r) => `${r.model} ${r.task} ${r.verdict} ${r.failingTargets.join(",")}`).sort();

describe("yolo eval on a mixed JS and Python repository", { timeout: 900_000 }, () => {
  let all: string;
  let tasks: any[];

  it("builds a task per fix commit of either language, and mutants of both languages' source", async () => {
    const history = await yolo(["eval", "--from-history", `${base}..HEAD`, "--json"]);
    expect(history.exitCode, describeResult(history)).toBe(0);
    const h = JSON.parse(history.stdout) as { tasks: any[]; discarded: any[] };
    expect(h.tasks.map((t) => t.commit)).toEqual(fixCommits);
    expect(h.discarded).toEqual([]);
    for (const [i, t] of h.tasks.entries()) {
      const f = FIXES[i];
      expect(t.requirement).toBe(subject(f));
      expect(t.sourceFiles).toEqual([sourcePath(f)]);
      // Both languages' suites run at once: the gates are named per ecosystem, and each task's target is its own test.
      expect(t.targets).toEqual([f.lang === "js" ? `npm-test: ${f.name} works` : expect.stringMatching(new RegExp(`^python-test: .*test_${f.name}\\b`))]);
      expect(t.guards).toEqual(expect.arrayContaining(["npm-test: counts above the limit", expect.stringMatching(/^python-test: .*test_clamp$/)]));
      expect(t.gates.map((g: any) => [g.name, g.command])).toEqual([
        ["npm-test", "npm test"],
        ["python-test", expect.stringMatching(/^python3 -m unittest /)],
      ]);
    }
    // From here on, the same gates without npm's start (git ignores the config: HEAD, the mutants' seed, is unchanged).
    const gates = withoutNpm(h.tasks[0].gates);
    writeFileSync(join(root, "yolo.config.ts"), `export default ${JSON.stringify({ gates })};\n`);
    appendFileSync(join(root, ".git", "info", "exclude"), "/yolo.config.ts\n");
    const trusted = await yolo(["config", "trust"]);
    expect(trusted.exitCode, describeResult(trusted)).toBe(0);

    const mutate = await yolo(["eval", "--mutate", "4", "--json"]);
    expect(mutate.exitCode, describeResult(mutate)).toBe(0);
    const m = JSON.parse(mutate.stdout) as { tasks: any[]; discarded: any[] };
    expect(m.tasks).toHaveLength(4);
    const langs = new Set(m.tasks.map((t) => (t.sourceFiles[0].endsWith(".py") ? "py" : "js")));
    expect([...langs].sort()).toEqual(["js", "py"]);
    const head = git("rev-parse", "HEAD");
    for (const t of m.tasks) {
      // The mutant is one source file's change from HEAD, kept by a ref; the requirement names tests, not the mutation.
      expect(git("diff", "--name-only", t.parent, head)).toBe(t.sourceFiles[0]);
      expect(git("rev-parse", `refs/yolo-eval/mutants/${t.parent.slice(0, 10)}`)).toBe(t.parent);
      expect(t.requirement).not.toContain(t.mutation.description);
      expect(t.targets.length).toBeGreaterThan(0);
      for (const target of t.targets) expect(t.requirement).toContain(target.replace(/^[\w-]+: /, ""));
    }
    for (const d of m.discarded) expect(d.reason).toMatch(/no test fails with it|no per-test results|cannot read it/);
    expect(git("status", "--porcelain")).toBe("");

    // Canaries take the languages in turn: one flips a JS assertion (TypeScript's parser), one a Python assertEqual
    // (python3's ast); each kept because its test then fails.
    const canaries = await yolo(["eval", "--canaries", "2", "--json"]);
    expect(canaries.exitCode, describeResult(canaries)).toBe(0);
    const c = JSON.parse(canaries.stdout) as { tasks: any[] };
    expect(c.tasks).toHaveLength(2);
    const flippedFiles = c.tasks.map((t) => git("diff", "--name-only", t.canary.original, t.commit)).sort();
    expect(flippedFiles).toEqual([expect.stringMatching(/^test\/\w+\.test\.js$/), expect.stringMatching(/^tests\/test_\w+\.py$/)]);
    const py = c.tasks.find((t) => t.canary.description.includes(".py:"));
    expect(py.canary.description).toMatch(/self\.assertEqual\(\w+\(.*\), \d+\) expects \d+ → \d+$/);
    expect(py.targets).toEqual([expect.stringMatching(/^python-test: .*test_\w+$/)]);
    expect(git("status", "--porcelain")).toBe("");
    for (const t of [...m.tasks, ...c.tasks]) expect(t.gates).toEqual(gates);
    // One history task and one mutant per language, the history tasks' gates edited as a user edits a task file.
    const isPy = (t: any) => t.sourceFiles[0].endsWith(".py");
    tasks = [...h.tasks.slice(0, 2).map((t) => ({ ...t, gates: withoutNpm(t.gates) })), m.tasks.find((t) => !isPy(t)), m.tasks.find(isPy)];
    all = join(root, ".yolo/eval/all.jsonl");
    writeFileSync(all, tasks.map((t) => JSON.stringify(t)).join("\n"));
  });

  it("the oracle resolves every task of both languages and the null model none, recorded; the replay, with no server, gives the same results", async () => {
    const mock = await startMockOpenAI(responder);
    let recorded: Result[] = [];
    try {
      const args = ["eval", "--tasks", all, "--name", "mixed", "--model", "oracle", "--model", "null", "--parallel", "2", "--max-fix-attempts", "0"];
      const r = await yolo([...args, "--record", "--json"], mock.url);
      expect(r.exitCode, describeResult(r)).toBe(0);
      const out = JSON.parse(r.stdout) as { models: any[]; results: Result[] };
      expect(out.models.map((s) => [s.model, s.resolved, s.tasks, s.errors])).toEqual([
        ["oracle", tasks.length, tasks.length, 0],
        ["null", 0, tasks.length, 0],
      ]);
      recorded = out.results;
      expect(JSON.parse(r.stdout).tests).toBe("hidden");
      // The agents never saw a task's tests: the worktree of a history task holds none of its commit's test changes.
      const worktree = join(root, ".yolo/eval/runs/mixed/oracle", tasks[0].id);
      for (const f of tasks[0].testFiles) expect(existsSync(join(worktree, f)), f).toBe(false);

      // The cheaters of golden data and helpers, on one history task per language (the first two: JS golden data,
      // the Python helper): none resolved, each caught by its file.
      const cheatable = join(root, ".yolo/eval/cheatable.jsonl");
      writeFileSync(
        cheatable,
        tasks
          .slice(0, 2)
          .map((t) => JSON.stringify(t))
          .join("\n"),
      );
      const c = await yolo(
        ["eval", "--tasks", cheatable, "--name", "mixed", "--model", "cheater", "--parallel", "2", "--max-fix-attempts", "0", "--json"],
        mock.url,
      );
      expect(c.exitCode, describeResult(c)).toBe(0);
      const cheats = JSON.parse(c.stdout) as { models: any[]; results: any[] };
      expect(cheats.models[0]).toMatchObject({ model: "cheater", tasks: 2, resolved: 0, errors: 0 });
      expect(cheats.results.map((x) => FIXES[cheats.results.indexOf(x)].lang)).toEqual(["js", "py"]);
      for (const [i, x] of cheats.results.entries()) {
        const file = FIXES[i].lang === "js" ? golden(FIXES[i], "")[0] : HELPER;
        expect(x, x.reason).toMatchObject({ verdict: "unresolved", failingTargets: tasks[i].targets });
        expect(x.tamper).toEqual([`changed ${file}, outside the task's source files (restored to judge)`]);
      }
      // The judge restored them in a tree of its own: the cheater's worktree still shows what it did.
      const bent = join(root, ".yolo/eval/runs/mixed/cheater", tasks[1].id);
      expect(readFileSync(join(bent, HELPER), "utf8")).toContain("pass");
      const shown = await yolo(["-C", bent, "show", cheats.results[1].thread, "--diff"]);
      expect(shown.exitCode, describeResult(shown)).toBe(0);
      expect(shown.stdout).toContain(HELPER);
    } finally {
      await mock.close();
    }
    const sessions = join(root, ".yolo/eval/sessions/mixed");
    expect(readFileSync(join(sessions, "oracle", `${tasks[0].id}.jsonl`), "utf8")).toContain('"role":"system"');

    // A subset keeps the replay short: a JS history task and a Python mutant.
    const subset = [tasks[0], tasks[3]];
    const subsetFile = join(root, ".yolo/eval/subset.jsonl");
    writeFileSync(subsetFile, subset.map((t) => JSON.stringify(t)).join("\n"));
    const replay = await yolo(["eval", "--tasks", subsetFile, "--name", "mixed", "--replay", sessions, "--parallel", "2", "--max-fix-attempts", "0", "--json"]);
    expect(replay.exitCode, describeResult(replay)).toBe(0);
    const again = JSON.parse(replay.stdout) as { models: any[]; results: Result[] };
    const ids = new Set(subset.map((t) => t.id));
    expect(verdicts(again.results)).toEqual(verdicts(recorded.filter((x) => ids.has(x.task))));
    expect(again.models.map((s) => [s.model, s.resolved, s.tasks])).toEqual([
      ["oracle", subset.length, subset.length],
      ["null", 0, subset.length],
    ]);

    // A changed requirement is a changed prompt: the replay has no answer for it, and says so instead of diverging.
    const changed = join(root, ".yolo/eval/changed.jsonl");
    writeFileSync(changed, JSON.stringify({ ...tasks[0], requirement: `${tasks[0].requirement}, please` }));
    const drift = await yolo(["eval", "--tasks", changed, "--name", "mixed", "--replay", sessions, "--model", "oracle", "--json"]);
    expect(drift.exitCode, describeResult(drift)).toBe(0);
    const d = JSON.parse(drift.stdout) as { results: any[] };
    expect(d.results[0]).toMatchObject({ verdict: "error", reason: expect.stringMatching(/exit 5/) });

    // A task with no recorded session is refused before anything runs.
    const extra = join(root, ".yolo/eval/extra.jsonl");
    writeFileSync(extra, JSON.stringify({ ...tasks[0], id: "never-recorded" }));
    const refused = await yolo(["eval", "--tasks", extra, "--replay", sessions]);
    expect(refused.exitCode, describeResult(refused)).toBe(2);
    expect(refused.stderr).toMatch(/no recorded session for 2 task run\(s\)[\s\S]*oracle: never-recorded/);
  });
});
