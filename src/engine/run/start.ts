import { RunControl } from "@langchain/langgraph";
import type { EventBody } from "../../events/schema.js";
import { sweepInterruptedWrites } from "../../tools/temp-sweep.js";
import { buildWorkflowGraph } from "../graph.js";
import { stopBaseline } from "../nodes/baseline-task.js";
import { positionOf, type ThreadPosition } from "../position.js";
import { positionFromLangGraph } from "../read-position.js";
import { assertDatabaseFileKept } from "../../store/db-identity.js";
import type { AttachDrain } from "./handle.js";
import { inputOf, waitingReason, type PreparedInput } from "./input.js";
import type { InputDecision } from "./input-decision.js";
import { legWriter } from "./leg-writer.js";
import type { RunOptions, RunResult } from "./options.js";
import { classify, complete, finalOutcome } from "./outcome.js";
import { settleKilledUsage, settleStoppedUsage } from "./settle-usage.js";

// The leg's heavy half, imported by src/engine/run/launch.ts only when a leg needs LangGraph: to read a thread
// the checkpoint reader cannot, and to run the graph once `run.started` is out.

type Graph = ReturnType<typeof buildWorkflowGraph>;

/**
 * Where the thread stands as LangGraph reads it, with `options.deps` (the real ones, or the inert ones a leg reads
 * with before its engine loads). A resume first counts what a killed process paid for into the latest checkpoint.
 */
export async function readWithLangGraph(
  options: Pick<RunOptions, "deps" | "session" | "threadId" | "start">,
): Promise<{ graph: Graph; position: ThreadPosition }> {
  const graph = buildWorkflowGraph(options.deps, options.session.checkpointer);
  if (!options.start) await settleKilledUsage(options);
  return { graph, position: await positionFromLangGraph(graph, options.session.checkpointer, options.threadId) };
}

/**
 * The leg after `run.started`, its engine loaded: `graph` when it was built with these deps (else built now), the
 * leg's RunControl handed over (a stop asked for before it existed is passed on), then the graph streamed.
 */
export async function runStarted(
  options: RunOptions,
  emit: (e: EventBody) => void,
  signal: AbortSignal,
  attach: AttachDrain,
  decision: InputDecision,
  graph: Graph | null,
): Promise<RunResult> {
  const control = attach(new RunControl());
  return await afterStarted(options, emit, signal, control, graph ?? buildWorkflowGraph(options.deps, options.session.checkpointer), inputOf(decision));
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
