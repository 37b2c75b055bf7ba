import { existsSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { type GitOptions, git, gitOk } from "../git/git.js";
import { serialWorktreeOps } from "../git/worktree-queue.js";
import { linkInstalled } from "./linked-dependencies.js";

/**
 * Eval worktrees: detached checkouts of the project's repository under `.yolo/eval/`, made and changed by yolo
 * through its hardened git (src/git/git.ts), never by the model.
 */

/**
 * A detached worktree of `root` at `rev` in `dir`, made again when a half-made one is there (killed while it was
 * being added). The project's `node_modules` is linked in when the checkout has none, so its suite can run.
 */
export function addWorktree(root: string, dir: string, rev: string, options: GitOptions = {}): Promise<void> {
  return serialWorktreeOps(root, async () => {
    if (existsSync(dir)) await removeWorktreeNow(root, dir, options);
    mkdirSync(dirname(dir), { recursive: true });
    // --force also takes a path still registered to a worktree whose folder is gone (no prune needed first).
    await gitOk(root, ["worktree", "add", "--force", "--detach", dir, rev], {}, options);
    linkDependencies(root, dir);
  });
}

/**
 * A task's own repository at `dir`, checked out detached at `rev`, holding `rev`'s history and nothing else: no
 * later commit (the fix, the commit's tests, HEAD), no ref of the project, no shared object store, no remote naming
 * the project. The agents' `git log --all` or `git show <fix>:<test>` there finds nothing to read; a worktree of the
 * project would hand them its whole object database. Made by fetching `rev` from the project (git packs only what it
 * reaches); the project's `node_modules` is linked in as for a worktree. `shallow`: `rev` alone, no history at all,
 * for a start whose history holds the answer (a mutant's or a canary's commit is a child of HEAD).
 */
export async function cloneAt(root: string, dir: string, rev: string, shallow = false): Promise<void> {
  await removeIfPresent(root, dir);
  mkdirSync(dir, { recursive: true });
  await gitOk(dir, ["init", "-q"]);
  // yolo's git allows no transport; this one fetch reads the project's own repository on this machine.
  const local = ["-c", "protocol.file.allow=always"];
  await gitOk(dir, [...local, "fetch", "-q", "--no-tags", "--no-write-fetch-head", ...(shallow ? ["--depth", "1"] : []), root, rev]);
  // The repository yolo just made has no filter driver of its own (a fetch copies no config): nothing to read first.
  await gitOk(dir, ["checkout", "-q", "--detach", rev], {}, { filters: Promise.resolve([]) });
  linkDependencies(root, dir);
}

/** Removes a worktree and its registration; a missing one is not an error. */
export function removeWorktree(root: string, dir: string, options: GitOptions = {}): Promise<void> {
  return serialWorktreeOps(root, () => removeWorktreeNow(root, dir, options));
}

/**
 * removeWorktree where `dir` may never have been made (a task's first run, a judged tree only a killed eval leaves):
 * no folder, nothing to remove, and no git started. A registration whose folder is gone stays until git's next prune;
 * `addWorktree` takes its path all the same.
 */
export async function removeIfPresent(root: string, dir: string): Promise<void> {
  if (existsExact(dir)) await removeWorktree(root, dir);
}

// A worktree git removed is unregistered with its folder; a folder git did not take (half-made, or its registration
// lost) is deleted and its registration, if any, pruned.
async function removeWorktreeNow(root: string, dir: string, options: GitOptions = {}): Promise<void> {
  const removed = await git(root, ["worktree", "remove", "--force", "--force", dir], {}, options);
  rmSync(dir, { recursive: true, force: true });
  if (removed.exitCode !== 0) await git(root, ["worktree", "prune"], {}, options);
}

// Installed dependencies are not in git: the checkout borrows the project's (read through a link, never copied).
function linkDependencies(root: string, dir: string): void {
  const source = join(root, "node_modules");
  const target = join(dir, "node_modules");
  if (!existsSync(source) || existsExact(target)) return;
  linkInstalled(root, dir);
}

function existsExact(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `files` in the worktree what they are at `commit`: checked out where the commit has them, deleted where it
 * does not (a test the commit removed, or one the model added). `present`: which of them the commit has, when listed
 * already (filesPresentAt, in any checkout of the same repository).
 */
export async function takeFilesFrom(dir: string, commit: string, files: string[], options: GitOptions = {}, present?: Promise<string[]>): Promise<void> {
  if (!files.length) return;
  const listed = new Set(await (present ?? filesPresentAt(dir, commit, files)));
  const keep = files.filter((f) => listed.has(f));
  for (const f of files.filter((f) => !listed.has(f))) rmSync(join(dir, f), { force: true });
  if (keep.length) await gitOk(dir, ["checkout", commit, "--", ...keep], {}, options);
}

/** Moves the worktree's checkout to `commit` (detached), dropping every change made in it. */
export async function checkoutClean(dir: string, commit: string, options: GitOptions = {}): Promise<void> {
  await gitOk(dir, ["checkout", "--force", "--detach", commit], {}, options);
  await gitOk(dir, ["clean", "-fdq", "-e", ".yolo", "-e", "node_modules"], {}, options);
}

/**
 * Makes a used worktree what a new one at `commit` would be (checked out, nothing else, the dependency link kept):
 * ignored files go too (build output, caches), so nothing one use left behind reaches the next. Cheaper than
 * removing it and adding another: only the files that differ are written.
 */
export async function resetWorktree(dir: string, commit: string, options: GitOptions = {}): Promise<void> {
  await gitOk(dir, ["checkout", "--force", "--detach", commit], {}, options);
  await gitOk(dir, ["clean", "-ffdxq", "-e", ".yolo", "-e", "/node_modules"], {}, options);
}

/** Every file of the worktree's tree: tracked, and untracked ones not ignored (where mutation and canary sites are found). */
export async function worktreeFiles(dir: string): Promise<string[]> {
  return (await gitOk(dir, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])).split("\0").filter(Boolean);
}

/**
 * Every file of a task's worktree after its run: tracked, and untracked ones whether git ignores them or not (the
 * model may have added some, and a test hidden by .gitignore runs all the same). The checkout started with none of
 * either: all are the model's, but for yolo's folder and the linked dependencies.
 */
export async function modelTreeFiles(dir: string): Promise<string[]> {
  return (await gitOk(dir, ["ls-files", "-z", "--cached", "--others", ...NOT_THE_MODELS])).split("\0").filter(Boolean);
}

/** The model's untracked files in a worktree, ignored or not (see modelTreeFiles). */
export async function untrackedFiles(dir: string): Promise<string[]> {
  return (await gitOk(dir, ["ls-files", "-z", "--others", ...NOT_THE_MODELS])).split("\0").filter(Boolean);
}

// yolo's state folder and the link to the project's installed dependencies: in every worktree, never the model's.
const NOT_THE_MODELS = ["--", ".", ":(exclude).yol[o]/*", ":(exclude)node_modules", ":(exclude)node_modules/*"];

/** Which of `files` `commit`'s tree has. */
export async function filesPresentAt(dir: string, commit: string, files: string[]): Promise<string[]> {
  if (!files.length) return [];
  return (await gitOk(dir, ["ls-tree", "-r", "-z", "--name-only", commit, "--", ...files])).split("\0").filter(Boolean);
}

/** The files of `commit`'s tree. */
export async function filesAt(dir: string, commit: string): Promise<string[]> {
  return (await gitOk(dir, ["ls-tree", "-r", "-z", "--name-only", commit])).split("\0").filter(Boolean);
}
