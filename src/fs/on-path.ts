import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/** Whether `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The first executable `name` in an absolute folder of `pathVar`, or null. Relative entries are skipped: they would
 * be read from yolo's working folder, not from the folder the program later runs in.
 */
export function findOnPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? "").split(delimiter)) {
    if (dir && isAbsolute(dir) && isExecutableFile(join(dir, name))) return join(dir, name);
  }
  return null;
}
