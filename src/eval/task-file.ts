import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError } from "../errors.js";
import { TASK_VERSION, type EvalTask } from "./types.js";

/** Records as JSON Lines: one task (or discard) a line, so a task set reads well in a diff and edits by line. */
export function toJsonl(records: unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join("");
}

/** Writes a JSON record atomically (a temp file, then rename): a kill mid-write leaves the old one or none. */
export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value));
  renameSync(tmp, file);
}

/**
 * Reads a task file (written by `--from-history`, maybe edited by hand since). Every bad line is named with its
 * number and what is wrong, all at once; nothing runs from a file with one.
 */
export function readTasks(file: string): EvalTask[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read the task file ${file}: ${(error as Error).message}.`);
  }
  const tasks: EvalTask[] = [];
  const problems: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const problem = checkTask(line, tasks);
    if (typeof problem === "string") problems.push(`line ${i + 1}: ${problem}`);
  });
  if (problems.length) throw new ConfigError(`The task file ${file} has bad lines; fix or remove them:`, problems);
  if (!tasks.length) throw new ConfigError(`The task file ${file} has no tasks.`);
  return tasks;
}

const STRING_LISTS = ["testFiles", "sourceFiles", "targets", "guards"] as const;

// One line: a problem in words, or the task pushed onto `into`.
function checkTask(line: string, into: EvalTask[]): string | null {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (value === null || typeof value !== "object") return "not a JSON object";
  if (value.v !== TASK_VERSION) return `format version ${JSON.stringify(value.v)}, expected ${TASK_VERSION}`;
  for (const key of ["id", "commit", "parent", "requirement"] as const) {
    if (typeof value[key] !== "string" || !(value[key] as string).trim()) return `"${key}" must be a non-empty string`;
  }
  if (!/^[A-Za-z0-9._-]+$/.test(value.id as string)) return `"id" ${JSON.stringify(value.id)} may use only letters, digits, ".", "_" and "-"`;
  if (into.some((t) => t.id === value.id)) return `"id" ${JSON.stringify(value.id)} is used by an earlier line`;
  for (const key of STRING_LISTS) {
    if (!Array.isArray(value[key]) || !(value[key] as unknown[]).every((x) => typeof x === "string")) return `"${key}" must be a list of strings`;
  }
  const outside = [...(value.testFiles as string[]), ...(value.sourceFiles as string[])].find((f) => !isInside(f));
  if (outside !== undefined) return `${JSON.stringify(outside)} is not a path inside the project`;
  if ((value.targets as string[]).length === 0) return `"targets" is empty: a task needs at least one test that must come to pass`;
  if (!Array.isArray(value.gates) || !value.gates.every(isGate)) return `"gates" must be a list of { name, command, required, timeoutS }`;
  const visible = visibleTargetsProblem(value.visibleTargets, value.targets as string[]);
  if (visible) return visible;
  const canary = canaryProblem(value.canary);
  if (canary) return canary;
  into.push(value as unknown as EvalTask);
  return null;
}

function isGate(g: unknown): boolean {
  const x = g as Record<string, unknown>;
  return !!x && typeof x.name === "string" && typeof x.command === "string" && typeof x.required === "boolean" && typeof x.timeoutS === "number";
}

// A project-relative path with no way out of the worktree: yolo deletes and restores these files.
function isInside(file: string): boolean {
  return file !== "" && !file.startsWith("/") && !file.split("/").some((part) => part === ".." || part === "" || part === ".git");
}

// A canary's fields: `original` is handed to git as a revision, so it must be a full commit id, nothing else.
function canaryProblem(canary: unknown): string | null {
  if (canary === undefined) return null;
  const c = canary as Record<string, unknown> | null;
  if (!c || typeof c !== "object" || typeof c.original !== "string" || !/^[0-9a-f]{40}$/.test(c.original)) {
    return `"canary" must be { original: <full commit id>, description }`;
  }
  return typeof c.description === "string" ? null : `"canary.description" must be a string`;
}

// A mutant's visible targets: some of its targets (the requirement names them), never a test it is not judged by.
function visibleTargetsProblem(visible: unknown, targets: string[]): string | null {
  if (visible === undefined) return null;
  if (!Array.isArray(visible) || !visible.every((x) => typeof x === "string")) return `"visibleTargets" must be a list of strings`;
  const stray = visible.find((t) => !targets.includes(t));
  return stray === undefined ? null : `"visibleTargets" names ${JSON.stringify(stray)}, which is not one of its "targets"`;
}
