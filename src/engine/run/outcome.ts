import { isGraphDrained } from "@langchain/langgraph";
import { limitError, outcomeOfError, YoloError } from "../../errors.js";
import type { LimitKind, RunStatus } from "../../events/outcome.js";
import { storageFault } from "../../store/db.js";
import type { EngineDeps } from "../deps.js";
import type { RunOptions } from "./options.js";

export { complete, finalOutcome, resumeFact } from "./complete.js";

/** Maps whatever stopped the run to a status, an event code and a message (worded by the front end when it has a fact). */
export function classify(
  error: unknown,
  signal: AbortSignal,
  options: Pick<RunOptions, "deps" | "logFile" | "threadId" | "words">,
): { status: RunStatus; reason: string; code: string; limit: LimitKind | null } {
  const { deps, logFile } = options;
  const none = { limit: null };
  if (signal.aborted) return { status: "interrupted", reason: "interrupted; the last completed step is saved", code: "interrupted", ...none };
  if (isGraphDrained(error)) return { status: "interrupted", reason: "stopped on request once the running step had finished", code: "interrupted", ...none };
  let known = sqliteFault(error, deps) ?? findYoloError(error) ?? deps.classifyError(error, deps.config.model.name);
  if (!(known instanceof YoloError) && (error as Error)?.name === "GraphRecursionError") {
    const max = deps.config.limits.maxSteps + 10;
    known = limitError(
      { kind: "steps", setting: "graph-steps", said: `the run reached LangGraph's step limit (${max} steps in one leg).` },
      "Raise limits.maxSteps and resume.",
    );
  }
  if (known instanceof YoloError) {
    const { status, limit } = outcomeOfError(known);
    const said = known.fact ? options.words.errorReason(known, options.threadId) : known.message;
    // An error nothing expected names the log, where its stack is.
    const reason = status === "error" ? `${said} (log: ${logFile})` : said;
    return { status, reason, code: known.code, limit: status === "limit" ? limit : null };
  }
  return { status: "error", reason: `unexpected error: ${(error as Error)?.message ?? String(error)} (log: ${logFile})`, code: "unexpected", ...none };
}

function findYoloError(error: unknown): YoloError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof YoloError) return e;
  }
  return null;
}

/** A full, read-only or failing disk under the SQLite file, as a storage error naming it (PostgreSQL reports its own). */
function sqliteFault(error: unknown, deps: EngineDeps): YoloError | null {
  return deps.config.database.kind === "sqlite" ? storageFault(error, deps.config.database.path) : null;
}

export { gateRequiredError } from "./gate-required.js";
