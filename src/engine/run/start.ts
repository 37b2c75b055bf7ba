import { RunControl } from "@langchain/langgraph";
import type { EventBody } from "../../events/schema.js";
import { whoAmI } from "../../store/thread-store.js";
import { threadKnownFailureFlags } from "../../store/known-failure-flags.js";
import { sweepInterruptedWrites } from "../../tools/temp-sweep.js";
import type { EngineDeps, EngineLogger } from "../deps.js";
import { buildWorkflowGraph } from "../graph.js";
import { stopBaseline } from "../nodes/baseline-task.js";
import { inertDeps } from "../inspect.js";
import { modeOf } from "../thread-input.js";
import { positionOf } from "../position.js";
import { legWriter } from "./leg-writer.js";
import { missingGate } from "./gate-required.js";
import { inputOf, prepareInput, waitingReason, type PreparedInput } from "./input.js";
import type { InputDecision } from "./input-decision.js";
import type { RunHandle, RunOptions, RunResult } from "./options.js";
import { classify, complete, finalOutcome, gateRequiredError } from "./outcome.js";
import { settleKilledUsage, settleStoppedUsage } from "./settle-usage.js";
import { runLeg } from "./handle.js";
import { startedEvent } from "./started.js";
import { assertDatabaseFileKept } from "../../store/db-identity.js";

// For early.ts, which loads this module only once its run has started.
export { RunControl };

/** Starts (or resumes) a run of the pipeline. The only entry point renderers and commands use. */
export function startRun(options: RunOptions): RunHandle {
  const leg = runLeg(options.threadId);
  // LangGraph's cooperative drain: the loop stops at the next superstep boundary, after the checkpoint.
  const control = leg.attach(new RunControl());
  return leg.handle(leased(options, () => drive(options, leg.emit, leg.signal, control)));
}

/** What a resumed leg needs before its `run.started`: the thread's config, agents, gates, sandbox and end hooks. */
export type EarlyDeps = Pick<EngineDeps, "config" | "agents" | "gates" | "sandboxStatus" | "hooks" | "baseEnv">;

/**
 * Resumes a thread like startRun, but reads where it stands, checks the reply and says `run.started` (or, when
 * nothing runs, its outcome) before the model client, the tools, the MCP servers and the logger are loaded by
 * `load`. What refuses the resume still refuses it before any event; what fails once it started ends with an
 * `error` event and `run.completed`.
 */
export function resumeRunEarly(options: ResumeEarlyOptions): RunHandle {
  const leg = runLeg(options.threadId);
  const control = leg.attach(new RunControl());
  return leg.handle(leased(options, () => driveResumedEarly(options, leg.emit, leg.signal, control)));
}

/** What resumeRunEarly needs: the run's options but its deps, those it can say `run.started` with, and how to load the rest. */
export type ResumeEarlyOptions = Omit<RunOptions, "deps" | "start"> & { early: EarlyDeps; load(): Promise<EngineDeps> };

/** resumeRunEarly's leg, under a lease its caller holds (also src/engine/run/resume-early.ts's way when its reader cannot). */
export async function driveResumedEarly(
  options: ResumeEarlyOptions,
  emit: (e: EventBody) => void,
  signal: AbortSignal,
  control: RunControl,
): Promise<RunResult> {
  // What is logged before the logger exists is written to it once it does.
  const held: [keyof EngineLogger, object, string | undefined][] = [];
  const logger: EngineLogger = {
    info: (o, m) => held.push(["info", o, m]),
    warn: (o, m) => held.push(["warn", o, m]),
    error: (o, m) => held.push(["error", o, m]),
  };
  const early: RunOptions = { ...options, deps: { ...inertDeps(options.early.config), ...options.early, logger } };
  const late: LateDeps = {
    load: async () => {
      const deps = await options.load();
      for (const [level, obj, msg] of held.splice(0)) deps.logger[level](obj, msg);
      return deps;
    },
    logsHeld: () => held.length > 0,
  };
  return await drive(early, emit, signal, control, late);
}

/**
 * A resumed leg whose `run.started` was said from the checkpoint reader (src/engine/run/resume-early.ts), with the
 * input it decided then: runs it as drive does once the engine is loaded.
 */
export async function continueResumed(
  options: RunOptions,
  emit: (e: EventBody) => void,
  signal: AbortSignal,
  control: RunControl,
  decision: InputDecision,
): Promise<RunResult> {
  return await afterStarted(options, emit, signal, control, buildWorkflowGraph(options.deps, options.session.checkpointer), inputOf(decision));
}

// One leg of a thread: decides its input, streams the graph into events, and completes with its outcome.
// `late`, when given, brings the run's real deps once `run.started` is out (options.deps until then: no model, no tools).
async function drive(options: RunOptions, emit: (e: EventBody) => void, signal: AbortSignal, control: RunControl, late?: LateDeps): Promise<RunResult> {
  const { deps, session, threadId } = options;
  const graph = buildWorkflowGraph(deps, session.checkpointer);
  const graphConfig = { configurable: { thread_id: threadId } };
  if (!options.start) await settleKilledUsage(options);
  const position = positionOf(await graph.getState(graphConfig));
  const input = await prepareInput(options, position);

  if (input.done) {
    // Nothing to run: report where the thread stands (finished, or still waiting for its answer).
    const done = input.done;
    const reported = await complete(options, emit, done.status, done.reason, position);
    // Only for its log: the usage a killed process left unsettled was counted (see resumeRunEarly's held lines).
    if (late?.logsHeld()) await late.load().catch(() => {});
    return reported;
  }
  const requirement = options.start?.requirement ?? (position.kind === "new" ? "" : position.values.requirement);
  const here = { root: deps.config.root, artifacts: deps.config.stateDir, ...whoAmI() };
  const mode = options.start?.profile?.mode ?? (position.kind === "new" ? "run" : modeOf(position.values));
  if (options.start && mode === "run" && deps.config.requireGate) {
    const missing = missingGate(deps);
    if (missing) throw gateRequiredError(missing);
  }
  if (options.start) {
    const { startCommit = null, branch = null, repo = null } = options.start;
    await session.threads.create({ id: threadId, requirement, model: deps.config.model.name, startCommit, branch, repo, mode, ...here });
  }
  // The row says where the thread runs now: a resume may come from another working copy or machine.
  await session.threads.update(threadId, { status: "running", ...here });
  // `--known-failure` belongs to the thread: kept now, so a later resume without the flag still has it.
  if (deps.config.knownFailureFlags?.length) await threadKnownFailureFlags(deps.config.stateDir, threadId, deps.config.knownFailureFlags).catch(() => {});
  emit(
    startedEvent({
      requirement,
      config: deps.config,
      resumed: !options.start,
      logFile: options.logFile,
      mode,
      sandbox: deps.sandboxStatus,
      message: options.resume?.message,
      values: position.kind === "new" ? undefined : position.values,
    }),
  );
  if (!late) return await afterStarted(options, emit, signal, control, graph, input);
  // The event reaches the renderer (a microtask away) before the rest of the engine takes the thread.
  await new Promise((resolve) => setImmediate(resolve));
  let loaded: RunOptions;
  try {
    loaded = { ...options, deps: await late.load() };
  } catch (error) {
    const { status, code, limit, reason } = classify(error, signal, options);
    if (status !== "interrupted") emit({ type: "error", code, message: reason });
    return await complete(options, emit, status, reason, position, limit);
  }
  return await afterStarted(loaded, emit, signal, control, buildWorkflowGraph(loaded.deps, session.checkpointer), input);
}

/** The real deps of a leg started early, and whether lines logged before them wait to be written. */
interface LateDeps {
  load(): Promise<EngineDeps>;
  logsHeld(): boolean;
}

/**
 * A new thread whose start was recorded and said (src/engine/run/early.ts) before the engine was loaded: checks
 * what only LangGraph knows (the thread has no checkpoint yet), then runs it. From here on, whatever fails ends
 * the leg with an `error` event and `run.completed`, like any failure after `run.started`.
 */
export async function continueStarted(
  options: RunOptions & { start: NonNullable<RunOptions["start"]> },
  emit: (e: EventBody) => void,
  signal: AbortSignal,
  control: RunControl,
): Promise<RunResult> {
  let prepared: { graph: ReturnType<typeof buildWorkflowGraph>; input: PreparedInput };
  try {
    const graph = buildWorkflowGraph(options.deps, options.session.checkpointer);
    prepared = { graph, input: await prepareInput(options, positionOf(await graph.getState({ configurable: { thread_id: options.threadId } }))) };
  } catch (error) {
    const { status, code, limit, reason } = classify(error, signal, options);
    options.deps.logger.error({ err: error, status, limit }, "run stopped");
    if (status !== "interrupted") emit({ type: "error", code, message: reason });
    return await complete(options, emit, status, reason, { kind: "new" }, limit);
  }
  return await afterStarted(options, emit, signal, control, prepared.graph, prepared.input);
}

// The leg after `run.started`: start notes, then the graph streamed into events, ending with the leg's outcome.
async function afterStarted(
  options: RunOptions,
  emit: (e: EventBody) => void,
  signal: AbortSignal,
  control: RunControl,
  graph: ReturnType<typeof buildWorkflowGraph>,
  input: PreparedInput,
): Promise<RunResult> {
  const { deps, session, threadId } = options;
  const graphConfig = { configurable: { thread_id: threadId } };
  deps.logger.info({ threadId, resumed: !options.start }, "run started");
  if (!options.start) {
    // A process killed mid-write leaves its temp file beside the (intact) target; the resumed step writes again.
    const swept = await sweepInterruptedWrites(deps.config.root, [deps.config.stateDir]);
    if (swept.length) deps.logger.info({ threadId, swept }, "removed temp files of writes interrupted by a killed process");
  }
  for (const message of deps.notices ?? []) {
    emit({ type: "warning", message });
    deps.logger.warn({ threadId }, message);
  }

  const writer = legWriter(session.threads, threadId, deps.logger, emit);
  try {
    // The run's MCP servers start with the leg (a required one that fails is a config error, exit 2).
    await deps.mcp?.start({ threadId, emit });
    const stream = await graph.stream(input.value as never, {
      ...graphConfig,
      // The run's own writer: LangGraph sets its `custom` stream's only when none is given (`config.writer ??=`, a
      // RunnableConfig field its options type leaves out), so nothing comes through the stream, which says when the
      // run ends.
      ...({ writer: writer.onWrite } as object),
      streamMode: "custom",
      durability: "sync",
      // The thread's own step counter (state.steps, checked before each node) stops first; LangGraph's limit,
      // which restarts at every resume, only backs it up.
      recursionLimit: deps.config.limits.maxSteps + 10,
      signal,
      control,
    });
    try {
      for await (const _ of stream) throw new Error("LangGraph did not take the run's writer: an event came through its stream");
    } finally {
      writer.stop();
    }
    await writer.finish();
    // A database removed during the run (SQLite wrote on into the deleted file) ends it as an error, never "passed".
    if (deps.config.database.kind === "sqlite") assertDatabaseFileKept(deps.config.database.path);
    const after = positionOf(await graph.getState(graphConfig));
    if (after.kind === "waiting") return await complete(options, emit, "waiting", waitingReason(after), after);
    if (after.kind === "finished") {
      const outcome = finalOutcome(after.values);
      return await complete(options, emit, outcome.status, outcome.reason, after);
    }
    return await complete(options, emit, "error", `the run stopped before ${after.kind === "pending" ? after.next.join(", ") : "its end"}`, after);
  } catch (error) {
    // The reason is worded for this thread by the front end (limits name the command that continues it).
    const { status, code, limit, reason } = classify(error, signal, options);
    deps.logger.error({ err: error, status, limit }, "run stopped");
    if (status !== "interrupted") emit({ type: "error", code, message: reason });
    await settleStoppedUsage(options, await writer.stopped());
    const latest = positionOf(await graph.getState(graphConfig).catch(() => ({ next: [], tasks: [], values: {} }) as never));
    return await complete(options, emit, status, reason, latest, limit);
  } finally {
    // A baseline still running beside the agents ends with its leg (a resume takes it again, or reads it if done).
    await stopBaseline(deps, threadId);
    await deps.mcp?.stop();
  }
}

// One process per thread at a time: the lease is taken before anything runs and released when the run ends.
async function leased<T>(options: Pick<RunOptions, "session" | "threadId">, run: () => Promise<T>): Promise<T> {
  const lease = await options.session.threads.acquireLease(options.threadId);
  try {
    return await run();
  } finally {
    await lease.release();
  }
}
