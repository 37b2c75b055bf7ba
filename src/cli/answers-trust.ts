import { readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { ConfigError } from "../errors.js";
import { isInside, realOrNull } from "../fs/real-path.js";
import { git } from "../git/git.js";

/**
 * Refuses a resume's `--answers` file that lies inside the project unless it is exactly what it was when the thread
 * started (its start commit, or the snapshot of a dirty tree): the thread's agents could write anywhere in the
 * project, and an answer file they wrote would approve their own gate change or accept their red target as a known
 * failure. A file outside the project is read as it is; so is any file for a new thread, which no agent of it has
 * touched yet. Exit 2 (a ConfigError): nothing is resumed.
 */
export async function checkAnswersFile(given: string, cwd: string, root: string, start: string | null): Promise<void> {
  const file = realOrNull(resolve(cwd, given));
  const top = realOrNull(root);
  if (!file || !top || !isInside(file, top)) return;
  const rel = relative(top, file).split(sep).join("/");
  const then = start ? await git(top, ["show", `${start}:./${rel}`]) : null;
  if (then && then.exitCode === 0 && then.stdout === readFileSync(file, "utf8")) return;
  const why = !start
    ? "the thread recorded no start in git, so yolo cannot tell who wrote it"
    : then?.exitCode === 0
      ? "it changed since the thread started"
      : "it was not there (or git ignores it) when the thread started";
  throw new ConfigError(
    `--answers ${given} is inside the project and ${why}: the thread's agents could have written it, so its answers are not used and nothing was resumed. ` +
      "Put the answers file outside the project (for example in /tmp or your home folder) and resume again.",
  );
}
