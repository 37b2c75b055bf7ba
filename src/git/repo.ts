import { GitError, type GitOptions, git, gitOk, PROJECT_PATHS, repositoryFilters } from "./git.js";
import { unstageGuarded } from "./guarded-paths.js";
import { sensitiveReason } from "../secrets/sensitive.js";
import { gitPath, withStagedWorkTree } from "./staged-work-tree.js";

/** git's id of the empty tree: what a change is measured against when the repository had no commit yet. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** True when `root` is inside a git work tree (and git is installed). */
export async function isGitRepo(root: string): Promise<boolean> {
  const r = await git(root, ["rev-parse", "--is-inside-work-tree"]);
  return r.exitCode === 0 && r.stdout.trim() === "true";
}

/**
 * isGitRepo and headCommit in one git call (each git costs a run's start several milliseconds): whether `root` is
 * inside a work tree, and the commit HEAD points at (null before the first commit, or outside a work tree).
 */
export async function repoState(root: string): Promise<{ inRepo: boolean; head: string | null; index: string | null }> {
  const r = await git(root, ["rev-parse", "--is-inside-work-tree", "--git-path", "index", "--verify", "-q", "HEAD^{commit}"]);
  // The first line answers --is-inside-work-tree even when HEAD has no commit (exit 1); outside git, exit 128. The
  // second is the index file, for the snapshot to start from (see staged-work-tree.ts).
  const [inside = "", index = "", head = ""] = r.stdout.split("\n");
  const inRepo = (r.exitCode === 0 || r.exitCode === 1) && inside.trim() === "true";
  return { inRepo, head: inRepo && r.exitCode === 0 && head.trim() ? head.trim() : null, index: inRepo ? gitPath(root, index) : null };
}

/** The commit HEAD points at, or null on a branch with no commit yet. */
export async function headCommit(root: string): Promise<string | null> {
  const r = await git(root, ["rev-parse", "--verify", "-q", "HEAD^{commit}"]);
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** The checked-out branch, or null when HEAD is detached. */
export async function currentBranch(root: string): Promise<string | null> {
  const r = await git(root, ["symbolic-ref", "--short", "-q", "HEAD"]);
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

export async function branchExists(root: string, name: string): Promise<boolean> {
  return (await git(root, ["show-ref", "--verify", "--quiet", `refs/heads/${name}`])).exitCode === 0;
}

/** Changed, staged and untracked (not ignored) paths under the project, `.yolo/` excluded, as `git status` shows them. */
export async function uncommittedChanges(root: string, options: GitOptions = {}): Promise<string[]> {
  const out = await gitOk(root, ["status", "--porcelain=v1", "--untracked-files=all", ...PROJECT_PATHS], {}, options);
  return out.split("\n").filter((l) => l.trim() !== "");
}

/** The ref that keeps a thread's start snapshot from git's garbage collection (not a branch, not the stash). */
export function snapshotRef(threadId: string): string {
  return `refs/yolo/${threadId}/start`;
}

/**
 * Records the work tree as it is now — staged, unstaged and untracked files, not ignored ones nor `.yolo/` — as a
 * commit whose parent is HEAD, made in a throwaway index (like `git stash create`, without the stash list): the
 * user's index, HEAD, branches and stash are untouched. The commit is kept by `snapshotRef(threadId)`.
 */
export async function snapshotWorkTree(
  root: string,
  threadId: string,
  known: { head?: string | null; filters?: GitOptions["filters"]; index?: string | null } = {},
): Promise<string> {
  const commit = await snapshotCommit(root, known);
  await gitOk(root, ["update-ref", snapshotRef(threadId), commit]);
  return commit;
}

/**
 * snapshotWorkTree's commit, written but not yet kept by its ref: only git objects are added (nothing a user sees,
 * no ref, index or file), so a run can write it while its start is still being checked — before its thread exists,
 * even (the message names no thread: the ref does) — and keep it once started.
 */
export async function snapshotCommit(
  root: string,
  known: { head?: string | null; filters?: GitOptions["filters"]; index?: string | null } = {},
): Promise<string> {
  const head = known.head !== undefined ? known.head : await headCommit(root);
  // The repository's filter drivers, read once for the staging and the tree.
  const filters = known.filters ?? repositoryFilters(root);
  // A secret file's content never enters the snapshot (its objects are readable by every command in the sandbox).
  const tree = (
    await withStagedWorkTree(root, { base: head, index: known.index, filters, exclude: await changedSecretFiles(root, filters) }, async (staged) => {
      await unstageGuarded(staged, head, { exec: false });
      return staged(["write-tree"]);
    })
  ).trim();
  // Never signed: a signing prompt would hang an unattended run, and nobody pushes this commit.
  const message = "yolo: the work tree a thread started from, uncommitted changes included\n\nYolo-Snapshot: start\n";
  const commitTree = (identity: string[]) =>
    git(root, [...identity, "-c", "commit.gpgSign=false", "commit-tree", tree, ...(head ? ["-p", head] : []), "-m", message]);
  // As the user when git knows who that is; as yolo when it does not (asked by trying: one git command fewer).
  let r = await commitTree([]);
  if (r.exitCode !== 0 && UNKNOWN_IDENTITY.test(r.stderr)) r = await commitTree(["-c", "user.name=yolo", "-c", "user.email=yolo@localhost"]);
  if (r.exitCode !== 0) throw new GitError(`git commit-tree failed in ${root} (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(0, 500)}`);
  return r.stdout.trim();
}

/**
 * Secret files (as read_file judges them) among the work tree's changed and untracked files, relative to the
 * repository's top: the snapshot never adds them, so not even a loose object of theirs is written.
 */
async function changedSecretFiles(root: string, filters: GitOptions["filters"]): Promise<string[]> {
  const r = await git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", ...PROJECT_PATHS], {}, { filters });
  if (r.exitCode !== 0) return [];
  const paths = r.stdout
    .split("\0")
    .filter((entry) => entry.length > 3)
    .map((entry) => entry.slice(3));
  return paths.filter((rel) => sensitiveReason(rel) !== null);
}

/** What git says (LC_ALL=C) when it cannot tell who commits: no user.name / user.email and none it may guess. */
const UNKNOWN_IDENTITY = /identity unknown|unable to auto-detect email address|empty ident name/i;

/** Removes a thread's start snapshot ref (deleting the thread); a missing one is fine. */
export async function dropSnapshotRef(root: string, threadId: string): Promise<void> {
  await git(root, ["update-ref", "-d", snapshotRef(threadId)]);
}

/** The full message of HEAD's commit, or null when there is none. */
export async function headMessage(root: string): Promise<string | null> {
  const r = await git(root, ["log", "-1", "--format=%B"]);
  return r.exitCode === 0 ? r.stdout : null;
}

/** One file of a diffstat; binary files have no line counts. */
export interface FileStat {
  path: string;
  added: number | null;
  removed: number | null;
}

/** Where a thread's change is read from: its start commit, and the branch it was committed to (if any). */
export interface ChangeSource {
  startCommit: string | null;
  /** The thread's branch (`--branch`); when it is not checked out, the change is read from it instead of the work tree. */
  branch: string | null;
}

/**
 * The change since the start commit, as numstat and as a unified diff: against the work tree (new untracked files
 * included, ignored ones and `.yolo/` not) when the thread's branch is checked out or it has none; against the
 * branch's last commit otherwise. The user's index is never touched: the work tree is staged into a throwaway one.
 */
export async function changeSince(root: string, source: ChangeSource, what: "numstat" | "patch"): Promise<string> {
  const base = source.startCommit ?? EMPTY_TREE;
  // Paths relative to the project root (it may be a sub-folder of the repository); renames as delete + add.
  const flags = ["--relative", "--no-renames", ...(what === "numstat" ? ["--numstat"] : ["--stat", "--patch"])];
  if (source.branch && (await currentBranch(root)) !== source.branch && (await branchExists(root, source.branch))) {
    return gitOk(root, ["diff", "--no-color", ...flags, base, source.branch, ...PROJECT_PATHS]);
  }
  return withStagedWorkTree(root, { base: source.startCommit }, (staged) => staged(["diff", "--no-color", "--cached", ...flags, base, ...PROJECT_PATHS]));
}

/** Parses `git diff --numstat` output (`-` counts mark binary files). */
export function parseNumstat(text: string): FileStat[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line) => {
      const [added, removed, ...rest] = line.split("\t");
      return { path: rest.join("\t"), added: added === "-" ? null : Number(added), removed: removed === "-" ? null : Number(removed) };
    });
}
