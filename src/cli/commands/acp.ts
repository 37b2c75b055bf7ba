import { Readable, Writable } from "node:stream";
import { join } from "node:path";
import { packageRoot, packageVersion } from "../../package-root.js";

/** How the editor went away, and the exit code that says so (128 + the signal's number, as a shell would). */
const ENDINGS = { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 } as const;

/**
 * `yolo acp`: serves the Agent Client Protocol over stdio to an editor (Zed, JetBrains, Neovim) until it closes the
 * connection. stdout carries only the protocol; each run is this same binary in a child with `--json --ci`, in the
 * folder the editor's session names (the project root is found from there). The editor going away — its end of
 * stdin closing, or SIGTERM / SIGHUP / SIGINT — stops the runs in progress as a cancel does (each child gets
 * SIGTERM, checkpoints and ends, resumable from the CLI) and waits for them before exiting: children share no
 * signal with their parent unless it forwards one, and a run nobody watches must not go on writing files.
 */
export async function acpCommand(): Promise<number> {
  const [{ ndJsonStream }, { createYoloAcpAgent }] = await Promise.all([import("@agentclientprotocol/sdk"), import("../../acp/agent.js")]);
  const bin = join(packageRoot(), "bin", "yolo.js");
  const { app, stopRuns } = createYoloAcpAgent({ node: process.execPath, bin, env: process.env }, packageVersion());
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  const handlers = new Map<NodeJS.Signals, () => void>();
  const code = await new Promise<number>((resolve) => {
    for (const [signal, exitCode] of Object.entries(ENDINGS) as [NodeJS.Signals, number][]) {
      handlers.set(signal, () => resolve(exitCode));
      process.once(signal, handlers.get(signal) as () => void);
    }
    void connection.closed.then(() => resolve(0));
  });
  await stopRuns();
  for (const [signal, handler] of handlers) process.off(signal, handler);
  // After a signal the editor's pipe may still be open: reading it would keep the process alive.
  process.stdin.destroy();
  return code;
}
