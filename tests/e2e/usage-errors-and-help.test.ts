import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { describeResult, runYolo } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "yolo-usage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const yolo = (...args: string[]) => runYolo(args, { cwd: dir });

describe("a usage error prints the error and where to find help, not the whole help", () => {
  it.each([
    [["run", "--max-steps", "abc", "x"], "error: option '--max-steps <n>' argument 'abc' is invalid. expected a whole number", "run"],
    [["resume"], "error: missing required argument 'thread': give its id (yolo threads lists them), or --last for the thread that ran last", "resume"],
    [["run", "--bogus", "x"], "error: unknown option '--bogus'", "run"],
    [["chat", "--branch", "hi"], "error: unknown option '--branch'", "chat"],
  ])("yolo %j exits 2 with two lines on stderr", async (args, error, command) => {
    const r = await yolo(...args);
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toBe(`${error}\nRun 'yolo ${command} --help' for usage.\n`);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toContain("Options:");
  });

  it("takes a command's options before the command too: yolo --json threads", async () => {
    const r = await yolo("--json", "threads");
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    const c = await runYolo(["--json", "-C", dir, "--all", "threads"], { cwd: tmpdir() });
    expect(c.exitCode, describeResult(c)).toBe(0);
    expect(JSON.parse(c.stdout)).toEqual([]);
    // A value goes with its option; an option the command does not have is still an error.
    const bad = await yolo("--branch", "chat", "hi");
    expect(bad.exitCode, describeResult(bad)).toBe(2);
    expect(bad.stderr).toContain("error: unknown option '--branch'");
  });

  it("an unknown command points at the top-level help", async () => {
    const r = await yolo("bogus");
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toBe("error: unknown command 'bogus'\nRun 'yolo --help' for usage.\n");
  });
});

describe("--help", () => {
  it("lists the commands, exit codes and environment within 80 columns", async () => {
    const r = await yolo("--help");
    expect(r.exitCode, describeResult(r)).toBe(0);
    for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(r.stdout).toMatch(/^ {2}resume \[thread\] \[message\.\.\.\] {2}continue a thread/m);
    expect(r.stdout).toContain("Exit codes:");
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 70, 130]) expect(r.stdout).toMatch(new RegExp(`^ {2}${code} +\\S`, "m"));
    for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "YOLO_MODEL", "YOLO_DB", "YOLO_DATABASE_URL", "CI"]) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, "m"));
    }
    // The values the sandbox setting really takes (src/config/resolve.ts), as the README lists them.
    expect(r.stdout).toMatch(/^ {2}YOLO_SANDBOX +auto, required or off\b/m);
  });

  it("run --help shows the limits' real defaults", async () => {
    const defaults = resolveConfig({ root: dir, fileConfig: {}, file: null, env: {} });
    const r = await yolo("run", "--help");
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toMatch(new RegExp(`--max-fix-attempts <n> [^-]*\\(default: ${defaults.maxFixAttempts}\\)`));
    expect(help).toMatch(new RegExp(`--max-turns <n> [^-]*\\(default: ${defaults.limits.maxTurns}\\)`));
    expect(help).toMatch(new RegExp(`--max-steps <n> [^-]*\\(default: ${defaults.limits.maxSteps}\\)`));
  });

  it("chat --help offers no option a read-only chat would ignore", async () => {
    const r = await yolo("chat", "--help");
    expect(r.exitCode, describeResult(r)).toBe(0);
    for (const flag of ["--branch", "--no-branch", "--allow-dirty", "--answers", "--max-fix-attempts"]) expect(r.stdout).not.toContain(flag);
    expect(r.stdout).toContain("--max-turns");
  });
});
