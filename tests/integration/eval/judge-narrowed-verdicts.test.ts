import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResult, runYolo } from "../../helpers/cli.js";
import { handoff } from "../../helpers/director.js";
import { acted, evalResponder, NODE_TEST_CONFIG, runEvalBinary } from "../../helpers/eval-cli.js";
import { type RecordedRequest, type ScriptedReply, startMockOpenAI } from "../../helpers/mock-openai.js";
import { requireTool } from "../../helpers/requires.js";

// The judge runs only the test files the hidden tests can change when the run's last gate judged the agents' final
// tree in the sandbox, and the whole suite at any doubt; the verdict is the whole suite's either way. The built binary,
// real node --test, real bubblewrap, a scripted model.

const HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';
const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";
const SERVED = { models: ["oracle", "helper-cheater", "guard-breaker"] };

let root: string;
let base: string;

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" }).trim();
}

function write(files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

beforeAll(() => {
  // Not under /tmp, which every sandbox replaces with its own.
  root = realpathSync(mkdtempSync(join("/var/tmp", "yolo-eval-judge-")));
  git("init", "-q");
  write({
    "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" } }),
    "yolo.config.ts": NODE_TEST_CONFIG,
    "src/math.js": "export function add(a, b) {\n  return a - b;\n}\n",
    // A helper the hidden test reads its assertion through: a cheater's target (node --test runs it too, as a file
    // holding no test: one more guard).
    "test/helper.js": 'import assert from "node:assert/strict";\nexport const same = (a, b) => assert.equal(a, b);\n',
    "test/truth.test.js": `${HEAD}test("truth holds", () => assert.equal(1, 1));\n`,
    // A guard on the code the fix changes, true of the broken add too.
    "test/zero.test.js": `${HEAD}import { add } from "../src/math.js";\ntest("zeros add to zero", () => assert.equal(add(0, 0), 0));\n`,
  });
  git("add", "-A");
  git("commit", "-qm", "init");
  base = git("rev-parse", "HEAD");
  write({
    "src/math.js": FIXED,
    "test/add.test.js": `${HEAD}import { add } from "../src/math.js";\nimport { same } from "./helper.js";\ntest("add sums", () => same(add(2, 3), 5));\n`,
  });
  git("add", "-A");
  git("commit", "-qm", "Fix add: it subtracted");
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** oracle: the fix; helper-cheater: no fix, the hidden test's helper made a no-op; guard-breaker: a fix that breaks a guard. */
function dev(req: RecordedRequest): ScriptedReply {
  if (acted(req)) return handoff({ summary: "done", files_changed: [] });
  const write = (path: string, content: string) => ({ name: "write_file", args: { path, content } });
  if (req.model === "oracle") return { toolCalls: [write("src/math.js", FIXED)] };
  if (req.model === "helper-cheater") return { toolCalls: [write("test/helper.js", "export const same = () => {};\n")] };
  return { toolCalls: [write("src/math.js", "export function add(a, b) {\n  return a === 0 ? 1 : a + b;\n}\n")] };
}

describe("the judge narrowed to the hidden tests' reach", { timeout: 600_000 }, () => {
  it("judges as the whole suite would: the oracle resolved on the hidden test file alone, a helper cheater and a guard breaker on the whole suite", async (ctx) => {
    requireTool(ctx, "bwrap", "judging from the run's sandboxed gate results");
    const built = await runYolo(["eval", "--from-history", `${base}..HEAD`, "--json"], { cwd: root });
    expect(built.exitCode, describeResult(built)).toBe(0);
    const task = JSON.parse(built.stdout).tasks[0];
    expect(task).toMatchObject({ targets: ["test: add sums"], guards: ["test: test/helper.js", "test: truth holds", "test: zeros add to zero"] });
    const mock = await startMockOpenAI(evalResponder(dev), SERVED);
    try {
      const models = SERVED.models.flatMap((m) => ["--model", m]);
      const r = await runEvalBinary(root, ["eval", "--tasks", ".yolo/eval/history.jsonl", ...models, "--max-fix-attempts", "0", "--json"], mock.url, {
        YOLO_SANDBOX: "required",
      });
      expect(r.exitCode, describeResult(r)).toBe(0);
      const results = JSON.parse(r.stdout).results as any[];
      const of = (m: string) => results.find((x) => x.model === m);
      expect(of("oracle")).toMatchObject({ verdict: "resolved", failingTargets: [], failingGuards: [], judgeRun: { narrowed: ["test/add.test.js"] } });
      // The helper is restored to judge: the judged tree is not the tree the run's gate ran on.
      expect(of("helper-cheater")).toMatchObject({ verdict: "unresolved", failingTargets: ["test: add sums"], failingGuards: [] });
      expect(of("helper-cheater").judgeRun.whole).toMatch(/test\/helper\.js was not taken over/);
      expect(of("helper-cheater").tamper.join("\n")).toMatch(/test\/helper\.js/);
      // The run's last gate failed on the broken guard: nothing of it is reused.
      expect(of("guard-breaker")).toMatchObject({ verdict: "unresolved", failingTargets: [], failingGuards: ["test: zeros add to zero"] });
      expect(of("guard-breaker").judgeRun.whole).toMatch(/last run cannot stand/);
    } finally {
      await mock.close();
    }
  });

  it("runs the whole suite for a run without the sandbox, with the same verdict", async () => {
    const mock = await startMockOpenAI(evalResponder(dev), SERVED);
    try {
      const args = ["eval", "--tasks", ".yolo/eval/history.jsonl", "--name", "nosandbox", "--model", "oracle", "--max-fix-attempts", "0", "--json"];
      const r = await runEvalBinary(root, args, mock.url, { YOLO_SANDBOX: "off" });
      expect(r.exitCode, describeResult(r)).toBe(0);
      const [oracle] = JSON.parse(r.stdout).results;
      expect(oracle).toMatchObject({ verdict: "resolved", judgeRun: { whole: expect.stringMatching(/not sandboxed/) } });
    } finally {
      await mock.close();
    }
  });
});
