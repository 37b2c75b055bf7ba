import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResult } from "../helpers/cli.js";
import { call, handoff } from "../helpers/director.js";
import { acted, evalResponder, runEvalBinary } from "../helpers/eval-cli.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";

// An eval task's checkout is the project at an old commit; a yolo.config.ts there is whatever history (anyone who
// could push) holds, and so is its .mcp.json. Neither may run on the host: every task runs with the config and the
// MCP servers the user started the eval with (a history .mcp.json names a server that cannot start: loaded, it would
// stop the task's run).
// The canary: the old commit's config writes a file when it is loaded; the user's config notes each folder it was
// loaded in (the control: the task's run did load the user's config).

let root: string;
let canaries: string;
const HISTORY_CANARY = () => join(canaries, "history-config-ran");
const TRUSTED_CANARY = () => join(canaries, "trusted-config-loads");

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" }).trim();
}

function put(files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

let task: Record<string, unknown>;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-config-")));
  canaries = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-canary-")));
  git("init", "-q");
  put({
    "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node --test test/" } }),
    "src/add.js": "export function add(a, b) {\n  return a - b;\n}\n",
    "test/truth.test.js": 'import { test } from "node:test";\ntest("truth holds", () => {});\n',
    "yolo.config.ts": `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(HISTORY_CANARY())}, "ran");\nexport default {};\n`,
    ".mcp.json": JSON.stringify({ mcpServers: { history: { command: "/nonexistent/history-mcp-server" } } }),
  });
  git("add", "-A");
  git("commit", "-qm", "start");
  const parent = git("rev-parse", "HEAD");
  put({
    "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n",
    "test/add.test.js":
      'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { add } from "../src/add.js";\ntest("add sums", () => assert.equal(add(2, 3), 5));\n',
  });
  git("add", "-A");
  git("commit", "-qm", "Fix add: it subtracted");
  const commit = git("rev-parse", "HEAD");
  // The user's config today: harmless, and it says where it was loaded.
  put({
    "yolo.config.ts": `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(TRUSTED_CANARY())}, process.cwd() + "\\n");\nexport default {};\n`,
  });
  rmSync(join(root, ".mcp.json"));
  git("add", "-A");
  git("commit", "-qm", "our own config");
  task = {
    v: 1,
    id: "fix-add",
    commit,
    parent,
    requirement: "Fix add: it subtracted",
    testFiles: ["test/add.test.js"],
    sourceFiles: ["src/add.js"],
    gates: [{ name: "test", command: "node --test test/", required: true, timeoutS: 120 }],
    targets: ["test: add sums"],
    guards: ["test: truth holds"],
  };
  mkdirSync(join(root, ".yolo"), { recursive: true });
  writeFileSync(join(root, ".yolo", "tasks.jsonl"), `${JSON.stringify(task)}\n`);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(canaries, { recursive: true, force: true });
});

const fix = call("write_file", { path: "src/add.js", content: "export function add(a, b) {\n  return a + b;\n}\n" });
const responder = evalResponder((req) => (acted(req) ? handoff({ summary: "fixed add", files_changed: ["src/add.js"] }) : fix));

describe("yolo eval never loads a config from a task's history", { timeout: 600_000 }, () => {
  it("the old commit's yolo.config.ts and .mcp.json are not loaded; the task runs (and resolves) with the user's own config", async () => {
    const mock = await startMockOpenAI(responder);
    try {
      const r = await runEvalBinary(
        root,
        ["eval", "--tasks", join(root, ".yolo", "tasks.jsonl"), "--name", "cfg", "--max-fix-attempts", "0", "--json"],
        mock.url,
      );
      expect(r.exitCode, describeResult(r)).toBe(0);
      const out = JSON.parse(r.stdout) as { results: { verdict: string; reason: string }[] };
      expect(
        out.results.map((x) => x.verdict),
        JSON.stringify(out.results),
      ).toEqual(["resolved"]);
      expect(existsSync(HISTORY_CANARY())).toBe(false);
      // The control: the task's own run (in its worktree under .yolo/eval/runs/) loaded the user's config.
      const loads = readFileSync(TRUSTED_CANARY(), "utf8").trim().split("\n");
      expect(loads.some((cwd) => cwd.includes(join(".yolo", "eval", "runs", "cfg")))).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
