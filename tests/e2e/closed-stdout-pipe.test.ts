import { spawn } from "node:child_process";
import { describe, it } from "vitest";
import { BIN, cleanEnv, describeResult, runYolo, type YoloResult } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

/**
 * Runs the binary with stdout on a real pipe whose reading end the test closes: at once (`closeAfter: 0`, the
 * child's first write fails with EPIPE), or after the first line (`yolo run --json … | head -1`).
 */
function runWithClosedStdout(args: string[], cwd: string, closeAfterLines: number, baseURL?: string): Promise<YoloResult & { firstLines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv({ baseURL }), stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
    let stderr = "";
    let buffered = "";
    const firstLines: string[] = [];
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    if (closeAfterLines === 0) child.stdout.destroy();
    else {
      child.stdout.on("data", (d: Buffer) => {
        buffered += d.toString();
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        firstLines.push(...lines);
        if (firstLines.length >= closeAfterLines) child.stdout.destroy();
      });
    }
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? undefined, signal: signal ?? undefined, timedOut: false, stdout: firstLines.join("\n"), stderr, firstLines });
    });
  });
}

describe.concurrent("a closed stdout (yolo … | head) neither kills the command nor changes its exit code", { timeout: 240_000 }, () => {
  it("run --json | head -1: the run goes on to its end, exits 0, and the thread is recorded as passed", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runWithClosedStdout(["run", "--json", "Add an add(a, b) function to src/add.js"], root, 1, mock.url);

    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.firstLines[0]).toContain('"run.started"');
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    // Every agent ran: the run did not stop when its output went nowhere.
    expect(mock.requests.length).toBeGreaterThanOrEqual(5);
    const threads = await runYolo(["threads", "--json"], { cwd: root });
    expect(JSON.parse(threads.stdout)[0]).toMatchObject({ status: "passed", exitCode: 0 });
  });

  it("run without --json, plain lines into a closed pipe: the gate's real exit code, not 1", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runWithClosedStdout(["run", "--no-tui", "Add an add(a, b) function to src/add.js"], root, 0, mock.url);

    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
  });

  it("--help, --version and history into a closed pipe exit 0 without a stack trace", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished);
    for (const args of [["--help"], ["run", "--help"], ["--version"], ["threads"]]) {
      const r = await runWithClosedStdout(args, root, 0);
      expect(r.exitCode, `${args.join(" ")}\n${describeResult(r)}`).toBe(0);
      expect(r.stderr, args.join(" ")).toBe("");
    }
  });
});
