import { Command } from "@langchain/langgraph";
import { ConfigError, LimitError, ProviderError, ThreadError, YoloError } from "../errors.js";
import { exitCodeFor, type RunStatus } from "../events/outcome.js";
import { EVENT_SCHEMA_VERSION, type EventBody, type YoloEvent } from "../events/schema.js";
import { ZERO_USAGE } from "../events/usage.js";
import type { EngineDeps } from "./deps.js";
import { EventChannel } from "./event-channel.js";
import { buildPipeline, PIPELINE_NODES, pipelineRouters } from "./graph.js";
import type { Session } from "./session.js";
import type { PipelineStateType } from "./state.js";
import { positionOf, STREAM_MODES, translate, type ThreadPosition } from "./translate.js";
import { plural } from "../text/plural.js";

export interface RunOptions {
  deps: EngineDeps;
  session: Session;
  threadId: string;
  /** Start a new thread with this requirement… */
  start?: { requirement: string };
  /** …or continue an existing one, optionally answering the question it waits on. */
  resume?: { answer?: string };
  /** Path of this run's log file, named in events and error messages. */
  logFile: string;
}

export interface RunResult {
  threadId: string;
  status: RunStatus;
  exitCode: number;
  reason: string;
  /** The question the thread waits on, when status is "waiting". */
  question: string | null;
  resumeCommand: string | null;
}

export interface RunHandle {
  threadId: string;
  /** Every event of the run, buffered until read; ends after `run.completed`. */
  events: AsyncIterable<YoloEvent>;
  result: Promise<RunResult>;
  /** Stops the run; the last completed step's checkpoint stands and the thread stays resumable. */
  cancel(): void;
}

/** Starts (or resumes) a run of the pipeline. The only entry point renderers and commands use. */
export function startRun(options: RunOptions): RunHandle {
  const channel = new EventChannel<YoloEvent>();
  const controller = new AbortController();
  const emit = (body: EventBody) =>
    channel.push({ ...body, v: EVENT_SCHEMA_VERSION, thread: options.threadId, ts: new Date().toISOString() } as YoloEvent);
  const result = drive(options, emit, controller.signal).finally(() => channel.close());
  return { threadId: options.threadId, events: channel, result, cancel: () => controller.abort() };
}

async function drive(options: RunOptions, emit: (e: EventBody) => void, signal: AbortSignal): Promise<RunResult> {
  const { deps, session, threadId } = options;
  const graph = buildPipeline(deps, session.checkpointer);
  const graphConfig = { configurable: { thread_id: threadId } };
  const position = positionOf(await graph.getState(graphConfig));
  const input = prepareInput(options, position);

  if (input.done) {
    // Nothing to run: report where the thread stands (finished, or still waiting for its answer).
    return complete(options, emit, input.done.status, input.done.reason, position);
  }
  const requirement = options.start?.requirement ?? (position.kind === "new" ? "" : position.values.requirement);
  if (options.start) session.index.create({ id: threadId, requirement, model: deps.config.model.name, root: deps.config.root });
  session.index.update(threadId, { status: "running" });
  emit({
    type: "run.started",
    requirement,
    model: deps.config.model.name,
    resumed: !options.start,
    nodes: [...PIPELINE_NODES],
    logFile: options.logFile,
  });
  deps.logger.info({ threadId, resumed: !options.start }, "run started");

  try {
    const stream = await graph.stream(input.value as never, {
      ...graphConfig,
      streamMode: [...STREAM_MODES],
      durability: "sync",
      recursionLimit: deps.config.limits.maxSteps,
      signal,
    });
    const onNodeDone = (node: string) => session.index.update(threadId, { currentNode: node });
    for await (const event of translate(stream, pipelineRouters(deps.config.maxFixAttempts), onNodeDone)) {
      if (event.type === "node.started") session.index.update(threadId, { currentNode: event.node });
      emit(event);
    }
    const after = positionOf(await graph.getState(graphConfig));
    if (after.kind === "waiting") return complete(options, emit, "waiting", `${after.askedBy} asks: ${after.question}`, after);
    if (after.kind === "finished") {
      const outcome = finalOutcome(after.values, deps.config.maxFixAttempts);
      return complete(options, emit, outcome.status, outcome.reason, after);
    }
    return complete(options, emit, "error", `the run stopped before ${after.kind === "pending" ? after.next.join(", ") : "its end"}`, after);
  } catch (error) {
    const { status, reason, code } = classify(error, signal, deps, options.logFile);
    deps.logger.error({ err: error, status }, "run stopped");
    if (status !== "interrupted") emit({ type: "error", code, message: reason });
    const latest = positionOf(await graph.getState(graphConfig).catch(() => ({ next: [], tasks: [], values: {} }) as never));
    return complete(options, emit, status, reason, latest);
  }
}

/** Decides the graph input, or that there is nothing to run. Refuses what cannot be meant. */
function prepareInput(
  options: RunOptions,
  position: ThreadPosition,
): { value: unknown; done?: undefined } | { value?: undefined; done: { status: RunStatus; reason: string } } {
  const { threadId } = options;
  if (options.start) {
    if (position.kind !== "new") throw new ThreadError(`Thread ${threadId} already exists; start a new run or use \`yolo resume ${threadId}\`.`);
    return { value: { requirement: options.start.requirement } };
  }
  const answer = options.resume?.answer;
  switch (position.kind) {
    case "new":
      throw new ThreadError(`Thread ${threadId} has no checkpoint in this project. List threads with \`yolo threads\`.`);
    case "finished":
      if (answer !== undefined) throw new ThreadError(`Thread ${threadId} has finished; it is not waiting for an answer.`);
      return { done: finalOutcome(position.values, options.deps.config.maxFixAttempts) };
    case "waiting":
      if (answer === undefined) return { done: { status: "waiting", reason: `${position.askedBy} asks: ${position.question}` } };
      return { value: new Command({ resume: answer }) };
    case "pending":
      if (answer !== undefined) throw new ThreadError(`Thread ${threadId} is not waiting for an answer; resume it without --answer.`);
      return { value: null };
  }
}

/** The outcome of a finished thread, from its state alone. */
function finalOutcome(values: PipelineStateType, maxFixAttempts: number): { status: RunStatus; reason: string } {
  if (!values.gateBlocked) {
    const gates = values.lastGates.length ? `${values.lastGates.filter((g) => g.passed).length}/${values.lastGates.length} gates passed` : "no gates configured";
    return { status: "passed", reason: `completed: ${gates}, verdict ${values.verdict ?? "none"}` };
  }
  const red = values.lastGates.filter((g) => g.required && !g.passed).map((g) => g.name);
  const why = red.length ? `gate ${red.join(", ")} still failing` : `tea verdict ${values.verdict}`;
  return { status: "failed", reason: `${why} after ${plural(maxFixAttempts, "fix attempt")}` };
}

function complete(
  options: RunOptions,
  emit: (e: EventBody) => void,
  status: RunStatus,
  reason: string,
  position: ThreadPosition,
): RunResult {
  const { threadId, session } = options;
  const exitCode = exitCodeFor(status);
  const resumable = status === "waiting" || status === "limit" || status === "provider_error" || status === "interrupted" || status === "error";
  const resumeCommand =
    status === "waiting" ? `yolo resume ${threadId} --answer "<your answer>"` : resumable ? `yolo resume ${threadId}` : null;
  const question = position.kind === "waiting" ? position.question : null;
  const values = position.kind === "new" ? null : position.values;
  if (position.kind === "waiting") {
    emit({ type: "interrupt", node: position.node, askedBy: position.askedBy, question: position.question, resumeCommand: resumeCommand! });
  }
  if (session.index.get(threadId)) session.index.update(threadId, { status, exitCode, reason });
  emit({
    type: "run.completed",
    status,
    exitCode,
    reason,
    usage: values?.usage ?? ZERO_USAGE,
    filesChanged: values?.filesChanged ?? [],
    resumeCommand,
  });
  return { threadId, status, exitCode, reason, question, resumeCommand };
}

/** Maps whatever stopped the run to a status and a message that says what to do next. */
function classify(
  error: unknown,
  signal: AbortSignal,
  deps: EngineDeps,
  logFile: string,
): { status: RunStatus; reason: string; code: string } {
  if (signal.aborted) return { status: "interrupted", reason: "interrupted; the last completed step is saved", code: "interrupted" };
  const known = findYoloError(error) ?? deps.classifyError(error, deps.config.model.name);
  if (known instanceof LimitError) return { status: "limit", reason: known.message, code: known.code };
  if (known instanceof ProviderError) return { status: "provider_error", reason: known.message, code: known.code };
  if (known instanceof ConfigError || known instanceof ThreadError) return { status: "config_error", reason: known.message, code: known.code };
  if (known instanceof YoloError) return { status: "error", reason: `${known.message} (log: ${logFile})`, code: known.code };
  if ((error as Error)?.name === "GraphRecursionError") {
    return {
      status: "limit",
      reason: `the run reached its step limit (${deps.config.limits.maxSteps} steps). Raise limits.maxSteps in yolo.config.ts and resume.`,
      code: "limit",
    };
  }
  return { status: "error", reason: `unexpected error: ${(error as Error)?.message ?? String(error)} (log: ${logFile})`, code: "unexpected" };
}

function findYoloError(error: unknown): YoloError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof YoloError) return e;
  }
  return null;
}
