import { chooseRendererKind } from "../ui/choose-renderer.js";
import { createJsonRenderer } from "../ui/json-renderer.js";
import type { Renderer } from "../ui/renderer.js";
import type { LaunchFlags as RunFlags } from "./launch-front.js";

export function rendererKind(flags: RunFlags) {
  return chooseRendererKind({ json: !!flags.json, tui: flags.ci ? false : flags.tui, isTTY: process.stdout.isTTY === true, env: process.env });
}

// The live view's module (Ink, React), imported once: asked for early, it loads while git and the database work.
let inkModule: Promise<typeof import("../ui/ink-renderer.js")> | null = null;
export const loadInk = () => {
  inkModule ??= import("../ui/ink-renderer.js");
  return inkModule;
};

export async function createRenderer(flags: RunFlags, opts: { answersInline: boolean; onInterrupt: () => void }): Promise<Renderer> {
  const kind = rendererKind(flags);
  const write = (s: string) => void process.stdout.write(s);
  if (kind === "json") return createJsonRenderer(write, { streams: flags.jsonTokens === true });
  // Each renderer's module loads when chosen: `--json` needs neither the plain lines' formatting nor Ink.
  if (kind === "plain")
    return (await import("../ui/plain-renderer.js")).createPlainRenderer(write, { verbose: flags.verbose, answersInline: opts.answersInline });
  const { createInkRenderer } = await loadInk();
  return createInkRenderer({ verbose: flags.verbose, answersInline: opts.answersInline, onInterrupt: opts.onInterrupt });
}

/**
 * Reads the answer to the question the plain renderer has just printed; null when the user gives none or
 * presses Ctrl+C (the thread stays waiting).
 */
export async function ask(): Promise<string | null> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const cancel = new AbortController();
  rl.once("SIGINT", () => cancel.abort());
  try {
    const answer = (await rl.question("Your answer (empty to stop and answer later): ", { signal: cancel.signal })).trim();
    return answer || null;
  } catch (error) {
    if (cancel.signal.aborted) return null;
    throw error;
  } finally {
    rl.close();
  }
}
