import type { RunnableConfig } from "@langchain/core/runnables";
import type { DeltaChannelHistory, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { Database, Statement } from "./db.js";

type PendingWrite = DeltaChannelHistory["writes"][number];

interface CheckpointRow {
  parent: string | null;
  type: string | null;
  /** The checkpoint's format version (`v`), read by SQLite from a JSON checkpoint; null for any other type. */
  v: number | null;
  /** JSON array of the requested channels (?3) the checkpoint holds a value of (a seed); null unless JSON. */
  seeded: string | null;
  /** JSON array of the checkpoint's pending writes to the requested channels (?3, a JSON array), in getTuple's order. */
  writes: string;
}

interface WriteRow {
  task_id: string;
  channel: string;
  type: string | null;
  value: string | null;
}

/** The statements of one connection, prepared once: the walk runs one per ancestor. */
const prepared = new WeakMap<Database, { latest: Statement; byId: Statement; checkpoint: Statement }>();
function statementsOf(db: Database): { latest: Statement; byId: Statement; checkpoint: Statement } {
  let s = prepared.get(db);
  if (!s) {
    // SQLite reads a JSON checkpoint's version and which requested channels it holds; the checkpoint itself crosses
    // into JavaScript only for a seed. The writes in the order SqliteSaver.getTuple gives its pending writes in (the
    // primary key's), which the walk relies on.
    const json = "coalesce(type, 'json') = 'json'";
    const columns = `parent_checkpoint_id AS parent, type,
      CASE WHEN ${json} THEN json_extract(CAST(checkpoint AS TEXT), '$.v') END AS v,
      CASE WHEN ${json} THEN (
        SELECT json_group_array(key) FROM json_each(CAST(checkpoint AS TEXT), '$.channel_values') WHERE key IN (SELECT value FROM json_each(?3))
      ) END AS seeded, (
      SELECT json_group_array(json_object('task_id', w.task_id, 'channel', w.channel, 'type', w.type, 'value', CAST(w.value AS TEXT)) ORDER BY w.task_id, w.idx)
      FROM writes AS w
      WHERE w.thread_id = checkpoints.thread_id AND w.checkpoint_ns = checkpoints.checkpoint_ns AND w.checkpoint_id = checkpoints.checkpoint_id
        AND w.channel IN (SELECT value FROM json_each(?3))
    ) AS writes`;
    s = {
      latest: db.prepare(`SELECT ${columns} FROM checkpoints WHERE thread_id = ?1 AND checkpoint_ns = ?2 ORDER BY checkpoint_id DESC LIMIT 1`),
      byId: db.prepare(`SELECT ${columns} FROM checkpoints WHERE thread_id = ?1 AND checkpoint_ns = ?2 AND checkpoint_id = ?4`),
      checkpoint: db.prepare("SELECT checkpoint FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"),
    };
    prepared.set(db, s);
  }
  return s;
}

/**
 * `BaseCheckpointSaver.getDeltaChannelHistory` (the walk that rebuilds a delta channel such as the gate history)
 * on SQLite, reading only what the walk uses. The library's walk calls `getTuple` once per ancestor, which
 * deserialises every pending write and the whole checkpoint (about half a millisecond each): a `getState` at the end
 * of a 200-step run walked back a hundred or more checkpoints. Here each ancestor costs one indexed read of its
 * version, the requested channels it holds (SQLite looks inside the JSON) and its writes to them; only those writes
 * and the seed's checkpoint reach JavaScript. Returns null for anything it does not read the way getTuple does (a
 * non-JSON checkpoint, an older version): the caller then takes the library's walk.
 * tests/unit/store/delta-history.test.ts compares both answers on real checkpoints.
 */
export async function sqliteDeltaChannelHistory(
  db: Database,
  serde: SerializerProtocol,
  options: { config: RunnableConfig; channels: string[] },
): Promise<Record<string, DeltaChannelHistory> | null> {
  const { config, channels } = options;
  if (channels.length === 0) return {};
  const { thread_id: threadId, checkpoint_ns: ns = "", checkpoint_id: id } = (config.configurable ?? {}) as Record<string, string | undefined>;
  if (typeof threadId !== "string") return null;
  const s = statementsOf(db);
  const collected: Record<string, PendingWrite[]> = {};
  const seeds: Record<string, unknown> = {};
  const remaining = new Set(channels);
  for (const ch of channels) collected[ch] = [];
  // Numbered parameters (?1 … ?4), which better-sqlite3 binds from an object keyed by number.
  const ask = (checkpointId?: string) => ({
    1: threadId,
    2: ns,
    3: JSON.stringify([...remaining]),
    ...(checkpointId === undefined ? {} : { 4: checkpointId }),
  });
  const target = (id ? s.byId.get(ask(id)) : s.latest.get(ask())) as CheckpointRow | undefined;
  let cursor = target?.parent ?? null;
  while (cursor !== null && remaining.size > 0) {
    const row = s.byId.get(ask(cursor)) as CheckpointRow | undefined;
    if (row === undefined) break;
    if ((row.type ?? "json") !== "json") return null;
    const perChannel: Record<string, WriteRow[]> = {};
    for (const w of JSON.parse(row.writes) as WriteRow[]) if (remaining.has(w.channel)) (perChannel[w.channel] ??= []).push(w);
    for (const [ch, block] of Object.entries(perChannel)) {
      for (let i = block.length - 1; i >= 0; i--) {
        const w = block[i];
        collected[ch].push([w.task_id, w.channel, await serde.loadsTyped(w.type ?? "json", w.value ?? "")]);
      }
    }
    // getTuple migrates a checkpoint older than version 4 (its pending sends become a channel value): its walk then.
    if ((row.v ?? 0) < 4) return null;
    // Which requested channels this checkpoint holds (SQLite's answer); the value, revived by the serializer, for a seed.
    const seeded = (JSON.parse(row.seeded ?? "[]") as string[]).filter((ch) => remaining.has(ch));
    if (seeded.length) {
      const { checkpoint } = s.checkpoint.get(threadId, ns, cursor) as { checkpoint: Uint8Array | string };
      const full = (await serde.loadsTyped("json", checkpoint)) as { channel_values: Record<string, unknown> };
      for (const ch of seeded) {
        seeds[ch] = full.channel_values[ch];
        remaining.delete(ch);
      }
    }
    cursor = row.parent;
  }
  const result: Record<string, DeltaChannelHistory> = {};
  for (const ch of channels) {
    const entry: DeltaChannelHistory = { writes: collected[ch].slice().reverse() };
    if (Object.hasOwn(seeds, ch)) entry.seed = seeds[ch];
    result[ch] = entry;
  }
  return result;
}
