/**
 * The run API, split by job under src/engine/run/: launch.ts starts a leg (leg.ts its steps, start.ts the graph),
 * input-decision.ts decides its input, outcome.ts classifies and completes it, settle-usage.ts keeps paid usage across
 * stops. Importers keep this path.
 */
export { launch, startRun, type LaunchLeg, type LaunchPlan } from "./run/launch.js";
export type { RunHandle, RunOptions, RunResult, RunWords, WaitingRequest } from "./run/options.js";
