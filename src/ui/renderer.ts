import type { YoloEvent } from "../events/schema.js";

/** How the user asked a run to stop: Ctrl+C once finishes the running step first; twice stops at once. */
export type StopMode = "after-step" | "now";

/** A consumer of the engine's event stream: `--json` lines, plain progress lines, or the Ink view. */
export interface Renderer {
  /** Called once per event, in order; must not throw and must not block. */
  onEvent(e: YoloEvent): void;
  /** Flushes and releases the output; resolves once everything has been written. */
  close(): Promise<void>;
  /** The user asked the run to stop; the renderer says what will happen. Optional. */
  onStopRequest?(mode: StopMode): void;
  /**
   * Asks the question the thread waits on inside the view, when the renderer can (the Ink view with a
   * terminal for input); resolves with the answer, or null when the user leaves it for later.
   */
  ask?(question: string): Promise<string | null>;
}
