import { createEventSource } from "./event-source.js";
import type { Renderer } from "./renderer.js";

export interface InkRendererOptions {
  /** Where to draw; Ink's default (process.stdout) when omitted. */
  stdout?: NodeJS.WriteStream;
  verbose?: boolean;
}

/**
 * The live terminal view. Ink, React and the components are imported here, lazily, so the plain and
 * JSON paths (and `yolo --version`) never load them. `close()` resolves once Ink has drawn its last
 * frame and unmounted.
 */
export async function createInkRenderer(opts: InkRendererOptions = {}): Promise<Renderer> {
  const [{ render }, { createElement }, { App }] = await Promise.all([
    import("ink"),
    import("react"),
    import("./ink/App.js"),
  ]);
  const source = createEventSource();
  const stop = new AbortController();
  const app = createElement(App, { events: source, verbose: opts.verbose ?? false, stopSignal: stop.signal });
  const instance = render(app, {
    ...(opts.stdout ? { stdout: opts.stdout } : {}),
    // Ctrl+C belongs to the CLI, which cancels the run and still gets a run.completed to show.
    exitOnCtrlC: false,
  });
  let closing: Promise<void> | null = null;
  return {
    onEvent: (e) => source.push(e),
    close() {
      closing ??= (async () => {
        stop.abort();
        await instance.waitUntilExit();
      })();
      return closing;
    },
  };
}
