import type { ResolvedConfig } from "../config/schema.js";
import { ThreadError, unknownThreadError } from "../errors.js";
import { buildWorkflowGraph } from "./graph.js";
import { type HistoryEntry, historyEntries, type HistorySnapshot } from "./history-entries.js";
import { inertDeps, threadConfig } from "./inspect.js";
import type { Session } from "./session.js";
import type { PipelineStateType } from "../state/pipeline.js";

export type { HistoryEntry } from "./history-entries.js";

/** A thread's checkpoints, oldest first, read through LangGraph's own state history. */
export async function threadHistory(baseConfig: ResolvedConfig, session: Session, threadId: string): Promise<HistoryEntry[]> {
  const config = await threadConfig(baseConfig, session, threadId);
  const graph = buildWorkflowGraph(inertDeps(config), session.checkpointer);
  const snapshots: HistorySnapshot[] = [];
  for await (const s of graph.getStateHistory({ configurable: { thread_id: threadId } })) {
    snapshots.push({
      checkpointId: s.config.configurable?.checkpoint_id as string,
      parentId: s.parentConfig?.configurable?.checkpoint_id as string | undefined,
      source: s.metadata?.source,
      step: s.metadata?.step,
      createdAt: s.createdAt,
      next: s.next,
      values: s.values,
    });
  }
  if (!snapshots.length) throw unknownThreadError(threadId);
  return historyEntries(snapshots.reverse(), config);
}

/**
 * Forks a new thread from one checkpoint of another (`--from` a step number or a checkpoint id): the new thread
 * starts with that checkpoint's state, as if the node that made it had just completed, so what ran next there
 * runs next here. The original thread is untouched.
 */
export async function forkThread(baseConfig: ResolvedConfig, session: Session, threadId: string, from: string, newThreadId: string): Promise<HistoryEntry> {
  const config = await threadConfig(baseConfig, session, threadId);
  const history = await threadHistory(baseConfig, session, threadId);
  const entry = /^-?\d+$/.test(from)
    ? history.filter((h) => h.step === Number(from)).at(-1)
    : (history.find((h) => h.checkpointId === from) ?? uniqueSuffix(history, from));
  if (!entry) throw new ThreadError(`Thread ${threadId} has no checkpoint "${from}".`, { kind: "no-such-checkpoint", thread: threadId, from });
  if (entry.node === "input" || entry.node === "?" || entry.node.includes(",")) {
    throw new ThreadError(`Cannot fork from step ${entry.step} (${entry.node}); pick a checkpoint made by one node.`, {
      kind: "fork-needs-one-node",
      thread: threadId,
      step: entry.step,
      node: entry.node,
    });
  }
  const graph = buildWorkflowGraph(inertDeps(config), session.checkpointer);
  const source = await graph.getState({ configurable: { thread_id: threadId, checkpoint_id: entry.checkpointId } });
  const values = source.values as PipelineStateType;
  // The baseline runs beside the first agents and reaches the state with the first that writes: a fork from before
  // that keeps the one the thread took (the tree may hold changes since, which a new baseline would count as given).
  if (values.mode === "run" && !values.gateBaseline) {
    const latest = (await graph.getState({ configurable: { thread_id: threadId } })).values as PipelineStateType;
    if (latest.gateBaseline) values.gateBaseline = latest.gateBaseline;
  }
  await graph.updateState({ configurable: { thread_id: newThreadId } }, values, entry.node);
  const original = await session.threads.get(threadId);
  await session.threads.create({
    id: newThreadId,
    requirement: values.requirement,
    model: original?.model ?? config.model.name,
    root: config.root,
    repo: original?.repo ?? null,
    mode: original?.mode ?? "run",
    artifacts: config.stateDir,
    // The fork's change is measured from where its parent started (`show --diff`, the report).
    startCommit: original?.startCommit ?? null,
    forkedFrom: { thread: threadId, step: entry.step },
  });
  await session.threads.update(newThreadId, { status: "pending", currentNode: entry.node, reason: `forked from ${threadId} at step ${entry.step}` });
  return entry;
}

function uniqueSuffix(history: HistoryEntry[], text: string): HistoryEntry | undefined {
  const matches = history.filter((h) => h.checkpointId.endsWith(text) || h.checkpointId.startsWith(text));
  return matches.length === 1 ? matches[0] : undefined;
}
