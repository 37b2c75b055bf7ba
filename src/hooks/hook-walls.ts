import { findProtectedPaths, removeNewExecFiles, type ProtectedPaths } from "../exec/protected-paths.js";
import { bwrapArgv, type Sandbox } from "../exec/sandbox.js";
import type { ConfigProtection } from "../exec/settings.js";
import { commandEnv } from "../secrets/env.js";

/** The walls a sandboxed hook runs in: the agents' commands' own (sandbox, protected config, scrubbed environment). */
export interface HookWalls {
  sandbox: Sandbox;
  config: ConfigProtection;
  /** Variables removed whatever their name (the API key's). */
  secretEnvNames: string[];
  /** `env.strict`'s allow-list, or null. */
  envAllow: readonly string[] | null;
}

/** How one sandboxed hook is started, and what to do after it; or why it cannot run. */
export type SandboxedLaunch = { argv?: string[]; env: NodeJS.ProcessEnv; after: () => string[] } | { refused: string };

/**
 * A hook that runs as the agents' commands do: the environment without secrets, and inside bubblewrap (the project
 * writable, its exec and config files read-only, secret files hidden, no network) where the run has it. Exec files
 * the hook created are removed after it (`after` returns them), as after a command.
 */
export function sandboxedLaunch(command: string, root: string, env: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv, walls: HookWalls): SandboxedLaunch {
  const scrubbed = { ...commandEnv(env, walls.secretEnvNames, walls.envAllow), ...extra };
  const guard: ProtectedPaths = findProtectedPaths(root, undefined, walls.config);
  // Fail closed, as for commands: a walk that stopped short may have missed a git dir or a secret file.
  if (!guard.complete) return { refused: `not run in the sandbox: ${guard.incomplete ?? "the walk for files to protect stopped at its limits"}` };
  const after = () => removeNewExecFiles(root, guard, undefined, walls.config).removed;
  if (walls.sandbox.kind !== "bwrap") return { env: scrubbed, after };
  return { argv: bwrapArgv(walls.sandbox, root, command, guard, scrubbed.PATH), env: { ...scrubbed, TMPDIR: "/tmp" }, after };
}
