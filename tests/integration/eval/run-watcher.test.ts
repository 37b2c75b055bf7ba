import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// No task's run outlives its eval: an eval killed with kill -9 alone (no signal it can catch) leaves its runs to the
// watcher, which stops those still going and leaves alone a pid whose run had ended. Real processes: a stand-in eval
// loading src/eval/child-watch.ts, and two stand-in runs.
const require = createRequire(import.meta.url);
const JITI = pathToFileURL(require.resolve("jiti")).href;
const WATCH = join(import.meta.dirname, "../../../src/eval/child-watch.ts");

// Gone, or a zombie nobody reaps yet (a container's first process may not): either way, no longer running.
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const since = Date.now();
  while (Date.now() - since < ms) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe("the eval's run watcher", () => {
  it("stops every run still going when the eval is killed with kill -9, and no run that ended", async ({ onTestFinished }) => {
    const dir = mkdtempSync(join(tmpdir(), "yolo-watcher-"));
    const script = join(dir, "eval.mjs");
    writeFileSync(
      script,
      `import { spawn } from "node:child_process";
import { createJiti } from ${JSON.stringify(JITI)};
const { watchChild } = await createJiti(import.meta.url).import(${JSON.stringify(WATCH)});
const run = () => spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore", detached: true });
const [a, b, c] = [run(), run(), run()];
watchChild(a.pid);
watchChild(b.pid).over();
watchChild(c.pid);
setTimeout(() => console.log(JSON.stringify([a.pid, b.pid, c.pid])), 300);
setInterval(() => {}, 1000);
`,
    );
    const pids: number[] = [];
    onTestFinished(() => {
      for (const pid of pids) if (running(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });
    const evalProcess = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    onTestFinished(() => {
      evalProcess.kill("SIGKILL");
    });
    const line = await new Promise<string>((resolve, reject) => {
      evalProcess.stdout.once("data", (d: Buffer) => resolve(d.toString()));
      evalProcess.once("exit", (code) => reject(new Error(`the stand-in eval exited ${code}`)));
    });
    pids.push(...(JSON.parse(line) as number[]));
    const [a, b, c] = pids;
    expect(pids.every(running)).toBe(true);
    // One watcher for the eval's every run: a single `/bin/sh -c` the eval started besides its runs.
    const watchers = execFileSync("ps", ["-ww", "-o", "pid=,args=", "--ppid", String(evalProcess.pid)], { encoding: "utf8" })
      .split("\n")
      .filter((l) => /\/bin\/sh -c /.test(l));
    expect(watchers).toHaveLength(1);
    evalProcess.kill("SIGKILL");
    expect(await until(() => !running(a) && !running(c), 10_000), "the runs still going are stopped").toBe(true);
    expect(running(b), "the run that had ended is not the watcher's").toBe(true);
  }, 60_000);
});
