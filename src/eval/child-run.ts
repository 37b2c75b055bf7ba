import { spawn } from "node:child_process";
import { closeSync, openSync, rmSync } from "node:fs";
import { watchChild, writePidFile } from "./child-watch.js";

/** How an eval starts yolo itself for a task: the command that runs this very binary, and what every run gets. */
export interface ChildRunSpec {
  /** argv prefix that starts yolo (the Node binary and bin/yolo.js). */
  self: string[];
  env: NodeJS.ProcessEnv;
  /** The arguments of a task's first leg: an unattended run of `requirement` printing JSON events (the CLI words them). */
  runArgs(model: string | null, requirement: string): string[];
  /** The arguments that continue a thread a killed eval left unfinished. */
  resumeArgs(model: string | null, thread: string): string[];
  /** Flags for one task's every leg besides those (`--record` / `--replay` of its session file), if any. */
  taskFlags?(modelLabel: string, taskId: string): string[];
}

/** A leg's command line: `args` (the command word first) with the task's own flags right after the command word. */
export function legArgs(spec: ChildRunSpec, args: string[], modelLabel: string, taskId: string): string[] {
  const extra = spec.taskFlags?.(modelLabel, taskId) ?? [];
  return extra.length ? [args[0], ...extra, ...args.slice(1)] : args;
}

/**
 * Runs one leg of a task's thread as a child yolo process in the task's worktree: `run` for a new thread, `resume`
 * for one a killed eval left unfinished. Its `--json` events are appended to `eventsFile` (every leg in one file) and
 * its stderr to `stderrFile`. Resolves with the exit code (null: killed by a signal). While it runs its pid is in
 * `pidFile` and a watcher stops it if the eval dies (child-watch.ts): no run outlives its eval.
 */
export function runChild(
  spec: ChildRunSpec,
  input: { cwd: string; args: string[]; eventsFile: string; stderrFile: string; pidFile: string; signal?: AbortSignal },
): Promise<number | null> {
  const out = openSync(input.eventsFile, "a");
  const err = openSync(input.stderrFile, "a");
  return new Promise<number | null>((resolve, reject) => {
    const child = spawn(spec.self[0], [...spec.self.slice(1), ...input.args], { cwd: input.cwd, env: spec.env, stdio: ["ignore", out, err] });
    writePidFile(input.pidFile, child.pid);
    const watch = child.pid ? watchChild(child.pid) : null;
    const stop = () => child.kill("SIGTERM");
    input.signal?.addEventListener("abort", stop, { once: true });
    const done = () => {
      input.signal?.removeEventListener("abort", stop);
      watch?.over();
      rmSync(input.pidFile, { force: true });
      closeSync(out);
      closeSync(err);
    };
    child.once("error", (error) => {
      done();
      reject(error);
    });
    child.once("close", (code) => {
      done();
      resolve(code);
    });
  });
}
