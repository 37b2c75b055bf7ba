import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { baselineStep } from "../../workflow/baseline-plan.js";
import type { EngineDeps } from "../deps.js";
import type { GateBaselineRef, PipelineStateType, PipelineUpdate } from "../../state/pipeline.js";
import { emitter, threadIdOf } from "./context.js";
import { agentTools, recordedBaseline, takeBaseline } from "./gate-baseline.js";
import { missingGate } from "../run/gate-required.js";
import { sayNotice } from "../notices.js";

/** A baseline running in the background of a leg, with the node whose step started it. */
interface Task {
  result: Promise<GateBaselineRef>;
  stop: AbortController;
  /** Whether a node that calls the model ran beside it in this leg (it proved the endpoint answers). */
  overlapped: boolean;
  /** Whether it has ended (taken, failed or stopped). */
  done: boolean;
}

// The baselines running now, per run's deps and thread: one at most per thread and leg.
const tasks = new WeakMap<EngineDeps, Map<string, Task>>();

function taskOf(deps: EngineDeps, threadId: string): Task | undefined {
  return tasks.get(deps)?.get(threadId);
}

/**
 * Begins the thread's gate baseline in the background, once per leg: from the record when a killed or ended leg
 * already took it, otherwise by running the gates. Its events go out through the run's writer as it runs.
 */
export function startBaseline(deps: EngineDeps, config: LangGraphRunnableConfig): Task {
  const threadId = threadIdOf(config);
  const known = taskOf(deps, threadId);
  if (known) return known;
  const stop = new AbortController();
  const emit = emitter(config);
  const result = (async () => (await recordedBaseline(deps, threadId)) ?? (await takeBaseline(deps, threadId, emit, stop.signal)))();
  const task: Task = { result, stop, overlapped: false, done: false };
  // Awaited by the node that needs it; a baseline nobody waits for (stopped, or the run ended) must not be unhandled.
  result.then(
    () => (task.done = true),
    () => (task.done = true),
  );
  if (!tasks.has(deps)) tasks.set(deps, new Map());
  tasks.get(deps)!.set(threadId, task);
  return task;
}

/** Stops a running baseline (a path with no gate, the run's end) and waits for its commands to be gone. */
export async function stopBaseline(deps: EngineDeps, threadId: string): Promise<boolean> {
  const task = taskOf(deps, threadId);
  if (!task) return false;
  tasks.get(deps)?.delete(threadId);
  const running = !task.done;
  task.stop.abort();
  await task.result.catch(() => {});
  return running;
}

/**
 * A workflow node that knows the baseline: on a path that reaches a gate it starts it (so it runs while agents that
 * cannot write think); a node that can change files or runs gates waits for it and puts it in the state it passes on;
 * a node from which no gate can be reached stops it, and says so.
 */
export function withBaseline<U extends PipelineUpdate>(
  node: string,
  deps: EngineDeps,
  fn: (state: PipelineStateType, config: LangGraphRunnableConfig) => Promise<U>,
): (state: PipelineStateType, config: LangGraphRunnableConfig) => Promise<U> {
  const step = baselineStep(deps.config.workflow, node, agentTools(deps));
  return async (state, config) => {
    if (state.mode !== "run" || state.gateBaseline) return await fn(state, config);
    if (step.at === "never") {
      if (await stopBaseline(deps, threadIdOf(config))) emitter(config)({ type: "warning", message: stoppedNotice(node) });
      return await fn(state, config);
    }
    if (step.at === "later" && !step.awaits) return await fn(state, config);
    const task = startBaseline(deps, config);
    if (!step.awaits) {
      task.overlapped = true;
      return await fn(state, config);
    }
    const gateBaseline = await awaitBaseline(task, deps, config);
    const update = await fn({ ...state, gateBaseline }, config);
    return { ...update, gateBaseline };
  };
}

// The baseline a node waits for. When no agent thought before it in this leg, the endpoint is checked first: a dead
// URL or a rejected key must not wait for the whole suite to say so.
async function awaitBaseline(task: Task, deps: EngineDeps, config: LangGraphRunnableConfig): Promise<GateBaselineRef> {
  if (!task.overlapped) {
    const warning = await deps.checkEndpoint?.(config.signal);
    if (warning) emitter(config)({ type: "warning", message: warning });
  }
  const aborted = new Promise<never>((_, reject) => {
    if (config.signal?.aborted) reject(new Error("the run was stopped while waiting for the gate baseline"));
    config.signal?.addEventListener("abort", () => reject(new Error("the run was stopped while waiting for the gate baseline")), { once: true });
  });
  aborted.catch(() => {});
  return await Promise.race([task.result, aborted]);
}

function stoppedNotice(node: string): string {
  return `The gate baseline was stopped: the run took a path (${node}) that reaches no gate, so no test suite runs.`;
}

/**
 * The run's first step: says when there is no gate, and otherwise starts the baseline in the background when the
 * first node is on a path that reaches a gate (baseline-task.ts). The baseline's result enters the state with the
 * first node that can change files (withBaseline), which waits for it.
 */
export function gateBaselineNode(deps: EngineDeps) {
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    if (state.mode !== "run" || state.gateBaseline) return {};
    const reason = missingGate(deps);
    if (reason) {
      emitter(config)({ type: "warning", message: sayNotice({ kind: "no-gate", reason }, deps.noticeWords) });
      return { gateBaseline: { file: null, noGate: reason, gates: [] } };
    }
    const first = deps.config.workflow.edges.find((e) => e.from === "start")?.to;
    if (first && baselineStep(deps.config.workflow, first, agentTools(deps)).at === "start") startBaseline(deps, config);
    return {};
  };
}
