import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResult, type YoloResult } from "../helpers/cli.js";
import { handoff } from "../helpers/director.js";
import { acted, evalResponder, NODE_TEST_CONFIG, runEvalBinary } from "../helpers/eval-cli.js";
import { type RecordedRequest, type ScriptedReply, startMockOpenAI } from "../helpers/mock-openai.js";
import { createDatabase, dropDatabase, testServerUrl } from "../helpers/postgres.js";

// Two fix commits of a tiny node:test project make two tasks; the oracle and the null model run them: four task runs,
// split between two shards that run as separate processes in separate clones, then merged. The shards run once, with
// one PostgreSQL database when the test server is there: each shard keeps its record in its run folder and writes it
// to the database, so the same two shards are merged both ways (running them twice only repeated four task runs).

const HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';
const FIXES = [
  {
    subject: "Fix add: it subtracted",
    file: ["src/math.js", "export function add(a, b) {\n  return a + b;\n}\n"],
    test: ["test/add.test.js", `${HEAD}import { add } from "../src/math.js";\ntest("add sums", () => assert.equal(add(2, 3), 5));\n`],
  },
  {
    subject: "Make shout upper-case its text",
    file: ["src/text.js", "export function shout(s) {\n  return s.toUpperCase();\n}\n"],
    test: ["test/shout.test.js", `${HEAD}import { shout } from "../src/text.js";\ntest("shout upper-cases", () => assert.equal(shout("hi"), "HI"));\n`],
  },
] as const;

let parent: string;
let root: string;
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
let unsharded: string;
let server: string | null = null;
let database: string | null = null;
let shardClones: string[];
const TASKS = "evals/tasks.jsonl";
// The eval's name, from the task file's; its run folder in each clone.
const RUNS = ".yolo/eval/runs/tasks";

// A fixed date: the commits, and so the task ids and their split, are the same on every run of this file.
const DATED = { GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8", env: { ...process.env, ...DATED } }).trim();

function write(files: (readonly [string, string])[]): void {
  for (const [rel, content] of files) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

/** A clone of the project: each shard's own working copy (all the same path length, so prompts weigh the same). */
function clone(name: string): string {
  const dir = join(parent, name);
  execFileSync("git", ["clone", "-q", root, dir]);
  return dir;
}

/** The oracle writes the commit's own source file; the null model changes nothing. */
function devTurn(req: RecordedRequest): ScriptedReply {
  if (acted(req) || req.model === "null") return handoff({ summary: "done", files_changed: [] });
  const fix = FIXES.find((f) => JSON.stringify(req.messages).includes(f.subject));
  if (!fix) return { status: 400, content: "no task subject in the conversation" };
  return { toolCalls: [{ name: "write_file", args: { path: fix.file[0], content: fix.file[1] } }] };
}

const evalIn = (cwd: string, args: string[], env: Record<string, string> = {}): Promise<YoloResult> => runEvalBinary(cwd, args, mock.url, env);
const runArgs = ["eval", "--tasks", TASKS, "--model", "oracle", "--model", "null", "--max-fix-attempts", "0", "--parallel", "2", "--report", "md"];
// The Markdown report (a run prints a line per task before it); wall times differ from run to run, nothing else may.
const table = (out: string) => out.slice(out.indexOf("# yolo eval:")).replace(/\d+\.\d s/g, "T");

/** The two shards, at once, each in its clone; every shard runs some of the four task runs. */
async function runShards(clones: string[], env: Record<string, string> = {}): Promise<void> {
  const shards = await Promise.all(clones.map((dir, i) => evalIn(dir, [...runArgs, "--shard", `${i + 1}/2`], env)));
  for (const r of shards) {
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout.match(/^\| [0-9a-f]{12} \| (oracle|null) \|/gm)?.length ?? 0, describeResult(r)).toBeGreaterThan(0);
  }
  expect(shards.map((r) => r.stdout.match(/^\| [0-9a-f]{12} \|/gm)?.length).reduce((a, b) => (a ?? 0) + (b ?? 0))).toBe(4);
}

beforeAll(async () => {
  parent = realpathSync(mkdtempSync(join(tmpdir(), "yolo-shards-")));
  root = join(parent, "p");
  mkdirSync(root);
  git(root, "init", "-q");
  write([
    ["package.json", JSON.stringify({ name: "demo", version: "1.0.0", type: "module", scripts: { test: "node --test test/" } })],
    ["yolo.config.ts", NODE_TEST_CONFIG],
    ["src/math.js", "export function add(a, b) {\n  return a - b;\n}\n"],
    ["src/text.js", "export function shout(s) {\n  return s;\n}\n"],
    ["test/truth.test.js", `${HEAD}test("truth holds", () => assert.equal(1, 1));\n`],
  ]);
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  const base = git(root, "rev-parse", "HEAD");
  for (const fix of FIXES) {
    write([fix.file, fix.test]);
    git(root, "add", "-A");
    git(root, "commit", "-qm", fix.subject);
  }
  // The task set is built once and committed, so every clone runs the same file.
  const built = await runEvalBinary(root, ["eval", "--from-history", `${base}..HEAD`, "--out", TASKS]);
  expect(built.exitCode, describeResult(built)).toBe(0);
  git(root, "add", "-f", TASKS);
  git(root, "commit", "-qm", "the eval's tasks");
  mock = await startMockOpenAI(
    evalResponder((req) => devTurn(req)),
    { models: ["oracle", "null"] },
  );
  const whole = await evalIn(clone("u"), runArgs);
  expect(whole.exitCode, describeResult(whole)).toBe(0);
  expect(whole.stdout).toMatch(/\| oracle \| 2\/2 \| 100% \|/);
  expect(whole.stdout).toMatch(/\| null \| 0\/2 \| 0% \|/);
  unsharded = table(whole.stdout);

  server = testServerUrl();
  if (server) database = await createDatabase(server);
  shardClones = [clone("a"), clone("b")];
  await runShards(shardClones, databaseEnv());
}, 400_000);

afterAll(async () => {
  await mock?.close();
  if (server && database) await dropDatabase(server, database);
  rmSync(parent, { recursive: true, force: true });
});

/** The shards' database, for the processes that use it (none without a test server). */
const databaseEnv = (): Record<string, string> => (database ? { YOLO_DATABASE_URL: database } : {});

describe("yolo eval across machines: shards and merge", { timeout: 300_000 }, () => {
  it("two shards in two clones, merged from their result folders, give the unsharded run's table; a missing shard is named", async () => {
    const clones = shardClones;
    const merged = await runEvalBinary(parent, ["eval", "merge", ...clones.map((c) => join(c, RUNS)), "--report", "md"]);
    expect(merged.exitCode, describeResult(merged)).toBe(0);
    expect(table(merged.stdout)).toBe(unsharded);

    const half = await runEvalBinary(parent, ["eval", "merge", join(clones[0], RUNS), "--report", "md"]);
    expect(half.exitCode, describeResult(half)).toBe(1);
    expect(half.stderr).toMatch(/shard 2\/2 missing: this report covers shard 1\/2 only/);
    expect(half.stdout).toMatch(/^# yolo eval: tasks/);

    // A shard that ran in the other mode is refused, naming the part and both records.
    const visible = join(parent, "visible");
    mkdirSync(visible);
    const record = JSON.parse(readFileSync(join(clones[1], RUNS, "shard-2-of-2.json"), "utf8"));
    writeFileSync(join(visible, "shard-2-of-2.json"), JSON.stringify({ ...record, tests: "visible" }));
    const refused = await runEvalBinary(parent, ["eval", "merge", join(clones[0], RUNS), visible]);
    expect(refused.exitCode, describeResult(refused)).toBe(2);
    expect(refused.stderr).toContain("Cannot merge shard 1/2 and shard 2/2: they ran in different modes (tests hidden and tests visible)");
    expect(refused.stderr).toContain(join(visible, "shard-2-of-2.json"));
  });

  it("with one PostgreSQL database: the shards wrote their records to it, and another working copy merges them into the unsharded run's table", async (ctx) => {
    if (!database) return ctx.skip();
    const merged = await runEvalBinary(clone("e"), ["eval", "merge", "--report", "md"], undefined, databaseEnv());
    expect(merged.exitCode, describeResult(merged)).toBe(0);
    expect(table(merged.stdout)).toBe(unsharded);
  });
});
