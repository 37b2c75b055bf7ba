import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot, packageVersion } from "../package-root.js";
import type { EvalTask, TestsMode } from "./types.js";

/**
 * What a task's stored result was measured against, part by part (each a hash): a result is reused only while every
 * part is unchanged, and a changed part is named ("requirement", "targets", "prompts") when the task runs again.
 */
export type TaskDefinition = Record<string, string>;

/** What a task run is measured with besides the task: the model, and the prompts and config every leg gets. */
export interface RunSetting {
  model: { label: string; name: string | null };
  /** yolo's version with its shipped agent files and the project's own (see promptsVersion). */
  prompts: string;
  /** The trusted project config the eval pins every leg to. */
  config: string;
  /** Whether the agents see the commit's tests: a result from the other mode is not reused. */
  tests: TestsMode;
}

/**
 * The judging rule's version: raised when what the judge restores or counts changes, so results judged by an older
 * rule run again. 2: the judged tree is the task's tree with only the agents' changes to its source files (and new
 * files) taken over, every other difference restored and counted. 3: a mutant's targets are split into those the agents
 * saw and those hidden from them (counted apart), and a new file is taken over only when the task's changes use it.
 */
export const JUDGE_VERSION = 3;

const hash = (value: unknown): string =>
  createHash("sha256")
    .update(JSON.stringify(value ?? null))
    .digest("hex")
    .slice(0, 16);

/** The definition of `task` run under `setting`, one hash per part a reader can name. */
export function taskDefinition(task: EvalTask, setting: RunSetting): TaskDefinition {
  return {
    requirement: hash(task.requirement),
    "commit and parent": hash([task.commit, task.parent]),
    "test files": hash(task.testFiles),
    "source files": hash(task.sourceFiles),
    gates: hash(task.gates),
    targets: hash(task.targets),
    "visible targets": hash(task.visibleTargets),
    guards: hash(task.guards),
    "mutation or canary": hash([task.mutation, task.canary]),
    model: hash(setting.model),
    prompts: hash(setting.prompts),
    config: hash(setting.config),
    tests: hash(setting.tests),
    judge: hash(JUDGE_VERSION),
  };
}

/** The parts of `now` that differ from `before` (a part `before` lacks counts as changed); [] when none. */
export function changedParts(before: TaskDefinition, now: TaskDefinition): string[] {
  return Object.keys(now).filter((k) => before[k] !== now[k]);
}

/**
 * The prompts' version: yolo's version (its built-in prompts ship with it) and the text of every agent file the runs
 * read, yolo's own and the project's `agentsDir`, so an edited agent file makes the tasks run again.
 */
export function promptsVersion(projectAgentsDir: string): string {
  const files = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith(".md"))
          .sort()
          .map((f) => [f, readFileSync(join(dir, f), "utf8")])
      : [];
  return hash({ version: packageVersion(), shipped: files(join(packageRoot(), "agents")), project: files(projectAgentsDir) });
}
