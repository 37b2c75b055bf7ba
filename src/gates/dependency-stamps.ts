import { createHash } from "node:crypto";
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/** Folders of installed dependencies in the project root: what the tests import but no diff shows (git ignores them). */
export const DEPENDENCY_DIRS = ["node_modules", ".venv", "venv", "vendor"];

/** Files stamped at most, over all dependency folders; past it the remaining packages are not compared. */
const MAX_FILES = 60_000;

/**
 * A stamp of each installed package (`node_modules/<name>`, `node_modules/@scope/<name>`, `.venv/lib`…): a hash of
 * its files' paths, sizes and modification times. Cheap (no file is read) and moved by any write, so an agent's
 * command that edits an installed test helper changes its package's stamp. Caches the tools keep there
 * (`node_modules/.cache`, `.vite`…) and npm's own bookkeeping (dot-entries) are left out.
 */
export function dependencyStamps(root: string): Record<string, string> {
  const stamps: Record<string, string> = {};
  const budget = { files: MAX_FILES };
  for (const dir of DEPENDENCY_DIRS) {
    for (const pkg of packagesIn(root, dir)) {
      if (budget.files <= 0) return stamps;
      const hash = createHash("sha256");
      stampTree(path.join(root, pkg), "", hash, budget);
      stamps[pkg] = hash.digest("hex").slice(0, 16);
    }
  }
  return stamps;
}

// The units a dependency folder is stamped by: each package (scoped ones one level down), or each top entry.
function packagesIn(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of entries(path.join(root, dir))) {
    if (entry.name.startsWith(".")) continue;
    const rel = `${dir}/${entry.name}`;
    if (dir === "node_modules" && entry.name.startsWith("@") && entry.isDirectory()) {
      for (const scoped of entries(path.join(root, rel))) out.push(`${rel}/${scoped.name}`);
    } else out.push(rel);
  }
  return out;
}

// Adds each file's path, size and modification time under `abs` to `hash`, in name order; links are stamped, not followed.
function stampTree(abs: string, rel: string, hash: ReturnType<typeof createHash>, budget: { files: number }): void {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(abs);
  } catch {
    return;
  }
  if (--budget.files < 0) return;
  // A folder by its name only: its time moves when a runner adds a cache inside it (Python's __pycache__).
  if (stat.isDirectory()) hash.update(`${rel}/\n`);
  else hash.update(`${rel}\0${stat.size}\0${stat.mtimeMs}\0${stat.mode}\n`);
  if (!stat.isDirectory()) return;
  for (const entry of entries(abs)) {
    if (entry.name === "__pycache__" || (rel === "" && entry.name === ".cache")) continue;
    stampTree(path.join(abs, entry.name), rel ? `${rel}/${entry.name}` : entry.name, hash, budget);
  }
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** What changed among the installed packages between two stamps, in words. */
export function dependencyChanges(before: Record<string, string> | undefined, now: Record<string, string> | undefined): string[] {
  if (!before || !now) return [];
  const changes: string[] = [];
  for (const [pkg, stamp] of Object.entries(before)) {
    if (!(pkg in now)) changes.push(`installed dependency ${pkg} was removed`);
    else if (now[pkg] !== stamp) changes.push(`installed dependency ${pkg} was changed`);
  }
  for (const pkg of Object.keys(now)) if (!(pkg in before)) changes.push(`installed dependency ${pkg} was added`);
  return changes;
}
