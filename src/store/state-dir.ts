import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ThreadError, YoloError } from "../errors.js";

/** Name of yolo's state directory inside a project root. */
export const STATE_DIR_NAME = ".yolo";

/** `<root>/.yolo`, without touching the disk. */
export function stateDirPath(root: string): string {
  return join(root, STATE_DIR_NAME);
}

/**
 * Creates `<root>/.yolo/` with `logs/`, `threads/` and a `.gitignore` of `*`,
 * so yolo's own files never show up in the user's `git status`. Returns the directory.
 */
export function ensureStateDir(root: string): string {
  return ensureArtifactsDir(stateDirPath(root));
}

/** Creates an artifacts folder (`logs/`, `threads/`, a `.gitignore` of `*`) wherever it is configured. Returns it. */
export function ensureArtifactsDir(dir: string): string {
  withStorageError(dir, () => {
    mkdirSync(join(dir, "logs"), { recursive: true });
    mkdirSync(join(dir, "threads"), { recursive: true });
    writeGitignore(join(dir, ".gitignore"));
  });
  return dir;
}

/** `<root>/.yolo/threads/<id>`, created if missing. Rejects ids that could escape the directory. */
export function threadDir(root: string, threadId: string): string {
  return threadArtifactsDir(stateDirPath(root), threadId);
}

/** `<artifacts>/threads/<id>`, created if missing. Rejects ids that could escape the directory. */
export function threadArtifactsDir(artifactsDir: string, threadId: string): string {
  const dir = threadArtifactsPath(artifactsDir, threadId);
  withStorageError(dir, () => mkdirSync(dir, { recursive: true }));
  return dir;
}

/** `<artifacts>/threads/<id>` without touching the disk (for paths that are only named). Rejects unsafe ids. */
export function threadArtifactsPath(artifactsDir: string, threadId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(threadId)) {
    throw new ThreadError(`"${threadId}" is not a valid thread id.`, { kind: "invalid-thread-id", thread: threadId });
  }
  return join(artifactsDir, "threads", threadId);
}

// "wx": a .gitignore the user already put there is theirs; never overwrite it.
function writeGitignore(file: string): void {
  try {
    writeFileSync(file, "*\n", { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/** Runs a filesystem action, turning its failure into a "storage" YoloError that names the path. */
export function withStorageError<T>(path: string, action: () => T): T {
  try {
    return action();
  } catch (cause) {
    if (cause instanceof YoloError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new YoloError(
      "storage",
      `Cannot write yolo's state at ${path} (${reason}). ` + "Make sure the project directory is writable by you and the disk is not full, then run again.",
      { cause },
    );
  }
}
