import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { EvalModel } from "./run-eval.js";
import { modelSlug } from "./task-run.js";
import { writeJsonAtomic } from "./task-file.js";
import type { EvalTask } from "./types.js";
import { removeWorktree } from "./worktree.js";

/**
 * `--record` / `--replay` for an eval: every task's run records its model session with `yolo run --record` (the
 * project's own session recording, src/llm/recording.ts) into `<dir>/<model>/<task>.jsonl`, and a later eval
 * replays them with `yolo run --replay`, offline: a regression test for prompts and agent files.
 */

/** The folder's manifest: which models were recorded (their labels and `--model` names), so a replay needs no flags. */
const MANIFEST = "eval-session.json";
const MANIFEST_VERSION = 1;

export type SessionMode = { kind: "record"; dir: string } | { kind: "replay"; dir: string };

/** The session file of one task run by one model. */
export function sessionFile(dir: string, modelLabel: string, taskId: string): string {
  return join(dir, modelSlug(modelLabel), `${taskId}.jsonl`);
}

/** The flags a task's run (and its resume) gets: `--record <file>` (appended to on resume) or `--replay <file>`. */
export function sessionArgs(mode: SessionMode | null, modelLabel: string, taskId: string): string[] {
  if (!mode) return [];
  return [`--${mode.kind}`, sessionFile(mode.dir, modelLabel, taskId)];
}

/** Writes the manifest of a recording: the eval's models, so `--replay <dir>` alone replays them all. */
export function writeSessionManifest(dir: string, models: EvalModel[]): void {
  writeJsonAtomic(join(dir, MANIFEST), { v: MANIFEST_VERSION, models });
}

/**
 * The task runs (`<model>: <task>`) of `models` × `tasks` (those `runs` keeps: a shard's share) with no session in
 * `dir`: a replay cannot ask a model instead.
 */
export function missingSessions(dir: string, tasks: EvalTask[], models: EvalModel[], runs: (t: EvalTask, m: EvalModel) => boolean = () => true): string[] {
  return models.flatMap((m) => tasks.filter((t) => runs(t, m) && !existsSync(sessionFile(dir, m.label, t.id))).map((t) => `${m.label}: ${t.id}`));
}

/** The models a recording names in its manifest, or why they cannot be read. */
export function recordedModels(dir: string): { models: EvalModel[] } | { error: string } {
  const file = join(dir, MANIFEST);
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as { v?: number; models?: EvalModel[] };
    if (value.v !== MANIFEST_VERSION || !Array.isArray(value.models) || !value.models.every((m) => typeof m?.label === "string")) {
      throw new Error(`not a version ${MANIFEST_VERSION} manifest`);
    }
    return { models: value.models.map((m) => ({ label: m.label, name: typeof m.name === "string" ? m.name : null })) };
  } catch (error) {
    return { error: `cannot read ${file} (${(error as Error).message})` };
  }
}

/**
 * Empties a replay's run folder (its task worktrees unregistered first): a replay always runs again, so a change to
 * a prompt or an agent file is measured, never answered from an earlier replay's results.
 */
export async function clearRuns(root: string, runDir: string): Promise<void> {
  if (!existsSync(runDir)) return;
  for (const model of readdirSync(runDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const task of readdirSync(join(runDir, model.name), { withFileTypes: true }).filter((e) => e.isDirectory())) {
      await removeWorktree(root, join(runDir, model.name, task.name));
    }
  }
  rmSync(runDir, { recursive: true, force: true });
}
