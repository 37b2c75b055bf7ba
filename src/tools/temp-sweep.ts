import fs from "node:fs/promises";
import path from "node:path";
import { TEMP_MARK } from "./atomic-write.js";

/** Folders never walked: version control, dependencies, yolo's own state. */
const SKIPPED = new Set([".git", "node_modules", ".yolo"]);
/** A walk stops after this many entries, so a huge tree costs a bounded time at start. */
const MAX_ENTRIES = 50_000;

/**
 * Removes the temp files of writes that a killed process left half-done (written, never renamed over their
 * target: the target itself is intact). Only files whose writer is gone are removed — another yolo process may be
 * writing in the same working copy. Returns the removed paths, relative to `root`.
 */
export async function sweepInterruptedWrites(root: string, skip: string[] = []): Promise<string[]> {
  const skipped = new Set(skip.map((p) => path.resolve(p)));
  const removed: string[] = [];
  const pending = [root];
  let seen = 0;
  while (pending.length && seen < MAX_ENTRIES) {
    const dir = pending.pop()!;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) break;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name) && !skipped.has(full)) pending.push(full);
      } else if (entry.isFile() && isOrphanedTemp(entry.name)) {
        await fs.rm(full, { force: true });
        removed.push(path.relative(root, full));
      }
    }
  }
  return removed;
}

function isOrphanedTemp(name: string): boolean {
  const at = name.lastIndexOf(TEMP_MARK);
  if (!name.startsWith(".") || at < 0) return false;
  const pid = Number(/^(\d+)-[0-9a-f]+$/.exec(name.slice(at + TEMP_MARK.length))?.[1]);
  return Number.isInteger(pid) && pid > 0 && !processExists(pid);
}

function processExists(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
