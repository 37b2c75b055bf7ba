import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { isAbsolute, join } from "node:path";
import { ThreadError } from "../errors.js";
import type { ThreadRow } from "../store/thread-store.js";

/** An unknown thread id where there is no database at all: the same words for every command that takes one. */
export function noDatabaseYet(threadId: string, database: string): ThreadError {
  return new ThreadError(`No thread ${threadId}: this project has no yolo database yet (${database}). Start a run with: yolo run "what to build"`);
}

/**
 * Where an artifact a command wants to read (a gate log, a transcript) is, or why it is not here: artifacts are
 * files written by the process that ran the step, in its artifacts folder on its machine.
 */
export function locateArtifact(root: string, path: string, row: ThreadRow | null): { file: string } | { missing: string } {
  const file = isAbsolute(path) ? path : join(root, path);
  if (existsSync(file)) return { file };
  const elsewhere = row?.host && row.host !== hostname();
  const where = elsewhere ? `on ${row!.host}` : row && row.root !== root ? `in ${row.root}` : "here";
  const folder = row?.artifacts ? ` (artifacts folder ${row.artifacts})` : "";
  return {
    missing:
      `${path} is not on this machine: the thread last ran ${where}${folder}. ` +
      "Share artifacts between machines with storage.artifacts / YOLO_ARTIFACTS_DIR on a shared folder.",
  };
}
