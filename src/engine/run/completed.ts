import type { LimitKind, RunStatus } from "../../events/outcome.js";
import type { EventBody, Usage } from "../../events/schema.js";

/** How a leg ended, as `run.completed` states it. */
export interface LegEnd {
  status: RunStatus;
  limit: LimitKind | null;
  exitCode: number;
  reason: string;
  usage: Usage;
  filesChanged: string[];
  resumeCommand: string | null;
}

/** The `run.completed` event of a leg (the limit only when a limit stopped it): one shape for every way a leg ends. */
export function completedEvent(end: LegEnd): EventBody {
  const { status, limit } = end;
  return {
    type: "run.completed",
    status,
    ...(status === "limit" && limit ? { limit } : {}),
    exitCode: end.exitCode,
    reason: end.reason,
    usage: end.usage,
    filesChanged: end.filesChanged,
    resumeCommand: end.resumeCommand,
  };
}
