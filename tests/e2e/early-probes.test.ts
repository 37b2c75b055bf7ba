import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo, spawnYolo, threadIdFrom, waitFor, type YoloOptions } from "../helpers/cli.js";
import { closedPort } from "../helpers/closed-port.js";
import { project, tempDir } from "../helpers/per-test.js";

// bin/yolo.js starts a run's (or resume's) git reads and bubblewrap's trial before the CLI has loaded
// (dist/cli/early-probes.cjs); the CLI takes them when they were made for its own root, mode and PATH. These tests put a
// `git` first on PATH that logs each call (its directory and arguments) and then runs the real one.

const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();

function loggingGit(onTestFinished: Parameters<typeof tempDir>[0]): {
  bin: string;
  log: string;
  parentsLog: string;
  calls: () => string[];
  parents: () => string[];
} {
  const bin = tempDir(onTestFinished, "yolo-git-log-");
  const log = join(bin, "calls.log");
  // Each call's parent process too (apart, so the calls keep their shape): which process started it.
  const parents = join(bin, "parents.log");
  writeFileSync(
    join(bin, "git"),
    `#!/bin/sh\nprintf '%s\\t%s\\n' "$PWD" "$*" >> '${log}'\nprintf '%s\\t%s\\n' "$PPID" "$*" >> '${parents}'\nexec '${REAL_GIT}' "$@"\n`,
  );
  chmodSync(join(bin, "git"), 0o755);
  const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);
  return { bin, log, parentsLog: parents, calls: () => lines(log), parents: () => lines(parents) };
}

// Starts `yolo <args>` and kills it once its first event is out: what ran before it is the start's own work.
async function untilFirstEvent(args: string[], opts: YoloOptions): Promise<{ first: { type: string; thread?: string }; stderr: string; pid?: number }> {
  const child = spawnYolo(args, opts);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += String(d);
    if (out.includes("\n")) child.kill("SIGKILL");
  });
  const r = await child;
  expect(out, describeResult({ ...r, exitCode: r.exitCode, signal: r.signal, stdout: out, stderr: String(r.stderr) })).toContain("\n");
  return { first: JSON.parse(out.split("\n")[0]), stderr: String(r.stderr), pid: child.pid };
}

// The start's reads, by what they ask (the repository's identity, its filter drivers — a new thread reads both in one
// config command —, HEAD, the uncommitted changes).
const READS: [string, RegExp][] = [
  ["identity", /\t--no-pager config --get remote\.origin\.url$/],
  ["filters", /\t--no-pager config -z --show-scope --name-only --get-regexp/],
  ["config", /\t--no-pager config -z --show-scope --get-regexp \^\(filter\\\.\.\*\|remote\\\.origin\\\.url\)\$$/],
  ["head", /\t--no-pager rev-parse --is-inside-work-tree/],
  ["status", /\t--no-pager status --porcelain/],
  ["tracked", /\t--no-pager ls-files -z -- \.$/],
];
const count = (calls: string[], dir: string) =>
  Object.fromEntries(READS.map(([name, pattern]) => [name, calls.filter((c) => c.startsWith(`${dir}\t`) && pattern.test(c)).length]));
// The reads before the first event: the list of tracked files is made after it (when the leg's notices are said), so
// whether it has started by the time the event is read is a race.
const countBeforeEvent = (calls: string[], dir: string) => {
  const { tracked: _after, ...before } = count(calls, dir);
  return before;
};

describe("the start's git reads begun by bin/yolo.js", { timeout: 180_000 }, () => {
  it("run and resume: each read runs once, and the run uses its answers (not a second read by the CLI)", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const git = loggingGit(onTestFinished);
    const opts = { cwd: root, baseURL: `http://127.0.0.1:${await closedPort()}/v1`, env: { PATH: `${git.bin}:${process.env.PATH}` } };
    // Through the run bundle (--json into a pipe) and through the ES module CLI (--tui takes it, as a terminal does).
    for (const extra of [[], ["--tui"]]) {
      writeFileSync(git.log, "");
      const run = await untilFirstEvent(["run", "--json", ...extra, "Add an add(a, b) function"], opts);
      expect(run.first.type, run.stderr).toBe("run.started");
      expect(countBeforeEvent(git.calls(), root), extra.join(" ")).toEqual({ identity: 0, filters: 0, config: 1, head: 1, status: 1 });
    }

    // To its end (the model's port is closed: it fails at the analyst, after its first checkpoints), so it can resume.
    writeFileSync(git.log, "");
    const failed = await runYolo(["run", "--json", "Add an add(a, b) function"], opts);
    expect(failed.exitCode, describeResult(failed)).toBe(5);
    expect(count(git.calls(), root).tracked).toBe(1);
    writeFileSync(git.log, "");
    const resume = await untilFirstEvent(["resume", "--json", threadIdFrom(failed.stdout)], opts);
    expect(resume.first.type, resume.stderr).toBe("run.started");
    // A resumed thread reads no uncommitted changes (nor filter drivers for them).
    expect(countBeforeEvent(git.calls(), root)).toEqual({ identity: 1, filters: 0, config: 0, head: 1, status: 0 });
  });

  it("the reads run in yolo's own process, no helper process between; the tracked-files warning still comes", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { ".env": "KEY=1\n" });
    const git = loggingGit(onTestFinished);
    const opts = { cwd: root, baseURL: `http://127.0.0.1:${await closedPort()}/v1`, env: { PATH: `${git.bin}:${process.env.PATH}` } };
    const notFromYolo = (pid: number | undefined) => git.parents().filter((line) => !line.startsWith(`${pid}\t`));
    const run = await untilFirstEvent(["run", "--json", "Add an add(a, b) function"], opts);
    expect(run.first.type, run.stderr).toBe("run.started");
    expect(git.parents().length).toBeGreaterThanOrEqual(3);
    expect(notFromYolo(run.pid)).toEqual([]);
    // The list of tracked files, made after the event, is said: the tracked .env is warned about once.
    writeFileSync(git.log, "");
    const failed = await runYolo(["run", "--json", "Add an add(a, b) function"], opts);
    expect(parseEvents(failed.stdout).filter((e) => e.type === "warning" && /look like secrets: \.env\./.test(String(e.message)))).toHaveLength(1);
    expect(count(git.calls(), root).tracked).toBe(1);
    writeFileSync(git.parentsLog, "");
    const resume = await untilFirstEvent(["resume", "--json", threadIdFrom(failed.stdout)], opts);
    expect(resume.first.type, resume.stderr).toBe("run.started");
    expect(notFromYolo(resume.pid)).toEqual([]);
  });

  it("a tree with uncommitted changes: the snapshot's tree is written once, early, and the start commit holds the changes", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { "notes.txt": "committed\n" });
    writeFileSync(join(root, "notes.txt"), "changed, not committed\n");
    writeFileSync(join(root, "new.txt"), "untracked\n");
    const git = loggingGit(onTestFinished);
    const opts = { cwd: root, baseURL: `http://127.0.0.1:${await closedPort()}/v1`, env: { PATH: `${git.bin}:${process.env.PATH}` } };
    // The run goes on past its first event (the snapshot is recorded before anything runs) and stops at the model.
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], opts);
    const events = parseEvents(r.stdout);
    expect(events[0]?.type, describeResult(r)).toBe("run.started");
    expect(
      events.some((e) => e.type === "node.started"),
      describeResult(r),
    ).toBe(true);
    const run = { first: events[0] };
    // The throwaway index starts as a copy of the user's (no read-tree: see staged-work-tree.ts).
    const steps = ["read-tree", "add", "write-tree", "commit-tree", "update-ref"];
    const calls = git.calls();
    const [readTree, add, writeTree, commitTree, updateRef] = steps.map(
      (step) => calls.filter((c) => new RegExp(`\\t--no-pager (-c \\S+ )*${step}( |$)`).test(c)).length,
    );
    // The leg's end reads what the thread changed (run.completed's filesChanged) from git: an add into an index of its
    // own and a diff of it, no tree written.
    const changeReads = calls.filter((c) => /\t--no-pager (-c \S+ )*diff .*--cached --name-only -z --no-renames --relative /.test(c)).length;
    expect(changeReads).toBe(1);
    // One snapshot: one commit and one ref. The gate baseline, started beside the first agent, hashes the project's tree
    // once more (the tree it judged) with an index of its own: at most one more add and write-tree, never a commit.
    expect([readTree, commitTree, updateRef]).toEqual([0, 1, 1]);
    expect(add).toBe(writeTree + changeReads);
    expect(writeTree).toBeGreaterThanOrEqual(1);
    expect(writeTree).toBeLessThanOrEqual(2);
    const show = (path: string) => execFileSync(REAL_GIT, ["show", `refs/yolo/${run.first.thread}/start:${path}`], { cwd: root, encoding: "utf8" });
    expect([show("notes.txt"), show("new.txt")]).toEqual(["changed, not committed\n", "untracked\n"]);
    // The thread's row records the snapshot as its start (show --diff and the report diff against it).
    const shown = await runYolo(["show", "--json", run.first.thread], { cwd: root });
    const startRef = execFileSync(REAL_GIT, ["rev-parse", `refs/yolo/${run.first.thread}/start`], { cwd: root, encoding: "utf8" }).trim();
    expect(JSON.parse(shown.stdout).thread.startCommit).toBe(startRef);
    // The user's own index and HEAD are as they were.
    expect(execFileSync(REAL_GIT, ["status", "--porcelain"], { cwd: root, encoding: "utf8" })).toBe(" M notes.txt\n?? new.txt\n");
  });

  it("the reads are begun by the shim, before the CLI has loaded, and taken by the CLI (-C<dir> from another directory)", async ({ onTestFinished }) => {
    // A preload watches the slot the shim and the CLI share (src/cli/early-probes.ts): when it is set (whether the loader
    // of the CLI's bundle was required yet) and that it is taken.
    const dir = tempDir(onTestFinished, "yolo-slot-");
    const log = join(dir, "slot.log");
    writeFileSync(
      join(dir, "watch.cjs"),
      `const { appendFileSync } = require("node:fs");
let value;
Object.defineProperty(globalThis, Symbol.for("yolo.early-probes"), {
  configurable: true,
  get() { appendFileSync(${JSON.stringify(log)}, "taken\\n"); return value; },
  set(v) { appendFileSync(${JSON.stringify(log)}, "set " + v.root + " " + v.mode + " cli-loaded=" + Object.keys(require.cache).some((f) => /light-loader\\.cjs$/.test(f)) + "\\n"); value = v; },
});
`,
    );
    const here = project(onTestFinished);
    const target = project(onTestFinished);
    const git = loggingGit(onTestFinished);
    const run = await untilFirstEvent([`-C${target}`, "run", "--json", "Add an add(a, b) function"], {
      cwd: here,
      baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
      env: { PATH: `${git.bin}:${process.env.PATH}` },
      nodeArgs: ["--require", join(dir, "watch.cjs")],
    });
    expect(run.first.type, run.stderr).toBe("run.started");
    expect(readFileSync(log, "utf8")).toBe(`set ${target} start cli-loaded=false\ntaken\n`);
    expect(countBeforeEvent(git.calls(), target)).toEqual({ identity: 0, filters: 0, config: 1, head: 1, status: 1 });
    expect(git.calls().filter((c) => c.startsWith(`${here}\t`))).toEqual([]);
  });

  it("a run refused before it takes them (a bad config) exits without waiting for the shim's reads to end", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { "yolo.config.ts": "export default { maxFixAttempts: 'many' };\n" });
    // A git that takes a long time to answer (a very large repository): its wrapper says when it starts and ends.
    const bin = tempDir(onTestFinished, "yolo-slow-git-");
    const log = join(bin, "rev-parse.log");
    writeFileSync(
      join(bin, "git"),
      `#!/bin/sh\ncase "$*" in *" rev-parse "*) echo "start $$" >> '${log}'; sleep 20; echo end >> '${log}';; esac\nexec '${REAL_GIT}' "$@"\n`,
    );
    chmodSync(join(bin, "git"), 0o755);
    const logged = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    onTestFinished(() => {
      const pid = /start (\d+)/.exec(logged())?.[1];
      if (pid) spawnSync("pkill", ["-P", pid]);
    });
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], {
      cwd: root,
      baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("maxFixAttempts");
    // The shim did start the slow read, and yolo had exited before it ended (it sleeps for 20 s).
    await waitFor(() => logged().startsWith("start"), "the slow git to start");
    expect(logged()).toMatch(/^start \d+\n$/);
  });

  it("with the sandbox off, bubblewrap's trial (begun before the config was read) does not hold the exit, nor outlive it", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const home = tempDir(onTestFinished, "yolo-user-config-");
    const userConfig = join(home, "config.ts");
    writeFileSync(userConfig, 'export default { sandbox: "off" };\n');
    // A bubblewrap that hangs (a broken user namespace setup). It says when it starts and when it is told to stop as
    // the trial's own timeout (10 s) does, with SIGTERM; a SIGKILL it cannot say.
    const bin = tempDir(onTestFinished, "yolo-slow-bwrap-");
    const log = join(bin, "bwrap.log");
    writeFileSync(
      join(bin, "bwrap"),
      `#!/bin/sh\necho "start $$" >> '${log}'\ntrap 'echo TERM >> "${log}"; exit 1' TERM\nsleep 20 &\necho "sleep $!" >> '${log}'\nwait\n`,
    );
    chmodSync(join(bin, "bwrap"), 0o755);
    const logged = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    const pidOf = (what: string) => Number(new RegExp(`${what} (\\d+)`).exec(logged())?.[1] ?? 0);
    onTestFinished(() => {
      for (const pid of [pidOf("sleep"), pidOf("start")]) if (pid) spawnSync("kill", ["-9", String(pid)]);
    });
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], {
      cwd: root,
      baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
      env: { PATH: `${bin}:${process.env.PATH}`, YOLO_USER_CONFIG: userConfig },
    });
    // The model's port is closed: the run ends at the analyst's first call (exit 5), with no sandbox said.
    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(JSON.parse(r.stdout.split("\n")[0]).sandbox).toEqual({ kind: "none", reason: 'sandbox is "off" in the config' });
    // The shim did start the trial; yolo did not wait for its timeout (no SIGTERM came), and the trial was killed
    // when yolo let its early reads go (running, it would be asleep: S).
    await waitFor(() => pidOf("start") > 0, "the slow bubblewrap to start");
    const state = (pid: number) => (existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] : "gone");
    // Nor for what the trial started, which outlives it holding the trial's stderr open (still asleep when yolo left).
    expect(state(pidOf("sleep"))).toBe("S");
    await waitFor(() => !/^[RSD]$/.test(state(pidOf("start"))), "the trial to be killed", 5_000);
    expect(logged()).not.toContain("TERM");
  });

  it("a read that failed early is made again by the CLI: its error is reported as yolo's own, not as an unexpected one", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    // An index git cannot read: the status fails (the shim's copy of GitError is another class than the CLI's).
    writeFileSync(join(root, ".git", "index"), "garbage");
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: `http://127.0.0.1:${await closedPort()}/v1` });
    expect(r.exitCode, describeResult(r)).toBe(70);
    expect(r.stderr).toMatch(/^yolo: git status .* failed in .*index file/);
    expect(r.stderr).not.toContain("unexpected error");
  });

  it("the early reads are hardened like every git call: a repository's fsmonitor and filter drivers never run", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { ".gitattributes": "*.txt filter=evil\n", "a.txt": "one\n" });
    const marker = join(tempDir(onTestFinished, "yolo-marker-"), "ran");
    const g = (...args: string[]) => execFileSync(REAL_GIT, args, { cwd: root });
    g("config", "core.fsmonitor", `touch ${marker}-fsmonitor; false`);
    g("config", "filter.evil.clean", `touch ${marker}-clean; cat`);
    g("config", "filter.evil.smudge", `touch ${marker}-smudge; cat`);
    // Uncommitted, so the status reads (and the start snapshot hashes) the filtered file.
    writeFileSync(join(root, "a.txt"), "two\n");
    const run = await untilFirstEvent(["run", "--json", "Add an add(a, b) function"], {
      cwd: root,
      baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
    });
    expect(run.first.type, run.stderr).toBe("run.started");
    for (const what of ["fsmonitor", "clean", "smudge"]) expect(existsSync(`${marker}-${what}`), what).toBe(false);
  });
});
