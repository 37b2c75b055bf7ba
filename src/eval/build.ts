import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { defaultGates } from "../gates/detect.js";
import { type GitOptions, repositoryFilters } from "../git/git.js";
import { type CandidateCommit, candidateCommits } from "./commits.js";
import { runSuite, type SuiteRun, type SuiteSettings, targetsAndGuards } from "./suite.js";
import { TASK_VERSION, type DiscardedCandidate, type EvalTask } from "./types.js";
import { addWorktree, checkoutClean, removeWorktree, resetWorktree, takeFilesFrom } from "./worktree.js";

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
  const checkout: Checkout = { dir: join(opts.workDir, "build", "checkout"), ready: false, git: { filters: repositoryFilters(opts.root) } };
  try {
    for (const c of await candidateCommits(opts.root, opts.range, opts.max)) {
      if (opts.suite.signal?.aborted) break;
      const outcome = await buildOne(c, opts, checkout);
      if ("reason" in outcome) discarded.push(outcome);
      else tasks.push(outcome);
      opts.onCandidate?.(c, outcome);
    }
  } finally {
    await removeWorktree(opts.root, checkout.dir);
  }
  return { tasks, discarded };
}

/**
 * The one scratch worktree every candidate is built in, moved from one to the next; made again after a candidate
 * whose set-up failed. The repository's filter drivers are read once for all its git commands.
 */
interface Checkout {
  dir: string;
  ready: boolean;
  git: GitOptions;
}

// The checkout at `rev` as a new worktree would be: the one there reset, or a new one.
async function checkoutAt(opts: BuildOptions, checkout: Checkout, rev: string): Promise<void> {
  if (checkout.ready) await resetWorktree(checkout.dir, rev, checkout.git);
  else await addWorktree(opts.root, checkout.dir, rev);
  checkout.ready = true;
}

/** One candidate in the scratch worktree; one that could not be set up is discarded and the worktree made again. */
async function buildOne(c: CandidateCommit, opts: BuildOptions, checkout: Checkout): Promise<EvalTask | DiscardedCandidate> {
  const dir = checkout.dir;
  const logs = join(opts.workDir, "logs", c.commit.slice(0, 12));
  const discard = (reason: string): DiscardedCandidate => ({ commit: c.commit, subject: c.subject, reason });
  try {
    await checkoutAt(opts, checkout, c.parent);
    await takeFilesFrom(dir, c.commit, c.testFiles, checkout.git);
    const gates = opts.gates ?? defaultGates(dir);
    const before = await runSuite(dir, gates, join(logs, "before"), opts.suite);
    if (!before.ok) return discard(`the suite cannot run at the parent with the commit's tests: ${before.reason}`);
    await checkoutClean(dir, c.commit, checkout.git);
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
    checkout.ready = false;
    return discard(`could not be set up: ${(error as Error).message}`);
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
