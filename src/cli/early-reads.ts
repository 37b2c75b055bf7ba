import { probeBwrapAsync, type SandboxProbe, stopTrials } from "../exec/sandbox.js";
import { repositoryConfig } from "../git/git.js";
import { identityOf, repoIdentity } from "../git/repo-identity.js";
import { letRunningGitsGo } from "../git/spawn-git.js";
import { inspectWithSnapshot, inspectWorkspace, type WorkspaceFacts } from "../git/workspace.js";

// The git reads a run or resume starts with, and bubblewrap's trial, begun by bin/yolo.js in yolo's own process
// before the CLI's code is loaded: git and the trial run on the other core while the CLI compiles. Each read is a
// chain (the filter drivers, then the status, then a dirty tree's snapshot): a link waits for the main thread's next
// turn, which comes as soon as the start first waits (for the config's trust, the trial), well before it needs the
// status. A Node process of their own ran them before; its own boot came later than that turn (docs/performance.md).

/** The reads' answers, as promises; a read that failed rejects (the caller reads it again itself). */
export interface EarlyReads {
  identity: Promise<string>;
  workspace: Promise<WorkspaceFacts>;
  /** A new thread's start snapshot commit when the tree has uncommitted changes (inspectWithSnapshot), else null. */
  snapshot: Promise<string | null> | null;
  /** probeBwrapAsync for yolo's PATH. */
  sandbox: Promise<SandboxProbe>;
  /**
   * Lets the reads go: yolo has taken what it needs (or stopped). A trial still running is killed (with
   * `sandbox: "off"` its answer is never taken; it would run up to its timeout), and a git still running no longer
   * holds yolo's exit (a large repository's status takes seconds): it ends on its own.
   */
  release(): void;
}

/**
 * Starts the reads for `root` and `mode` with the functions the CLI would call itself. Their errors are the shim's
 * copies of yolo's classes, never shown: the CLI reads a failed one again, so it meets the error where it did before.
 */
export function readEarly(root: string, mode: "start" | "resume"): EarlyReads {
  // A new thread reads the filter drivers (for its status) and the origin (its identity) with one git command.
  const config = mode === "start" ? repositoryConfig(root) : null;
  const start = config ? inspectWithSnapshot(root, { filters: config.then((c) => c.filters) }) : null;
  const reads = {
    identity: config ? config.then((c) => identityOf(c.originUrl, root)) : repoIdentity(root),
    workspace: start?.facts ?? inspectWorkspace(root, mode),
    snapshot: start?.snapshot ?? null,
    sandbox: probeBwrapAsync(process.env.PATH),
  };
  // A read nobody takes (a run refused first) must not end yolo as an unhandled rejection.
  for (const read of Object.values(reads)) read?.catch(() => {});
  const release = () => {
    stopTrials();
    letRunningGitsGo();
  };
  return { ...reads, release };
}
