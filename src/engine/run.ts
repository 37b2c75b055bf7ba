/**
 * The run API, split by job under src/engine/run/: start.ts drives a leg, input.ts decides its input, outcome.ts
 * classifies and completes it, settle-usage.ts keeps paid usage across stops. Importers keep this path.
 */
export { startRun } from "./run/start.js";
export { resumeRunEarly, type EarlyDeps } from "./run/start.js";
export type { RunHandle, RunOptions, RunResult, RunWords, WaitingRequest } from "./run/options.js";
