import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { type GitOptions, repositoryFilters } from "../git/git.js";
import { type CandidateCommit, candidateCommits } from "./commits.js";
import type { TestStatus } from "../gates/parsers/types.js";
import { type CandidateTree, candidateRuns } from "./build-candidate.js";
import { type CarriedResults, keepCarriedResults, openCarriedResults } from "./carried-results.js";
import { readPackageJson } from "./gate-files.js";
import { asJudgedFix } from "./judged-fix.js";
import { type SuiteSettings, targetsAndGuards } from "./suite.js";
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
  /** Candidates built at a time, each in a worktree of its own (default: the machine's cores). */
  parallel?: number;
  /** Told of each candidate as it is decided (a task or a discard), in the history's order, for progress. */
  onCandidate?(c: CandidateCommit, outcome: EvalTask | DiscardedCandidate): void;
}

/**
 * Builds eval tasks from history, SWE-bench style and without a model: for each commit changing source and tests
 * together, the suite runs at the parent with the commit's tests and at the commit; the tests that go from failing
 * to passing are the targets, the ones passing in both the guards. A test file's results are carried from one tree
 * to the next, within the build and to the next build, where its import closure is unchanged (build-candidate.ts),
 * and `parallel` candidates are built at a time, each worker in a worktree of its own; candidates are reported and
 * written in the history's order whatever order they finish in.
 */
export async function buildTasksFromHistory(opts: BuildOptions): Promise<{ tasks: EvalTask[]; discarded: DiscardedCandidate[] }> {
  const candidates = await candidateCommits(opts.root, opts.range, opts.max);
  const outcomes: (EvalTask | DiscardedCandidate)[] = [];
  const filters = { filters: repositoryFilters(opts.root) };
  const cores = opts.parallel ?? availableParallelism();
  const workers = Math.max(1, Math.min(cores, candidates.length));
  const keptFile = join(opts.workDir, "carried-results.json");
  const store = openCarriedResults(opts.root, opts.suite.env, keptFile, cores);
  const checkouts: Checkout[] = Array.from({ length: workers }, (_, k) => ({
    dir: join(opts.workDir, "build", k ? `checkout-${k + 1}` : "checkout"),
    ready: false,
    git: filters,
  }));
  let taken = 0;
  let told = 0;
  const work = async (checkout: Checkout) => {
    while (taken < candidates.length && !opts.suite.signal?.aborted) {
      const i = taken++;
      outcomes[i] = await buildOne(candidates[i], opts, checkout, store);
      for (; told < candidates.length && outcomes[told]; told++) opts.onCandidate?.(candidates[told], outcomes[told]);
    }
  };
  try {
    await Promise.all(checkouts.map(work));
  } finally {
    await Promise.all(checkouts.map((c) => removeWorktree(opts.root, c.dir)));
    await keepCarriedResults(store, keptFile);
  }
  const done = outcomes.slice(0, told);
  return { tasks: done.filter((o): o is EvalTask => !("reason" in o)), discarded: done.filter((o): o is DiscardedCandidate => "reason" in o) };
}

/**
 * A scratch worktree of the build, moved from one candidate to the next; made again after a candidate whose set-up
 * failed. The repository's filter drivers are read once for all its git commands.
 */
interface Checkout {
  dir: string;
  ready: boolean;
  git: GitOptions;
}

// The checkout at `rev` as a new worktree would be: the one there reset, or a new one.
async function checkoutAt(opts: BuildOptions, checkout: Checkout, rev: string): Promise<void> {
  if (checkout.ready) await resetWorktree(checkout.dir, rev, checkout.git);
  else await addWorktree(opts.root, checkout.dir, rev, checkout.git);
  checkout.ready = true;
}

/** One candidate in a scratch worktree; one that could not be set up is discarded and the worktree made again. */
async function buildOne(c: CandidateCommit, opts: BuildOptions, checkout: Checkout, store: CarriedResults): Promise<EvalTask | DiscardedCandidate> {
  const dir = checkout.dir;
  const discard = (reason: string): DiscardedCandidate => ({ commit: c.commit, subject: c.subject, reason });
  let parentPackage: Record<string, unknown> | null = null;
  let kept: string[] = [];
  const tree: CandidateTree = {
    dir,
    git: checkout.git,
    toParent: async () => {
      await checkoutAt(opts, checkout, c.parent);
      await takeFilesFrom(dir, c.commit, c.testFiles, checkout.git);
      parentPackage = readPackageJson(dir);
    },
    // The commit's end as the judge takes the upstream fix (judged-fix.ts).
    toCommit: async () => {
      await checkoutClean(dir, c.commit, checkout.git);
      kept = asJudgedFix(dir, parentPackage);
    },
  };
  try {
    const runs = await candidateRuns(tree, opts.gates, join(opts.workDir, "logs", c.commit.slice(0, 12)), opts.suite, store);
    if (!runs.ok) return discard(runs.reason);
    const why = unusable(runs.before, runs.after, kept);
    if (why) return discard(why);
    const { targets, guards } = targetsAndGuards(runs.before, runs.after);
    const { gates } = runs;
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

/**
 * Why a candidate whose suite ran both times still is no task: nothing fails before the fix, or nothing it fixes
 * passes after; `kept` names the package.json keys of the commit the judge keeps as at the parent (judged-fix.ts).
 */
function unusable(before: Map<string, TestStatus>, after: Map<string, TestStatus>, kept: string[]): string | null {
  const { targets } = targetsAndGuards(before, after);
  if (targets.length) return null;
  const failing = [...before].filter(([, s]) => s === "failed").map(([id]) => id);
  if (!failing.length) return "its targets do not fail before: every test passes at the parent with the commit's tests";
  const keys = kept.length ? `; judged as the judge takes the commit's fix, with package.json's ${kept.join(", ")} kept as at the parent` : "";
  return `its targets do not pass after: the ${failing.length} test(s) failing at the parent with the commit's tests do not pass at the commit (${failing.slice(0, 3).join("; ")})${keys}`;
}
