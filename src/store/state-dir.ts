import { lstatSync, mkdirSync, readlinkSync, writeFileSync } from "node:fs";
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
  refuseLinks([dir, join(dir, "logs"), join(dir, "threads"), join(dir, ".gitignore")]);
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
  refuseLinks([artifactsDir, join(artifactsDir, "threads"), dir]);
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

/**
 * Refuses yolo's own folder (or a file or folder yolo keeps in it) when it is a symbolic link: a committed `.yolo`
 * link, or `.yolo/yolo.db -> other.sqlite`, would make yolo write its database, logs and transcripts wherever the
 * link points (outside the project, or into another application's database). Missing paths are fine.
 */
export function refuseLinks(paths: readonly string[]): void {
  for (const path of paths) {
    let link = false;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch {
      continue;
    }
    if (link) {
      throw new YoloError(
        "storage",
        `${path} is a symbolic link (to ${readlinkOrUnknown(path)}); yolo keeps its state only in a real folder and real files of its own, so nothing was written. ` +
          "Remove the link (it may have come with the repository or from a command), then run again; to keep yolo's state elsewhere, set it in the user config.",
      );
    }
  }
}

function readlinkOrUnknown(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return "an unknown target";
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
      `Cannot write yolo's state at ${path} (${reason}). Make sure the project directory is writable by you and the disk is not full, then run again.`,
      { cause },
    );
  }
}
