// yolo eval's own cost, in two figures measured in the same run:
// 1. Overhead per task: `yolo eval --tasks` (worktree, the child `yolo run`, judging with the original tests) against
//    a plain `yolo run` of the same task in a ready checkout, with the same scripted oracle model; the ratio of the
//    per-task medians, and the building of the tasks from history per task besides.
// 2. Building tasks from 1,000 generated commits (one in 50 a fix with its test): scanning the history, and the whole
//    `yolo eval --from-history` (bench/eval-build.mjs measures the build on a bigger suite).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { createJiti } from "jiti";
import { candidateCommits } from "../dist/eval/commits.js";
import { gitOk } from "../dist/git/git.js";

const BIN = fileURLToPath(new URL("../bin/yolo.js", import.meta.url));
const TASKS = 3;
// `--rounds N` for more rounds where the load makes two too few to read.
const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 2;
const COMMITS = 1000;
const FIX_EVERY = 50;
// Commits the reference scan (one `git diff` per commit, as the scan was before it was one `git log`) reads.
const REFERENCE_COMMITS = 200;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const HEAD = 'import { test } from "node:test";\nimport assert from "node:assert/strict";\n';

/** A JS project (node --test) whose history has TASKS fix commits, each with its test. */
function makeProject() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-bench-eval-")));
  const git = (...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: root, encoding: "utf8" }).trim();
  const write = (files) => {
    for (const [rel, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), content);
    }
  };
  git("init", "-q");
  const fixes = Array.from({ length: TASKS }, (_, i) => ({
    subject: `Fix f${i}: it subtracted`,
    path: `src/f${i}.js`,
    fixed: `export function f${i}(a, b) {\n  return a + b;\n}\n`,
  }));
  write({
    "package.json": JSON.stringify({ name: "bench", type: "module", scripts: { test: "node --test test/" } }),
    "test/truth.test.js": `${HEAD}test("truth", () => assert.ok(true));\n`,
    ...Object.fromEntries(fixes.map((f, i) => [f.path, `export function f${i}(a, b) {\n  return a - b;\n}\n`])),
  });
  git("add", "-A");
  git("commit", "-qm", "init");
  const base = git("rev-parse", "HEAD");
  for (const [i, f] of fixes.entries()) {
    write({
      [f.path]: f.fixed,
      [`test/f${i}.test.js`]: `${HEAD}import { f${i} } from "../src/f${i}.js";\ntest("f${i} sums", () => assert.equal(f${i}(2, 3), 5));\n`,
    });
    git("add", "-A");
    git("commit", "-qm", f.subject);
  }
  return { root, base, fixes, git };
}

/** The oracle: every role hands off; dev writes the fix its task's subject names. */
function oracle(helpers, fixes) {
  return (req) => {
    const role = helpers.roleOf(req);
    const text = JSON.stringify(req.messages);
    if (role === "analyst") return helpers.handoff({ requirements: `# Task\n${text.slice(0, 200)}`, acceptance_criteria: ["the tests pass"] });
    if (role === "pm") return helpers.pmDone(false);
    if (role === "architect") return helpers.handoff({ decisions: [] });
    if (role === "tea") return helpers.handoff({ verdict: "PASS", findings: [] });
    const acted = req.messages.some((m) => m?.role === "assistant" && m.tool_calls?.length);
    const fix = fixes.find((f) => text.includes(f.subject));
    if (acted || !fix) return helpers.handoff({ summary: "done", files_changed: [] });
    return { toolCalls: [{ name: "write_file", args: { path: fix.path, content: fix.fixed } }] };
  };
}

// A child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER) that runs its argv, reaps every process of the tree (orphans
// included: yolo's spawner helper outlives the CLI) and prints the tree's CPU seconds on stderr's last line. Wall time
// moves 2× with the shared machine's load; CPU time is what the ratio is read from.
const REAPER = `import ctypes, os, sys
assert ctypes.CDLL(None).prctl(36, 1, 0, 0, 0) == 0
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
status = 0
while True:
    try:
        p, st = os.wait()
    except ChildProcessError:
        break
    if p == pid:
        status = os.waitstatus_to_exitcode(st)
t = os.times()
sys.stderr.write("\\nbench-cpu %f\\n" % (t.children_user + t.children_system))
sys.exit(status if status >= 0 else 128 - status)`;
const PYTHON = ["/usr/bin/python3", "/usr/local/bin/python3"].find((p) => existsSync(p));

async function timed(args, cwd, env) {
  const started = process.hrtime.bigint();
  const argv = PYTHON ? [PYTHON, "-c", REAPER, process.execPath, BIN, ...args] : [process.execPath, BIN, ...args];
  const r = await execa(argv[0], argv.slice(1), { cwd, env, extendEnv: false, reject: false, encoding: "utf8", timeout: 900_000 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.exitCode !== 0) throw new Error(`yolo ${args.slice(0, 3).join(" ")} exited ${r.exitCode}: ${r.stderr.slice(-1500)}`);
  const cpu = /bench-cpu ([\d.]+)\s*$/.exec(r.stderr);
  return { ms, cpuMs: cpu ? Number(cpu[1]) * 1000 : Number.NaN, stdout: r.stdout };
}

/** Per task: the eval's wall time (worktree + run + judging) against a plain run of the task in a ready checkout. */
async function overheadPerTask(print, helpers) {
  const project = makeProject();
  const mock = await helpers.startMockOpenAI(oracle(helpers, project.fixes));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: "k", CI: "true", YOLO_USER_CONFIG: "" };
  try {
    const build = await timed(["eval", "--from-history", `${project.base}..HEAD`, "--json"], project.root, env);
    const tasks = JSON.parse(build.stdout).tasks;
    if (tasks.length !== TASKS) throw new Error(`built ${tasks.length} tasks, expected ${TASKS}`);
    const evalMs = [];
    const runMs = [];
    const evalCpu = [];
    const runCpu = [];
    const judged = new Set();
    for (let round = 0; round < ROUNDS; round++) {
      const file = join(project.root, ".yolo/eval/history.jsonl");
      const e = await timed(["eval", "--tasks", file, "--name", `r${round}`, "--model", "oracle", "--max-fix-attempts", "0", "--json"], project.root, env);
      const out = JSON.parse(e.stdout);
      const resolved = out.models[0].resolved;
      if (resolved !== TASKS) throw new Error(`the oracle resolved ${resolved} of ${TASKS}`);
      // How the judge ran each task: the narrowed files (the run's gates standing for the rest), or the whole suite.
      for (const r of out.results)
        judged.add(
          r.judgeRun ? ("narrowed" in r.judgeRun ? `narrowed to ${r.judgeRun.narrowed.join(", ")}` : `whole suite: ${r.judgeRun.whole}`) : "whole suite",
        );
      evalMs.push(e.ms / TASKS);
      evalCpu.push(e.cpuMs / TASKS);
      // The same tasks as plain runs, each in a checkout made beforehand (not timed): the parent with the task's tests.
      for (const t of tasks) {
        const dir = join(project.root, ".yolo", `plain-${round}-${t.id}`);
        project.git("worktree", "add", "-q", "--detach", dir, t.parent);
        project.git("-C", dir, "checkout", t.commit, "--", ...t.testFiles);
        project.git("-C", dir, "commit", "-qm", "tests");
        const plain = await timed(["run", "--ci", "--json", "--model", "oracle", "--max-fix-attempts", "0", "--", t.requirement], dir, env);
        runMs.push(plain.ms);
        runCpu.push(plain.cpuMs);
      }
    }
    const perEval = median(evalMs);
    const perRun = median(runMs);
    const cpuEval = median(evalCpu);
    const cpuRun = median(runCpu);
    print(`  building from history: ${(build.ms / TASKS / 1000).toFixed(2)} s a task (${TASKS} candidates)`);
    print(`  the judge ran: ${[...judged].join("; ")}`);
    print(
      `  running: ${(perEval / 1000).toFixed(2)} s a task in yolo eval, ${(perRun / 1000).toFixed(2)} s for a plain yolo run of it: ${(perEval / perRun).toFixed(2)}× (overhead ${((perEval - perRun) / 1000).toFixed(2)} s a task: worktree, start commit, judging)`,
    );
    print(
      `  CPU (every process of the command's tree): ${(cpuEval / 1000).toFixed(2)} s a task in yolo eval, ${(cpuRun / 1000).toFixed(2)} s for a plain yolo run of it: ${(cpuEval / cpuRun).toFixed(2)}×`,
    );
  } finally {
    await mock.close();
    rmSync(project.root, { recursive: true, force: true });
  }
}

/**
 * COMMITS commits made with git fast-import: each changes one source file (a comment, keeping its tests passing);
 * every FIX_EVERY-th changes what it returns and its test with it (a candidate task).
 */
function makeLongHistory() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "yolo-bench-eval-history-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  const blob = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const value = Array.from({ length: 10 }, () => 0);
  const source = (k, i) => `export const m${k} = (x) => x + ${value[k]}; // ${i}\n`;
  const test = (k) => `${HEAD}import { m${k} } from "../src/m${k}.js";\ntest("m${k}", () => assert.equal(m${k}(1), ${1 + value[k]}));\n`;
  const out = [];
  for (let i = 0; i < COMMITS; i++) {
    const fix = i > 0 && i % FIX_EVERY === 0;
    const files = i === 0 ? Array.from({ length: 10 }, (_, k) => k) : [i % 10];
    out.push(`commit refs/heads/main\ncommitter b <b@b> ${1_700_000_000 + i} +0000\n${blob(`${fix ? "Fix" : "Tweak"} m${i % 10} (${i})`)}`);
    for (const k of files) {
      if (fix) value[k] = i;
      out.push(`M 100644 inline src/m${k}.js\n${blob(source(k, i))}`);
      if (i === 0 || fix) out.push(`M 100644 inline test/m${k}.test.js\n${blob(test(k))}`);
    }
    if (i === 0) out.push(`M 100644 inline package.json\n${blob(JSON.stringify({ name: "h", type: "module", scripts: { test: "node --test test/" } }))}`);
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: root, input: out.join("") });
  execFileSync("git", ["checkout", "-q", "main"], { cwd: root });
  return root;
}

/** The scan as it was: the newest `count` commits, one hardened `git diff` each (ms for all of them). */
async function perCommitDiffScan(root, count) {
  const started = process.hrtime.bigint();
  const lines = (await gitOk(root, ["rev-list", "--no-merges", "--parents", "-n", String(count), "HEAD"])).trim().split("\n");
  for (const line of lines) {
    const [commit, parent] = line.split(" ");
    if (parent) await gitOk(root, ["diff", "--no-renames", "--name-only", "-z", parent, commit, "--"]);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Building from COMMITS commits: the history scan alone (in process), then the whole command. */
async function buildFromLongHistory(print) {
  const root = makeLongHistory();
  try {
    const first = execFileSync("git", ["rev-list", "--max-parents=0", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const started = process.hrtime.bigint();
    const candidates = await candidateCommits(root, `${first}..HEAD`, null);
    const scanMs = Number(process.hrtime.bigint() - started) / 1e6;
    const referenceMs = await perCommitDiffScan(root, REFERENCE_COMMITS);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CI: "true", YOLO_USER_CONFIG: "" };
    const build = await timed(["eval", "--from-history", `${first}..HEAD`, "--json"], root, env);
    const out = JSON.parse(build.stdout);
    print(
      `  ${COMMITS.toLocaleString("en-US")} commits, ${candidates.length} candidates (source and test changed together): scanning the history ${(scanMs / 1000).toFixed(2)} s (${(scanMs / COMMITS).toFixed(2)} ms a commit; a git diff per commit, on ${REFERENCE_COMMITS} of them: ${(referenceMs / REFERENCE_COMMITS).toFixed(1)} ms a commit, ${(referenceMs / REFERENCE_COMMITS / (scanMs / COMMITS)).toFixed(0)}× slower); the whole --from-history ${(build.ms / 1000).toFixed(1)} s, ${out.tasks.length} tasks and ${out.discarded.length} discarded (${(build.ms / Math.max(1, candidates.length) / 1000).toFixed(2)} s a candidate)`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchEvalOverhead(print) {
  const jiti = createJiti(import.meta.url);
  const helpers = { ...(await jiti.import("../tests/helpers/mock-openai.ts")), ...(await jiti.import("../tests/helpers/director.ts")) };
  print(`yolo eval's own cost (scripted oracle model; median of ${ROUNDS} rounds of ${TASKS} tasks, eval and plain runs alternated in the same run)`);
  // `--overhead` measures the overhead per task alone (the long-history build takes longer than the rest).
  const only = process.argv.includes("--overhead");
  for (const [label, fn] of [
    ["overhead per task", () => overheadPerTask(print, helpers)],
    ...(only ? [] : [["building from 1,000 commits", () => buildFromLongHistory(print)]]),
  ]) {
    try {
      await fn();
    } catch (error) {
      print(`  ${label}: not measured: ${error.message}`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEvalOverhead((line) => console.log(line));
