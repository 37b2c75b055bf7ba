import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Replaces a file's content all at once: a temp file in the same folder is written and renamed over the target,
 * so a crash or a concurrent reader never sees half a file. Keeps the old file's permission bits (executable scripts).
 */
export async function writeFileAtomic(abs: string, content: string, mode?: number): Promise<void> {
  const dir = path.dirname(abs);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(abs)}.yolo-tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await fs.writeFile(temp, content, { encoding: "utf8", flag: "wx" });
    if (mode !== undefined) await fs.chmod(temp, mode & 0o7777);
    await fs.rename(temp, abs);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
