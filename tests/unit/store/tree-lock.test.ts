import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { beforeEach, describe, expect, it } from "vitest";
import { ThreadError } from "../../../src/errors.js";
import { acquireTreeLock, isAlive } from "../../../src/store/tree-lock.js";
import { tempDir } from "../../helpers/per-test.js";

let stateDir: string;
beforeEach(({ onTestFinished }) => {
  stateDir = tempDir(onTestFinished, "yolo-lock-");
});

// A pid that belonged to a process that has ended (its own child, reaped).
const deadPid = () => spawnSync(process.execPath, ["-e", "0"]).pid!;

describe("the working tree's live-run lock", () => {
  it("refuses a second holder while the first's process lives, naming its thread and pid; free again once released", () => {
    const first = acquireTreeLock({ stateDir, root: "/repo", threadId: "first" });
    const file = join(stateDir, "locks", readdirSync(join(stateDir, "locks"))[0]);
    // Another live process holding it (this test's parent stands in for the first run).
    writeFileSync(file, JSON.stringify({ threadId: "first", pid: process.ppid, host: hostname(), root: "/repo", startedAt: "then" }));
    expect(() => acquireTreeLock({ stateDir, root: "/repo", threadId: "second" })).toThrow(ThreadError);
    expect(() => acquireTreeLock({ stateDir, root: "/repo", threadId: "second" })).toThrow(`thread first (pid ${process.ppid}, started then)`);
    // Another tree is not blocked.
    acquireTreeLock({ stateDir, root: "/repo-worktree", threadId: "beside" }).release();
    writeFileSync(file, JSON.stringify({ threadId: "first", pid: process.pid, host: hostname(), root: "/repo", startedAt: "now" }));
    first.release();
    expect(existsSync(file)).toBe(false);
  });

  it("takes over a lock whose process is gone, or whose file is half written", () => {
    const taken = acquireTreeLock({ stateDir, root: "/repo", threadId: "a" });
    const file = taken.file;
    writeFileSync(file, JSON.stringify({ threadId: "killed", pid: deadPid(), host: hostname(), root: "/repo", startedAt: "then" }));
    const next = acquireTreeLock({ stateDir, root: "/repo", threadId: "b" });
    next.release();
    writeFileSync(file, '{"threadId":');
    acquireTreeLock({ stateDir, root: "/repo", threadId: "c" }).release();
    expect(existsSync(file)).toBe(false);
  });
});

describe("a zombie holder", () => {
  it("is not a live run: a killed run whose parent died too is taken over", async () => {
    const { spawn } = await import("node:child_process");
    const { readFileSync } = await import("node:fs");
    // The short sleep ends after the shell has become the long one (exec), which never waits for it: a zombie while
    // the long one sleeps (the shell itself could have reaped a child that ended before the exec).
    const parent = spawn("/bin/sh", ["-c", "sleep 0.3 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const pid = await new Promise<number>((resolve) => parent.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
      const stateOf = () => {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      };
      const deadline = Date.now() + 10_000;
      while (stateOf() !== "Z" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(stateOf()).toBe("Z");
      expect(isAlive({ pid, host: "" })).toBe(false);
      expect(isAlive({ pid: process.pid, host: "" })).toBe(true);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
