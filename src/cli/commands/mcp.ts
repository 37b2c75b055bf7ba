import { join } from "node:path";
import { packageRoot, packageVersion } from "../../package-root.js";
import { projectRoot } from "../load-config.js";

/**
 * `yolo mcp`: serves yolo over stdio to an MCP client (Claude Code, Codex, Cursor, …) until the client closes the
 * connection. stdout carries only the protocol; each run is this same binary in a child with `--json --ci`.
 */
export async function mcpCommand(input: { cwd: string }): Promise<number> {
  const root = projectRoot(input.cwd);
  const [{ StdioServerTransport }, { createYoloMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("../../mcp/serve.js"),
  ]);
  const bin = join(packageRoot(), "bin", "yolo.js");
  const version = packageVersion();
  // Runs still going when the client leaves are stopped (SIGTERM: resumable), not left to finish unobserved.
  const shutdown = new AbortController();
  const server = createYoloMcpServer({ node: process.execPath, bin, cwd: root, env: process.env }, version, shutdown.signal);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  // The client going away (stdin closed) ends the server.
  process.stdin.once("end", () => void server.close());
  await closed;
  shutdown.abort();
  return 0;
}
