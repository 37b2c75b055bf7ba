import type { EvalTask, TaskResult, TestsMode } from "./types.js";

/** The whole eval's budget (`--eval-max-cost`, `--eval-max-tokens`): null is no limit. */
export interface EvalBudget {
  maxCost: number | null;
  maxTokens: number | null;
}

/**
 * What an eval has spent over every task judged so far (read-back results of an earlier eval included), and whether
 * the next task may start. Checked before a task starts: tasks already running finish, so an eval can end above its
 * budget by what those cost, never by a task started after it was spent.
 */
export class BudgetMeter {
  private cost = 0;
  private tokens = 0;

  constructor(private readonly budget: EvalBudget) {}

  add(r: Pick<TaskResult, "tokens" | "cost">): void {
    this.cost += r.cost ?? 0;
    this.tokens += r.tokens;
  }

  spent(): { cost: number; tokens: number } {
    return { cost: this.cost, tokens: this.tokens };
  }

  /** Why no further task may start (the budget reached), or null while there is budget left. */
  exhausted(): string | null {
    const { maxCost, maxTokens } = this.budget;
    if (maxCost !== null && this.cost >= maxCost) return `--eval-max-cost ${maxCost} was spent (${this.cost.toFixed(4)})`;
    if (maxTokens !== null && this.tokens >= maxTokens) return `--eval-max-tokens ${maxTokens} was spent (${this.tokens} tokens)`;
    return null;
  }
}

/** A task the budget left unstarted: reported, never stored, so an eval run again with budget left runs it. */
export function notRunResult(task: EvalTask, model: string, why: string, tests: TestsMode): TaskResult {
  return {
    task: task.id,
    model,
    verdict: "not-run",
    reason: `not run (budget): ${why} before it started`,
    thread: null,
    exitCode: null,
    tokens: 0,
    cost: 0,
    wallMs: 0,
    fixAttempts: 0,
    tamperAttempts: 0,
    tamper: [],
    failingTargets: [],
    failingGuards: [],
    tests,
    ...(task.canary ? { canary: true } : {}),
  };
}
