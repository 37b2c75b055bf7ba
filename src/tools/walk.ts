import fs from "node:fs/promises";
import path from "node:path";
import { isProtectedName } from "./paths.js";
import { isSensitiveName, sensitiveReason } from "./sensitive.js";

/** Directories never listed or searched: yolo's state, git internals, credentials folders, and dependency trees. */
export function isSkippedDir(name: string): boolean {
  return isProtectedName(name) || isSensitiveName(name) || name === "node_modules";
}

/**
 * Yields project-relative (POSIX) paths of the files under `startRel`, depth-first in name order.
 * The start may be a symlink (the caller checked containment); symlinked directories below it are not followed,
 * so a link cannot lead the walk out of the project or into a loop.
 */
export async function* walkFiles(root: string, startRel: string): AsyncGenerator<string> {
  const start = path.join(root, startRel);
  const stat = await fs.stat(start);
  if (!stat.isDirectory()) {
    yield toPosix(startRel);
    return;
  }
  const stack: string[] = [startRel];
  while (stack.length > 0) {
    const dirRel = stack.pop() as string;
    let entries;
    try {
      entries = await fs.readdir(path.join(root, dirRel), { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const rel = dirRel === "" ? entry.name : path.join(dirRel, entry.name);
      if (entry.isDirectory()) {
        if (!isSkippedDir(entry.name) && sensitiveReason(rel) === null) subdirs.push(rel);
      } else if (sensitiveReason(rel) === null) {
        yield toPosix(rel);
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
}

function toPosix(rel: string): string {
  return path.sep === "/" ? rel : rel.split(path.sep).join("/");
}
