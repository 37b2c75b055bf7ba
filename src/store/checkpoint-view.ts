import { createRequire } from "node:module";
import { replayDelta, STORED_CHANNELS } from "../state/stored-channels.js";
import { type CheckpointRows, DeltaSnapshotValue, type StoredWrite, UnreadableCheckpoint } from "./checkpoint-rows.js";

/** A task LangGraph would run next from a checkpoint, with what it left there (an interrupt, an error). */
export interface CheckpointTask {
  id: string;
  name: string;
  interrupts: { id?: string; value?: unknown }[];
  error?: unknown;
}

/** One checkpoint as LangGraph's `getState` / `getStateHistory` would show it, read without LangGraph. */
export interface CheckpointView {
  checkpointId: string;
  parentId: string | null;
  createdAt: string;
  metadata: Record<string, unknown>;
  values: Record<string, unknown>;
  next: string[];
  tasks: CheckpointTask[];
}

// LangGraph's reserved names (constants.ts), as stored in checkpoints and writes.
const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";
const START = "__start__";
const TASKS = "__pregel_tasks";
const PUSH = "__pregel_push";
const PULL = "__pregel_pull";
const BRANCH = "branch:to:";
// Writes _applyWrites skips; a null-task write to anything else would change the values.
const IGNORED_WRITES = new Set(["__no_writes__", PUSH, "__resume__", "__interrupt__", "__return__", "__error__", "__error_source_node__"]);
// Writes that do not make a task "done" when getState applies pending writes. yolo does leave others on a newest
// checkpoint: a task's `__resume__` once a human answered and the run died before the node's step was saved. LangGraph
// then counts the task as done; the reader leaves such a checkpoint to it. (Null-task `__resume__` writes are ignored.)
const NOT_OUTPUT = new Set(["__error__", "__interrupt__", "__scheduled__"]);

/**
 * A checkpoint as LangGraph 1.7's `_prepareStateSnapshot` computes it (pregel/index.ts, pregel/algo.ts
 * `_prepareNextTasks`): the state channels (defaults for keys not stored, delta channels replayed from the
 * ancestors' writes), the tasks that run next (Send packets in `__pregel_tasks` first, then the node whose
 * `branch:to:<node>` channel is newer than the version it last saw), and each task's interrupts and error.
 * `latest` is getState's view of the newest checkpoint, where a task's saved writes would be applied.
 * Throws UnreadableCheckpoint for whatever it does not reproduce exactly; the caller then asks LangGraph.
 */
export function checkpointView(rows: CheckpointRows, id: string, opts: { latest: boolean; nodes: ReadonlySet<string> }): CheckpointView {
  const c = rows.checkpoint(id);
  const writes = rows.writes(id);
  for (const [taskId, channel] of writes) {
    if (taskId === NULL_TASK_ID && !IGNORED_WRITES.has(channel)) throw new UnreadableCheckpoint(`checkpoint ${id} has an input write to ${channel}`);
  }
  const values = stateValues(rows, id);
  const tasks = nextTasks(c.id, c.channelValues, c.channelVersions, c.versionsSeen, c.metadata, writes, opts.nodes).map((t) => {
    const own = writes.filter((w) => w[0] === t.id);
    if (opts.latest && own.some((w) => !NOT_OUTPUT.has(w[1]))) {
      throw new UnreadableCheckpoint(`task ${t.name} saved writes that checkpoint ${id} does not hold yet`);
    }
    const error = own.find((w) => w[1] === "__error__");
    const interrupts = own.filter((w) => w[1] === "__interrupt__").flatMap((w) => w[2]) as CheckpointTask["interrupts"];
    return { ...t, interrupts, ...(error ? { error: error[2] } : {}) };
  });
  return {
    checkpointId: c.id,
    parentId: c.parentId,
    createdAt: c.ts,
    metadata: c.metadata,
    values,
    next: tasks.map((t) => t.name),
    tasks,
  };
}

// Each state key in declaration order, as readChannels gives them (every channel has a default, so all are there).
function stateValues(rows: CheckpointRows, id: string): Record<string, unknown> {
  const c = rows.checkpoint(id);
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(STORED_CHANNELS)) {
    const versioned = c.channelVersions[key] !== undefined;
    if (Object.hasOwn(c.channelValues, key)) values[key] = fromStored(c.channelValues[key], spec.initial);
    else if (spec.kind === "value") {
      // A value channel with a version and nothing stored was a delta channel once: LangGraph replays it.
      if (versioned) throw new UnreadableCheckpoint(`checkpoint ${id} has a version but no value for ${key}`);
      values[key] = spec.initial();
    } else if (!versioned && c.metadata.delta_writes_versioned === true) values[key] = spec.initial();
    else values[key] = replayedDelta(rows, id, key, spec.initial);
  }
  return values;
}

function fromStored(stored: unknown, initial: () => unknown): unknown {
  if (stored === undefined) return initial();
  return stored instanceof DeltaSnapshotValue ? stored.value : stored;
}

// BaseCheckpointSaver.getDeltaChannelHistory: walk the parents to the nearest stored value, then replay the writes.
function replayedDelta(rows: CheckpointRows, id: string, key: string, initial: () => unknown): unknown {
  const blocks: StoredWrite[][] = [];
  let seed: unknown;
  let cursor = rows.checkpoint(id).parentId;
  while (cursor && rows.has(cursor)) {
    blocks.push(rows.writes(cursor).filter((w) => w[1] === key));
    const stored = rows.storedChannel(cursor, key);
    if (stored.stored) {
      seed = stored.value;
      break;
    }
    cursor = rows.checkpoint(cursor).parentId;
  }
  const base = fromStored(seed, initial);
  const writes = blocks.reverse().flat();
  if (!writes.length) return base;
  if (!Array.isArray(base) || writes.some((w) => !Array.isArray(w[2])))
    throw new UnreadableCheckpoint(`the delta channel ${key} holds something other than lists`);
  return replayDelta(
    base,
    writes.map((w) => w[2] as unknown[]),
  );
}

// _prepareNextTasks for a snapshot: PUSH tasks from the Send packets, then the PULL task a newer trigger starts.
function nextTasks(
  checkpointId: string,
  channelValues: Record<string, unknown>,
  versions: Record<string, unknown>,
  seen: Record<string, Record<string, unknown>>,
  metadata: Record<string, unknown>,
  writes: StoredWrite[],
  nodes: ReadonlySet<string>,
): { id: string; name: string }[] {
  const lastStep = metadata.step ?? -1;
  if (typeof lastStep !== "number") throw new UnreadableCheckpoint(`checkpoint ${checkpointId} has step ${String(lastStep)}`);
  const step = String(lastStep + 1);
  const tasks: { id: string; name: string }[] = [];
  const sends = channelValues[TASKS];
  if (sends !== undefined && !Array.isArray(sends)) throw new UnreadableCheckpoint(`checkpoint ${checkpointId} has Send packets that are not a list`);
  (sends ?? []).forEach((packet: unknown, index: number) => {
    const p = packet as { node?: unknown; args?: unknown } | null;
    if (p === null || typeof p !== "object" || typeof p.node !== "string" || p.args === undefined || !nodes.has(p.node)) {
      throw new UnreadableCheckpoint(`checkpoint ${checkpointId} has a Send packet LangGraph would skip`);
    }
    tasks.push({ id: uuid5(JSON.stringify([p.node, step, p.node, PUSH, String(index)]), checkpointId), name: p.node });
  });
  const numbers = Object.values(versions).every((v) => typeof v === "number");
  if (!numbers) throw new UnreadableCheckpoint(`checkpoint ${checkpointId} has channel versions that are not numbers`);
  if (Object.keys(versions).some((k) => k.startsWith("join:"))) throw new UnreadableCheckpoint(`checkpoint ${checkpointId} has a join channel`);
  const pulls: { id: string; name: string }[] = [];
  // Without any channel version (SqliteSaver's are integers) LangGraph starts no node.
  if (Object.keys(versions).length > 0) {
    for (const [channel, value] of Object.entries(channelValues)) {
      const name = channel === START ? START : channel.startsWith(BRANCH) ? channel.slice(BRANCH.length) : null;
      if (name === null || value === undefined) continue;
      if (!nodes.has(name)) throw new UnreadableCheckpoint(`checkpoint ${checkpointId} triggers ${name}, which the workflow has no more`);
      // LangGraph skips a pull task whose id (hashed from its name) already saved writes.
      const doneId = uuid5(JSON.stringify([name, step, name, PULL, name]), checkpointId);
      if (writes.some((w) => w[0] === doneId && w[1] !== "__error__")) continue;
      if (((versions[channel] as number | undefined) ?? 0) > ((seen[name]?.[channel] as number | undefined) ?? 0)) {
        pulls.push({ id: uuid5(JSON.stringify([name, step, name, PULL, [channel]]), checkpointId), name });
      }
    }
  }
  // LangGraph orders several pull tasks by the graph's node order, which a checkpoint does not record.
  if (pulls.length > 1) throw new UnreadableCheckpoint(`checkpoint ${checkpointId} starts ${pulls.length} nodes at once`);
  return [...tasks, ...pulls];
}

// node:crypto is loaded only for a checkpoint with tasks to name: `show` of a finished thread needs none, and loading
// it costs several milliseconds of a command's start.
const require = createRequire(import.meta.url);
const createHash = (algorithm: string) => (require("node:crypto") as typeof import("node:crypto")).createHash(algorithm);

/** RFC 4122 version 5 (SHA-1, name-based) UUID, as LangGraph derives task ids from a checkpoint id. */
export function uuid5(name: string, namespace: string): string {
  const hash = createHash("sha1")
    .update(Buffer.from(namespace.replace(/-/g, ""), "hex"))
    .update(name, "utf8")
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
