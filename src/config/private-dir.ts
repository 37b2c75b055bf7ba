import { lstatSync, mkdirSync } from "node:fs";

/**
 * `dir` when it is safe to keep transpiled or validated config in: a real directory (not a symlink), owned by this
 * user and writable by no one else, created private if missing. Otherwise null (load without a cache): whoever can
 * write there could make yolo run code or settings of theirs in place of the config file.
 */
export function privateCacheDir(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || (stat.mode & 0o022) !== 0) return null;
    if (typeof process.getuid === "function" && stat.uid !== process.getuid()) return null;
    return dir;
  } catch {
    return null;
  }
}
