import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { killGroup, trackGroup, untrackGroup } from "../exec/process-groups.js";

export interface HookExecOptions {
  cwd: string;
  /** The complete environment of the hook (the user's, not the agent's scrubbed one). */
  env: NodeJS.ProcessEnv;
  timeoutS: number;
  signal?: AbortSignal;
  /** The program that runs the command (bubblewrap around `sh -c`, hook-walls.ts); absent: `/bin/sh -c command`. */
  argv?: readonly string[];
}

export interface HookExecResult {
  /** null when killed (timeout, abort) or when the shell could not start. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** Why the hook could not start (ENOENT of the shell, say); null when it ran. */
  spawnError: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Each of stdout and stderr is kept up to this many bytes: a hook answers in a line or a small JSON object. */
const OUTPUT_CAP = 64 * 1024;
/** Time between SIGTERM and SIGKILL of a hook's process group. */
const KILL_GRACE_MS = 500;
/** After the shell exits, output still in the pipes is read this long (a background job may hold them open). */
const DRAIN_MS = 500;

/**
 * Runs one hook command with `sh -c` in its own process group, writes the payload to its stdin, and collects
 * stdout and stderr. At its timeout (or on abort) the whole group gets SIGTERM then SIGKILL, so a hook that
 * started children leaves nothing behind; when the shell exits, whatever it left in its group is killed too.
 */
export function execHook(command: string, payload: string, options: HookExecOptions): Promise<HookExecResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const out = { stdout: "", stderr: "" };
    let timedOut = false;
    let aborted = false;
    let spawnError: string | null = null;
    let settled = false;
    const [file, ...args] = options.argv ?? ["/bin/sh", "-c", command];
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);
    const collect = (key: "stdout" | "stderr") => (chunk: Buffer) => {
      if (out[key].length < OUTPUT_CAP) out[key] += chunk.toString("utf8").slice(0, OUTPUT_CAP - out[key].length);
    };
    child.stdout.on("data", collect("stdout"));
    child.stderr.on("data", collect("stderr"));
    // A hook that does not read its stdin closes the pipe early: that is not a failure of the hook.
    child.stdin.on("error", () => {});
    child.stdin.end(payload);

    let graceTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (pid === undefined || graceTimer) return;
      killGroup(pid, "SIGTERM");
      graceTimer = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutS * 1000);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) {
        killGroup(pid, "SIGKILL");
        untrackGroup(pid);
      }
      resolve({ exitCode: timedOut || aborted ? null : exitCode, timedOut, aborted, spawnError, ...out, durationMs: Math.round(performance.now() - started) });
    };
    child.once("error", (error) => {
      spawnError = error.message;
      finish(null);
    });
    child.once("exit", (code) => {
      if (pid !== undefined) killGroup(pid, "SIGKILL");
      // Give the pipes a moment to drain, but never wait on a background job that escaped and holds them.
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      }, DRAIN_MS);
    });
    child.once("close", (code) => finish(code));
  });
}
