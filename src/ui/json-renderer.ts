import type { YoloEvent } from "../events/schema.js";
import type { Renderer } from "./renderer.js";

/**
 * `--json`: one JSON object per line (JSON Lines), exactly the event as the engine emitted it.
 * `token` and `thought` events are skipped unless `streams` (`--json-tokens`) asks for them: a token flood would
 * bury the meaningful events of a pipeline that only wants those; an editor front end (`yolo acp`) shows them.
 */
export function createJsonRenderer(write: (s: string) => void, options: { streams?: boolean } = {}): Renderer {
  const streams = options.streams === true;
  return {
    onEvent(e: YoloEvent) {
      if (!streams && (e.type === "token" || e.type === "thought")) return;
      write(`${JSON.stringify(e)}\n`);
    },
    close: async () => {},
  };
}
