import type { ResolvedConfig } from "../config/schema.js";
import type { FetchLike } from "../llm/recording.js";

/** ok: fine; warn: a run works, with a caveat; fail: a run cannot work until it is fixed; skip: not checkable here. */
export type CheckStatus = "ok" | "warn" | "fail" | "skip";

/** One line of `yolo doctor`: a fact, and what to change when it is not ok. The CLI words and prints it. */
export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  /** What was found, in a few words. */
  detail: string;
  /** What to change (absent when ok), in neutral words: no yolo command or flag. */
  fix?: string;
  /** The fix as a fact, when yolo's own command line is part of it: the CLI words it (src/cli/wording/doctor-fix.ts). */
  fixFact?: FixFact;
}

/** Fixes that a front end words with its own options (`--model`, `--db`, `--branch`, `--max-tokens`). */
export type FixFact = { kind: "model-not-served" } | { kind: "usage-estimated" } | { kind: "database-unusable" } | { kind: "not-a-git-repository" };

export interface DoctorContext {
  config: ResolvedConfig;
  /** The environment (PATH for the sandbox probe); passed in so nothing deeper reads process.env. */
  env: Readonly<Record<string, string | undefined>>;
  /** The HTTP transport to the model endpoint (tests may wrap it); default: global fetch. */
  fetch?: FetchLike;
  /** Seconds each network probe may take. */
  timeoutS: number;
}

/** A named group of checks. Register more (MCP servers, say) by adding to DOCTOR_CHECKS. */
export interface DoctorCheck {
  id: string;
  run(ctx: DoctorContext): Promise<CheckResult[]>;
}
