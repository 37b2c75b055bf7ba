import { copyFileSync, lstatSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { type GitOptions, git, gitOk, PROJECT_PATHS } from "./git.js";

/** Where the throwaway index starts from: the user's index file (null: none), and the commit to read otherwise. */
export interface StagingStart {
  /** The commit a fresh index is read from when there is no user index to copy (null: an empty index). */
  base: string | null;
  /** The repository's index file, absolute; undefined: asked of git (once per root). */
  index?: string | null;
  filters?: GitOptions["filters"];
  /** Paths (relative to the repository's top) never added: their content must not become a git object. */
  exclude?: readonly string[];
  /**
   * yolo's own files inside the project (a `--db` database beside the code, its WAL; an artifacts folder there), as
   * globs relative to the project: never part of the tree, whatever a run does to them.
   */
  own?: readonly string[];
  /**
   * Project-relative files git ignores that are part of the tree all the same (the ones an agent wrote:
   * src/engine/nodes/agent-ignored.ts); gate byproducts among them stay out, as everywhere.
   */
  ignoredToo?: readonly string[];
}

/** A git command on the throwaway index: its stdout; a failure is a GitError. */
export type StagedGit = (args: string[]) => Promise<string>;

/**
 * Runs `use` with the work tree staged into a throwaway index (`stagedGit` runs git on it): committed, staged,
 * unstaged and untracked files under the project, not ignored ones nor `.yolo/`. Git objects only: the user's index,
 * HEAD, refs and git dir are untouched (a split index is written whole). It starts from a copy of the user's index,
 * whose stat data lets `git add` hash only the files changed since (from a fresh index it reads every file again,
 * several times slower on a large tree: docs/performance.md); from `base` read into a fresh index when there is no index to copy or git
 * cannot use the copy (an unfinished merge outside the project, say). Under the project the two hold the same; outside
 * it (a project in a sub-folder of its repository) the copy holds what the user staged, the fresh one `base`.
 */
export async function withStagedWorkTree<T>(root: string, start: StagingStart, use: (stagedGit: StagedGit) => Promise<T>): Promise<T> {
  const options: GitOptions = { filters: start.filters };
  const paths = [
    ...PROJECT_PATHS,
    ...(start.exclude ?? []).map((rel) => `:(top,literal,exclude)${rel}`),
    ...(start.own ?? []).map((glob) => `:(exclude,glob)${glob}`),
  ];
  const dir = mkdtempSync(join(tmpdir(), "yolo-index-"));
  const file = join(dir, "index");
  // The repository may ask for a split index: this one is written whole, so nothing is added to its git dir.
  const stagedGit: StagedGit = (args) => gitOk(root, ["-c", "core.splitIndex=false", ...args], { GIT_INDEX_FILE: file }, options);
  try {
    const index = start.index === undefined ? await indexFile(root) : start.index;
    const addAll = async () => {
      await stagedGit(["add", "-A", ...paths]);
      await addIgnored(root, stagedGit, start.ignoredToo ?? [], paths.slice(2));
    };
    if (index && copied(index, file)) {
      try {
        await addAll();
        return await use(stagedGit);
      } catch {
        // Staged again from a fresh index below: what fails then is reported.
        rmSync(file, { force: true });
      }
    }
    if (start.base) await stagedGit(["read-tree", start.base]);
    await addAll();
    return await use(stagedGit);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Ignored files added by name (forced), a few hundred a command; the exclusions (yolo's folder, gate byproducts) hold.
// One deleted since it was named is left out (git would refuse the whole command): the tree then shows it gone.
async function addIgnored(root: string, stagedGit: StagedGit, named: readonly string[], exclusions: string[]): Promise<void> {
  const files = named.filter((rel) => present(join(root, rel)));
  for (let i = 0; i < files.length; i += 200) {
    const literal = files.slice(i, i + 200).map((rel) => `:(literal)${rel}`);
    await stagedGit(["add", "-f", "--", ...literal, ...exclusions]);
  }
}

function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function copied(from: string, to: string): boolean {
  try {
    copyFileSync(from, to);
    return true;
  } catch {
    // No index yet (a repository before its first `git add`), or an unreadable one.
    return false;
  }
}

const indexFiles = new Map<string, Promise<string | null>>();

/** The repository's index file (a worktree's or submodule's lives in its own git dir), asked of git once per root. */
export function indexFile(root: string): Promise<string | null> {
  let known = indexFiles.get(root);
  if (!known) {
    known = git(root, ["rev-parse", "--git-path", "index"]).then((r) => gitPath(root, r.exitCode === 0 ? r.stdout : ""));
    indexFiles.set(root, known);
  }
  return known;
}

/** A path git printed for `--git-path` (relative to `root`, where it ran), made absolute; null for none. */
export function gitPath(root: string, printed: string): string | null {
  const path = printed.trim();
  return path ? (isAbsolute(path) ? path : resolve(root, path)) : null;
}
