import type { ResolvedConfig } from "../../config/schema.js";
import type { EventBody } from "../../events/schema.js";
import type { ThreadIndex } from "../../store/thread-index.js";
import { type ThreadStore, whoAmI } from "../../store/thread-store.js";
import type { EngineDeps } from "../deps.js";
import type { Session } from "../session.js";
import { readLatestState } from "../stored-thread.js";
import { modeOf } from "../thread-input.js";
import { complete } from "./complete.js";
import { decideInput } from "./input-decision.js";
import type { RunHandle, RunOptions, RunResult } from "./options.js";
import { type AttachDrain, runLeg } from "./handle.js";
import { startedEvent } from "./started.js";
import type { EarlyDeps } from "./start.js";

// Light on purpose: nothing here (or imported statically) loads LangGraph, LangChain, the model client or the tools.

/** A resume on SQLite, said before the engine loads when the checkpoint reader can stand in for LangGraph. */
export interface ResumeLightOptions extends Pick<RunOptions, "threadId" | "resume" | "logFile" | "words"> {
  /** The configured (not the thread's) config: the reader compiles the thread's own profile from it, as `show` does. */
  baseConfig: ResolvedConfig;
  /** The opened database's thread index (the lease and the thread's row). */
  threads: ThreadStore;
  /** The checkpoint reader (SQLite only; without it the resume goes LangGraph's way). */
  rows: Pick<ThreadIndex, "checkpointRows">;
  /** The thread's config, agents, gates, sandbox and end hooks. */
  early: EarlyDeps;
  /** The whole session (loads LangGraph's checkpointer). */
  session(): Promise<Session>;
  /** The run's real deps (the model client, the tools, the logger). */
  load(): Promise<EngineDeps>;
}

/**
 * Resumes a thread like resumeRunEarly, but on SQLite reads where it stands with the checkpoint reader, decides its
 * input and says `run.started` (or, when nothing runs, its outcome) before LangGraph is loaded. It does so only when
 * that is exactly what LangGraph would see: the reader decodes the latest checkpoint and no killed process left
 * usage to settle into it first. Otherwise, and on PostgreSQL, resumeRunEarly's own leg runs (src/engine/run/start.ts).
 */
export function resumeRunLight(options: ResumeLightOptions): RunHandle {
  const leg = runLeg(options.threadId);
  return leg.handle(
    (async () => {
      const lease = await options.threads.acquireLease(options.threadId);
      try {
        // Ctrl+C before LangGraph is loaded: the drain is asked for once its RunControl exists.
        return await lightLeg(options, leg.emit, leg.signal, leg.attach);
      } finally {
        await lease.release();
      }
    })(),
  );
}

// The leg under the lease: drive()'s steps for a resume, in the same order, with the reader's position.
async function lightLeg(options: ResumeLightOptions, emit: (e: EventBody) => void, signal: AbortSignal, control: AttachDrain): Promise<RunResult> {
  const { threadId, threads, early } = options;
  const row = await threads.get(threadId);
  // Usage a killed process left in the row is settled through LangGraph's checkpointer before anything is read.
  const state = row && !row.unsettledUsage ? readLatestState(options.baseConfig, options.rows, threadId) : null;
  if (!state) {
    const [{ driveResumedEarly, RunControl }, session] = await Promise.all([import("./start.js"), options.session()]);
    const { resume, logFile, words, load } = options;
    return await driveResumedEarly({ session, threadId, resume, logFile, words, early, load }, emit, signal, control(new RunControl()));
  }
  const { position, values } = state;
  const decision = await decideInput({ threadId, resume: options.resume, deps: early, threads }, position);
  const light = { threadId, words: options.words, deps: early, session: { threads } };
  // Nothing to run: report where the thread stands (finished, or still waiting for its answer).
  if (decision.done) return await complete(light, emit, decision.done.status, decision.done.reason, position);
  const config = early.config;
  const here = { root: config.root, artifacts: config.stateDir, ...whoAmI() };
  // The row says where the thread runs now: a resume may come from another working copy or machine.
  await threads.update(threadId, { status: "running", ...here });
  emit(
    startedEvent({
      requirement: values.requirement,
      config,
      resumed: true,
      logFile: options.logFile,
      mode: modeOf(values),
      sandbox: early.sandboxStatus,
      message: options.resume?.message,
      values,
    }),
  );
  // The event reaches the renderer (a microtask away) before the rest of the engine takes the thread.
  await new Promise((resolve) => setImmediate(resolve));
  let loaded: [typeof import("./start.js"), EngineDeps, Session];
  try {
    loaded = await Promise.all([import("./start.js"), options.load(), options.session()]);
  } catch (error) {
    // As drive() classifies a failed load: with the deps the leg said `run.started` with.
    const [{ classify }, { inertDeps }] = await Promise.all([import("./outcome.js"), import("../inspect.js")]);
    const { status, code, limit, reason } = classify(error, signal, { ...options, deps: { ...inertDeps(early.config), ...early } });
    if (status !== "interrupted") emit({ type: "error", code, message: reason });
    return await complete(light, emit, status, reason, position, limit);
  }
  const [{ continueResumed, RunControl }, deps, session] = loaded;
  const run: RunOptions = { deps, session, threadId, resume: options.resume, logFile: options.logFile, words: options.words };
  return await continueResumed(run, emit, signal, control(new RunControl()), decision);
}
