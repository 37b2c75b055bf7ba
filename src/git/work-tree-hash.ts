import { EMPTY_TREE } from "./repo.js";
import { GitError, gitOk, repositoryFilters } from "./git.js";
import { hasGitEntry } from "./git-entry.js";
import { withStagedWorkTree } from "./staged-work-tree.js";

/**
 * The git tree of the work tree as it is now (committed, staged, unstaged and untracked files under the project,
 * not ignored ones unless named in `ignoredToo`, nor `.yolo/` nor gate byproducts), written from a throwaway index: the user's index, HEAD and refs
 * are untouched. Two calls give the same hash exactly when the project's files are the same, so it names the tree a
 * gate run judged. The repository's filter drivers are read once, fresh, for both of its git commands (its `add` and
 * `write-tree`): three git processes, not four; none outside git, where they could only fail. A caller that knows
 * them already passes `known`: the filter drivers it read for other commands on the same unchanged repository, the
 * repository's index file (only where the staging starts from: a wrong one costs the hashing of every file, not a
 * wrong tree).
 */
export async function workTreeHash(
  root: string,
  own: readonly string[] = [],
  ignoredToo: readonly string[] = [],
  known: { filters?: Promise<[string, string][]>; index?: string } = {},
): Promise<string> {
  if (!hasGitEntry(root)) throw new GitError(`${root} is not in a git repository: it has no work tree to hash`);
  const filters = known.filters ?? repositoryFilters(root);
  return withStagedWorkTree(root, { base: null, own, filters, ignoredToo, index: known.index }, async (staged) => (await staged(["write-tree"])).trim());
}

/** The project-relative paths that differ between two trees workTreeHash wrote (a rename counts as both paths). */
export async function treeChanges(root: string, from: string | null, to: string): Promise<string[]> {
  const out = await gitOk(root, ["diff-tree", "-r", "--name-only", "-z", "--no-renames", "--relative", from ?? EMPTY_TREE, to]);
  return out.split("\0").filter((p) => p !== "");
}
