import type { Database, Statement } from "./db.js";

/** One checkpoint of SqliteSaver's `checkpoints` table, decoded as LangGraph's JsonPlusSerializer would. */
export interface StoredCheckpoint {
  id: string;
  parentId: string | null;
  v: number;
  ts: string;
  channelValues: Record<string, unknown>;
  channelVersions: Record<string, unknown>;
  versionsSeen: Record<string, Record<string, unknown>>;
  metadata: Record<string, unknown>;
}

/** A write a task saved against a checkpoint (`writes` table): [task id, channel, value], in SqliteSaver's order. */
export type StoredWrite = [taskId: string, channel: string, value: unknown];

/** What the reader met and does not decode; the caller asks LangGraph instead. */
export class UnreadableCheckpoint extends Error {}

/** A `DeltaSnapshot` blob (a delta channel's full value, stored every so often). */
export class DeltaSnapshotValue {
  constructor(readonly value: unknown) {}
}

type Row = { checkpoint_id: string; parent_checkpoint_id: string | null; type: string | null; checkpoint: Uint8Array | string; metadata: Uint8Array | string };
type WriteRow = { task_id: string; channel: string; type: string | null; value: Uint8Array | string | null };

/**
 * A thread's checkpoints (root namespace) read straight from SqliteSaver's tables, without LangGraph: rows are
 * decoded on first use and cached, so `yolo show` parses only what it reads. Anything the serializer would
 * revive into a class (LangChain objects, Set, Map, …) or a type other than "json" throws UnreadableCheckpoint.
 */
export class CheckpointRows {
  private rows: Row[] | undefined;
  private byId = new Map<string, Row>();
  private decoded = new Map<string, StoredCheckpoint>();
  private readonly writesById = new Map<string, StoredWrite[]>();

  constructor(
    private readonly db: Database,
    readonly threadId: string,
  ) {}

  /** The checkpoint ids, newest first (SqliteSaver's `list` and `getTuple` order). */
  ids(): string[] {
    return this.load().map((r) => r.checkpoint_id);
  }

  has(id: string): boolean {
    this.load();
    return this.byId.has(id);
  }

  checkpoint(id: string): StoredCheckpoint {
    const cached = this.decoded.get(id);
    if (cached) return cached;
    const row = this.row(id);
    if ((row.type ?? "json") !== "json") throw new UnreadableCheckpoint(`checkpoint ${id} is stored as "${row.type}"`);
    // Delta snapshots are channel values (root → channel_values → channel), never nested inside one.
    const c = decodeJson(row.checkpoint, 2) as Record<string, unknown>;
    if (!isObject(c) || c.v !== 4) throw new UnreadableCheckpoint(`checkpoint ${id} has version ${String(isObject(c) ? c.v : c)}`);
    const metadata = decodeJson(row.metadata);
    const stored: StoredCheckpoint = {
      id,
      parentId: row.parent_checkpoint_id || null,
      v: c.v,
      ts: String(c.ts),
      channelValues: objectOr(c.channel_values, `checkpoint ${id} channel_values`),
      channelVersions: objectOr(c.channel_versions, `checkpoint ${id} channel_versions`),
      versionsSeen: objectOr(c.versions_seen, `checkpoint ${id} versions_seen`) as Record<string, Record<string, unknown>>,
      metadata: isObject(metadata) ? metadata : {},
    };
    this.decoded.set(id, stored);
    return stored;
  }

  /**
   * Whether a checkpoint stores a channel, and its value. A row whose text never names the channel cannot hold it,
   * so the ancestors of a delta channel's walk are mostly answered without parsing them.
   */
  storedChannel(id: string, channel: string): { stored: false } | { stored: true; value: unknown } {
    if (!this.decoded.has(id)) {
      const row = this.row(id);
      const text = typeof row.checkpoint === "string" ? row.checkpoint : Buffer.from(row.checkpoint).toString("utf8");
      if (!text.includes(JSON.stringify(channel))) return { stored: false };
    }
    const values = this.checkpoint(id).channelValues;
    return Object.hasOwn(values, channel) ? { stored: true, value: values[channel] } : { stored: false };
  }

  /**
   * The writes saved against a checkpoint, ordered by task id and index as SqliteSaver's query returns them. Read per
   * checkpoint (the primary key's prefix): a thread's latest state needs the latest's writes, not every step's.
   */
  writes(id: string): StoredWrite[] {
    const cached = this.writesById.get(id);
    if (cached) return cached;
    const rows = statement(
      this.db,
      "SELECT task_id, channel, type, value FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id = ? ORDER BY task_id, idx",
    ).all(this.threadId, id) as WriteRow[];
    const list = rows.map((w): StoredWrite => {
      if ((w.type ?? "json") !== "json") throw new UnreadableCheckpoint(`a write of checkpoint ${id} is stored as "${w.type}"`);
      return [w.task_id, w.channel, decodeJson(w.value ?? "")];
    });
    this.writesById.set(id, list);
    return list;
  }

  private load(): Row[] {
    if (!this.rows) {
      const table = statement(this.db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get();
      this.rows = table
        ? (statement(
            this.db,
            "SELECT checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id DESC",
          ).all(this.threadId) as Row[])
        : [];
      for (const r of this.rows) this.byId.set(r.checkpoint_id, r);
    }
    return this.rows;
  }

  private row(id: string): Row {
    this.load();
    const row = this.byId.get(id);
    if (!row) throw new UnreadableCheckpoint(`checkpoint ${id} is missing`);
    return row;
  }
}

// Prepared once per connection: a reader is made per thread, and preparing costs more than an indexed query.
const prepared = new WeakMap<Database, Map<string, Statement>>();
function statement(db: Database, sql: string): Statement {
  let byText = prepared.get(db);
  if (!byText) prepared.set(db, (byText = new Map()));
  let kept = byText.get(sql);
  if (!kept) byText.set(sql, (kept = db.prepare(sql)));
  return kept;
}

/** JSON text as JsonPlusSerializer loads it: `undefined` and delta-snapshot records revived, any other class refused. */
export function decodeJson(data: Uint8Array | string, snapshotDepth = -1): unknown {
  const text = typeof data === "string" ? data : new TextDecoder().decode(data);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new UnreadableCheckpoint(`a stored value is not JSON: ${(cause as Error).message}`);
  }
  return revive(parsed, 0, snapshotDepth);
}

// Bottom-up, as the serializer's reviver: nested records first, then the object itself.
function revive(value: unknown, depth: number, snapshotDepth: number): unknown {
  if (Array.isArray(value)) return value.map((v) => revive(v, depth + 1, snapshotDepth));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // LangGraph's reviver assigns "__proto__" as a prototype; leave such data to it.
    if (k === "__proto__") throw new UnreadableCheckpoint("a stored object has a __proto__ key");
    out[k] = revive(v, depth + 1, snapshotDepth);
  }
  if (out.lc === 2 && out.type === "undefined") return undefined;
  if (out.lc === 2 && out.type === "delta_snapshot" && Object.hasOwn(out, "value")) {
    if (depth !== snapshotDepth) throw new UnreadableCheckpoint("a delta snapshot is stored inside a value");
    return new DeltaSnapshotValue(out.value);
  }
  if (out.lc === 2 && out.type === "constructor") throw new UnreadableCheckpoint(`a stored value is a serialized ${JSON.stringify(out.id)}`);
  if (out.lc === 1 && out.type === "constructor" && Array.isArray(out.id)) throw new UnreadableCheckpoint(`a stored value is a LangChain ${out.id.join(".")}`);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectOr(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new UnreadableCheckpoint(`${what} is not an object`);
  return value;
}
