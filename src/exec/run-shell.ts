import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { CappedOutput } from "./capped-output.js";
import { findProtectedPaths, removeNewExecFiles, type ProtectedPaths } from "./protected-paths.js";
import { bwrapArgv, type Sandbox } from "./sandbox.js";
import { scrubText } from "../secrets/scrub.js";
import { killGroup, trackGroup, untrackGroup } from "./process-groups.js";

export interface RunShellOptions {
  /** Working directory (the project root). */
  cwd: string;
  timeoutS: number;
  /** The complete child environment (already scrubbed); process.env is not merged in. */
  env: NodeJS.ProcessEnv;
  /** Cap on `output`: head and tail are kept around an omission marker. */
  capBytes: number;
  signal?: AbortSignal;
  /** Also return the whole output as `fullOutput` (for gate log files). */
  keepFullOutput?: boolean;
  /** Time between SIGTERM and SIGKILL of the process group on timeout or abort. */
  killGraceMs?: number;
  /** Run inside bubblewrap (the project the only writable folder, no network); absent: directly. */
  sandbox?: Sandbox;
}

export interface ShellResult {
  /** null when the command was killed by a signal or could not start. */
  exitCode: number | null;
  timedOut: boolean;
  /** True when `signal` aborted the run. */
  aborted: boolean;
  /** stdout and stderr interleaved in arrival order, capped (head + tail). */
  output: string;
  fullOutput?: string;
  durationMs: number;
}

/** Variables that stop test runners from colouring output or going interactive / into watch mode. */
const NON_INTERACTIVE_ENV = { NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" };

const DEFAULT_KILL_GRACE_MS = 1000;

/**
 * After the shell has exited and its group is killed, output still in the pipes is read for this long; a process
 * that escaped the group (setsid) and still holds a pipe must not keep the call waiting for its whole lifetime.
 */
const DRAIN_MS = 1000;

/**
 * Runs a shell command in its own process group and always leaves no process of that group behind:
 * on timeout or abort the whole group gets SIGTERM then SIGKILL, and when the shell exits, any background
 * job it left (which would otherwise hold the output pipe open) is killed as well.
 */
export async function runShell(command: string, options: RunShellOptions): Promise<ShellResult> {
  const started = performance.now();
  const collected = new CappedOutput(options.capBytes, options.keepFullOutput);
  let guard: ProtectedPaths | null = null;
  const finish = (exitCode: number | null, timedOut: boolean, aborted: boolean): ShellResult => {
    // A file that runs code outside yolo, created by this command (so no read-only bind could cover it), goes again.
    const removed = guard ? removeNewExecFiles(options.cwd, guard) : [];
    if (removed.length)
      collected.push(
        `\n[yolo removed ${removed.map((r) => `\`${r}\``).join(", ")}: files that run code outside yolo (git, editors, direnv, CI, hook managers) may not be created by commands]\n`,
      );
    return {
      exitCode,
      timedOut,
      aborted,
      // Output reaches the model, gate logs, state and reports: the run's secrets never leave in it.
      output: scrubText(collected.text()),
      ...(options.keepFullOutput ? { fullOutput: scrubText(collected.fullText() ?? "") } : {}),
      durationMs: Math.round(performance.now() - started),
    };
  };
  if (options.signal?.aborted) return finish(null, false, true);

  const sandbox = options.sandbox?.kind === "bwrap" ? options.sandbox : null;
  guard = findProtectedPaths(options.cwd);
  const [file, ...args] = sandbox ? bwrapArgv(sandbox.binary, options.cwd, command, guard) : ["/bin/sh", "-c", command];
  // node:child_process directly: execa cost about 1.5-2 ms of CPU per command on top of the spawn itself (options,
  // stream plumbing, its own promises) and added nothing here: the group kill, timeout, caps and scrubbing are ours.
  const spawned = startChild(file, args, {
    cwd: options.cwd,
    // Inside the sandbox only its private /tmp is writable, wherever TMPDIR pointed.
    env: { ...options.env, ...NON_INTERACTIVE_ENV, ...(sandbox ? { TMPDIR: "/tmp" } : {}) },
  });
  if ("error" in spawned) {
    collected.push(`\n${cannotStart(spawned.error, options.cwd)}\n`);
    return finish(null, false, false);
  }
  const subprocess = spawned.child;
  const collect = (chunk: Uint8Array | string) => collected.push(chunk);
  subprocess.stdout?.on("data", collect);
  subprocess.stderr?.on("data", collect);
  // A pipe that fails to read ends like a closed one (the exit still settles the run), said in the output instead of
  // an unhandled stream error taking yolo down.
  const unreadable = (error: Error) => collected.push(`\n[yolo could not read the command's output: ${error.message}]\n`);
  subprocess.stdout?.on("error", unreadable);
  subprocess.stderr?.on("error", unreadable);

  const pid = subprocess.pid;
  let timedOut = false;
  let aborted = false;
  let graceTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (pid === undefined || graceTimer) return;
    killGroup(pid, "SIGTERM");
    graceTimer = setTimeout(() => killGroup(pid, "SIGKILL"), options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  };
  const timeoutTimer = setTimeout(
    () => {
      timedOut = true;
      stop();
    },
    Math.max(0, options.timeoutS * 1000),
  );
  const onAbort = () => {
    aborted = true;
    stop();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (pid !== undefined) {
    trackGroup(pid);
    subprocess.once("exit", () => {
      killGroup(pid, "SIGKILL");
      drainTimer = setTimeout(() => {
        subprocess.stdout?.destroy();
        subprocess.stderr?.destroy();
      }, DRAIN_MS);
    });
  }

  try {
    const ended = await ending(subprocess);
    if ("error" in ended) collected.push(`\n${cannotStart(ended.error, options.cwd)}\n`);
    return finish("code" in ended ? ended.code : null, timedOut, aborted);
  } finally {
    clearTimeout(timeoutTimer);
    clearTimeout(graceTimer);
    clearTimeout(drainTimer);
    options.signal?.removeEventListener("abort", onAbort);
    if (pid !== undefined) {
      killGroup(pid, "SIGKILL");
      untrackGroup(pid);
    }
  }
}

// Starts the child in its own process group (detached) with no stdin and piped output; an argument Node refuses
// (a NUL byte in the command) throws here, and is reported like a command that cannot start.
function startChild(file: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): { child: ChildProcess } | { error: unknown } {
  try {
    return { child: spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], detached: true, windowsHide: true }) };
  } catch (error) {
    return { error };
  }
}

/**
 * Settles when the child has exited and its output pipes are closed (`close`), or when it could not start (`error`
 * without a pid). An `error` after a start (a failed kill) is not the end: the `close` that follows is.
 */
function ending(child: ChildProcess): Promise<{ code: number | null } | { error: unknown }> {
  return new Promise((resolve) => {
    child.once("close", (code) => resolve({ code: typeof code === "number" && code >= 0 ? code : null }));
    child.on("error", (error) => {
      if (child.pid === undefined) resolve({ error });
    });
  });
}

// Why a command did not start, in words; a missing working folder is the usual cause and Node's ENOENT names the shell.
function cannotStart(error: unknown, cwd: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
    return `the command could not start: its working folder (cwd) ${cwd} does not exist (${message})`;
  return `the command could not start: ${message}`;
}
