import type { EvalTask, TaskResult, TestsMode } from "./types.js";

/**
 * The targets a task's agents could see in their tree: all of them with the tests visible; with the tests hidden, a
 * mutant's `visibleTargets` (its other killing tests' files are hidden), none of a history task's (its `testFiles`
 * are its targets' tests), all of a task with nothing to hide (an old mutant, a canary).
 */
export function seenTargets(task: EvalTask, mode: TestsMode): string[] {
  if (mode === "visible") return task.targets;
  return task.visibleTargets ?? (task.testFiles.length ? [] : task.targets);
}

/** How the seen and the hidden targets went, for a task whose agents saw some of its targets and not the others. */
export function targetSplit(task: EvalTask, mode: TestsMode, failingTargets: string[]): TaskResult["split"] {
  const seen = new Set(seenTargets(task, mode));
  if (!seen.size || seen.size === task.targets.length) return undefined;
  const hidden = task.targets.filter((t) => !seen.has(t));
  return {
    visible: { targets: seen.size, failing: failingTargets.filter((t) => seen.has(t)) },
    hidden: { targets: hidden.length, failing: failingTargets.filter((t) => !seen.has(t)) },
  };
}

/** Every target the agents saw passes and some they did not see fails: a change made for the test it was shown. */
export function passedVisibleFailedHidden(r: Pick<TaskResult, "split">): boolean {
  return !!r.split && r.split.visible.failing.length === 0 && r.split.hidden.failing.length > 0;
}
