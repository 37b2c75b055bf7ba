import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runShell } from "../../../src/exec/run-shell.js";
import { effectiveTimeout, runCommandTool } from "../../../src/tools/run-command.js";
import type { ToolContext } from "../../../src/tools/types.js";
import { tempDir } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

let root: string;
let ctx: ToolContext;

beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-cmd-");
  ctx = { root, commandTimeoutS: 10, outputCapBytes: 4096, readCapBytes: 4096, env: { PATH: process.env.PATH }, secretEnvNames: [] };
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const run = (command: string, timeout_s?: number) => runCommandTool.run(runCommandTool.schema.parse({ command, timeout_s }), ctx);

// A process is gone once it no longer exists or is a zombie (in containers, PID 1 may never reap orphans).
function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    if (fs.existsSync("/proc/self")) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

// A process sent SIGKILL is gone a moment later, not at once (longer on a loaded machine): waits for that, up to 10 s
// (a survivor, such as a `sleep 30` nobody killed, is still there then).
async function diesSoon(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !isAlive(pid);
}

async function waitForPidFile(file: string): Promise<number> {
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 10));
  return Number(fs.readFileSync(file, "utf8").trim());
}

describe("run_command", () => {
  it("reports exit code 0 with the output and runs in the project root", async () => {
    fs.writeFileSync(path.join(root, "marker.txt"), "here");
    const out = await run("cat marker.txt; echo; echo to-stderr >&2");
    expect(out.ok).toBe(true);
    expect(out.content).toMatch(/^exit code 0\n/);
    expect(out.content).toContain("here");
    expect(out.content).toContain("to-stderr");
    expect(out.summary).toBe("cat marker.txt; echo; echo to-stderr >&2 → exit 0");
  });

  it("reports a non-zero exit code as a failed call", async () => {
    const out = await run(`node -e "console.log('bad'); process.exit(3)"`);
    expect(out).toMatchObject({ ok: false, summary: expect.stringMatching(/→ exit 3$/) });
    expect(out.content).toBe("exit code 3\nbad\n");
  });

  it("caps long output keeping its head and tail", async () => {
    ctx.outputCapBytes = 200;
    const out = await run("echo FIRST; i=0; while [ $i -lt 500 ]; do echo line-$i; i=$((i+1)); done; echo LAST");
    expect(out.content).toMatch(/^exit code 0\nFIRST\n/);
    expect(out.content).toMatch(/\[… \d+ bytes omitted …\]/);
    expect(out.content.trimEnd().endsWith("LAST")).toBe(true);
    expect(out.content.length).toBeLessThan(400);
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const pidFile = path.join(root, "pidfile");
    const started = Date.now();
    const out = await run(`sh -c 'sleep 30 & echo $! > pidfile; wait'`, 0.3);
    // Well before the `sleep 30` would have ended on its own.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(out).toMatchObject({ ok: false, summary: expect.stringMatching(/→ timed out after 0.3s$/) });
    expect(out.content).toMatch(/^timed out after 0.3s/);
    expect(await diesSoon(await waitForPidFile(pidFile))).toBe(true);
  });

  it("kills background jobs the command leaves behind when it exits", async () => {
    const out = await run("sleep 30 & echo $! > pidfile; echo started");
    expect(out.content).toBe("exit code 0\nstarted\n");
    expect(await diesSoon(await waitForPidFile(path.join(root, "pidfile")))).toBe(true);
  });

  it("removes secrets from the command's environment and adds no colour or CI variable (dev sees what the gate sees)", async () => {
    ctx.env = {
      PATH: process.env.PATH,
      OPENAI_API_KEY: "sk-live-123",
      MY_TOKEN: "tok-456",
      ODDLY_NAMED_PROVIDER_VAR: "custom-789",
      YOLO_HARMLESS: "visible",
    };
    ctx.secretEnvNames = ["ODDLY_NAMED_PROVIDER_VAR"];
    const out = await run("env");
    expect(out.content).not.toMatch(/OPENAI_API_KEY|sk-live-123|MY_TOKEN|tok-456|ODDLY_NAMED|custom-789/);
    expect(out.content).toMatch(/^YOLO_HARMLESS=visible$/m);
    expect(out.content).toMatch(/^PATH=/m);
    expect(out.content).not.toMatch(/^(CI|NO_COLOR|FORCE_COLOR)=/m);
  });

  it("gives the command no stdin", async () => {
    const out = await run("cat; echo done");
    expect(out.content).toBe("exit code 0\ndone\n");
  });

  it("refuses an empty command", async () => {
    expect(await run("  ")).toMatchObject({ ok: false });
  });
});

describe("effectiveTimeout", () => {
  it("defaults to the configured timeout and allows shorter or up to 4× longer", () => {
    expect(effectiveTimeout(undefined, 60)).toBe(60);
    expect(effectiveTimeout(5, 60)).toBe(5);
    expect(effectiveTimeout(200, 60)).toBe(200);
    expect(effectiveTimeout(10_000, 60)).toBe(240);
    expect(effectiveTimeout(0, 60)).toBe(60);
  });
});

describe("runShell", () => {
  it("SIGKILLs a grandchild that ignores SIGTERM after the grace period", async () => {
    const pidFile = path.join(root, "pidfile");
    const started = Date.now();
    const result = await runShell(`(trap '' TERM; exec sleep 30) & echo $! > pidfile; wait`, {
      cwd: root,
      timeoutS: 0.2,
      env: { PATH: process.env.PATH },
      capBytes: 1000,
      killGraceMs: 200,
    });
    expect(result).toMatchObject({ timedOut: true, exitCode: null });
    // Well before the `sleep 30` would have ended on its own.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await diesSoon(await waitForPidFile(pidFile))).toBe(true);
  });

  it("does not wait for a process that escaped the group and holds the pipe", async (ctx) => {
    requireTool(ctx, "setsid", "a process that leaves its process group");
    const started = Date.now();
    const result = await runShell("setsid sleep 5 & echo $! > pidfile; echo started; exit 4", {
      cwd: root,
      timeoutS: 10,
      env: { PATH: process.env.PATH },
      capBytes: 1000,
    });
    process.kill(await waitForPidFile(path.join(root, "pidfile")), "SIGKILL");
    expect(result).toMatchObject({ exitCode: 4, output: "started\n" });
    expect(Date.now() - started).toBeLessThan(1900);
  });

  it("stops when aborted and says so", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await runShell("sleep 30", { cwd: root, timeoutS: 10, env: { PATH: process.env.PATH }, capBytes: 1000, signal: controller.signal });
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    expect(result.durationMs).toBeLessThan(1500);
  });

  it("keeps the full output when asked, while capping `output`", async () => {
    const result = await runShell("head -c 5000 /dev/zero | tr '\\0' a", {
      cwd: root,
      timeoutS: 5,
      env: { PATH: process.env.PATH },
      capBytes: 100,
      keepFullOutput: true,
    });
    expect(result.fullOutput).toBe("a".repeat(5000));
    expect(result.output).toBe(`${"a".repeat(50)}\n[… 4900 bytes omitted …]\n${"a".repeat(50)}`);
  });

  it("reports a command that cannot start without throwing", async () => {
    const result = await runShell("echo hi", { cwd: path.join(root, "missing"), timeoutS: 5, env: { PATH: process.env.PATH }, capBytes: 1000 });
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/cwd/);
  });

  it("reports a command Node refuses to start (a NUL byte from the model) without throwing", async () => {
    const result = await runShell("echo a\0b", { cwd: root, timeoutS: 5, env: { PATH: process.env.PATH }, capBytes: 1000 });
    expect(result).toMatchObject({ exitCode: null, timedOut: false, aborted: false });
    expect(result.output).toMatch(/could not start/);
  });
});
