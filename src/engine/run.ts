import { Command, isGraphDrained, RunControl } from "@langchain/langgraph";
import { ConfigError, LimitError, ProviderError, ThreadError, unknownThreadError, YoloError } from "../errors.js";
import { exitCodeFor, type LimitKind, type RunStatus } from "../events/outcome.js";
import { EVENT_SCHEMA_VERSION, type EventBody, type YoloEvent } from "../events/schema.js";
import { ZERO_USAGE } from "../events/usage.js";
import type { EngineDeps } from "./deps.js";
import { EventChannel } from "./event-channel.js";
import { buildWorkflowGraph, workflowRouters } from "./graph.js";
import { applyEdit, reviewedRole, type ReviewResponse } from "./review.js";
import type { Session } from "./session.js";
import type { EscalationPayload } from "./nodes/escalate-node.js";
import type { ApprovalPayload } from "./nodes/human-node.js";
import { fixAttemptsMade, type PipelineStateType } from "./state.js";
import { missingGate } from "./nodes/gate-baseline.js";

/** What a paused thread waits on. */
export type WaitingRequest = EscalationPayload | ApprovalPayload;
import { positionOf, STREAM_MODES, translate, type ThreadPosition } from "./translate.js";
import { plural } from "../text/plural.js";
import { scrubValue } from "../secrets/scrub.js";
import { whoAmI } from "../store/thread-store.js";
import { sweepInterruptedWrites } from "../tools/temp-sweep.js";
import type { ThreadProfile } from "./modes.js";
import { followUp, modeOf, startInput } from "./thread-input.js";
import { leftUnsettled, settleUsage, unsettledRecord, UnsettledUsage } from "./unsettled-usage.js";
import { storageFault } from "../store/db.js";
import { runEndHooks } from "../hooks/step-hooks.js";

export interface RunOptions {
  deps: EngineDeps;
  session: Session;
  threadId: string;
  /** Start a new thread with this requirement (for `agent` / `chat`: the user's message)… */
  start?: { requirement: string; startCommit?: string | null; branch?: string | null; repo?: string | null; profile?: ThreadProfile };
  /**
   * …or continue an existing one, optionally answering the question (or the review) it waits on; or, for a
   * finished `agent` / `chat` thread, with a follow-up `message` that continues the conversation.
   */
  resume?: { answer?: string; review?: ReviewResponse; message?: string };
  /** Path of this run's log file, named in events and error messages. */
  logFile: string;
  /** Options the printed resume command must repeat to find and continue this thread (e.g. ` --db x.db --replay s.jsonl`), shell-quoted. */
  resumeArgs?: string;
}

export interface RunResult {
  threadId: string;
  status: RunStatus;
  /** Which limit stopped the run, when status is "limit" (it picks the exit code). */
  limit: LimitKind | null;
  exitCode: number;
  reason: string;
  /** The question the thread waits on, when status is "waiting". */
  question: string | null;
  /** What the thread waits on, when status is "waiting": a question, or a review with its artifact. */
  request: WaitingRequest | null;
  resumeCommand: string | null;
}

export interface RunHandle {
  threadId: string;
  /** Every event of the run, buffered until read; ends after `run.completed`. */
  events: AsyncIterable<YoloEvent>;
  result: Promise<RunResult>;
  /** Stops the run; the last completed step's checkpoint stands and the thread stays resumable. */
  cancel(): void;
  /** Lets the running step finish and checkpoint, then stops (status "interrupted"); the thread stays resumable. */
  stopAfterStep(): void;
}

/** Starts (or resumes) a run of the pipeline. The only entry point renderers and commands use. */
export function startRun(options: RunOptions): RunHandle {
  const channel = new EventChannel<YoloEvent>();
  const controller = new AbortController();
  // LangGraph's cooperative drain: the loop stops at the next superstep boundary, after the checkpoint.
  const control = new RunControl();
  const emit = (body: EventBody) =>
    channel.push(scrubValue({ ...body, v: EVENT_SCHEMA_VERSION, thread: options.threadId, ts: new Date().toISOString() }) as YoloEvent);
  const result = leased(options, () => drive(options, emit, controller.signal, control)).finally(() => channel.close());
  return {
    threadId: options.threadId,
    events: channel,
    result,
    cancel: () => controller.abort(),
    stopAfterStep: () => control.requestDrain("stop requested"),
  };
}

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
    if (missing) throw new ConfigError(`No gate: ${missing}. requireGate (--require-gate) refuses a run without one; nothing ran. Add a test script or \`gates\` in yolo.config.ts.`);
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
    const classified = classify(error, signal, deps, options.logFile);
    const { status, code, limit } = classified;
    // Limits name the command that continues; nodes do not know the thread id, the run does.
    const reason = classified.reason.replaceAll("yolo resume <thread>", `yolo resume ${threadId}`);
    deps.logger.error({ err: error, status, limit }, "run stopped");
    if (status !== "interrupted") emit({ type: "error", code, message: reason });
    await written;
    await settleUsage(session.checkpointer, threadId, unsettled.take())
      .then(() => session.threads.update(threadId, { unsettledUsage: null }))
      .catch((err: unknown) => deps.logger.error({ err }, "could not record the usage of the stopped node"));
    const latest = positionOf(await graph.getState(graphConfig).catch(() => ({ next: [], tasks: [], values: {} }) as never));
    return await complete(options, emit, status, reason, latest, limit);
  } finally {
    await deps.mcp?.stop();
  }
}

/** On resume: adds what a killed process had paid for in a node that never completed to the latest checkpoint. */
async function settleKilledUsage(options: RunOptions): Promise<void> {
  const { session, threadId, deps } = options;
  const row = await session.threads.get(threadId);
  if (!row?.unsettledUsage) return;
  const latest = await session.checkpointer.getTuple({ configurable: { thread_id: threadId } });
  const saved = {
    steps: Number((latest?.checkpoint.channel_values as { steps?: unknown } | undefined)?.steps ?? 0),
    pendingNodes: new Set((latest?.pendingWrites ?? []).filter(([, channel]) => channel === "usageByNode").flatMap(([, , value]) => Object.keys((value as object) ?? {}))),
  };
  const byNode = latest ? leftUnsettled(row.unsettledUsage, saved) : null;
  if (byNode) {
    await settleUsage(session.checkpointer, threadId, byNode);
    deps.logger.info({ threadId, byNode }, "counted the usage of a node whose process was killed");
  }
  await session.threads.update(threadId, { unsettledUsage: null });
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

/** Decides the graph input, or that there is nothing to run. Refuses what cannot be meant. */
async function prepareInput(
  options: RunOptions,
  position: ThreadPosition,
): Promise<{ value: unknown; done?: undefined } | { value?: undefined; done: { status: RunStatus; reason: string } }> {
  const { threadId } = options;
  if (options.start) {
    if (position.kind !== "new") throw new ThreadError(`Thread ${threadId} already exists; start a new run or use \`yolo resume ${threadId}\`.`);
    return { value: startInput(options.start.requirement, options.start.profile ?? { mode: "run" }) };
  }
  const { answer, review, message } = options.resume ?? {};
  const given = answer !== undefined || review !== undefined;
  if (message !== undefined) return followUp(threadId, position, message, given);
  switch (position.kind) {
    case "new": {
      // In the index but without a checkpoint: the process was killed before LangGraph saved the first step.
      const row = await options.session.threads.get(threadId);
      if (row) {
        throw new ThreadError(
          `Thread ${threadId} has no checkpoint: the run was stopped before its first step, so there is nothing to resume. Start it again with: yolo run${options.resumeArgs ?? ""} ${shellQuote(row.requirement)}`,
        );
      }
      throw unknownThreadError(threadId);
    }
    case "finished":
      if (given) throw new ThreadError(`Thread ${threadId} has finished; it is not waiting for an answer.`);
      return { done: finalOutcome(position.values) };
    case "waiting":
      if (!given) return { done: { status: "waiting", reason: waitingReason(position) } };
      return { value: new Command({ resume: responseFor(position, answer, review, options.deps) }) };
    case "pending":
      if (given) throw new ThreadError(`Thread ${threadId} is not waiting for an answer; resume it without --answer, --approve, --edit or --reject.`);
      return { value: null };
  }
}

function waitingReason(position: Extract<ThreadPosition, { kind: "waiting" }>): string {
  return position.request.kind === "approval" ? `${position.node} waits for a review: ${position.question}` : `${position.askedBy} asks: ${position.question}`;
}

/** The resume value for what the thread waits on; a mismatch or an unusable edit is refused before anything runs. */
function responseFor(
  position: Extract<ThreadPosition, { kind: "waiting" }>,
  answer: string | undefined,
  review: ReviewResponse | undefined,
  deps: EngineDeps,
): unknown {
  const request = position.request;
  if (request.kind === "question") {
    if (answer === undefined) throw new ThreadError(`${position.askedBy} asked a question, not for a review: answer it with --answer "…".`);
    return answer;
  }
  if (review === undefined) throw new ThreadError(`${position.node} waits for a review, not an answer: use --approve, --edit <file> or --reject "why".`);
  if (review.action === "edit") {
    const checked = applyEdit(reviewedRole(deps.config.workflow, request.reviews), request.reviews, review.content);
    if ("error" in checked) throw new ThreadError(`The edit cannot be used: ${checked.error}. The thread still waits for its review.`);
  }
  return review;
}

/** The outcome of a finished thread, from its state alone (the fix attempts it made, not the resuming command's limit). */
function finalOutcome(values: PipelineStateType): { status: RunStatus; reason: string } {
  const mode = modeOf(values);
  if (mode !== "run") {
    // An agent or chat thread has no gate: it succeeded when its agent answered (exit 0).
    const answer = values.conversation.at(-1);
    const first = answer?.role === "agent" ? answer.text.trim().split("\n")[0] : "";
    return { status: "passed", reason: `completed: ${values.agentId ?? mode} answered${first ? `: ${first.length > 100 ? `${first.slice(0, 99)}…` : first}` : ""}` };
  }
  const lastReview = values.reviews.at(-1);
  if (lastReview?.action === "reject" && lastReview.node === null) {
    return { status: "failed", reason: `rejected at ${lastReview.by}: ${lastReview.reason ?? "no reason given"}` };
  }
  if (!values.gateBlocked) {
    // Never "gate passed" without a gate: the words say the change was not checked by tests.
    if (!values.lastGates.length) return { status: "passed", reason: `completed without a gate${values.gateBaseline?.noGate ? ` (${values.gateBaseline.noGate})` : ""}, verdict ${values.verdict ?? "none"}` };
    const gates = `${values.lastGates.filter((g) => g.passed).length}/${values.lastGates.length} gates passed`;
    return { status: "passed", reason: `completed: ${gates}${preExistingNote(values.lastGates)}, verdict ${values.verdict ?? "none"}` };
  }
  const red = values.lastGates.filter((g) => g.blocking ?? (g.required && !g.passed)).map((g) => g.name);
  const why = red.length ? `gate ${red.join(", ")} still ${blockingWords(values.lastGates)}` : `tea verdict ${values.verdict}`;
  return { status: "failed", reason: `${why} after ${plural(fixAttemptsMade(values), "fix attempt")}` };
}

/** ` (1 pre-existing failure: …)`: failures the baseline already had, which did not block. */
function preExistingNote(gates: PipelineStateType["lastGates"]): string {
  const ids = gates.flatMap((g) => g.preExisting ?? []);
  return ids.length ? ` (${plural(ids.length, "pre-existing failure")}: ${ids.slice(0, 3).join("; ")}${ids.length > 3 ? "; …" : ""})` : "";
}

/** What still blocks, in words: a refused gate change, regressions, or plain failures. */
function blockingWords(gates: PipelineStateType["lastGates"]): string {
  const change = gates.find((g) => g.gateChange?.length && !g.gateChangeApproved)?.gateChange;
  if (change) return `changed by an agent, refused (${change[0]}${change.length > 1 ? `; ${change.length - 1} more` : ""})`;
  const regressions = gates.flatMap((g) => g.regressions ?? []);
  if (regressions.length) return `regressed (${regressions.slice(0, 3).join("; ")}${regressions.length > 3 ? "; …" : ""})`;
  return "failing";
}

async function complete(
  options: RunOptions,
  emit: (e: EventBody) => void,
  status: RunStatus,
  reason: string,
  position: ThreadPosition,
  limit: LimitKind | null = null,
): Promise<RunResult> {
  const { threadId, session } = options;
  const exitCode = exitCodeFor(status, limit);
  const resumable = status === "waiting" || status === "limit" || status === "provider_error" || status === "interrupted" || status === "error";
  const approval = position.kind === "waiting" && position.request.kind === "approval";
  const resumeCommand =
    status === "waiting"
      ? approval
        ? `yolo resume ${threadId}${options.resumeArgs ?? ""} --approve | --edit <file> | --reject "<why>"`
        : `yolo resume ${threadId}${options.resumeArgs ?? ""} --answer "<your answer>"`
      : resumable
        ? `yolo resume ${threadId}${options.resumeArgs ?? ""}`
        : null;
  const question = position.kind === "waiting" ? position.question : null;
  const values = position.kind === "new" ? null : position.values;
  if (position.kind === "waiting") {
    const request = position.request;
    emit({
      type: "interrupt",
      node: position.node,
      askedBy: position.askedBy,
      question: position.question,
      resumeCommand: resumeCommand!,
      kind: request.kind,
      artifact: request.kind === "approval" ? request.artifact : null,
    });
  }
  try {
    if (await session.threads.get(threadId)) await session.threads.update(threadId, { status, exitCode, reason });
  } catch {
    // A full or read-only disk: the outcome still reaches the caller; the index is brought up to date on resume.
  }
  await runEndHooks(options.deps.hooks, { status, exitCode, reason, mode: values ? modeOf(values) : (options.start?.profile?.mode ?? "run"), filesChanged: values?.filesChanged ?? [], usage: values?.usage ?? ZERO_USAGE, resumeCommand }, { emit, threadId });
  emit({
    type: "run.completed",
    status,
    ...(status === "limit" && limit ? { limit } : {}),
    exitCode,
    reason,
    usage: values?.usage ?? ZERO_USAGE,
    filesChanged: values?.filesChanged ?? [],
    resumeCommand,
  });
  const request = position.kind === "waiting" ? position.request : null;
  return { threadId, status, limit: status === "limit" ? limit : null, exitCode, reason, question, request, resumeCommand };
}

/** Maps whatever stopped the run to a status and a message that says what to do next. */
function classify(
  error: unknown,
  signal: AbortSignal,
  deps: EngineDeps,
  logFile: string,
): { status: RunStatus; reason: string; code: string; limit: LimitKind | null } {
  const none = { limit: null };
  if (signal.aborted) return { status: "interrupted", reason: "interrupted; the last completed step is saved", code: "interrupted", ...none };
  if (isGraphDrained(error)) return { status: "interrupted", reason: "stopped on request once the running step had finished", code: "interrupted", ...none };
  const known = sqliteFault(error, deps) ?? findYoloError(error) ?? deps.classifyError(error, deps.config.model.name);
  if (known instanceof LimitError) return { status: "limit", reason: known.message, code: known.code, limit: known.kind };
  if (known instanceof ProviderError) return { status: "provider_error", reason: known.message, code: known.code, ...none };
  if (known instanceof YoloError && known.code === "hook") return { status: "interrupted", reason: known.message, code: known.code, ...none };
  if (known instanceof ConfigError || known instanceof ThreadError) return { status: "config_error", reason: known.message, code: known.code, ...none };
  if (known instanceof YoloError) return { status: "error", reason: `${known.message} (log: ${logFile})`, code: known.code, ...none };
  if ((error as Error)?.name === "GraphRecursionError") {
    return {
      status: "limit",
      reason: `the run reached LangGraph's step limit (${deps.config.limits.maxSteps + 10} steps in one leg). Raise limits.maxSteps (--max-steps) and resume.`,
      code: "limit",
      limit: "steps",
    };
  }
  return { status: "error", reason: `unexpected error: ${(error as Error)?.message ?? String(error)} (log: ${logFile})`, code: "unexpected", ...none };
}

function findYoloError(error: unknown): YoloError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof YoloError) return e;
  }
  return null;
}

// POSIX single quotes, so the printed command can be pasted whatever the requirement holds.
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A full, read-only or failing disk under the SQLite file, as a storage error naming it (PostgreSQL reports its own). */
function sqliteFault(error: unknown, deps: EngineDeps): YoloError | null {
  return deps.config.database.kind === "sqlite" ? storageFault(error, deps.config.database.path) : null;
}
