import { performance } from "node:perf_hooks";
import { execa } from "execa";
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

/** Process groups still running, killed if yolo itself exits first (detached children are not cleaned up by execa). */

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
  const [file, ...args] = sandbox ? bwrapArgv(sandbox.binary, options.cwd, command, guard, sandbox.readOnly) : [command];
  const subprocess = execa(file, args, {
    shell: !sandbox,
    cwd: options.cwd,
    // Inside the sandbox only its private /tmp is writable, wherever TMPDIR pointed.
    env: { ...options.env, ...NON_INTERACTIVE_ENV, ...(sandbox ? { TMPDIR: "/tmp" } : {}) },
    extendEnv: false,
    stdin: "ignore",
    // stdout and stderr are read straight into one buffer in arrival order: execa's merged `all` stream cost about
    // 1.2 ms of CPU per command (a third of execa's own cost; see bench/pipeline-overhead.mjs), every gate and run_command.
    buffer: false,
    reject: false,
    detached: true,
    windowsHide: true,
  });
  const collect = (chunk: Uint8Array | string) => collected.push(chunk);
  subprocess.stdout?.on("data", collect);
  subprocess.stderr?.on("data", collect);

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
    const result = await subprocess;
    if (result.exitCode === undefined && !result.signal && result.failed) {
      collected.push(`\nthe command could not start: ${result.originalMessage || result.shortMessage}\n`);
    }
    return finish(result.exitCode ?? null, timedOut, aborted);
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
