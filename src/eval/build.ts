import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { defaultGates } from "../gates/detect.js";
import { type CandidateCommit, candidateCommits } from "./commits.js";
import { runSuite, type SuiteRun, type SuiteSettings, targetsAndGuards } from "./suite.js";
import { TASK_VERSION, type DiscardedCandidate, type EvalTask } from "./types.js";
import { addWorktree, checkoutClean, removeWorktree, takeFilesFrom } from "./worktree.js";

export interface BuildOptions {
  root: string;
  range: string;
  max: number | null;
  /** The configured gates (null: detected in each checkout, as a run would). */
  gates: GateConfig[] | null;
  /** A folder of yolo's own for the scratch worktrees and gate logs (under `.yolo/eval/`). */
  workDir: string;
  suite: SuiteSettings;
  /** Told of each candidate as it is decided (a task or a discard), for progress. */
  onCandidate?(c: CandidateCommit, outcome: EvalTask | DiscardedCandidate): void;
}

/**
 * Builds eval tasks from history, SWE-bench style and without a model: for each commit changing source and tests
 * together, the suite runs at the parent with the commit's tests and at the commit; the tests that go from failing
 * to passing are the targets, the ones passing in both the guards.
 */
export async function buildTasksFromHistory(opts: BuildOptions): Promise<{ tasks: EvalTask[]; discarded: DiscardedCandidate[] }> {
  const tasks: EvalTask[] = [];
  const discarded: DiscardedCandidate[] = [];
  for (const c of await candidateCommits(opts.root, opts.range, opts.max)) {
    if (opts.suite.signal?.aborted) break;
    const outcome = await buildOne(c, opts);
    if ("reason" in outcome) discarded.push(outcome);
    else tasks.push(outcome);
    opts.onCandidate?.(c, outcome);
  }
  return { tasks, discarded };
}

/** One candidate in a scratch worktree, removed afterwards whatever happened. */
async function buildOne(c: CandidateCommit, opts: BuildOptions): Promise<EvalTask | DiscardedCandidate> {
  const dir = join(opts.workDir, "build", c.commit.slice(0, 12));
  const logs = join(opts.workDir, "logs", c.commit.slice(0, 12));
  const discard = (reason: string): DiscardedCandidate => ({ commit: c.commit, subject: c.subject, reason });
  try {
    await addWorktree(opts.root, dir, c.parent);
    await takeFilesFrom(dir, c.commit, c.testFiles);
    const gates = opts.gates ?? defaultGates(dir);
    const before = await runSuite(dir, gates, join(logs, "before"), opts.suite);
    if (!before.ok) return discard(`the suite cannot run at the parent with the commit's tests: ${before.reason}`);
    await checkoutClean(dir, c.commit);
    const after = await runSuite(dir, gates, join(logs, "after"), opts.suite);
    if (!after.ok) return discard(`the suite cannot run at the commit: ${after.reason}`);
    const why = unusable(before, after);
    if (why) return discard(why);
    const { targets, guards } = targetsAndGuards(before.tests, after.tests);
    return {
      v: TASK_VERSION,
      id: c.commit.slice(0, 12),
      commit: c.commit,
      parent: c.parent,
      requirement: c.message,
      testFiles: c.testFiles,
      sourceFiles: c.sourceFiles,
      gates,
      targets,
      guards,
    };
  } catch (error) {
    return discard(`could not be set up: ${(error as Error).message}`);
  } finally {
    await removeWorktree(opts.root, dir);
  }
}

// Why a candidate whose suite ran both times still is no task: nothing fails before the fix, or nothing it fixes passes after.
function unusable(before: Extract<SuiteRun, { ok: true }>, after: Extract<SuiteRun, { ok: true }>): string | null {
  const { targets } = targetsAndGuards(before.tests, after.tests);
  if (targets.length) return null;
  const failing = [...before.tests].filter(([, s]) => s === "failed").map(([id]) => id);
  if (!failing.length) return "its targets do not fail before: every test passes at the parent with the commit's tests";
  return `its targets do not pass after: the ${failing.length} test(s) failing at the parent with the commit's tests do not pass at the commit (${failing.slice(0, 3).join("; ")})`;
}
