import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError, YoloError } from "../errors.js";

/** Errors that mean the path itself cannot take a file: the user picks another (exit 2). */
const BAD_PATH_CODES = new Set(["ENOENT", "ENOTDIR", "EISDIR", "EACCES", "EPERM", "EROFS", "ENAMETOOLONG", "EEXIST", "ELOOP", "EINVAL"]);

/** Plain words for what the path's problem is. */
const WHY: Record<string, string> = {
  ENOENT: "its folder does not exist and cannot be created there",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "a part of the path is a file, not a folder",
  EISDIR: "it is a folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
};

/**
 * Writes a command's output file, creating missing folders. A path that cannot take the file (a folder that
 * cannot be created, a read-only file or file system, a directory) is a usage error naming the path (exit 2);
 * any other failure to write (a full disk, an I/O error) is exit 70 naming the path. Never a stack trace.
 */
export function writeOutputFile(file: string, text: string, flag = "--output"): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const why = WHY[code] ?? (error as Error).message.replace(/^[A-Z]+: /, "");
    if (BAD_PATH_CODES.has(code))
      throw new ConfigError(`Cannot write ${flag} ${file}: ${why}. Nothing was written; choose a path you can write to.`, [], { cause: error });
    throw new YoloError("io", `Could not write ${flag} ${file}: ${why}. The file may be incomplete; check the disk and run the command again.`, {
      cause: error,
    });
  }
}
