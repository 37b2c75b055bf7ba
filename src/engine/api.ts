// The one way src/cli reaches the engine for a run (scripts/check-imports.mjs holds it). Light on purpose: what it
// imports statically is what a run's start loads anyway; the rest is imported inside the engine only when needed.

export { launch, type LaunchLeg, type LaunchPlan } from "./run/launch.js";
export { prepareLaunch, type PreparedLaunch } from "./run/prepare.js";
export { replyKind, type LaunchFlags, type LaunchReply, type LaunchReplay, type LaunchRequest } from "./run/request.js";
export type { LaunchFront, SetupFact, StartedReads } from "./run/front.js";
export type { RunHandle, RunOptions, RunResult, RunWords, WaitingRequest } from "./run/options.js";
export type { ThreadProfile } from "./thread-profile.js";
export type { ReviewResponse } from "./review.js";
export type { KilledWords } from "./thread-status.js";
