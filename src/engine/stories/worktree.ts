import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { git, GitError, gitOk, PROJECT_PATHS } from "../../git/git.js";
import { headCommit } from "../../git/repo.js";
import { withStagedWorkTree } from "../../git/staged-work-tree.js";
import { STORY_ID } from "../../roles/story-plan.js";
import { serialWorktreeOps } from "../../git/worktree-queue.js";

/**
 * A story's git worktree: its own checkout on its own branch, under the thread's folder in `.yolo/`, made and
 * committed by yolo (never by the model). Every git command goes through yolo's hardened git (src/git/git.ts).
 */

/**
 * A story's branch. Not `yolo/<thread>/<story>`: with `--branch` the thread's own branch `yolo/<thread>` is a ref,
 * and git refuses a ref below another (`yolo/<thread>/…`), so stories live in a namespace of their own.
 */
export function storyBranch(threadId: string, storyId: string): string {
  return `yolo/stories/${threadId}/${checkedId(storyId)}`;
}

/** The ref that keeps the commit a story started from (what its change is measured and merged against). */
function baseRef(threadId: string, storyId: string): string {
  return `refs/yolo/${threadId}/story-base/${checkedId(storyId)}`;
}

/** Where a thread's story worktrees live: `<artifacts>/threads/<thread>/worktrees/` (nothing is created). */
export function worktreesDir(stateDir: string, threadId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(threadId)) throw new Error(`"${threadId}" is not a valid thread id`);
  return join(stateDir, "threads", threadId, "worktrees");
}

// Ids come from the model: checked again here, where they become paths and refs.
function checkedId(storyId: string): string {
  if (!STORY_ID.test(storyId)) throw new Error(`refusing story id "${storyId}": not a valid story id`);
  return storyId;
}

export interface StoryWorktree {
  /** The worktree's top folder. */
  path: string;
  /** The project root inside it (the project may be a sub-folder of its repository). */
  root: string;
  branch: string;
  /** The commit the story started from. */
  base: string;
  /**
   * Set when the story had a worktree before (its base ref exists) and it was not found intact: "missing" (deleted),
   * or the path of the broken folder, moved aside so nothing in it is deleted. It was made again from the branch.
   */
  remade?: { missing: true } | { movedTo: string };
}

/**
 * The story's worktree, found again when it exists (a resumed thread continues in it) or created from a snapshot
 * of the thread's working tree as it is now (merged stories and uncommitted work included, `.yolo/` not).
 */
export function ensureStoryWorktree(input: { root: string; stateDir: string; threadId: string; storyId: string }): Promise<StoryWorktree> {
  return serialWorktreeOps(input.root, () => addStoryWorktree(input));
}

async function addStoryWorktree(input: { root: string; stateDir: string; threadId: string; storyId: string }): Promise<StoryWorktree> {
  const { root, threadId, storyId } = input;
  const path = join(worktreesDir(input.stateDir, threadId), checkedId(storyId));
  const branch = storyBranch(threadId, storyId);
  const prefix = (await gitOk(root, ["rev-parse", "--show-prefix"])).trim();
  const existingBase = (await git(root, ["rev-parse", "--verify", "-q", `${baseRef(threadId, storyId)}^{commit}`])).stdout.trim();
  if (existingBase && existsSync(join(path, ".git")) && (await git(path, ["symbolic-ref", "--short", "-q", "HEAD"])).stdout.trim() === branch) {
    return { path, root: join(path, prefix), branch, base: existingBase };
  }
  // A half-made or broken worktree (killed while it was being added, its .git changed) is moved aside, not deleted:
  // what the story's run left uncommitted in it stays for the user. Its registration is pruned, and it is made again.
  const remade = existingBase ? (existsSync(path) ? { movedTo: moveAside(path) } : { missing: true as const }) : undefined;
  rmSync(path, { recursive: true, force: true });
  await git(root, ["worktree", "prune"]);
  const base = existingBase || (await snapshotTree(root, threadId, storyId));
  await gitOk(root, ["update-ref", baseRef(threadId, storyId), base]);
  mkdirSync(join(path, ".."), { recursive: true });
  const hasBranch = (await git(root, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`])).exitCode === 0;
  await gitOk(root, ["worktree", "add", "-q", ...(hasBranch ? [path, branch] : ["-b", branch, path, base])]);
  linkDependencies(root, join(path, prefix));
  return { path: realpathSync(path), root: join(realpathSync(path), prefix), branch, base, ...(remade ? { remade } : {}) };
}

// `<worktrees>/<story>` becomes `<thread>/broken-worktrees/<story>-<n>`, outside the folder a thread's end removes.
function moveAside(path: string): string {
  const dir = join(dirname(dirname(path)), "broken-worktrees");
  mkdirSync(dir, { recursive: true });
  let n = 1;
  while (existsSync(join(dir, `${basename(path)}-${n}`))) n++;
  const to = join(dir, `${basename(path)}-${n}`);
  renameSync(path, to);
  return to;
}

/**
 * Makes a finished story's worktree hold exactly what yolo committed on its branch before it is merged (the merge
 * reads the story's side from the worktree, bytes as they are): files changed, deleted or added after the commit
 * (a kill, a user, a disk) are put back. Returns the paths that differed, so the caller can say so; none is usual.
 */
export async function restoreCommitted(mainRoot: string, wt: StoryWorktree, tip: string): Promise<string[]> {
  await assertWorktreeLink(mainRoot, wt);
  const head = (await git(wt.path, ["rev-parse", "--verify", "-q", "HEAD^{commit}"])).stdout.trim();
  const status = await gitOk(wt.root, ["status", "--porcelain", "--no-renames", ...STORY_PATHS]);
  const drifted = status
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.slice(3));
  if (head === tip && !drifted.length) return [];
  await gitOk(wt.path, ["reset", "-q", "--hard", tip]);
  await gitOk(wt.root, ["clean", "-fdq", "-e", "node_modules", "-e", ".yolo", "--", "."]);
  return drifted.length ? drifted : ["HEAD"];
}

/**
 * The project's installed dependencies (`node_modules`, ignored by git, so not in a fresh checkout) linked into the
 * worktree, so the story's dev can run the tests. The sandbox keeps the linked folder read-only (it is outside the
 * worktree), and yolo's commit never takes it.
 */
function linkDependencies(root: string, storyRoot: string): void {
  const source = join(root, "node_modules");
  const target = join(storyRoot, "node_modules");
  if (existsSync(source) && !existsSync(target) && !isLink(target)) symlinkSync(source, target, "dir");
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * What yolo commits of a worktree: the project, never `.yolo/` nor the linked dependencies. Wildcards, as in
 * PROJECT_PATHS: a literal excluding pathspec naming an ignored path (`node_modules` and `.yolo/` usually are) makes
 * `git add` fail.
 */
const STORY_PATHS = [...PROJECT_PATHS, ":(exclude)node_module[s]", ":(exclude)node_module[s]/*"];

/**
 * Commits the story's work on its branch (yolo's commit, not the model's: no hooks, no signing) and returns the
 * project-relative files it changed since its base, from git. Nothing to commit is fine (a story may change nothing).
 */
export async function commitStory(mainRoot: string, wt: StoryWorktree, message: string): Promise<string[]> {
  await assertWorktreeLink(mainRoot, wt);
  await gitOk(wt.root, ["add", "-A", ...STORY_PATHS]);
  const staged = await git(wt.root, ["diff", "--cached", "--quiet"]);
  if (staged.exitCode !== 0) {
    const identity = (await git(wt.root, ["var", "GIT_AUTHOR_IDENT"])).exitCode === 0 ? [] : ["-c", "user.name=yolo", "-c", "user.email=yolo@localhost"];
    await gitOk(wt.root, [...identity, "commit", "-q", "--no-verify", "-m", message]);
  }
  return storyFiles(wt.root, wt.base, "HEAD");
}

/**
 * Refuses to run yolo's git in a worktree whose `.git` link no longer points at its own registration in the
 * thread's repository (a model that rewrote it, with the sandbox off, could aim yolo's commit at another repository
 * or at the thread's own branch).
 */
export async function assertWorktreeLink(mainRoot: string, wt: Pick<StoryWorktree, "path">): Promise<void> {
  const common = realpathSync(resolve(mainRoot, (await gitOk(mainRoot, ["rev-parse", "--git-common-dir"])).trim()));
  const dotGit = join(wt.path, ".git");
  let ok = false;
  try {
    const gitDir = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (gitDir && lstatSync(dotGit).isFile()) {
      const real = realpathSync(resolve(wt.path, gitDir));
      ok = dirname(real) === join(common, "worktrees") && realpathSync(readFileSync(join(real, "gitdir"), "utf8").trim()) === realpathSync(dotGit);
    }
  } catch {
    ok = false;
  }
  if (!ok)
    throw new GitError(
      `The story worktree ${wt.path} no longer links to its own entry in the repository (its .git was changed): yolo does not commit from it. Delete the thread, or remove the worktree and resume.`,
    );
}

/** Whether the story's branch is still there (a user or a tool may have deleted it while yolo was stopped). */
export async function storyBranchExists(root: string, threadId: string, storyId: string): Promise<boolean> {
  return (await git(root, ["show-ref", "--verify", "--quiet", `refs/heads/${storyBranch(threadId, storyId)}`])).exitCode === 0;
}

/** A worktree found missing or broken and made again, in words: what happened, where anything left went, what it means. */
export function remadeWords(storyId: string, wt: StoryWorktree, meaning: string): string {
  const what = wt.remade && "movedTo" in wt.remade ? `was broken (moved aside to ${wt.remade.movedTo})` : "was missing";
  return `Story ${storyId}'s worktree ${what}: it was made again from its branch ${wt.branch}; ${meaning}.`;
}

/** Project-relative files changed between two commits, from git. */
export async function storyFiles(root: string, from: string, to: string): Promise<string[]> {
  const out = await gitOk(root, ["diff", "--name-only", "--no-renames", "--relative", from, to, "--", "."]);
  return out.split("\n").filter((l) => l.trim() !== "");
}

/** The tip of a story's branch and the commit it started from (for the merge), read in the thread's working tree. */
export async function storyCommits(root: string, threadId: string, storyId: string): Promise<{ base: string; tip: string }> {
  const base = (await gitOk(root, ["rev-parse", "--verify", `${baseRef(threadId, storyId)}^{commit}`])).trim();
  const tip = (await gitOk(root, ["rev-parse", "--verify", `refs/heads/${storyBranch(threadId, storyId)}^{commit}`])).trim();
  return { base, tip };
}

/**
 * Removes a thread's story worktrees, their `git worktree` entries, branches and base refs (the thread ended, or
 * `threads rm`). Branches of stories are yolo's scratch: their work is in the thread's tree (and branch) by then.
 */
export function removeStoryWorktrees(root: string, stateDir: string, threadId: string): Promise<void> {
  return serialWorktreeOps(root, () => removeAll(root, stateDir, threadId));
}

async function removeAll(root: string, stateDir: string, threadId: string): Promise<void> {
  const dir = worktreesDir(stateDir, threadId);
  if (existsSync(dir)) {
    for (const line of (await git(root, ["worktree", "list", "--porcelain"])).stdout.split("\n")) {
      const path = line.startsWith("worktree ") ? line.slice("worktree ".length) : null;
      if (path && (path === dir || path.startsWith(`${dir}/`))) await git(root, ["worktree", "remove", "--force", path]);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  await git(root, ["worktree", "prune"]);
  const refs = (await git(root, ["for-each-ref", "--format=%(refname)", `refs/heads/yolo/stories/${threadId}/`, `refs/yolo/${threadId}/story-base/`])).stdout;
  for (const ref of refs.split("\n").filter(Boolean)) await git(root, ["update-ref", "-d", ref]);
}

/**
 * A commit of the working tree as it is now (uncommitted and untracked files included, ignored ones and `.yolo/`
 * not), parent HEAD, made in a throwaway index: the user's index, HEAD and branches are untouched.
 */
async function snapshotTree(root: string, threadId: string, storyId: string): Promise<string> {
  const head = await headCommit(root);
  const tree = (await withStagedWorkTree(root, { base: head }, (staged) => staged(["write-tree"]))).trim();
  const identity = (await git(root, ["var", "GIT_COMMITTER_IDENT"])).exitCode === 0 ? [] : ["-c", "user.name=yolo", "-c", "user.email=yolo@localhost"];
  const message = `yolo(${threadId}): the working tree story ${storyId} starts from\n\nYolo-Thread: ${threadId}\nYolo-Snapshot: story ${storyId}\n`;
  return (await gitOk(root, [...identity, "commit-tree", tree, ...(head ? ["-p", head] : []), "-m", message])).trim();
}

/** Removes one story's worktree and its `git worktree` entry once it is merged (its branch stays until the thread ends). */
export function removeStoryWorktree(root: string, wt: Pick<StoryWorktree, "path">): Promise<void> {
  return serialWorktreeOps(root, async () => {
    await git(root, ["worktree", "remove", "--force", wt.path]);
    rmSync(wt.path, { recursive: true, force: true });
    await git(root, ["worktree", "prune"]);
  });
}
