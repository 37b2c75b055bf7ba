/**
 * Streamed text is sent on as one `token` event per this many milliseconds at most: each event costs a trip
 * through LangGraph's stream, the run's event channel and every renderer, while a fast model streams a chunk
 * every millisecond or two. Views redraw at most about 30 times a second, so nobody sees the difference.
 */
export const TOKEN_BATCH_MS = 16;

export interface TokenBatch {
  /** Adds streamed text; it goes out with the batch it falls in. */
  push(text: string): void;
  /** Sends what is held now (the stream ended, or failed). */
  flush(): void;
}

/** Joins the text of a token stream into at most one `send` per TOKEN_BATCH_MS; text keeps its order. */
export function tokenBatch(send: (text: string) => void, ms = TOKEN_BATCH_MS): TokenBatch {
  let held = "";
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!held) return;
    const text = held;
    held = "";
    send(text);
  };
  return {
    push(text) {
      held += text;
      timer ??= setTimeout(flush, ms);
    },
    flush,
  };
}
