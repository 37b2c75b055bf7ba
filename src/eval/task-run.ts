import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { warmSpawner } from "../exec/spawner.js";
import { gitOk, repositoryFilters } from "../git/git.js";
import { costOf } from "../llm/budget.js";
import type { ResolvedConfig } from "../config/schema.js";
import { judgeCanary } from "./canary-judge.js";
import { type ChildRunSpec, legArgs, runChild } from "./child-run.js";
import { isGateFile } from "./gate-files.js";
import { buildJudgeTree, listTaskTree, type TaskTreeListing, treeTamper } from "./judge-tree.js";
import { stopLeftoverRun } from "./child-watch.js";
import { readRunFacts, type RunFacts } from "./run-events.js";
import { type RunSetting, type TaskDefinition, taskDefinition } from "./task-definition.js";
import { passedVisibleFailedHidden, targetSplit } from "./target-split.js";
import { NOT_JUDGED, planTask, startAfresh, type TaskFiles, type TaskPlan, taskFiles } from "./task-plan.js";
import type { SuiteSettings } from "./suite.js";
import { agentsTreeHash, hashLikelyNeeded, type JudgeScope, judgeScope } from "./judge-scope.js";
import { judgedSuite } from "./judge-suite.js";
import { writeJsonAtomic } from "./task-file.js";
import type { EvalTask, TaskResult, TestsMode } from "./types.js";
import { addWorktree, cloneAt, removeIfPresent, removeWorktree, takeFilesFrom } from "./worktree.js";

/** What running one task needs besides the task: where, with which yolo, how to judge. */
export interface TaskRunContext {
  root: string;
  /** `<artifacts>/eval/runs/<name>/`: one folder per model, one worktree per task in it. */
  runDir: string;
  child: ChildRunSpec;
  suite: SuiteSettings;
  price: ResolvedConfig["model"]["price"];
  /** The prompts' version, the pinned config and the tests' mode: with the task and the model, what a result was measured with. */
  setting: Omit<RunSetting, "model">;
  signal?: AbortSignal;
  /** Hears why a task that ran before runs again (its definition changed, its last run ended in an error). */
  onNote?(task: EvalTask, model: string, note: string): void;
}

/** A folder name for a model (`gpt-4o-mini`, `org/model:tag`). */
export function modelSlug(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, "_");
}

/**
 * Runs one task with one model as an ordinary yolo thread in its own worktree, then judges the final tree.
 * Resumable: a judged task is read back while what it was run with is unchanged (task-plan.ts); a thread a killed eval
 * left unfinished, or one a provider error ended, is resumed; a run a dead eval left alive is stopped first.
 */
export async function runTask(
  task: EvalTask,
  model: { label: string; name: string | null },
  ctx: TaskRunContext,
  // Called once this task's run has started: the caller may prepare the next task meanwhile (prepareAhead).
  whileRunning?: () => void,
  // Called once its run has ended, before judging, with what the run spent (the result's own figures): the caller
  // may start the next task's run while this one is judged (run-eval.ts).
  whenRunEnded?: (spent: Spent) => void,
): Promise<TaskResult> {
  const { files, definition } = taskPlace(task, model, ctx);
  const ahead = takeAhead(files.dir);
  const plan = ahead?.plan ?? planTask(files, definition);
  if (plan.kind === "reuse") return plan.result;
  // The judge's first gate run starts the spawner helper; up from here, the git commands before it (the task's
  // repository, the judged tree) are forked from that small process rather than from this large one.
  warmSpawner(ctx.child.env);
  const aheadMs = ahead ? await ahead.ready : null;
  if (aheadMs === null) await clearLeftovers(files, ctx);
  // A start made ahead counts in the task's time as if made now.
  const started = Date.now() - (aheadMs ?? 0);
  const why = plan.kind === "judge" ? null : plan.why;
  if (why) ctx.onNote?.(task, model.label, `${why}; it runs again`);
  const leg = (args: string[]) =>
    runChild(ctx.child, {
      cwd: files.dir,
      args: legArgs(ctx.child, args, model.label, task.id),
      eventsFile: files.events,
      stderrFile: files.stderr,
      pidFile: files.pid,
      signal: ctx.signal,
    });
  let exitCode: number | null = plan.kind === "judge" ? (plan.facts.completed?.exitCode ?? null) : null;
  let listing: TaskTreeListing | undefined;
  const running = (args: string[]) => {
    const exit = leg(args);
    // What the judge reads of the project's commits is read while the run goes on (the next task's start too).
    listing = listTaskTree(ctx.root, task);
    whileRunning?.();
    return exit;
  };
  if (plan.kind === "fresh") {
    if (aheadMs === null) await freshStart(files, task, definition, ctx);
    exitCode = await running(ctx.child.runArgs(model.name, task.requirement));
  } else if (plan.kind === "resume") exitCode = await running(ctx.child.resumeArgs(model.name, plan.thread));
  const facts = readRunFacts(files.events, isGateFile);
  whenRunEnded?.(spentBy(facts, ctx.price));
  // Every leg counts: the earlier ones from their events, this one (and judging) by the clock.
  const earlierMs = plan.kind === "fresh" ? 0 : plan.facts.legsMs;
  const judged = await judgeTask(task, model.label, files.dir, {
    facts,
    exitCode,
    start: readFileSync(files.start, "utf8").trim(),
    ctx,
    stderrFile: files.stderr,
    listing,
  });
  const result: TaskResult = {
    ...judged,
    wallMs: earlierMs + Date.now() - started,
    ...(why ? { reason: `${judged.reason}; ran again: ${why}`, ranAgain: why } : {}),
  };
  // An eval stopped mid-way, or a run that could not be judged (a provider error, an interrupt, a crash), is not a
  // verdict: the task runs again next time (task-plan.ts says how).
  if (!ctx.signal?.aborted && result.verdict !== "error") writeJsonAtomic(files.result, result);
  return result;
}

/** What a task's run spent, as its result gives it. */
export type Spent = Pick<TaskResult, "tokens" | "cost">;

function spentBy(facts: RunFacts, price: TaskRunContext["price"]): Spent {
  const usage = facts.completed?.usage ?? { promptTokens: 0, completionTokens: 0 };
  return { tokens: usage.promptTokens + usage.completionTokens, cost: costOf({ ...usage, totalTokens: 0, calls: 0 }, price) };
}

// The task's files for one model, and what its run is measured against.
function taskPlace(task: EvalTask, model: { label: string; name: string | null }, ctx: TaskRunContext) {
  const files = taskFiles(join(ctx.runDir, modelSlug(model.label)), task.id);
  return { files, definition: taskDefinition(task, { model, ...ctx.setting }) };
}

// What an earlier eval left of a task that runs again: a run still alive, a judged tree.
async function clearLeftovers(files: TaskFiles, ctx: TaskRunContext): Promise<void> {
  mkdirSync(dirname(files.dir), { recursive: true });
  await stopLeftoverRun(files.pid);
  // A judged tree holds the hidden tests: one an eval killed while judging left must be gone before the agents work.
  await removeIfPresent(ctx.root, judgeDir(files.dir));
}

// A fresh start: the earlier run's files cleared, the definition recorded, the task's repository made.
async function freshStart(files: TaskFiles, task: EvalTask, definition: TaskDefinition, ctx: TaskRunContext): Promise<void> {
  startAfresh(files, definition);
  await prepareWorktree(ctx.root, files.dir, task, files.start, ctx.setting.tests);
}

// Fresh starts made ahead (prepareAhead), by task worktree: the plan made then, and the time the start took, or null
// when it failed (runTask then makes it again, and reports its error).
const aheadStarts = new Map<string, { plan: TaskPlan; ready: Promise<number | null> }>();

function takeAhead(dir: string): { plan: TaskPlan; ready: Promise<number | null> } | undefined {
  const ahead = aheadStarts.get(dir);
  aheadStarts.delete(dir);
  return ahead;
}

/**
 * Makes a task's fresh start (its leftovers cleared, its repository fetched and checked out) while another task's run
 * waits on the model, so the eval's next task starts with its repository ready: with one task at a time, a core is
 * otherwise idle then. Nothing of it is hidden from a run: the repository holds its start commit's history, which the
 * project itself holds, and a sandboxed run sees none of the project checkout but its own worktree. A task that is not
 * to start afresh is left to runTask; one prepared and never run (the eval stopped, its budget spent) starts afresh
 * next time, as a start without events does.
 */
export function prepareAhead(task: EvalTask, model: { label: string; name: string | null }, ctx: TaskRunContext): void {
  const { files, definition } = taskPlace(task, model, ctx);
  if (aheadStarts.has(files.dir)) return;
  const plan = planTask(files, definition);
  if (plan.kind !== "fresh") return;
  const began = Date.now();
  const ready = (async () => {
    await clearLeftovers(files, ctx);
    await freshStart(files, task, definition, ctx);
    return Date.now() - began;
  })().catch(() => null);
  aheadStarts.set(files.dir, { plan, ready });
}

/** Waits for the starts made ahead that no task took (the eval stopped before their turn): none is left half-made. */
export async function settleAhead(): Promise<void> {
  const left = [...aheadStarts.values()];
  aheadStarts.clear();
  await Promise.all(left.map((a) => a.ready));
}

/** Where a task's judged tree is built, beside its worktree (judge-tree.ts). */
export function judgeDir(dir: string): string {
  return `${dir}.judge`;
}

/**
 * The task's starting tree, in a repository of its own holding the start commit's history only (worktree.ts,
 * cloneAt): nothing later — the fix, the commit's tests, a mutant's hidden tests — is reachable from it. Tests hidden,
 * the start is the task's parent: the commit's test changes reach only the judged tree, after the run. Tests visible,
 * the commit's test files are committed on top (in a scratch worktree of the project, then fetched) so the run
 * starts clean and its change is only the model's. The start commit is kept beside the worktree.
 */
async function prepareWorktree(root: string, dir: string, task: EvalTask, startFile: string, tests: TestsMode): Promise<void> {
  const start = tests === "hidden" ? task.parent : await visibleStart(root, `${dir}.start`, task);
  // A mutant's or a canary's start is a child of HEAD, the answer: its clone gets the start commit and no history.
  await cloneAt(root, dir, start, !!(task.mutation || task.canary));
  writeFileSync(startFile, start);
}

// The parent with the commit's test files committed on top, dated as the parent so the start commit is the same
// every time (a recorded session replays against it); made in a scratch worktree of the project, removed after.
// Only yolo's own git runs in the scratch worktree, so the project's filter drivers are read once for all of it.
async function visibleStart(root: string, scratch: string, task: EvalTask): Promise<string> {
  const options = { filters: repositoryFilters(root) };
  await addWorktree(root, scratch, task.parent, options);
  try {
    await takeFilesFrom(scratch, task.commit, task.testFiles, options);
    await gitOk(scratch, ["add", "-A", "--", ...task.testFiles], {}, options);
    const who = ["-c", "user.name=yolo eval", "-c", "user.email=eval@yolo.invalid"];
    const date = (await gitOk(scratch, ["show", "-s", "--format=%cI", task.parent])).trim();
    const when = { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    await gitOk(scratch, [...who, "commit", "-q", "--allow-empty", "-m", `eval task ${task.id}: the tests of ${task.commit.slice(0, 12)}`], when, options);
    return (await gitOk(scratch, ["rev-parse", "HEAD"])).trim();
  } finally {
    await removeWorktree(root, scratch, options);
  }
}

interface JudgeInput {
  facts: RunFacts;
  exitCode: number | null;
  start: string;
  ctx: TaskRunContext;
  stderrFile: string;
  /** The task's tree as listed while its run went on; listed when judging begins otherwise. */
  listing?: TaskTreeListing;
}

/**
 * SWE-bench's rule, judged by yolo: resolved when every target and every guard passes on the judged tree — the task's
 * tree with only the agents' changes to its source files (and new files) taken over (judge-tree.ts), so no edit to a
 * test, fixture or helper can make a target pass. Tampering is counted from the run's events (test files written,
 * gate changes refused) and from every file of the task's tree the judge had to restore.
 */
async function judgeTask(task: EvalTask, model: string, dir: string, input: JudgeInput): Promise<TaskResult> {
  const { facts } = input;
  const result: TaskResult = {
    task: task.id,
    model,
    verdict: "error",
    reason: "",
    thread: facts.thread,
    exitCode: input.exitCode,
    ...spentBy(facts, input.ctx.price),
    // Set by runTask: every leg's time, not only this invocation's.
    wallMs: 0,
    fixAttempts: facts.fixAttempts,
    tamperAttempts: 0,
    tamper: [],
    failingTargets: [],
    failingGuards: [],
    tests: input.ctx.setting.tests,
  };
  if (!facts.completed || input.exitCode === null || NOT_JUDGED.has(input.exitCode)) {
    return { ...result, reason: notJudgedReason(facts, input.exitCode, input.stderrFile), ...canaryMark(task) };
  }
  const where = judgeDir(dir);
  // The project's filter drivers, read once for making, filling and removing the judged tree (a worktree of it).
  const options = { filters: repositoryFilters(input.ctx.root) };
  // The agents' repository's, read once for the diff and the tree hash there.
  const agentsFilters = repositoryFilters(dir);
  // Nothing changes the agents' tree once the run has ended: its hash, when judgeScope will likely want it, is taken
  // while the judged tree is made.
  const treeHash = hashLikelyNeeded(task, dir, input.ctx.suite.commands.sandbox.kind) ? agentsTreeHash(dir, agentsFilters) : undefined;
  try {
    const tree = await buildJudgeTree(input.ctx.root, where, task, { dir, start: input.start, filters: agentsFilters }, options, input.listing);
    const tamper = [...treeTamper(tree, facts.testWrites, input.ctx.setting.tests), ...facts.refusedGateChanges.map((c) => `gate change refused: ${c}`)];
    const scope = await judgeScope(task, tree, {
      agentsDir: dir,
      runDir: input.ctx.runDir,
      root: input.ctx.root,
      facts,
      agentsFilters,
      treeHash,
      sandbox: input.ctx.suite.commands.sandbox.kind,
      env: input.ctx.suite.env,
    });
    return await verdictOn(task, where, scope, { ...result, tamperAttempts: tamper.length, tamper }, input.ctx);
  } finally {
    // The judged tree holds the hidden tests and is rebuilt from the task whenever needed: it never outlives judging.
    await removeWorktree(input.ctx.root, where, options);
  }
}

// Runs the task's gates on the judged tree (judge-suite.ts: narrowed where the run's gates stand for the rest) and
// reads the verdict from its targets and guards.
async function verdictOn(task: EvalTask, where: string, scope: JudgeScope, judged: TaskResult, ctx: TaskRunContext): Promise<TaskResult> {
  const { run: suite, how } = await judgedSuite(task, where, scope, ctx.suite);
  const result: TaskResult = { ...judged, judgeRun: how };
  if (!suite.ok)
    return { ...result, verdict: "unresolved", reason: `the suite gave no per-test results on the judged tree: ${suite.reason}`, ...canaryMark(task) };
  const failingTargets = task.targets.filter((id) => suite.tests.get(id) !== "passed");
  const failingGuards = task.guards.filter((id) => suite.tests.get(id) !== "passed");
  if (task.canary) return judgeCanary({ ...task, canary: task.canary }, where, { ...result, failingTargets, failingGuards }, ctx.suite);
  const resolved = failingTargets.length === 0 && failingGuards.length === 0;
  const split = targetSplit(task, ctx.setting.tests, failingTargets);
  const counts = `${failingTargets.length} of ${task.targets.length} target(s) and ${failingGuards.length} of ${task.guards.length} guard(s) do not pass`;
  const reason = resolved
    ? `every target (${task.targets.length}) and guard (${task.guards.length}) passes`
    : split && passedVisibleFailedHidden({ split })
      ? `passed visible, failed hidden: the ${split.visible.targets} target(s) the agents saw pass, ${split.hidden.failing.length} of the ${split.hidden.targets} hidden from them do not; ${counts}`
      : counts;
  return { ...result, verdict: resolved ? "resolved" : "unresolved", reason, failingTargets, failingGuards, ...(split ? { split } : {}) };
}

// A canary's result says so even when it could not be judged, so it is never counted among the ordinary tasks.
function canaryMark(task: EvalTask): { canary?: true } {
  return task.canary ? { canary: true } : {};
}

function notJudgedReason(facts: RunFacts, exitCode: number | null, stderrFile: string): string {
  if (facts.completed) return `the run ended with exit ${facts.completed.exitCode}: ${facts.completed.reason}`;
  const tail = (() => {
    try {
      return readFileSync(stderrFile, "utf8").trim().split("\n").slice(-3).join(" ");
    } catch {
      return "";
    }
  })();
  return `the run did not complete (exit ${exitCode ?? "none: killed"})${tail ? `: ${tail}` : ""}`;
}
