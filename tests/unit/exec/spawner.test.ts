import { execa } from "execa";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runShell, type RunShellOptions } from "../../../src/exec/run-shell.js";
import { setSpawnerMode, spawnerPid, spawnerScript } from "../../../src/exec/spawner.js";
import { packageRoot } from "../../../src/package-root.js";
import { eventually, groupMembers, isRunning } from "../../helpers/process-groups.js";
import { tempDir } from "../../helpers/per-test.js";

beforeAll(() => {
  // Every command of this file goes through the helper (a test that finds no helper fails rather than skips).
  expect(existsSync(spawnerScript()), "the helper is built by `npm run build`").toBe(true);
  setSpawnerMode("helper");
});

const base = (cwd: string): RunShellOptions => ({ cwd, timeoutS: 20, env: { PATH: process.env.PATH }, capBytes: 4096 });

async function pidFrom(file: string): Promise<number> {
  expect(await eventually(() => existsSync(file) && readFileSync(file, "utf8").trim() !== "")).toBe(true);
  return Number(readFileSync(file, "utf8").trim());
}

describe("commands started by the spawner helper", () => {
  it("are children of the helper, not of this process", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished);
    const result = await runShell("echo $PPID", base(root));
    const helper = spawnerPid();
    expect(helper).toBeDefined();
    expect(helper).not.toBe(process.pid);
    expect(result).toMatchObject({ exitCode: 0, output: `${helper}\n` });
  });

  it("bring a flood of output across whole, capped as ever", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished);
    const bytes = 24 * 1024 * 1024;
    const result = await runShell(`head -c ${bytes} /dev/zero | tr '\\0' a; echo END >&2`, { ...base(root), capBytes: 1000, keepFullOutput: true });
    expect(result.exitCode).toBe(0);
    // Whole: every byte of both streams. In arrival order, which two pipes do not fix: stderr's END, written after the
    // last of stdout, may be read before stdout's last chunk.
    const full = result.fullOutput ?? "";
    expect(full.length).toBe(bytes + 4);
    const end = full.indexOf("END\n");
    expect(end).toBeGreaterThan(0);
    expect(full.slice(0, end) + full.slice(end + 4)).toBe("a".repeat(bytes));
    expect(result.output).toContain(`[… ${bytes + 4 - 1000} bytes omitted …]`);
  });

  it("may close their output and leave a job behind: they end, and the job is killed", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished);
    const result = await runShell("exec >&- 2>&-; sleep 30 & echo $! > pidfile; echo done > out.txt", base(root));
    expect(result).toMatchObject({ exitCode: 0, output: "" });
    expect(readFileSync(join(root, "out.txt"), "utf8")).toBe("done\n");
    const job = await pidFrom(join(root, "pidfile"));
    expect(await eventually(() => !isRunning(job))).toBe(true);
  });

  it("that ignore SIGTERM are SIGKILLed at their timeout, the whole group", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished);
    const result = await runShell("trap '' TERM; echo $$ > pidfile; while :; do sleep 0.1; done", { ...base(root), timeoutS: 0.5, killGraceMs: 200 });
    expect(result).toMatchObject({ timedOut: true, exitCode: null });
    const group = await pidFrom(join(root, "pidfile"));
    expect(await eventually(() => groupMembers(group).length === 0)).toBe(true);
  });

  it("are stopped by an abort that comes before their pid is known", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished);
    const controller = new AbortController();
    const running = runShell("echo $$ > pidfile; exec sleep 30", { ...base(root), signal: controller.signal });
    controller.abort();
    expect(await running).toMatchObject({ aborted: true, exitCode: null });
    // The command may have started before the abort reached it; if it did, its group is gone.
    const written = existsSync(join(root, "pidfile")) ? readFileSync(join(root, "pidfile"), "utf8").trim() : "";
    if (written !== "") expect(await eventually(() => groupMembers(Number(written)).length === 0)).toBe(true);
  });
});

describe("the spawner helper", () => {
  it("does not keep a process running once its commands are done", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished);
    const dist = join(packageRoot(), "dist", "exec");
    const script = [
      `import { setSpawnerMode, spawnerPid } from ${JSON.stringify(join(dist, "spawner.js"))};`,
      `import { runShell } from ${JSON.stringify(join(dist, "run-shell.js"))};`,
      `setSpawnerMode("helper");`,
      `const r = await runShell("echo $PPID", { cwd: ${JSON.stringify(root)}, timeoutS: 20, env: { PATH: process.env.PATH }, capBytes: 100 });`,
      `console.log(r.output.trim() === String(spawnerPid()) ? "through the helper" : "direct: " + r.output);`,
    ].join("\n");
    writeFileSync(join(root, "run.mjs"), script);
    const child = await execa(process.execPath, [join(root, "run.mjs")], { reject: false, timeout: 30_000, killSignal: "SIGKILL" });
    expect(child.timedOut, "the process did not exit on its own").toBe(false);
    expect(child).toMatchObject({ exitCode: 0, stdout: "through the helper" });
  });
});
