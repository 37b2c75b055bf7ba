import { ConfigError } from "../errors.js";
import { GitError, git, gitOk, PROJECT_PATHS, repositoryFilters } from "./git.js";
import { branchExists, currentBranch, headCommit, headMessage, repoState, snapshotCommit, snapshotRef, snapshotWorkTree, uncommittedChanges } from "./repo.js";
import { commitMessage, isSameIteration, type Iteration } from "./commit-message.js";
import { unstageGuarded } from "./guarded-paths.js";

/** The branch a thread works on with `--branch`. */
export function threadBranch(threadId: string): string {
  return `yolo/${threadId}`;
}

export interface WorkspaceOptions {
  root: string;
  threadId: string;
  /** Work on `yolo/<thread>` and commit after each dev iteration. */
  branch: boolean;
  /** Start even when the work tree has uncommitted changes (they are carried onto the branch). */
  allowDirty: boolean;
  /** A new thread (check the tree, create the branch) or a resumed one (get back on its branch). */
  mode: "start" | "resume";
  /** What inspectWorkspace read for this root and mode, when the caller started it early; read here otherwise. */
  facts?: Promise<WorkspaceFacts>;
  /** The start snapshot's commit from startSnapshot (same root, branch and facts), when started early. */
  snapshot?: Promise<string | null>;
  /** Exec files the user lets yolo write (`files.allowExec`): committed; every other exec file is left out of commits. */
  allowExec?: readonly string[];
}

/**
 * A new thread's start snapshot commit, written early (snapshotCommit: git objects only), when prepareWorkspace will
 * take one — a dirty tree without a branch; null otherwise. `early`: inspectWithSnapshot's commit for these facts, when the
 * caller had it started already (a failed one is taken again here, so its error is met where it was before).
 * prepareWorkspace keeps it with its ref, or reports its failure.
 */
export async function startSnapshot(
  facts: Promise<WorkspaceFacts>,
  opts: { root: string; branch: boolean; early?: Promise<string | null> | null },
): Promise<string | null> {
  const { inRepo, head, dirty, filters, index } = await facts;
  if (!inRepo || opts.branch || dirty.length === 0) return null;
  const early = await opts.early?.catch(() => null);
  return early ?? snapshotCommit(opts.root, { head, filters, index });
}

/** What prepareWorkspace reads before it changes anything. */
export interface WorkspaceFacts {
  inRepo: boolean;
  /** HEAD's commit; null outside git or before the first commit. */
  head: string | null;
  /** A new thread's uncommitted changes (`git status --porcelain` lines); empty for a resumed one. */
  dirty: string[];
  /** The repository's filter drivers as read for the status, for the snapshot's content commands. */
  filters?: Promise<[string, string][]>;
  /** The repository's index file, which a snapshot starts from (see staged-work-tree.ts); null outside git. */
  index?: string | null;
}

/**
 * Reads what prepareWorkspace decides on, with its git commands at once rather than one after another. Read-only
 * (no ref, index or file is written), so a run starts it while it still checks its agents, sandbox and database.
 */
export async function inspectWorkspace(root: string, mode: "start" | "resume", known?: { filters: Promise<[string, string][]> }): Promise<WorkspaceFacts> {
  const filters = mode === "start" ? (known?.filters ?? repositoryFilters(root)) : undefined;
  // Outside git the status fails: its answer (or error) counts only inside a work tree, as when it ran second.
  const [state, dirty] = await Promise.all([
    repoState(root),
    mode === "start" ? uncommittedChanges(root, { filters }).catch((error: unknown) => ({ error })) : [],
  ]);
  if (!state.inRepo) return { inRepo: false, head: null, dirty: [] };
  if (!Array.isArray(dirty)) throw dirty.error;
  return { inRepo: true, head: state.head, dirty, filters, index: state.index };
}

/**
 * A new thread's inspectWorkspace and, for a tree with uncommitted changes, its start snapshot commit (objects only,
 * written before there is a thread or a config: one that works on a branch does not use it, and git's gc removes it).
 * The status decides first: staging a clean tree beside it would walk a large tree twice at every start for nothing.
 */
export function inspectWithSnapshot(
  root: string,
  known?: { filters: Promise<[string, string][]> },
): { facts: Promise<WorkspaceFacts>; snapshot: Promise<string | null> } {
  const facts = inspectWorkspace(root, "start", known);
  const snapshot = facts.then(({ inRepo, head, dirty, filters, index }) =>
    inRepo && dirty.length > 0 ? snapshotCommit(root, { head, filters, index }) : null,
  );
  return { facts, snapshot };
}

export interface Workspace {
  /**
   * What reports diff against: HEAD when the thread started, or — when the tree had uncommitted changes — a
   * snapshot commit of the tree as it was (see snapshotWorkTree). Null outside git, or before the first commit
   * on a clean tree.
   */
  startCommit: string | null;
  /** False when the root is not inside a git repository (no diff, no branch, no change list). */
  inRepo: boolean;
  /** A new thread's uncommitted changes at its start (`git status --porcelain` lines), recorded in the snapshot. */
  dirty: string[];
  /** The thread's branch, when it commits. */
  branch: string | null;
  /** The branch that was checked out before yolo switched to the thread's (null: none was switched, or HEAD was detached). */
  switchedFrom?: string | null;
  /** Commits the iteration's change on the thread's branch; null when branch mode is off. */
  commit: ((iteration: Iteration) => Promise<{ commit: string | null; leftOut?: string[] }>) | null;
  /**
   * A dirty tree's start snapshot still being taken (the early one: its commit, then the ref that keeps it from git's
   * gc), when `startCommit` is null for that reason. The run waits for it, and records its commit, before it changes
   * anything: the first event does not wait for git. Null when there is nothing to wait for.
   */
  pendingStart: Promise<string> | null;
}

/**
 * Prepares the checkout for a run. Without `branch` it only notes the start commit (a snapshot of a dirty tree). With it: a new thread refuses a
 * dirty tree (unless allowDirty) and creates `yolo/<thread>` from HEAD; a resumed thread switches back to its
 * branch. Problems the user must fix are ConfigErrors (exit 2, nothing ran).
 */
export async function prepareWorkspace(opts: WorkspaceOptions): Promise<Workspace> {
  const { root } = opts;
  const { inRepo, head, dirty, filters, index } = await (opts.facts ?? inspectWorkspace(root, opts.mode));
  if (!inRepo) {
    if (opts.branch)
      throw new ConfigError(`Branch mode needs a git repository, and ${root} is not inside one. Run \`git init\` and commit, or run without a branch.`, [], {
        fact: { kind: "branch-needs-git", root },
      });
    return { startCommit: null, inRepo: false, dirty: [], branch: null, commit: null, pendingStart: null };
  }
  const refused = opts.branch && dirty.length > 0 && !opts.allowDirty;
  // Without a branch, a dirty tree's edits stay the user's, not yolo's: the change is measured from a snapshot that
  // includes them. With --branch --allow-dirty they are carried into the branch's first commit, part of its change.
  const snapshot = opts.mode === "start" && !opts.branch && dirty.length > 0;
  // A snapshot started early is not waited for here (see pendingStart); one taken here is.
  const pendingStart = opts.mode === "start" && snapshot && opts.snapshot ? keptSnapshot(opts, { head, filters, index }) : null;
  pendingStart?.catch(() => {}); // awaited by the caller before the run changes anything
  const startCommit = opts.mode !== "start" || pendingStart ? null : snapshot ? await keptSnapshot(opts, { head, filters, index }) : head;
  if (!opts.branch) return { startCommit, inRepo, dirty, branch: null, commit: null, pendingStart };

  const branch = threadBranch(opts.threadId);
  // A new thread branches from wherever HEAD is; a resumed one gets back on its branch. Either way the user is told
  // where they were, to go back.
  const current = await currentBranch(root);
  if (opts.mode === "start") {
    if (refused) {
      const shown = dirty.slice(0, 10).map((l) => l.trim());
      if (dirty.length > shown.length) shown.push(`… and ${dirty.length - shown.length} more`);
      throw new ConfigError(
        "The work tree has uncommitted changes, and branch mode commits yolo's work: commit or stash them first, or allow a dirty tree to carry them onto the branch:",
        shown,
        {
          fact: { kind: "dirty-tree-for-branch" },
        },
      );
    }
    await gitOk(root, ["checkout", "-q", "-b", branch]);
  } else if (current !== branch) {
    if (!(await branchExists(root, branch))) {
      throw new ConfigError(`Thread ${opts.threadId} has no branch ${branch}: it was started without one. Resume it without a branch.`, [], {
        fact: { kind: "thread-without-branch", thread: opts.threadId, branch },
      });
    }
    if ((await uncommittedChanges(root)).length) {
      throw new ConfigError(
        `Thread ${opts.threadId} works on ${branch}, but ${current ?? "a detached HEAD"} is checked out with uncommitted changes. Commit or stash them, then resume.`,
      );
    }
    await gitOk(root, ["checkout", "-q", branch]);
  }
  const switchedFrom = current === branch ? null : current;
  return {
    startCommit,
    inRepo,
    dirty,
    branch,
    switchedFrom,
    commit: (iteration) => commitIteration(root, branch, iteration, opts.allowExec ?? []),
    pendingStart,
  };
}

// The snapshot startSnapshot wrote, now kept by its ref; or the whole snapshot, taken here.
async function keptSnapshot(
  opts: WorkspaceOptions,
  known: { head: string | null; filters?: Promise<[string, string][]>; index?: string | null },
): Promise<string> {
  const early = await opts.snapshot;
  if (!early) return snapshotWorkTree(opts.root, opts.threadId, known);
  await gitOk(opts.root, ["update-ref", snapshotRef(opts.threadId), early]);
  return early;
}

/**
 * Commits everything the iteration changed (never `.yolo/`), except secret files and files that run code outside
 * yolo (a workflow, a hook config, an `.envrc` a command left behind): those stay in the work tree, uncommitted, and
 * are named in `leftOut`. Safe to repeat after a crash: with nothing to commit it does nothing, and when HEAD is
 * already this iteration's commit (the node ran again) it amends it.
 */
async function commitIteration(
  root: string,
  branch: string,
  iteration: Iteration,
  allowExec: readonly string[],
): Promise<{ commit: string | null; leftOut?: string[] }> {
  const on = await currentBranch(root);
  if (on !== branch) throw new GitError(`yolo commits only on ${branch}, but ${on ?? "a detached HEAD"} is checked out now; switch back and resume.`);
  if (!(await uncommittedChanges(root)).length) return { commit: null };
  const previous = await headMessage(root);
  const amend = previous !== null && isSameIteration(previous, iteration);
  await gitOk(root, ["add", "-A", ...PROJECT_PATHS]);
  const leftOut = await unstageGuarded((args) => gitOk(root, args), "HEAD", { exec: true, allowExec });
  const left = leftOut.length ? { leftOut } : {};
  if ((await git(root, ["diff", "--cached", "--quiet", "HEAD", "--"])).exitCode === 0) return { commit: null, ...left };
  const identity = (await git(root, ["var", "GIT_AUTHOR_IDENT"])).exitCode === 0 ? [] : ["-c", "user.name=yolo", "-c", "user.email=yolo@localhost"];
  // --no-verify: a commit hook of the project is not yolo's gate, and must not block a work-in-progress commit.
  await gitOk(root, [...identity, "commit", "-q", "--no-verify", ...(amend ? ["--amend"] : []), "-m", commitMessage(iteration)]);
  return { commit: await headCommit(root), ...left };
}
