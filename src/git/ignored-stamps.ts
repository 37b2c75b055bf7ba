import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { git } from "./git.js";

/**
 * The files git ignores under a project, each with a stamp that changes whenever the file is written (inode, size,
 * modification and change times: the change time cannot be set back by a process), or `over` when there are more
 * than the bound. Installed dependencies and interpreter caches are not walked (see SKIPPED).
 */
export type IgnoredStamps = { ok: true; stamps: Record<string, string> } | { ok: false; over: number; folders: string[] };

/**
 * Folders not walked: installed dependencies (node_modules and Python environments: what the tests import from there
 * is a gate-definition matter, src/gates/definition.ts, and walking them would cost seconds), git's and yolo's own,
 * and interpreter caches kept out of gates elsewhere. Their cache sub-folders an agent could fill are walked
 * (CACHE_INSIDE_SKIPPED).
 */
const SKIPPED = new Set([".git", ".yolo", "node_modules", ".venv", "venv", ".tox", ".nox", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"]);

/** Caches inside a node_modules folder that JS tools read results from (babel's, vite's, vitest's, a jest cache put there). */
const CACHE_INSIDE_SKIPPED = [".cache", ".vite", ".vitest"];

/** Ignored files stamped at most: past it yolo cannot tell cheaply which an agent wrote, and says so. */
export const MAX_IGNORED_FILES = 20_000;

function realFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The stamps of the project's ignored files (project-relative POSIX paths), walking at most MAX_IGNORED_FILES; and
 * of the untracked files `untrackedToo` picks (caches a tree leaves out as gate byproducts though git does not ignore them).
 */
export async function ignoredStamps(root: string, untrackedToo: (rel: string) => boolean = () => false, limit = MAX_IGNORED_FILES): Promise<IgnoredStamps> {
  const said = await git(root, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", "."]);
  if (said.exitCode !== 0) return { ok: true, stamps: {} };
  const untracked = await git(root, ["ls-files", "-z", "--others", "--exclude-standard", "--", "."]);
  const tops = said.stdout
    .split("\0")
    .filter(Boolean)
    .map((p) => p.replace(/\/$/, ""))
    .concat(untracked.exitCode === 0 ? untracked.stdout.split("\0").filter((p) => p && untrackedToo(p)) : []);
  const stamps: Record<string, string> = {};
  const sizes = new Map<string, number>();
  let count = 0;
  const visit = (rel: string, top: string): void => {
    let st: Stats;
    try {
      st = lstatSync(join(root, rel));
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(join(root, rel))) if (!SKIPPED.has(name)) visit(`${rel}/${name}`, top);
      return;
    }
    count++;
    sizes.set(top, (sizes.get(top) ?? 0) + 1);
    if (count <= limit) stamps[rel] = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  };
  for (const top of tops) {
    const parts = top.split("/");
    if (parts.some((p) => SKIPPED.has(p))) {
      // A node_modules that is a link lies outside the project: nothing there is walked (nor removed later).
      if (parts.at(-1) === "node_modules" && realFolder(join(root, top))) for (const cache of CACHE_INSIDE_SKIPPED) visit(`${top}/${cache}`, top);
      continue;
    }
    visit(top, top);
  }
  if (count <= limit) return { ok: true, stamps };
  const folders = [...sizes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return { ok: false, over: count, folders: folders.map(([f, n]) => `${f} (${n} files)`) };
}
