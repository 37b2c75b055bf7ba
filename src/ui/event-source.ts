import type { YoloEvent } from "../events/schema.js";

/** What a view reads: the events so far, and the ones still to come. */
export interface EventSource {
  /** Calls `fn` for every event pushed after this call; returns the unsubscribe function. */
  subscribe(fn: (e: YoloEvent) => void): () => void;
  /** Every event pushed so far (consecutive `token` events of one node merged into one). */
  snapshot(): YoloEvent[];
}

/** An EventSource the renderer feeds. */
export interface PushableEventSource extends EventSource {
  push(e: YoloEvent): void;
}

/**
 * An in-memory event source. It keeps every event, so a view that subscribes late first reads
 * `snapshot()` and loses nothing; consecutive tokens of the same node are merged in the stored
 * history (tokens are only ever rendered as text) so a long run does not keep one object per token.
 */
export function createEventSource(): PushableEventSource {
  const history: YoloEvent[] = [];
  const listeners = new Set<(e: YoloEvent) => void>();
  return {
    push(e) {
      const last = history[history.length - 1];
      if (e.type === "token" && last?.type === "token" && last.node === e.node) {
        history[history.length - 1] = { ...last, ts: e.ts, text: last.text + e.text };
      } else {
        history.push(e);
      }
      for (const fn of [...listeners]) fn(e);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
      };
    },
    snapshot: () => history.slice(),
  };
}
