// The one way src/cli reaches the engine (scripts/check-imports.mjs holds it). Light on purpose: what it imports
// statically is what a run's start loads anyway; the rest is imported by the functions below only when called.

export { launch, type LaunchLeg, type LaunchPlan } from "./run/launch.js";
export { prepareLaunch, type PreparedLaunch } from "./run/prepare.js";
export { replyKind, type LaunchFlags, type LaunchReply, type LaunchReplay, type LaunchRequest } from "./run/request.js";
export type { LaunchFront, SetupFact, StartedReads } from "./run/front.js";
export type { RunHandle, RunOptions, RunResult, RunWords, WaitingRequest } from "./run/options.js";
export { runFacts, type RunFacts } from "./run/facts.js";
export { databaseExists, databaseName, openSession, openSessionDeferred, type Session } from "./session.js";
export { configForProfile, profileOfValues, type ThreadProfile } from "./thread-profile.js";
export type { ChangeReader, EngineDeps, WorkspaceHook } from "./deps.js";
export type { ReviewResponse } from "./review.js";
export type { ThreadPosition } from "./position.js";
export type { KilledWords } from "./thread-status.js";

/** The checkpoint reader (a resumed thread's latest state without LangGraph). */
export const loadStoredThread = () => import("./stored-thread.js");
/** A thread's state read with LangGraph (it must exist and belong here). */
export const loadInspect = () => import("./inspect.js");
/** Forking a thread from one of its checkpoints. */
export const loadHistory = () => import("./history.js");
/** The `agent` and `chat` threads' agents and stored profile. */
export const loadModes = () => import("./modes.js");
/** The run's deps: the model client, the tools, MCP, hooks and the logger. */
export const loadCreateDeps = () => import("./create-deps.js");
