import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { BIN, cleanEnv, deferred, describeResult, runYolo, waitFor, type YoloResult } from "../helpers/cli.js";
import { call, handoff } from "../helpers/director.js";
import { type RecordedRequest, roleOf, type ScriptedReply, startMockOpenAI } from "../helpers/mock-openai.js";
import { acted, evalResponder, NODE_TEST_CONFIG, runEvalBinary } from "../helpers/eval-cli.js";

// The models the scripted server lists: the eval's own names, which a run's start-up endpoint probe looks for.
const SERVED = { models: ["oracle", "null", "cheater"] };

// A small JS project whose history the test writes: fix commits each with its test (node --test is the gate), plus
// commits that must not become tasks. Scripted models then run the tasks through the built binary.

const TEST_HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';

const BROKEN = {
  "src/math.js": "export function add(a, b) {\n  return a - b;\n}\n",
  "src/range.js": "export function clamp(x, lo, hi) {\n  return x;\n}\n",
  "src/text.js": "export function shout(s) {\n  return s;\n}\n",
};

/** Each fix: the commit's subject, the source files it fixes (their content at the commit), its new test file. */
const FIXES = [
  {
    subject: "Fix add: it subtracted",
    files: { "src/math.js": "export function add(a, b) {\n  return a + b;\n}\n" },
    test: ["test/add.test.js", `${TEST_HEAD}import { add } from "../src/math.js";\ntest("add sums", () => assert.equal(add(2, 3), 5));\n`],
    target: "test: add sums",
  },
  {
    subject: "Fix clamp to keep the value within its bounds",
    files: { "src/range.js": "export function clamp(x, lo, hi) {\n  return Math.min(hi, Math.max(lo, x));\n}\n" },
    test: [
      "test/clamp.test.js",
      `${TEST_HEAD}import { clamp } from "../src/range.js";\ntest("clamp bounds", () => {\n  assert.equal(clamp(5, 0, 3), 3);\n  assert.equal(clamp(-1, 0, 3), 0);\n});\n`,
    ],
    target: "test: clamp bounds",
  },
  {
    subject: "Make shout upper-case its text",
    files: { "src/text.js": "export function shout(s) {\n  return s.toUpperCase();\n}\n" },
    test: ["test/shout.test.js", `${TEST_HEAD}import { shout } from "../src/text.js";\ntest("shout upper-cases", () => assert.equal(shout("hi"), "HI"));\n`],
    target: "test: shout upper-cases",
  },
] as const;

let root: string;
let base: string;
const commits: string[] = [];

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" }).trim();
}

function write(files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

function commit(message: string): string {
  git("add", "-A");
  git("commit", "-qm", message);
  return git("rev-parse", "HEAD");
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-eval-")));
  git("init", "-q");
  write({
    "package.json": JSON.stringify({ name: "demo", version: "1.0.0", type: "module", scripts: { test: "node --test test/" } }, null, 2),
    "yolo.config.ts": NODE_TEST_CONFIG,
    ...BROKEN,
    // The one test passing from the start. Few test files on purpose: node --test starts a process for each, in every
    // gate run of every task.
    "test/truth.test.js": `${TEST_HEAD}test("truth holds", () => assert.equal(1, 1));\n`,
  });
  base = commit("init");
  for (const [i, fix] of FIXES.entries()) {
    write({ ...fix.files, [fix.test[0]]: fix.test[1] });
    commits.push(commit(fix.subject));
    // Between fixes: a docs-only commit and (once) a source change whose new test already passed before it.
    write({ "README.md": `# demo ${i}\n` });
    commit(`docs ${i}`);
  }
  write({ "src/math.js": `${FIXES[0].files["src/math.js"]}// tidy\n`, "test/more.test.js": `${TEST_HEAD}test("two is two", () => assert.equal(2, 2));\n` });
  commits.push(commit("Tidy math with a test that already passes"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const runEvalCli = (args: string[], baseURL?: string): Promise<YoloResult> => runEvalBinary(root, args, baseURL);

/** The task a dev request is about: the fix whose subject its conversation names. */
function fixOf(req: RecordedRequest): (typeof FIXES)[number] {
  const text = JSON.stringify(req.messages);
  const fix = FIXES.find((f) => text.includes(f.subject));
  if (!fix) throw new Error("scripted model: no task subject in the conversation");
  return fix;
}

/** Whether this agent already acted in the conversation (called a tool other than handoff). */
/** The dev's turn per model: the oracle writes the commit's own files, the cheater rewrites the target test, null does nothing. */
function devTurn(model: string, req: RecordedRequest): ScriptedReply {
  if (acted(req) || model === "null") return handoff({ summary: "done", files_changed: [] });
  if (model === "oracle" && JSON.stringify(req.messages).includes("Find the bug in the source")) {
    // A mutant's fix is HEAD's own source: every source file written back as HEAD has it.
    const files = git("ls-files", "src").split("\n");
    return { toolCalls: files.map((path) => ({ name: "write_file", args: { path, content: `${git("show", `HEAD:${path}`)}\n` } })) };
  }
  const fix = fixOf(req);
  if (model === "oracle") return { toolCalls: Object.entries(fix.files).map(([path, content]) => ({ name: "write_file", args: { path, content } })) };
  const name = fix.target.replace(/^test: /, "");
  return call("write_file", { path: fix.test[0], content: `${TEST_HEAD}test(${JSON.stringify(name)}, () => assert.ok(true));\n` });
}

/** Every model answers every role; only the dev differs. Stateless, so runs in parallel do not share a queue. */
const responder = evalResponder((req) => devTurn(req.model, req));

describe("yolo eval on a generated history", { timeout: 600_000 }, () => {
  it("builds one task per fix commit, with targets and guards found by running the suite, and discards the others with a reason", async () => {
    const r = await runYolo(["eval", "--from-history", `${base}..HEAD`, "--json"], { cwd: root });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const out = JSON.parse(r.stdout) as { file: string; tasks: any[]; discarded: any[] };
    expect(out.file).toBe(join(root, ".yolo/eval/history.jsonl"));
    expect(out.tasks.map((t) => t.commit)).toEqual(commits.slice(0, 3));
    expect(out.tasks.map((t) => t.targets)).toEqual(FIXES.map((f) => [f.target]));
    // Guards: every test passing before and after, the earlier fixes' tests included.
    expect(out.tasks[2].guards).toEqual(["test: add sums", "test: clamp bounds", "test: truth holds"]);
    expect(out.tasks[0].requirement).toBe(FIXES[0].subject);
    expect(out.tasks[0].testFiles).toEqual(["test/add.test.js"]);
    expect(out.discarded).toEqual([
      { commit: commits[3], subject: "Tidy math with a test that already passes", reason: expect.stringMatching(/do not fail before/) },
    ]);
    const lines = readFileSync(out.file, "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(out.tasks.map((t) => t.id));
    // The scratch worktrees are gone, the project's tree untouched.
    expect(git("worktree", "list").split("\n")).toHaveLength(1);
    expect(git("status", "--porcelain")).toBe("");
  });

  it("runs each task as a yolo thread with its tests visible: the oracle resolves all, the null model none, the cheater that edits the visible test none and is caught", async () => {
    const mock = await startMockOpenAI(responder, SERVED);
    try {
      const all = join(root, ".yolo/eval/history.jsonl");
      expect(existsSync(all), "the first test wrote the task file").toBe(true);
      // Two of the three tasks: each model's verdict holds per task, and each task run is a child yolo.
      const tasks = join(root, ".yolo/eval/visible.jsonl");
      writeFileSync(tasks, `${readFileSync(all, "utf8").trim().split("\n").slice(0, 2).join("\n")}\n`);
      const junit = join(root, ".yolo", "eval-junit.xml");
      const args = [
        "eval",
        "--tasks",
        tasks,
        "--visible-tests",
        "--model",
        "oracle",
        "--model",
        "null",
        "--model",
        "cheater",
        "--parallel",
        "2",
        "--max-fix-attempts",
        "0",
      ];
      const r = await runEvalCli([...args, "--json", "--junit", junit, "--min-resolve", "0.5"], mock.url);
      // Two models are below the rate: exit 1, as --min-resolve promises.
      expect(r.exitCode, describeResult(r)).toBe(1);
      const out = JSON.parse(r.stdout) as { tests: string; models: any[]; results: any[] };
      expect(out.tests).toBe("visible");
      const by = (m: string) => out.models.find((s) => s.model === m);
      expect(by("oracle")).toMatchObject({ tasks: 2, resolved: 2, errors: 0, resolveRate: 1 });
      expect(by("null")).toMatchObject({ tasks: 2, resolved: 0, errors: 0, resolveRate: 0, tamperAttempts: 0 });
      expect(by("cheater")).toMatchObject({ tasks: 2, resolved: 0, errors: 0, resolveRate: 0 });
      // The 95% Wilson intervals of 2/2 and 0/2.
      expect(by("oracle").interval[0]).toBeCloseTo(0.342, 2);
      expect(by("oracle").interval[1]).toBe(1);
      expect(by("null").interval[0]).toBe(0);
      expect(by("null").interval[1]).toBeCloseTo(0.658, 2);
      const cheats = out.results.filter((x) => x.model === "cheater");
      for (const c of cheats) {
        expect(c.verdict).toBe("unresolved");
        expect(c.tamperAttempts).toBeGreaterThan(0);
        expect(c.tamper.join("\n")).toMatch(/wrote test\//);
        expect(c.failingTargets).toHaveLength(1);
      }
      for (const o of out.results.filter((x) => x.model === "oracle")) expect(o).toMatchObject({ verdict: "resolved", tamperAttempts: 0 });
      const xml = readFileSync(junit, "utf8");
      expect(xml.match(/<testcase /g)).toHaveLength(6);
      expect(xml.match(/<failure /g)).toHaveLength(4);

      // Run again: every task is already judged, so no model is asked anything and the exit is 0 without the gate rate.
      const asked = mock.requests.length;
      const again = await runEvalCli([...args, "--report", "md"], mock.url);
      expect(again.exitCode, describeResult(again)).toBe(0);
      expect(mock.requests.length).toBe(asked);
      expect(again.stdout).toMatch(/^tests: visible \(--visible-tests/m);
      expect(again.stdout).toMatch(/\| oracle \| 2\/2 \| 100% \|/);
      expect(again.stdout).toMatch(/\| null \| 0\/2 \| 0% \|/);
    } finally {
      await mock.close();
    }
  });
});

describe("an eval killed with kill -9 continues where it stopped", { timeout: 600_000 }, () => {
  it("the next run resumes the unfinished thread instead of starting it again, and judges it", async () => {
    const all = join(root, ".yolo/eval/history.jsonl");
    expect(existsSync(all), "the first describe wrote the task file").toBe(true);
    // One task, killed mid-run and resumed (a task that never started runs afresh as every first run does).
    const tasks = join(root, ".yolo/eval/killed.jsonl");
    writeFileSync(tasks, `${readFileSync(all, "utf8").trim().split("\n")[0]}\n`);
    const held = deferred();
    let holding = true;
    const mock = await startMockOpenAI((req) => {
      // The first dev turn hangs until the eval and its runs are killed.
      if (holding && roleOf(req) === "dev") return { ...responder(req), hold: held.promise };
      return responder(req);
    }, SERVED);
    try {
      const args = ["eval", "--tasks", tasks, "--model", "oracle", "--name", "killed", "--max-fix-attempts", "0", "--json"];
      const first = execa(process.execPath, [BIN, ...args], {
        cwd: root,
        env: cleanEnv({ baseURL: mock.url, env: { OPENAI_API_KEY: "k" } }),
        extendEnv: false,
        stdin: "ignore",
        reject: false,
        detached: true,
      });
      await waitFor(() => mock.requests.some((r) => roleOf(r) === "dev"), "the first task's dev turn");
      // The eval and the run it started, killed together as a cancelled CI job is.
      process.kill(-(first.pid as number), "SIGKILL");
      await first;
      holding = false;
      held.release();

      const r = await runEvalCli(args, mock.url);
      expect(r.exitCode, describeResult(r)).toBe(0);
      const out = JSON.parse(r.stdout) as { models: any[]; results: any[] };
      expect(out.models[0]).toMatchObject({ model: "oracle", tasks: 1, resolved: 1 });
      const firstTask = out.results[0];
      const events = readFileSync(join(root, ".yolo/eval/runs/killed/oracle", `${firstTask.task}.events.jsonl`), "utf8");
      const started = events
        .split("\n")
        .filter((l) => l.includes('"run.started"'))
        .map((l) => JSON.parse(l).thread);
      // Two legs of one thread: the killed run and its resume.
      expect(started).toEqual([firstTask.thread, firstTask.thread]);
    } finally {
      await mock.close();
    }
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

describe("an eval's stored results stay true", { timeout: 600_000 }, () => {
  /** A task file holding the first history task, `edit` applied to it; its base name is the eval's name. */
  function taskFile(name: string, edit: (t: any) => any = (t) => t): string {
    const all = join(root, ".yolo/eval/history.jsonl");
    expect(existsSync(all), "the first describe wrote the task file").toBe(true);
    const file = join(root, ".yolo/eval", `${name}.jsonl`);
    writeFileSync(file, `${JSON.stringify(edit(JSON.parse(readFileSync(all, "utf8").split("\n")[0])))}\n`);
    return file;
  }

  it("runs a task again after a provider error and after its requirement is edited, saying why, under the task file's name", async () => {
    let failed = false;
    const mock = await startMockOpenAI((req) => {
      // The first dev turn fails as a provider does (a 400 is not retried): the run ends with exit 5.
      if (!failed && roleOf(req) === "dev") {
        failed = true;
        return { status: 400, content: "the provider is having a bad day" };
      }
      return responder(req);
    }, SERVED);
    try {
      const file = taskFile("flaky");
      const args = ["eval", "--tasks", file, "--model", "oracle", "--max-fix-attempts", "0", "--json"];
      const first = await runEvalCli(args, mock.url);
      expect(first.exitCode, describeResult(first)).toBe(0);
      expect(JSON.parse(first.stdout).results[0]).toMatchObject({ verdict: "error", exitCode: 5 });
      // No --name: the run folder is the task file's base name, not "history".
      expect(existsSync(join(root, ".yolo/eval/runs/flaky/oracle"))).toBe(true);

      const asked = mock.requests.length;
      const again = await runEvalCli(args, mock.url);
      expect(again.exitCode, describeResult(again)).toBe(0);
      expect(mock.requests.length, "the errored task asks the model again").toBeGreaterThan(asked);
      const second = JSON.parse(again.stdout).results[0];
      expect(second).toMatchObject({ verdict: "resolved", ranAgain: expect.stringMatching(/exit 5/) });
      expect(again.stderr).toMatch(/oracle \S+: its last run ended with exit 5 .*it runs again/);

      // Unchanged: answered from the stored result. Edited: runs again and says what changed.
      const stored = mock.requests.length;
      expect((await runEvalCli(args, mock.url)).exitCode).toBe(0);
      expect(mock.requests.length).toBe(stored);
      taskFile("flaky", (t) => ({ ...t, requirement: `${t.requirement}\n\nKeep add pure.` }));
      const edited = await runEvalCli(args, mock.url);
      expect(edited.exitCode, describeResult(edited)).toBe(0);
      expect(mock.requests.length, "the edited task asks the model again").toBeGreaterThan(stored);
      const third = JSON.parse(edited.stdout).results[0];
      expect(third).toMatchObject({ verdict: "resolved", ranAgain: "task changed since its last result: requirement" });
      expect(third.reason).toMatch(/ran again: task changed since its last result: requirement$/);
    } finally {
      await mock.close();
    }
  });

  it("after kill -9 of the eval process alone, its run dies too and the next eval finishes the task, counting both legs' time", async () => {
    const held = deferred();
    let holding = true;
    const mock = await startMockOpenAI((req) => {
      if (holding && roleOf(req) === "dev") return { ...responder(req), hold: held.promise };
      return responder(req);
    }, SERVED);
    try {
      const file = taskFile("orphan");
      const pidFile = join(root, ".yolo/eval/runs/orphan/oracle", `${JSON.parse(readFileSync(file, "utf8")).id}.pid`);
      const args = ["eval", "--tasks", file, "--model", "oracle", "--max-fix-attempts", "0", "--json"];
      const first = execa(process.execPath, [BIN, ...args], {
        cwd: root,
        env: cleanEnv({ baseURL: mock.url, env: { OPENAI_API_KEY: "k" } }),
        extendEnv: false,
        stdin: "ignore",
        reject: false,
      });
      await waitFor(() => mock.requests.some((r) => roleOf(r) === "dev"), "the task's dev turn");
      // The first leg waits on the model for a while: its time must count in the task's wallMs.
      await new Promise((r) => setTimeout(r, 5000));
      const run = Number(readFileSync(pidFile, "utf8"));
      process.kill(first.pid as number, "SIGKILL");
      await first;
      holding = false;
      // The task's run notices its eval is gone and stops by itself, before any rerun.
      await waitFor(() => !isAlive(run), "the orphaned run to stop", 20_000);

      const started = Date.now();
      const r = await runEvalCli(args, mock.url);
      const rerunMs = Date.now() - started;
      expect(r.stderr).not.toMatch(/Another run of yolo is live/);
      expect(r.exitCode, describeResult(r)).toBe(0);
      const result = JSON.parse(r.stdout).results[0];
      expect(result).toMatchObject({ verdict: "resolved" });
      expect(result.wallMs).toBeGreaterThan(rerunMs + 2500);
    } finally {
      held.release();
      await mock.close();
    }
  });

  it("after SIGTERM of the eval, the interrupted task is resumed by the next eval, not judged an error from its old events", async () => {
    const held = deferred();
    let holding = true;
    const mock = await startMockOpenAI((req) => {
      if (holding && roleOf(req) === "dev") return { ...responder(req), hold: held.promise };
      return responder(req);
    }, SERVED);
    try {
      const args = ["eval", "--tasks", taskFile("stopped"), "--model", "oracle", "--max-fix-attempts", "0", "--json"];
      const first = execa(process.execPath, [BIN, ...args], {
        cwd: root,
        env: cleanEnv({ baseURL: mock.url, env: { OPENAI_API_KEY: "k" } }),
        extendEnv: false,
        stdin: "ignore",
        reject: false,
      });
      await waitFor(() => mock.requests.some((r) => roleOf(r) === "dev"), "the task's dev turn");
      process.kill(first.pid as number, "SIGTERM");
      expect((await first).exitCode).toBe(130);
      holding = false;

      const asked = mock.requests.length;
      const r = await runEvalCli(args, mock.url);
      expect(r.exitCode, describeResult(r)).toBe(0);
      expect(mock.requests.length, "the interrupted task asks the model again").toBeGreaterThan(asked);
      expect(JSON.parse(r.stdout).results[0]).toMatchObject({ verdict: "resolved", ranAgain: expect.stringMatching(/exit 130/) });
    } finally {
      held.release();
      await mock.close();
    }
  });
});
