import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { readEarly } from "../../../src/cli/early-reads.js";
import { probeBwrapAsync } from "../../../src/exec/sandbox.js";
import { repoIdentity } from "../../../src/git/repo-identity.js";
import { snapshotWorkTree } from "../../../src/git/repo.js";
import { trackedSecretFiles } from "../../../src/git/tracked-secrets.js";
import { inspectWorkspace } from "../../../src/git/workspace.js";
import { waitFor } from "../../helpers/cli.js";
import { project, tempDir } from "../../helpers/per-test.js";

// The start's git reads made by a Node process of their own (src/cli/early-reads.ts, dist/cli/early-child.cjs): its
// answers are the ones the CLI would have read itself, a failure is reported rather than waited on, and it never
// outlives the yolo that started it.

const CHILD = fileURLToPath(new URL("../../../dist/cli/early-child.cjs", import.meta.url));
const REAL_GIT = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
const gitIn = (root: string, ...args: string[]) => execFileSync(REAL_GIT, args, { cwd: root, encoding: "utf8" });

// inspectWorkspace's facts with the filter drivers read, to compare answers made in two processes.
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
        const early = readEarly(root, mode, CHILD);
        expect(await early.identity, root).toBe(await repoIdentity(root));
        expect(await plain(early.workspace), `${root} ${mode}`).toEqual(await plain(inspectWorkspace(root, mode)));
        expect(await early.sandbox).toEqual(await probeBwrapAsync(process.env.PATH));
        if (mode === "resume") expect(early.snapshot).toBeNull();
        else if (root !== dirty) expect(await early.snapshot).toBeNull();
      }
    }
    // The dirty tree's snapshot is a commit of the tree as it is, on HEAD, kept by nothing yet (objects only).
    const commit = await readEarly(dirty, "start", CHILD).snapshot;
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(gitIn(dirty, "for-each-ref", "refs/yolo/")).toBe("");
    expect(gitIn(dirty, "rev-parse", `${commit}^`)).toBe(gitIn(dirty, "rev-parse", "HEAD"));
    expect(gitIn(dirty, "show", `${commit}:notes.txt`)).toBe("changed\n");
    expect(gitIn(dirty, "show", `${commit}:new.txt`)).toBe("untracked\n");
    // The same tree the CLI's own snapshot records.
    const alone = await snapshotWorkTree(dirty, "alone001");
    expect(gitIn(dirty, "rev-parse", `${commit}^{tree}`)).toBe(gitIn(dirty, "rev-parse", `${alone}^{tree}`));
  });

  it("lists the tracked files that look like secrets, as the CLI would: none outside git or in a clean project", async ({ onTestFinished }) => {
    const secrets = project(onTestFinished, { ".env": "KEY=1\n", "keys/id_rsa": "k\n", ".env.example": "KEY=\n", "src/a.js": "1\n" });
    const clean = project(onTestFinished);
    const outside = tempDir(onTestFinished, "yolo-early-outside-");
    for (const mode of ["start", "resume"] as const) expect(await readEarly(secrets, mode, CHILD).trackedSecrets, mode).toEqual([".env", "keys/id_rsa"]);
    expect(await trackedSecretFiles(secrets)).toEqual([".env", "keys/id_rsa"]);
    expect(await readEarly(clean, "start", CHILD).trackedSecrets).toEqual([]);
    expect(await readEarly(outside, "start", CHILD).trackedSecrets).toEqual([]);
  });

  it("a read that fails in the child rejects with git's message; the others still answer", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    // An index git cannot read: the status fails, the identity does not.
    writeFileSync(join(root, ".git", "index"), "garbage");
    const early = readEarly(root, "start", CHILD);
    const alone = (await inspectWorkspace(root, "start").catch((e: unknown) => e)) as Error;
    expect(alone).toBeInstanceOf(Error);
    await expect(early.workspace).rejects.toThrow(alone.message);
    await expect(early.snapshot).rejects.toThrow(alone.message);
    expect(await early.identity).toBe(await repoIdentity(root));
  });

  it("a child that cannot start, or dies, fails every read still waiting instead of leaving it waiting", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const missing = readEarly(root, "start", join(tempDir(onTestFinished), "no-such-child.cjs"));
    for (const read of [missing.identity, missing.workspace, missing.snapshot, missing.sandbox, missing.trackedSecrets])
      await expect(read).rejects.toThrow(/ended|could not start/);
    // The trial it could not make is made by the CLI (a PATH of its own, so nothing remembered answers instead).
    const path = `${process.env.PATH}:`;
    expect(await probeBwrapAsync(path, missing.sandbox)).toEqual(await probeBwrapAsync(process.env.PATH));
    // A git that never answers, and the child killed meanwhile.
    const bin = tempDir(onTestFinished, "yolo-hung-git-");
    writeFileSync(join(bin, "git"), '#!/bin/sh\necho $PPID > "$(dirname "$0")/child.pid"\nsleep 30\n');
    chmodSync(join(bin, "git"), 0o755);
    vi.stubEnv("PATH", `${bin}:${process.env.PATH}`);
    onTestFinished(() => {
      vi.unstubAllEnvs();
      spawnSync("pkill", ["-f", `${bin}/git`]);
    });
    const hung = readEarly(root, "start", CHILD);
    const pidFile = join(bin, "child.pid");
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the early child to run git");
    process.kill(Number(readFileSync(pidFile, "utf8")), "SIGKILL");
    await expect(hung.workspace).rejects.toThrow(/ended \(SIGKILL\)/);
    await expect(hung.identity).rejects.toThrow(/ended/);
    await expect(hung.snapshot).rejects.toThrow(/ended/);
  });

  it("the child leaves as soon as the yolo that started it has gone (killed, say)", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const bin = tempDir(onTestFinished, "yolo-slow-git-");
    // Each git the child starts writes the child's pid, then takes far longer than the test.
    writeFileSync(join(bin, "git"), '#!/bin/sh\necho $PPID > "$(dirname "$0")/child.pid"\nexec sleep 30\n');
    chmodSync(join(bin, "git"), 0o755);
    onTestFinished(() => {
      spawnSync("pkill", ["-f", `${bin}/git`]);
    });
    // A stand-in for yolo: a process that starts the reads, then is killed with SIGKILL (no exit handler runs).
    const parent = spawn(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(CHILD.replace("early-child", "early-probes"))}).startEarlyProbes(process.argv[1], "start", process.argv[2]); setInterval(() => {}, 1000);`,
        root,
        CHILD,
      ],
      {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
        stdio: "ignore",
      },
    );
    onTestFinished(() => {
      parent.kill("SIGKILL");
    });
    const pidFile = join(bin, "child.pid");
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the early child to run git");
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(alive(child)).toBe(true);
    parent.kill("SIGKILL");
    await waitFor(() => !alive(child), "the early child to exit after its parent was killed", 10_000);
  });

  it("runs without yolo's Node options (NODE_OPTIONS could load anything into it)", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const dir = tempDir(onTestFinished, "yolo-node-options-");
    const marker = join(dir, "loaded");
    writeFileSync(join(dir, "preload.cjs"), `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");\n`);
    vi.stubEnv("NODE_OPTIONS", `--require ${join(dir, "preload.cjs")}`);
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const early = readEarly(root, "start", CHILD);
    expect(await early.workspace).toMatchObject({ inRepo: true });
    expect(existsSync(marker)).toBe(false);
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
