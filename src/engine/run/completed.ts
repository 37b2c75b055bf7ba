import type { EventBody, RunEnd } from "../../events/schema.js";

/** The `run.completed` event of a leg (the limit only when a limit stopped it): one shape for every way a leg ends. */
export function completedEvent(end: RunEnd): EventBody {
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
    ...(end.acceptedFailures?.length ? { acceptedFailures: end.acceptedFailures } : {}),
  };
}
