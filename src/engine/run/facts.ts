import { mkdirSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import type { ResolvedConfig } from "../../config/schema.js";
import { ConfigError } from "../../errors.js";
import { findProtectedPaths } from "../../exec/protected-paths.js";
import { type BwrapSandbox, probeBwrap, probeFor, type Sandbox, type SandboxStatus } from "../../exec/sandbox.js";
import { DEFAULT_SANDBOX_LIMITS, evalProjectWalls, sandboxHiddenFolders } from "../../exec/sandbox-walls.js";
import { sandboxFilterSupported } from "../../exec/seccomp.js";
import type { GateConfig } from "../../config/schema.js";
import { gatesToRun, leftOutWarning } from "../../gates/missing-tool.js";
import { collectProjectSecrets } from "../../secrets/project-files.js";
import { collectSecrets, registerSecrets } from "../../secrets/scrub.js";

// Light on purpose (no LangGraph, model client or tools): a run states these before the engine's heavy modules load.

/** The sandbox commands run in, what to say about it at the start, and the status `run.started` states. */
export type SandboxChoice = { sandbox: Sandbox; notices: string[]; status: SandboxStatus };

/** What a run's start needs from the machine and the project, found once and handed to createEngineDeps. */
export interface RunFacts {
  /** Every secret value (environment, API key, database password, the project's secret files), already registered for scrubbing. */
  secrets: string[];
  sandbox: SandboxChoice;
  /** The gate commands (configured, or detected from the project and installed): found when first read. */
  readonly gates: GateConfig[];
  /** One warning per detected gate left out because its program is not installed (src/gates/missing-tool.ts). */
  readonly gateNotices: string[];
}

/**
 * Finds a run's facts: registers its secrets first (so even `run.started` is scrubbed) and chooses the sandbox (a
 * required one that does not work here is a ConfigError: nothing ran). The gates are found when first read: a run
 * says `run.started` without them (only `requireGate` needs them before), and detecting them looks for every
 * ecosystem's manifests and programs (docs/performance.md).
 */
export function runFacts(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv,
  options: { keepReadOnly?: readonly string[]; projectSecrets?: ProjectSecrets | null } = {},
): RunFacts {
  // Every secret value of the environment (and the API key) is kept out of logs, state, events and tool results.
  const secrets = [
    // A database password written in yolo.config.ts is as secret as one in the environment.
    ...collectSecrets(env, [config.model.apiKeyEnv], [config.model.apiKey ?? undefined, databasePassword(config)]),
    ...(options.projectSecrets?.root === config.root ? options.projectSecrets.values : projectSecrets(config.root).values),
  ];
  registerSecrets(secrets);
  const sandbox = chooseSandbox(config, env, options.keepReadOnly);
  let gates: Pick<RunFacts, "gates" | "gateNotices"> | null = null;
  const found = () => {
    gates ??= runGates(config, env);
    return gates;
  };
  return {
    secrets,
    sandbox,
    get gates() {
      return found().gates;
    },
    get gateNotices() {
      return found().gateNotices;
    },
  };
}

/** The values of a project's secret files, and the root they were read from. */
export type ProjectSecrets = { root: string; values: string[] };

/**
 * The values of the secret files under `root`: the secret files the sandbox masks are the ones whose values are
 * scrubbed, and one walk finds both. It only reads, so a start makes it while it waits for its early reads.
 */
export function projectSecrets(root: string): ProjectSecrets {
  return { root, values: collectProjectSecrets(findProtectedPaths(root)) };
}

// The configured gates as they are; detected ones without the program they start, each said once: a gate nobody asked
// for does not stop a run because a tool the project mentions (ruff in pyproject) is not installed here.
function runGates(config: ResolvedConfig, env: NodeJS.ProcessEnv): Pick<RunFacts, "gates" | "gateNotices"> {
  if (config.gates) return { gates: config.gates, gateNotices: [] };
  const { gates, leftOut } = gatesToRun(config.gates, config.root, env.PATH);
  return { gates, gateNotices: leftOut.map(leftOutWarning) };
}

function databasePassword(config: ResolvedConfig): string | undefined {
  if (config.database.kind !== "postgres") return undefined;
  try {
    return decodeURIComponent(new URL(config.database.url).password) || undefined;
  } catch {
    return undefined;
  }
}

// Fail closed: on a machine the seccomp filter is not built for, AF_UNIX sockets can be denied only by saying so.
function unixSocketsDeniable(config: ResolvedConfig): void {
  if ((config.limits.sandbox?.unixSockets ?? "deny") === "allow" || sandboxFilterSupported()) return;
  throw new ConfigError(
    `the sandbox cannot refuse UNIX sockets on ${process.arch} (its seccomp filter is built for x64 and arm64 only), so host sockets the sandbox can see would be reachable. Set limits.sandboxUnixSockets: "allow" in yolo.config.ts to run with them reachable, or sandbox: "off".`,
  );
}

/**
 * The sandbox commands and gates run in: bubblewrap when `sandbox` is "auto" and it works here, or "required" (old
 * name "bwrap", which fails the run before it starts when it does not); none for "off". Running unsandboxed under
 * "auto" is said once per run, with the reason and the one-line fix where there is one.
 */
export function chooseSandbox(config: ResolvedConfig, env: NodeJS.ProcessEnv, keepReadOnly: readonly string[] = []): SandboxChoice {
  if (config.sandbox === "off") return { sandbox: { kind: "none" }, notices: [], status: { kind: "none", reason: 'sandbox is "off" in the config' } };
  // A bubblewrap that cannot apply the seccomp filter does not sandbox while UNIX sockets are denied (the default).
  const probe = probeFor(probeBwrap(env.PATH), config.limits.sandbox?.unixSockets);
  if (probe.available) {
    unixSocketsDeniable(config);
    // An eval's task run: the project checkout around the task's worktree is shown empty (sandbox-walls.ts).
    const evalWalls = evalProjectWalls(env);
    const readOnly = [...foldersInside(config.root, keepReadOnly), ...evalWalls.readOnly];
    const sandbox: BwrapSandbox = {
      kind: "bwrap",
      binary: probe.binary,
      ...(readOnly.length ? { readOnly } : {}),
      // The machine stays out of sight: the home folder and the host's socket folders are shown empty.
      hidden: [...sandboxHiddenFolders(env.HOME), ...evalWalls.hidden],
      limits: config.limits.sandbox ?? DEFAULT_SANDBOX_LIMITS,
      // Per-project toolchain caches (go, cargo, gradle, maven, pip, npm) are added per gate run and per run_command (src/exec/tool-caches.ts).
    };
    return { sandbox, notices: [], status: { kind: "bwrap" } };
  }
  const fix = probe.fix ? ` Fix: ${probe.fix}.` : "";
  if (config.sandbox === "bwrap" || config.sandbox === "required") {
    throw new ConfigError(
      `sandbox is "${config.sandbox}" but ${probe.reason}.${fix || " Install bubblewrap (apt-get install bubblewrap)."} Or set sandbox: "auto" to run commands without it.`,
    );
  }
  return {
    sandbox: { kind: "none" },
    notices: [
      `Commands and gates run without a sandbox: ${probe.reason}.${fix} Install bubblewrap to confine them to the project with no network, or set sandbox: "off" in ~/.config/yolo/config.ts to silence this.`,
    ],
    status: { kind: "none", reason: probe.reason, ...(probe.fix ? { fix: probe.fix } : {}) },
  };
}

/**
 * Of `folders` (yolo's own caches, which hold code yolo runs outside any sandbox), those inside the project root,
 * created if missing so the sandbox can bind them read-only: otherwise a command could write (or first create) them
 * when the project is the user's home directory or holds their cache folder.
 */
function foldersInside(root: string, folders: readonly string[]): string[] {
  return folders.filter((dir) => {
    const rel = relative(root, dir);
    if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return true;
    } catch {
      return false;
    }
  });
}
