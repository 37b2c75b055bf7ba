/** How a run (or one leg of it, between resumes) ended. The exit code is a pure function of it. */
export type RunStatus =
  | "passed" // completed, gate passed
  | "failed" // completed, gate still failing after the fix attempts
  | "waiting" // paused on a question for a human
  | "limit" // a bound was reached; resumable
  | "provider_error" // the model provider failed; resumable once fixed
  | "interrupted" // Ctrl+C / SIGTERM; resumable
  | "config_error"
  | "error"; // unexpected

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

/** The documented exit code for a run status (README: "Exit codes"). */
export function exitCodeFor(status: RunStatus): number {
  return EXIT_CODES[status];
}
