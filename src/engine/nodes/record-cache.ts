import { readRecord } from "../../gates/baseline-record.js";
import { fileStamp } from "../../fs/file-stamp.js";

/**
 * A record file as last parsed, by path, with the stat that identifies that version. Records are written once and
 * atomically (temp file, then rename: a new inode), so an unchanged inode, size and mtime is the same content.
 */
const parsed = new Map<string, { stamp: string; value: unknown }>();

/**
 * `readRecord`, parsed once per version of the file: every tea step re-reads the thread's gate baseline (all its
 * tests) and approvals, which do not change during a run. A stat says whether the file is still the one parsed.
 */
export async function readRecordOnce<T>(file: string): Promise<T | null> {
  const before = stampOf(file);
  if (before === null) {
    parsed.delete(file);
    return null;
  }
  const hit = parsed.get(file);
  if (hit?.stamp === before) return hit.value as T;
  const value = await readRecord<T>(file);
  // Kept only if the file did not change while it was read (a rename in between gives another stamp).
  if (value !== null && stampOf(file) === before) parsed.set(file, { stamp: before, value });
  else parsed.delete(file);
  return value;
}

function stampOf(file: string): string | null {
  const stamp = fileStamp(file);
  return stamp?.isFile ? stamp.key : null;
}
