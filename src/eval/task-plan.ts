import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isGateFile } from "./gate-files.js";
import { readRunFacts, type RunFacts } from "./run-events.js";
import { changedParts, type TaskDefinition } from "./task-definition.js";
import { writeJsonAtomic } from "./task-file.js";
import type { TaskResult } from "./types.js";

/** The files a task run by one model keeps beside its worktree `dir`. */
export interface TaskFiles {
  dir: string;
  result: string;
  events: string;
  stderr: string;
  start: string;
  /** What the task's run is measured against (task-definition.ts), written when it starts afresh. */
  definition: string;
  /** The pid of the leg running now (removed when it ends): a leg a killed eval left is stopped by the next. */
  pid: string;
}

export function taskFiles(base: string, taskId: string): TaskFiles {
  const dir = join(base, taskId);
  return {
    dir,
    result: `${dir}.result.json`,
    events: `${dir}.events.jsonl`,
    stderr: `${dir}.stderr.log`,
    start: `${dir}.start`,
    definition: `${dir}.task.json`,
    pid: `${dir}.pid`,
  };
}

/**
 * What to do with a task: reuse its judged result, start it afresh, resume its thread (a leg killed, or ended by a
 * provider error or an interrupt: all resumable), or only judge it (its run ended, the eval died while judging).
 * `why` says why a task that ran before runs again.
 */
export type TaskPlan =
  | { kind: "reuse"; result: TaskResult }
  | { kind: "fresh"; why: string | null }
  | { kind: "resume"; thread: string; facts: RunFacts; why: string | null }
  | { kind: "judge"; facts: RunFacts };

/** Exit codes after which the thread's tree is not judged: nothing ran, the provider failed, yolo crashed, it was stopped. */
export const NOT_JUDGED = new Set([2, 5, 70, 130]);
/** Of those, the ends a thread continues from (`yolo resume`); after the others the task starts again from scratch. */
const RESUMABLE = new Set([5, 130]);

export function planTask(files: TaskFiles, definition: TaskDefinition): TaskPlan {
  const ranBefore = [files.result, files.events, files.start].some((f) => existsSync(f));
  if (!ranBefore) return { kind: "fresh", why: null };
  const before = readDefinition(files.definition);
  const changed = before ? changedParts(before, definition) : [];
  if (!before || changed.length) {
    const what = before ? changed.join(", ") : "no record of what it was run with";
    return { kind: "fresh", why: `task changed since its last result: ${what}` };
  }
  if (existsSync(files.result)) return { kind: "reuse", result: JSON.parse(readFileSync(files.result, "utf8")) as TaskResult };
  const facts = readRunFacts(files.events, isGateFile);
  if (!facts.thread || !existsSync(join(files.dir, ".git"))) return { kind: "fresh", why: null };
  if (!facts.completed) return { kind: "resume", thread: facts.thread, facts, why: null };
  const { exitCode, reason } = facts.completed;
  if (!NOT_JUDGED.has(exitCode)) return { kind: "judge", facts };
  const why = `its last run ended with exit ${exitCode} (${reason})`;
  return RESUMABLE.has(exitCode) ? { kind: "resume", thread: facts.thread, facts, why } : { kind: "fresh", why };
}

/** Clears what an earlier run of the task left (its worktree is made again) and records what this one runs with. */
export function startAfresh(files: TaskFiles, definition: TaskDefinition): void {
  for (const f of [files.result, files.events, files.stderr, files.start]) rmSync(f, { force: true });
  writeJsonAtomic(files.definition, definition);
}

function readDefinition(file: string): TaskDefinition | null {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return value && typeof value === "object" ? (value as TaskDefinition) : null;
  } catch {
    return null;
  }
}
