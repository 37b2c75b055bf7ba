import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "..", "..");
// What the sandbox shows empty (src/exec/sandbox.ts, sandbox-walls.ts): its own /tmp, the home folders, /run.
const HIDDEN = ["/tmp", os.tmpdir(), "/home", "/root", "/run", "/var/run", os.homedir()];

/**
 * The repository's node_modules, as the generated test projects link to it so the real runners run in the sandbox.
 * From a checkout where the sandbox shows nothing (under /tmp or a home folder), a link into it points at nothing
 * inside the sandbox, so the projects link to a hard-linked copy under /var/tmp instead: made once per checkout and
 * lockfile (about 2 s), shared by the test files, taken over whole by a rename.
 */
export function repoModules(): string {
  const source = fs.realpathSync(path.join(REPO, "node_modules"));
  if (!HIDDEN.some((dir) => source === dir || source.startsWith(`${dir}/`))) return source;
  const key = createHash("sha256")
    .update(source)
    .update(fs.readFileSync(path.join(REPO, "package-lock.json")))
    .digest("hex")
    .slice(0, 16);
  // Named node_modules itself: Node finds a package's own dependencies by walking up to a folder of that name.
  const folder = path.join("/var/tmp", `yolo-test-modules-${key}`);
  const mirror = path.join(folder, "node_modules");
  if (fs.existsSync(mirror)) return mirror;
  const temp = `${folder}.${process.pid}`;
  fs.mkdirSync(temp, { recursive: true });
  execFileSync("cp", ["-al", source, path.join(temp, "node_modules")]);
  try {
    fs.renameSync(temp, folder);
  } catch {
    // Another test file made it first.
    fs.rmSync(temp, { recursive: true, force: true });
  }
  return mirror;
}
