import { Readable, Writable } from "node:stream";
import { join } from "node:path";
import { packageRoot, packageVersion } from "../../package-root.js";

/**
 * `yolo acp`: serves the Agent Client Protocol over stdio to an editor (Zed, JetBrains, Neovim) until it closes the
 * connection. stdout carries only the protocol; each run is this same binary in a child with `--json --ci`, in the
 * folder the editor's session names (the project root is found from there).
 */
export async function acpCommand(): Promise<number> {
  const [{ ndJsonStream }, { createYoloAcpAgent }] = await Promise.all([import("@agentclientprotocol/sdk"), import("../../acp/agent.js")]);
  const bin = join(packageRoot(), "bin", "yolo.js");
  const app = createYoloAcpAgent({ node: process.execPath, bin, env: process.env }, packageVersion());
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  await connection.closed;
  return 0;
}
