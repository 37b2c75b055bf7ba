import type { ServerResponse } from "node:http";
import type { ThreadRow } from "../store/thread-store.js";

/** How often the store is asked while a page listens: a new checkpoint reaches the page within about this long. */
export const POLL_MS = 400;

/** What a thread's row says of its progress: it changes with each node a run starts or ends, and with its end. */
export function rowVersion(r: ThreadRow): string {
  return `${r.updatedAt}|${r.status}|${r.currentNode ?? ""}|${r.reason ?? ""}`;
}

/**
 * The version of what a topic's page shows: the whole list, or one thread — its row and its latest checkpoint. The
 * row alone is not enough for a thread's page: a run writes it as the next node starts, which can come before the
 * step's checkpoint is saved; the page would then wait for the node's end (seconds) to show that checkpoint.
 */
export function topicVersion(topic: string, rows: ThreadRow[], checkpoints: ReadonlyMap<string, string | null>): string {
  if (topic.startsWith("thread:")) {
    const id = topic.slice("thread:".length);
    const row = rows.find((r) => r.id === id);
    return row ? `${rowVersion(row)}|${checkpoints.get(id) ?? ""}` : "";
  }
  if (topic === "list") return rows.map(rowVersion).join("\n");
  return "";
}

/**
 * Server-sent events for open pages: while any page listens, the thread rows are read every POLL_MS (one list
 * query, the same `yolo threads` makes), and the latest checkpoint id of each thread whose page is open; each page
 * whose topic's version changed is sent `changed`, and its script fetches the page again. Nothing is read while no
 * page is open.
 */
export class LiveUpdates {
  private readonly clients = new Map<ServerResponse, { topic: string; version: string }>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly rows: () => Promise<ThreadRow[]>,
    private readonly latestCheckpoint: (id: string) => Promise<string | null>,
  ) {}

  /** Subscribes a response to a topic; it is removed when the page goes. */
  async subscribe(res: ServerResponse, topic: string): Promise<void> {
    res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", Connection: "keep-alive" });
    res.write("retry: 1000\n\n");
    this.clients.set(res, { topic, version: await this.versionOf([topic]).then((v) => v(topic)) });
    res.on("close", () => {
      this.clients.delete(res);
      if (!this.clients.size) this.stop();
    });
    this.timer ??= setInterval(() => void this.poll(), POLL_MS);
  }

  // One read of the rows and of the open threads' latest checkpoints, for every topic given.
  private async versionOf(topics: string[]): Promise<(topic: string) => string> {
    const rows = await this.rows();
    const threads = [...new Set(topics.filter((t) => t.startsWith("thread:")).map((t) => t.slice("thread:".length)))];
    const checkpoints = new Map(await Promise.all(threads.map(async (id) => [id, await this.latestCheckpoint(id)] as const)));
    return (topic) => topicVersion(topic, rows, checkpoints);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const version = await this.versionOf([...this.clients.values()].map((c) => c.topic));
      for (const [res, seen] of this.clients) {
        const now = version(seen.topic);
        if (now === seen.version) continue;
        seen.version = now;
        res.write(`event: changed\ndata: ${Date.now()}\n\n`);
      }
    } catch {
      // A store busy or briefly unreadable (a run writing): the next poll asks again.
    } finally {
      this.polling = false;
    }
  }

  /** Ends every open stream (the server is closing). */
  close(): void {
    for (const res of this.clients.keys()) res.end();
    this.clients.clear();
    this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
