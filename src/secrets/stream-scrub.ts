import { currentScrubber, type Scrubber } from "./scrub.js";

/**
 * Scrubs text that arrives in pieces (a model's streamed tokens), so a secret split over two pieces is caught
 * too: the end of what has arrived that could be the start of a secret form is held back until the next piece
 * (or `end()`) decides it. Everything `push` and `end` return, joined, holds no secret form.
 */
export class StreamScrubber {
  private held = "";

  constructor(private readonly scrubber: Scrubber) {}

  /** The scrubbed text that is safe to show now ("" when all of it is held back). */
  push(text: string): string {
    const all = this.held + text;
    const cut = safeCut(this.scrubber, all);
    this.held = all.slice(cut);
    return cut === 0 ? "" : this.scrubber.scrub(all.slice(0, cut));
  }

  /** What is still held back, scrubbed: the stream has ended (or something else is about to be shown). */
  end(): string {
    const rest = this.held;
    this.held = "";
    return rest && this.scrubber.scrub(rest);
  }
}

// Where `text` may be cut: before any suffix that could begin a secret form, and never inside a whole form.
function safeCut(scrubber: Scrubber, text: string): number {
  let cut = text.length - scrubber.openPrefix(text);
  // A form that starts before the cut and ends after it would be shown in part: cut before it.
  for (let moved = true; moved; ) {
    moved = false;
    for (const form of scrubber.formList) {
      const at = text.indexOf(form, Math.max(0, cut - form.length + 1));
      if (at !== -1 && at < cut) {
        cut = at;
        moved = true;
      }
    }
  }
  return cut;
}

/**
 * The token streams of one run, each scrubbed as a stream (tokens of parallel story runs interleave, so each
 * agent and story has its own). `drain` hands back what a stream holds before anything else of it is shown.
 */
export class TokenScrubbers<T extends { text: string }> {
  private readonly streams = new Map<string, { stream: StreamScrubber; last: T }>();

  /** The token as it may be shown now (its text scrubbed, maybe shortened), or null when all of it is held back. */
  push(key: string, token: T): T | null {
    let entry = this.streams.get(key);
    if (!entry) {
      const scrubber = currentScrubber();
      if (scrubber.empty) return token;
      entry = { stream: new StreamScrubber(scrubber), last: token };
      this.streams.set(key, entry);
    }
    entry.last = token;
    const text = entry.stream.push(token.text);
    if (!text) return null;
    return text === token.text ? token : { ...token, text };
  }

  /**
   * Ends stream `key` (every stream when no key is given): what it still holds back, scrubbed, as a token like
   * its last one. Another stream is left alone: ended mid-secret, it would show that secret's first part.
   */
  drain(key?: string): T[] {
    if (this.streams.size === 0) return [];
    const keys = key === undefined ? [...this.streams.keys()] : [key];
    const out: T[] = [];
    for (const k of keys) {
      const entry = this.streams.get(k);
      if (!entry) continue;
      this.streams.delete(k);
      const text = entry.stream.end();
      if (text) out.push({ ...entry.last, text });
    }
    return out;
  }
}
