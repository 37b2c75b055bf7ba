import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readEarly } from "../../../src/cli/early-reads.js";
import { probeBwrapAsync } from "../../../src/exec/sandbox.js";
import { repoIdentity } from "../../../src/git/repo-identity.js";
import { snapshotWorkTree } from "../../../src/git/repo.js";
import { inspectWorkspace } from "../../../src/git/workspace.js";
import { waitFor } from "../../helpers/cli.js";
import { project, tempDir } from "../../helpers/per-test.js";

// The start's git reads and bubblewrap's trial, begun by bin/yolo.js in yolo's own process before the CLI loads
// (src/cli/early-reads.ts): its answers are the ones the CLI would have read itself, a failure is reported rather than
// waited on, and once let go nothing of them holds yolo's exit.

const PROBES = fileURLToPath(new URL("../../../dist/cli/early-probes.cjs", import.meta.url));
const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
const gitIn = (root: string, ...args: string[]) => execFileSync(REAL_GIT, args, { cwd: root, encoding: "utf8" });

// inspectWorkspace's facts with the filter drivers read, to compare answers made by two callers.
async function plain(facts: ReturnType<typeof inspectWorkspace>) {
  const f = await facts;
  return { ...f, filters: f.filters ? await f.filters : undefined };
}

describe("readEarly", { timeout: 30_000 }, () => {
  it("answers what the CLI reads itself: identity, HEAD, the status, the filter drivers, a dirty tree's snapshot, the sandbox trial", async ({
    onTestFinished,
  }) => {
    const clean = project(onTestFinished);
    const dirty = project(onTestFinished, { "notes.txt": "committed\n" });
    writeFileSync(join(dirty, "notes.txt"), "changed\n");
    writeFileSync(join(dirty, "new.txt"), "untracked\n");
    const outside = tempDir(onTestFinished, "yolo-early-outside-");
    for (const root of [clean, dirty, outside]) {
      for (const mode of ["start", "resume"] as const) {
        const early = readEarly(root, mode);
        expect(await early.identity, root).toBe(await repoIdentity(root));
        expect(await plain(early.workspace), `${root} ${mode}`).toEqual(await plain(inspectWorkspace(root, mode)));
        expect(await early.sandbox).toEqual(await probeBwrapAsync(process.env.PATH));
        if (mode === "resume") expect(early.snapshot).toBeNull();
        else if (root !== dirty) expect(await early.snapshot).toBeNull();
      }
    }
    // The dirty tree's snapshot is a commit of the tree as it is, on HEAD, kept by nothing yet (objects only).
    const commit = await readEarly(dirty, "start").snapshot;
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(gitIn(dirty, "for-each-ref", "refs/yolo/")).toBe("");
    expect(gitIn(dirty, "rev-parse", `${commit}^`)).toBe(gitIn(dirty, "rev-parse", "HEAD"));
    expect(gitIn(dirty, "show", `${commit}:notes.txt`)).toBe("changed\n");
    expect(gitIn(dirty, "show", `${commit}:new.txt`)).toBe("untracked\n");
    // The same tree the CLI's own snapshot records.
    const alone = await snapshotWorkTree(dirty, "alone001");
    expect(gitIn(dirty, "rev-parse", `${commit}^{tree}`)).toBe(gitIn(dirty, "rev-parse", `${alone}^{tree}`));
  });

  it("a read that fails rejects with git's message; the others still answer", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    // An index git cannot read: the status fails, the identity does not.
    writeFileSync(join(root, ".git", "index"), "garbage");
    const early = readEarly(root, "start");
    const alone = (await inspectWorkspace(root, "start").catch((e: unknown) => e)) as Error;
    expect(alone).toBeInstanceOf(Error);
    await expect(early.workspace).rejects.toThrow(alone.message);
    await expect(early.snapshot).rejects.toThrow(alone.message);
    expect(await early.identity).toBe(await repoIdentity(root));
  });

  it("let go, a git still running holds no exit and ends on its own, and a trial still running is killed", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    // A git that takes far longer than the test (a very large repository's status), and a bubblewrap that hangs; each
    // says its pid, and the git when it ends.
    const bin = tempDir(onTestFinished, "yolo-hung-reads-");
    const log = (name: string) => join(bin, `${name}.log`);
    writeFileSync(join(bin, "git"), `#!/bin/sh\necho "start $$" >> '${log("git")}'\nsleep 3\necho end >> '${log("git")}'\n`);
    writeFileSync(join(bin, "bwrap"), `#!/bin/sh\necho "start $$" >> '${log("bwrap")}'\nexec sleep 30\n`);
    for (const name of ["git", "bwrap"]) chmodSync(join(bin, name), 0o755);
    const logged = (name: string) => (existsSync(log(name)) ? readFileSync(log(name), "utf8") : "");
    onTestFinished(() => {
      spawnSync("pkill", ["-f", `${bin}/`]);
    });
    // A stand-in for yolo: the shim's start of the reads, then the CLI taking them and letting them go at its end.
    const script = `const p = require(${JSON.stringify(PROBES)}); p.startEarlyProbes(process.argv[1], "start");
setTimeout(() => p.takeEarlyProbes(process.argv[1], "start").release(), 300);`;
    const stand = spawn(process.execPath, ["-e", script, root], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: "ignore" });
    const exited = new Promise<number | null>((resolve) => stand.on("exit", resolve));
    onTestFinished(() => {
      stand.kill("SIGKILL");
    });
    expect(await exited).toBe(0);
    // It did not wait for the git (3 s), which was running when it left and ends by itself; the trial was killed.
    expect(logged("git")).toMatch(/^start \d+\n/);
    expect(logged("git")).not.toContain("end");
    await waitFor(() => logged("git").includes("end"), "the git let go to end on its own", 10_000);
    const trial = Number(/start (\d+)/.exec(logged("bwrap"))?.[1]);
    expect(trial).toBeGreaterThan(0);
    await waitFor(() => !alive(trial), "the trial to be killed", 5_000);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped) counts as gone.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}
