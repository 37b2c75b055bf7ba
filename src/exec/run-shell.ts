import { performance } from "node:perf_hooks";
import { CappedOutput } from "./capped-output.js";
import type { LaunchRequest, Launched } from "./launch.js";
import { launchDirect } from "./launch-direct.js";
import { launchThroughSpawner } from "./spawner.js";
import { findProtectedPaths, removeNewExecFiles, type ProtectedPaths, type WalkLimits } from "./protected-paths.js";
import { bwrapArgv, type Sandbox } from "./sandbox.js";
import { DEFAULT_SANDBOX_LIMITS } from "./sandbox-walls.js";
import { type CommandCgroups, openCommandCgroups } from "./command-cgroups.js";
import { type ConfigSnapshot, restoreConfigFiles, snapshotConfigFiles } from "./config-guard.js";
import type { ConfigProtection } from "./settings.js";
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
  /** How far the walk for files to protect goes; past it the command is refused. Absent: DEFAULT_WALK_LIMITS. */
  walk?: WalkLimits;
  /** The run's configured agents folder and instruction names, protected like yolo.config.* (exec-files.ts). */
  config?: ConfigProtection;
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

// What a command that changed yolo's config files (possible only without the sandbox) is told; "" when none.
function configRestoredNote({ restored, lost }: { restored: string[]; lost: string[] }): string {
  const list = (rels: string[]) => rels.map((r) => `\`${r}\``).join(", ");
  const back = restored.length ? `\n[yolo restored ${list(restored)}: yolo's configuration and its agents' instructions may not be changed by commands]\n` : "";
  const gone = lost.length
    ? `\n[yolo could not restore ${list(lost)} (a folder above it was replaced); the user must check it before running yolo again]\n`
    : "";
  return back + gone;
}

const DEFAULT_KILL_GRACE_MS = 1000;
/** How often a command with a memory group is checked for an OOM kill (a read of one small cgroup file). */
const OOM_POLL_MS = 200;

// What a command stopped at its memory group's limit is told: what happened, the setting, what to do.
function memoryLimitNote(kills: number, bytes: number): string {
  return (
    `\n[yolo stopped this command: its processes together reached the sandbox's memory limit of ${Math.round(bytes / 1024 ** 2)} MB ` +
    `(limits.sandboxMemoryMB) and the kernel killed ${kills === 1 ? "one of them" : `${kills} of them`} (OOM kill). ` +
    "Use less memory at once (fewer parallel workers or test threads, smaller inputs); only the user can raise limits.sandboxMemoryMB]\n"
  );
}

/** The exit code of a command yolo refused to start (as a shell's "cannot execute"). */
export const REFUSED_EXIT_CODE = 126;

const NEXT_REFUSED = "No further command runs until the project is back under the limit: delete the files it does not need";

// What a command refused for an incomplete walk prints: what happened, what it affects, what to do.
function refusal(why: string | undefined): string {
  return (
    `yolo did not run this command: ${why ?? "the walk for files to protect stopped at its limits"}. Past that limit yolo ` +
    "cannot find every file it must keep read-only or hide (git dirs, files that run code outside yolo, secret files), " +
    "so it runs nothing rather than run it unprotected. Delete the files the project does not need (generated output, " +
    "copies) and run the command again.\n"
  );
}

/**
 * Runs a shell command in its own process group and always leaves no process of that group behind:
 * on timeout or abort the whole group gets SIGTERM then SIGKILL, and when the shell exits, any background
 * job it left (which would otherwise hold the output pipe open) is killed as well. Commands are started by the
 * spawner helper process once it is up (src/exec/spawner.ts), before that (and if it fails) directly.
 */
export async function runShell(command: string, options: RunShellOptions): Promise<ShellResult> {
  const started = performance.now();
  const collected = new CappedOutput(options.capBytes, options.keepFullOutput);
  let guard: ProtectedPaths | null = null;
  let configKept: ConfigSnapshot | null = null;
  let cgroups: CommandCgroups | null = null;
  const finish = (exitCode: number | null, timedOut: boolean, aborted: boolean): ShellResult =>
    finishShell({ started, collected, guard, configKept, cgroups }, options, { exitCode, timedOut, aborted });
  if (options.signal?.aborted) return finish(null, false, true);

  const sandbox = options.sandbox?.kind === "bwrap" ? options.sandbox : null;
  guard = findProtectedPaths(options.cwd, options.walk, options.config);
  // Fail closed: a walk that stopped short may have missed a secret to mask or a git dir to keep read-only.
  if (!guard.complete) {
    collected.push(refusal(guard.incomplete));
    return finish(REFUSED_EXIT_CODE, false, false);
  }
  configKept = snapshotConfigFiles(options.cwd, guard, options.config);
  // Node's `shell: true` is `/bin/sh -c <command>` on POSIX; spelled out, so the helper process spawns plain argv.
  // Rlimits bind one process (RLIMIT_NPROC not root): pids and memory cgroups bind the whole command (command-cgroups.ts).
  cgroups = sandbox ? openCommandCgroups(sandbox.limits ?? DEFAULT_SANDBOX_LIMITS) : null;
  const walled = sandbox && cgroups ? { ...sandbox, cgroups: cgroups.dirs } : sandbox;
  const [file, ...args] = walled ? bwrapArgv(walled, options.cwd, command, guard, options.env.PATH) : ["/bin/sh", "-c", command];
  let launched: Launched | undefined;
  // Also when the pid never came: a helper that stopped answering is given up on rather than waited for.
  const stopper = groupStopper(options, () => launched?.killed());
  // Fail closed: once the kernel has killed one of its processes for the group's memory, the whole command stops.
  const watch = cgroups?.memoryBytes ? setInterval(() => cgroups?.oomKills() && stopper.stop(), OOM_POLL_MS) : undefined;
  const request: LaunchRequest = {
    file,
    args,
    cwd: options.cwd,
    // The environment the user's shell gives the command, nothing more: a suite that detects colour or CI sees what it
    // sees in their terminal. Non-interactive by its closed stdin (no prompt, no watch mode: runners watch only on a
    // terminal), not by variables every test would see. Inside the sandbox only its private /tmp is writable.
    env: { ...options.env, ...(sandbox ? { TMPDIR: "/tmp" } : {}) },
    onOutput: (chunk) => collected.push(chunk),
    onPid: stopper.onPid,
  };

  try {
    launched = (await launchThroughSpawner(request)) ?? launchDirect(request);
    if (stopper.killed) launched.killed();
    // null: the helper could not start it; started directly, it fails the same way and says why in Node's words.
    let end = await launched.ended;
    if (end === null) {
      launched = launchDirect(request);
      end = await launched.ended;
    }
    if (end?.startError !== undefined) collected.push(`\nthe command could not start: ${end.startError}\n`);
    return finish(end?.exitCode ?? null, stopper.timedOut, stopper.aborted);
  } finally {
    clearInterval(watch);
    stopper.dispose();
    cgroups?.close();
  }
}

// What a finished (or refused) command returns: its output, scrubbed, with notes on the files yolo removed or
// restored after it.
function finishShell(
  run: { started: number; collected: CappedOutput; guard: ProtectedPaths | null; configKept: ConfigSnapshot | null; cgroups: CommandCgroups | null },
  options: RunShellOptions,
  end: { exitCode: number | null; timedOut: boolean; aborted: boolean },
): ShellResult {
  const { collected, guard, configKept, cgroups } = run;
  const oomKills = cgroups?.oomKills() ?? 0;
  if (oomKills && cgroups?.memoryBytes) collected.push(memoryLimitNote(oomKills, cgroups.memoryBytes));
  // A file that runs code outside yolo, created by this command (so no read-only bind could cover it), goes again.
  const after = guard?.complete ? removeNewExecFiles(options.cwd, guard, options.walk, options.config) : { removed: [] };
  const removed = after.removed;
  if (removed.length)
    collected.push(
      `\n[yolo removed ${removed.map((r) => `\`${r}\``).join(", ")}: files that run code outside yolo (git, editors, direnv, CI, hook managers, package managers, yolo's own config) may not be created by commands]\n`,
    );
  if (after.incomplete) collected.push(`\n[yolo could not check what this command created: ${after.incomplete}. ${NEXT_REFUSED}]\n`);
  if (configKept) collected.push(configRestoredNote(restoreConfigFiles(options.cwd, configKept)));
  return {
    ...end,
    // Output reaches the model, gate logs, state and reports: the run's secrets never leave in it.
    output: scrubText(collected.text()),
    ...(options.keepFullOutput ? { fullOutput: scrubText(collected.fullText() ?? "") } : {}),
    durationMs: Math.round(performance.now() - run.started),
  };
}

/**
 * Stops a command's process group on timeout or abort: SIGTERM, then SIGKILL after the grace period (calling
 * `giveUp` too). The pid may come after the stop (through the helper it comes a message later): it is signalled as
 * soon as it is known. `dispose` clears the timers and kills whatever of the group is left.
 */
function groupStopper(options: RunShellOptions, giveUp: () => void) {
  let pid: number | undefined;
  /** How far a timeout or abort has got: SIGTERM sent, then (after the grace period) SIGKILL. */
  let stopping: "SIGTERM" | "SIGKILL" | null = null;
  let timedOut = false;
  let aborted = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (stopping) return;
    stopping = "SIGTERM";
    if (pid !== undefined) killGroup(pid, "SIGTERM");
    graceTimer = setTimeout(() => {
      stopping = "SIGKILL";
      if (pid !== undefined) killGroup(pid, "SIGKILL");
      giveUp();
    }, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
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
  return {
    stop,
    get timedOut() {
      return timedOut;
    },
    get aborted() {
      return aborted;
    },
    get killed() {
      return stopping === "SIGKILL";
    },
    onPid(known: number) {
      pid = known;
      trackGroup(known);
      // A timeout or abort that came before the pid (through the helper, it comes a message later) applies now.
      if (stopping) killGroup(known, stopping);
    },
    dispose() {
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) {
        killGroup(pid, "SIGKILL");
        untrackGroup(pid);
      }
    },
  };
}
