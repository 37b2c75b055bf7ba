import { type EarlyReads, readEarly } from "./early-reads.js";
import { emptySlot, fillSlot } from "./early-slot.js";
import { projectRoot } from "../config/project-root.js";

/** The git reads and bubblewrap's trial a run or resume starts with, started before the CLI itself has loaded. */
export type EarlyProbes = EarlyReads;

/**
 * Starts the git reads that a run or resume in `cwd` begins with (repoIdentity, inspectWorkspace, and for a new thread
 * on a tree with uncommitted changes its start snapshot commit — reads and git objects only, hardened like every git
 * call) and bubblewrap's trial (probeBwrapAsync), before the CLI's code is loaded: they run on the other core while it
 * compiles (see early-reads.ts). Nothing is reported here; the run takes what it would have asked for
 * (takeEarlyProbes) and reads again what failed, so it meets any error where it met it before. A cwd that cannot be
 * resolved, or reads that cannot be started, start nothing.
 */
export function startEarlyProbes(cwd: string, mode: "start" | "resume"): void {
  // Only a head start: whatever goes wrong here leaves the reads to the CLI, which meets it where it would have.
  try {
    const root = projectRoot(cwd);
    fillSlot({ root, mode, path: process.env.PATH, probes: readEarly(root, mode) });
  } catch {}
}

/**
 * The probes startEarlyProbes began for exactly this root, mode and PATH, once; null otherwise (the shim's guess at
 * the root from its arguments was another directory, or none were started), and the caller runs its own.
 */
export function takeEarlyProbes(root: string, mode: "start" | "resume"): EarlyProbes | null {
  const found = emptySlot<EarlyProbes>();
  return found && found.root === root && found.mode === mode && found.path === process.env.PATH ? found.probes : null;
}
