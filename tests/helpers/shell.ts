import { execa } from "execa";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, cleanEnv, type YoloOptions, type YoloResult } from "./cli.js";

/**
 * A `yolo` command on PATH that runs this checkout's built binary, so a printed command line
 * (`yolo resume k3f9x2ab --answer "…"`) can be run exactly as printed, through a shell.
 */
export function yoloShim(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "yolo-shim-"));
  const shim = join(dir, "yolo");
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs a command line with `sh -c` in the project, with the shim first on PATH and stdin closed. */
export async function runShellLine(line: string, shimDir: string, opts: YoloOptions): Promise<YoloResult> {
  const env = cleanEnv(opts);
  env.PATH = `${shimDir}:${env.PATH ?? ""}`;
  const r = await execa("sh", ["-c", line], {
    cwd: opts.cwd,
    env,
    extendEnv: false,
    stdin: "ignore",
    reject: false,
    encoding: "utf8",
    timeout: 45_000,
    killSignal: "SIGKILL",
  });
  return { exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, stdout: String(r.stdout), stderr: String(r.stderr) };
}
