import { statSync } from "node:fs";
import { YoloError } from "../errors.js";

/** The file each SQLite database was opened as (device and inode), by path. */
const opened = new Map<string, { dev: number; ino: number }>();

/** Remembers which file the database at `path` is, right after it was opened. */
export function rememberDatabaseFile(path: string): void {
  try {
    const { dev, ino } = statSync(path);
    opened.set(path, { dev, ino });
  } catch {
    opened.delete(path);
  }
}

/**
 * Throws a "storage" error when the SQLite file a run opened is gone or is another file now (`rm -rf .yolo` during a
 * run): SQLite goes on writing to the removed file, so the run would end "passed" with every checkpoint lost.
 */
export function assertDatabaseFileKept(path: string): void {
  const was = opened.get(path);
  if (!was) return;
  let now: { dev: number; ino: number } | null = null;
  try {
    now = statSync(path);
  } catch {
    now = null;
  }
  if (now && now.dev === was.dev && now.ino === was.ino) return;
  throw new YoloError(
    "storage",
    `The database ${path} was ${now ? "replaced" : "removed"} while the run was going on (its folder deleted, say): this run's checkpoints are lost, so it cannot be reported as passed or resumed. ` +
      "The changes it made are still in the working tree; check them, then start a new run.",
  );
}
