import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runShell } from "../../../src/exec/run-shell.js";
import { setSpawnerMode, spawnerPid, spawnerScript } from "../../../src/exec/spawner.js";
import { gitOk } from "../../../src/git/git.js";
import { gitOnPath } from "../../../src/git/git-binary.js";
import { workTreeHash } from "../../../src/git/work-tree-hash.js";
import { project, tempDir } from "../../helpers/per-test.js";

const realGit = gitOnPath(process.env.PATH);

/** A `git` first on PATH that logs its parent's pid and its subcommand, then runs the real git with its arguments. */
function loggingGit(dir: string): string {
  const log = join(dir, "calls.log");
  const script = join(dir, "git");
  writeFileSync(script, `#!/bin/sh\necho "$PPID $*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(script, 0o755);
  vi.stubEnv("PATH", `${dir}:${process.env.PATH}`);
  return log;
}

const calls = (log: string) =>
  readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((line) => ({ ppid: Number(line.split(" ")[0]), args: line }));

beforeAll(() => {
  expect(existsSync(spawnerScript()), "the helper is built by `npm run build`").toBe(true);
  expect(realGit).not.toBeNull();
});

afterEach(() => {
  vi.unstubAllEnvs();
  setSpawnerMode("auto");
});

describe("yolo's git commands and the spawner helper", () => {
  it("a git command alone does not start the helper: it is spawned directly", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const log = loggingGit(tempDir(onTestFinished));
    await gitOk(root, ["rev-parse", "HEAD"]);
    expect(spawnerPid()).toBeUndefined();
    expect(calls(log).map((c) => c.ppid)).toEqual([process.pid]);
  });

  it("once a command has the helper up, git is its child, with stdout and stderr apart and the exit code kept", async ({ onTestFinished }) => {
    setSpawnerMode("helper");
    const root = project(onTestFinished);
    await runShell("true", { cwd: root, timeoutS: 20, env: { PATH: process.env.PATH }, capBytes: 1000 });
    const helper = spawnerPid();
    expect(helper).toBeDefined();
    const log = loggingGit(tempDir(onTestFinished));
    const head = (await gitOk(root, ["rev-parse", "HEAD"])).trim();
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(calls(log).map((c) => c.ppid)).toEqual([helper]);
    // git's complaint goes to stderr: it is the error's text, and stdout stays empty of it.
    await expect(gitOk(root, ["rev-parse", "--verify", "no-such-ref"])).rejects.toThrow(/exit 128\): fatal: Needed a single revision/);
  });

  it("a work-tree hash runs three git processes through the helper (the filter drivers read once), the same hash as directly", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { "src/a.js": "export const a = 1;\n" });
    writeFileSync(join(root, "src", "b.js"), "untracked\n");
    setSpawnerMode("direct");
    const direct = await workTreeHash(root);
    setSpawnerMode("helper");
    await runShell("true", { cwd: root, timeoutS: 20, env: { PATH: process.env.PATH }, capBytes: 1000 });
    const log = loggingGit(tempDir(onTestFinished));
    expect(await workTreeHash(root)).toBe(direct);
    const seen = calls(log);
    expect(seen.map((c) => c.args.split(" ").find((a) => ["config", "add", "write-tree"].includes(a)))).toEqual(["config", "add", "write-tree"]);
    expect(new Set(seen.map((c) => c.ppid))).toEqual(new Set([spawnerPid()]));
  });
});
