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
  // The texts of the tokens merged into the last history entry, joined only when the history is read: a copy of
  // the event and a longer string per token cost a flood more than the view's own work on it.
  let merging: { last: Extract<YoloEvent, { type: "token" }>; texts: string[] } | null = null;
  const settle = () => {
    if (!merging) return;
    history[history.length - 1] = { ...merging.last, text: merging.texts.join("") };
    merging = null;
  };
  return {
    push(e) {
      const last = merging?.last ?? history[history.length - 1];
      if (e.type === "token" && last?.type === "token" && last.node === e.node && last.story === e.story) {
        merging ??= { last, texts: [last.text] };
        merging.last = e;
        merging.texts.push(e.text);
      } else {
        settle();
        history.push(e);
      }
      for (const fn of listeners.size === 1 ? listeners : [...listeners]) fn(e);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
      };
    },
    snapshot: () => {
      settle();
      return history.slice();
    },
  };
}
