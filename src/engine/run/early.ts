import type { ResolvedConfig } from "../../config/schema.js";
import { outcomeOfError, YoloError } from "../../errors.js";
import { exitCodeFor } from "../../events/outcome.js";
import type { EventBody } from "../../events/schema.js";
import { ZERO_USAGE } from "../../events/usage.js";
import type { SandboxStatus } from "../../exec/sandbox.js";
import { type ThreadStore, whoAmI } from "../../store/thread-store.js";
import type { EngineDeps } from "../deps.js";
import type { Session } from "../session.js";
import { gateRequiredError, missingGate } from "./gate-required.js";
import type { RunHandle, RunOptions, RunResult } from "./options.js";
import { runLeg } from "./handle.js";
import { completedEvent } from "./completed.js";
import { startedEvent } from "./started.js";

// Light on purpose: nothing here (or imported statically) loads LangGraph, LangChain, the model client or the tools.

/** A new thread's first leg, started before the engine's heavy modules are loaded. */
export interface EarlyStartOptions {
  /** The thread's config (its workflow, model, limits). */
  config: ResolvedConfig;
  /** The thread index of the opened database (the lease and the thread's row). */
  threads: ThreadStore;
  threadId: string;
  start: NonNullable<RunOptions["start"]>;
  /**
   * The start commit when it is still being taken (a dirty tree's snapshot; `start.startCommit` is null meanwhile):
   * recorded in the thread's row after `run.started`, before anything runs. Its failure ends the leg.
   */
  pendingStartCommit?: Promise<string> | null;
  logFile: string;
  words: RunOptions["words"];
  /** What `run.started` states and the gate check needs, found without the engine (src/engine/run/facts.ts). */
  facts: { sandbox: SandboxStatus; gates: EngineDeps["gates"] };
  /** Loads what the run itself needs (the engine's deps, the whole session with LangGraph's checkpointer). */
  load(): Promise<{ deps: EngineDeps; session: Session }>;
}

/**
 * Starts a new thread like startRun, but says `run.started` as soon as what it states is checked and recorded:
 * the lease, a required gate, the thread's row. Only then are LangGraph and the rest loaded. What refuses the run
 * refuses it before the event, as startRun does (the result rejects, nothing is emitted); whatever fails after it
 * ends with an `error` event and `run.completed`.
 */
export function startRunEarly(options: EarlyStartOptions): RunHandle {
  const leg = runLeg(options.threadId);
  const { emit } = leg;
  return leg.handle(
    (async () => {
      const lease = await options.threads.acquireLease(options.threadId);
      try {
        emit(await recordStart(options));
        // The event reaches the renderer (a microtask away) before the heavy modules take the thread.
        await new Promise((resolve) => setImmediate(resolve));
        let loaded: [typeof import("./start.js"), Awaited<ReturnType<EarlyStartOptions["load"]>>];
        try {
          [loaded] = await Promise.all([Promise.all([import("./start.js"), options.load()]), recordStartCommit(options)]);
        } catch (error) {
          return await endUnloaded(options, emit, error);
        }
        const [{ continueStarted, RunControl }, { deps, session }] = loaded;
        // Ctrl+C before LangGraph was loaded reaches the RunControl now.
        const control = leg.attach(new RunControl());
        const run = { deps, session, threadId: options.threadId, start: options.start, logFile: options.logFile, words: options.words };
        return await continueStarted(run, emit, leg.signal, control);
      } finally {
        await lease.release();
      }
    })(),
  );
}

// What startRun checks and records before `run.started` for a new thread, in the same order; returns the event.
async function recordStart(options: EarlyStartOptions): Promise<EventBody> {
  const { config, threads, threadId, start } = options;
  const mode = start.profile?.mode ?? "run";
  if (mode === "run" && config.requireGate) {
    const missing = missingGate({ config, gates: options.facts.gates });
    if (missing) throw gateRequiredError(missing);
  }
  const here = { root: config.root, artifacts: config.stateDir, ...whoAmI() };
  const { startCommit = null, branch = null, repo = null } = start;
  // An id already in the index is refused here (a ThreadError); one with a checkpoint but no row, by continueStarted.
  // The new row already says "running" here (startRun's second write, for a resume moving machines, changes nothing).
  await threads.create({ id: threadId, requirement: start.requirement, model: config.model.name, startCommit, branch, repo, mode, ...here });
  return startedEvent({ requirement: start.requirement, config, resumed: false, logFile: options.logFile, mode, sandbox: options.facts.sandbox });
}

// The pending start commit, into the row recordStart created.
async function recordStartCommit(options: EarlyStartOptions): Promise<void> {
  if (!options.pendingStartCommit) return;
  const startCommit = await options.pendingStartCommit;
  if (!(await options.threads.update(options.threadId, { startCommit }))) {
    throw new Error(`thread ${options.threadId} has no row to record its start commit ${startCommit} in`);
  }
}

/**
 * The engine could not be loaded or built after `run.started` (a broken install, a log file that cannot be
 * opened): the leg still ends with an `error` event, the thread's row and `run.completed`, as any failure does.
 */
async function endUnloaded(options: EarlyStartOptions, emit: (e: EventBody) => void, error: unknown): Promise<RunResult> {
  const { threadId } = options;
  const known = error instanceof YoloError ? error : null;
  const { status, limit } = known ? outcomeOfError(known) : { status: "error" as const, limit: null };
  const said = known
    ? known.fact
      ? options.words.errorReason(known, threadId)
      : known.message
    : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
  const reason = status === "error" ? `${said} (log: ${options.logFile})` : said;
  const exitCode = exitCodeFor(status, limit);
  // Nothing ran, and the thread has no checkpoint: there is nothing to resume (a config error says what to fix).
  emit({ type: "error", code: known?.code ?? "unexpected", message: reason });
  await options.threads.update(threadId, { status, exitCode, reason }).catch(() => {});
  emit(completedEvent({ status, limit, exitCode, reason, usage: ZERO_USAGE, filesChanged: [], resumeCommand: null }));
  return { threadId, status, limit: status === "limit" ? limit : null, exitCode, reason, question: null, request: null, resume: null, resumeCommand: null };
}
