import { readdirSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";

// A run's agents come from the agents cache when this build validated the same files before (src/agents/agents-cache.ts).
// The contract of a bad agent file does not change with a warm cache: exit 2, nothing on stdout, no model call.

describe("a run with the agents cache warm", () => {
  it("still refuses an agent file that turned bad after it was cached, before run.started", async ({ onTestFinished }) => {
    const root = project(onTestFinished);
    const cache = tempDir(onTestFinished, "yolo-agents-cache-e2e-");
    const env = { XDG_CACHE_HOME: cache };
    // 401: the run fails at once after run.started (no retries), which is all the cache needs.
    const mock = await mockWith(onTestFinished, () => ({ status: 401, body: { error: { message: "bad key" } } }));
    // Twice: the first start validates and remembers, the second is answered from the cache.
    for (let i = 0; i < 2; i++) {
      const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url, env });
      expect(parseEvents(r.stdout)[0]?.type, describeResult(r)).toBe("run.started");
    }
    expect(readdirSync(join(cache, "yolo", "agents")).filter((n) => n.endsWith(".json"))).toHaveLength(1);
    const calls = mock.requests.length;
    mkdirSync(join(root, "agents"), { recursive: true });
    writeFileSync(join(root, "agents", "analyst.md"), "---\nname: Analyst\ntools: 5\n---\nYou analyse.\n");
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url, env });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("analyst.md");
    expect(mock.requests).toHaveLength(calls);
  });

  it("a required sandbox that does not work here is still exit 2 with nothing emitted (the trial now runs meanwhile)", async ({ onTestFinished }) => {
    const root = project(onTestFinished, { "yolo.config.ts": 'export default { sandbox: "required" };\n' });
    // A PATH with git and node but a bwrap that cannot build its sandbox.
    const bin = tempDir(onTestFinished, "yolo-fake-bwrap-bin-");
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n", { mode: 0o755 });
    const mock = await mockWith(onTestFinished, () => ({ status: 500 }));
    const r = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: root, baseURL: mock.url, env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/sandbox is "required" but .*No permissions to creating new namespace/);
    expect(mock.requests).toHaveLength(0);
  });
});
