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
 * for. Fed with the run's events: `usage` adds to its node, `node.completed` settles the node. Stories running side
 * by side are all node `dev`: each is kept by its own key (`dev@<story>`, see unsettledKey), so one story finishing
 * does not settle the others.
 */
export class UnsettledUsage {
  private readonly byNode = new Map<string, Usage>();

  observe(event: EventBody): void {
    const key = unsettledKey(event);
    if (key === null) return;
    if (event.type === "usage") this.byNode.set(key, addUsage(this.byNode.get(key) ?? ZERO_USAGE, event.usage));
    else if (event.type === "node.completed") this.byNode.delete(key);
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

const STORY_MARK = "@";

/** The key a `usage` or `node.completed` event is kept by: its node, and its story when it has one; null for others. */
function unsettledKey(event: EventBody): string | null {
  if (event.type !== "usage" && event.type !== "node.completed") return null;
  const story = (event as { story?: unknown }).story;
  return typeof story === "string" ? `${event.node}${STORY_MARK}${story}` : event.node;
}

/** A kept key's node and story (null outside a story). */
function splitKey(key: string): { node: string; story: string | null } {
  const at = key.indexOf(STORY_MARK);
  return at < 0 ? { node: key, story: null } : { node: key.slice(0, at), story: key.slice(at + 1) };
}

/** Usage by node, the stories' keys added up into their node (what `usageByNode` holds). */
export function usageOfNodes(byKey: Record<string, Usage>): Record<string, Usage> {
  const out: Record<string, Usage> = {};
  for (const [key, usage] of Object.entries(byKey)) {
    const { node } = splitKey(key);
    out[node] = addUsage(out[node] ?? ZERO_USAGE, usage);
  }
  return out;
}

/**
 * Adds usage of stopped nodes to the thread's latest checkpoint as null writes to `usage` and `usageByNode`,
 * leaving what runs next untouched: `yolo show`, the budget and the next resume count it, and the stopped node
 * runs again from its top. A second stop on the same checkpoint adds its own writes after the first ones (the
 * saver keys writes by position and ignores a position already taken, so earlier writes are sent again first).
 */
export async function settleUsage(checkpointer: BaseCheckpointSaver, threadId: string, byKey: Record<string, Usage>): Promise<boolean> {
  const byNode = usageOfNodes(byKey);
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
 * machine) does not lose what it paid for: `steps` is the thread's step count when the running node started.
 */
export interface UnsettledRecord {
  steps: number;
  byNode: Record<string, Usage>;
}

/** The row's text for what is unsettled now (null when nothing is). */
export function unsettledRecord(steps: number, byNode: Record<string, Usage>): string | null {
  return Object.keys(byNode).length ? JSON.stringify({ steps, byNode } satisfies UnsettledRecord) : null;
}

/** What the latest checkpoint says about completed work: its step count and the nodes with writes pending on it. */
export interface SavedProgress {
  steps: number;
  /** Nodes whose completed update is saved as pending writes (killed after the node, before the step's checkpoint). */
  pendingNodes: ReadonlySet<string>;
  /** Stories whose completed run is saved as pending writes (they finished while others still ran). */
  pendingStories?: ReadonlySet<string>;
}

/**
 * On resume, the usage a killed process left unsettled: counted when the thread has not completed a step since the
 * node started (so the node never completed) and no completed update of that node waits to be applied; dropped
 * otherwise, since the node's own update carries its usage. A story's calls are judged by its own story: those of a
 * story that finished (its update pending) are dropped, those of a story that never finished count. Unreadable text
 * is dropped too.
 */
export function leftUnsettled(text: string | null, saved: SavedProgress): Record<string, Usage> | null {
  if (!text) return null;
  try {
    const record = JSON.parse(text) as UnsettledRecord;
    if (typeof record.steps !== "number" || !record.byNode || typeof record.byNode !== "object") return null;
    if (record.steps !== saved.steps) return null;
    const kept = Object.entries(record.byNode).filter(([key]) => {
      const { node, story } = splitKey(key);
      return story === null ? !saved.pendingNodes.has(node) : !saved.pendingStories?.has(story);
    });
    return kept.length ? Object.fromEntries(kept) : null;
  } catch {
    return null;
  }
}
