import { type BigIntStats, statSync } from "node:fs";

/**
 * What a cache of something read from a file (or folder) checks before reusing it: the file's identity, mode, size
 * and times. The change time moves with every write, rename or chmod and cannot be set back (an mtime can), so a file
 * cannot be changed behind a stamp, by a model's command either; only a change within the file system's timestamp
 * tick of the read could, which `settled` rules out before anything is cached (git's racy-index rule).
 */
export interface FileStamp {
  key: string;
  /** When the inode last changed. */
  changedNs: bigint;
  /** Whole-second timestamps: a file system (FAT, HFS+, small-inode ext) that keeps only seconds. */
  coarse: boolean;
  /** A regular file (not a folder, a device…). */
  isFile: boolean;
}

/** The stamp of `path` (stat follows a symlink to its target), or null when it does not exist or cannot be read. */
export function fileStamp(path: string): FileStamp | null {
  let stat: BigIntStats | undefined;
  try {
    stat = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!stat) return null;
  const coarse = stat.ctimeNs % 1_000_000_000n === 0n;
  return {
    key: `${stat.dev}:${stat.ino}:${stat.mode}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
    changedNs: stat.ctimeNs,
    coarse,
    isFile: stat.isFile(),
  };
}

/** The time to compare stamps with (`settled`), taken just before the reads. */
export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** Whether the file last changed longer before `startedNs` than its file system's timestamp tick (safe to cache). */
export function settled(stamp: FileStamp, startedNs: bigint): boolean {
  return stamp.changedNs < startedNs - (stamp.coarse ? 2_100_000_000n : 100_000_000n);
}
