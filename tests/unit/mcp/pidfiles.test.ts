import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { pidDir, processStartTime, sweepLeftovers, writePidfile } from "../../../src/mcp/pidfiles.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// A detached sleeper standing in for a server, killed when the test ends whatever happens.
function sleeper(): number {
  const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
  child.unref();
  onTestFinished(() => {
    if (alive(child.pid!)) process.kill(-child.pid!, "SIGKILL");
  });
  return child.pid!;
}

// The pid of a process that has exited (an owner that was killed).
function deadPid(): number {
  return Number(spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" }).stdout.trim());
}

describe("pidfiles of stdio MCP servers", () => {
  it("kills a server whose yolo is gone and whose start time matches; leaves a live yolo's server and a reused pid alone", async () => {
    const state = mkdtempSync(join(tmpdir(), "yolo-pids-"));
    onTestFinished(() => rmSync(state, { recursive: true, force: true }));
    const orphan = sleeper();
    const owned = sleeper();
    const reused = sleeper();
    const dead = deadPid();
    const me = { owner: process.pid, ownerStarted: processStartTime(process.pid) };
    const gone = { owner: dead, ownerStarted: "1" };
    writePidfile(pidDir(state, "t1"), { server: "orphan", pid: orphan, started: processStartTime(orphan), ...gone });
    writePidfile(pidDir(state, "t2"), { server: "owned", pid: owned, started: processStartTime(owned), ...me });
    writePidfile(pidDir(state, "t3"), { server: "reused", pid: reused, started: "12345", ...gone });

    const killed = sweepLeftovers(state);
    expect(killed.map((r) => r.server)).toEqual(["orphan"]);
    // Killed at once; gone from the process table once the test process (its parent) has reaped it.
    for (let i = 0; i < 60 && alive(orphan); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(orphan)).toBe(false);
    expect(alive(owned)).toBe(true);
    expect(alive(reused)).toBe(true);
    expect(existsSync(join(pidDir(state, "t1"), "orphan.pid.jsonl"))).toBe(false);
    expect(existsSync(join(pidDir(state, "t2"), "owned.pid.jsonl"))).toBe(true);
    expect(existsSync(join(pidDir(state, "t3"), "reused.pid.jsonl"))).toBe(false);
  });
});
