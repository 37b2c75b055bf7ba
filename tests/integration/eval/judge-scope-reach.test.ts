import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GateResult } from "../../../src/events/schema.js";
import { workTreeHash } from "../../../src/git/work-tree-hash.js";
import { judgeScope } from "../../../src/eval/judge-scope.js";
import type { RunFacts } from "../../../src/eval/run-events.js";
import type { EvalTask } from "../../../src/eval/types.js";

// Which test files the judge runs on a real judged tree: the hidden test files, whether anything imports them or not,
// and every test file importing one (through a helper too); the rest come from the run's gate. Real git, real
// TypeScript parser; the run's facts are those a sandboxed run whose last gate judged the agents' tree would leave.

const HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';
const BASE = {
  "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" } }),
  "src/add.js": "export const add = (a, b) => a + b;\n",
  "test/fixtures.js": "export const pairs = [[1, 2, 3]];\n",
  "test/truth.test.js": `${HEAD}test("truth holds", () => assert.ok(true));\n`,
  "test/pairs.test.js": `${HEAD}import { add } from "../src/add.js";\nimport { pairs } from "./fixtures.js";\ntest("pairs", () => { for (const [a, b, s] of pairs) assert.equal(add(a, b), s); });\n`,
};
// The commit's test changes, hidden from the agents: a new test and a changed fixture.
const HIDDEN = {
  "test/add.test.js": `${HEAD}import { add } from "../src/add.js";\ntest("add sums", () => assert.equal(add(2, 3), 5));\n`,
  "test/fixtures.js": "export const pairs = [[1, 2, 3], [2, 2, 4]];\n",
};

function put(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

function repo(dir: string, files: Record<string, string>): void {
  put(dir, files);
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "start");
}

async function setUp(onTestFinished: (fn: () => void) => void, extra: Record<string, string> = {}, command = "npm test") {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-judge-scope-")));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const agents = join(root, ".yolo/eval/runs/history/m/task");
  const judged = `${agents}.judge`;
  repo(agents, { ...BASE, ...extra });
  repo(judged, { ...BASE, ...extra, ...HIDDEN });
  const tree = await workTreeHash(agents);
  const record = { definition: {}, gates: [{ name: "test", passed: true, passedCount: 2, failedCount: 0, tests: [{ id: "truth holds", status: "passed" }] }] };
  put(agents, { ".yolo/threads/t1/gate-baseline.jsonl": JSON.stringify(record) });
  const last = {
    name: "test",
    command: "npm test",
    passed: true,
    failedCount: 0,
    failures: [],
    reading: "parsed",
    tests: 2,
    treeBefore: tree,
    treeAfter: tree,
  };
  const facts = { thread: "t1", lastGates: new Map([["test", last as unknown as GateResult]]), sandboxes: ["bwrap"] } as RunFacts;
  const task = { testFiles: Object.keys(HIDDEN), gates: [{ name: "test", command, required: true, timeoutS: 60 }] } as EvalTask;
  // The judged tree's files, as building it would list them (judge-tree.ts).
  const files = Object.keys({ ...BASE, ...extra, ...HIDDEN }).sort();
  const judgedTree = { dir: judged, restored: [], addedGateFiles: [], startFiles: new Set<string>(), runChanging: [], files };
  const scope = () =>
    judgeScope(task, judgedTree, { agentsDir: agents, runDir: join(root, ".yolo/eval/runs/history"), root, facts, sandbox: "bwrap", env: {} });
  return { agents, scope };
}

describe("the judge's narrowed files", () => {
  it("are the hidden test files and the test files importing them; the run's gate stands for the others", async ({ onTestFinished }) => {
    const { scope } = await setUp(onTestFinished);
    const s = await scope();
    expect(s.narrowed ? s.files : s.reason).toEqual(["test/add.test.js", "test/fixtures.js", "test/pairs.test.js"]);
    expect(s.narrowed && [...s.reused]).toEqual(["test: truth holds"]);
    expect(s.narrowed && s.gates[0].command).toBe("node --test 'test/add.test.js' 'test/fixtures.js' 'test/pairs.test.js'");
  });

  it("are the whole suite when a test loads a module by a computed name (it may load a hidden test)", async ({ onTestFinished }) => {
    const { scope } = await setUp(onTestFinished, {
      "test/dyn.test.js": `${HEAD}const name = "./fixtures.js";\ntest("dyn", async () => assert.ok(await import(name)));\n`,
    });
    const s = await scope();
    expect(s.narrowed ? s.files : s.reason).toMatch(/computed at run time/);
  });

  it("are the whole suite when the agents changed a file after the run's last gate", async ({ onTestFinished }) => {
    const { agents, scope } = await setUp(onTestFinished);
    put(agents, { "src/add.js": "export const add = (a, b) => a + b + 0;\n" });
    const s = await scope();
    expect(s.narrowed ? s.files : s.reason).toMatch(/another tree/);
  });

  it("are the whole suite when the gate is another runner than node --test", async ({ onTestFinished }) => {
    const { scope } = await setUp(onTestFinished, {}, "npx vitest run");
    const s = await scope();
    expect(s.narrowed ? s.files : s.reason).toMatch(/not `node --test <paths>`/);
  });
});
