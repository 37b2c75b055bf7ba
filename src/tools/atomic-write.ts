import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** Temp files are named `.<target>.yolo-tmp-<pid>-<random>`; see sweepInterruptedWrites. */
export const TEMP_MARK = ".yolo-tmp-";

/**
 * Replaces a file's content all at once: a temp file in the same folder is written and renamed over the target,
 * so a crash or a concurrent reader never sees half a file. Keeps the old file's permission bits (executable scripts).
 * With `root`, the folder's real path is checked again just before the rename (a symlink swapped in meanwhile).
 */
export async function writeFileAtomic(abs: string, content: string, mode?: number, root?: string): Promise<void> {
  const dir = path.dirname(abs);
  if (root !== undefined) await assertStillInside(root, dir);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(abs)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await fs.writeFile(temp, content, { encoding: "utf8", flag: "wx" });
    if (mode !== undefined) await fs.chmod(temp, mode & 0o7777);
    // A folder swapped for a symlink between the path check and now must not carry the file out of the project.
    if (root !== undefined) await assertStillInside(root, dir);
    await fs.rename(temp, abs);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** Thrown when the target folder's real location left the project after the path was checked. */
export class EscapedRootError extends Error {
  readonly code = "EESCAPE";
}

/** Checks the real path of `dir`, or of its deepest existing ancestor when it does not exist yet, is inside `root`. */
export async function assertStillInside(root: string, dir: string): Promise<void> {
  let existing = dir;
  for (;;) {
    try {
      existing = await fs.realpath(existing);
      break;
    } catch (error) {
      const parent = path.dirname(existing);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === existing) throw error;
      existing = parent;
    }
  }
  const rel = path.relative(await fs.realpath(root), existing);
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new EscapedRootError("the target folder now resolves outside the project root");
  }
}
