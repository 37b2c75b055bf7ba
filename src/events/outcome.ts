/** How a run (or one leg of it, between resumes) ended. The exit code is a pure function of it. */
export type RunStatus =
  | "passed" // completed, gate passed
  | "failed" // completed, gate still failing after the fix attempts
  | "waiting" // paused on a question for a human
  | "limit" // a bound was reached; resumable (which one: LimitKind)
  | "provider_error" // the model provider failed; resumable once fixed
  | "interrupted" // Ctrl+C / SIGTERM; resumable
  | "config_error"
  | "error"; // unexpected

/**
 * Which bound stopped a run with status "limit". Each has its own exit code, so a pipeline can tell a run
 * that looped from one that ran out of money or time without parsing messages.
 */
export const LIMIT_KINDS = ["steps", "turns", "budget", "time", "loop"] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

const EXIT_CODES: Record<RunStatus, number> = {
  passed: 0,
  failed: 1,
  config_error: 2,
  waiting: 3,
  limit: 4,
  provider_error: 5,
  interrupted: 130,
  error: 70,
};

const LIMIT_EXIT_CODES: Record<LimitKind, number> = {
  steps: 4, // graph steps of the thread (limits.maxSteps), or a node's maxVisits
  turns: 6, // an agent's model turns (maxTurns), or its replies without a tool call
  budget: 7, // the thread's tokens or cost (budget.maxTokens, budget.maxCost)
  time: 8, // the thread's active wall time (limits.maxTime)
  loop: 9, // the same tool call with the same arguments five times in a row
};

const LIMIT_LABELS: Record<LimitKind, string> = {
  steps: "step limit",
  turns: "turn limit",
  budget: "budget",
  time: "time limit",
  loop: "loop detected",
};

/**
 * The documented exit code for a run status (README: "Exit codes"). A limit without a kind (a thread row
 * written before kinds existed) keeps the old code 4.
 */
export function exitCodeFor(status: RunStatus, limit?: LimitKind | null): number {
  if (status === "limit" && limit) return LIMIT_EXIT_CODES[limit];
  return EXIT_CODES[status];
}

/** The limit kind an exit code stands for, or null (the codes are one per kind, so a thread row's code tells). */
export function limitKindForExitCode(code: number | null | undefined): LimitKind | null {
  return LIMIT_KINDS.find((k) => LIMIT_EXIT_CODES[k] === code) ?? null;
}

/** A short name for a limit kind, for messages and reports ("time limit"). */
export function limitLabel(kind: LimitKind): string {
  return LIMIT_LABELS[kind];
}
