import { probeBwrapAsync, type SandboxProbe } from "../exec/sandbox.js";
import { repoIdentity } from "../git/repo-identity.js";
import { inspectWorkspace, type WorkspaceFacts } from "../git/workspace.js";
import { projectRoot } from "./project-root.js";

/** The read-only child processes a run or resume starts with, started before the CLI itself has loaded. */
export interface EarlyProbes {
  identity: Promise<string>;
  workspace: Promise<WorkspaceFacts>;
  sandbox: Promise<SandboxProbe>;
}

let started: { root: string; mode: "start" | "resume"; path: string | undefined; probes: EarlyProbes } | null = null;

/**
 * Starts the git reads and bubblewrap's trial a run or resume in `cwd` begins with (repoIdentity, inspectWorkspace,
 * probeBwrapAsync: only reads, hardened like every git call), while the process is still small and the CLI's code
 * loads on the other core: a child forked from the shim costs a fraction of one forked from the loaded CLI, and the
 * answers are there when the run asks. Nothing is reported here; the run takes what it asked for (takeEarlyProbes)
 * and meets any error where it met it before. A cwd that cannot be resolved starts nothing.
 */
export function startEarlyProbes(cwd: string, mode: "start" | "resume"): void {
  let root: string;
  try {
    root = projectRoot(cwd);
  } catch {
    return;
  }
  const probes = { identity: repoIdentity(root), workspace: inspectWorkspace(root, mode), sandbox: probeBwrapAsync(process.env.PATH) };
  for (const p of Object.values(probes)) p.catch(() => {});
  started = { root, mode, path: process.env.PATH, probes };
}

/** The probes startEarlyProbes began for exactly this root, mode and PATH (once), or null: the caller runs its own. */
export function takeEarlyProbes(root: string, mode: "start" | "resume"): EarlyProbes | null {
  const found = started;
  started = null;
  return found && found.root === root && found.mode === mode && found.path === process.env.PATH ? found.probes : null;
}
