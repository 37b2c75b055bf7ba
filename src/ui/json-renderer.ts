import type { YoloEvent } from "../events/schema.js";
import type { Renderer } from "./renderer.js";

/**
 * `--json`: one JSON object per line (JSON Lines), exactly the event as the engine emitted it.
 * `token` events are TUI-only: they are skipped here because a token flood would bury the
 * meaningful events; consumers get each agent's text through `node.completed` summaries and artifacts.
 */
export function createJsonRenderer(write: (s: string) => void): Renderer {
  return {
    onEvent(e: YoloEvent) {
      if (e.type === "token") return;
      write(`${JSON.stringify(e)}\n`);
    },
    close: async () => {},
  };
}
