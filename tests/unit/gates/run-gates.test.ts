import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runGates } from "../../../src/gates/run-gates.js";
import { EVENT_SCHEMA_VERSION, yoloEventSchema } from "../../../src/events/schema.js";

let root: string;
let logDir: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-gates-")));
  logDir = path.join(root, ".yolo", "threads", "t1", "gates");
  fs.mkdirSync(path.join(root, "test"));
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "fixture", private: true, scripts: { test: "node --test" } }));
  fs.writeFileSync(
    path.join(root, "test", "pass.test.js"),
    `const test = require("node:test");\ntest("adds", () => { if (1 + 1 !== 2) throw new Error("math"); });\n`,
  );
  fs.writeFileSync(
    path.join(root, "test", "fail.test.js"),
    `const test = require("node:test");\ntest("subtracts", () => { throw new Error("expected 1, got 2"); });\n`,
  );
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const opts = (attempt = 1) => ({ root, env: process.env, capBytes: 8192, attempt, logDir });

describe("runGates", () => {
  it("runs npm test and reports a failing node --test project with counts, tail and log file", async () => {
    const [result] = await runGates([{ name: "test", command: "npm test", required: true, timeoutS: 60 }], opts(2));
    // The result must be a valid gate.result event payload as-is.
    const event = { v: EVENT_SCHEMA_VERSION, thread: "t1", ts: new Date().toISOString(), type: "gate.result", node: "tea", gate: result };
    expect(yoloEventSchema.parse(event)).toEqual(event);
    expect(result).toMatchObject({
      name: "test",
      command: "npm test",
      required: true,
      passed: false,
      exitCode: 1,
      timedOut: false,
      attempt: 2,
      passedCount: 1,
      failedCount: 1,
      failures: ["subtracts"],
      logFile: ".yolo/threads/t1/gates/attempt-2-test.log",
    });
    expect(result.tail).toMatch(/# fail 1|ℹ fail 1/);
    expect(Buffer.byteLength(result.tail)).toBeLessThanOrEqual(2000);
    const log = fs.readFileSync(path.join(root, result.logFile as string), "utf8");
    expect(log).toContain("expected 1, got 2");
    expect(log).toMatch(/^\$ npm test\n/);
  });

  it("passes once the failing test is fixed, running gates in order", async () => {
    fs.rmSync(path.join(root, "test", "fail.test.js"));
    const results = await runGates(
      [
        { name: "test", command: "npm test", required: true, timeoutS: 60 },
        { name: "lint", command: "echo lint ok", required: false, timeoutS: 10 },
      ],
      opts(),
    );
    expect(results.map((r) => [r.name, r.passed, r.exitCode])).toEqual([
      ["test", true, 0],
      ["lint", true, 0],
    ]);
    expect(results[0]).toMatchObject({ passedCount: 1, failedCount: 0, failures: [] });
    expect(results[1]).toMatchObject({ passedCount: null, failedCount: null, tail: "lint ok\n", logFile: ".yolo/threads/t1/gates/attempt-1-lint.log" });
  });

  it("marks a gate that times out as not passed", async () => {
    const [result] = await runGates([{ name: "slow", command: "sleep 5", required: true, timeoutS: 0.2 }], opts());
    expect(result).toMatchObject({ passed: false, timedOut: true, exitCode: null });
    expect(fs.readFileSync(path.join(root, result.logFile as string), "utf8")).toMatch(/timed out after 0.2s/);
  });

  it("keeps secrets out of gate commands", async () => {
    const env = { ...process.env, OPENAI_API_KEY: "sk-gate", PROVIDER_X: "px" };
    const [result] = await runGates([{ name: "env", command: "env", required: true, timeoutS: 10 }], { ...opts(), env, secretEnvNames: ["PROVIDER_X"] });
    const log = fs.readFileSync(path.join(root, result.logFile as string), "utf8");
    expect(log).not.toMatch(/sk-gate|OPENAI_API_KEY|PROVIDER_X/);
    expect(log).toMatch(/^PATH=/m);
  });

  it("writes a large output's whole log (the path that does not write synchronously) and creates the log folder", async () => {
    // 400 KiB of numbered lines, past the size up to which logs are written synchronously.
    const command = `node -e "for (let i = 0; i < 40000; i++) console.log('line ' + String(i).padStart(5, '0'))"`;
    const [result] = await runGates([{ name: "big", command, required: true, timeoutS: 30 }], opts());
    expect(fs.existsSync(logDir)).toBe(true);
    const log = fs.readFileSync(path.join(root, result.logFile as string), "utf8");
    expect(Buffer.byteLength(log)).toBeGreaterThan(400_000);
    expect(log).toContain("line 00000\n");
    expect(log).toContain("line 39999\n");
  });

  it("replaces a symlink planted at the log's path instead of writing through it", async () => {
    const outside = path.join(root, "outside.txt");
    fs.writeFileSync(outside, "keep me\n");
    fs.mkdirSync(logDir, { recursive: true });
    fs.symlinkSync(outside, path.join(logDir, "attempt-1-lint.log"));
    const [result] = await runGates([{ name: "lint", command: "echo lint ok", required: true, timeoutS: 10 }], opts());
    expect(fs.readFileSync(outside, "utf8")).toBe("keep me\n");
    const log = path.join(root, result.logFile as string);
    expect(fs.lstatSync(log).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(log, "utf8")).toContain("lint ok");
  });

  it("keeps the real output in the log when the command replaces the log file while it runs", async () => {
    // The log is created as the command starts; a hostile test command swaps it for its own version.
    const command = `sleep 0.3; rm -f .yolo/threads/t1/gates/attempt-1-swap.log && echo "all 99 tests passed" > .yolo/threads/t1/gates/attempt-1-swap.log; echo real output; exit 1`;
    const [result] = await runGates([{ name: "swap", command, required: true, timeoutS: 10 }], opts());
    expect(result.passed).toBe(false);
    const log = fs.readFileSync(path.join(root, result.logFile as string), "utf8");
    expect(log).toContain("real output");
    expect(log.split("\n")).not.toContain("all 99 tests passed");
    expect(log).toMatch(/exit code 1/);
  });

  it("writes the log again when the command removes the log folder while it runs", async () => {
    const command = "sleep 0.3; rm -rf .yolo/threads/t1/gates; echo still here";
    const [result] = await runGates([{ name: "rm", command, required: true, timeoutS: 10 }], opts());
    expect(fs.readFileSync(path.join(root, result.logFile as string), "utf8")).toContain("still here");
  });

  it("reports no log file, and the gate's result all the same, when the log folder cannot be created", async () => {
    fs.writeFileSync(path.join(root, "not-a-folder"), "");
    const [result] = await runGates([{ name: "lint", command: "echo lint ok", required: true, timeoutS: 10 }], {
      ...opts(),
      logDir: path.join(root, "not-a-folder", "gates"),
    });
    expect(result).toMatchObject({ passed: true, exitCode: 0, tail: "lint ok\n", logFile: null });
  });

  it("names failing tests by their path in the project, not the absolute path a runner prints", async () => {
    // A sibling folder whose name starts with the root's, and a path outside the project, keep their absolute paths.
    const lines = [` FAIL  ${root}/test/add.test.js > adds`, ` FAIL  file://${root}/test/b.test.js`, ` FAIL  ${root}x/c.test.js`, "      Tests  3 failed (3)"];
    fs.writeFileSync(path.join(root, "out.txt"), `${lines.join("\n")}\n`);
    const [result] = await runGates([{ name: "test", command: "cat out.txt; exit 1", required: true, timeoutS: 60 }], opts());
    expect(result.failures).toEqual(["test/add.test.js > adds", "test/b.test.js", `${root}x/c.test.js`]);
  });

  it("runs nothing once aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await runGates([{ name: "test", command: "npm test", required: true, timeoutS: 60 }], { ...opts(), signal: controller.signal })).toEqual([]);
  });
});
