import type { CheckResult, FixFact } from "../../doctor/types.js";

// The doctor's fixes that name yolo's own options, in the CLI's words.
const FIX: Record<FixFact["kind"], string> = {
  "model-not-served": "Set model.name in yolo.config.ts (or YOLO_MODEL, --model) to a served model, or pull/load it on the server.",
  "usage-estimated": "Budgets (--max-tokens) count the estimates; update the server if it can report usage (stream_options.include_usage).",
  "database-unusable": "Fix the database named above, or choose another with --db / YOLO_DB / YOLO_DATABASE_URL.",
  "not-a-git-repository": "Run yolo inside a git repository (git init) so its changes can be diffed, reviewed and committed with --branch.",
};

/** A doctor check as `yolo doctor` prints it (table or JSON): its fix in the CLI's words, the fact itself dropped. */
export function wordedCheck(result: CheckResult): CheckResult {
  const { fixFact, ...rest } = result;
  return fixFact ? { ...rest, fix: FIX[fixFact.kind] } : rest;
}
