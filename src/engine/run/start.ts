import { RunControl } from "@langchain/langgraph";
import { EVENT_SCHEMA_VERSION, type EventBody, type YoloEvent } from "../../events/schema.js";
import { scrubValue } from "../../secrets/scrub.js";
import { scrubbedTokens } from "./token-scrub.js";
import { whoAmI } from "../../store/thread-store.js";
import { sweepInterruptedWrites } from "../../tools/temp-sweep.js";
import { EventChannel } from "../event-channel.js";
import { buildWorkflowGraph, workflowRouters } from "../graph.js";
import { missingGate } from "../nodes/gate-baseline.js";
import { modeOf } from "../thread-input.js";
import { positionOf, STREAM_MODES, translate } from "../translate.js";
import { UnsettledUsage, unsettledRecord } from "../unsettled-usage.js";
import { prepareInput, waitingReason } from "./input.js";
import type { RunHandle, RunOptions, RunResult } from "./options.js";
import { classify, complete, finalOutcome, gateRequiredError } from "./outcome.js";
import { settleKilledUsage, settleStoppedUsage } from "./settle-usage.js";

/** Starts (or resumes) a run of the pipeline. The only entry point renderers and commands use. */
export function startRun(options: RunOptions): RunHandle {
  const channel = new EventChannel<YoloEvent>();
  const controller = new AbortController();
  // LangGraph's cooperative drain: the loop stops at the next superstep boundary, after the checkpoint.
  const control = new RunControl();
  const push = (body: EventBody) =>
    channel.push(scrubValue({ ...body, v: EVENT_SCHEMA_VERSION, thread: options.threadId, ts: new Date().toISOString() }) as YoloEvent);
  const emit = scrubbedTokens(push);
  const result = leased(options, () => drive(options, emit, controller.signal, control)).finally(() => channel.close());
  return {
    threadId: options.threadId,
    events: channel,
    result,
    cancel: () => controller.abort(),
    stopAfterStep: () => control.requestDrain("stop requested"),
  };
}

// One leg of a thread: decides its input, streams the graph into events, and completes with its outcome.
async function drive(options: RunOptions, emit: (e: EventBody) => void, signal: AbortSignal, control: RunControl): Promise<RunResult> {
  const { deps, session, threadId } = options;
  const graph = buildWorkflowGraph(deps, session.checkpointer);
  const graphConfig = { configurable: { thread_id: threadId } };
  if (!options.start) await settleKilledUsage(options);
  const position = positionOf(await graph.getState(graphConfig));
  const input = await prepareInput(options, position);

  if (input.done) {
    // Nothing to run: report where the thread stands (finished, or still waiting for its answer).
    return await complete(options, emit, input.done.status, input.done.reason, position);
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
  emit({
    type: "run.started",
    requirement,
    model: deps.config.model.name,
    resumed: !options.start,
    nodes: Object.keys(deps.config.workflow.nodes),
    logFile: options.logFile,
    maxFixAttempts: deps.config.maxFixAttempts,
    price: deps.config.model.price,
    mode,
    ...(deps.sandboxStatus ? { sandbox: deps.sandboxStatus } : {}),
    ...(options.resume?.message !== undefined ? { message: options.resume.message } : {}),
    ...(position.kind === "new" ? {} : { ran: Object.keys(position.values.visits ?? {}), usageSoFar: position.values.usage }),
  });
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

  // Usage of calls whose node has not completed: settled into the checkpoint if the run stops mid-node.
  const unsettled = new UnsettledUsage();
  let kept = false; // whether the row holds unsettled usage now
  let startedAtStep = 0; // the thread's steps when the running node started
  // Row writes stay in order (a pool may run concurrent queries on different connections). Nothing slow is awaited
  // while reading the stream: LangGraph errors its stream when a run stops, and a stream errored with chunks still
  // queued drops them (the last node.completed of a drained run went missing that way).
  let written: Promise<void> = Promise.resolve();
  const queueRowWrite = (write: () => Promise<unknown>) => {
    written = written.then(write).then(
      () => {},
      (err: unknown) => deps.logger.warn({ err, threadId }, "could not update the thread row"),
    );
  };
  try {
    // The run's MCP servers start with the leg (a required one that fails is a config error, exit 2).
    await deps.mcp?.start({ threadId, emit });
    const stream = await graph.stream(input.value as never, {
      ...graphConfig,
      streamMode: [...STREAM_MODES],
      durability: "sync",
      // The thread's own step counter (state.steps, checked before each node) stops first; LangGraph's limit,
      // which restarts at every resume, only backs it up.
      recursionLimit: deps.config.limits.maxSteps + 10,
      signal,
      control,
    });
    // Progress notes: unsynced on SQLite (see UpdateOptions), and a node already in the row is not written again.
    let rowNode: string | null = null;
    const setNode = (node: string) => {
      if (node === rowNode) return;
      rowNode = node;
      queueRowWrite(() => session.threads.update(threadId, { currentNode: node }, { progress: true }));
    };
    for await (const event of translate(stream, workflowRouters(deps.config.workflow, deps.config.maxFixAttempts), setNode)) {
      if (event.type === "node.started") {
        setNode(event.node);
        startedAtStep = event.step ?? startedAtStep;
      }
      unsettled.observe(event);
      if (event.type === "usage" || (event.type === "node.completed" && kept)) {
        // The running node's paid calls, kept in the row with the step it started at: a kill -9 loses nothing
        // (settleKilledUsage counts them on resume). Cleared once no node has unsettled calls.
        const record = unsettledRecord(startedAtStep, unsettled.peek());
        kept = record !== null;
        queueRowWrite(() => session.threads.update(threadId, { unsettledUsage: record }, { progress: true }));
      }
      emit(event);
    }
    await written;
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
    await written;
    await settleStoppedUsage(options, unsettled.take());
    const latest = positionOf(await graph.getState(graphConfig).catch(() => ({ next: [], tasks: [], values: {} }) as never));
    return await complete(options, emit, status, reason, latest, limit);
  } finally {
    await deps.mcp?.stop();
  }
}

// One process per thread at a time: the lease is taken before anything runs and released when the run ends.
async function leased<T>(options: RunOptions, run: () => Promise<T>): Promise<T> {
  const lease = await options.session.threads.acquireLease(options.threadId);
  try {
    return await run();
  } finally {
    await lease.release();
  }
}
