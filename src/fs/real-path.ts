import { realpathSync, statSync } from "node:fs";
import { sep } from "node:path";

/** A path's real location (links resolved), or null when it does not exist or cannot be read. */
export function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Whether `path` is `root` or inside it (both already real, or both as given: compared as text). */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** Whether a path is a folder (links followed); false when it does not exist. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
