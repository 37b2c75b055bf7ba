import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { EventBody, Usage } from "../events/schema.js";
import { addUsage, ZERO_USAGE } from "../events/usage.js";

/**
 * LangGraph's id for writes that belong to no task ("null writes"): it applies them to the state of the checkpoint
 * they hang on, both when the state is read and when the thread resumes from there.
 */
const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";

/**
 * The usage of model calls whose node has not completed yet. A node's usage reaches the state with its update, so
 * a node stopped mid-way (a budget, a limit, a provider error, Ctrl+C twice) would lose the tokens it already paid
 * for. Fed with the run's events: `usage` adds to its node, `node.completed` settles the node.
 */
export class UnsettledUsage {
  private readonly byNode = new Map<string, Usage>();

  observe(event: EventBody): void {
    if (event.type === "usage") this.byNode.set(event.node, addUsage(this.byNode.get(event.node) ?? ZERO_USAGE, event.usage));
    else if (event.type === "node.completed") this.byNode.delete(event.node);
  }

  /** What is unsettled, by node (empty when every call belongs to a completed node). */
  peek(): Record<string, Usage> {
    return Object.fromEntries(this.byNode);
  }

  /** What is unsettled, by node (empty when every call belongs to a completed node), and forgets it. */
  take(): Record<string, Usage> {
    const out = Object.fromEntries(this.byNode);
    this.byNode.clear();
    return out;
  }
}

/**
 * Adds usage of stopped nodes to the thread's latest checkpoint as null writes to `usage` and `usageByNode`,
 * leaving what runs next untouched: `yolo show`, the budget and the next resume count it, and the stopped node
 * runs again from its top. A second stop on the same checkpoint adds its own writes after the first ones (the
 * saver keys writes by position and ignores a position already taken, so earlier writes are sent again first).
 */
export async function settleUsage(checkpointer: BaseCheckpointSaver, threadId: string, byNode: Record<string, Usage>): Promise<boolean> {
  const nodes = Object.keys(byNode);
  if (!nodes.length) return false;
  const tuple = await checkpointer.getTuple({ configurable: { thread_id: threadId } });
  if (!tuple) return false;
  const earlier = (tuple.pendingWrites ?? [])
    .filter(([task, channel]) => task === NULL_TASK_ID && !String(channel).startsWith("__"))
    .map(([, channel, value]) => [channel, value] as [string, unknown]);
  const total = nodes.reduce((sum, node) => addUsage(sum, byNode[node]), ZERO_USAGE);
  await checkpointer.putWrites(tuple.config, [...earlier, ["usage", total], ["usageByNode", byNode]], NULL_TASK_ID);
  return true;
}

/**
 * The unsettled usage as the thread row keeps it while a node runs, so a run killed mid-node (`kill -9`, a lost
 * machine) does not lose what it paid for: `checkpoint` is the checkpoint the running node started from.
 */
export interface UnsettledRecord {
  checkpoint: string;
  byNode: Record<string, Usage>;
}

/** The row's text for what is unsettled now (null when nothing is). */
export function unsettledRecord(checkpoint: string | undefined, byNode: Record<string, Usage>): string | null {
  return checkpoint && Object.keys(byNode).length ? JSON.stringify({ checkpoint, byNode } satisfies UnsettledRecord) : null;
}

/**
 * On resume, the usage a killed process left unsettled: counted when the thread's latest checkpoint is still the one
 * its node started from (the node never completed); dropped when a later checkpoint exists (the node completed, and
 * its usage is in that checkpoint's state). Unreadable text is dropped too.
 */
export function leftUnsettled(text: string | null, latestCheckpoint: string | undefined): Record<string, Usage> | null {
  if (!text || !latestCheckpoint) return null;
  try {
    const record = JSON.parse(text) as UnsettledRecord;
    return record.checkpoint === latestCheckpoint && record.byNode && typeof record.byNode === "object" ? record.byNode : null;
  } catch {
    return null;
  }
}
