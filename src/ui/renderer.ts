import type { YoloEvent } from "../events/schema.js";

/** A consumer of the engine's event stream: `--json` lines, plain progress lines, or the Ink view. */
export interface Renderer {
  /** Called once per event, in order; must not throw and must not block. */
  onEvent(e: YoloEvent): void;
  /** Flushes and releases the output; resolves once everything has been written. */
  close(): Promise<void>;
}
