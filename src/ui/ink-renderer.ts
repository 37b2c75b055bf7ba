import { createEventSource } from "./event-source.js";
import { wrapKeepingIndent } from "./format.js";
import { frameWrites } from "./ink/frame-writes.js";
import type { Renderer, StopMode } from "./renderer.js";

export interface InkRendererOptions {
  /** Where to draw; Ink's default (process.stdout) when omitted. */
  stdout?: NodeJS.WriteStream;
  /** Where keys come from; Ink's default (process.stdin) when omitted. */
  stdin?: NodeJS.ReadStream;
  verbose?: boolean;
  /** Ask a waiting question inside the view (needs a terminal on stdin); otherwise show how to answer it later. */
  answersInline?: boolean;
  /** Ctrl+C typed into the view: while the view reads keys the terminal sends no SIGINT. */
  onInterrupt?: () => void;
}

/**
 * The live terminal view. Ink, React and the components are imported here, lazily, so the plain and
 * JSON paths (and `yolo --version`) never load them. One view lasts for every leg of a thread run in this
 * process (a question answered inline resumes the run in place); `close()` resolves once Ink has drawn its
 * last frame and unmounted, and that frame stays on the terminal.
 */
export async function createInkRenderer(opts: InkRendererOptions = {}): Promise<Renderer> {
  // React is CommonJS: its exports are the module's `default` both under Node's own loader and in the bundle.
  const [{ render }, { default: React }, { App }] = await importProductionReact(() =>
    importOutsideCi(() => importHonouringNoColor(() => Promise.all([import("ink"), import("react"), import("./ink/App.js")]))),
  );
  const { createElement } = React;
  const stdin = opts.stdin ?? process.stdin;
  const answersInline = (opts.answersInline ?? false) && stdin.isTTY === true;
  const source = createEventSource();
  const stop = new AbortController();
  // Answers typed before the CLI asks wait here; askers wait for the next answer.
  const answers: (string | null)[] = [];
  const askers: ((a: string | null) => void)[] = [];
  const onAnswer = (answer: string | null) => {
    const asker = askers.shift();
    if (asker) asker(answer);
    else answers.push(answer);
  };
  let stopping: StopMode | null = null;
  const element = () =>
    createElement(App, {
      events: source,
      verbose: opts.verbose ?? false,
      stopSignal: stop.signal,
      answersInline,
      onAnswer,
      onInterrupt: opts.onInterrupt,
      stopping,
    });
  const out = opts.stdout ?? process.stdout;
  const frames = frameWrites(out);
  const instance = render(element(), {
    stdout: frames.stdout,
    stdin,
    // Ctrl+C belongs to the CLI, which stops the run and still gets a run.completed to show.
    exitOnCtrlC: false,
    // docs/cli.md's "at most about 30 times a second"; use-run-events applies events at that pace (streamed text alone at half of it).
    maxFps: 30,
  });
  let closing: Promise<void> | null = null;
  // The answer of an agent or chat thread, printed whole under the last frame (the view shows one line of it).
  let reply: string | null = null;
  const renderer: Renderer = {
    onEvent(e) {
      if (e.type === "reply") reply = e.text;
      // A new leg clears the previous stop request's notice.
      if (e.type === "run.started" && stopping !== null) {
        stopping = null;
        instance.rerender(element());
      }
      source.push(e);
    },
    onStopRequest(mode) {
      stopping = mode;
      instance.rerender(element());
    },
    close() {
      closing ??= (async () => {
        for (const asker of askers.splice(0)) asker(null);
        stop.abort();
        await instance.waitUntilExit();
        frames.close();
        if (reply !== null) {
          // Wrapped at word boundaries here: the terminal would break its long lines mid-word.
          const lines = wrapKeepingIndent(reply.trimEnd(), Math.max(20, out.columns || 80));
          out.write(`\n${lines.join("\n")}\n`);
        }
      })();
      return closing;
    },
  };
  if (answersInline) {
    renderer.ask = () => (answers.length ? Promise.resolve(answers.shift() ?? null) : new Promise<string | null>((resolve) => askers.push(resolve)));
  }
  return renderer;
}

/**
 * Ink decides once, when it is imported, to draw only the final frame when `CI` is set. The live view is only
 * chosen outside CI or when `--tui` asks for it, so Ink is imported as if outside CI and the variables restored.
 */
async function importOutsideCi<T>(load: () => Promise<T>): Promise<T> {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return await load();
  } finally {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  }
}

/**
 * NO_COLOR (no-color.org) set to anything non-empty: the view draws without colours. Ink's colours come from chalk,
 * which decides its colour level once, when it is imported, from FORCE_COLOR (not NO_COLOR): it is imported with
 * FORCE_COLOR=0 and the variable restored, so the run's commands see the environment unchanged. A FORCE_COLOR the
 * user set wins, as chalk's own rule has it.
 */
async function importHonouringNoColor<T>(load: () => Promise<T>): Promise<T> {
  const env = process.env;
  if (!env.NO_COLOR || env.FORCE_COLOR !== undefined) return load();
  env.FORCE_COLOR = "0";
  try {
    return await load();
  } finally {
    delete env.FORCE_COLOR;
  }
}

/**
 * React and its reconciler pick their build from NODE_ENV when first loaded; the development build made the
 * view cost several times more CPU under a token flood. When NODE_ENV is unset (a normal start), it is set
 * only while they load: the run's commands (the user's tests) start from this process's environment and must
 * not see it changed. A NODE_ENV someone set (a test runner's "test") is left to choose.
 */
async function importProductionReact<T>(load: () => Promise<T>): Promise<T> {
  // Through an alias: the bundled CLI has `process.env.NODE_ENV` compiled to "production" inside React itself
  // (scripts/build.mjs), and that substitution must not turn these run-time reads and writes into constants.
  const env = process.env;
  if (env.NODE_ENV !== undefined) return load();
  env.NODE_ENV = "production";
  try {
    return await load();
  } finally {
    delete env.NODE_ENV;
  }
}
