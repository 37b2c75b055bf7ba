import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findOnPath } from "../fs/on-path.js";
import type { ProtectedPaths } from "./protected-paths.js";
import { privilegeArgs } from "./sandbox-privileges.js";
import { hostWrapped, SECCOMP_FD, sandboxFilterFile, sandboxFilterSupported } from "./seccomp.js";
import { DEFAULT_SANDBOX_LIMITS, hiddenFolderArgs, limitArgv, type SandboxLimits } from "./sandbox-walls.js";

/** How commands are contained: inside bubblewrap, or not at all. */
export type Sandbox = BwrapSandbox | { kind: "none" };

/** A bubblewrap sandbox and what it adds to the fixed walls (whole filesystem read-only, no network, no home). */
export interface BwrapSandbox {
  kind: "bwrap";
  binary: string;
  /** Folders inside the project the sandbox keeps read-only besides the guarded ones (yolo's own caches). */
  readOnly?: readonly string[];
  /** Host folders bound writable at another path inside: a gate's toolchain caches (src/exec/tool-caches.ts). */
  writable?: readonly WritableBind[];
  /** Folders shown empty (a private writable tmpfs): the home folder(s), `/run`; see sandboxHiddenFolders. */
  hidden?: readonly string[];
  /** Process, memory and /tmp limits; absent: DEFAULT_SANDBOX_LIMITS. */
  limits?: SandboxLimits;
  /** The network stays shared (an MCP server whose config allows it); commands never get it. */
  network?: boolean;
  /** cgroups (v1 pids, memory) the command joins before bubblewrap starts: limits for all its processes together, root's too (command-cgroups.ts). */
  cgroups?: readonly string[];
}

/** A host folder (`host`) the sandboxed command sees, writable, at `inside`. */
export interface WritableBind {
  host: string;
  inside: string;
}

/**
 * Whether bubblewrap works here; when not, why, and the one-line fix where there is one. `seccompFails`: it builds its
 * sandbox but not with `--seccomp` (bwrap's words), so it cannot keep host UNIX sockets out (see probeFor).
 */
export type SandboxProbe = { available: true; binary: string; seccompFails?: string } | { available: false; reason: string; fix?: string };

/**
 * The probe as a run with these limits sees it: a bubblewrap that cannot apply the seccomp filter would fail every
 * command, and without the filter host sockets it can see are reachable, so it does not sandbox unless they are allowed.
 */
export function probeFor(probe: SandboxProbe, unixSockets: "deny" | "allow" | undefined): SandboxProbe {
  if (!probe.available || probe.seccompFails === undefined || unixSockets === "allow") return probe;
  return {
    available: false,
    reason: `${probe.binary} cannot apply yolo's seccomp filter, which keeps host UNIX sockets out of reach (with --seccomp: ${probe.seccompFails})`,
    fix: 'install a bubblewrap built with seccomp support (0.3 or later), or set limits.sandboxUnixSockets: "allow" in yolo.config.ts',
  };
}

/** What a run says about its sandbox (in `run.started`): the kind in force and, without one, why and how to fix it. */
export interface SandboxStatus {
  kind: "bwrap" | "none";
  reason?: string;
  fix?: string;
}

const probes = new Map<string, SandboxProbe>();

/**
 * Whether bubblewrap is installed (on `pathVar`) and can actually build the sandbox here: it needs user, mount,
 * network and PID namespaces, which containers and some kernels refuse. Probed once per process and PATH.
 */
export function probeBwrap(pathVar: string | undefined): SandboxProbe {
  const key = pathVar ?? "";
  let probe = probes.get(key);
  if (!probe) {
    probe = runProbe(pathVar);
    probes.set(key, probe);
  }
  return probe;
}

/**
 * probeBwrap without blocking: bubblewrap builds its trial sandbox while the run checks its agents, git and database.
 * The answer is the one probeBwrap gives (and then gives from memory); no probe is started twice for one PATH.
 */
export function probeBwrapAsync(pathVar: string | undefined, started?: Promise<SandboxProbe>): Promise<SandboxProbe> {
  const key = pathVar ?? "";
  const known = probes.get(key);
  if (known) return Promise.resolve(known);
  let running = pending.get(key);
  if (!running) {
    // `started`: the same trial for the same PATH, begun before this module was loaded (src/cli/early-probes.ts).
    // A trial started elsewhere that could not answer (its process died) is made here.
    running = (started ? started.catch(() => runProbeAsync(pathVar)) : runProbeAsync(pathVar)).then((probe) => {
      if (!probes.has(key)) probes.set(key, probe);
      pending.delete(key);
      return probes.get(key) ?? probe;
    });
    pending.set(key, running);
  }
  return running;
}

const pending = new Map<string, Promise<SandboxProbe>>();
const PROBE_TIMEOUT_MS = 10_000;

type TrialResult = { error?: Error; status: number | null; signal: NodeJS.Signals | null; stderr?: string | null };

// The trial is the sandbox commands get, seccomp filter included (where yolo builds one); when that fails, the same
// without the filter tells a bubblewrap that cannot apply it from one that cannot sandbox at all.
function runProbe(pathVar: string | undefined): SandboxProbe {
  const binary = findOnPath("bwrap", pathVar);
  if (!binary) return diagnose({ platform: process.platform, installed: false, stderr: "", read: readProc });
  const trial = (seccomp: boolean): TrialResult =>
    withFilterFd(seccomp, (fd) =>
      spawnSync(binary, trialArgs(binary, fd), {
        timeout: PROBE_TIMEOUT_MS,
        encoding: "utf8",
        stdio: ["ignore", "ignore", "pipe", ...(fd === null ? [] : [fd])],
      }),
    );
  const filtered = trial(sandboxFilterSupported());
  if (ran(filtered) || !sandboxFilterSupported()) return probeAnswer(binary, filtered);
  return probeAnswer(binary, trial(false), filtered);
}

const ran = (trial: TrialResult) => !trial.error && trial.status === 0;

// The trial's argv: the fixed walls, the filter on SECCOMP_FD when `fd` is open.
function trialArgs(binary: string, fd: number | null): string[] {
  return [...isolation(binary), ...(fd === null ? [] : ["--seccomp", String(SECCOMP_FD)]), "--", "true"];
}

// Runs `use` with the filter file open (its fd) when `seccomp`, else with null; the fd is closed afterwards.
function withFilterFd<T>(seccomp: boolean, use: (fd: number | null) => T): T {
  if (!seccomp) return use(null);
  const fd = openSync(sandboxFilterFile(), "r");
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

// The trials running now (runProbeAsync), for stopTrials; once it was called, no trial starts.
const running = new Set<ChildProcess>();
let stopped = false;

/**
 * Kills the trials still running and starts no more (a trial killed would otherwise be followed by the one without
 * the filter): the early reads let go by yolo (src/cli/early-reads.ts) must not leave a hung bubblewrap behind, nor
 * hold yolo's exit until the trial's own timeout.
 */
export function stopTrials(): void {
  stopped = true;
  for (const child of running) {
    child.kill("SIGKILL");
    // What the trial started may outlive it holding its stderr open: that end is closed here, not waited for.
    child.stderr?.destroy();
    child.unref();
  }
  running.clear();
}

// runProbe with the trial sandbox as a child process the event loop waits for.
async function runProbeAsync(pathVar: string | undefined): Promise<SandboxProbe> {
  const binary = findOnPath("bwrap", pathVar);
  if (!binary) return diagnose({ platform: process.platform, installed: false, stderr: "", read: readProc });
  const filtered = await trialAsync(binary, sandboxFilterSupported());
  if (ran(filtered) || !sandboxFilterSupported()) return probeAnswer(binary, filtered);
  return probeAnswer(binary, await trialAsync(binary, false), filtered);
}

// One trial sandbox as a child process the event loop waits for (with the filter on its fd when `seccomp`).
async function trialAsync(binary: string, seccomp: boolean): Promise<TrialResult> {
  if (stopped) return { error: new Error("the trial was stopped"), status: null, signal: null, stderr: "" };
  const fd = seccomp ? openSync(sandboxFilterFile(), "r") : null;
  return new Promise<TrialResult>((resolve) => {
    let stderr = "";
    let settled = false;
    const settle = (r: { error?: Error; status: number | null; signal: NodeJS.Signals | null }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, stderr });
    };
    const child = spawn(binary, trialArgs(binary, fd), { stdio: ["ignore", "ignore", "pipe", ...(fd === null ? [] : [fd])] });
    // The child holds its own copy of the fd from here on.
    if (fd !== null) closeSync(fd);
    running.add(child);
    child.on("close", () => running.delete(child));
    // As spawnSync's timeout: the trial is killed and the answer is that bubblewrap could not start.
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      settle({ error: Object.assign(new Error(`spawn ${binary} ETIMEDOUT`), { code: "ETIMEDOUT" }), status: null, signal: "SIGTERM" });
    }, PROBE_TIMEOUT_MS);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", (error) => settle({ error, status: null, signal: null }));
    child.on("close", (status, signal) => settle({ status, signal }));
  });
}

// What a finished trial says: bubblewrap works here, or why not (and the fix). `filtered`: the failed trial with the
// seccomp filter, when this one ran without it.
function probeAnswer(binary: string, probe: TrialResult, filtered?: TrialResult): SandboxProbe {
  if (probe.error) return { available: false, reason: `${binary} could not start (${probe.error.message})` };
  if (probe.status !== 0) return diagnose({ platform: process.platform, installed: true, stderr: firstLine(probe), read: readProc, binary });
  if (!filtered) return { available: true, binary };
  noSeccomp.add(binary);
  return { available: true, binary, seccompFails: filtered.error?.message ?? firstLine(filtered) };
}

const firstLine = (trial: TrialResult) => (trial.stderr ?? "").trim().split("\n")[0] || `exit code ${trial.status ?? trial.signal}`;

/**
 * Why bubblewrap cannot sandbox here, and the fix: not Linux (none), not installed (install it), or the kernel refuses
 * unprivileged user namespaces — AppArmor on Ubuntu 24.04 and GitHub's runners, Debian's old switch, a zero limit.
 */
export function diagnose(facts: {
  platform: string;
  installed: boolean;
  stderr: string;
  read: (path: string) => string | null;
  binary?: string;
}): SandboxProbe {
  if (facts.platform !== "linux") {
    return {
      available: false,
      reason: `bubblewrap sandboxes only on Linux, and this is ${facts.platform === "darwin" ? "macOS" : facts.platform}: there is no sandbox for commands here`,
    };
  }
  if (!facts.installed)
    return { available: false, reason: "bwrap (bubblewrap) is not installed", fix: "sudo apt install bubblewrap (or dnf install bubblewrap)" };
  const bwrapSays = facts.stderr ? ` (bwrap: ${facts.stderr})` : "";
  if (facts.read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") === "1") {
    return {
      available: false,
      reason: `AppArmor blocks unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, as on Ubuntu 24.04 and GitHub's ubuntu-24.04 runners)${bwrapSays}`,
      fix: "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or give bwrap an AppArmor profile that allows userns)",
    };
  }
  if (facts.read("/proc/sys/kernel/unprivileged_userns_clone") === "0") {
    return {
      available: false,
      reason: `unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone=0)${bwrapSays}`,
      fix: "sudo sysctl -w kernel.unprivileged_userns_clone=1",
    };
  }
  if (facts.read("/proc/sys/user/max_user_namespaces") === "0") {
    return {
      available: false,
      reason: `user namespaces are limited to none (user.max_user_namespaces=0)${bwrapSays}`,
      fix: "sudo sysctl -w user.max_user_namespaces=15000",
    };
  }
  return { available: false, reason: `${facts.binary ?? "bwrap"} cannot create its sandbox here: ${facts.stderr || "unknown error"}` };
}

// A /proc/sys value, trimmed; null when the file does not exist on this kernel.
function readProc(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

/**
 * The bubblewrap options every sandbox uses: no privilege (sandbox-privileges.ts), the whole filesystem read-only,
 * fresh /dev, /proc and /tmp, no network.
 */
function isolation(binary: string, tmpBytes?: number): string[] {
  return [
    ...privilegeArgs(binary),
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    // A PID namespace of its own: the command cannot read yolo's /proc/<pid>/environ, and when the sandbox's
    // first process dies the kernel kills everything left inside, background jobs included.
    "--unshare-pid",
    "--proc",
    "/proc",
    // A RAM-backed /tmp counts against the machine's memory: it gets a size (the probe's, none).
    ...(tmpBytes ? ["--size", String(tmpBytes)] : []),
    "--tmpfs",
    "/tmp",
    "--unshare-net",
    "--unshare-ipc",
    "--die-with-parent",
  ];
}

/**
 * The argv that runs `command` with `/bin/sh -c` inside bubblewrap: `root` is the only writable folder (its
 * `.yolo` state folder stays read-only), /tmp is private, empty and size-limited, the home folder and `/run` are
 * empty, and there is no network (loopback included). `guard` (from findProtectedPaths) makes files that run code
 * outside yolo read-only (`.git` and the git dirs a `.git` file points at, `.gitattributes`, `.vscode`, `.github`,
 * hook-manager configs, `node_modules/.bin`, …) and shows secret files (`.env`, keys, `.npmrc`, `.netrc`, …) empty,
 * so no transform of them reaches the model. `pathVar`: the command's PATH, whose toolchain folders under a hidden
 * folder are bound back read-only.
 */
export function bwrapArgv(sandbox: BwrapSandbox, root: string, command: string, guard?: ProtectedPaths, pathVar?: string): string[] {
  return bwrapArgvOf(sandbox, root, ["/bin/sh", "-c", command], guard, pathVar);
}

/** bwrapArgv for any program and its arguments (a stdio MCP server), under the same walls. */
export function bwrapArgvOf(sandbox: BwrapSandbox, root: string, argv: readonly string[], guard?: ProtectedPaths, pathVar?: string, chdir = root): string[] {
  const state = join(root, ".yolo");
  const base = isolation(sandbox.binary, (sandbox.limits ?? DEFAULT_SANDBOX_LIMITS).tmpBytes);
  const argvOut = [
    sandbox.binary,
    ...(sandbox.network ? base.filter((arg) => arg !== "--unshare-net") : base),
    ...hiddenFolderArgs(sandbox.hidden ?? [], root, pathVar),
    "--bind",
    root,
    root,
    ...(existsSync(state) ? ["--ro-bind", state, state] : []),
    ...(sandbox.readOnly ?? []).flatMap((dir) => ["--ro-bind-try", dir, dir]),
    ...(guard ? guardArgs(guard) : []),
    // Last, at their own paths inside (under the private /tmp): the guard hides the state folder the caches live in.
    ...(sandbox.writable ?? []).flatMap((bind) => ["--bind", bind.host, bind.inside]),
    "--chdir",
    chdir,
    "--",
    ...limitArgv(sandbox.limits, argv),
  ];
  // Keyrings cannot be used, nor host UNIX sockets the sandbox can see (in the project, /srv, /var/lib) connected to.
  return hostWrapped(argvOut, { filter: filterFor(sandbox), ...(sandbox.cgroups ? { cgroups: sandbox.cgroups } : {}) });
}

/** Binaries whose trial failed with the seccomp filter (probeAnswer): they sandbox only without one. */
const noSeccomp = new Set<string>();

// The seccomp filter's file for this sandbox, or null where none can be applied (an architecture without one, or a
// bubblewrap that cannot apply it: both sandbox only with UNIX sockets allowed, and then keyrings stay reachable).
function filterFor(sandbox: BwrapSandbox): string | null {
  if (!sandboxFilterSupported() || noSeccomp.has(sandbox.binary)) return null;
  return sandboxFilterFile(sandbox.limits?.unixSockets === "allow" ? "allow" : "deny");
}

// Read-only binds for exec files and git dirs, an empty file over secret files, an empty read-only tmpfs over secret folders.
function guardArgs(guard: ProtectedPaths): string[] {
  const args: string[] = [];
  for (const path of guard.readOnly) args.push("--ro-bind-try", path, path);
  const empty = guard.maskedFiles.length ? emptyFile() : "";
  for (const path of guard.maskedFiles) args.push("--ro-bind", empty, path);
  for (const path of guard.maskedDirs) args.push("--tmpfs", path, "--remount-ro", path);
  return args;
}

let emptyDir: string | null = null;

/**
 * A read-only empty regular file of yolo's own (in a private temp folder, made again if a temp cleaner took it), bound
 * over each secret file: tools that walk the tree (prettier, linters, test discovery) read it as empty, as they would a
 * file without the secret. /dev/null was refused to them: bwrap's binds are nodev, so opening the device gave EACCES.
 */
function emptyFile(): string {
  if (!emptyDir || !existsSync(emptyDir)) {
    emptyDir = mkdtempSync(join(tmpdir(), "yolo-empty-"));
    const dir = emptyDir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  const file = join(emptyDir, "empty");
  if (!existsSync(file)) writeFileSync(file, "", { mode: 0o444 });
  return file;
}
