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

/**
 * The one table from outcomes to exit codes (README: "Exit codes"; tests/unit/events/exit-code-table.test.ts holds
 * the two equal). A row with a `limit` is that limit kind's code; the `limit` row without one is the old code 4 of a
 * thread row written before kinds existed.
 */
export const EXIT_CODE_TABLE: readonly { code: number; status: RunStatus; limit?: LimitKind }[] = [
  { code: 0, status: "passed" },
  { code: 1, status: "failed" },
  { code: 2, status: "config_error" },
  { code: 3, status: "waiting" },
  { code: 4, status: "limit" },
  { code: 4, status: "limit", limit: "steps" }, // graph steps of the thread (limits.maxSteps), or a node's maxVisits
  { code: 5, status: "provider_error" },
  { code: 6, status: "limit", limit: "turns" }, // an agent's model turns (maxTurns), or its replies without a tool call
  { code: 7, status: "limit", limit: "budget" }, // the thread's tokens or cost (budget.maxTokens, budget.maxCost)
  { code: 8, status: "limit", limit: "time" }, // the thread's active wall time (limits.maxTime)
  { code: 9, status: "limit", limit: "loop" }, // the same tool call with the same arguments five times in a row
  { code: 70, status: "error" },
  { code: 130, status: "interrupted" },
];

const EXIT_CODES = Object.fromEntries(EXIT_CODE_TABLE.filter((r) => !r.limit).map((r) => [r.status, r.code])) as Record<RunStatus, number>;
const LIMIT_EXIT_CODES = Object.fromEntries(EXIT_CODE_TABLE.flatMap((r) => (r.limit ? [[r.limit, r.code]] : []))) as Record<LimitKind, number>;

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
