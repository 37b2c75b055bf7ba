import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { holderAlive } from "../../../src/store/thread-store.js";

// A killed run leaves its lock file and lease behind, and the next start asks whether their process lives. Where
// /proc lists every process, a gone one is told from it: process.kill's "no such process" is a thrown error, and
// the first one a process throws builds Node's table of system errors (about 1 ms of that start).

afterEach(() => {
  vi.restoreAllMocks();
});

describe.runIf(existsSync("/proc/1"))("a lease or lock holder's process, on this host", () => {
  it("gone: dead without a signal sent", () => {
    const pid = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    const kill = vi.spyOn(process, "kill");
    expect(holderAlive(hostname(), pid)).toBe(false);
    expect(kill).not.toHaveBeenCalled();
  });

  it("running: alive", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      expect(holderAlive(hostname(), child.pid as number)).toBe(true);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
