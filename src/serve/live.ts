import type { ServerResponse } from "node:http";
import type { ThreadRow } from "../store/thread-store.js";

/** How often the store is asked while a page listens: a new checkpoint reaches the page within about this long. */
export const POLL_MS = 400;

/** What a thread's row says of its progress: it changes with each node a run starts or ends, and with its end. */
export function rowVersion(r: ThreadRow): string {
  return `${r.updatedAt}|${r.status}|${r.currentNode ?? ""}|${r.reason ?? ""}`;
}

/** The version of what a topic's page shows: the whole list, or one thread. */
export function topicVersion(topic: string, rows: ThreadRow[]): string {
  if (topic.startsWith("thread:")) {
    const row = rows.find((r) => r.id === topic.slice("thread:".length));
    return row ? rowVersion(row) : "";
  }
  if (topic === "list") return rows.map(rowVersion).join("\n");
  return "";
}

/**
 * Server-sent events for open pages: while any page listens, the thread rows are read every POLL_MS (one list
 * query, the same `yolo threads` makes) and each page whose topic's version changed is sent `changed`; its script
 * then fetches the page again. Nothing is read while no page is open.
 */
export class LiveUpdates {
  private readonly clients = new Map<ServerResponse, { topic: string; version: string }>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(private readonly rows: () => Promise<ThreadRow[]>) {}

  /** Subscribes a response to a topic; it is removed when the page goes. */
  async subscribe(res: ServerResponse, topic: string): Promise<void> {
    res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", Connection: "keep-alive" });
    res.write("retry: 1000\n\n");
    this.clients.set(res, { topic, version: topicVersion(topic, await this.rows()) });
    res.on("close", () => {
      this.clients.delete(res);
      if (!this.clients.size) this.stop();
    });
    this.timer ??= setInterval(() => void this.poll(), POLL_MS);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const rows = await this.rows();
      for (const [res, seen] of this.clients) {
        const version = topicVersion(seen.topic, rows);
        if (version === seen.version) continue;
        seen.version = version;
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
