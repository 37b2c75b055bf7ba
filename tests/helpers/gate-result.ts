import type { GateResult } from "../../src/events/schema.js";

/** A gate result as a run reports it: a required `npm test` that failed, unless `over` says otherwise. */
export function gateResult(over: Partial<GateResult> = {}): GateResult {
  return {
    name: "test",
    command: "npm test",
    required: true,
    passed: false,
    exitCode: 1,
    timedOut: false,
    durationMs: 1,
    attempt: 1,
    passedCount: null,
    failedCount: null,
    failures: [],
    tail: "",
    logFile: null,
    ...over,
  };
}
