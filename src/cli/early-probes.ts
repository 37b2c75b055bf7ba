import { probeBwrapAsync, type SandboxProbe } from "../exec/sandbox.js";
import { repoIdentity } from "../git/repo-identity.js";
import { inspectWorkspace, startTree, type WorkspaceFacts } from "../git/workspace.js";
import { emptySlot, fillSlot } from "./early-slot.js";
import { projectRoot } from "./project-root.js";

/** The read-only child processes a run or resume starts with, started before the CLI itself has loaded. */
export interface EarlyProbes {
  identity: Promise<string>;
  workspace: Promise<WorkspaceFacts>;
  /** A new thread's start snapshot tree when the tree has uncommitted changes (startTree), else null. */
  tree: Promise<string | null> | null;
  sandbox: Promise<SandboxProbe>;
}

/**
 * Starts the git reads and bubblewrap's trial that a run or resume in `cwd` begins with (repoIdentity, inspectWorkspace,
 * probeBwrapAsync: reads only, hardened like every git call; for a new thread on a tree with uncommitted changes also
 * its snapshot's tree, git objects only) before the CLI's code is loaded: they run in child
 * processes on the other core while it compiles, and each is forked from a process a fraction of the size. Nothing is
 * reported here; the run takes what it would have asked for (takeEarlyProbes) and meets any error where it met it
 * before. A cwd that cannot be resolved starts nothing.
 */
export function startEarlyProbes(cwd: string, mode: "start" | "resume"): void {
  let root: string;
  try {
    root = projectRoot(cwd);
  } catch {
    return;
  }
  const workspace = inspectWorkspace(root, mode);
  const probes = {
    identity: repoIdentity(root),
    workspace,
    tree: mode === "start" ? startTree(root, workspace) : null,
    sandbox: probeBwrapAsync(process.env.PATH),
  };
  for (const p of Object.values(probes)) p?.catch(() => {});
  fillSlot({ root, mode, path: process.env.PATH, probes });
}

/**
 * The probes startEarlyProbes began for exactly this root, mode and PATH, once; null otherwise (the shim's guess at
 * the root from its arguments was another directory, or none were started), and the caller runs its own.
 */
export function takeEarlyProbes(root: string, mode: "start" | "resume"): EarlyProbes | null {
  const found = emptySlot<EarlyProbes>();
  return found && found.root === root && found.mode === mode && found.path === process.env.PATH ? found.probes : null;
}
