import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { GateConfig } from "../config/schema.js";
import type { BaselineRecord } from "../gates/baseline-record.js";
import { workTreeHash } from "../git/work-tree-hash.js";
import { threadArtifactsPath } from "../store/state-dir.js";
import { gateReuse } from "./judge-reuse.js";
import type { JudgeTree } from "./judge-tree.js";
import type { RunFacts } from "./run-events.js";
import { nodeTestPaths } from "./node-test-files.js";
import { suiteScope } from "./suite-scope.js";
import type { EvalTask } from "./types.js";

/**
 * What the judge runs on a task's judged tree: the whole suite, or only the test files the hidden tests can change
 * (the hidden test files and those importing them, statically: suite-scope.ts, the history build's rule), with every
 * other test's result taken from the run's own last gate runs (judge-reuse.ts), which judged the same tree without
 * the hidden tests.
 */
export type JudgeScope = { narrowed: true; files: string[]; gates: GateConfig[]; reused: Set<string> } | { narrowed: false; reason: string };

/** Where the task's run, its worktree and its judged tree are, and what the eval runs with. */
export interface ScopeContext {
  agentsDir: string;
  /** The eval's `<artifacts>/eval/runs/<name>/`: the task run's state folder has the same place in its worktree. */
  runDir: string;
  root: string;
  facts: RunFacts;
  /** The agents' repository's filter drivers, when read already (judge-tree.ts, AgentsTree). */
  agentsFilters?: Promise<[string, string][]>;
  sandbox: string;
  env: NodeJS.ProcessEnv;
  /** The agents' tree hash (agentsTreeHash), when started already: it is the same whenever taken once the run ended. */
  treeHash?: Promise<string | null>;
}

/** The judge's scope for `task` on `tree` (see JudgeScope); any doubt gives the whole suite, with the reason. */
export async function judgeScope(task: EvalTask, tree: JudgeTree, ctx: ScopeContext): Promise<JudgeScope> {
  const whole = (reason: string): JudgeScope => ({ narrowed: false, reason });
  // A canary's judge runs its suite twice more on trees of its own (canary-judge.ts): the whole suite, as it always did.
  if (task.canary) return whole("a canary is judged on the whole suite");
  // Checked first, as it costs nothing: another runner runs whole whatever the run's gates say (no git, no parser).
  if (task.gates.some((g) => g.required && !nodeTestPaths(g, tree.dir))) return whole("a required gate is not `node --test <paths>`");
  const gone = task.testFiles.find((f) => !existsSync(join(tree.dir, f)));
  if (gone) return whole(`the task deletes ${gone}, which the run's gates ran`);
  const leftOut = [...tree.restored, ...tree.runChanging.map((r) => r.path), ...tree.addedGateFiles];
  const reuse = gateReuse({
    gates: task.gates,
    facts: ctx.facts,
    sandbox: ctx.sandbox,
    // Unsandboxed, gateReuse trusts none of the run's records: the hash (two git processes) would not be read.
    treeNow: leftOut.length || ctx.sandbox !== "bwrap" ? null : await (ctx.treeHash ?? agentsTreeHash(ctx.agentsDir, ctx.agentsFilters)),
    baseline: readBaseline(ctx),
    leftOut,
  });
  if (!reuse.ok) return whole(reuse.reason);
  const scope = suiteScope({
    dir: tree.dir,
    // Nothing was left out (gateReuse) and no test file is deleted (above): the files git would list there.
    files: tree.files,
    changed: new Map(),
    testFiles: task.testFiles,
    gates: task.gates,
    env: ctx.env,
  });
  if (!scope.narrowed) return whole(`the hidden tests' reach cannot be narrowed: ${scope.reason}`);
  return { narrowed: true, files: scope.files, gates: scope.gates, reused: reuse.passing };
}

/**
 * Whether judgeScope is likely to need the agents' tree hash: sandboxed, not a canary, every required gate `node --test`
 * (read from the agents' package.json: a guess, which only decides whether the hash is taken early, beside the
 * judged tree's making, rather than when judgeScope asks for it).
 */
export function hashLikelyNeeded(task: EvalTask, agentsDir: string, sandbox: string): boolean {
  return sandbox === "bwrap" && !task.canary && task.gates.every((g) => !g.required || nodeTestPaths(g, agentsDir));
}

/** The agents' tree as the run's gates hashed it (yolo's state folder left out by the hash itself), or null. */
export async function agentsTreeHash(dir: string, filters: Promise<[string, string][]> | undefined): Promise<string | null> {
  try {
    // The task's repository is one yolo made (worktree.ts, cloneAt): its index is in its own .git folder.
    return await workTreeHash(dir, [], [], { filters, index: join(dir, ".git", "index") });
  } catch {
    return null;
  }
}

// The run's baseline record, in the task worktree's state folder (where the eval's own is in the project), or null.
function readBaseline(ctx: ScopeContext): BaselineRecord | null {
  const state = relative(ctx.root, resolve(ctx.runDir, "..", "..", ".."));
  if (!ctx.facts.thread || !state || state.startsWith("..") || isAbsolute(state)) return null;
  try {
    const dir = threadArtifactsPath(join(ctx.agentsDir, state), ctx.facts.thread);
    return JSON.parse(readFileSync(join(dir, "gate-baseline.jsonl"), "utf8")) as BaselineRecord;
  } catch {
    return null;
  }
}
